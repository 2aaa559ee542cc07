// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_stress.c - every kind of listener on one device while a writer
 * injects events, the dummy's timer runs fast, and the dummy is unloaded
 * and reloaded (and a PCI stub unbound and rebound) under all of it.
 *
 * Bounded in time: iio_test.seconds=N on the kernel command line (make
 * stress: minutes) runs the stress for N seconds; without it a few
 * seconds (make check).  The guest boots with slub_debug=FZPU and
 * tests/run fails the boot on any oops, BUG, WARNING, lockdep or poison
 * report, so a use-after-free under the reloads shows up there.
 *
 * Checks per epoch (one load of the dummy): every listener sees strictly
 * increasing counts and, once the timer is stopped and the writer done,
 * the device's final total, which is the timer's ticks plus what the
 * writer injected; every blocked listener wakes with EIO (or
 * POLLERR|POLLHUP) when the dummy goes.  After the cycles: the numbers
 * are iio0.. again (reload everything in boot order), and slab usage
 * does not grow over load/unload cycles.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/iio_test.h"

#define EDU0_PCI	"0000:00:10.0"
#define EDU1_PCI	"0000:00:11.0"
#define TESTDEV_PCI	"0000:00:18.0"
#define GENERIC_PCI	"0000:00:13.0"	/* left unbound by qemu/init */
#define GENERIC_DRV	"iio_pci_generic"

/* the dummy's timer rate during the stress (events per second) */
#define STRESS_FREQ	2000

enum kind { READER, POLLER, EPOLLER, SIGIOER, NKINDS };
static const char *const kind_names[] = { "reader", "poller", "epoll", "sigio" };
/* listeners of each kind */
static const int kind_count[NKINDS] = { 3, 2, 1, 1 };
#define NLISTENERS 7

struct listener {
	volatile uint32_t first, last;	/* counts seen */
	volatile uint64_t reads;
	volatile int opened, gone;
	char why[160];			/* set on a failure */
};

struct shared {
	struct listener l[NLISTENERS];
	volatile int writer_stop, writer_done;
	volatile uint64_t written;	/* events the writer injected */
	char writer_why[160];
	volatile int pci_stop;
	volatile unsigned pci_cycles;
	char pci_why[160];
};

static struct shared *sh;
static unsigned long long stress_seconds;

static void *shared_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		FAIL("mmap shared: %s", strerror(errno));
	memset(p, 0, size);
	return p;
}

/* a listener child: _exit(0) after the device went away, 1 on a failure */
static __attribute__((noreturn)) void lfail(struct listener *l,
					    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(l->why, sizeof(l->why), fmt, ap);
	va_end(ap);
	_exit(1);
}

/* a read returned count c: it must be newer than the last one */
static void seen(struct listener *l, uint32_t c)
{
	if (l->reads && (int32_t)(c - l->last) <= 0)
		lfail(l, "count %u after %u: not increasing", c, l->last);
	if (!l->reads)
		l->first = c;
	l->last = c;
	l->reads++;
}

/* one read on a file that is readable (or gone): true while there */
static bool read_one(struct listener *l, int fd, bool must)
{
	uint32_t c;
	ssize_t n = read(fd, &c, sizeof(c));

	if (n == 4) {
		seen(l, c);
		return true;
	}
	if (n < 0 && errno == EIO) {
		l->gone = 1;
		return false;
	}
	if (n < 0 && errno == EAGAIN && !must)
		return true;
	lfail(l, "read: %zd, errno %d (%s)", n, errno, strerror(errno));
}

static void listen_reader(struct listener *l, int fd)
{
	while (read_one(l, fd, true))
		;
}

static void listen_poller(struct listener *l, int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	for (;;) {
		if (poll(&pfd, 1, -1) != 1)
			lfail(l, "poll: errno %d", errno);
		if (pfd.revents & (POLLERR | POLLHUP)) {
			if (read_one(l, fd, true))
				lfail(l, "poll said %#x, read still works",
				      pfd.revents);
			return;
		}
		/* readable: a read must find the unseen event */
		if (!read_one(l, fd, true))
			return;
	}
}

static void listen_epoll(struct listener *l, int fd)
{
	struct epoll_event ev = { .events = EPOLLIN }, got;
	int ep = epoll_create1(0);

	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev))
		lfail(l, "epoll setup: errno %d", errno);
	for (;;) {
		if (epoll_wait(ep, &got, 1, -1) != 1)
			lfail(l, "epoll_wait: errno %d", errno);
		if (got.events & (EPOLLERR | EPOLLHUP)) {
			if (read_one(l, fd, true))
				lfail(l, "epoll said %#x, read still works",
				      got.events);
			return;
		}
		if (!read_one(l, fd, true))
			return;
	}
}

static void listen_sigio(struct listener *l, int fd)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGIO);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (fcntl(fd, F_SETOWN, getpid()) ||
	    fcntl(fd, F_SETFL, O_NONBLOCK | O_ASYNC))
		lfail(l, "O_ASYNC: errno %d", errno);
	for (;;) {
		/* SIGIO coalesces: drain on each; the timeout also reads */
		sigtimedwait(&set, NULL, &ts);
		for (;;) {
			uint32_t c;
			ssize_t n = read(fd, &c, sizeof(c));

			if (n == 4) {
				seen(l, c);
				continue;
			}
			if (n < 0 && errno == EAGAIN)
				break;
			if (n < 0 && errno == EIO) {
				l->gone = 1;
				return;
			}
			lfail(l, "read: %zd, errno %d", n, errno);
		}
	}
}

static pid_t fork_listener(struct listener *l, enum kind k, int nr)
{
	pid_t pid = fork();

	if (pid < 0)
		FAIL("fork: %s", strerror(errno));
	if (pid)
		return pid;
	{
		int fd = open(iio_node(nr, "_event"),
			      O_RDONLY | (k == READER ? 0 : O_NONBLOCK));

		if (fd < 0)
			lfail(l, "open: errno %d", errno);
		l->opened = 1;
		switch (k) {
		case READER: listen_reader(l, fd); break;
		case POLLER: listen_poller(l, fd); break;
		case EPOLLER: listen_epoll(l, fd); break;
		default: listen_sigio(l, fd); break;
		}
	}
	_exit(l->gone ? 0 : 1);
}

static pid_t fork_writer(int nr)
{
	pid_t pid = fork();
	uint32_t n = 0;
	int fd;

	if (pid < 0)
		FAIL("fork: %s", strerror(errno));
	if (pid)
		return pid;
	fd = open(iio_node(nr, "_event"), O_WRONLY);
	if (fd < 0) {
		snprintf(sh->writer_why, sizeof(sh->writer_why),
			 "open: errno %d", errno);
		_exit(1);
	}
	while (!sh->writer_stop) {
		n = n % 5 + 1;
		if (write(fd, &n, sizeof(n)) != sizeof(n)) {
			snprintf(sh->writer_why, sizeof(sh->writer_why),
				 "write: errno %d", errno);
			_exit(1);
		}
		sh->written += n;
		usleep(500);
	}
	sh->writer_done = 1;
	/* the device stays open across the unload */
	pause();
	_exit(0);
}

static void wait_opened(int n)
{
	int i, k, opened;

	for (i = 0; i < 1000; i++) {
		for (k = 0, opened = 0; k < n; k++)
			opened += sh->l[k].opened;
		if (opened == n)
			return;
		msleep(5);
	}
	FAIL("listeners did not open the event node");
}

static void expect_listener_ok(pid_t pid, int i)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		FAIL("waitpid listener %d: %s", i, strerror(errno));
	if (sh->l[i].why[0])
		FAIL("listener %d: %s", i, sh->l[i].why);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		FAIL("listener %d: %s %d", i,
		     WIFEXITED(status) ? "exit" : "signal",
		     WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
}

/*
 * One epoch: load the dummy with a fast timer, the listeners and the
 * writer on it for @ms, then stop the sources, check the accounting and
 * unload it under them.  Returns the events of the epoch.
 */
static uint64_t epoch(unsigned int ms)
{
	pid_t pids[NLISTENERS], writer;
	uint64_t total, ticks;
	char params[64];
	int nr, i, k, n = 0, err;

	snprintf(params, sizeof(params), "freq=%d", STRESS_FREQ);
	err = module_load("iio_user_dummy", params);
	if (err)
		FAIL("load iio_user_dummy: %s", strerror(err));
	nr = dummy_nr(0);
	sh->writer_stop = sh->writer_done = 0;
	sh->written = 0;
	sh->writer_why[0] = 0;
	memset(sh->l, 0, sizeof(sh->l));
	for (k = 0; k < NKINDS; k++)
		for (i = 0; i < kind_count[k]; i++, n++)
			pids[n] = fork_listener(&sh->l[n], (enum kind)k, nr);
	wait_opened(NLISTENERS);
	writer = fork_writer(nr);
	msleep(ms);

	/* quiesce: no more events, then every listener catches up */
	sh->writer_stop = 1;
	for (i = 0; i < 2000 && !sh->writer_done && !sh->writer_why[0]; i++)
		msleep(1);
	if (sh->writer_why[0])
		FAIL("writer: %s", sh->writer_why);
	if (!sh->writer_done)
		FAIL("writer did not stop");
	EXPECT_EQ(write_text(dummy_attr(0, "freq"), "0"), 0);
	msleep(20);	/* a tick in flight */
	total = read_num(iio_attr_path(nr, "event"));
	ticks = read_num(dummy_attr(0, "count"));
	if (total != ticks + sh->written)
		FAIL("events %llu != ticks %llu + written %llu",
		     (unsigned long long)total, (unsigned long long)ticks,
		     (unsigned long long)sh->written);
	for (i = 0; i < NLISTENERS; i++) {
		int tries;

		for (tries = 0; tries < 500 && !sh->l[i].why[0] &&
		     sh->l[i].last != (uint32_t)total; tries++)
			msleep(10);
		if (sh->l[i].why[0])
			FAIL("listener %d: %s", i, sh->l[i].why);
		if (sh->l[i].last != (uint32_t)total)
			FAIL("%s listener %d: last count %u, device total %llu",
			     kind_names[i < 3 ? 0 : i < 5 ? 1 : i < 6 ? 2 : 3],
			     i, sh->l[i].last, (unsigned long long)total);
	}

	/* unload under all of them: each wakes with EIO and exits 0 */
	err = module_unload("iio_user_dummy");
	if (err)
		FAIL("unload iio_user_dummy: %s", strerror(err));
	for (i = 0; i < NLISTENERS; i++)
		expect_listener_ok(pids[i], i);
	kill(writer, SIGKILL);
	waitpid(writer, NULL, 0);
	return total;
}

/* iio_pci_generic bound and unbound over and over, until told to stop */
static pid_t fork_pci_cycler(void)
{
	char path[128];
	pid_t pid = fork();

	if (pid < 0)
		FAIL("fork: %s", strerror(errno));
	if (pid)
		return pid;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver_override",
		 GENERIC_PCI);
	while (!sh->pci_stop) {
		int err = write_text(path, GENERIC_DRV), fd = -1;

		if (!err)
			err = pci_driver_bind(GENERIC_DRV, GENERIC_PCI);
		if (err) {
			snprintf(sh->pci_why, sizeof(sh->pci_why),
				 "bind %s: %s", GENERIC_PCI, strerror(err));
			_exit(1);
		}
		/* an open event file and a blocked reader across the unbind */
		{
			int nr = iio_find_by_name(GENERIC_PCI " bar0", 0);
			pid_t r = -1;

			if (nr >= 0)
				fd = open(iio_node(nr, "_event"), O_RDONLY);
			if (fd >= 0)
				r = fork_blocked_reader(fd);
			msleep(200);
			err = pci_driver_unbind(GENERIC_DRV, GENERIC_PCI);
			if (r > 0) {
				int status;

				waitpid(r, &status, 0);
				if (!err && (!WIFEXITED(status) ||
					     WEXITSTATUS(status)))
					snprintf(sh->pci_why, sizeof(sh->pci_why),
						 "blocked reader on %s did not get EIO",
						 GENERIC_PCI);
			}
		}
		if (fd >= 0)
			close(fd);
		if (err) {
			snprintf(sh->pci_why, sizeof(sh->pci_why),
				 "unbind %s: %s", GENERIC_PCI, strerror(err));
			_exit(1);
		}
		write_text(path, "none");
		sh->pci_cycles++;
		if (sh->pci_why[0])
			_exit(1);
	}
	_exit(0);
}

/* the stress: dummy epochs back to back, a PCI bind/unbind loop beside */
static void listeners_under_reload(void)
{
	unsigned long long end, epochs = 0, events = 0;
	pid_t pci;
	int status;

	sh = shared_alloc(sizeof(*sh));
	EXPECT_EQ(module_unload("iio_user_dummy"), 0);
	pci = fork_pci_cycler();
	end = now_ms() + stress_seconds * 1000;
	srand(1);
	/* past the end, until the PCI cycle in progress (at least one) ends */
	do {
		events += epoch(100 + (unsigned)rand() % 700);
		epochs++;
		if (sh->pci_why[0])
			FAIL("PCI cycle: %s", sh->pci_why);
		if (now_ms() >= end)
			sh->pci_stop = 1;
	} while (now_ms() < end || !sh->pci_cycles);
	waitpid(pci, &status, 0);
	if (sh->pci_why[0])
		FAIL("PCI cycle: %s", sh->pci_why);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		FAIL("PCI cycler: status %#x", status);
	check_note("stress: %llu epochs, %llu events, %u PCI cycles in %llu s (%llu ms in all)",
		   epochs, events, sh->pci_cycles, stress_seconds,
		   now_ms() - end + stress_seconds * 1000);
	EXPECT_EQ(module_load("iio_user_dummy", ""), 0);
}

/*
 * After the cycles the numbers are the boot's again: the dummy, reloaded
 * with nothing open, is iio0 and the devices are iio0..iio3.  Then the
 * full round: everything unloaded leaves no device, and reloading in boot
 * order gives iio0 the dummy, iio1 and iio2 the edus, iio3 the
 * pci-testdev.
 */
static void numbers_return_to_iio0(void)
{
	EXPECT_EQ(module_unload("iio_user_dummy"), 0);
	EXPECT_EQ(module_load("iio_user_dummy", ""), 0);
	EXPECT_EQ(dummy_nr(0), 0);
	EXPECT_EQ(iio_numbers(), 0xf);
	EXPECT_EQ(module_unload("iio_user_dummy"), 0);
	EXPECT_EQ(pci_driver_unbind("iio_edu", EDU0_PCI), 0);
	EXPECT_EQ(pci_driver_unbind("iio_edu", EDU1_PCI), 0);
	EXPECT_EQ(pci_driver_unbind("iio_pcitest", TESTDEV_PCI), 0);
	if (iio_numbers())
		FAIL("devices left with every stub unloaded: mask %#llx",
		     iio_numbers());
	EXPECT_EQ(module_load("iio_user_dummy", ""), 0);
	EXPECT_EQ(dummy_nr(0), 0);
	EXPECT_EQ(pci_driver_bind("iio_edu", EDU0_PCI), 0);
	EXPECT_EQ(iio_find_by_parent(EDU0_PCI), 1);
	EXPECT_EQ(pci_driver_bind("iio_edu", EDU1_PCI), 0);
	EXPECT_EQ(iio_find_by_parent(EDU1_PCI), 2);
	EXPECT_EQ(pci_driver_bind("iio_pcitest", TESTDEV_PCI), 0);
	EXPECT_EQ(iio_find_by_parent(TESTDEV_PCI), 3);
	EXPECT_EQ(iio_numbers(), 0xf);
}

/* one use of the dummy: every node opened, read, mapped, then unloaded */
static void use_and_unload(void)
{
	static const char *const sfx[] = { "", "_in", "_out", "_event" };
	int fds[4], i, nr, err;
	uint32_t one = 1;
	void *map;

	err = module_load("iio_user_dummy", "freq=100");
	if (err)
		FAIL("load iio_user_dummy: %s", strerror(err));
	nr = dummy_nr(0);
	for (i = 0; i < 4; i++)
		fds[i] = MUST(open(iio_node(nr, sfx[i]),
				   (i == 1 ? O_RDONLY : O_RDWR) | O_NONBLOCK));
	EXPECT_EQ(write(fds[3], &one, 4), 4);
	EXPECT_EQ(read(fds[3], &one, 4), 4);
	EXPECT_EQ(pread(fds[0], &one, 4, 0), 4);
	map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fds[2], 0);
	EXPECT(map != MAP_FAILED);
	*(volatile uint32_t *)map = 7;
	munmap(map, 4096);
	for (i = 0; i < 4; i++)
		close(fds[i]);
	err = module_unload("iio_user_dummy");
	if (err)
		FAIL("unload iio_user_dummy: %s", strerror(err));
}

/* slab usage after N load/use/unload cycles is what it was after two */
static void slab_does_not_grow(void)
{
	unsigned long long before, after, kb_before, kb_after, cycles, i;
	unsigned long long t0 = now_ms(), limit, settle;

	cycles = stress_seconds > 60 ? 200 : 40;
	EXPECT_EQ(module_unload("iio_user_dummy"), 0);
	for (i = 0; i < 3; i++)		/* warm the caches */
		use_and_unload();
	msleep(200);
	before = slab_active_objects();
	kb_before = meminfo_kb("SUnreclaim");
	for (i = 0; i < cycles; i++)
		use_and_unload();
	/* a leak of one object a cycle is `cycles` more; allow noise */
	limit = before + (cycles / 2 > 24 ? cycles / 2 : 24);
	/*
	 * Objects freed after an RCU grace period (kfree_rcu(), module and
	 * kernfs teardown) come back late on a loaded host: sample until
	 * within the limit, up to 5 s of the guest's clock; a leak stays.
	 */
	settle = now_ms() + 5000;
	do {
		msleep(200);
		after = slab_active_objects();
	} while (after > limit && now_ms() < settle);
	kb_after = meminfo_kb("SUnreclaim");
	check_note("slab: %llu -> %llu objects, SUnreclaim %llu -> %llu kB over %llu cycles (%llu ms)",
		   before, after, kb_before, kb_after, cycles, now_ms() - t0);
	EXPECT_EQ(module_load("iio_user_dummy", ""), 0);
	if (!before)
		FAIL("no /proc/slabinfo");
	if (after > limit)
		FAIL("slab objects grew by %llu over %llu cycles (%llu -> %llu)",
		     after - before, cycles, before, after);
}

static struct check_case cases[] = {
	CASE(listeners_under_reload),
	CASE(slab_does_not_grow),
	CASE_T(numbers_return_to_iio0, 180),
};

int main(int argc, char **argv)
{
	stress_seconds = test_param("seconds", 6);
	/* room for the last epoch and PCI cycle (~7 s each under ACPI) */
	cases[0].timeout_s = (unsigned int)stress_seconds + 60;
	cases[1].timeout_s = stress_seconds > 60 ? 300 : 60;
	return check_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
