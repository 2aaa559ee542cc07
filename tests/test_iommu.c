// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_iommu.c - under an IOMMU (qemu/run --iommu intel; tests/run boots
 * it for this program alone) a device reaches the buffers mapped for it
 * and nothing else: every device is translated (a DMA domain, not identity
 * or passthrough, strict invalidation), edu's DMA engine programmed with
 * iioctl copies through its buffer's I/O virtual address, a write of edu
 * to the physical address of a canary page is blocked and reported by the
 * IOMMU (the fault announced to qemu/log-check, which accepts that one
 * only), and the user-space NVMe driver works with MSI-X completions,
 * at depth on three queues, polled, and with PRP lists of 128 KiB
 * commands, its queues, lists and data all behind the IOMMU, all without iio.enable_unsafe_noiommu_mode (iio(4)).
 * A buffer freed with dma_free is unmapped: the device's write there is
 * blocked and reported too.
 * Where the IOMMU cannot confine a device (a group shared with another),
 * its DMA buffers and its bus mastering are refused.
 * Without the IOMMU the same write does overwrite the canary (test_dma's
 * edu_overwrites_any_page_without_iommu).
 *
 * Devices (qemu/run): iio_edu's edu 00:10.0 with its buffer dma0,
 * iio_pci_generic's edu 00:13.0, pci-testdev 00:19.0 and NVMe 00:1a.0;
 * iio_edu's edus 00:14.0 and 00:14.1, two functions of one slot and so of
 * one IOMMU group, without buffers.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/iio_test.h"
#include "lib/nvme_test.h"

#define CANARY_FILL	0x5a

static const char *const translated[] = {
	"0000:00:10.0",		/* iio_edu's first edu */
	"0000:00:11.0",		/* and its second */
	"0000:00:13.0",		/* edu for iio_pci_generic */
	"0000:00:19.0",		/* pci-testdev for iio_pci_generic */
	NVME_PCI,
};

static void fill(uint8_t *p, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(i * 13 + seed);
}

/*
 * Each device in an IOMMU group whose default domain translates with
 * strict invalidation ("DMA"; lazy would read "DMA-FQ", passthrough
 * "identity").
 */
static void every_device_translated(void)
{
	char path[160];
	size_t i;

	for (i = 0; i < sizeof(translated) / sizeof(translated[0]); i++) {
		snprintf(path, sizeof(path),
			 "/sys/bus/pci/devices/%s/iommu_group/type",
			 translated[i]);
		if (!path_exists(path))
			FAIL("%s: no IOMMU group (no IOMMU?)", translated[i]);
		if (strcmp(read_text(path), "DMA"))
			FAIL("%s: IOMMU domain type %s, want DMA", translated[i],
			     read_text(path));
	}
	EXPECT_STREQ(iio_pci(iio_must_find("edu", 0)), translated[0]);
	/* iio.ko sees it too, without the opt-in (iio(4), dma_iommu) */
	EXPECT_STREQ(read_text(iio_attr_path(iio_must_find("edu", 0), "dma_iommu")),
		     "translated");
	EXPECT_STREQ(read_text("/sys/module/iio/parameters/enable_unsafe_noiommu_mode"),
		     "N");
}

/* iioctl poke of edu's DMA registers: @count bytes @src -> @dst, @cmd */
static void iioctl_dma(int nr, uint64_t src, uint64_t dst, unsigned int count,
		       unsigned int cmd)
{
	if (shell("iioctl poke %d 0x%x 0x%llx -w 8 && iioctl poke %d 0x%x 0x%llx -w 8 &&"
		  " iioctl poke %d 0x%x %u -w 8 && iioctl poke %d 0x%x %u -w 8",
		  nr, EDU_DMA_SRC, (unsigned long long)src,
		  nr, EDU_DMA_DST, (unsigned long long)dst,
		  nr, EDU_DMA_COUNT, count,
		  nr, EDU_DMA_CMD, cmd | EDU_DMA_RUN))
		FAIL("iioctl poke of edu's DMA registers failed");
}

/*
 * edu's engine, programmed with iioctl, copies a pattern from the buffer
 * (its I/O virtual address) into edu and back to another page of it.
 */
static void edu_copies_through_iommu(void)
{
	uint8_t want[EDU_DMA_MAX], *buf;
	volatile void *regs;
	uint64_t bus;
	int nr, bfd;

	nr = iio_must_find("edu", 0);
	regs = edu_map(nr);	/* bus mastering on while mapped */
	bus = read_num(iio_attr_path(nr, "dma0/bus_addr"));
	bfd = MUST(open(iio_attr_path(nr, "dma0/buffer"), O_RDWR));
	buf = mmap(NULL, 4 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, bfd, 0);
	EXPECT(buf != MAP_FAILED);
	close(bfd);
	memset(buf, 0, 4 * 4096);
	fill(want, sizeof(want), 5);
	memcpy(buf, want, sizeof(want));
	iioctl_dma(nr, bus, EDU_DMA_BASE, EDU_DMA_MAX, 0);
	edu_dma_wait(regs);
	memset(buf, 0, 4096);
	iioctl_dma(nr, EDU_DMA_BASE, bus + 2 * 4096, EDU_DMA_MAX, EDU_DMA_TO_RAM);
	edu_dma_wait(regs);
	EXPECT(memcmp(buf + 2 * 4096, want, sizeof(want)) == 0);
	EXPECT(buf[0] == 0 && buf[4096] == 0 && buf[3 * 4096] == 0);
	munmap(buf, 4 * 4096);
	munmap((void *)regs, 4096);
}

/*
 * edu writes to the physical address of a canary page (below its 28 bits,
 * outside its buffer's I/O virtual addresses): the IOMMU blocks it (the
 * canary is intact) and reports the fault of exactly that device and
 * address, the one fault this boot's log may hold.
 */
static void canary_out_of_reach(void)
{
	uint8_t pattern[EDU_DMA_MAX], *canary;
	uint64_t phys;
	size_t i;
	int nr = iio_must_find("edu", 0);

	fill(pattern, sizeof(pattern), 9);
	canary = edu_dma_at_canary(nr, pattern, CANARY_FILL, 1, &phys);
	check_note("canary at 0x%llx", (unsigned long long)phys);
	for (i = 0; i < 4096; i++)
		if (canary[i] != CANARY_FILL)
			FAIL("the canary's byte %zu is 0x%02x, not 0x%02x: the device reached it",
			     i, canary[i], CANARY_FILL);
	/* exactly one report of it (qemu/log-check fails any other) */
	EXPECT_EQ(iommu_fault_wait(iio_pci(nr), phys, 5000), 1);
}

/*
 * udrv-nvme identifies, writes a block and reads it back, and reads with
 * completions on MSI-X vector 1, its queues in buffers the IOMMU maps.
 */
static void nvme_driver_works(void)
{
	unsigned long admin, io;
	int nr = nvme_bind(), fds[NVME_VECTORS];

	EXPECT_STREQ(read_text("/sys/bus/pci/devices/" NVME_PCI "/irq_mode"),
		     "msix");
	nvme_open_vectors(nr, fds);
	nvme_driver_ok("--write 7 --check --reads 256");
	EXPECT_STREQ(nvme_out_line("model: "), "QEMU NVMe Ctrl");
	EXPECT_STREQ(nvme_out_line("write: "), "block 7 written, read back, restored");
	EXPECT_STREQ(nvme_out_line("reads: "), "256 x 4096 bytes, 0 mismatches");
	nvme_parse_commands(&admin, &io);
	EXPECT(io >= 256);
	EXPECT_EQ(nvme_vector_count(nr, 1, fds[1]), io);
	EXPECT_EQ(nvme_vector_count(nr, 0, fds[0]), admin);
	check_note("%s", nvme_out_line("rate: "));
	EXPECT_STREQ(read_text(iio_attr_path(nr, "dma_iommu")), "translated");
	nvme_unbind();
	/* its dma_request needed no opt-in: no taint (TAINT_USER), no warning */
	EXPECT(!kernel_tainted_user());
	EXPECT_EQ(kmsg_count("without IOMMU translation"), 0);
}

/*
 * Two functions of one slot without ACS share an IOMMU group, so one
 * domain: each would reach the other's buffers (and a kernel driver's
 * mappings there).  iio_edu's buffers are refused for both, each with its
 * line naming the shared group and the opt-in.
 */
static void shared_group_refused(void)
{
	static const char *const pci[] = { "0000:00:14.0", "0000:00:14.1" };
	char path[160], group[2][160], line[200];
	ssize_t n;
	int i, nr;

	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path),
			 "/sys/bus/pci/devices/%s/iommu_group", pci[i]);
		n = readlink(path, group[i], sizeof(group[i]) - 1);
		if (n <= 0)
			FAIL("%s: no IOMMU group", pci[i]);
		group[i][n] = 0;
		nr = iio_find_by_parent(pci[i]);
		EXPECT(nr >= 0);
		EXPECT_STREQ(read_text(iio_attr_path(nr, "dma_iommu")),
			     "refused");
		EXPECT(!path_exists(iio_attr_path(nr, "dma0")));
		snprintf(line, sizeof(line),
			 "DMA buffer refused: %s shares its IOMMU group with other devices, whose DMA mappings it could reach; iio.enable_unsafe_noiommu_mode=1 allows it",
			 pci[i]);
		EXPECT_EQ(kmsg_count(line), 1);
	}
	EXPECT_STREQ(group[0], group[1]);
	EXPECT(!kernel_tainted_user());
}

/*
 * Bus mastering follows the same policy: off while the shared group's edus
 * are open (edu's engine would reach the other function's mappings), with
 * one line each naming the group and the opt-in; on for the translated
 * edu 00:10.0 while open.
 */
static void shared_group_bus_master_refused(void)
{
	static const char *const pci[] = { "0000:00:14.0", "0000:00:14.1" };
	char line[200];
	int i, fd;

	for (i = 0; i < 2; i++) {
		fd = MUST(open(iio_node(iio_find_by_parent(pci[i]), ""), O_RDWR));
		EXPECT_EQ(pci_command(pci[i]) & PCI_CMD_MASTER, 0);
		close(fd);
		snprintf(line, sizeof(line),
			 "bus mastering refused: %s shares its IOMMU group with other devices, whose DMA mappings it could reach; iio.enable_unsafe_noiommu_mode=1 allows it",
			 pci[i]);
		EXPECT_EQ(kmsg_count(line), 1);
	}
	fd = MUST(open(iio_node(iio_find_by_parent("0000:00:10.0"), ""), O_RDWR));
	EXPECT(pci_command("0000:00:10.0") & PCI_CMD_MASTER);
	close(fd);
	EXPECT_EQ(pci_command("0000:00:10.0") & PCI_CMD_MASTER, 0);
	EXPECT_EQ(kmsg_count("bus mastering refused: 0000:00:10.0"), 0);
	EXPECT(!kernel_tainted_user());
}

/*
 * udrv-nvme at depth: a verify of the whole namespace at depth 32 on three
 * queues (interrupts), a polled random-read run at depth 32 on three
 * queues, and 128 KiB commands (PRP lists) writing the test image back,
 * which single reads then find; no IOMMU fault (qemu/log-check).
 */
static void nvme_at_depth(void)
{
	nvme_bind();
	nvme_driver_ok("--workload verify --depth 32 --queues 3 --seed 3");
	EXPECT_STREQ(nvme_out_line("verify: "),
		     "256 x 4096 bytes written and read back, 0 mismatches");
	check_note("verify: %s", nvme_out_line("rate: "));
	nvme_driver_ok("--poll --workload randread --depth 32 --queues 3 --time 1");
	EXPECT(strstr(nvme_out_line("ios: "), ", failed 0") != NULL);
	check_note("polled randread: %s", nvme_out_line("rate: "));
	nvme_driver_ok("--workload verify --depth 4 --queues 2 --size 131072 --seed 0");
	EXPECT_STREQ(nvme_out_line("verify: "),
		     "8 x 131072 bytes written and read back, 0 mismatches");
	nvme_driver_ok("--reads 256 --check");
	EXPECT_STREQ(nvme_out_line("reads: "), "256 x 4096 bytes, 0 mismatches");
	EXPECT_EQ(kmsg_count("Request device [00:1a.0]"), 0);
	nvme_unbind();
}

/*
 * A buffer freed with dma_free is out of the device's reach: iio_pci_generic's
 * edu reads its buffer by DMA (its I/O virtual address), then, once the
 * buffer is freed, its write to that same address is blocked and reported
 * by the IOMMU (the one fault announced), and the device keeps working.
 */
static void freed_buffer_out_of_reach(void)
{
	volatile void *regs;
	uint64_t bus;
	int nr;

	pci_generic_reload("dma_bits=28");
	pci_generic_bind("0000:00:13.0");
	nr = pci_bar_nr("0000:00:13.0", 0);
	EXPECT_STREQ(read_text(iio_attr_path(nr, "dma_iommu")), "translated");
	EXPECT_EQ(iio_dma_request(nr, "0x1000"), 0);
	bus = read_num(iio_attr_path(nr, "dma0/bus_addr"));
	regs = edu_map(nr);	/* bus mastering on while mapped */
	edu_dma_start(regs, bus, EDU_DMA_BASE, 64, 0);
	edu_dma_wait(regs);
	EXPECT_EQ(iommu_fault_wait(iio_pci(nr), bus, 500), 0);

	EXPECT_EQ(iio_dma_free(nr, "0"), 0);
	EXPECT(!path_exists(iio_attr_path(nr, "dma0")));
	iommu_fault_expect(iio_pci(nr), bus);
	edu_dma_start(regs, EDU_DMA_BASE, bus, EDU_DMA_MAX, EDU_DMA_TO_RAM);
	edu_dma_wait(regs);
	EXPECT_EQ(iommu_fault_wait(iio_pci(nr), bus, 5000), 1);
	munmap((void *)regs, 4096);
	pci_generic_unbind("0000:00:13.0");
	pci_generic_reload("");
}

static const struct check_case cases[] = {
	CASE(every_device_translated),
	CASE(shared_group_refused),
	CASE(shared_group_bus_master_refused),
	CASE(edu_copies_through_iommu),
	CASE(canary_out_of_reach),
	CASE_T(freed_buffer_out_of_reach, 60),
	CASE_T(nvme_driver_works, 120),
	CASE_T(nvme_at_depth, 120),
};
CHECK_MAIN(cases)
