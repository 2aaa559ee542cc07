// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_ownership.c - the kernel owns the devices it hands to user space
 * (iio_register_device(9), TEARDOWN): nobody reads a device in reset
 * through a mapping, a device that interrupts after its driver let go does
 * not hold a shared INTx line, the MSI-X table and PBA cannot be written or
 * mapped, bus mastering is on only while the device is in use, and a
 * sub-page BAR is mapped only with the rest of its page reserved.
 *
 * Devices (qemu/run): the NVMe controller 00:1a.0, the edu 00:13.0 and
 * ivshmem-plain 00:1e.0 for iio_pci_generic, iio_edu's edus 00:10.0 and
 * 00:11.0 on the INTx lines they share with 00:13.0.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/iio_test.h"

#define DRV		"/sys/bus/pci/drivers/iio_pci_generic"
#define NVME_PCI	"0000:00:1a.0"
#define EDU_PCI		"0000:00:13.0"
#define IVSHMEM_PCI	"0000:00:1e.0"
#define NVME_VS		0x08
#define EDU_IRQ_STATUS	0x24
#define EDU_IRQ_RAISE	0x60
#define EDU_IRQ_ACK	0x64

static const char *pci_path(const char *pci, const char *file)
{
	static char path[160];

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", pci, file);
	return path;
}

static void bind(const char *pci)
{
	if (path_exists(pci_path(pci, "driver")))	/* a failed case's */
		write_text(pci_path(pci, "driver/unbind"), pci);
	EXPECT_EQ(write_text(pci_path(pci, "driver_override"),
			     "iio_pci_generic"), 0);
	EXPECT_EQ(write_text(DRV "/bind", pci), 0);
}

/* unbind and leave the device to no driver again, as qemu/init does */
static void unbind(const char *pci)
{
	EXPECT_EQ(write_text(DRV "/unbind", pci), 0);
	EXPECT_EQ(write_text(pci_path(pci, "driver_override"), "none"), 0);
}

/* @len bytes of region @nr mapped read-write from offset 0 (fd closed) */
static volatile uint32_t *map_region(int nr, size_t len)
{
	int fd = MUST(open(iio_node(nr, ""), O_RDWR));
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	EXPECT(p != MAP_FAILED);
	close(fd);
	return p;
}

/* BAR0 of a device no driver has, through sysfs (as root can) */
static volatile uint32_t *map_resource0(const char *pci)
{
	int fd = MUST(open(pci_path(pci, "resource0"), O_RDWR | O_SYNC));
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	EXPECT(p != MAP_FAILED);
	close(fd);
	return p;
}

/*
 * Start a DMA of edu (iio device @nr) from its own memory into its DMA
 * buffer 0 that interrupts when done (edu takes 100 ms for it).
 */
static void edu_dma_into_buffer(int nr)
{
	volatile uint32_t *regs = map_region(nr, 4096);

	edu_dma_start(regs, EDU_DMA_BASE,
		      read_num(iio_attr_path(nr, "dma0/bus_addr")), 2048,
		      EDU_DMA_TO_RAM | EDU_DMA_IRQ);
	munmap((void *)regs, 4096);
}

/*
 * Wait up to 5 s for edu's DMA to end (its command's start bit clears),
 * then acknowledge whatever interrupt status is left: the DMA's, if the
 * driver had let go before it completed (iio_edu's handler acknowledges it
 * itself while bound).
 */
static void edu_dma_done_ack(volatile uint32_t *regs)
{
	edu_dma_wait(regs);
	regs[EDU_IRQ_ACK / 4] = regs[EDU_IRQ_STATUS / 4];
}

/* an iio_edu device on the same IRQ as iio device @nr, or fail */
static int iio_edu_sharing(int nr)
{
	int i, enr;

	for (i = 0; (enr = iio_find_by_name("edu", i)) >= 0; i++)
		if (read_num(iio_attr_path(enr, "irq")) ==
		    read_num(iio_attr_path(nr, "irq")))
			return enr;
	FAIL("no iio_edu device shares the IRQ of iio%d", nr);
}

/*
 * Rounds of an interrupt of the edu @regs (iio device with event node
 * @efd, interrupt @irq): each must come as an interrupt the CPU took
 * (/proc/interrupts counts it); with the line disabled by the kernel
 * ("nobody cared") the events would still come, from the spurious-IRQ
 * poll, which the count does not see.  The latency is a note: a
 * loaded host stretches it, the count does not lie.  With @unmask
 * (iio_pci_generic, INTx) the handler masked INTx: acknowledge in the
 * device and unmask.
 */
static void events_arrive_promptly(volatile uint32_t *regs, int efd,
				   bool unmask, unsigned long long irq)
{
	unsigned long long worst = 0;
	int round;

	for (round = 0; round < 5; round++) {
		struct pollfd pfd = { .fd = efd, .events = POLLIN };
		unsigned long long t0 = now_ms(), dt, taken = irq_total(irq);
		uint32_t one = 1;

		regs[EDU_IRQ_RAISE / 4] = 1;
		EXPECT_EQ(poll(&pfd, 1, 5000), 1);
		dt = now_ms() - t0;
		event_read(efd);
		if (irq_total(irq) <= taken)
			FAIL("round %d: an event without an interrupt of IRQ %llu (the line was disabled?)",
			     round, irq);
		if (unmask) {
			regs[EDU_IRQ_ACK / 4] = regs[EDU_IRQ_STATUS / 4];
			EXPECT_EQ(write(efd, &one, 4), 4);
		}
		if (dt > worst)
			worst = dt;
	}
	check_note("slowest of 5 events on the shared line: %llu ms", worst);
	EXPECT(shell("dmesg | grep -q -e 'nobody cared' -e 'Disabling IRQ'"));
}

/*
 * A reader hammering NVMe's VS register through a mapping, and another
 * through pread, while the controller is unbound (and reset): they only
 * ever see the real value, then SIGBUS and EIO.
 */
static void reset_never_seen_by_readers(void)
{
	uint32_t first, seen;
	int nr, p_map[2], p_read[2], status;
	pid_t mapper, reader;

	bind(NVME_PCI);
	nr = pci_bar_nr(NVME_PCI, 0);
	MUST(pipe(p_map));
	MUST(pipe(p_read));
	mapper = fork();
	if (!mapper) {
		volatile uint32_t *regs = map_region(nr, 4096);
		uint32_t v = regs[NVME_VS / 4];

		write(p_map[1], &v, 4);
		for (;;) {
			uint32_t w = regs[NVME_VS / 4];

			if (w != v) {
				write(p_map[1], &w, 4);
				_exit(3);
			}
		}
	}
	reader = fork();
	if (!reader) {
		int fd = open(iio_node(nr, ""), O_RDONLY);
		uint32_t v = 0, w;

		if (fd < 0 || pread(fd, &v, 4, NVME_VS) != 4)
			_exit(2);
		write(p_read[1], &v, 4);
		for (;;) {
			if (pread(fd, &w, 4, NVME_VS) != 4)
				_exit(errno == EIO ? 0 : 4);
			if (w != v) {
				write(p_read[1], &w, 4);
				_exit(3);
			}
		}
	}
	close(p_map[1]);
	close(p_read[1]);
	EXPECT_EQ(read(p_map[0], &first, 4), 4);
	EXPECT_EQ(first, 0x00010400);	/* NVMe 1.4 (QEMU 7.2) */
	EXPECT_EQ(read(p_read[0], &first, 4), 4);
	EXPECT_EQ(first, 0x00010400);
	msleep(50);	/* both are reading; more reads only make it stricter */
	unbind(NVME_PCI);

	waitpid(mapper, &status, 0);
	if (read(p_map[0], &seen, 4) == 4)
		FAIL("a reader through the mapping saw VS 0x%08x during unbind",
		     seen);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGBUS)
		FAIL("the mapping's reader: %s %d, want SIGBUS",
		     WIFEXITED(status) ? "exit" : "signal",
		     WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	waitpid(reader, &status, 0);
	if (read(p_read[0], &seen, 4) == 4)
		FAIL("a reader through pread saw VS 0x%08x during unbind", seen);
	EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(p_map[0]);
	close(p_read[0]);
}

/*
 * The generic edu (INTx, sharing its line with an iio_edu edu) unbound
 * with a DMA in flight whose completion interrupts, then made to interrupt
 * again by hand: INTx stays masked in the device, so the line is free and
 * the iio_edu edu keeps getting its events at once.
 */
static void intx_masked_after_unbind(void)
{
	volatile uint32_t *gregs, *eregs, *raw;
	int gnr, enr, efd;

	pci_generic_reload("dma_bits=28");
	bind(EDU_PCI);
	gnr = pci_bar_nr(EDU_PCI, 0);
	enr = iio_edu_sharing(gnr);
	EXPECT_EQ(iio_dma_request(gnr, "4096"), 0);
	/* held open: bus mastering stays on until the unbind */
	gregs = map_region(gnr, 4096);
	edu_dma_into_buffer(gnr);
	unbind(EDU_PCI);	/* edu's DMA takes 100 ms: still in flight */
	munmap((void *)gregs, 4096);
	EXPECT(pci_command(EDU_PCI) & PCI_CMD_INTX_DISABLE);
	EXPECT(!(pci_command(EDU_PCI) & PCI_CMD_MASTER));

	raw = map_resource0(EDU_PCI);
	edu_dma_done_ack(raw);		/* the DMA completed, interrupting */
	raw[EDU_IRQ_RAISE / 4] = 1;	/* and once more, for sure */
	pci_wait_intx_held_back(EDU_PCI);
	eregs = map_region(enr, 4096);
	efd = MUST(open(iio_node(enr, "_event"), O_RDWR));
	events_arrive_promptly(eregs, efd, false,
			       read_num(iio_attr_path(enr, "irq")));
	raw[EDU_IRQ_ACK / 4] = raw[EDU_IRQ_STATUS / 4];
	munmap((void *)raw, 4096);
	munmap((void *)eregs, 4096);
	close(efd);
	pci_generic_reload("");
}

/*
 * The same for rmmod iio_edu with a DMA in flight on its edu that shares
 * the generic edu's line: the generic edu keeps getting its events.
 */
static void intx_masked_after_rmmod(void)
{
	volatile uint32_t *gregs, *eregs, *raw;
	char edu_pci[32];
	int gnr, enr, efd;

	bind(EDU_PCI);
	gnr = pci_bar_nr(EDU_PCI, 0);
	enr = iio_edu_sharing(gnr);
	snprintf(edu_pci, sizeof(edu_pci), "%s", iio_pci(enr));
	eregs = map_region(enr, 4096);	/* bus mastering on until rmmod */
	edu_dma_into_buffer(enr);
	EXPECT_EQ(module_unload("iio_edu"), 0);
	munmap((void *)eregs, 4096);
	EXPECT(pci_command(edu_pci) & PCI_CMD_INTX_DISABLE);

	raw = map_resource0(edu_pci);
	edu_dma_done_ack(raw);
	raw[EDU_IRQ_RAISE / 4] = 1;
	pci_wait_intx_held_back(edu_pci);
	gregs = map_region(gnr, 4096);
	efd = MUST(open(iio_node(gnr, "_event"), O_RDWR));
	events_arrive_promptly(gregs, efd, true,
			       read_num(iio_attr_path(gnr, "irq")));
	raw[EDU_IRQ_ACK / 4] = raw[EDU_IRQ_STATUS / 4];
	munmap((void *)raw, 4096);
	munmap((void *)gregs, 4096);
	close(efd);
	EXPECT_EQ(module_load("iio_edu", ""), 0);
	unbind(EDU_PCI);
}

/* the offset of capability @id in @pci's config space, or fail */
static unsigned int pci_cap(const char *pci, unsigned int id)
{
	unsigned int pos = pci_config(pci, 0x34, 1);

	while (pos) {
		if (pci_config(pci, pos, 1) == id)
			return pos;
		pos = pci_config(pci, pos + 1, 1);
	}
	FAIL("%s has no capability 0x%x", pci, id);
}

/*
 * MSI-X on NVMe (vectors=4): the table and PBA in BAR0 read, but neither
 * write (EPERM; a write running into the table stops short of it) nor
 * map (SIGBUS); the table is unchanged and the vectors work (udrv-nvme's
 * completions arrive on vector 1).
 */
static void msix_table_kept(void)
{
	uint8_t before[64], after[64], junk[16];
	unsigned int cap, table, pba, entries, pba_len;
	char want[128];
	volatile uint32_t *bar;
	size_t size;
	int nr, fd;

	pci_generic_reload("vectors=4");
	bind(NVME_PCI);
	nr = pci_bar_nr(NVME_PCI, 0);
	EXPECT_STREQ(read_text(pci_path(NVME_PCI, "irq_mode")), "msix");
	cap = pci_cap(NVME_PCI, 0x11);
	entries = (pci_config(NVME_PCI, cap + 2, 2) & 0x7ff) + 1;
	table = pci_config(NVME_PCI, cap + 4, 4);
	pba = pci_config(NVME_PCI, cap + 8, 4);
	EXPECT_EQ(table & 7, 0);	/* both in BAR0 */
	EXPECT_EQ(pba & 7, 0);
	table &= ~7U;
	pba &= ~7U;
	size = read_num(iio_attr_path(nr, "size"));
	check_note("MSI-X table at 0x%x (%u entries), PBA at 0x%x, BAR0 0x%zx",
		   table, entries, pba, size);

	fd = MUST(open(iio_node(nr, ""), O_RDWR));
	EXPECT_EQ(pread(fd, before, sizeof(before), table), sizeof(before));
	memset(junk, 0x5a, sizeof(junk));
	EXPECT_ERRNO(pwrite(fd, junk, 16, table + 16), EPERM);
	EXPECT_ERRNO(pwrite(fd, junk, 4, table + entries * 16 - 4), EPERM);
	EXPECT_ERRNO(pwrite(fd, junk, 8, pba), EPERM);
	/* the PBA's last bytes (64 pending bits per 8 bytes, rounded up) */
	pba_len = (entries + 63) / 64 * 8;
	EXPECT_ERRNO(pwrite(fd, junk, 4, pba + pba_len - 4), EPERM);
	/*
	 * a write that starts right after the table or the PBA is the
	 * device's (a doorbell of a queue that does not exist)
	 */
	if (table + entries * 16 != pba)
		EXPECT_EQ(pwrite(fd, junk, 4, table + entries * 16), 4);
	if (pba + pba_len != table && pba + pba_len < size)
		EXPECT_EQ(pwrite(fd, junk, 4, pba + pba_len), 4);
	/* a doorbell of a queue that does not exist, then the table */
	EXPECT_EQ(pwrite(fd, junk, 8, table - 4), 4);
	EXPECT_EQ(pread(fd, after, sizeof(after), table), sizeof(after));
	EXPECT(!memcmp(before, after, sizeof(before)));
	close(fd);

	bar = map_region(nr, size);
	EXPECT_EQ(bar[NVME_VS / 4], 0x00010400);
	expect_sigbus((volatile char *)bar + table, 0);
	expect_sigbus((volatile char *)bar + pba, 0);
	expect_sigbus((volatile char *)bar + table, 1);
	munmap((void *)bar, size);

	/* iio(4) reserved names both parts, table first */
	snprintf(want, sizeof(want), "0x%x 0x%x\n0x%x 0x%x", table,
		 entries * 16, pba, pba_len);
	EXPECT_STREQ(read_text(iio_attr_path(nr, "reserved")), want);
	/*
	 * iioctl --mmap does those pages by pread/pwrite (iioctl(1)): the
	 * same value and status as without --mmap, never a SIGBUS
	 */
	EXPECT_EQ(shell("iioctl peek iio%d 0x%x > /tmp/own.pread", nr, table),
		  0);
	EXPECT_EQ(shell("iioctl peek --mmap iio%d 0x%x > /tmp/own.mmap", nr,
			table), 0);
	snprintf(want, sizeof(want), "%s", read_text("/tmp/own.pread"));
	EXPECT_STREQ(read_text("/tmp/own.mmap"), want);
	EXPECT_EQ(shell("iioctl dump --mmap -s 0x%x -n 64 iio%d > /tmp/own.mmap"
			" && iioctl dump -s 0x%x -n 64 iio%d > /tmp/own.pread"
			" && cmp /tmp/own.mmap /tmp/own.pread", table, nr,
			table, nr), 0);
	EXPECT_EQ(shell("iioctl poke iio%d 0x%x 0 2> /tmp/own.pread", nr, pba),
		  1);
	EXPECT_EQ(shell("iioctl poke --mmap iio%d 0x%x 0 2> /tmp/own.mmap", nr,
			pba), 1);
	snprintf(want, sizeof(want), "%s", read_text("/tmp/own.pread"));
	EXPECT(strstr(want, "Operation not permitted"));
	EXPECT_STREQ(read_text("/tmp/own.mmap"), want);
	/* a register beside them is still mapped and works */
	EXPECT_EQ(shell("iioctl peek --mmap iio%d 0x%x > /tmp/own.mmap", nr,
			NVME_VS), 0);
	EXPECT_STREQ(read_text("/tmp/own.mmap"), "0x00010400");

	if (shell("udrv-nvme --reads 100 " NVME_PCI " > /tmp/own.out 2>&1"))
		FAIL("udrv-nvme after the table writes: %s",
		     read_text("/tmp/own.out"));
	unbind(NVME_PCI);
	pci_generic_reload("");
}

/*
 * Bus mastering: off after bind, on while a file of the device is open (a
 * mapping keeps its file), off after the last close and after unbind; never
 * on for an INTx device without DMA buffers (dma_max=0).  The same for
 * iio_edu's edus.
 */
static void bus_master_while_in_use(void)
{
	volatile uint32_t *regs;
	int nr, fd, efd, enr;
	char edu_pci[32];

	bind(EDU_PCI);
	nr = pci_bar_nr(EDU_PCI, 0);
	EXPECT_EQ(pci_command(EDU_PCI) & PCI_CMD_MASTER, 0);
	/* no MSI-X table: nothing kept, no reserved attribute (iio(4)) */
	EXPECT_ERRNO(access(iio_attr_path(nr, "reserved"), F_OK), ENOENT);
	fd = MUST(open(iio_node(nr, ""), O_RDONLY));
	EXPECT(pci_command(EDU_PCI) & PCI_CMD_MASTER);
	efd = MUST(open(iio_node(nr, "_event"), O_RDONLY));
	close(fd);
	EXPECT(pci_command(EDU_PCI) & PCI_CMD_MASTER);	/* efd is open */
	close(efd);
	EXPECT_EQ(pci_command(EDU_PCI) & PCI_CMD_MASTER, 0);
	regs = map_region(nr, 4096);			/* its fd closed */
	EXPECT(pci_command(EDU_PCI) & PCI_CMD_MASTER);
	munmap((void *)regs, 4096);
	EXPECT_EQ(pci_command(EDU_PCI) & PCI_CMD_MASTER, 0);
	fd = MUST(open(iio_node(nr, ""), O_RDONLY));
	unbind(EDU_PCI);				/* in use */
	EXPECT_EQ(pci_command(EDU_PCI) & PCI_CMD_MASTER, 0);
	close(fd);

	pci_generic_reload("dma_max=0");
	bind(EDU_PCI);
	nr = pci_bar_nr(EDU_PCI, 0);
	fd = MUST(open(iio_node(nr, ""), O_RDONLY));
	EXPECT_EQ(pci_command(EDU_PCI) & PCI_CMD_MASTER, 0);
	close(fd);
	unbind(EDU_PCI);
	pci_generic_reload("");

	enr = iio_must_find("edu", 0);
	snprintf(edu_pci, sizeof(edu_pci), "%s", iio_pci(enr));
	EXPECT_EQ(pci_command(edu_pci) & PCI_CMD_MASTER, 0);
	fd = MUST(open(iio_node(enr, "_in"), O_RDONLY));
	EXPECT(pci_command(edu_pci) & PCI_CMD_MASTER);
	close(fd);
	EXPECT_EQ(pci_command(edu_pci) & PCI_CMD_MASTER, 0);
}

/*
 * ivshmem's BAR0 has 256 bytes of registers, alone in its page (SeaBIOS
 * aligns BARs to pages): iio_pci_generic reserves the rest of the page, so
 * nothing hot-added can land there, and only then may it be mapped; the
 * reservation goes with the unbind.
 */
static void subpage_bar_mapped_with_page_reserved(void)
{
	unsigned long long phys;
	volatile uint32_t *regs;
	char line[96];
	int nr, fd;

	bind(IVSHMEM_PCI);
	nr = pci_bar_nr(IVSHMEM_PCI, 0);
	EXPECT_EQ(read_num(iio_attr_path(nr, "size")), 0x100);
	phys = read_num(iio_attr_path(nr, "physaddr"));
	EXPECT_EQ(phys & 0xfff, 0);
	snprintf(line, sizeof(line), "%llx-%llx : iio_pci_generic sub-page reserved",
		 phys + 0x100, phys + 0xfff);
	if (shell("grep -q '%s' /proc/iomem", line))
		FAIL("/proc/iomem has no line \"%s\"", line);
	regs = map_region(nr, 4096);
	EXPECT_EQ(regs[0], 0);		/* interrupt mask */
	munmap((void *)regs, 4096);
	fd = MUST(open(iio_node(nr, ""), O_RDWR));
	EXPECT_ERRNO(mmap(NULL, 8192, PROT_READ, MAP_SHARED, fd, 0), EINVAL);
	close(fd);
	unbind(IVSHMEM_PCI);
	EXPECT(shell("grep -q 'iio_pci_generic sub-page' /proc/iomem"));
}

/*
 * If the rest of a sub-page BAR's page is taken already (the test-only
 * stub reserves it, tests/kmod/iio_test_pci.c, as a device hot-added
 * there would), the BAR is not mappable: mmap(2) fails with ENODEV, the
 * kernel log says why, and read(2) still works.  Freed, the next bind
 * reserves and maps it.
 */
static void shared_page_not_mappable(void)
{
	const char *line = "iio_pci_generic " IVSHMEM_PCI ": BAR 0 shares its page: not mappable";
	unsigned int before = kmsg_count(line);
	uint32_t mask = 1;
	int nr, fd, reserved;
	void *p;

	test_module_load("iio_test_pci");
	EXPECT_EQ(write_text("/sys/module/iio_test_pci/parameters/occupy",
			     IVSHMEM_PCI " 0"), 0);
	EXPECT_EQ(shell("grep -q 'iio_test_pci occupied' /proc/iomem"), 0);
	bind(IVSHMEM_PCI);
	reserved = !shell("grep -q 'iio_pci_generic sub-page' /proc/iomem");
	nr = pci_bar_nr(IVSHMEM_PCI, 0);
	fd = MUST(open(iio_node(nr, ""), O_RDWR));
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		EXPECT_EQ(errno, ENODEV);
	else
		munmap(p, 4096);
	EXPECT_EQ(pread(fd, &mask, 4, 0), 4);
	close(fd);
	/* free again before the checks */
	unbind(IVSHMEM_PCI);
	EXPECT_EQ(write_text("/sys/module/iio_test_pci/parameters/occupy",
			     "none"), 0);
	EXPECT(shell("grep -q 'iio_test_pci occupied' /proc/iomem"));
	EXPECT_EQ(module_unload("iio_test_pci"), 0);
	EXPECT(p == MAP_FAILED);
	EXPECT(!reserved);
	EXPECT_EQ(kmsg_count(line), before + 1);
	EXPECT_EQ(mask, 0);		/* interrupt mask: read(2) works */
	/* with its page free, the next bind reserves and maps it */
	bind(IVSHMEM_PCI);
	nr = pci_bar_nr(IVSHMEM_PCI, 0);
	munmap((void *)map_region(nr, 4096), 4096);
	unbind(IVSHMEM_PCI);
	EXPECT_EQ(kmsg_count(line), before + 1);
}

static const struct check_case cases[] = {
	CASE_T(reset_never_seen_by_readers, 60),
	CASE_T(intx_masked_after_unbind, 60),
	CASE_T(intx_masked_after_rmmod, 60),
	CASE_T(msix_table_kept, 90),
	CASE_T(bus_master_while_in_use, 60),
	CASE_T(subpage_bar_mapped_with_page_reserved, 30),
	CASE_T(shared_page_not_mappable, 30),
};
CHECK_MAIN(cases)
