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
		if (errno != ENOENT && errno != ENXIO && errno != ENODEV &&
		    errno != EACCES && errno != EIO)
			FAIL("open %s: errno %d (%s)", f->path, errno,
			     strerror(errno));
		f->fd = -1;
	}
}

static void touch_map(struct omap *m)
{
	size_t i;

	if (!m->p)
		return;
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

static void one_op(void)
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
	case 9:
		r = read(f->fd, bad_pointer(), 1 + below(8));
		expect_result("read to a bad pointer", f, r, 8,
			      f->event ? E_EVENT_READ : E_READ);
		break;
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
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver_override",
		 GENERIC_PCI);
	for (i = 0; !*stop_cycler; i++) {
		if (i % 8 == 3) {
			/* a PCI cycle is slow (~seconds): now and then */
			if (!write_text(path, GENERIC_DRV) &&
			    !pci_driver_bind(GENERIC_DRV, GENERIC_PCI)) {
				msleep(300 + (unsigned)below(500));
				if (pci_driver_unbind(GENERIC_DRV, GENERIC_PCI))
					_exit(3);
			}
			write_text(path, "none");
			continue;
		}
		if (module_unload("iio_user_dummy"))
			_exit(1);
		msleep((unsigned)below(50));
		if (module_load("iio_user_dummy", below(2) ? "freq=500" : "freq=0 size=16384"))
			_exit(2);
		msleep(50 + (unsigned)below(400));
	}
	_exit(0);
}

static void random_syscalls(void)
{
	unsigned long long seconds = test_param("seconds", 10), end;
	uint64_t seed = test_param("seed", 0);
	struct sigaction sa = { 0 };
	int i, status;
	pid_t cycler;

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
	cycler = fork_cycler(seed);
	end = now_ms() + seconds * 1000;
	while (now_ms() < end)
		for (i = 0; i < 100; i++)
			one_op();
	*stop_cycler = 1;
	waitpid(cycler, &status, 0);
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
}

static struct check_case cases[] = {
	CASE(random_syscalls),
};

int main(int argc, char **argv)
{
	cases[0].timeout_s = (unsigned int)test_param("seconds", 10) + 60;
	return check_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
