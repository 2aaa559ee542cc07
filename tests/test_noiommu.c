// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_noiommu.c - DMA buffers without an IOMMU (kmod/iio_dma.c's policy):
 * refused with EPERM and a log line naming the opt-in, a stub's own
 * buffers left out, dma_iommu saying so; then, with
 * iio.enable_unsafe_noiommu_mode set at run time, allowed, the kernel
 * tainted (TAINT_USER) and one warning logged.  Bus mastering (which the
 * device's own DMA and MSI need) is refused too: off while the device is
 * open, one line per binding naming the opt-in, and MSI or MSI-X asked for
 * gives INTx instead.
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
#include "lib/iio_raw.h"

#define EDU0_PCI	"0000:00:10.0"
#define EDU1_PCI	"0000:00:11.0"
#define EDU_PCI		"0000:00:13.0"	/* no driver at boot */
#define EDU_DRV		"/sys/bus/pci/drivers/iio_edu"
#define PARAM		"/sys/module/iio/parameters/enable_unsafe_noiommu_mode"
#define REFUSED(pci)	"DMA buffer refused: no IOMMU translates the DMA of " pci
#define OPT_IN		"iio.enable_unsafe_noiommu_mode=1"
#define UNSAFE_USE	"DMA buffer without IOMMU translation"
#define MASTER_REFUSED	"bus mastering refused"
#define MSI_REFUSED	"MSI refused (it needs bus mastering), INTx instead"
#define EDU_IRQ_STATUS	0x24
#define EDU_IRQ_RAISE	0x60
#define EDU_IRQ_ACK	0x64

/* iio_pci_generic on the edu no driver took at boot: its iio number */
static int bind_generic(void)
{
	if (iio_raw_bind(EDU_PCI))
		FAIL("%s", iio_raw_error());
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

/*
 * Lines "@head: no IOMMU translates the DMA of @pci, which could reach all
 * memory; iio.enable_unsafe_noiommu_mode=1 allows it (unsafe, ...)"
 */
static unsigned int refusals(const char *head, const char *pci)
{
	char text[256];

	snprintf(text, sizeof(text), "%s: no IOMMU translates the DMA of %s, "
		 "which could reach all memory; " OPT_IN " allows it (unsafe, "
		 "taints the kernel)", head, pci);
	return kmsg_count(text);
}

/* iio_pci_generic's irq_mode of the edu it drives */
static const char *irq_mode(void)
{
	return read_text("/sys/bus/pci/devices/" EDU_PCI "/irq_mode");
}

/*
 * A real interrupt of edu @nr, driven by iio_pci_generic on INTx: raised,
 * one event, acknowledged in edu, INTx unmasked through the event node.
 * The line is the PCI device's (not an MSI vector's).
 */
static void generic_intx_event(int nr)
{
	struct pollfd pfd = { .events = POLLIN };
	volatile uint32_t *regs = edu_map(nr);
	uint32_t one = 1, before;

	EXPECT_EQ(read_num(iio_attr_path(nr, "irq")),
		  read_num("/sys/bus/pci/devices/" EDU_PCI "/irq"));
	pfd.fd = MUST(open(iio_node(nr, "_event"), O_RDWR));
	before = read_num(iio_attr_path(nr, "event"));
	regs[EDU_IRQ_RAISE / 4] = 1;
	if (poll(&pfd, 1, 5000) != 1)
		FAIL("no event within 5 s");
	EXPECT_EQ(event_read(pfd.fd), before + 1);
	regs[EDU_IRQ_ACK / 4] = regs[EDU_IRQ_STATUS / 4];
	EXPECT_EQ(write(pfd.fd, &one, 4), 4);
	munmap((void *)regs, 4096);
	close(pfd.fd);
}

/*
 * Open iio device @nr of PCI device @pci twice (the second while the first
 * is open, then again after both closed): bus mastering stays off, and its
 * refusal is logged once for this binding: @lines in all, counting the
 * earlier bindings'.
 */
static void master_stays_off(int nr, const char *pci, unsigned int lines)
{
	int fd, fd2;

	fd = MUST(open(iio_node(nr, ""), O_RDWR));
	EXPECT_EQ(pci_command(pci) & PCI_CMD_MASTER, 0);
	fd2 = MUST(open(iio_node(nr, "_event"), O_RDWR));
	EXPECT_EQ(pci_command(pci) & PCI_CMD_MASTER, 0);
	close(fd2);
	close(fd);
	fd = MUST(open(iio_node(nr, ""), O_RDWR));
	EXPECT_EQ(pci_command(pci) & PCI_CMD_MASTER, 0);
	close(fd);
	EXPECT_EQ(refusals(MASTER_REFUSED, pci), lines);
	EXPECT(!kernel_tainted_user());
	EXPECT_EQ(kmsg_count("without IOMMU translation"), 0);
}

/* the boot is as this program needs it: no opt-in, no taint of ours */
static void booted_without_opt_in(void)
{
	EXPECT_STREQ(read_text(PARAM), "N");
	EXPECT(!kernel_tainted_user());
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
	EXPECT_EQ(iio_dma_request(nr, "4096"), EPERM);
	EXPECT_EQ(kmsg_count(REFUSED(EDU_PCI) ", which could reach all memory; "
			     OPT_IN " allows it"), 1);
	EXPECT(!path_exists(iio_attr_path(nr, "dma0")));
	/* the size is still checked first */
	EXPECT_EQ(iio_dma_request(nr, "0"), EINVAL);
	EXPECT(!kernel_tainted_user());
	EXPECT_EQ(kmsg_count(UNSAFE_USE), 0);
}

/*
 * The refusal lines share one ratelimit (ten in five seconds, iio(4)), and
 * the four cases after this one log nine of them and count them: past five
 * seconds since the last window began (which was before now), a new one
 * begins, so their counts hold however fast or slow the guest is.  (The
 * NVMe case's lines may then be dropped: it counts none.)
 */
static void refusals_new_window(void)
{
	msleep(5500);
}

/*
 * iio_edu's two edus, which edu_registers_without_dma opened: bus
 * mastering off while open, one line each (edu's DMA engine, programmed
 * from user space, would reach any address, buffer or not).
 */
static void edu_bus_master_refused(void)
{
	master_stays_off(iio_find_by_parent(EDU0_PCI), EDU0_PCI, 1);
	master_stays_off(iio_find_by_parent(EDU1_PCI), EDU1_PCI, 1);
}

/* iio_pci_generic (dma_max 4 MiB, INTx): bus mastering off, one line */
static void generic_bus_master_refused(void)
{
	int nr = bind_generic();

	master_stays_off(nr, EDU_PCI, 1);
	EXPECT_STREQ(irq_mode(), "intx");
	generic_intx_event(nr);
}

/*
 * iio_pci_generic with msi=1, then vectors=2 (edu has MSI, no MSI-X): INTx
 * instead, one line each binding naming the opt-in, events on INTx, bus
 * mastering off with its own line each binding.
 */
static void generic_msi_falls_back_to_intx(void)
{
	int nr;

	EXPECT_EQ(refusals(MSI_REFUSED, EDU_PCI), 0);
	pci_generic_reload("msi=1");
	nr = pci_bar_nr(EDU_PCI, 0);
	EXPECT_STREQ(irq_mode(), "intx");
	EXPECT_EQ(refusals(MSI_REFUSED, EDU_PCI), 1);
	generic_intx_event(nr);
	generic_intx_event(nr);
	master_stays_off(nr, EDU_PCI, 2);

	pci_generic_reload("vectors=2");
	nr = pci_bar_nr(EDU_PCI, 0);
	EXPECT_STREQ(irq_mode(), "intx");
	EXPECT_EQ(read_num(iio_attr_path(nr, "vectors")), 1);
	EXPECT(!path_exists(iio_node(nr, "_event1")));
	EXPECT_EQ(refusals(MSI_REFUSED, EDU_PCI), 2);
	EXPECT_EQ(kmsg_count(EDU_PCI ": no MSI-X, trying MSI"), 0);
	generic_intx_event(nr);
	master_stays_off(nr, EDU_PCI, 3);
	pci_generic_reload("");
	EXPECT_EQ(refusals(MSI_REFUSED, EDU_PCI), 2);
}

/*
 * iio_edu with msi=1: INTx instead (the PCI device's line, not a PCI-MSI
 * vector), one line per edu; interrupts work.
 */
static void edu_msi_falls_back_to_intx(void)
{
	int i, nr;

	EXPECT_EQ(module_unload("iio_edu"), 0);
	EXPECT_EQ(module_load("iio_edu", "msi=1"), 0);
	for (i = 0; i < 2; i++) {
		const char *pci = i ? EDU1_PCI : EDU0_PCI;
		char path[64];

		nr = iio_find_by_parent(pci);
		EXPECT(nr >= 0);
		EXPECT_EQ(refusals(MSI_REFUSED, pci), 1);
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/irq", pci);
		EXPECT_EQ(read_num(iio_attr_path(nr, "irq")), read_num(path));
		EXPECT(shell("grep -q '^ *%llu:.*PCI-MSI' /proc/interrupts",
			     read_num(iio_attr_path(nr, "irq"))) != 0);
		edu_interrupt(nr);
		EXPECT_EQ(pci_command(pci) & PCI_CMD_MASTER, 0);
		EXPECT_EQ(refusals(MASTER_REFUSED, pci), 2);
	}
	EXPECT_EQ(module_unload("iio_edu"), 0);
	EXPECT_EQ(module_load("iio_edu", ""), 0);
	EXPECT(!kernel_tainted_user());
}

/*
 * The user-space NVMe driver refused its buffer: exit 3 (setup), one line
 * naming the opt-in (libudrv's message for EPERM, udrv_dma_alloc(3)).  Its
 * iio_pci_generic (vectors=4) uses INTx, MSI-X being refused.
 */
static void nvme_driver_names_opt_in(void)
{
	char want[256];
	int nr = nvme_bind();

	/* vectors=4 on a device with MSI-X: INTx instead, one line */
	EXPECT_STREQ(read_text("/sys/bus/pci/devices/" NVME_PCI "/irq_mode"),
		     "intx");
	EXPECT_EQ(refusals(MSI_REFUSED, NVME_PCI), 1);
	EXPECT_EQ(kmsg_count(NVME_PCI ": 4 MSI-X vectors"), 0);
	EXPECT_EQ(nvme_driver("", NVME_PCI), EXIT_SETUP);
	snprintf(want, sizeof(want), "udrv-nvme: " NVME_PCI ": DMA refused "
		 "(dma_iommu: %s): boot with an IOMMU or opt in with " OPT_IN
		 " (unsafe, see iio(4))", read_text(iio_attr_path(nr, "dma_iommu")));
	EXPECT_STREQ(nvme_driver_err(), want);
	EXPECT_EQ(shell("[ $(wc -l < " NVME_ERR ") = 1 ]"), 0);
	nvme_unbind();
	EXPECT(!kernel_tainted_user());
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
	EXPECT_EQ(iio_dma_request(nr, "4096"), 0);
	EXPECT(kernel_tainted_user());
	EXPECT_EQ(kmsg_count(UNSAFE_USE), 1);
	EXPECT_EQ(iio_dma_request(nr, "0x2000"), 0);
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
	EXPECT_EQ(iio_dma_request(nr, "4096"), EPERM);
	EXPECT(path_exists(iio_attr_path(nr, "dma1")));
	EXPECT(!path_exists(iio_attr_path(nr, "dma2")));
	EXPECT(kernel_tainted_user());
}

static const struct check_case cases[] = {
	CASE(booted_without_opt_in),
	CASE(edu_registers_without_dma),
	CASE(dma_request_refused),
	CASE_T(refusals_new_window, 15),
	CASE(edu_bus_master_refused),
	CASE(generic_bus_master_refused),
	CASE_T(generic_msi_falls_back_to_intx, 60),
	CASE_T(edu_msi_falls_back_to_intx, 60),
	CASE_T(nvme_driver_names_opt_in, 60),
	CASE(opt_in_taints_once),
};
CHECK_MAIN(cases)
