// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_dma.c - DMA buffers (kmod/iio_dma.c) proved on edu's DMA engine,
 * driven entirely from user space: the buffer's sysfs files, a pattern
 * copied into edu and back by DMA with the completion interrupt as the
 * event, through mmap and through read/write, the file's bounds, and
 * rmmod with a live mapping; without an IOMMU, a write of edu to any
 * physical address reaches it (test_iommu: not under one).  (A transfer
 * out of edu's range is refused by the device by stopping the machine:
 * tests/guest/edu-dma-out-of-range, in a boot of its own.)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/iio_test.h"

#define BUF_SIZE	0x10000		/* iio_edu's default dma_size */

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

static const struct check_case cases[] = {
	CASE(buffer_in_sysfs),
	CASE(round_trip_by_mmap),
	CASE(round_trip_by_read_write),
	CASE(buffer_file_bounds),
	CASE_T(remove_with_live_mapping, 120),
	CASE(edu_overwrites_any_page_without_iommu),
};
CHECK_MAIN(cases)
