// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_noiommu.c - DMA buffers without an IOMMU (kmod/iio_dma.c's policy):
 * refused with EPERM and a log line naming the opt-in, a stub's own
 * buffers left out, dma_iommu saying so; then, with
 * iio.enable_unsafe_noiommu_mode set at run time, allowed, the kernel
 * tainted (TAINT_USER) and one warning logged.
 *
 * It needs a boot of its own without the opt-in and without an IOMMU
 * (tests/run runs it so), and its cases run in this order: the taint of
 * the later ones cannot be undone.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/iio_test.h"
#include "lib/nvme_test.h"

#define EDU0_PCI	"0000:00:10.0"
#define EDU1_PCI	"0000:00:11.0"
#define EDU_PCI		"0000:00:13.0"	/* no driver at boot */
#define GENERIC		"/sys/bus/pci/drivers/iio_pci_generic"
#define EDU_DRV		"/sys/bus/pci/drivers/iio_edu"
#define PARAM		"/sys/module/iio/parameters/enable_unsafe_noiommu_mode"
#define TAINT_USER	(1ULL << 6)
#define REFUSED(pci)	"DMA buffer refused: no IOMMU translates the DMA of " pci
#define OPT_IN		"iio.enable_unsafe_noiommu_mode=1"
#define UNSAFE_USE	"DMA buffer without IOMMU translation"

static unsigned long long tainted(void)
{
	return read_num("/proc/sys/kernel/tainted");
}

static int dma_request(int nr, const char *size)
{
	return write_text(iio_attr_path(nr, "dma_request"), size);
}

/* iio_pci_generic on the edu no driver took at boot: its iio number */
static int bind_generic(void)
{
	char path[128];

	if (path_exists(GENERIC "/" EDU_PCI))
		return pci_bar_nr(EDU_PCI, 0);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver_override",
		 EDU_PCI);
	EXPECT_EQ(write_text(path, "iio_pci_generic"), 0);
	EXPECT_EQ(write_text(GENERIC "/bind", EDU_PCI), 0);
	return pci_bar_nr(EDU_PCI, 0);
}

/* a real interrupt of edu @nr through its event node (iio_edu's write) */
static void edu_interrupt(int nr)
{
	struct pollfd pfd = { .events = POLLIN };
	uint32_t raise = 0x100, before;

	pfd.fd = MUST(open(iio_node(nr, "_event"), O_RDWR));
	before = read_num(iio_attr_path(nr, "event"));
	EXPECT_EQ(write(pfd.fd, &raise, 4), 4);
	if (poll(&pfd, 1, 5000) != 1)
		FAIL("no event within 5 s");
	EXPECT_EQ(event_read(pfd.fd), before + 1);
	close(pfd.fd);
}

/* the boot is as this program needs it: no opt-in, no taint of ours */
static void booted_without_opt_in(void)
{
	EXPECT_STREQ(read_text(PARAM), "N");
	EXPECT_EQ(tainted() & TAINT_USER, 0);
	EXPECT(!path_exists("/sys/class/iommu/dmar0"));
}

/*
 * iio_edu's devices register without their dma0, with the line naming
 * the opt-in; MMIO and interrupts work.
 */
static void edu_registers_without_dma(void)
{
	volatile uint32_t *regs;
	int i, nr, fd;

	for (i = 0; i < 2; i++) {
		nr = iio_must_find("edu", i);
		EXPECT(!path_exists(iio_attr_path(nr, "dma0")));
		EXPECT_STREQ(read_text(iio_attr_path(nr, "dma_iommu")),
			     "refused");
		fd = MUST(open(iio_node(nr, ""), O_RDWR));
		regs = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
			    fd, 0);
		EXPECT(regs != MAP_FAILED);
		EXPECT_EQ(regs[0], 0x010000ed);
		munmap((void *)regs, 4096);
		close(fd);
		edu_interrupt(nr);
	}
	EXPECT_EQ(kmsg_count(REFUSED(EDU0_PCI) ", which could reach all memory; "
			     OPT_IN), 1);
	EXPECT_EQ(kmsg_count(REFUSED(EDU1_PCI)), 1);
	EXPECT_EQ(kmsg_count(UNSAFE_USE), 0);
}

/* dma_request: EPERM, one log line naming the device and the opt-in */
static void dma_request_refused(void)
{
	int nr = bind_generic();

	EXPECT_STREQ(read_text(iio_attr_path(nr, "dma_iommu")), "refused");
	EXPECT_EQ(kmsg_count(REFUSED(EDU_PCI)), 0);
	EXPECT_EQ(dma_request(nr, "4096"), EPERM);
	EXPECT_EQ(kmsg_count(REFUSED(EDU_PCI) ", which could reach all memory; "
			     OPT_IN " allows it"), 1);
	EXPECT(!path_exists(iio_attr_path(nr, "dma0")));
	/* the size is still checked first */
	EXPECT_EQ(dma_request(nr, "0"), EINVAL);
	EXPECT_EQ(tainted() & TAINT_USER, 0);
	EXPECT_EQ(kmsg_count(UNSAFE_USE), 0);
}

/*
 * The user-space NVMe driver refused its buffer: exit 3 (setup), one line
 * naming the opt-in (tests/nvme/iio_udrv.c's message for EPERM).
 */
static void nvme_driver_names_opt_in(void)
{
	char want[256];
	int nr = nvme_bind();

	EXPECT_EQ(nvme_driver("", NVME_PCI), EXIT_SETUP);
	snprintf(want, sizeof(want), "iio_nvme: dma_request of iio%d: no IOMMU "
		 "translates its DMA; boot with an IOMMU or opt in with "
		 OPT_IN " (unsafe, see iio(4))", nr);
	EXPECT_STREQ(nvme_driver_err(), want);
	EXPECT_EQ(shell("[ $(wc -l < " NVME_ERR ") = 1 ]"), 0);
	nvme_unbind();
	EXPECT_EQ(tainted() & TAINT_USER, 0);
}

/*
 * The opt-in at run time: two buffers by dma_request and iio_edu's own
 * after a rebind, the kernel tainted, one warning for all of them; off
 * again, new requests are refused and the buffers made stay.
 */
static void opt_in_taints_once(void)
{
	char path[128];
	int nr = bind_generic(), enr;

	EXPECT_EQ(write_text(PARAM, "1"), 0);
	EXPECT_STREQ(read_text(iio_attr_path(nr, "dma_iommu")), "unsafe");
	EXPECT_EQ(dma_request(nr, "4096"), 0);
	EXPECT(tainted() & TAINT_USER);
	EXPECT_EQ(kmsg_count(UNSAFE_USE), 1);
	EXPECT_EQ(dma_request(nr, "0x2000"), 0);
	snprintf(path, sizeof(path), "/sys/class/iio/iio%d/dma1/size", nr);
	EXPECT_STREQ(read_text(path), "0x2000");

	/* a stub's own buffer: iio_edu's dma0 comes with a new binding */
	EXPECT_EQ(write_text(EDU_DRV "/unbind", EDU1_PCI), 0);
	EXPECT_EQ(write_text(EDU_DRV "/bind", EDU1_PCI), 0);
	enr = iio_find_by_parent(EDU1_PCI);
	EXPECT(enr >= 0);
	EXPECT(path_exists(iio_attr_path(enr, "dma0")));
	EXPECT_STREQ(read_text(iio_attr_path(enr, "dma_iommu")), "unsafe");
	EXPECT_EQ(kmsg_count(UNSAFE_USE), 1);
	EXPECT_EQ(kmsg_count(UNSAFE_USE " (enable_unsafe_noiommu_mode): the device can reach all memory; kernel tainted"), 1);

	EXPECT_EQ(write_text(PARAM, "0"), 0);
	EXPECT_STREQ(read_text(iio_attr_path(nr, "dma_iommu")), "refused");
	EXPECT_EQ(dma_request(nr, "4096"), EPERM);
	EXPECT(path_exists(iio_attr_path(nr, "dma1")));
	EXPECT(!path_exists(iio_attr_path(nr, "dma2")));
	EXPECT(tainted() & TAINT_USER);
}

static const struct check_case cases[] = {
	CASE(booted_without_opt_in),
	CASE(edu_registers_without_dma),
	CASE(dma_request_refused),
	CASE_T(nvme_driver_names_opt_in, 60),
	CASE(opt_in_taints_once),
};
CHECK_MAIN(cases)
