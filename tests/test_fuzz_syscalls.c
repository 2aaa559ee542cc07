// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_fuzz_syscalls.c - random read/write/pread/pwrite/lseek/mmap/
 * munmap/poll/fcntl(O_ASYNC) with random sizes and offsets on every iio
 * node, while another process unloads and reloads the dummy and binds
 * and unbinds iio_pci_generic on the pci-testdev at 00:19.0.
 *
 * From a fixed seed, printed first ("# seed N"); iio_test.seed=N on the
 * kernel command line replays one, iio_test.seconds=N runs N seconds
 * (default a few).  The kernel must survive (tests/run checks its log
 * for oopses, BUGs, WARNINGs and slub poison reports) and every call must
 * return something the framework documents: a length within the request,
 * a position within the window, or one of the documented errors.
 *
 * Writes go only to the dummy and the pci-testdev: random values written
 * to an edu's registers could start its DMA engine on random addresses.
 *
 * With iio_test.fail_percent=P (make stress-faults, under the debug
 * kernel's fault injection) every fuzzed call and every load, unload, bind
 * and unbind of the cycler runs with a random P % of its slab and page
 * allocations failed (failslab and fail_page_alloc: probability P,
 * interval 1, no limit, sleeping allocations and order 0 included), for the
 * whole run.  Task filter on: only those calls of these two processes fail
 * (/proc/self/make-it-fail set around them), not the guest's shell, init,
 * console and result ports, nor this program's own bookkeeping, where a
 * failure would break the harness rather than test our code; our code runs
 * in these calls (and in interrupts and timers, which allocate nothing).
 * Then ENOMEM is one more documented answer of every call; a load, bind or
 * unbind that failed left nothing behind (no module, no driver) and works
 * at once without injection; and at the end every device works.  The
 * kernel log must stay clean but for the injections' own lines (qemu/run).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/iio_test.h"

#define GENERIC_PCI	"0000:00:19.0"	/* pci-testdev, left unbound */
#define GENERIC_DRV	"iio_pci_generic"
#define MAX_FDS		24
#define MAX_MAPS	8
#define BUF_SIZE	(3 * 4096 + 64)

struct ofile {
	int fd;
	bool writable_dev;		/* the dummy or the pci-testdev */
	bool event;
	char path[64];
};

struct omap {
	volatile uint8_t *p;
	size_t len;
	bool write;
};

static uint64_t rng_state;
static struct ofile files[MAX_FDS];
static struct omap maps[MAX_MAPS];
static unsigned char buf[BUF_SIZE];
static sigjmp_buf bus_jmp;
static volatile sig_atomic_t in_touch, sigbus_count, sigio_count;
static unsigned long long ops, errors_seen, sigbus_seen;

/*
 * Fault injection (iio_test.fail_percent): fail_percent > 0; this
 * process's /proc/self/make-it-fail; the failures injected into the
 * fuzzed calls (ENOMEM seen) and, in shared memory, into the cycler's
 * operations.
 */
#define DEBUGFS		"/sys/kernel/debug"
static unsigned long long fail_percent;
static int make_it_fail_fd = -1;
static unsigned long long enomem_seen;
static volatile unsigned long long *cycler_failed;

static uint64_t rnd(void)
{
	/* xorshift64*: small, and the same sequence everywhere */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

/* sizes and offsets around the interesting edges */
static uint64_t rnd_size(void)
{
	static const uint64_t edges[] = { 0, 1, 2, 3, 4, 7, 8, 9, 15, 16,
		4095, 4096, 4097, 8191, 8192, 8193, 256, 255, 0x1000 - 4 };

	switch (below(4)) {
	case 0: return edges[below(sizeof(edges) / sizeof(edges[0]))];
	case 1: return below(64);
	case 2: return below(BUF_SIZE + 1);
	default: return below(16384);
	}
}

static int64_t rnd_offset(void)
{
	switch (below(6)) {
	case 0: return -(int64_t)below(10) - 1;
	case 1: return (int64_t)(rnd() >> 1);
	default: return (int64_t)rnd_size();
	}
}

static void on_sigbus(int sig)
{
	(void)sig;
	sigbus_count++;
	if (in_touch)
		siglongjmp(bus_jmp, 1);
}

static void on_sigio(int sig)
{
	(void)sig;
	sigio_count++;
}

/*
 * The errors iio(4) documents for each call (0-terminated), on a region
 * node and on an event node.  EBADF: a file not open for that access;
 * EINVAL of pread and pwrite: a negative offset (the VFS's).
 */
static const int E_NONE[] = { 0 };
static const int E_POLL[] = { EINTR, 0 };	/* SIGIO; never restarted */
static const int E_READ[] = { EIO, EFAULT, ENOMEM, EBADF, 0 };
static const int E_PREAD[] = { EIO, EFAULT, ENOMEM, EBADF, EINVAL, 0 };
static const int E_WRITE[] = { ENOSPC, EIO, EFAULT, ENOMEM, EBADF, 0 };
static const int E_PWRITE[] = { ENOSPC, EIO, EFAULT, ENOMEM, EBADF, EINVAL, 0 };
static const int E_LSEEK[] = { EINVAL, EIO, 0 };
static const int E_MMAP[] = { EINVAL, ENODEV, EACCES, 0 };
static const int E_EVENT_READ[] = { EINVAL, EAGAIN, EIO, EFAULT, EBADF, 0 };
static const int E_EVENT_WRITE[] = { EINVAL, EOPNOTSUPP, EIO, EFAULT, ENOMEM,
				     EBADF, 0 };
static const int E_EVENT_NO_POSITION[] = { ESPIPE, EINVAL, 0 };
static const int E_EVENT_LSEEK[] = { ESPIPE, 0 };
static const int E_EVENT_MMAP[] = { ENODEV, EACCES, 0 };

static bool errno_in(int e, const int *errs)
{
	/*
	 * a failed allocation: iio(4)'s ENOMEM of open, read and write, the
	 * kernel's own of mmap(2), munmap, poll(2) and fcntl's O_ASYNC
	 */
	if (fail_percent && e == ENOMEM) {
		enomem_seen++;
		return true;
	}
	for (; *errs; errs++)
		if (e == *errs)
			return true;
	return false;
}

/* r is a count of at most max (max < 0: any), or -1 with an errs errno */
static void expect_result(const char *what, const struct ofile *f,
			  long long r, long long max, const int *errs)
{
	ops++;
	if (r == -1) {
		errors_seen++;
		if (!errno_in(errno, errs))
			FAIL("%s on %s: errno %d (%s)", what, f->path, errno,
			     strerror(errno));
		return;
	}
	if (r < 0 || (max >= 0 && r > max))
		FAIL("%s on %s: returned %lld (at most %lld)", what, f->path,
		     r, max);
}

static bool name_is(int nr, const char *want)
{
	char path[128], name[128] = "";
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/class/iio/iio%d/name", nr);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	n = read(fd, name, sizeof(name) - 1);
	close(fd);
	if (n <= 0)
		return false;
	name[n] = 0;
	name[strcspn(name, "\n")] = 0;
	return !strcmp(name, want) || strstr(name, GENERIC_PCI);
}

/* open a random node of a random device */
static void open_one(struct ofile *f)
{
	static const char *const sfx[] = { "", "_in", "_out", "_event" };
	static const int modes[] = { O_RDONLY, O_RDWR, O_WRONLY };
	unsigned long long nrs = iio_numbers();
	int nr, tries, s, flags;

	if (!nrs)
		return;
	for (tries = 0; tries < 64; tries++) {
		nr = (int)below(64);
		if (nrs & (1ULL << nr))
			break;
	}
	if (!(nrs & (1ULL << nr)))
		return;
	s = (int)below(4);
	snprintf(f->path, sizeof(f->path), "/dev/iio%d%s", nr, sfx[s]);
	f->writable_dev = name_is(nr, "IIO dummy") || name_is(nr, "pci-testdev");
	f->event = s == 3;
	flags = modes[below(3)];
	if (!f->writable_dev && !f->event)
		flags = O_RDONLY;
	/* event files never block: a read waits for an event otherwise */
	if (f->event)
		flags |= O_NONBLOCK;
	f->fd = open(f->path, flags | O_CLOEXEC);
	if (f->fd < 0) {
		/* gone in between, the in window for writing, or the edu */
		if (fail_percent && errno == ENOMEM)
			enomem_seen++;	/* iio(4): no memory (event node) */
		else if (errno != ENOENT && errno != ENXIO &&
			 errno != ENODEV && errno != EACCES && errno != EIO)
			FAIL("open %s: errno %d (%s)", f->path, errno,
			     strerror(errno));
		f->fd = -1;
	}
}

/* this process's allocations fail now and then (fault mode) or not */
static void inject(bool on)
{
	if (make_it_fail_fd >= 0 &&
	    pwrite(make_it_fail_fd, on ? "1" : "0", 1, 0) != 1)
		FAIL("make-it-fail: %s", strerror(errno));
}

/*
 * failslab and fail_page_alloc fail @percent % of the allocations of the
 * tasks marked make-it-fail (0: none)
 */
static void faults_set(unsigned long long percent)
{
	static const char *const kinds[] = { "failslab", "fail_page_alloc" };
	char value[24];
	size_t i;

	snprintf(value, sizeof(value), "%llu", percent);
	for (i = 0; i < 2; i++) {
		char attr[64];

		snprintf(attr, sizeof(attr), "%s/probability", kinds[i]);
		debugfs_knob(attr, value);
		if (!percent)
			continue;
		snprintf(attr, sizeof(attr), "%s/interval", kinds[i]);
		debugfs_knob(attr, "1");
		snprintf(attr, sizeof(attr), "%s/times", kinds[i]);
		debugfs_knob(attr, "-1");
		snprintf(attr, sizeof(attr), "%s/space", kinds[i]);
		debugfs_knob(attr, "0");
		snprintf(attr, sizeof(attr), "%s/task-filter", kinds[i]);
		debugfs_knob(attr, "Y");
		snprintf(attr, sizeof(attr), "%s/ignore-gfp-wait", kinds[i]);
		debugfs_knob(attr, "N");
		/* one line per failure (rate-limited by the kernel) */
		snprintf(attr, sizeof(attr), "%s/verbose", kinds[i]);
		debugfs_knob(attr, "1");
	}
	if (percent) {
		debugfs_knob("fail_page_alloc/ignore-gfp-highmem", "N");
		debugfs_knob("fail_page_alloc/min-order", "0");
	}
}

/* fault mode: the knobs set, this process's make-it-fail open */
static void faults_setup(void)
{
	if (!fail_percent)
		return;
	/* asked for: a kernel without it fails, it does not skip */
	if (!path_exists("/proc/self/make-it-fail"))
		FAIL("iio_test.fail_percent: this kernel has no fault injection (make stress-faults boots the debug kernel)");
	if (!path_exists(DEBUGFS "/failslab"))
		debugfs_mount();
	if (!path_exists(DEBUGFS "/failslab") ||
	    !path_exists(DEBUGFS "/fail_page_alloc"))
		FAIL("no failslab or fail_page_alloc in debugfs (CONFIG_FAULT_INJECTION_DEBUG_FS)");
	faults_set(fail_percent);
	check_note("%llu %% of the fuzzed calls' and the cycler's allocations failed (failslab, fail_page_alloc; task filter)",
		   fail_percent);
}

/* in a process of its own (the cycler): its own make-it-fail */
static void faults_open(void)
{
	if (fail_percent)
		make_it_fail_fd = MUST(open("/proc/self/make-it-fail",
					    O_WRONLY | O_CLOEXEC));
}

static void touch_map(struct omap *m)
{
	size_t i;

	if (!m->p)
		return;
	/* a failed page fault is not a call's error: no injection here */
	inject(false);
	in_touch = 1;
	if (!sigsetjmp(bus_jmp, 1)) {
		for (i = 0; i < m->len; i += 512 + below(512)) {
			if (m->write)
				m->p[i] = (uint8_t)rnd();
			else
				(void)m->p[i];
		}
	} else {
		sigbus_seen++;	/* the device went away: zapped */
	}
	in_touch = 0;
	inject(true);
}

/*
 * lseek: the event node has no position (ESPIPE); on a region node the
 * result is the new position (SEEK_SET: off, SEEK_CUR: the old one plus
 * off), and a refused one (EINVAL) leaves the position where it was.
 */
static void lseek_checked(struct ofile *f, int64_t off)
{
	static const int whence[] = { SEEK_SET, SEEK_CUR, SEEK_END };
	int w = whence[below(3)];
	off_t cur, r;

	cur = f->event ? -1 : lseek(f->fd, 0, SEEK_CUR);
	r = lseek(f->fd, off, w);
	expect_result("lseek", f, r, -1, f->event ? E_EVENT_LSEEK : E_LSEEK);
	if (cur < 0)		/* the device went away (EIO), or an event node */
		return;
	if (r >= 0 && w == SEEK_SET && r != off)
		FAIL("lseek %s to %lld (SEEK_SET) returned %lld", f->path,
		     (long long)off, (long long)r);
	if (r >= 0 && w == SEEK_CUR && r != cur + off)
		FAIL("lseek %s by %lld from %lld (SEEK_CUR) returned %lld",
		     f->path, (long long)off, (long long)cur, (long long)r);
	if (r == -1 && errno == EINVAL) {
		off_t now = lseek(f->fd, 0, SEEK_CUR);

		if (now != cur && !(now == -1 && errno == EIO))
			FAIL("lseek %s: a refused lseek moved the position from %lld to %lld",
			     f->path, (long long)cur, (long long)now);
	}
}

static void one_op_injected(void);

/* one fuzzed call, with its allocations failing now and then (fault mode) */
static void one_op(void)
{
	inject(true);
	one_op_injected();
	inject(false);
}

static void one_op_injected(void)
{
	struct ofile *f = &files[below(MAX_FDS)];
	struct omap *m;
	long long r;
	size_t len;
	int64_t off;

	if (f->fd < 0) {
		open_one(f);
		return;
	}
	len = rnd_size();
	off = rnd_offset();
	switch (below(13)) {
	case 0:
		r = read(f->fd, buf, len > BUF_SIZE ? BUF_SIZE : len);
		expect_result("read", f, r, (long long)len,
			      f->event ? E_EVENT_READ : E_READ);
		break;
	case 1:
		r = pread(f->fd, buf, len > BUF_SIZE ? BUF_SIZE : len, off);
		expect_result("pread", f, r, (long long)len,
			      f->event ? E_EVENT_NO_POSITION : E_PREAD);
		break;
	case 2:
		if (!f->writable_dev && !f->event)
			break;
		if (f->event) {
			/* the dummy: N events; the pci-testdev: none; generic: mask */
			uint64_t n = below(4);

			r = write(f->fd, &n, below(3) ? 4 : len % 9);
			expect_result("write event", f, r, 8, E_EVENT_WRITE);
			break;
		}
		for (size_t i = 0; i < BUF_SIZE; i += 8)
			*(uint64_t *)(buf + i) = rnd();
		r = write(f->fd, buf, len > BUF_SIZE ? BUF_SIZE : len);
		expect_result("write", f, r, (long long)len, E_WRITE);
		break;
	case 3:
		if (!f->writable_dev)
			break;
		r = pwrite(f->fd, buf, len > BUF_SIZE ? BUF_SIZE : len, off);
		expect_result("pwrite", f, r, (long long)len,
			      f->event ? E_EVENT_NO_POSITION : E_PWRITE);
		break;
	case 4:
		lseek_checked(f, off);
		break;
	case 5: case 6: {
		size_t mlen = (below(3) + 1) * 4096;
		int prot = PROT_READ | (below(2) ? PROT_WRITE : 0);
		int flags = below(8) ? MAP_SHARED : MAP_PRIVATE;
		void *p;

		m = &maps[below(MAX_MAPS)];
		if (m->p) {
			touch_map(m);
			r = munmap((void *)m->p, m->len);
			expect_result("munmap", f, r, 0, E_NONE);
			m->p = NULL;
			break;
		}
		if ((prot & PROT_WRITE) && !f->writable_dev)
			prot = PROT_READ;
		p = mmap(NULL, mlen, prot, flags, f->fd,
			 (off_t)(below(4) * 4096));
		ops++;
		if (p == MAP_FAILED) {
			if (!errno_in(errno, f->event ? E_EVENT_MMAP : E_MMAP))
				FAIL("mmap %s: errno %d (%s)", f->path, errno,
				     strerror(errno));
			break;
		}
		if (flags == MAP_PRIVATE)
			FAIL("mmap MAP_PRIVATE of %s succeeded", f->path);
		m->p = p;
		m->len = mlen;
		m->write = (prot & PROT_WRITE) && f->writable_dev;
		touch_map(m);
		break;
	}
	case 7: {
		struct pollfd pfd = { .fd = f->fd,
				      .events = (short)(below(2) ? POLLIN : POLLIN | POLLOUT) };

		r = poll(&pfd, 1, (int)below(3));
		expect_result("poll", f, r, 1, E_POLL);
		if (r == 1 && f->event && (pfd.revents & POLLIN)) {
			uint32_t c;

			r = read(f->fd, &c, 4);
			expect_result("read after poll", f, r, 4, E_EVENT_READ);
		}
		break;
	}
	case 8: {
		int fl = fcntl(f->fd, F_GETFL);

		if (fl < 0)
			FAIL("F_GETFL %s: errno %d", f->path, errno);
		fcntl(f->fd, F_SETOWN, getpid());
		r = fcntl(f->fd, F_SETFL, below(2) ? fl | O_ASYNC : fl & ~O_ASYNC);
		expect_result("fcntl O_ASYNC", f, r, 0, E_NONE);
		break;
	}
	case 9: {
		void *bad;

		/* the harness's own mmap: no injection */
		inject(false);
		bad = bad_pointer();
		inject(true);
		r = read(f->fd, bad, 1 + below(8));
		expect_result("read to a bad pointer", f, r, 8,
			      f->event ? E_EVENT_READ : E_READ);
		break;
	}
	case 10:
		close(f->fd);
		f->fd = -1;
		break;
	case 11:
		for (m = maps; m < maps + MAX_MAPS; m++)
			touch_map(m);
		break;
	default:
		if (f->event) {
			uint32_t c;

			r = read(f->fd, &c, below(2) ? 4 : below(8));
			expect_result("read event", f, r, 8, E_EVENT_READ);
		} else {
			r = read(f->fd, buf, 1 + below(8));
			expect_result("small read", f, r, 8, E_READ);
		}
		break;
	}
}

static volatile int *stop_cycler;

/*
 * The cycler's load (@load) or unload of the dummy, with injection in
 * fault mode: an injected failure (ENOMEM; ENODEV: the dummy's probe
 * failed, iio_user_dummy(4); EINVAL: 6.1's platform_device_add() ignores
 * dev_set_name()'s failure, see tests/test_faults) must leave no module
 * behind (a load) or the module in place (an unload), and the same
 * operation then works.  0 or errno.
 */
static int cycler_dummy(bool load)
{
	int err;

	inject(true);
	err = load ? module_load("iio_user_dummy", below(2) ? "freq=500" :
				 "freq=0 size=16384") :
		     module_unload("iio_user_dummy");
	inject(false);
	if (!err || !fail_percent)
		return err;
	if (err != ENOMEM && !(load && (err == ENODEV || err == EINVAL))) {
		fprintf(stderr, "# %s iio_user_dummy under injection: %s\n",
			load ? "load" : "unload", strerror(err));
		return err;
	}
	(*cycler_failed)++;
	if (path_exists("/sys/module/iio_user_dummy") == load) {
		fprintf(stderr, "# a failed %s of iio_user_dummy left it %s\n",
			load ? "load" : "unload", load ? "loaded" : "gone");
		return EEXIST;
	}
	err = load ? module_load("iio_user_dummy", "freq=0") :
		     module_unload("iio_user_dummy");
	if (err) {
		fprintf(stderr, "# %s iio_user_dummy after a failed one: %s\n",
			load ? "load" : "unload", strerror(err));
		_exit(4);
	}
	return 0;
}

/*
 * The same for a bind (@bind) or unbind of iio_pci_generic and the
 * pci-testdev: a failed bind (ENOMEM; EBUSY: the PCI core's
 * __pci_request_region() calls a failed allocation busy) leaves the
 * device without a driver, a failed unbind (the write's own buffer) the
 * device bound.  0 or errno.
 */
static int cycler_bind(bool bind)
{
	const char *link = "/sys/bus/pci/drivers/" GENERIC_DRV "/" GENERIC_PCI;
	int err;

	inject(true);
	err = bind ? pci_driver_bind(GENERIC_DRV, GENERIC_PCI) :
		     pci_driver_unbind(GENERIC_DRV, GENERIC_PCI);
	inject(false);
	if (!err || !fail_percent)
		return err;
	if (err != ENOMEM && !(bind && err == EBUSY)) {
		fprintf(stderr, "# %s %s under injection: %s\n",
			bind ? "bind" : "unbind", GENERIC_PCI, strerror(err));
		return err;
	}
	(*cycler_failed)++;
	if (path_exists(link) == bind) {
		fprintf(stderr, "# a failed %s of %s left it %s\n",
			bind ? "bind" : "unbind", GENERIC_PCI,
			bind ? "bound" : "unbound");
		return EEXIST;
	}
	err = bind ? pci_driver_bind(GENERIC_DRV, GENERIC_PCI) :
		     pci_driver_unbind(GENERIC_DRV, GENERIC_PCI);
	if (err) {
		fprintf(stderr, "# %s %s after a failed one: %s\n",
			bind ? "bind" : "unbind", GENERIC_PCI, strerror(err));
		_exit(5);
	}
	return 0;
}

/* unloads and reloads the dummy, binds and unbinds iio_pci_generic */
static pid_t fork_cycler(uint64_t seed)
{
	char path[128];
	pid_t pid = fork();
	unsigned i;

	if (pid < 0)
		FAIL("fork: %s", strerror(errno));
	if (pid)
		return pid;
	rng_state = seed ^ 0x9e3779b97f4a7c15ULL;
	faults_open();
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver_override",
		 GENERIC_PCI);
	for (i = 0; !*stop_cycler; i++) {
		if (i % 8 == 3) {
			/* a PCI cycle is slow (~seconds): now and then */
			if (!write_text(path, GENERIC_DRV) &&
			    !cycler_bind(true)) {
				msleep(300 + (unsigned)below(500));
				if (cycler_bind(false))
					_exit(3);
			}
			write_text(path, "none");
			continue;
		}
		if (cycler_dummy(false))
			_exit(1);
		msleep((unsigned)below(50));
		if (cycler_dummy(true))
			_exit(2);
		msleep(50 + (unsigned)below(400));
	}
	_exit(0);
}

/* the devices there are */
static int devices_count(void)
{
	return __builtin_popcountll(iio_numbers());
}

/*
 * Every device works (after the fault mode's run): as many as at the
 * start, each region reads, the dummy counts the events written to it.
 */
static void devices_work(int devices)
{
	unsigned long long nrs = iio_numbers();
	uint32_t v, before;
	int nr, fd;

	EXPECT_EQ(devices_count(), devices);
	for (nr = 0; nr < 64; nr++) {
		if (!(nrs & (1ULL << nr)))
			continue;
		fd = MUST(open(iio_node(nr, ""), O_RDONLY | O_CLOEXEC));
		if (pread(fd, &v, sizeof(v), 0) != sizeof(v))
			FAIL("read /dev/iio%d after the run: %s", nr,
			     strerror(errno));
		close(fd);
	}
	nr = dummy_nr(0);
	fd = MUST(open(iio_node(nr, "_event"), O_RDONLY | O_CLOEXEC));
	event_inject(nr, 1);
	before = event_read(fd);
	event_inject(nr, 5);
	v = event_read(fd);
	if ((int32_t)(v - before) < 5)
		FAIL("the dummy counted %u after %u and 5 more events", v,
		     before);
	close(fd);
}

static void random_syscalls(void)
{
	unsigned long long seconds = test_param("seconds", 10), end;
	uint64_t seed = test_param("seed", 0);
	struct sigaction sa = { 0 };
	int i, status, devices = devices_count();
	pid_t cycler;

	fail_percent = test_param("fail_percent", 0);

	if (!seed)
		seed = (uint64_t)now_ms() * 2654435761ULL ^ (uint64_t)getpid();
	if (!seed)
		seed = 1;
	check_note("seed %llu (replay: qemu/run --append iio_test.seed=%llu)",
		   (unsigned long long)seed, (unsigned long long)seed);
	rng_state = seed;
	sa.sa_handler = on_sigbus;
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGBUS, &sa, NULL);
	sa.sa_handler = on_sigio;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGIO, &sa, NULL);
	for (i = 0; i < MAX_FDS; i++)
		files[i].fd = -1;
	stop_cycler = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	EXPECT(stop_cycler != MAP_FAILED);
	*stop_cycler = 0;
	cycler_failed = (volatile unsigned long long *)(stop_cycler + 16);
	*cycler_failed = 0;
	faults_setup();
	cycler = fork_cycler(seed);
	faults_open();
	/*
	 * our pages shared with the cycler (copy on write) copied now, so
	 * that a write of ours under injection does not fault for a copy
	 */
	memset(buf, 0, sizeof(buf));
	memset(maps, 0, sizeof(maps));
	for (i = 0; i < MAX_FDS; i++)
		files[i].path[0] = 0;
	end = now_ms() + seconds * 1000;
	while (now_ms() < end)
		for (i = 0; i < 100; i++)
			one_op();
	*stop_cycler = 1;
	waitpid(cycler, &status, 0);
	if (fail_percent) {
		faults_set(0);
		check_note("%llu calls failed with ENOMEM, %llu loads, unloads, binds and unbinds failed",
			   enomem_seen, *cycler_failed);
		/* nothing injected: the run proved nothing */
		EXPECT(enomem_seen + *cycler_failed > 0);
	}
	for (i = 0; i < MAX_FDS; i++)
		if (files[i].fd >= 0)
			close(files[i].fd);
	for (i = 0; i < MAX_MAPS; i++)
		if (maps[i].p)
			munmap((void *)maps[i].p, maps[i].len);
	check_note("%llu calls, %llu errors, %llu SIGBUS, %d SIGIO in %llu s",
		   ops, errors_seen, sigbus_seen, (int)sigio_count, seconds);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		FAIL("the unload/unbind cycler failed: status %#x", status);
	/* leave the dummy loaded, freq 1, as the other tests expect */
	module_unload("iio_user_dummy");
	EXPECT_EQ(module_load("iio_user_dummy", ""), 0);
	EXPECT(!path_exists("/sys/bus/pci/drivers/" GENERIC_DRV "/" GENERIC_PCI));
	if (fail_percent)
		devices_work(devices);
}

static struct check_case cases[] = {
	CASE(random_syscalls),
};

int main(int argc, char **argv)
{
	cases[0].timeout_s = (unsigned int)test_param("seconds", 10) + 60;
	return check_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
