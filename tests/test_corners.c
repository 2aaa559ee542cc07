// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_corners.c - where vfio-pci is careful: a translated device without
 * interrupt remapping (it could write the MSI window and raise any
 * interrupt) is refused bus mastering and DMA buffers unless the
 * administrator opts in with iio.allow_unsafe_interrupts; a lazily
 * invalidated domain (DMA-FQ) is not counted as confining; a device that
 * is gone is not reset at unbind; a bridge is not bound; a reset the PCI
 * core runs (sysfs, AER recovery) zaps user mappings first; user space
 * learns of AER errors and recoveries.
 *
 * Its own boot (tests/run): q35 with intel-iommu (qemu/run --iommu intel)
 * and the guest's interrupt remapping off (intremap=off), without
 * iio.enable_unsafe_noiommu_mode, plus a PCIe root port (00:05.0) with an
 * edu behind it whose DMA mask is 32 bits wide (edu's default 28 would
 * clamp 0xfee00000), a PCI-to-PCI bridge without a driver (00:06.0,
 * shpc=off), and a second root port (00:07.0) with an NVMe controller
 * behind it, a device with FLR (whose reset waits for the device to
 * answer again), and a third (00:08.0) with a virtio-rng (id aer0, aer=on:
 * QEMU 7.2's e1000e has AER but its Device Control cannot enable
 * reporting), whose errors QEMU's monitor injects.  The cases run in this order: the opt-in's taint cannot be
 * undone.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "lib/iio_test.h"
#include "lib/iio_raw.h"

#define EDU0_PCI	"0000:00:10.0"	/* iio_edu's, with dma0 where allowed */
#define EDU_PCI		"0000:00:13.0"	/* no driver at boot */
#define PORT_PCI	"0000:00:05.0"	/* the PCIe root port */
#define PORT2_PCI	"0000:00:07.0"	/* and the second, NVMe behind it */
#define PORT3_PCI	"0000:00:08.0"	/* and the third, virtio-rng behind it */
#define VIRTIO_SELECT	0x0	/* virtio's common config: device_feature_select */
#define BRIDGE_PCI	"0000:00:06.0"	/* the PCI-to-PCI bridge */
#define GENERIC		"/sys/bus/pci/drivers/iio_pci_generic"
#define IRQ_PARAM	"/sys/module/iio/parameters/allow_unsafe_interrupts"
#define NOIOMMU_PARAM	"/sys/module/iio/parameters/enable_unsafe_noiommu_mode"
#define SHARED_PCI	"0000:00:14.0"	/* shares its group with 00:14.1 */
#define NO_REMAP(pci)	"no interrupt remapping isolates the MSI of " pci \
			", which could raise any interrupt; " \
			"iio.allow_unsafe_interrupts=1 allows it"
#define MSI_WINDOW	0xfee00000u
#define EDU_IRQ_STATUS	0x24	/* edu's registers (QEMU's hw/misc/edu.c) */
#define EDU_IRQ_RAISE	0x60
#define EDU_IRQ_ACK	0x64
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

/*
 * To iio_pci_generic, from the driver that took it at boot (iio_edu an
 * edu, virtio-pci a virtio device on kernels that build it in)
 */
static int bind_generic_bar(const char *pci, int bar)
{
	char path[128], link[256];
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver", pci);
	n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = 0;
		if (strcmp(strrchr(link, '/') + 1, "iio_pci_generic"))
			EXPECT_EQ(pci_driver_unbind(strrchr(link, '/') + 1, pci),
				  0);
	}
	if (iio_raw_bind(pci))
		FAIL("%s", iio_raw_error());
	return pci_bar_nr(pci, bar);
}

/* the same, the iio device of its BAR 0 */
static int bind_generic(const char *pci)
{
	return bind_generic_bar(pci, 0);
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
 * Wait out the refusal lines' rate-limit window (5 s of the guest's clock,
 * which the limit counts in): the next refusal starts a new one.
 */
static void past_refusal_window(void)
{
	unsigned long long end = now_ms() + 5500;

	while (now_ms() < end)
		usleep(100 * 1000);
}

/*
 * The refusal lines share one limit (ten in five seconds, iio(4)): a
 * first open whose "bus mastering refused" line the limit dropped has not
 * logged it, so the binding's next first open, in a new window, does.
 */
static void dropped_refusal_logged_later(void)
{
	const char *pci = port_edu();
	char line[256];
	int nr, i, fd;

	nr = bind_generic(pci);
	snprintf(line, sizeof(line), "bus mastering refused: " NO_REMAP("%s"),
		 pci);
	EXPECT_EQ(kmsg_count(line), 1);		/* no_remapping_refused's */
	past_refusal_window();			/* a window of our own */
	for (i = 0; i < 12; i++)		/* its ten and more */
		EXPECT_EQ(iio_dma_request(nr, "4096"), EPERM);
	fd = MUST(open(iio_node(nr, ""), O_RDWR));
	close(fd);
	EXPECT_EQ(kmsg_count(line), 1);		/* dropped */
	past_refusal_window();
	fd = MUST(open(iio_node(nr, ""), O_RDWR));
	close(fd);
	EXPECT_EQ(kmsg_count(line), 2);
	fd = MUST(open(iio_node(nr, ""), O_RDWR));	/* logged: no more */
	close(fd);
	EXPECT_EQ(kmsg_count(line), 2);
	unbind_generic(pci);
}

/*
 * iio.enable_unsafe_noiommu_mode=1 allows what allow_unsafe_interrupts
 * does and more: one warning for each way a device escapes, naming the
 * opt-in that allowed it (no interrupt remapping, then a shared group).
 */
static void noiommu_opt_in_warns_per_gap(void)
{
	const char *pci = port_edu();
	int nr;

	EXPECT_EQ(write_text(NOIOMMU_PARAM, "1"), 0);
	nr = bind_generic(pci);
	EXPECT_STREQ(read_text(iio_attr_path(nr, "dma_iommu")), "unsafe");
	EXPECT_EQ(iio_dma_request(nr, "4096"), 0);
	EXPECT_EQ(kmsg_count("iio: DMA buffer without interrupt remapping (enable_unsafe_noiommu_mode): the device can raise any interrupt; kernel tainted"), 1);
	unbind_generic(pci);
	nr = bind_generic(SHARED_PCI);
	EXPECT_STREQ(read_text(iio_attr_path(nr, "dma_iommu")), "unsafe");
	EXPECT_EQ(iio_dma_request(nr, "4096"), 0);
	EXPECT_EQ(kmsg_count("iio: DMA buffer in a shared IOMMU group (enable_unsafe_noiommu_mode): the device can reach the DMA mappings of the others; kernel tainted"), 1);
	EXPECT_EQ(kmsg_count("kernel tainted"), 2);
	unbind_generic(SHARED_PCI);
	EXPECT_EQ(write_text(NOIOMMU_PARAM, "0"), 0);
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
	EXPECT_EQ(kmsg_count("kernel tainted"), 3);
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
	EXPECT_EQ(kmsg_count("DMA buffer refused: the IOMMU unmaps the DMA of " EDU_PCI " lazily (DMA-FQ), which could reach freed memory meanwhile; iommu.strict=1 at boot, or DMA written to its IOMMU group's type while it is unbound, makes it strict; iio.enable_unsafe_noiommu_mode=1 allows it"), 1);
	unbind_generic(EDU_PCI);
	EXPECT_EQ(write_text(IRQ_PARAM, "0"), 0);
	EXPECT_EQ(write_text(path, "DMA"), 0);
	EXPECT_STREQ(group_type(EDU_PCI), "DMA");
}

/* root writes 2 bytes of PCI device @pci's config space at @off */
static void config_write_word(const char *pci, unsigned int off,
			      unsigned int val)
{
	char path[128];
	uint16_t v = (uint16_t)val;
	int fd;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/config", pci);
	fd = MUST(open(path, O_WRONLY));
	EXPECT_EQ(pwrite(fd, &v, 2, off), 2);
	close(fd);
}

/* a root port's secondary and subordinate bus numbers, as one value */
static void port_buses(const char *port, unsigned int buses)
{
	config_write_word(port, PCI_SECONDARY_BUS, buses);
}

/*
 * A device that is gone (as after a surprise removal: the root port's bus
 * numbers moved away, so its config space reads all ones) while bound and
 * in use: an interrupt of its shared line counts at most one event, the
 * unmask fails with EIO and counts none; the unbind does not reset it (an FLR would poll it for a minute
 * under the device lock); it says so.  With the buses back the device
 * works for the next user.
 */
static void gone_device_not_reset(void)
{
	unsigned int buses = pci_config(PORT2_PCI, PCI_SECONDARY_BUS, 2);
	char pci[16], line[128];
	unsigned long long start, took;
	struct pollfd efds = { .events = POLLIN };
	uint32_t zero = 0, one = 1, i;
	volatile uint32_t *regs, *eregs;
	char path[160];
	int nr, efd, enr, eefd;

	strcpy(pci, behind(PORT2_PCI));
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/reset_method",
		 pci);
	EXPECT_EQ(strncmp(read_text(path), "flr", 3), 0);	/* tried first */
	nr = bind_generic(pci);
	regs = edu_map(nr);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/irq_mode", pci);
	EXPECT_STREQ(read_text(path), "intx");
	efd = MUST(open(iio_node(nr, "_event"), O_RDWR));	/* unmasked */
	/* edu 00:13.0 shares its INTx line (q35: slot 7's pin A, slot 0x13's) */
	enr = bind_generic(EDU_PCI);
	if (read_num(iio_attr_path(enr, "irq")) != read_num(iio_attr_path(nr, "irq")))
		FAIL("%s (IRQ %llu) and " EDU_PCI " (IRQ %llu) do not share a line",
		     pci, read_num(iio_attr_path(nr, "irq")),
		     read_num(iio_attr_path(enr, "irq")));
	eregs = edu_map(enr);
	eefd = MUST(open(iio_node(enr, "_event"), O_RDWR));
	port_buses(PORT2_PCI, 0);
	EXPECT_EQ(pci_config(pci, 0, 4), 0xffffffff);
	/*
	 * Each interrupt of the line runs the gone device's handler too: its
	 * status bit reads set, so the first is one event and masks it (a
	 * write that goes nowhere), the others none.  A level interrupt is
	 * handled by one handler chain at a time: when edu's K+1-th event is
	 * seen, the chain of its K-th has ended.
	 */
	for (i = 1; i <= 4; i++) {
		eregs[EDU_IRQ_RAISE / 4] = 1;
		efds.fd = eefd;
		if (poll(&efds, 1, 5000) != 1)
			FAIL("no event of " EDU_PCI " within 5 s (want %u)", i);
		EXPECT_EQ(event_read(eefd), i);
		eregs[EDU_IRQ_ACK / 4] = eregs[EDU_IRQ_STATUS / 4];
		EXPECT_EQ(write(eefd, &one, 4), 4);
	}
	EXPECT_EQ(read_num(iio_attr_path(nr, "event")), 1);
	/* and the unmask fails, counting none */
	EXPECT_EQ(write(efd, &zero, 4), 4);
	EXPECT_ERRNO(write(efd, &one, 4), EIO);
	EXPECT_EQ(read_num(iio_attr_path(nr, "event")), 1);
	close(eefd);
	munmap((void *)eregs, 4096);
	unbind_generic(EDU_PCI);
	start = now_ms();
	unbind_generic(pci);
	took = now_ms() - start;
	check_note("unbind of the gone device: %llu ms", took);
	EXPECT(took < 10000);
	snprintf(line, sizeof(line), "iio_pci_generic %s: gone: not reset", pci);
	EXPECT_EQ(kmsg_count(line), 1);
	expect_sigbus(regs, 0);
	munmap((void *)regs, 4096);
	close(efd);

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

/*
 * The page faults @p's first word takes when read: 0 if its page is mapped,
 * 1 if it was not (zapped) and the read faulted it in.  Minor faults count
 * PFN mappings of I/O memory too, which /proc/self/pagemap and smaps skip.
 */
static long read_faults(volatile uint32_t *p, uint32_t *val)
{
	struct rusage before, after;

	getrusage(RUSAGE_SELF, &before);
	*val = *p;
	getrusage(RUSAGE_SELF, &after);
	return after.ru_minflt - before.ru_minflt;
}

/*
 * A reset through sysfs (the PCI core's, FLR here) while a user has the
 * BAR mapped: the mapping is zapped before the reset (the next read takes
 * a page fault), and touching it afterwards faults it in again and
 * reads the device after the reset.
 */
static void sysfs_reset_zaps_mappings(void)
{
	char pci[16], path[160];
	volatile uint32_t *regs;
	uint32_t vs;
	int nr;

	strcpy(pci, behind(PORT2_PCI));
	nr = bind_generic(pci);
	regs = edu_map(nr);
	EXPECT_EQ(regs[2], 0x10400);	/* NVMe's VS: 1.4 */
	EXPECT_EQ(read_faults(&regs[2], &vs), 0);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/reset", pci);
	EXPECT_EQ(write_text(path, "1"), 0);
	EXPECT_EQ(read_faults(&regs[2], &vs), 1);
	EXPECT_EQ(vs, 0x10400);
	EXPECT_EQ(read_faults(&regs[2], &vs), 0);
	munmap((void *)regs, 4096);
	unbind_generic(pci);
}

/*
 * NVMe's interrupt mask (INTMS: a write sets mask bits, a read returns the
 * mask; a reset clears it; QEMU's FLR keeps AQA, and SeaBIOS leaves the
 * controller enabled) through iio device @nr, a file opened and closed
 * for each call: sets @set's bits where @set is not NULL, returns it.
 */
#define NVME_INTMS	0x0c

static uint32_t nvme_intms(int nr, const uint32_t *set)
{
	int fd = MUST(open(iio_node(nr, ""), O_RDWR));
	uint32_t v = 0;

	if (set)
		EXPECT_EQ(pwrite(fd, set, 4, NVME_INTMS), 4);
	EXPECT_EQ(pread(fd, &v, 4, NVME_INTMS), 4);
	close(fd);
	return v;
}

/*
 * iio_pci_generic resets the function at unbind only (iio_pci_generic(4),
 * UNBINDING): what one command set up survives its last close and the
 * next first open (iioctl and shell scripts open the device anew for
 * each command), and is gone after an unbind and bind (FLR).
 */
static void reset_only_at_unbind(void)
{
	const uint32_t mask = 0x1;
	char pci[16];
	int nr;

	strcpy(pci, behind(PORT2_PCI));
	nr = bind_generic(pci);
	EXPECT_EQ(nvme_intms(nr, NULL), 0);
	EXPECT_EQ(nvme_intms(nr, &mask), mask);
	EXPECT_EQ(nvme_intms(nr, NULL), mask);
	unbind_generic(pci);
	nr = bind_generic(pci);
	EXPECT_EQ(nvme_intms(nr, NULL), 0);
	unbind_generic(pci);
}

/* poll @fd (a sysfs attribute, read to its end) for POLLPRI, up to 10 s */
static void wait_notified(int fd, const char *what)
{
	struct pollfd pfd = { .fd = fd, .events = POLLPRI };

	if (poll(&pfd, 1, 10000) != 1 || !(pfd.revents & POLLPRI))
		FAIL("no POLLPRI on %s within 10 s", what);
}

static unsigned int attr_value(int fd)
{
	char buf[32] = "";

	EXPECT(pread(fd, buf, sizeof(buf) - 1, 0) > 0);
	return (unsigned int)strtoul(buf, NULL, 10);
}

/* virtio's device_feature_select through iio device @nr: written, read back */
static void virtio_answers(int nr, uint32_t v)
{
	int fd = MUST(open(iio_node(nr, ""), O_RDWR));
	uint32_t back = ~v;

	EXPECT_EQ(pwrite(fd, &v, 4, VIRTIO_SELECT), 4);
	EXPECT_EQ(pread(fd, &back, 4, VIRTIO_SELECT), 4);
	EXPECT_EQ(back, v);
	close(fd);
}

/* whether the kernel log has @n lines with @text within @ms */
static int wait_kmsg(const char *text, unsigned int n, unsigned int ms)
{
	unsigned long long end = now_ms() + ms;

	while (kmsg_count(text) < n) {
		if (now_ms() > end)
			return 0;
		usleep(50 * 1000);
	}
	return 1;
}

/*
 * QEMU's monitor injects uncorrectable error @error (its name in
 * pcie_aer_inject_error) into aer0; the @n-th error and recovery are then
 * told through @efd and @rfd (errors, recoveries) and logged
 */
static void inject_and_recover(const char *error, int efd, int rfd,
			       unsigned int n)
{
	const char *reply = qemu_monitor("pcie_aer_inject_error aer0 %s",
					 error);

	EXPECT_EQ(strncmp(reply, "OK id: aer0 ", 12), 0);
	wait_notified(efd, "errors");
	EXPECT_EQ(attr_value(efd), n);
	wait_notified(rfd, "recoveries");
	EXPECT_EQ(attr_value(rfd), n);
	/* the core logs it after our resume returned: wait for the line */
	if (!wait_kmsg("AER: device recovery successful", n, 5000))
		FAIL("no \"device recovery successful\" #%u within 5 s", n);
}

/*
 * AER: an uncorrectable error injected into the virtio device (QEMU's
 * monitor) is reported to iio_pci_generic, which tells user space
 * (errors, then recoveries, both pollable), the kernel recovers the
 * device ("device recovery successful"), and the device answers the user
 * again.
 */
static void aer_error_reported_and_recovered(void)
{
	char pci[16], path[160];
	volatile uint32_t *regs;
	int nr, efd, rfd;
	uint32_t v;

	strcpy(pci, behind(PORT3_PCI));
	nr = bind_generic_bar(pci, 4);	/* modern virtio: its registers */
	/*
	 * two BARs (modern virtio on PCIe: MSI-X BAR1, registers BAR4): the
	 * interrupt is the lowest BAR's, the other has none
	 */
	EXPECT_STREQ(read_text(iio_attr_path(nr, "irq")), "none");
	EXPECT(strcmp(read_text(iio_attr_path(pci_bar_nr(pci, 1), "irq")),
		      "none"));
	virtio_answers(nr, 1);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/errors", pci);
	efd = MUST(open(path, O_RDONLY));
	EXPECT_EQ(attr_value(efd), 0);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/recoveries", pci);
	rfd = MUST(open(path, O_RDONLY));
	EXPECT_EQ(attr_value(rfd), 0);

	/*
	 * QEMU 7.2's model sends an uncorrectable error up only with SERR# on
	 * in the command register of the function and of each port on the
	 * way (besides the Device Control bits the kernel sets; hw/pci/
	 * pcie_aer.c, pcie_aer_msg_alldev()); firmware would set them,
	 * QEMU's does not.
	 */
	config_write_word(pci, 0x04, pci_command(pci) | 0x100);
	config_write_word(PORT3_PCI, 0x04, pci_command(PORT3_PCI) | 0x100);
	inject_and_recover("POISON_TLP", efd, rfd, 1);
	EXPECT_EQ(kmsg_count("can't recover"), 0);
	virtio_answers(nr, 0);

	/*
	 * A fatal one (Data Link Protocol Error) freezes the link: the kernel
	 * resets the port's bus, around which the user's mapping is zapped
	 * (the next read faults it in again).
	 */
	regs = edu_map(nr);
	EXPECT_EQ(read_faults(&regs[0], &v), 1);	/* mapped at first touch */
	EXPECT_EQ(read_faults(&regs[0], &v), 0);
	inject_and_recover("DLP", efd, rfd, 2);
	EXPECT_EQ(read_faults(&regs[0], &v), 1);
	virtio_answers(nr, 1);
	munmap((void *)regs, 4096);
	close(efd);
	close(rfd);
	unbind_generic(pci);
}

static const struct check_case cases[] = {
	CASE(no_remapping_refused),
	CASE_T(dropped_refusal_logged_later, 40),
	CASE(noiommu_opt_in_warns_per_gap),
	CASE(unsafe_interrupts_opt_in),
	CASE(lazy_domain_refused),
	CASE_T(gone_device_not_reset, 90),
	CASE(bridge_refused),
	CASE(sysfs_reset_zaps_mappings),
	CASE(reset_only_at_unbind),
	CASE_T(aer_error_reported_and_recovered, 60),
};

CHECK_MAIN(cases)
