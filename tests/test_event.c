// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_event.c - /dev/iioN_event of the dummy: counts, blocking,
 * poll/select/epoll, SIGIO, signals, cyclic and one-shot sources
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/iio_test.h"

static int nr;

static void setup(void)
{
	dummy_reload("freq=0");
	nr = dummy_nr(0);
}

static int open_event(int flags)
{
	return MUST(open(iio_node(nr, "_event"), flags));
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void read_returns_total_count(void)
{
	uint32_t before;
	int fd;

	setup();
	before = read_num(iio_attr_path(nr, "event"));
	fd = open_event(O_RDWR);
	event_inject(nr, 3);
	EXPECT_EQ(event_read(fd), before + 3);
	event_inject(nr, 1);
	EXPECT_EQ(event_read(fd), before + 4);
	EXPECT_EQ(read_num(iio_attr_path(nr, "event")), before + 4);
	close(fd);
}

static void nonblocking_gives_eagain(void)
{
	uint32_t c;
	int fd;

	setup();
	fd = open_event(O_RDONLY | O_NONBLOCK);
	EXPECT_ERRNO(read(fd, &c, sizeof(c)), EAGAIN);
	event_inject(nr, 1);
	EXPECT_EQ(read(fd, &c, sizeof(c)), 4);
	EXPECT_ERRNO(read(fd, &c, sizeof(c)), EAGAIN);
	close(fd);
}

/* no position: lseek, pread and pwrite fail with ESPIPE; no mmap */
static void no_position(void)
{
	uint32_t c = 1;
	int fd;

	setup();
	fd = open_event(O_RDWR);
	EXPECT_ERRNO(lseek(fd, 0, SEEK_SET), ESPIPE);
	EXPECT_ERRNO(pread(fd, &c, sizeof(c), 0), ESPIPE);
	EXPECT_ERRNO(pwrite(fd, &c, sizeof(c), 0), ESPIPE);
	EXPECT_ERRNO(mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0), ENODEV);
	EXPECT_EQ(write(fd, &c, sizeof(c)), 4);	/* plain write still works */
	EXPECT_EQ(read(fd, &c, sizeof(c)), 4);
	close(fd);
}

static void short_buffer_is_einval(void)
{
	char buf[3];
	uint64_t big;
	int fd;

	setup();
	fd = open_event(O_RDWR | O_NONBLOCK);
	event_inject(nr, 1);
	EXPECT_ERRNO(read(fd, buf, 3), EINVAL);
	EXPECT_ERRNO(read(fd, buf, 0), EINVAL);
	/* a larger buffer gets exactly 4 bytes */
	EXPECT_EQ(read(fd, &big, sizeof(big)), 4);
	close(fd);
}

static void check_listeners(int n)
{
	uint32_t total, first[4];
	int fds[4], i;

	setup();
	for (i = 0; i < n; i++)
		fds[i] = open_event(O_RDONLY);
	EXPECT_EQ(read_num(iio_attr_path(nr, "listener")), n);
	total = read_num(iio_attr_path(nr, "event"));
	event_inject(nr, 2);
	for (i = 0; i < n; i++)
		first[i] = event_read(fds[i]);
	event_inject(nr, 5);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(first[i], total + 2);
		EXPECT_EQ(event_read(fds[i]), total + 7);
	}
	for (i = 0; i < n; i++)
		close(fds[i]);
	EXPECT_EQ(read_num(iio_attr_path(nr, "listener")), 0);
}

/* a file opened write-only injects events; it is not a listener */
static void write_only_open_is_not_a_listener(void)
{
	int wfd, rfd;

	setup();
	EXPECT_EQ(read_num(iio_attr_path(nr, "listener")), 0);
	wfd = open_event(O_WRONLY);
	EXPECT_EQ(read_num(iio_attr_path(nr, "listener")), 0);
	rfd = open_event(O_RDWR);
	EXPECT_EQ(read_num(iio_attr_path(nr, "listener")), 1);
	close(rfd);
	EXPECT_EQ(read_num(iio_attr_path(nr, "listener")), 0);
	/* its close takes nothing from the read-write file's count */
	rfd = open_event(O_RDONLY);
	close(wfd);
	EXPECT_EQ(read_num(iio_attr_path(nr, "listener")), 1);
	close(rfd);
	EXPECT_EQ(read_num(iio_attr_path(nr, "listener")), 0);
}

/*
 * 2^32 events since a listener's last read (two writes of 0x80000000):
 * read() returns the same 32 bits as before (the ABI), but they are new
 * events, so poll says readable and read() returns at once.
 */
static void two_to_the_32_events_are_seen(void)
{
	struct pollfd pfd;
	uint32_t before;
	int fd;

	setup();
	fd = open_event(O_RDONLY | O_NONBLOCK);
	event_inject(nr, 1);
	before = event_read(fd);
	event_inject(nr, 0x80000000u);
	event_inject(nr, 0x80000000u);
	EXPECT_EQ(read_num(iio_attr_path(nr, "event")), before);
	pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
	EXPECT_EQ(poll(&pfd, 1, 0), 1);
	EXPECT_EQ(pfd.revents, POLLIN);
	EXPECT_EQ(event_read(fd), before);
	/* and then nothing new */
	EXPECT_EQ(poll(&pfd, 1, 0), 0);
	EXPECT_ERRNO(read(fd, &before, sizeof(before)), EAGAIN);
	close(fd);
}

static void two_listeners_see_every_event(void)
{
	check_listeners(2);
}

static void four_listeners_see_every_event(void)
{
	check_listeners(4);
}

/* four processes blocked at once all wake for one event */
static void blocked_readers_all_wake(void)
{
	pid_t pids[4];
	uint32_t expect;
	int i, status;

	setup();
	expect = read_num(iio_attr_path(nr, "event")) + 1;
	for (i = 0; i < 4; i++) {
		pids[i] = fork();
		if (!pids[i]) {
			int fd = open_event(O_RDONLY);
			uint32_t c;

			if (read(fd, &c, 4) != 4 || c != expect)
				_exit(1);
			_exit(0);
		}
	}
	for (i = 0; i < 4; i++)
		wait_sleeping_in(pids[i], SYS_read, 10000);
	event_inject(nr, 1);
	for (i = 0; i < 4; i++) {
		waitpid(pids[i], &status, 0);
		EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
}

static void poll_readiness(void)
{
	struct pollfd pfd;
	fd_set rfds;
	struct timeval tv = { 0, 0 };
	int fd;

	setup();
	fd = open_event(O_RDONLY);
	pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
	EXPECT_EQ(poll(&pfd, 1, 0), 0);
	event_inject(nr, 1);
	EXPECT_EQ(poll(&pfd, 1, 0), 1);
	EXPECT_EQ(pfd.revents, POLLIN);
	FD_ZERO(&rfds);
	FD_SET(fd, &rfds);
	EXPECT_EQ(select(fd + 1, &rfds, NULL, NULL, &tv), 1);
	event_read(fd);
	EXPECT_EQ(poll(&pfd, 1, 0), 0);
	FD_ZERO(&rfds);
	FD_SET(fd, &rfds);
	EXPECT_EQ(select(fd + 1, &rfds, NULL, NULL, &tv), 0);
	close(fd);
}

static void poll_wakes_on_event(void)
{
	struct pollfd pfd;
	pid_t pid;
	int fd;

	setup();
	fd = open_event(O_RDONLY);
	pid = fork();
	if (!pid) {
		wait_sleeping_in(getppid(), SYS_poll, 10000);
		event_inject(nr, 1);
		_exit(0);
	}
	pfd = (struct pollfd){ .fd = fd, .events = POLLIN | POLLOUT };
	EXPECT_EQ(poll(&pfd, 1, 10000), 1);
	EXPECT_EQ(pfd.revents, POLLIN);
	waitpid(pid, NULL, 0);
	close(fd);
}

static void epoll_readiness(void)
{
	struct epoll_event ev = { .events = EPOLLIN }, got;
	int fd, ep;

	setup();
	fd = open_event(O_RDONLY);
	ep = MUST(epoll_create1(0));
	MUST(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev));
	EXPECT_EQ(epoll_wait(ep, &got, 1, 0), 0);
	event_inject(nr, 1);
	EXPECT_EQ(epoll_wait(ep, &got, 1, 1000), 1);
	EXPECT(got.events & EPOLLIN);
	event_read(fd);
	EXPECT_EQ(epoll_wait(ep, &got, 1, 0), 0);
	close(ep);
	close(fd);
}

static volatile sig_atomic_t sigio_count, sigalrm_count;
/* set by the SIGALRM handler too, when not NULL (shared with a child) */
static volatile sig_atomic_t *alarm_flag;


static void on_sigio(int sig)
{
	(void)sig;
	sigio_count++;
}

static void on_sigalrm(int sig)
{
	(void)sig;
	sigalrm_count++;
	if (alarm_flag)
		*alarm_flag = 1;
}

static void sigio_on_every_event(void)
{
	int fd, i;

	setup();
	signal(SIGIO, on_sigio);
	fd = open_event(O_RDONLY);
	MUST(fcntl(fd, F_SETOWN, getpid()));
	MUST(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC));
	/*
	 * the event write sends SIGIO to this (single-threaded) process
	 * from within the write (iio_event_add()): it is handled before
	 * write() returns, so each count is checked at once, no sleep
	 */
	for (i = 0; i < 3; i++) {
		event_inject(nr, 1);
		EXPECT_EQ(sigio_count, i + 1);
	}
	/* off again: no more signals */
	MUST(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_ASYNC));
	event_inject(nr, 1);
	EXPECT_EQ(sigio_count, 3);
	close(fd);
}

/* a child that sends SIGALRM once the parent is blocked in read() */
static pid_t alarm_when_blocked(void)
{
	pid_t pid = MUST(fork());

	if (!pid) {
		wait_sleeping_in(getppid(), SYS_read, 10000);
		kill(getppid(), SIGALRM);
		_exit(0);
	}
	return pid;
}

static void signal_interrupts_read(void)
{
	struct sigaction sa = { .sa_handler = on_sigalrm };
	uint32_t c;
	pid_t pid;
	int fd;

	setup();
	sigaction(SIGALRM, &sa, NULL);	/* no SA_RESTART */
	fd = open_event(O_RDONLY);
	pid = alarm_when_blocked();
	EXPECT_ERRNO(read(fd, &c, sizeof(c)), EINTR);
	EXPECT_EQ(sigalrm_count, 1);
	expect_child_ok(pid);
	close(fd);
}

/*
 * With SA_RESTART the read goes on after the handler: the event is
 * injected only once the parent, signalled while blocked, is blocked
 * again.
 */
static void sa_restart_restarts_read(void)
{
	struct sigaction sa = { .sa_handler = on_sigalrm, .sa_flags = SA_RESTART };
	volatile sig_atomic_t *handled;
	uint32_t before;
	pid_t pid;
	int fd;

	setup();
	handled = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	EXPECT(handled != MAP_FAILED);
	sigaction(SIGALRM, &sa, NULL);
	fd = open_event(O_RDONLY);
	before = read_num(iio_attr_path(nr, "event"));
	alarm_flag = handled;
	pid = MUST(fork());
	if (!pid) {
		wait_sleeping_in(getppid(), SYS_read, 10000);
		kill(getppid(), SIGALRM);
		while (!*handled)	/* the handler ran */
			msleep(1);
		wait_sleeping_in(getppid(), SYS_read, 10000);
		event_inject(nr, 1);
		_exit(0);
	}
	EXPECT_EQ(event_read(fd), before + 1);
	EXPECT_EQ(sigalrm_count, 1);
	expect_child_ok(pid);
	close(fd);
}

static void event_write_validation(void)
{
	uint32_t zero = 0;
	uint8_t three[3] = { 1, 0, 0 };
	uint64_t eight = 1;
	int fd;

	setup();
	fd = open_event(O_RDWR);
	EXPECT_ERRNO(write(fd, &zero, 4), EINVAL);
	EXPECT_ERRNO(write(fd, three, 3), EINVAL);
	EXPECT_ERRNO(write(fd, &eight, 8), EINVAL);
	EXPECT_ERRNO(write(fd, bad_pointer(), 4), EFAULT);
	close(fd);
}

/* more than 64 bytes: EINVAL before the bytes are even looked at */
static void event_write_over_64_bytes(void)
{
	static char buf[4096] = { 1 };
	int fd;

	setup();
	fd = open_event(O_RDWR);
	EXPECT_ERRNO(write(fd, buf, 65), EINVAL);
	EXPECT_ERRNO(write(fd, bad_pointer(), 65), EINVAL);
	EXPECT_ERRNO(write(fd, bad_pointer(), 64), EFAULT);
	EXPECT_ERRNO(write(fd, buf, 4096), EINVAL);
	EXPECT_EQ(read_num(iio_attr_path(nr, "event")), 0);
	close(fd);
}

/*
 * A stub without event_write (the dummy with event_write=0): a write of up
 * to 64 bytes fails with EOPNOTSUPP and raises nothing; more than 64 is
 * still EINVAL, checked first.
 */
static void event_write_missing_is_eopnotsupp(void)
{
	static char buf[65] = { 1 };
	int fd;

	dummy_reload("freq=0 event_write=0");
	nr = dummy_nr(0);
	fd = open_event(O_RDWR);
	EXPECT_ERRNO(write(fd, buf, 4), EOPNOTSUPP);
	EXPECT_ERRNO(write(fd, buf, 64), EOPNOTSUPP);
	EXPECT_ERRNO(write(fd, buf, 65), EINVAL);
	EXPECT_EQ(read_num(iio_attr_path(nr, "event")), 0);
	close(fd);
	dummy_reload("");
}

/* POLLOUT is never reported, whatever the state (write never blocks) */
static void pollout_never_reported(void)
{
	struct pollfd pfd;
	int fd;

	setup();
	fd = open_event(O_RDWR);
	pfd = (struct pollfd){ .fd = fd, .events = POLLIN | POLLOUT | POLLWRNORM };
	EXPECT_EQ(poll(&pfd, 1, 0), 0);
	event_inject(nr, 1);
	EXPECT_EQ(poll(&pfd, 1, 0), 1);
	EXPECT_EQ(pfd.revents, POLLIN);
	pfd.events = POLLOUT | POLLWRNORM;
	EXPECT_EQ(poll(&pfd, 1, 0), 0);
	close(fd);
}

/* no ioctl on the event device */
static void ioctl_is_enotty(void)
{
	int fd, arg = 0;

	setup();
	fd = open_event(O_RDWR);
	EXPECT_ERRNO(ioctl(fd, _IO('i', 0), 0), ENOTTY);
	EXPECT_ERRNO(ioctl(fd, _IOR('i', 1, int), &arg), ENOTTY);
	EXPECT_ERRNO(ioctl(fd, FIONREAD, &arg), ENOTTY);
	close(fd);
}

/* the dummy's event count, from an open sysfs file */
static uint32_t event_count(int sysfd)
{
	char text[32];
	ssize_t n = MUST(pread(sysfd, text, sizeof(text) - 1, 0));

	text[n] = 0;
	return strtoul(text, NULL, 0);
}

/*
 * Events injected in pairs on one CPU while a listener reads on the other,
 * into a page that is not mapped yet (so each read takes a page fault
 * between taking the count and marking it seen): a read that reports
 * count C must leave exactly C seen.  Whenever the listener finds nothing
 * unseen but the device's count is past the last count it got, the next
 * read must return; if read() had marked a newer count seen than the one
 * it returned, the event in between would be lost (reported only with
 * the next one, and the last one never).
 */
static void no_event_lost_across_cpus(void)
{
	const uint32_t pairs = 4000;
	struct { volatile uint32_t done; } *sh;
	uint32_t reads = 0, last = 0, x;
	volatile uint32_t *page;
	cpu_set_t cpus;
	int fd, sysfd;
	pid_t pid;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		FAIL("needs two CPUs (QEMU_SMP=2)");
	setup();
	sh = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		  -1, 0);
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	EXPECT(sh != MAP_FAILED && page != MAP_FAILED);
	fd = open_event(O_RDONLY | O_NONBLOCK);
	sysfd = MUST(open(iio_attr_path(nr, "event"), O_RDONLY));
	pid = MUST(fork());
	if (!pid) {
		int wfd = open_event(O_WRONLY);
		uint32_t one = 1, i;

		CPU_ZERO(&cpus);
		CPU_SET(0, &cpus);
		MUST(sched_setaffinity(0, sizeof(cpus), &cpus));
		for (i = 0; i < pairs; i++) {
			uint64_t until;

			EXPECT_EQ(write(wfd, &one, 4), 4);
			EXPECT_EQ(write(wfd, &one, 4), 4);
			until = now_ns() + 200000;	/* a quiet while */
			while (now_ns() < until)
				;
		}
		sh->done = 1;
		_exit(0);
	}
	CPU_ZERO(&cpus);
	CPU_SET(1, &cpus);
	MUST(sched_setaffinity(0, sizeof(cpus), &cpus));
	for (;;) {
		uint32_t done = sh->done;

		MUST(madvise((void *)page, 4096, MADV_DONTNEED));
		if (read(fd, (void *)page, 4) == 4) {
			EXPECT(*page > last);
			last = *page;
			reads++;
			continue;
		}
		EXPECT_EQ(errno, EAGAIN);
		x = event_count(sysfd);
		if (x > last) {
			if (read(fd, (void *)page, 4) != 4)
				FAIL("lost event: count %u, the last read returned %u, and the next read: errno %d (%s)",
				     x, last, errno, strerror(errno));
			EXPECT(*page >= x);
			last = *page;
			reads++;
		} else if (done) {
			break;
		}
	}
	EXPECT_EQ(last, 2 * pairs);
	expect_child_ok(pid);
	EXPECT_EQ(event_count(sysfd), 2 * pairs);
	check_note("%u reads for %u events", reads, 2 * pairs);
	close(sysfd);
	close(fd);
}

/*
 * 100 Hz: twenty ticks are awaited (blocking reads, not a sleep's luck)
 * and take at least 100 ms of the guest's clock, half their 200 (no
 * faster than the frequency: the timer's expiries keep to its period's
 * grid, so only a first tick later than 100 ms could shorten them); each
 * tick wrote its count at offset 0.  Stopped (freq 0):
 * nothing more comes, though 100 ms of the guest's clock pass, ten
 * periods in which a running timer would have fired (its expiries come
 * before the sleep's own).
 */
static void cyclic_ticks_write_count(void)
{
	uint64_t tick, count, t1, t2;
	uint32_t c1, c2;
	int fd, mem;

	setup();
	EXPECT_EQ(write_text(dummy_attr(0, "count"), "0"), 0);
	EXPECT_EQ(write_text(dummy_attr(0, "freq"), "100"), 0);
	EXPECT_STREQ(read_text(dummy_attr(0, "freq")), "100");
	fd = open_event(O_RDONLY);
	t1 = now_ns();
	c1 = event_read(fd);
	do
		c2 = event_read(fd);
	while (c2 - c1 < 20);
	t2 = now_ns();
	check_note("%u ticks in %llu ms", c2 - c1,
		   (unsigned long long)(t2 - t1) / 1000000);
	EXPECT(t2 - t1 >= 100000000ull);
	EXPECT_EQ(write_text(dummy_attr(0, "freq"), "0"), 0);
	/* a tick that was firing as freq was written has written by now */
	msleep(20);
	mem = MUST(open(iio_node(nr, ""), O_RDONLY));
	EXPECT_EQ(pread(mem, &tick, 8, 0), 8);
	count = read_num(dummy_attr(0, "count"));
	EXPECT_EQ(tick, count);
	EXPECT(count >= c2 - c1);
	/* stopped: nothing more arrives */
	c1 = read_num(iio_attr_path(nr, "event"));
	t1 = now_ns();
	msleep(100);
	EXPECT(now_ns() - t1 >= 100000000ull);
	EXPECT_EQ(read_num(iio_attr_path(nr, "event")), c1);
	close(mem);
	close(fd);
}

/*
 * A change of freq (iio_event_set_freq()) restarts the timer with the new
 * period: the first tick comes one period after the write, from a stopped
 * timer and from a running one 100 ms after its tick (whose old period
 * would tick 150 ms later).  Measured on the guest's clock.  The count is
 * read before the write, so a tick at the write itself counts as the
 * first; the running timer's next tick comes 250 ms after the one just
 * read, so a round whose write ended later than that (a guest too slow to
 * tell) is done again from the next tick.
 */
static void freq_change_restarts_the_period(void)
{
	uint64_t t0, tick, late;
	uint32_t c0;
	int fd, i, slow = 0;

	setup();
	fd = open_event(O_RDONLY);
	for (i = 0; i < 2; i++) {
		tick = now_ns();	/* i = 1: the running timer's tick */
		if (i)
			msleep(100);
		c0 = read_num(iio_attr_path(nr, "event"));
		t0 = now_ns();
		EXPECT_EQ(write_text(dummy_attr(0, "freq"), "4"), 0);
		late = i ? now_ns() - tick : 0;
		while (event_read(fd) <= c0)
			;
		if (late >= 240000000ull) {
			if (++slow > 5)
				FAIL("the write came 240 ms after the tick 5 times");
			check_note("round %d: the write ended %llu ms after the tick: again",
				   i, (unsigned long long)late / 1000000);
			i--;
			continue;
		}
		check_note("first tick %llu ms after the write",
			   (unsigned long long)(now_ns() - t0) / 1000000);
		EXPECT(now_ns() - t0 >= 250000000ull);
	}
	EXPECT_EQ(write_text(dummy_attr(0, "freq"), "0"), 0);
	close(fd);
}

static void default_freq_is_one(void)
{
	dummy_reload("");
	EXPECT_STREQ(read_text(dummy_attr(0, "freq")), "1");
}

static void bad_sysfs_values(void)
{
	setup();
	EXPECT_EQ(write_text(dummy_attr(0, "freq"), "abc"), EINVAL);
	EXPECT_EQ(write_text(dummy_attr(0, "freq"), "-1"), EINVAL);
	EXPECT_EQ(write_text(dummy_attr(0, "freq"), "2000000000"), EINVAL);
	EXPECT_EQ(write_text(dummy_attr(0, "freq"), "100001"), EINVAL);
	EXPECT_EQ(write_text(dummy_attr(0, "freq"), "100000"), 0);
	EXPECT_EQ(write_text(dummy_attr(0, "freq"), "0"), 0);
	EXPECT_EQ(write_text(dummy_attr(0, "count"), "x"), EINVAL);
	/* decimal or 0x hex, never octal; the whole 64 bits, unsigned */
	EXPECT_EQ(write_text(dummy_attr(0, "count"), "010"), 0);
	EXPECT_STREQ(read_text(dummy_attr(0, "count")), "10");
	EXPECT_EQ(write_text(dummy_attr(0, "count"), "0x10"), 0);
	EXPECT_STREQ(read_text(dummy_attr(0, "count")), "16");
	EXPECT_EQ(write_text(dummy_attr(0, "count"), "18446744073709551615"), 0);
	EXPECT_STREQ(read_text(dummy_attr(0, "count")), "18446744073709551615");
	EXPECT_EQ(write_text(dummy_attr(0, "freq"), "010"), 0);
	EXPECT_STREQ(read_text(dummy_attr(0, "freq")), "10");
	EXPECT_EQ(write_text(dummy_attr(0, "freq"), "0"), 0);
	EXPECT_EQ(write_text(dummy_attr(0, "sig_pid"), "999999"), EINVAL);
	EXPECT_EQ(write_text(dummy_attr(0, "sig_pid"), "-5"), EINVAL);
	EXPECT_STREQ(read_text(dummy_attr(0, "sig_pid")), "0");
	EXPECT_STREQ(read_text(dummy_attr(0, "freq")), "0");
}

static void sig_pid_sends_sigalrm(void)
{
	uint64_t deadline, ticks;
	char pid[16];

	setup();
	signal(SIGALRM, on_sigalrm);
	snprintf(pid, sizeof(pid), "%d", getpid());
	EXPECT_EQ(write_text(dummy_attr(0, "sig_pid"), pid), 0);
	EXPECT_STREQ(read_text(dummy_attr(0, "sig_pid")), pid);
	EXPECT_EQ(write_text(dummy_attr(0, "freq"), "50"), 0);
	/* until three signals came (5 s of the guest's clock at most) */
	deadline = now_ns() + 5000000000ull;
	while (sigalrm_count < 3 && now_ns() < deadline)
		msleep(10);
	EXPECT_EQ(write_text(dummy_attr(0, "freq"), "0"), 0);
	EXPECT(sigalrm_count >= 3);
	EXPECT_EQ(write_text(dummy_attr(0, "sig_pid"), "0"), 0);
	EXPECT_STREQ(read_text(dummy_attr(0, "sig_pid")), "0");
	/*
	 * Cleared, ticks send nothing.  Not 100 ms of sleep, which proves
	 * nothing if the guest ran no tick in them: three ticks counted
	 * (the tick count is raised before the signal is sent), then the
	 * timer stopped, which waits for a tick in progress
	 * (hrtimer_cancel()), so that a signal of any of them was queued,
	 * and handled, before the write of freq returned.
	 */
	sigalrm_count = 0;
	ticks = read_num(dummy_attr(0, "count"));
	EXPECT_EQ(write_text(dummy_attr(0, "freq"), "100"), 0);
	deadline = now_ns() + 5000000000ull;
	while (read_num(dummy_attr(0, "count")) < ticks + 3 &&
	       now_ns() < deadline)
		msleep(10);
	EXPECT_EQ(write_text(dummy_attr(0, "freq"), "0"), 0);
	EXPECT(read_num(dummy_attr(0, "count")) >= ticks + 3);
	EXPECT_EQ(sigalrm_count, 0);
}

static void oneshot_relative_and_absolute(void)
{
	struct iio_oneshot req = { .time_ns = 150000000 };
	uint64_t t0, dt;
	uint32_t c0;
	int fd;

	dummy_reload("mode=oneshot");
	nr = dummy_nr(0);
	fd = open_event(O_RDWR);
	c0 = read_num(iio_attr_path(nr, "event"));
	t0 = now_ns();
	EXPECT_EQ(write(fd, &req, sizeof(req)), sizeof(req));
	EXPECT_EQ(event_read(fd), c0 + 1);
	dt = now_ns() - t0;
	EXPECT(dt >= 150000000ull);
	/* exactly one event: the source is one-shot */
	msleep(200);
	EXPECT_EQ(read_num(iio_attr_path(nr, "event")), c0 + 1);

	req.time_ns = now_ns() + 100000000;
	req.flags = IIO_ONESHOT_ABS;
	EXPECT_EQ(write(fd, &req, sizeof(req)), sizeof(req));
	EXPECT_EQ(event_read(fd), c0 + 2);
	EXPECT(now_ns() >= (uint64_t)req.time_ns);

	/* re-arming moves the event, it does not queue a second */
	req.flags = 0;
	req.time_ns = 100000000;
	EXPECT_EQ(write(fd, &req, sizeof(req)), sizeof(req));
	req.time_ns = 200000000;
	EXPECT_EQ(write(fd, &req, sizeof(req)), sizeof(req));
	EXPECT_EQ(event_read(fd), c0 + 3);
	msleep(300);
	EXPECT_EQ(read_num(iio_attr_path(nr, "event")), c0 + 3);

	req.time_ns = -1;
	EXPECT_ERRNO(write(fd, &req, sizeof(req)), EINVAL);
	req.time_ns = 1;
	req.flags = 0x80;
	EXPECT_ERRNO(write(fd, &req, sizeof(req)), EINVAL);
	req.flags = 0;
	req.reserved = 1;
	EXPECT_ERRNO(write(fd, &req, sizeof(req)), EINVAL);
	/* freq does not apply to one-shot */
	EXPECT_EQ(write_text(dummy_attr(0, "freq"), "10"), EINVAL);
	close(fd);
	dummy_reload("");
}

/*
 * Arming again before the expiry moves the event: armed at +100 ms, then
 * at +600 ms, it comes no earlier than 600 ms after the second write (by
 * the guest's own CLOCK_MONOTONIC, the timer's clock), never at 100 ms,
 * and only once.  The second arm is written at once after the first, and
 * a guest too slow to write twice within 100 ms is said so, not counted.
 */
static void oneshot_rearm_moves_the_event(void)
{
	struct iio_oneshot req = { .time_ns = 100000000 };
	uint64_t t1, t2, t;
	uint32_t c0, c;
	int fd;

	dummy_reload("mode=oneshot");
	nr = dummy_nr(0);
	fd = open_event(O_RDWR);
	c0 = read_num(iio_attr_path(nr, "event"));
	t1 = now_ns();
	EXPECT_EQ(write(fd, &req, sizeof(req)), sizeof(req));
	req.time_ns = 600000000;
	EXPECT_EQ(write(fd, &req, sizeof(req)), sizeof(req));
	t2 = now_ns();
	if (t2 - t1 >= 100000000ull)
		FAIL("the two arms took %llu ms: the first may have fired",
		     (unsigned long long)(t2 - t1) / 1000000);
	c = event_read(fd);
	t = now_ns();
	EXPECT_EQ(c, c0 + 1);
	EXPECT(t - t2 >= 600000000ull);
	/* one event in all */
	EXPECT_EQ(read_num(iio_attr_path(nr, "event")), c0 + 1);
	close(fd);
	dummy_reload("");
}

/*
 * A time in the past fires at once: an absolute time 10 s ago and a
 * relative 0 each give their event well before any time they could be
 * mistaken for (10 s from now, a tick of the default 1 Hz), measured on
 * the guest's clock; the read blocks, so the event is awaited, not
 * sampled.
 */
static void oneshot_past_fires_at_once(void)
{
	struct iio_oneshot req = { .flags = IIO_ONESHOT_ABS };
	uint64_t t0;
	uint32_t c0;
	int fd;

	dummy_reload("mode=oneshot");
	nr = dummy_nr(0);
	fd = open_event(O_RDWR);
	c0 = read_num(iio_attr_path(nr, "event"));
	t0 = now_ns();
	req.time_ns = (int64_t)t0 - 10000000000ll;
	EXPECT_EQ(write(fd, &req, sizeof(req)), sizeof(req));
	EXPECT_EQ(event_read(fd), c0 + 1);
	EXPECT(now_ns() - t0 < 2000000000ull);
	req.flags = 0;
	req.time_ns = 0;
	t0 = now_ns();
	EXPECT_EQ(write(fd, &req, sizeof(req)), sizeof(req));
	EXPECT_EQ(event_read(fd), c0 + 2);
	EXPECT(now_ns() - t0 < 2000000000ull);
	close(fd);
	dummy_reload("");
}

/*
 * An open file description has one count: dup(2) and fork(2) share it,
 * so an event read through one is seen by the other; a second open(2)
 * has its own.
 */
static void shared_description_shares_the_count(void)
{
	uint32_t c;
	int fd, dupfd, own;
	pid_t pid;

	setup();
	fd = open_event(O_RDONLY | O_NONBLOCK);
	own = open_event(O_RDONLY | O_NONBLOCK);
	dupfd = MUST(dup(fd));
	event_inject(nr, 2);
	EXPECT_EQ(event_read(fd), 2);
	EXPECT_ERRNO(read(dupfd, &c, sizeof(c)), EAGAIN);
	EXPECT_EQ(event_read(own), 2);

	event_inject(nr, 1);
	pid = fork();
	if (pid == 0) {
		/* the child reads the event through the shared description */
		_exit(read(fd, &c, sizeof(c)) == 4 && c == 3 ? 0 : 1);
	}
	expect_child_ok(pid);
	EXPECT_ERRNO(read(fd, &c, sizeof(c)), EAGAIN);
	EXPECT_ERRNO(read(dupfd, &c, sizeof(c)), EAGAIN);
	EXPECT_EQ(event_read(own), 3);
	/* one description, one listener */
	EXPECT_EQ(read_num(iio_attr_path(nr, "listener")), 2);
	close(dupfd);
	EXPECT_EQ(read_num(iio_attr_path(nr, "listener")), 2);
	close(fd);
	EXPECT_EQ(read_num(iio_attr_path(nr, "listener")), 1);
	close(own);
}

/* @path's permission bits */
static unsigned int file_mode(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		FAIL("stat %s: %s", path, strerror(errno));
	return st.st_mode & 07777;
}

/*
 * iio_user_dummy(4)'s sysfs and parameters at their limits: count, freq and
 * sig_pid are 0644; past 64 bits is ERANGE; sig_pid needs CAP_KILL (a
 * root process without it: EPERM); injected events are not ticks
 * (count and offset 0 stay); devices 0 to 16; a freq parameter over
 * 100000 fails the load with ENODEV.
 */
static void dummy_sysfs_limits(void)
{
	char pid[16];
	uint64_t tick;
	pid_t child;
	int mem;

	setup();
	EXPECT_EQ(file_mode(dummy_attr(0, "count")), 0644);
	EXPECT_EQ(file_mode(dummy_attr(0, "freq")), 0644);
	EXPECT_EQ(file_mode(dummy_attr(0, "sig_pid")), 0644);
	EXPECT_EQ(write_text(dummy_attr(0, "count"), "18446744073709551616"),
		  ERANGE);
	EXPECT_EQ(write_text(dummy_attr(0, "freq"), "18446744073709551616"),
		  ERANGE);

	/* injected events leave the tick count and offset 0 alone */
	EXPECT_EQ(write_text(dummy_attr(0, "count"), "7"), 0);
	event_inject(nr, 5);
	EXPECT_EQ(read_num(iio_attr_path(nr, "event")), 5);
	EXPECT_STREQ(read_text(dummy_attr(0, "count")), "7");
	mem = MUST(open(iio_node(nr, ""), O_RDONLY));
	EXPECT_EQ(pread(mem, &tick, 8, 0), 8);
	EXPECT_EQ(tick, 0);
	close(mem);

	/* root without CAP_KILL */
	snprintf(pid, sizeof(pid), "%d", getpid());
	child = MUST(fork());
	if (!child) {
		struct { uint32_t version; int pid; } hdr = { 0x20080522, 0 };
		struct { uint32_t eff, perm, inh; } data[2];

		if (syscall(SYS_capget, &hdr, data))
			_exit(2);
		data[0].eff &= ~(1u << 5);	/* CAP_KILL */
		if (syscall(SYS_capset, &hdr, data))
			_exit(3);
		_exit(write_text(dummy_attr(0, "sig_pid"), pid) == EPERM ? 0 : 1);
	}
	expect_child_ok(child);
	EXPECT_STREQ(read_text(dummy_attr(0, "sig_pid")), "0");

	dummy_reload("devices=16 freq=0");
	EXPECT(dummy_nr(15) >= 0);
	dummy_reload("devices=0");
	EXPECT_EQ(iio_find_by_parent("iio_user_dummy.0"), -1);
	EXPECT_EQ(module_unload("iio_user_dummy"), 0);
	EXPECT_EQ(module_load("iio_user_dummy", "freq=100001"), ENODEV);
	EXPECT_EQ(module_load("iio_user_dummy", "freq=100000"), 0);
	dummy_reload("");
}

static void several_dummies_apart(void)
{
	uint32_t c0, c1;
	int a, b, fa, fb;

	dummy_reload("devices=2 freq=0");
	a = dummy_nr(0);
	b = dummy_nr(1);
	fa = MUST(open(iio_node(a, "_event"), O_RDONLY | O_NONBLOCK));
	fb = MUST(open(iio_node(b, "_event"), O_RDONLY | O_NONBLOCK));
	c0 = read_num(iio_attr_path(a, "event"));
	c1 = read_num(iio_attr_path(b, "event"));
	event_inject(a, 2);
	EXPECT_EQ(event_read(fa), c0 + 2);
	EXPECT_ERRNO(read(fb, &c0, 4), EAGAIN);
	EXPECT_EQ(read_num(iio_attr_path(b, "event")), c1);
	close(fa);
	close(fb);
	dummy_reload("");
}

static const struct check_case cases[] = {
	CASE(read_returns_total_count),
	CASE(nonblocking_gives_eagain),
	CASE(short_buffer_is_einval),
	CASE(no_position),
	CASE(write_only_open_is_not_a_listener),
	CASE(two_to_the_32_events_are_seen),
	CASE(two_listeners_see_every_event),
	CASE(four_listeners_see_every_event),
	CASE(blocked_readers_all_wake),
	CASE(poll_readiness),
	CASE(poll_wakes_on_event),
	CASE(epoll_readiness),
	CASE(sigio_on_every_event),
	CASE(signal_interrupts_read),
	CASE(sa_restart_restarts_read),
	CASE(event_write_validation),
	CASE(event_write_over_64_bytes),
	CASE(event_write_missing_is_eopnotsupp),
	CASE(pollout_never_reported),
	CASE(ioctl_is_enotty),
	CASE_T(no_event_lost_across_cpus, 120),
	CASE(cyclic_ticks_write_count),
	CASE(freq_change_restarts_the_period),
	CASE(default_freq_is_one),
	CASE(bad_sysfs_values),
	CASE(sig_pid_sends_sigalrm),
	CASE(oneshot_relative_and_absolute),
	CASE(oneshot_rearm_moves_the_event),
	CASE(oneshot_past_fires_at_once),
	CASE(shared_description_shares_the_count),
	CASE(several_dummies_apart),
	CASE(dummy_sysfs_limits),
};
CHECK_MAIN(cases)
