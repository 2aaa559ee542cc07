// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_dma.c - DMA buffers (kmod/iio_dma.c) proved on edu's DMA engine,
 * driven entirely from user space: the buffer's sysfs files, a pattern
 * copied into edu and back by DMA with the completion interrupt as the
 * event, through mmap and through read/write, the file's bounds, and
 * rmmod with a live mapping; without an IOMMU, a write of edu to any
 * physical address reaches it (test_iommu: not under one).  dma_free of a
 * buffer user space added (iio_pci_generic on the free edu): its folder,
 * link, mappings and open files go, its number and bytes come back, every
 * documented errno, frees racing mappers, readers and unbind, and 1000
 * requests and frees that leak nothing.  (A transfer
 * out of edu's range is refused by the device by stopping the machine:
 * tests/guest/edu-dma-out-of-range, in a boot of its own.)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/iio_test.h"

#define BUF_SIZE	0x10000		/* iio_edu's default dma_size */
#define EDU_FREE	"0000:00:13.0"	/* no driver at boot (qemu/init) */

static int nr, fd, efd;
static volatile uint64_t *regs;

static const char *dma_path(int n, const char *file)
{
	static char path[128];

	snprintf(path, sizeof(path), "/sys/class/iio/iio%d/dma0/%s", n, file);
	return path;
}

static void setup(void)
{
	nr = iio_must_find("edu", 0);
	fd = MUST(open(iio_node(nr, ""), O_RDWR));
	regs = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	EXPECT(regs != MAP_FAILED);
	efd = MUST(open(iio_node(nr, "_event"), O_RDONLY));
}

static void fill(uint8_t *p, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(i * 7 + seed);
}

/* one transfer of edu's engine with the interrupt on completion; waits */
static void edu_dma(uint64_t src, uint64_t dst, uint64_t count, uint64_t dir)
{
	struct pollfd pfd = { .fd = efd, .events = POLLIN };
	uint32_t before = read_num(iio_attr_path(nr, "event"));

	edu_dma_start(regs, src, dst, count, EDU_DMA_IRQ | dir);
	if (poll(&pfd, 1, 5000) != 1)
		FAIL("no DMA completion interrupt within 5 s");
	EXPECT_EQ(event_read(efd), before + 1);
	EXPECT_EQ(regs[EDU_DMA_CMD / 8] & EDU_DMA_RUN, 0);
}

static uint64_t bus_addr(void)
{
	return read_num(dma_path(nr, "bus_addr"));
}

/* dma0/ of edu: size, a page-aligned 28-bit bus address, a 0600 file */
static void buffer_in_sysfs(void)
{
	struct stat st;
	uint64_t bus;

	nr = iio_must_find("edu", 0);
	EXPECT_STREQ(read_text(dma_path(nr, "size")), "0x10000");
	bus = bus_addr();
	EXPECT(bus != 0 && bus % 4096 == 0 && bus + BUF_SIZE <= 1ULL << 28);
	MUST(stat(dma_path(nr, "buffer"), &st));
	EXPECT(S_ISREG(st.st_mode));
	EXPECT_EQ(st.st_mode & 07777, 0600);
	EXPECT_EQ(st.st_size, BUF_SIZE);
	MUST(stat(dma_path(nr, "bus_addr"), &st));
	EXPECT_EQ(st.st_mode & 07777, 0400);	/* a physical address */
	MUST(stat(dma_path(nr, "size"), &st));
	EXPECT_EQ(st.st_mode & 07777, 0444);
	EXPECT(!path_exists("/sys/class/iio/iio0/dma0"));
	EXPECT(!path_exists(iio_attr_path(nr, "dma1")));
	/* the other edu has its own buffer */
	EXPECT(bus != read_num(dma_path(iio_must_find("edu", 1), "bus_addr")));
}

/* pattern -> edu by DMA, buffer cleared, edu -> another page by DMA */
static void round_trip_by_mmap(void)
{
	uint8_t want[EDU_DMA_MAX];
	uint8_t *buf;
	int bfd;

	setup();
	bfd = MUST(open(dma_path(nr, "buffer"), O_RDWR));
	buf = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, bfd, 0);
	EXPECT(buf != MAP_FAILED);
	fill(want, sizeof(want), 1);
	memcpy(buf, want, sizeof(want));
	edu_dma(bus_addr(), EDU_DMA_BASE, EDU_DMA_MAX, 0);
	memset(buf, 0, BUF_SIZE);
	edu_dma(EDU_DMA_BASE, bus_addr() + 2 * 4096, EDU_DMA_MAX,
		EDU_DMA_TO_RAM);
	EXPECT(memcmp(buf + 2 * 4096, want, sizeof(want)) == 0);
	EXPECT(buf[0] == 0 && buf[4096] == 0 && buf[3 * 4096] == 0);
	munmap(buf, BUF_SIZE);
	close(bfd);
}

/* the same with pwrite/pread of dma0/buffer, a partial transfer too */
static void round_trip_by_read_write(void)
{
	uint8_t want[EDU_DMA_MAX], got[EDU_DMA_MAX], zero[EDU_DMA_MAX] = { 0 };
	int bfd;

	setup();
	bfd = MUST(open(dma_path(nr, "buffer"), O_RDWR));
	fill(want, sizeof(want), 3);
	EXPECT_EQ(pwrite(bfd, want, sizeof(want), 5 * 4096), sizeof(want));
	edu_dma(bus_addr() + 5 * 4096, EDU_DMA_BASE, EDU_DMA_MAX, 0);
	EXPECT_EQ(pwrite(bfd, zero, sizeof(zero), 5 * 4096), sizeof(zero));
	edu_dma(EDU_DMA_BASE + 256, bus_addr() + 9 * 4096 + 100, 1000,
		EDU_DMA_TO_RAM);
	EXPECT_EQ(pread(bfd, got, 1200, 9 * 4096), 1200);
	EXPECT(memcmp(got, zero, 100) == 0);
	EXPECT(memcmp(got + 100, want + 256, 1000) == 0);
	EXPECT(memcmp(got + 1100, zero, 100) == 0);
	close(bfd);
}

/* reads end at the size, writes past it fail, mappings stay inside */
static void buffer_file_bounds(void)
{
	char c = 0;
	void *p;
	int bfd;

	nr = iio_must_find("edu", 0);
	bfd = MUST(open(dma_path(nr, "buffer"), O_RDWR));
	EXPECT_EQ(pread(bfd, &c, 1, BUF_SIZE), 0);
	EXPECT_ERRNO(pwrite(bfd, &c, 1, BUF_SIZE), EFBIG);
	EXPECT_EQ(pwrite(bfd, "ab", 2, BUF_SIZE - 1), 1);
	EXPECT_ERRNO(mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, bfd, 0), EINVAL);
	EXPECT_ERRNO(mmap(NULL, BUF_SIZE + 4096, PROT_READ, MAP_SHARED, bfd, 0),
		     EINVAL);
	EXPECT_ERRNO(mmap(NULL, 4096, PROT_READ, MAP_SHARED, bfd, BUF_SIZE),
		     EINVAL);
	/* starting inside the buffer and running past its end */
	EXPECT_ERRNO(mmap(NULL, 2 * 4096, PROT_READ, MAP_SHARED, bfd,
			  BUF_SIZE - 4096), EINVAL);
	/* ... while its last page alone maps */
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, bfd, BUF_SIZE - 4096);
	EXPECT(p != MAP_FAILED);
	munmap(p, 4096);
	close(bfd);
}

/*
 * rmmod with the buffer mapped and its file open: the mapping faults, the
 * file says ENODEV, no poison report (slub_debug); dma_size=0 gives no
 * buffer; the default brings it back, and the numbers.
 */
static void remove_with_live_mapping(void)
{
	uint8_t *buf;
	char c;
	int bfd;

	nr = iio_must_find("edu", 0);
	bfd = MUST(open(dma_path(nr, "buffer"), O_RDWR));
	buf = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, bfd, 0);
	EXPECT(buf != MAP_FAILED);
	buf[100] = 42;
	EXPECT(shell("rmmod iio_edu") == 0);
	expect_sigbus(buf + 100, 0);
	expect_sigbus(buf + BUF_SIZE - 1, 1);
	EXPECT_ERRNO(pread(bfd, &c, 1, 0), ENODEV);
	EXPECT_ERRNO(mmap(NULL, 4096, PROT_READ, MAP_SHARED, bfd, 0), ENODEV);
	munmap(buf, BUF_SIZE);
	close(bfd);

	EXPECT(shell("insmod " MODDIR "/iio_edu.ko dma_size=0") == 0);
	EXPECT_EQ(iio_must_find("edu", 0), nr);
	EXPECT(!path_exists(iio_attr_path(nr, "dma0")));
	EXPECT(shell("rmmod iio_edu && insmod " MODDIR "/iio_edu.ko") == 0);
	EXPECT_EQ(iio_must_find("edu", 0), nr);
	EXPECT_STREQ(read_text(dma_path(nr, "size")), "0x10000");
}

/*
 * Without an IOMMU, edu writes wherever it is told: programmed with the
 * physical address of a canary page of this process (no buffer of its
 * own), it overwrites the canary.  Under the IOMMU the same write is
 * blocked (test_iommu's canary_out_of_reach).
 */
static void edu_overwrites_any_page_without_iommu(void)
{
	uint8_t pattern[EDU_DMA_MAX], *canary;
	uint64_t phys;

	nr = iio_must_find("edu", 0);
	if (path_exists("/sys/kernel/iommu_groups/0"))
		FAIL("an IOMMU translates here: this case is for the guest without one");
	fill(pattern, sizeof(pattern), 11);
	canary = edu_dma_at_canary(nr, pattern, 0x5a, 0, &phys);
	check_note("canary at 0x%llx", (unsigned long long)phys);
	EXPECT(memcmp(canary, pattern, sizeof(pattern)) == 0);
	EXPECT_EQ(canary[EDU_DMA_MAX], 0x5a);	/* and no further */
}

/* /sys/class/iio/iioN/dmaK/FILE, or the folder itself for "" (static) */
static const char *dmak_path(int n, int k, const char *file)
{
	static char path[128];

	snprintf(path, sizeof(path), "/sys/class/iio/iio%d/dma%d%s%s", n, k,
		 *file ? "/" : "", file);
	return path;
}

/* the errno of writing @text to iio device @n's dma_free (0: freed) */
static int dma_free_errno(int n, const char *text)
{
	int afd = MUST(open(iio_attr_path(n, "dma_free"), O_WRONLY));
	int err = 0;

	if (write(afd, text, strlen(text)) < 0)
		err = errno;
	close(afd);
	return err;
}

/* the free edu bound to iio_pci_generic with @params: its device number */
static int generic_edu(const char *params)
{
	pci_generic_reload(params);
	pci_generic_bind(EDU_FREE);
	return pci_bar_nr(EDU_FREE, 0);
}

static void generic_edu_done(void)
{
	pci_generic_unbind(EDU_FREE);
	pci_generic_reload("");
}

/*
 * dma_free K: dmaK's folder, link and class entry go, the others stay; K
 * is the lowest free number again and its bytes count no more against
 * dma_max; a new buffer there is another, zeroed.
 */
static void free_gives_back_number_and_bytes(void)
{
	char name[64];
	struct stat st;
	int nr;

	nr = generic_edu("dma_bits=28 dma_max=0x3000");
	MUST(stat(iio_attr_path(nr, "dma_free"), &st));
	EXPECT_EQ(st.st_mode & 07777, 0200);
	EXPECT_EQ(iio_dma_request(nr, "0x1000"), 0);
	EXPECT_EQ(iio_dma_request(nr, "0x2000"), 0);
	EXPECT_EQ(iio_dma_request(nr, "1"), E2BIG);	/* 0x3000 used */
	EXPECT_EQ(write_text(dmak_path(nr, 0, "buffer"), "old"), 0);
	EXPECT_EQ(dma_free_errno(nr, "0"), 0);
	EXPECT(!path_exists(dmak_path(nr, 0, "")));
	snprintf(name, sizeof(name), "iio%d_dma0", nr);
	EXPECT(!path_exists(iio_attr_path(nr, name)));
	snprintf(name, sizeof(name), "/sys/class/iio_dma/iio%d_dma0", nr);
	EXPECT(!path_exists(name));
	EXPECT_STREQ(read_text(dmak_path(nr, 1, "size")), "0x2000");
	/* its page is free again, and dma0 the lowest free number */
	EXPECT_EQ(iio_dma_request(nr, "0x1000"), 0);
	EXPECT_STREQ(read_text(dmak_path(nr, 0, "size")), "0x1000");
	EXPECT_STREQ(read_text(dmak_path(nr, 0, "buffer")), "");
	EXPECT_EQ(iio_dma_request(nr, "1"), E2BIG);
	/* a hole below: dma1 freed, the next request is dma1 */
	EXPECT_EQ(dma_free_errno(nr, "1"), 0);
	EXPECT(!path_exists(dmak_path(nr, 1, "")));
	EXPECT(path_exists(dmak_path(nr, 0, "")));
	EXPECT_EQ(iio_dma_request(nr, "0x2000"), 0);
	EXPECT_STREQ(read_text(dmak_path(nr, 1, "size")), "0x2000");
	EXPECT(!path_exists(dmak_path(nr, 2, "")));
	generic_edu_done();
}

/* the SIGBUS a child expects of its own touches */
static sigjmp_buf touch_env;

static void touch_sigbus(int sig)
{
	(void)sig;
	siglongjmp(touch_env, 1);
}

/*
 * A mapping made before the free faults (SIGBUS), read and write alike,
 * and keeps faulting once a new buffer took the number; files opened
 * before fail with ENODEV (read, write, mmap), also a read-only one.
 */
static void free_revokes_mappings_and_files(void)
{
	uint8_t *buf, c = 0;
	int nr, bfd, rfd;

	nr = generic_edu("dma_bits=28 dma_max=0x4000");
	EXPECT_EQ(iio_dma_request(nr, "0x2000"), 0);
	bfd = MUST(open(dmak_path(nr, 0, "buffer"), O_RDWR));
	rfd = MUST(open(dmak_path(nr, 0, "buffer"), O_RDONLY));
	buf = mmap(NULL, 0x2000, PROT_READ | PROT_WRITE, MAP_SHARED, bfd, 0);
	EXPECT(buf != MAP_FAILED);
	buf[0] = 1;
	buf[0x1fff] = 2;
	EXPECT_EQ(pread(rfd, &c, 1, 0x1fff), 1);
	EXPECT_EQ(c, 2);

	EXPECT_EQ(dma_free_errno(nr, "0"), 0);
	expect_sigbus(buf, 0);
	expect_sigbus(buf + 0x1fff, 1);
	EXPECT_ERRNO(pread(bfd, &c, 1, 0), ENODEV);
	EXPECT_ERRNO(pwrite(bfd, &c, 1, 0), ENODEV);
	EXPECT_ERRNO(pread(rfd, &c, 1, 0), ENODEV);
	EXPECT_ERRNO(mmap(NULL, 4096, PROT_READ, MAP_SHARED, bfd, 0), ENODEV);

	/* dma0 again: a new file; the old ones do not reach it */
	EXPECT_EQ(iio_dma_request(nr, "0x2000"), 0);
	expect_sigbus(buf + 4096, 0);
	EXPECT_ERRNO(pread(bfd, &c, 1, 0), ENODEV);
	munmap(buf, 0x2000);
	close(bfd);
	close(rfd);
	generic_edu_done();
}

/*
 * Every errno of dma_free (iio(4)): EINVAL for a malformed number or one
 * past 3, ENOENT for a number without a buffer (freed already, too), EPERM
 * for a stub's own buffer (iio_edu's dma0, which stays and works), ENODEV
 * once the device went away (its file open across the unbind).  Only
 * devices that do DMA have dma_free.
 */
static void free_errnos(void)
{
	struct stat st;
	int nr, edu, afd, efd;
	char c;

	nr = generic_edu("dma_bits=28 dma_max=0x4000");
	EXPECT_EQ(iio_dma_request(nr, "0x1000"), 0);
	EXPECT_EQ(dma_free_errno(nr, "lots"), EINVAL);
	EXPECT_EQ(dma_free_errno(nr, "\n"), EINVAL);
	EXPECT_EQ(dma_free_errno(nr, "-1"), EINVAL);
	EXPECT_EQ(dma_free_errno(nr, "4"), EINVAL);
	EXPECT_EQ(dma_free_errno(nr, "0x100000000"), EINVAL);
	EXPECT_EQ(dma_free_errno(nr, "1"), ENOENT);
	EXPECT_EQ(dma_free_errno(nr, "3"), ENOENT);
	EXPECT(path_exists(dmak_path(nr, 0, "")));	/* all of them left it */
	EXPECT_EQ(dma_free_errno(nr, "0x0\n"), 0);
	EXPECT_EQ(dma_free_errno(nr, "0"), ENOENT);

	edu = iio_must_find("edu", 0);
	EXPECT_EQ(dma_free_errno(edu, "0"), EPERM);
	EXPECT_EQ(dma_free_errno(edu, "1"), ENOENT);
	EXPECT_STREQ(read_text(dma_path(edu, "size")), "0x10000");
	EXPECT_EQ(write_text(dma_path(edu, "buffer"), "x"), 0);
	efd = MUST(open(dma_path(edu, "buffer"), O_RDONLY));
	EXPECT_EQ(pread(efd, &c, 1, 0), 1);
	EXPECT_EQ(c, 'x');
	close(efd);
	/* the dummy does no DMA: no dma_free */
	EXPECT(stat(iio_attr_path(dummy_nr(0), "dma_free"), &st) < 0 &&
	       errno == ENOENT);

	EXPECT_EQ(iio_dma_request(nr, "0x1000"), 0);
	afd = MUST(open(iio_attr_path(nr, "dma_free"), O_WRONLY));
	generic_edu_done();
	EXPECT_ERRNO(write(afd, "0", 1), ENODEV);
	close(afd);
}

/*
 * One child of free_while_used: maps, touches and reads dma0 in a loop
 * for @ms, accepting what a free in between gives (open ENOENT or
 * ENODEV, then ENODEV, SIGBUS) and nothing else; exits 0 only if some touches got through and
 * some were refused, so that the race was run.
 */
static void map_and_read_loop(int nr, unsigned int ms)
{
	unsigned long long end = now_ms() + ms;
	unsigned long ok = 0, refused = 0;
	struct sigaction sa = { .sa_handler = touch_sigbus };
	char path[128];
	uint8_t c;

	snprintf(path, sizeof(path), "%s", dmak_path(nr, 0, "buffer"));
	sigaction(SIGBUS, &sa, NULL);
	while (now_ms() < end) {
		volatile uint8_t *p;
		int bfd = open(path, O_RDWR);

		/* gone, or found while being freed (kernfs: ENODEV) */
		if (bfd < 0) {
			EXPECT(errno == ENOENT || errno == ENODEV);
			refused++;
			continue;
		}
		p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, bfd,
			 0);
		if (p == MAP_FAILED) {
			EXPECT(errno == ENODEV);
			refused++;
		} else {
			if (sigsetjmp(touch_env, 1)) {
				refused++;
			} else {
				p[1] = p[0] + 1;
				ok++;
			}
			munmap((void *)p, 4096);
		}
		if (pread(bfd, &c, 1, 4095) == 1) {
			ok++;
		} else {
			EXPECT(errno == ENODEV);
			refused++;
		}
		close(bfd);
	}
	check_note("child %d: %lu touches and reads, %lu refused", getpid(),
		   ok, refused);
	EXPECT(ok > 0 && refused > 0);
	_exit(0);
}

/*
 * Frees while two children map, touch and read the buffer in a loop for
 * 3 s, 200 requests and frees at least: nothing but the documented refusals, no oops,
 * no KASAN or slub report (the log check).
 */
static void free_while_used(void)
{
	unsigned long long start;
	pid_t child[2];
	int nr, i;

	nr = generic_edu("dma_bits=28 dma_max=0x4000");
	EXPECT_EQ(iio_dma_request(nr, "0x1000"), 0);
	start = now_ms();
	for (i = 0; i < 2; i++) {
		child[i] = fork();
		EXPECT(child[i] >= 0);
		if (!child[i])
			map_and_read_loop(nr, 3000);
	}
	/* at least 200 rounds, and for as long as the children loop */
	for (i = 0; i < 200 || now_ms() < start + 3000; i++) {
		EXPECT_EQ(dma_free_errno(nr, "0"), 0);
		EXPECT_EQ(iio_dma_request(nr, "0x1000"), 0);
	}
	check_note("%d frees", i);
	for (i = 0; i < 2; i++)
		expect_child_ok(child[i]);
	generic_edu_done();
}

/*
 * Requests and frees racing the unbind (the device going away), 20
 * rounds: each free of dma1 frees it or finds the device gone (ENODEV, or
 * its file gone: ENOENT), each request adds it again or finds the device
 * gone; the unbind
 * always ends; no oops, no KASAN or lockdep report (the log check).
 */
static void free_races_unbind(void)
{
	char free_path[128], request_path[128];
	int round, nr;

	for (round = 0; round < 20; round++) {
		unsigned long frees = 0;
		pid_t pid;

		nr = generic_edu("dma_bits=28 dma_max=0x4000");
		EXPECT_EQ(iio_dma_request(nr, "0x1000"), 0);
		EXPECT_EQ(iio_dma_request(nr, "0x1000"), 0);
		snprintf(free_path, sizeof(free_path), "%s",
			 iio_attr_path(nr, "dma_free"));
		snprintf(request_path, sizeof(request_path), "%s",
			 iio_attr_path(nr, "dma_request"));
		pid = fork();
		EXPECT(pid >= 0);
		if (!pid) {
			for (;;) {
				int err = write_text(free_path, "1");

				EXPECT(!err || err == ENOENT || err == ENODEV);
				/* ENOENT: the file, never dma1 while it lives */
				if (err == ENOENT)
					EXPECT(!path_exists(free_path));
				frees += !err;
				if (err)
					break;
				err = write_text(request_path, "0x1000");
				EXPECT(!err || err == ENOENT || err == ENODEV);
				if (err)
					break;
			}
			if (round == 19)
				check_note("last round: %lu frees before the unbind",
					   frees);
			_exit(0);
		}
		msleep(round * 5);
		pci_generic_unbind(EDU_FREE);
		expect_child_ok(pid);
	}
	pci_generic_reload("");
}

/*
 * 1000 requests and frees leak nothing: neither slab objects (the
 * buffer's structure, device, sysfs nodes) nor the buffer's pages
 * (MemFree; four pages a buffer, 16 MB were they kept).
 */
static void request_free_1000_leaks_nothing(void)
{
	unsigned long long before, after, free_before, free_after, settle;
	int nr, i;

	nr = generic_edu("dma_bits=28 dma_max=0x4000");
	for (i = 0; i < 20; i++) {		/* warm the caches */
		EXPECT_EQ(iio_dma_request(nr, "0x4000"), 0);
		EXPECT_EQ(dma_free_errno(nr, "0"), 0);
	}
	msleep(200);
	before = slab_active_objects();
	free_before = meminfo_kb("MemFree");
	for (i = 0; i < 1000; i++) {
		EXPECT_EQ(iio_dma_request(nr, "0x4000"), 0);
		EXPECT_EQ(dma_free_errno(nr, "0"), 0);
	}
	/* objects freed after an RCU grace period come back late */
	settle = now_ms() + 5000;
	do {
		msleep(200);
		after = slab_active_objects();
	} while (after > before + 200 && now_ms() < settle);
	free_after = meminfo_kb("MemFree");
	check_note("slab: %llu -> %llu objects, MemFree %llu -> %llu kB over 1000 cycles",
		   before, after, free_before, free_after);
	if (!before || !free_before)
		FAIL("no /proc/slabinfo or MemFree");
	if (after > before + 200)
		FAIL("slab objects grew by %llu over 1000 requests and frees",
		     after - before);
	if (free_after + 4096 < free_before)
		FAIL("MemFree fell by %llu kB over 1000 requests and frees",
		     free_before - free_after);
	generic_edu_done();
}

static const struct check_case cases[] = {
	CASE(buffer_in_sysfs),
	CASE(round_trip_by_mmap),
	CASE(round_trip_by_read_write),
	CASE(buffer_file_bounds),
	CASE_T(remove_with_live_mapping, 120),
	CASE(edu_overwrites_any_page_without_iommu),
	CASE_T(free_gives_back_number_and_bytes, 60),
	CASE_T(free_revokes_mappings_and_files, 60),
	CASE_T(free_errnos, 60),
	CASE_T(free_while_used, 120),
	CASE_T(free_races_unbind, 300),
	CASE_T(request_free_1000_leaks_nothing, 300),
};
CHECK_MAIN(cases)
