// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mmap.c - mmap of the region nodes of the dummy
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/iio_test.h"

#define SIZE 0x2000
#define WIN 0x1000

static int nr;

static void setup(void)
{
	dummy_reload("freq=0");
	nr = dummy_nr(0);
}

/* a fresh dummy's whole region, mapped read-write; its file in *fd */
static volatile unsigned char *map_fresh_region(int *fd)
{
	volatile unsigned char *p;

	setup();
	*fd = MUST(open(iio_node(nr, ""), O_RDWR));
	p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
	EXPECT(p != MAP_FAILED);
	return p;
}

static void map_whole_region(void)
{
	unsigned char buf[8];
	volatile unsigned char *p;
	int fd;

	p = map_fresh_region(&fd);
	p[0x123] = 0x5a;
	p[WIN + 7] = 0xa5;
	EXPECT_EQ(pread(fd, buf, 1, 0x123), 1);
	EXPECT_EQ(buf[0], 0x5a);
	EXPECT_EQ(pread(fd, buf, 1, WIN + 7), 1);
	EXPECT_EQ(buf[0], 0xa5);
	buf[0] = 0x42;
	EXPECT_EQ(pwrite(fd, buf, 1, 0x321), 1);
	EXPECT_EQ(p[0x321], 0x42);
	munmap((void *)p, SIZE);
	close(fd);
}

static void map_windows(void)
{
	volatile unsigned char *in, *out, *whole;
	int fdw, fdi, fdo;

	setup();
	fdw = MUST(open(iio_node(nr, ""), O_RDWR));
	fdi = MUST(open(iio_node(nr, "_in"), O_RDONLY));
	fdo = MUST(open(iio_node(nr, "_out"), O_RDWR));
	whole = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fdw, 0);
	in = mmap(NULL, WIN, PROT_READ, MAP_SHARED, fdi, 0);
	out = mmap(NULL, WIN, PROT_READ | PROT_WRITE, MAP_SHARED, fdo, 0);
	EXPECT(whole != MAP_FAILED && in != MAP_FAILED && out != MAP_FAILED);
	whole[0x40] = 0x11;
	EXPECT_EQ(in[0x40], 0x11);
	out[0x50] = 0x22;
	EXPECT_EQ(whole[WIN + 0x50], 0x22);
	/* the in window cannot be mapped writable: its file is read-only */
	EXPECT_ERRNO(mmap(NULL, WIN, PROT_READ | PROT_WRITE, MAP_SHARED, fdi, 0),
		     EACCES);
	close(fdw);
	close(fdi);
	close(fdo);
}

static void map_at_offset(void)
{
	volatile unsigned char *p;
	int fd;

	setup();
	fd = MUST(open(iio_node(nr, ""), O_RDWR));
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 4096);
	EXPECT(p != MAP_FAILED);
	p[1] = 0x77;
	EXPECT_EQ(pread(fd, (void *)&p[2], 1, WIN + 1), 1);
	EXPECT_EQ(p[2], 0x77);
	close(fd);
}

static void map_beyond_region_fails(void)
{
	int fd, fdi;

	setup();
	fd = MUST(open(iio_node(nr, ""), O_RDWR));
	EXPECT_ERRNO(mmap(NULL, SIZE + 4096, PROT_READ, MAP_SHARED, fd, 0),
		     EINVAL);
	EXPECT_ERRNO(mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, SIZE), EINVAL);
	EXPECT_ERRNO(mmap(NULL, 8192, PROT_READ, MAP_SHARED, fd, 4096), EINVAL);
	fdi = MUST(open(iio_node(nr, "_in"), O_RDONLY));
	EXPECT_ERRNO(mmap(NULL, 8192, PROT_READ, MAP_SHARED, fdi, 0), EINVAL);
	close(fd);
	close(fdi);
}

static void private_mapping_refused(void)
{
	int fd;

	setup();
	fd = MUST(open(iio_node(nr, ""), O_RDWR));
	EXPECT_ERRNO(mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0), EINVAL);
	close(fd);
}

static void event_node_not_mappable(void)
{
	int fd;

	setup();
	fd = MUST(open(iio_node(nr, "_event"), O_RDWR));
	EXPECT_ERRNO(mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0), ENODEV);
	close(fd);
}

/* the mapping stays valid in a child after fork, and after close */
static void mapping_survives_close_and_fork(void)
{
	volatile unsigned char *p;
	unsigned char b;
	int fd, status;
	pid_t pid;

	p = map_fresh_region(&fd);
	close(fd);
	pid = fork();
	if (!pid) {
		p[0x600] = 0x99;
		_exit(0);
	}
	waitpid(pid, &status, 0);
	EXPECT(WIFEXITED(status) && !WEXITSTATUS(status));
	EXPECT_EQ(p[0x600], 0x99);
	fd = MUST(open(iio_node(nr, ""), O_RDONLY));
	EXPECT_EQ(pread(fd, &b, 1, 0x600), 1);
	EXPECT_EQ(b, 0x99);
	close(fd);
}

/* a page dropped by MADV_DONTNEED comes back on the next touch */
static void madv_dontneed_refaults(void)
{
	volatile unsigned char *p;
	int fd;

	p = map_fresh_region(&fd);
	p[0x10] = 0x3c;
	p[WIN + 0x10] = 0xc3;
	MUST(madvise((void *)p, SIZE, MADV_DONTNEED));
	EXPECT_EQ(p[0x10], 0x3c);
	EXPECT_EQ(p[WIN + 0x10], 0xc3);
	munmap((void *)p, SIZE);
	close(fd);
}

/*
 * iio_register_device(9): a kernel-memory region may be one higher-order
 * block of the page allocator, not compound (alloc=pages: order 2 here),
 * whose pages after the first have no reference count of their own.
 * Every page maps, in a child (a page that does not is SIGBUS), and the
 * mapping is the memory read() and write() see.
 */
static void map_page_allocator_block(void)
{
	const size_t size = 0x4000;
	unsigned char buf[4];
	volatile unsigned char *p;
	size_t off;
	pid_t pid;
	int fd;

	dummy_reload("freq=0 alloc=pages size=16K");
	nr = dummy_nr(0);
	fd = MUST(open(iio_node(nr, ""), O_RDWR));
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	EXPECT(p != MAP_FAILED);
	pid = MUST(fork());
	if (!pid) {
		for (off = 0; off < size; off += 0x1000)
			p[off + 0x10] = (unsigned char)(0xa0 + off / 0x1000);
		_exit(0);
	}
	expect_child_ok(pid);
	for (off = 0; off < size; off += 0x1000) {
		EXPECT_EQ(pread(fd, buf, 1, off + 0x10), 1);
		EXPECT_EQ(buf[0], 0xa0 + off / 0x1000);
		buf[0] = (unsigned char)(0x50 + off / 0x1000);
		EXPECT_EQ(pwrite(fd, buf, 1, off + 0x20), 1);
		EXPECT_EQ(p[off + 0x20], 0x50 + off / 0x1000);
	}
	munmap((void *)p, size);
	close(fd);
	dummy_reload("");
}

/*
 * iio_register_device(9): the pages of such a block after its first are
 * mapped by page frame number, so get_user_pages() of them fails with
 * EEXIST (vmsplice(2) pins the pages it is given); the first page, which
 * has its reference count, pins.
 */
static void page_allocator_block_pins_first_page_only(void)
{
	const size_t size = 0x4000;
	struct iovec iov;
	int fd, pipefd[2];
	void *p;

	dummy_reload("freq=0 alloc=pages size=16K");
	nr = dummy_nr(0);
	fd = MUST(open(iio_node(nr, ""), O_RDWR));
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	EXPECT(p != MAP_FAILED);
	MUST(pipe(pipefd));
	iov = (struct iovec){ .iov_base = p, .iov_len = 0x1000 };
	EXPECT_EQ(vmsplice(pipefd[1], &iov, 1, 0), 0x1000);
	iov.iov_base = (char *)p + 0x1000;
	EXPECT_ERRNO(vmsplice(pipefd[1], &iov, 1, 0), EEXIST);
	close(pipefd[0]);
	close(pipefd[1]);
	munmap(p, size);
	close(fd);
	dummy_reload("");
}

/*
 * iio_user_dummy(4), alloc=pages: a block larger than the page allocator's
 * largest (4 MiB on x86) cannot be had: the load fails with ENODEV and
 * the kernel log says so (the probe's "no 8388608 bytes of memory
 * (alloc=pages)").
 */
static void page_allocator_block_too_large_fails_load(void)
{
	const char *why = "no 8388608 bytes of memory (alloc=pages)";
	unsigned int before = kmsg_count(why);
	int err, reloaded;

	shell("rmmod iio_user_dummy 2>/dev/null");
	err = module_load("iio_user_dummy", "freq=0 alloc=pages size=8388608");
	/* the default back before the checks: the next cases need it */
	shell("rmmod iio_user_dummy 2>/dev/null");
	reloaded = module_load("iio_user_dummy", "");
	EXPECT_EQ(err, ENODEV);
	EXPECT_EQ(reloaded, 0);
	EXPECT_EQ(kmsg_count(why), before + 1);
}

static const struct check_case cases[] = {
	CASE(map_whole_region),
	CASE(map_windows),
	CASE(map_at_offset),
	CASE(map_beyond_region_fails),
	CASE(private_mapping_refused),
	CASE(event_node_not_mappable),
	CASE(mapping_survives_close_and_fork),
	CASE(madv_dontneed_refaults),
	CASE(map_page_allocator_block),
	CASE(page_allocator_block_pins_first_page_only),
	CASE(page_allocator_block_too_large_fails_load),
};
CHECK_MAIN(cases)
