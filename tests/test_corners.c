// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_corners.c - where vfio-pci is careful: a translated device without
 * interrupt remapping (it could write the MSI window and raise any
 * interrupt) is refused bus mastering and DMA buffers unless the
 * administrator opts in with iio.allow_unsafe_interrupts; a lazily
 * invalidated domain (DMA-FQ) is not counted as confining; a device that
 * is gone is not reset at unbind; a bridge is not bound.
 *
 * Its own boot (tests/run): q35 with intel-iommu (qemu/run --iommu intel)
 * and the guest's interrupt remapping off (intremap=off), without
 * iio.enable_unsafe_noiommu_mode, plus a PCIe root port (00:05.0) with an
 * edu behind it whose DMA mask is 32 bits wide (edu's default 28 would
 * clamp 0xfee00000), a PCI-to-PCI bridge without a driver (00:06.0,
 * shpc=off), and a second root port (00:07.0) with an NVMe controller
 * behind it, a device with FLR (whose reset waits for the device to
 * answer again).  The cases run in this order: the opt-in's taint cannot be
 * undone.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/iio_test.h"
#include "nvme/iio_udrv.h"

#define EDU0_PCI	"0000:00:10.0"	/* iio_edu's, with dma0 where allowed */
#define EDU_PCI		"0000:00:13.0"	/* no driver at boot */
#define PORT_PCI	"0000:00:05.0"	/* the PCIe root port */
#define PORT2_PCI	"0000:00:07.0"	/* and the second, NVMe behind it */
#define BRIDGE_PCI	"0000:00:06.0"	/* the PCI-to-PCI bridge */
#define GENERIC		"/sys/bus/pci/drivers/iio_pci_generic"
#define IRQ_PARAM	"/sys/module/iio/parameters/allow_unsafe_interrupts"
#define NO_REMAP(pci)	"no interrupt remapping isolates the MSI of " pci \
			", which could raise any interrupt; " \
			"iio.allow_unsafe_interrupts=1 allows it"
#define MSI_WINDOW	0xfee00000u
#define PCI_SECONDARY_BUS	0x19
#define PCI_SUBORDINATE_BUS	0x1a

/* the device behind root port @port: "0000:BB:00.0", BB its secondary bus */
static const char *behind(const char *port)
{
	static char pci[16];

	snprintf(pci, sizeof(pci), "0000:%02x:00.0",
		 pci_config(port, PCI_SECONDARY_BUS, 1));
	return pci;
}

static const char *port_edu(void)
{
	return behind(PORT_PCI);
}

/* to iio_pci_generic, from iio_edu where it took the edu at boot */
static int bind_generic(const char *pci)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/bus/pci/drivers/iio_edu/%s", pci);
	if (path_exists(path))
		EXPECT_EQ(pci_driver_unbind("iio_edu", pci), 0);
	if (iio_udrv_bind(pci))
		FAIL("%s", iio_udrv_error());
	return pci_bar_nr(pci, 0);
}

/* unbind from iio_pci_generic and leave it to no driver, as at boot */
static void unbind_generic(const char *pci)
{
	char path[128];

	EXPECT_EQ(pci_driver_unbind("iio_pci_generic", pci), 0);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver_override",
		 pci);
	EXPECT_EQ(write_text(path, "none"), 0);
}

static const char *group_type(const char *pci)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/iommu_group/type",
		 pci);
	return read_text(path);
}

/*
 * Translated (a strict DMA domain, alone in its group) but without
 * interrupt remapping: iio_edu's buffer is left out and bus mastering
 * stays off, each with its line naming allow_unsafe_interrupts; so edu's
 * DMA to the MSI window raises no interrupt.
 */
static void no_remapping_refused(void)
{
	const char *pci = port_edu();
	char line[256];
	volatile void *regs;
	int nr;

	EXPECT_STREQ(group_type(EDU0_PCI), "DMA");
	nr = iio_find_by_parent(EDU0_PCI);
	EXPECT_STREQ(read_text(iio_attr_path(nr, "dma_iommu")), "refused");
	EXPECT(!path_exists(iio_attr_path(nr, "dma0")));
	EXPECT_EQ(kmsg_count("DMA buffer refused: " NO_REMAP(EDU0_PCI)), 1);

	EXPECT_STREQ(group_type(pci), "DMA");
	nr = bind_generic(pci);
	EXPECT_STREQ(read_text(iio_attr_path(nr, "dma_iommu")), "refused");
	EXPECT_EQ(iio_dma_request(nr, "4096"), EPERM);
	regs = edu_map(nr);
	EXPECT_EQ(pci_command(pci) & PCI_CMD_MASTER, 0);
	snprintf(line, sizeof(line), "bus mastering refused: " NO_REMAP("%s"),
		 pci);
	EXPECT_EQ(kmsg_count(line), 1);
	/* edu's first bytes (its id) to the MSI window: lost, no master */
	edu_dma_start(regs, EDU_DMA_BASE, MSI_WINDOW, 4, EDU_DMA_TO_RAM);
	edu_dma_wait(regs);
	EXPECT_EQ(kmsg_count("No irq handler for vector"), 0);
	EXPECT(!kernel_tainted_user());
	munmap((void *)regs, 4096);
	unbind_generic(pci);
}

/*
 * iio.allow_unsafe_interrupts=1 at run time: buffers and bus mastering
 * allowed, dma_iommu "unsafe-interrupts", the kernel tainted with one
 * warning for both; off again, refused again.
 */
static void unsafe_interrupts_opt_in(void)
{
	const char *pci = port_edu();
	volatile void *regs;
	int nr;

	EXPECT_STREQ(read_text(IRQ_PARAM), "N");
	EXPECT_EQ(write_text(IRQ_PARAM, "1"), 0);
	nr = bind_generic(pci);
	EXPECT_STREQ(read_text(iio_attr_path(nr, "dma_iommu")),
		     "unsafe-interrupts");
	EXPECT_EQ(iio_dma_request(nr, "4096"), 0);
	EXPECT(path_exists(iio_attr_path(nr, "dma0/buffer")));
	regs = edu_map(nr);
	EXPECT(pci_command(pci) & PCI_CMD_MASTER);
	EXPECT(kernel_tainted_user());
	EXPECT_EQ(kmsg_count("iio: DMA buffer without interrupt remapping (allow_unsafe_interrupts): the device can raise any interrupt; kernel tainted"), 1);
	EXPECT_EQ(kmsg_count("without interrupt remapping (allow_unsafe_interrupts)"), 1);
	munmap((void *)regs, 4096);
	EXPECT_EQ(pci_command(pci) & PCI_CMD_MASTER, 0);
	EXPECT_EQ(write_text(IRQ_PARAM, "0"), 0);
	EXPECT_STREQ(read_text(iio_attr_path(nr, "dma_iommu")), "refused");
	EXPECT_EQ(iio_dma_request(nr, "4096"), EPERM);
	unbind_generic(pci);
}

/*
 * A lazily invalidated domain (DMA-FQ: a freed buffer stays reachable
 * until the flush queue is flushed) does not confine the device, even
 * with allow_unsafe_interrupts: refused, the line says why.
 */
static void lazy_domain_refused(void)
{
	char path[128];
	int nr;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/iommu_group/type",
		 EDU_PCI);
	EXPECT_EQ(write_text(path, "DMA-FQ"), 0);
	EXPECT_STREQ(group_type(EDU_PCI), "DMA-FQ");
	EXPECT_EQ(write_text(IRQ_PARAM, "1"), 0);
	nr = bind_generic(EDU_PCI);
	EXPECT_STREQ(read_text(iio_attr_path(nr, "dma_iommu")), "refused");
	EXPECT_EQ(iio_dma_request(nr, "4096"), EPERM);
	EXPECT_EQ(kmsg_count("DMA buffer refused: the IOMMU unmaps the DMA of " EDU_PCI " lazily (DMA-FQ), which could reach freed memory meanwhile; iio.enable_unsafe_noiommu_mode=1 allows it"), 1);
	unbind_generic(EDU_PCI);
	EXPECT_EQ(write_text(IRQ_PARAM, "0"), 0);
	EXPECT_EQ(write_text(path, "DMA"), 0);
	EXPECT_STREQ(group_type(EDU_PCI), "DMA");
}

/* a root port's secondary and subordinate bus numbers, as one value */
static void port_buses(const char *port, unsigned int buses)
{
	char path[128];
	uint16_t v = (uint16_t)buses;
	int fd;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/config", port);
	fd = MUST(open(path, O_WRONLY));
	EXPECT_EQ(pwrite(fd, &v, 2, PCI_SECONDARY_BUS), 2);
	close(fd);
}

/*
 * A device that is gone (as after a surprise removal: the root port's bus
 * numbers moved away, so its config space reads all ones) while bound and
 * in use: the unbind does not reset it (an FLR would poll it for a minute
 * under the device lock); it says so.  With the buses back the device
 * works for the next user.
 */
static void gone_device_not_reset(void)
{
	unsigned int buses = pci_config(PORT2_PCI, PCI_SECONDARY_BUS, 2);
	char pci[16], line[128];
	unsigned long long start, took;
	volatile uint32_t *regs;
	char path[160];
	int nr;

	strcpy(pci, behind(PORT2_PCI));
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/reset_method",
		 pci);
	EXPECT_EQ(strncmp(read_text(path), "flr", 3), 0);	/* tried first */
	nr = bind_generic(pci);
	regs = edu_map(nr);
	port_buses(PORT2_PCI, 0);
	EXPECT_EQ(pci_config(pci, 0, 4), 0xffffffff);
	start = now_ms();
	unbind_generic(pci);
	took = now_ms() - start;
	check_note("unbind of the gone device: %llu ms", took);
	EXPECT(took < 10000);
	snprintf(line, sizeof(line), "iio_pci_generic %s: gone: not reset", pci);
	EXPECT_EQ(kmsg_count(line), 1);
	expect_sigbus(regs, 0);
	munmap((void *)regs, 4096);

	port_buses(PORT2_PCI, buses);
	EXPECT_EQ(pci_config(pci, 0, 4), 0x00101b36);	/* QEMU's NVMe */
	nr = bind_generic(pci);
	regs = edu_map(nr);
	EXPECT_EQ(regs[2], 0x10400);	/* NVMe's VS: 1.4 */
	munmap((void *)regs, 4096);
	unbind_generic(pci);
	EXPECT_EQ(kmsg_count("gone: not reset"), 1);
}

/* a bridge's bus mastering and resets are everyone's behind it: refused */
static void bridge_refused(void)
{
	char path[128];

	EXPECT_EQ(pci_config(BRIDGE_PCI, 0x0e, 1) & 0x7f, 1);	/* type 1 */
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver_override",
		 BRIDGE_PCI);
	EXPECT_EQ(write_text(path, "iio_pci_generic"), 0);
	EXPECT_EQ(pci_driver_bind("iio_pci_generic", BRIDGE_PCI), EINVAL);
	EXPECT(!path_exists(GENERIC "/" BRIDGE_PCI));
	EXPECT_EQ(kmsg_count("iio_pci_generic " BRIDGE_PCI ": refused: not a type 0 header (a bridge)"), 1);
	EXPECT_EQ(write_text(path, "none"), 0);
}

static const struct check_case cases[] = {
	CASE(no_remapping_refused),
	CASE(unsafe_interrupts_opt_in),
	CASE(lazy_domain_refused),
	CASE_T(gone_device_not_reset, 90),
	CASE(bridge_refused),
};

CHECK_MAIN(cases)
