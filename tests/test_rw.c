// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_rw.c - read, write, pread, pwrite and lseek on the region nodes
 * of the dummy (8 KiB; in = [0, 4K), out = [4K, 8K))
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "lib/iio_test.h"

#define SIZE 0x2000
#define WIN 0x1000

static int nr;

static int open_node(const char *suffix, int flags)
{
	return MUST(open(iio_node(nr, suffix), flags));
}

static void setup(void)
{
	dummy_reload("freq=0");
	nr = dummy_nr(0);
}

static void fill(unsigned char *buf, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf[i] = (unsigned char)(seed + i * 7);
}

static void whole_region_round_trip(void)
{
	unsigned char out[SIZE], in[SIZE];
	int fd;

	setup();
	fd = open_node("", O_RDWR);
	fill(out, SIZE, 3);
	EXPECT_EQ(write(fd, out, SIZE), SIZE);
	EXPECT_EQ(lseek(fd, 0, SEEK_CUR), SIZE);
	EXPECT_EQ(lseek(fd, 0, SEEK_SET), 0);
	memset(in, 0, SIZE);
	EXPECT_EQ(read(fd, in, SIZE), SIZE);
	EXPECT(!memcmp(in, out, SIZE));
	close(fd);
}

static void unaligned_and_odd_lengths(void)
{
	unsigned char out[64], in[64];
	size_t len, off;
	int fd;

	setup();
	fd = open_node("", O_RDWR);
	for (off = 0; off < 9; off++) {
		for (len = 1; len <= 17; len++) {
			fill(out, len, off * 31 + len);
			EXPECT_EQ(pwrite(fd, out, len, 0x200 + off), len);
			memset(in, 0xee, sizeof(in));
			EXPECT_EQ(pread(fd, in, len, 0x200 + off), len);
			if (memcmp(in, out, len))
				FAIL("mismatch at offset %zu length %zu", off, len);
		}
	}
	close(fd);
}

/* the windows are views of the region at their offsets */
static void windows_are_views(void)
{
	unsigned char buf[16], got[16];
	int whole, in, out;

	setup();
	whole = open_node("", O_RDWR);
	in = open_node("_in", O_RDONLY);
	out = open_node("_out", O_RDWR);

	fill(buf, sizeof(buf), 11);
	EXPECT_EQ(pwrite(whole, buf, sizeof(buf), 0x10), sizeof(buf));
	EXPECT_EQ(pread(in, got, sizeof(got), 0x10), sizeof(got));
	EXPECT(!memcmp(buf, got, sizeof(buf)));

	fill(buf, sizeof(buf), 99);
	EXPECT_EQ(pwrite(out, buf, sizeof(buf), 0x20), sizeof(buf));
	EXPECT_EQ(pread(whole, got, sizeof(got), WIN + 0x20), sizeof(got));
	EXPECT(!memcmp(buf, got, sizeof(buf)));
	/* out is readable (read-back), documented in iio_dev.c */
	memset(got, 0, sizeof(got));
	EXPECT_EQ(pread(out, got, sizeof(got), 0x20), sizeof(got));
	EXPECT(!memcmp(buf, got, sizeof(buf)));
	close(whole);
	close(in);
	close(out);
}

static void in_window_is_read_only(void)
{
	setup();
	EXPECT_ERRNO(open(iio_node(nr, "_in"), O_RDWR), EACCES);
	EXPECT_ERRNO(open(iio_node(nr, "_in"), O_WRONLY), EACCES);
}

static void eof_at_end(void)
{
	unsigned char buf[64];
	int fd, in;

	setup();
	fd = open_node("", O_RDONLY);
	EXPECT_EQ(pread(fd, buf, sizeof(buf), SIZE), 0);
	EXPECT_EQ(pread(fd, buf, sizeof(buf), SIZE + 100), 0);
	EXPECT_EQ(pread(fd, buf, sizeof(buf), SIZE - 10), 10);
	EXPECT_EQ(lseek(fd, SIZE - 3, SEEK_SET), SIZE - 3);
	EXPECT_EQ(read(fd, buf, sizeof(buf)), 3);
	EXPECT_EQ(read(fd, buf, sizeof(buf)), 0);
	in = open_node("_in", O_RDONLY);
	EXPECT_EQ(pread(in, buf, sizeof(buf), WIN - 1), 1);
	EXPECT_EQ(pread(in, buf, sizeof(buf), WIN), 0);
	close(fd);
	close(in);
}

static void write_past_end(void)
{
	unsigned char buf[64] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	unsigned char got[64];
	int fd, out;

	setup();
	fd = open_node("", O_RDWR);
	EXPECT_ERRNO(pwrite(fd, buf, sizeof(buf), SIZE), ENOSPC);
	EXPECT_ERRNO(pwrite(fd, buf, 1, SIZE + 4096), ENOSPC);
	EXPECT_EQ(pwrite(fd, buf, sizeof(buf), SIZE - 5), 5);
	EXPECT_EQ(pread(fd, got, 5, SIZE - 5), 5);
	EXPECT(!memcmp(buf, got, 5));
	out = open_node("_out", O_WRONLY);
	EXPECT_EQ(lseek(out, WIN, SEEK_SET), WIN);
	EXPECT_ERRNO(write(out, buf, 1), ENOSPC);
	EXPECT_EQ(pwrite(out, buf, 8, WIN - 2), 2);
	close(fd);
	close(out);
}

static void lseek_bounds(void)
{
	int fd, in, out;

	setup();
	fd = open_node("", O_RDONLY);
	EXPECT_EQ(lseek(fd, 0, SEEK_END), SIZE);
	EXPECT_EQ(lseek(fd, -16, SEEK_END), SIZE - 16);
	EXPECT_EQ(lseek(fd, 8, SEEK_CUR), SIZE - 8);
	EXPECT_ERRNO(lseek(fd, 9, SEEK_CUR), EINVAL);
	EXPECT_EQ(lseek(fd, 0, SEEK_CUR), SIZE - 8);	/* unchanged */
	EXPECT_ERRNO(lseek(fd, 1, SEEK_END), EINVAL);
	EXPECT_ERRNO(lseek(fd, SIZE + 1, SEEK_SET), EINVAL);
	EXPECT_ERRNO(lseek(fd, -1, SEEK_SET), EINVAL);
	EXPECT_EQ(lseek(fd, 5, SEEK_SET), 5);
	EXPECT_ERRNO(lseek(fd, -6, SEEK_CUR), EINVAL);
	EXPECT_EQ(lseek(fd, SIZE, SEEK_SET), SIZE);
	EXPECT_ERRNO(lseek(fd, 0, SEEK_DATA), EINVAL);
	EXPECT_ERRNO(lseek(fd, 0, 77), EINVAL);

	in = open_node("_in", O_RDONLY);
	out = open_node("_out", O_RDWR);
	EXPECT_EQ(lseek(in, 0, SEEK_END), WIN);
	EXPECT_EQ(lseek(out, 0, SEEK_END), WIN);
	EXPECT_ERRNO(lseek(in, WIN + 1, SEEK_SET), EINVAL);
	close(fd);
	close(in);
	close(out);
}

/* large transfers in several chunks of the kernel's bounce buffer */
static void large_region_transfer(void)
{
	const size_t size = 0x4000000;	/* 64 MiB */
	unsigned char *out, *in;
	int fd;

	dummy_reload("size=0x4000000 freq=0");
	nr = dummy_nr(0);
	out = malloc(size);
	in = malloc(size);
	EXPECT(out && in);
	fill(out, size, 5);
	fd = open_node("", O_RDWR);
	EXPECT_EQ(pwrite(fd, out, size, 0), size);
	EXPECT_EQ(pread(fd, in, size, 0), size);
	EXPECT(!memcmp(in, out, size));
	EXPECT_STREQ(read_text(iio_attr_path(nr, "size")), "0x4000000");
	close(fd);
	free(out);
	free(in);
	dummy_reload("");
}

static void bad_user_buffer(void)
{
	int fd;

	setup();
	fd = open_node("", O_RDWR);
	EXPECT_ERRNO(pread(fd, bad_pointer(), 16, 0), EFAULT);
	EXPECT_ERRNO(pwrite(fd, bad_pointer(), 16, 0), EFAULT);
	EXPECT_EQ(pread(fd, NULL, 0, 0), 0);
	close(fd);
}

/*
 * Transfers of kernel memory longer than 64 bytes are copied straight, in
 * pieces of 256 KiB (iio(4), Access widths): odd offsets and lengths across
 * pages and pieces read what was written, and a write changes nothing
 * around its range.
 */
static void long_transfers_at_odd_offsets(void)
{
	static const struct { size_t off, len; } t[] = {
		{ 1, 65 }, { 63, 130 }, { 4095, 4098 }, { 0x3ffff, 0x40003 },
		{ 0x12345, 0x80001 }, { 7, 0x100000 - 7 }, { 0xfff01, 0xff },
	};
	const size_t size = 0x100000;
	unsigned char *base, *got, *mine;
	size_t i;
	int fd;

	dummy_reload("size=1M freq=0");
	nr = dummy_nr(0);
	base = malloc(size);
	got = malloc(size);
	mine = malloc(size);
	EXPECT(base && got && mine);
	fd = open_node("", O_RDWR);
	fill(base, size, 1);
	EXPECT_EQ(pwrite(fd, base, size, 0), size);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		memset(got, 0xee, t[i].len + 1);
		EXPECT_EQ(pread(fd, got, t[i].len, t[i].off), t[i].len);
		if (memcmp(got, base + t[i].off, t[i].len) ||
		    got[t[i].len] != 0xee)
			FAIL("read of %zu at %#zx differs", t[i].len, t[i].off);
		fill(mine, t[i].len, 50 + i);
		EXPECT_EQ(pwrite(fd, mine, t[i].len, t[i].off), t[i].len);
		memcpy(base + t[i].off, mine, t[i].len);
		EXPECT_EQ(pread(fd, got, size, 0), size);
		if (memcmp(got, base, size))
			FAIL("write of %zu at %#zx: region differs", t[i].len,
			     t[i].off);
	}
	close(fd);
	free(base);
	free(got);
	free(mine);
	dummy_reload("");
}

/*
 * read() into, and write() from, pages of a mapping of the same region that
 * were never touched: the copy faults them in (their fault takes the lock
 * the transfer holds; it must be neither a deadlock nor an EFAULT).
 */
static void transfer_with_own_mapping(void)
{
	const size_t size = 0x40000;
	unsigned char *p, *want, *got;
	int fd;

	dummy_reload("size=256K freq=0");
	nr = dummy_nr(0);
	want = malloc(0x8000);
	got = malloc(0x8000);
	EXPECT(want && got);
	fd = open_node("", O_RDWR);
	fill(want, 0x8000, 9);
	EXPECT_EQ(pwrite(fd, want, 0x8000, 0), 0x8000);
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	EXPECT(p != MAP_FAILED);
	/* region [0, 0x8000) into its own [0x10003, 0x18003) */
	EXPECT_EQ(pread(fd, p + 0x10003, 0x8000, 0), 0x8000);
	EXPECT_EQ(pread(fd, got, 0x8000, 0x10003), 0x8000);
	EXPECT(!memcmp(got, want, 0x8000));
	/* and from the untouched (zero) [0x20001, 0x28001) of the mapping */
	EXPECT_EQ(pwrite(fd, want, 0x8000, 0x30000), 0x8000);
	memset(want, 0, 0x8000);
	EXPECT_EQ(pwrite(fd, p + 0x20001, 0x8000, 0x30000), 0x8000);
	EXPECT_EQ(pread(fd, got, 0x8000, 0x30000), 0x8000);
	EXPECT(!memcmp(got, want, 0x8000));
	munmap(p, size);
	close(fd);
	free(want);
	free(got);
	dummy_reload("");
}

/*
 * A read that ends at the region's end, into pages not yet faulted in,
 * returns the bytes there are and leaves every byte past them as it was:
 * in plain memory, and in a mapping of the same region (its own memory).
 * Faulting the buffer in must not write to it (fault_in_writeable() stores
 * a zero in each page it touches).
 */
static void short_read_leaves_rest(void)
{
	const size_t size = 0x40000, pg = 0x1000, tail = 0x100;
	unsigned char *buf, *p, *got;
	size_t i;
	int fd;

	dummy_reload("size=256K freq=0");
	nr = dummy_nr(0);
	fd = open_node("", O_RDWR);
	got = malloc(size);
	EXPECT(got != NULL);
	memset(got, 0xaa, size);
	EXPECT_EQ(pwrite(fd, got, size, 0), size);

	/* plain memory: page 0 not present, pages 1 to 3 full of 0x55 */
	buf = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	EXPECT(buf != MAP_FAILED);
	memset(buf + pg, 0x55, 3 * pg);
	EXPECT_EQ(pread(fd, buf, 4 * pg, size - tail), tail);
	for (i = tail; i < 4 * pg; i++)
		if (buf[i] != (i < pg ? 0 : 0x55))
			FAIL("byte %#zx past a read of %#zx is %#x", i, tail,
			     buf[i]);
	munmap(buf, 4 * pg);

	/* the region's own mapping, [0x10000, 0x14000) never touched */
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	EXPECT(p != MAP_FAILED);
	EXPECT_EQ(pread(fd, p + 0x10000, 4 * pg, size - tail), tail);
	munmap(p, size);
	EXPECT_EQ(pread(fd, got, size, 0), size);
	for (i = 0x10000 + tail; i < size; i++)
		if (got[i] != 0xaa)
			FAIL("region byte %#zx past a read of %#zx is %#x", i,
			     tail, got[i]);
	close(fd);
	free(got);
	dummy_reload("");
}

/* readv and writev: the buffers one after the other, from the position */
static void readv_writev(void)
{
	char a[3] = "abc", b[5] = "defgh", c[8], d[8], whole[8];
	struct iovec out[2] = { { a, 3 }, { b, 5 } };
	struct iovec in[2] = { { c, 5 }, { d, 3 } };
	int fd;

	setup();
	fd = open_node("_out", O_RDWR);
	EXPECT_EQ(lseek(fd, 0x10, SEEK_SET), 0x10);
	EXPECT_EQ(writev(fd, out, 2), 8);
	EXPECT_EQ(lseek(fd, 0, SEEK_CUR), 0x18);
	EXPECT_EQ(pread(fd, whole, 8, 0x10), 8);
	EXPECT(!memcmp(whole, "abcdefgh", 8));
	EXPECT_EQ(lseek(fd, 0x10, SEEK_SET), 0x10);
	EXPECT_EQ(readv(fd, in, 2), 8);
	EXPECT(!memcmp(c, "abcde", 5) && !memcmp(d, "fgh", 3));
	EXPECT_EQ(lseek(fd, 0, SEEK_CUR), 0x18);
	/* preadv at the window's end: shortened; pwritev past it: ENOSPC */
	EXPECT_EQ(preadv(fd, in, 2, WIN - 6), 6);
	EXPECT_ERRNO(pwritev(fd, out, 2, WIN), ENOSPC);
	EXPECT_EQ(pwritev(fd, out, 2, WIN - 4), 4);
	EXPECT_EQ(pread(fd, whole, 4, WIN - 4), 4);
	EXPECT(!memcmp(whole, "abcd", 4));
	close(fd);
}

/*
 * O_APPEND has no effect: write and pwrite go to the file position (or
 * the given one), not to the end (where a write would fail with ENOSPC).
 */
static void o_append_has_no_effect(void)
{
	unsigned char out[8], got[8];
	int fd, plain;

	setup();
	fd = open_node("", O_RDWR | O_APPEND);
	plain = open_node("", O_RDONLY);
	fill(out, sizeof(out), 9);
	EXPECT_EQ(lseek(fd, 16, SEEK_SET), 16);
	EXPECT_EQ(write(fd, out, sizeof(out)), sizeof(out));
	EXPECT_EQ(lseek(fd, 0, SEEK_CUR), 16 + sizeof(out));
	EXPECT_EQ(pread(plain, got, sizeof(got), 16), sizeof(got));
	EXPECT(!memcmp(got, out, sizeof(out)));
	fill(out, sizeof(out), 77);
	EXPECT_EQ(pwrite(fd, out, sizeof(out), 64), sizeof(out));
	EXPECT_EQ(pread(plain, got, sizeof(got), 64), sizeof(got));
	EXPECT(!memcmp(got, out, sizeof(out)));
	EXPECT_EQ(lseek(fd, 0, SEEK_CUR), 16 + sizeof(out));
	close(fd);
	close(plain);
}

/* no ioctl on the region nodes */
static void ioctl_is_enotty(void)
{
	static const char *const sfx[] = { "", "_in", "_out" };
	int fd, i, arg = 0;

	setup();
	for (i = 0; i < 3; i++) {
		fd = open_node(sfx[i], O_RDONLY);
		EXPECT_ERRNO(ioctl(fd, _IO('i', 0), 0), ENOTTY);
		EXPECT_ERRNO(ioctl(fd, _IOR('i', 1, int), &arg), ENOTTY);
		EXPECT_ERRNO(ioctl(fd, FIONREAD, &arg), ENOTTY);
		close(fd);
	}
}

#define PAGE		4096
#define FAILSLAB	"/sys/kernel/debug/failslab/"
#define FAIL_NTH	"/proc/thread-self/fail-nth"

/* fail-nth (the debug kernel's fault injection): arm it for allocation @n */
static void nth_arm(int nth, unsigned int n)
{
	char text[16];
	int len = snprintf(text, sizeof(text), "%u", n);

	EXPECT_EQ(pwrite(nth, text, len, 0), len);
}

/* what is left of fail-nth's count (0: the failure was injected) */
static unsigned long nth_left(int nth)
{
	char text[16];
	ssize_t len = pread(nth, text, sizeof(text) - 1, 0);

	EXPECT(len > 0);
	text[len] = 0;
	return strtoul(text, NULL, 10);
}

/*
 * iio(4) ERRORS: a read or write of I/O memory over 64 bytes needs a
 * transfer buffer; with none to be had (fail-nth fails the task's next
 * slab allocation: the debug kernel, make check-debug) it fails with
 * ENOMEM, having touched nothing; one of 64 bytes allocates nothing.
 */
static void enomem_without_transfer_buffer(void)
{
	char buf[PAGE], wait_was[8], verbose_was[8];
	int fd, nth, edu = iio_must_find("edu", 0);

	if (!path_exists(FAIL_NTH))
		check_skip("no " FAIL_NTH ": this kernel has no fault injection (make check-debug's kernel has)");
	if (!path_exists(FAILSLAB))
		debugfs_mount();
	if (!path_exists(FAILSLAB))
		check_skip("no failslab in debugfs (CONFIG_FAILSLAB, CONFIG_FAULT_INJECTION_DEBUG_FS)");
	/* GFP_KERNEL allocations may fail too; a line per failure, no stack */
	snprintf(wait_was, sizeof(wait_was), "%s",
		 read_text(FAILSLAB "ignore-gfp-wait"));
	snprintf(verbose_was, sizeof(verbose_was), "%s",
		 read_text(FAILSLAB "verbose"));
	debugfs_knob("failslab/ignore-gfp-wait", "N");
	debugfs_knob("failslab/verbose", "1");
	/* edu's BAR0 past its registers: reads all ones, ignores writes */
	fd = MUST(open(iio_node(edu, ""), O_RDWR));
	nth = MUST(open(FAIL_NTH, O_RDWR));
	memset(buf, 0x5a, sizeof(buf));
	nth_arm(nth, 1);
	EXPECT_ERRNO(pread(fd, buf, 65, 0x1000), ENOMEM);
	EXPECT_EQ(nth_left(nth), 0);
	EXPECT_EQ(buf[0], 0x5a);
	nth_arm(nth, 1);
	EXPECT_ERRNO(pwrite(fd, buf, sizeof(buf), 0x1000), ENOMEM);
	EXPECT_EQ(nth_left(nth), 0);
	/* 64 bytes go through the stack: no allocation to fail */
	nth_arm(nth, 1);
	EXPECT_EQ(pread(fd, buf, 64, 0x1000), 64);
	EXPECT_EQ(nth_left(nth), 1);
	nth_arm(nth, 0);
	EXPECT_EQ((unsigned char)buf[0], 0xff);
	EXPECT_EQ(pread(fd, buf, 65, 0x1000), 65);
	close(nth);
	close(fd);
	debugfs_knob("failslab/ignore-gfp-wait", wait_was);
	debugfs_knob("failslab/verbose", verbose_was);
}

static unsigned long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* how many pages of @seen, from the start, a read has written */
static size_t pages_done(volatile unsigned char *seen, size_t pages)
{
	size_t done = 0;

	while (done < pages && seen[done * PAGE] != 0x5a)
		done++;
	return done;
}

/*
 * A fatal signal ends a long transfer early (iio(4)): a child reads @len
 * bytes of @fd from 0 into a shared buffer, its pages present, and is
 * killed (SIGKILL) as soon as the first bytes have landed.  The pages
 * written when kill(2) has returned (the signal is pending by then) are
 * counted: if at least two of the kernel's pieces (@piece bytes each) were
 * still to come, the read must stop before the end.  A kill that came too
 * late (the parent was not running while the child read) proves nothing
 * and is tried again, up to 50 times.  Every page of the region must read
 * something other than 0x5a at its start.
 */
static void killed_read_stops(int fd, size_t len, size_t piece)
{
	size_t pages = len / PAGE, at_kill, done, i;
	unsigned long long start, full;
	volatile unsigned char *seen;
	unsigned char *buf;
	int attempt, status;
	pid_t pid;

	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	EXPECT(buf != MAP_FAILED);
	seen = buf;
	memset(buf, 0x5a, len);
	start = now_us();
	EXPECT_EQ(pread(fd, buf, len, 0), len);
	full = now_us() - start;
	for (i = 0; i < pages; i++)
		if (buf[i * PAGE] == 0x5a)
			FAIL("page %zu of the region reads 0x5a at its start", i);
	for (attempt = 0; attempt < 50; attempt++) {
		memset(buf, 0x5a, len);
		pid = MUST(fork());
		if (!pid) {
			/*
			 * its own page table entries first (fork gave it
			 * none for a shared mapping): a fault in during
			 * the read would see the signal on its own (GUP)
			 */
			memset(buf, 0x5a, len);
			(void)!pread(fd, buf, len, 0);
			_exit(0);
		}
		start = now_us();
		while (seen[0] == 0x5a)
			if (now_us() - start > 10000000)
				FAIL("the child's read wrote nothing in 10 s");
		kill(pid, SIGKILL);
		at_kill = pages_done(seen, pages);
		EXPECT_EQ(waitpid(pid, &status, 0), pid);
		done = pages_done(seen, pages);
		if (at_kill + 2 * piece / PAGE >= pages)
			continue;	/* too late to tell */
		if (done == pages)
			FAIL("killed with %zu of %zu pages read, the read went on to the end",
			     at_kill, pages);
		check_note("killed with %zu of %zu pages read (a whole read takes %llu us), it stopped after %zu (attempt %d)",
			   at_kill, pages, full, done, attempt + 1);
		EXPECT_EQ(munmap(buf, len), 0);
		return;
	}
	FAIL("50 kills all came with less than two pieces of the read left (a whole read takes %llu us): the guest is too slow to tell",
	     full);
}

/* kernel memory: 64 MiB of the dummy, copied straight in 256 KiB pieces */
static void fatal_signal_ends_long_transfer(void)
{
	const size_t size = 0x4000000;
	unsigned char *out;
	int fd;

	dummy_reload("size=0x4000000 freq=0");
	nr = dummy_nr(0);
	out = malloc(size);
	EXPECT(out);
	memset(out, 0xa5, size);
	fd = open_node("", O_RDWR);
	EXPECT_EQ(pwrite(fd, out, size, 0), size);
	free(out);
	killed_read_stops(fd, size, 0x40000);	/* 256 KiB pieces */
	close(fd);
	dummy_reload("");
}

/* I/O memory: edu's 1 MiB BAR0 (all ones past its registers), by page */
static void fatal_signal_ends_long_io_transfer(void)
{
	int edu = iio_must_find("edu", 0);
	int fd = MUST(open(iio_node(edu, ""), O_RDONLY));

	EXPECT_STREQ(read_text(iio_attr_path(edu, "size")), "0x100000");
	killed_read_stops(fd, 0x100000, PAGE);	/* a page at a time */
	close(fd);
}

/*
 * Offset 0 while the timer writes it (iio_user_dummy(4): the tick count,
 * rewritten on every tick): two readers, one per CPU, each read 8 bytes
 * at offset 0 again and again; every value read is whole (never lower
 * than the one before, never past the count read after), and the count
 * moved while they read.  Under the KCSAN kernel (make check-kcsan) this
 * is also where a plain load in iio_read_one() racing the timer's
 * WRITE_ONCE() is reported (tests/mutants/kcsan-read-one-plain-load).
 */
#define TICK_READS 300000

static void tick_reader(int fd, int out)
{
	uint64_t v, last = 0;
	long i;

	for (i = 0; i < TICK_READS; i++) {
		if (pread(fd, &v, sizeof(v), 0) != sizeof(v))
			_exit(2);
		if (v < last)
			_exit(3);
		last = v;
	}
	_exit(write(out, &last, sizeof(last)) == sizeof(last) ? 0 : 4);
}

static void tick_count_read_whole_while_ticking(void)
{
	unsigned long long before, after;
	uint64_t last[2];
	int fd, pipefd[2], i, status;
	pid_t pid[2];

	dummy_reload("freq=10000");
	nr = dummy_nr(0);
	fd = open_node("", O_RDONLY);
	MUST(pipe(pipefd));
	before = strtoull(read_text(dummy_attr(0, "count")), NULL, 0);
	for (i = 0; i < 2; i++) {
		pid[i] = MUST(fork());
		if (!pid[i])
			tick_reader(fd, pipefd[1]);
	}
	close(pipefd[1]);
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(waitpid(pid[i], &status, 0), pid[i]);
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			FAIL("reader %d: status 0x%x (2: a short read, 3: the count went down)",
			     i, status);
		EXPECT_EQ(read(pipefd[0], &last[i], sizeof(last[i])),
			  sizeof(last[i]));
	}
	after = strtoull(read_text(dummy_attr(0, "count")), NULL, 0);
	for (i = 0; i < 2; i++)
		if (last[i] < before || last[i] > after)
			FAIL("a reader's last value %llu is outside [%llu, %llu], the counts before and after",
			     (unsigned long long)last[i], before, after);
	if (after == before)
		FAIL("the count stayed at %llu: no tick while they read", before);
	check_note("%d reads each while the count went from %llu to %llu",
		   TICK_READS, before, after);
	close(pipefd[0]);
	close(fd);
	dummy_reload("");
}

static const struct check_case cases[] = {
	CASE(whole_region_round_trip),
	CASE(unaligned_and_odd_lengths),
	CASE(windows_are_views),
	CASE(in_window_is_read_only),
	CASE(eof_at_end),
	CASE(write_past_end),
	CASE(lseek_bounds),
	CASE_T(large_region_transfer, 60),
	CASE(bad_user_buffer),
	CASE_T(long_transfers_at_odd_offsets, 60),
	CASE(transfer_with_own_mapping),
	CASE(short_read_leaves_rest),
	CASE(readv_writev),
	CASE(ioctl_is_enotty),
	CASE(o_append_has_no_effect),
	CASE(enomem_without_transfer_buffer),
	CASE_T(fatal_signal_ends_long_transfer, 120),
	CASE_T(fatal_signal_ends_long_io_transfer, 120),
	CASE_T(tick_count_read_whole_while_ticking, 120),
};
CHECK_MAIN(cases)
