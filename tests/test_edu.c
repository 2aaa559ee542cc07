// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_edu.c - iio_edu on QEMU's edu device: exact access widths, real
 * interrupts, a user-space driver of the factorial unit by read/write and
 * by mmap, two devices apart
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/iio_test.h"

#define EDU_ID		0x00
#define EDU_LIVENESS	0x04
#define EDU_FACTORIAL	0x08
#define EDU_STATUS	0x20
#define EDU_IRQ_STATUS	0x24
#define EDU_STATUS_IRQFACT 0x80
#define EDU_IRQ_RAISE	0x60
#define EDU_IRQ_ACK	0x64
#define EDU_DMA_SRC	0x80

static int nr, fd;

static void setup(int index)
{
	nr = iio_must_find("edu", index);
	fd = MUST(open(iio_node(nr, ""), O_RDWR));
}

static uint32_t rd32(unsigned int off)
{
	uint32_t v;

	EXPECT_EQ(pread(fd, &v, 4, off), 4);
	return v;
}

static void wr32(unsigned int off, uint32_t v)
{
	EXPECT_EQ(pwrite(fd, &v, 4, off), 4);
}

/* wait up to 5 s for the next event on @efd; returns the count */
static uint32_t wait_event(int efd)
{
	struct pollfd pfd = { .fd = efd, .events = POLLIN };

	if (poll(&pfd, 1, 5000) != 1)
		FAIL("no event within 5 s");
	return event_read(efd);
}

/* the register page of the device opened by setup(), mapped read-write */
static volatile uint32_t *map_registers(void)
{
	volatile uint32_t *regs;

	regs = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	EXPECT(regs != MAP_FAILED);
	EXPECT_EQ(regs[EDU_ID / 4], 0x010000ed);
	return regs;
}

static void identification(void)
{
	setup(0);
	EXPECT_EQ(rd32(EDU_ID), 0x010000ed);
	EXPECT_STREQ(read_text(iio_attr_path(nr, "type")), "mem");
	EXPECT_STREQ(read_text(iio_attr_path(nr, "size")), "0x100000");
	EXPECT_STREQ(read_text(iio_attr_path(nr, "read_len")), "0x1000");
	EXPECT(!path_exists(iio_attr_path(nr, "write_len")));
	EXPECT(!path_exists(iio_node(nr, "_out")));
}

/*
 * edu answers only 4-byte accesses below 0x80: 1 and 2 bytes read 0, 8
 * bytes all ones.  So each result proves the width of the one access.
 */
static void access_widths_are_exact(void)
{
	uint64_t q = 0;
	uint16_t w = 0xabcd;
	uint8_t b = 0xab;
	uint32_t l;

	setup(0);
	EXPECT_EQ(pread(fd, &q, 8, EDU_ID), 8);
	EXPECT_EQ(q, ~0ull);			/* one 8-byte access */
	EXPECT_EQ(pread(fd, &w, 2, EDU_ID), 2);
	EXPECT_EQ(w, 0);			/* one 2-byte access */
	EXPECT_EQ(pread(fd, &b, 1, EDU_ID), 1);
	EXPECT_EQ(b, 0);
	EXPECT_EQ(pread(fd, &l, 4, EDU_ID), 4);
	EXPECT_EQ(l, 0x010000ed);		/* one 4-byte access */
	/* 4 bytes at offset 2: two 2-byte accesses, both invalid for edu */
	EXPECT_EQ(pread(fd, &l, 4, EDU_ID + 2), 4);
	EXPECT_EQ(l, 0);
	/* 12 bytes at 0: one 8-byte then one 4-byte access */
	{
		uint32_t three[3];

		EXPECT_EQ(pread(fd, three, 12, EDU_ID), 12);
		EXPECT_EQ(three[0], 0xffffffff);
		EXPECT_EQ(three[2], rd32(EDU_FACTORIAL)); /* one 4-byte access */
	}
	/* 8-byte registers above 0x80 take 8-byte accesses */
	q = 0x12345000;
	EXPECT_EQ(pwrite(fd, &q, 8, EDU_DMA_SRC), 8);
	q = 0;
	EXPECT_EQ(pread(fd, &q, 8, EDU_DMA_SRC), 8);
	EXPECT_EQ(q, 0x12345000);
}

static void liveness(void)
{
	setup(0);
	wr32(EDU_LIVENESS, 0x12345678);
	EXPECT_EQ(rd32(EDU_LIVENESS), ~0x12345678u);
	/* a 2-byte write is ignored by the device, and harmless */
	{
		uint16_t w = 0x1111;

		EXPECT_EQ(pwrite(fd, &w, 2, EDU_LIVENESS), 2);
		EXPECT_EQ(rd32(EDU_LIVENESS), ~0x12345678u);
	}
}

static void factorial_by_interrupt(void)
{
	uint32_t before;
	int efd;

	setup(0);
	efd = MUST(open(iio_node(nr, "_event"), O_RDONLY));
	before = read_num(iio_attr_path(nr, "event"));
	wr32(EDU_STATUS, EDU_STATUS_IRQFACT);
	wr32(EDU_FACTORIAL, 10);
	EXPECT_EQ(wait_event(efd), before + 1);
	EXPECT_EQ(rd32(EDU_FACTORIAL), 3628800);
	/* the stub acknowledged the interrupt */
	EXPECT_EQ(rd32(EDU_IRQ_STATUS), 0);
	wr32(EDU_STATUS, 0);
	close(efd);
}

static void factorial_by_mmap(void)
{
	volatile uint32_t *regs;
	uint32_t before;
	int efd;

	setup(0);
	regs = map_registers();
	efd = MUST(open(iio_node(nr, "_event"), O_RDONLY));
	before = read_num(iio_attr_path(nr, "event"));
	regs[EDU_STATUS / 4] = EDU_STATUS_IRQFACT;
	regs[EDU_FACTORIAL / 4] = 12;
	EXPECT_EQ(wait_event(efd), before + 1);
	EXPECT_EQ(regs[EDU_FACTORIAL / 4], 479001600);
	regs[EDU_STATUS / 4] = 0;
	munmap((void *)regs, 4096);
	close(efd);
}

/*
 * The PAT reservations (/sys/kernel/debug/x86/pat_memtype_list) that
 * cover [start, end): how many there are; *all_uc is set to whether
 * every one is uncached-minus.
 */
static int pat_covering(uint64_t start, uint64_t end, int *all_uc)
{
	const char *list = "/sys/kernel/debug/x86/pat_memtype_list";
	unsigned long long s, e;
	char line[160], type[32];
	int n = 0;
	FILE *f;

	if (!path_exists(list))
		shell("mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null");
	f = fopen(list, "r");
	if (!f)
		FAIL("%s: %s (PAT off?)", list, strerror(errno));
	*all_uc = 1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "PAT: [mem %llx-%llx] %31s", &s, &e, type) != 3 ||
		    s > start || e < end)
			continue;
		n++;
		if (strcmp(type, "uncached-minus"))
			*all_uc = 0;
	}
	fclose(f);
	return n;
}

/* the VmFlags line of the mapping at @p in /proc/self/smaps */
static const char *vm_flags(const volatile void *p)
{
	static char line[256];
	char want[32];
	int in = 0;
	FILE *f = fopen("/proc/self/smaps", "r");

	EXPECT(f != NULL);
	snprintf(want, sizeof(want), "%lx-", (unsigned long)p);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, want, strlen(want)))
			in = 1;
		else if (in && !strncmp(line, "VmFlags:", 8))
			break;
	}
	fclose(f);
	if (!in)
		FAIL("no mapping at %p in /proc/self/smaps", p);
	line[strcspn(line, "\n")] = 0;
	strcat(line, " ");
	return line;
}

/*
 * I/O memory is mapped uncached: on x86 a page inserted into a user
 * mapping takes the cache type of the PAT reservation that covers it
 * (track_pfn_insert()), which must be uncached-minus, and only that;
 * the mapping is an I/O one (VM_IO, VM_PFNMAP), cannot grow (mremap:
 * VM_DONTEXPAND) and is left out of core dumps (VM_DONTDUMP).
 */
static void mapping_is_uncached(void)
{
	volatile uint32_t *regs;
	const char *flags;
	uint64_t phys;
	int all_uc;

	setup(0);
	phys = read_num(iio_attr_path(nr, "physaddr"));
	regs = map_registers();
	regs[EDU_LIVENESS / 4] = 0x12345678;
	EXPECT_EQ(regs[EDU_LIVENESS / 4], ~0x12345678u);
	EXPECT(pat_covering(phys, phys + 4096, &all_uc) >= 1);
	EXPECT(all_uc);
	flags = vm_flags(regs);
	EXPECT(strstr(flags, " io "));
	EXPECT(strstr(flags, " pf "));
	EXPECT(strstr(flags, " de "));
	EXPECT(strstr(flags, " dd "));
	EXPECT(mremap((void *)regs, 4096, 8192, 0) == MAP_FAILED);
	munmap((void *)regs, 4096);
}

static void in_window_maps_registers_read_only(void)
{
	volatile uint32_t *regs;
	int in;

	setup(0);
	EXPECT_ERRNO(open(iio_node(nr, "_in"), O_RDWR), EACCES);
	in = MUST(open(iio_node(nr, "_in"), O_RDONLY));
	regs = mmap(NULL, 4096, PROT_READ, MAP_SHARED, in, 0);
	EXPECT(regs != MAP_FAILED);
	EXPECT_EQ(regs[0], 0x010000ed);
	EXPECT_ERRNO(mmap(NULL, 8192, PROT_READ, MAP_SHARED, in, 0), EINVAL);
	close(in);
}

static void trigger_raises_a_real_interrupt(void)
{
	uint32_t raise = 0x100, before;
	int efd;

	setup(0);
	efd = MUST(open(iio_node(nr, "_event"), O_RDWR));
	before = read_num(iio_attr_path(nr, "event"));
	EXPECT_EQ(write(efd, &raise, 4), 4);
	EXPECT_EQ(wait_event(efd), before + 1);
	EXPECT_EQ(rd32(EDU_IRQ_STATUS), 0);
	raise = 0;
	EXPECT_ERRNO(write(efd, &raise, 4), EINVAL);
	EXPECT_ERRNO(write(efd, &raise, 2), EINVAL);
	close(efd);
}

static void two_edus_apart(void)
{
	uint32_t raise = 1, c0, c1, c;
	int nr0, nr1, e0, e1;

	nr0 = iio_must_find("edu", 0);
	nr1 = iio_must_find("edu", 1);
	EXPECT(nr0 != nr1);
	e0 = MUST(open(iio_node(nr0, "_event"), O_RDWR | O_NONBLOCK));
	e1 = MUST(open(iio_node(nr1, "_event"), O_RDWR | O_NONBLOCK));
	c0 = read_num(iio_attr_path(nr0, "event"));
	c1 = read_num(iio_attr_path(nr1, "event"));
	EXPECT_EQ(write(e1, &raise, 4), 4);
	fd = e1;
	EXPECT_EQ(wait_event(e1), c1 + 1);
	EXPECT_ERRNO(read(e0, &c, 4), EAGAIN);
	EXPECT_EQ(read_num(iio_attr_path(nr0, "event")), c0);
	EXPECT_EQ(write(e0, &raise, 4), 4);
	EXPECT_EQ(wait_event(e0), c0 + 1);
	EXPECT_EQ(read_num(iio_attr_path(nr1, "event")), c1 + 1);
	close(e0);
	close(e1);
}

static void edu_reload(const char *params)
{
	if (shell("rmmod iio_edu && insmod " MODDIR "/iio_edu.ko %s", params))
		FAIL("reloading iio_edu.ko %s failed", params);
}

/* the factorial of @n by interrupt, after reloading iio_edu with @params */
static void factorial_after_reload(const char *params, const char *proof,
				   uint32_t n, uint32_t expect)
{
	uint32_t before;
	int efd;

	edu_reload(params);
	setup(0);
	EXPECT(shell(proof, read_num(iio_attr_path(nr, "irq"))) == 0);
	efd = MUST(open(iio_node(nr, "_event"), O_RDONLY));
	before = read_num(iio_attr_path(nr, "event"));
	wr32(EDU_STATUS, EDU_STATUS_IRQFACT);
	wr32(EDU_FACTORIAL, n);
	EXPECT_EQ(wait_event(efd), before + 1);
	EXPECT_EQ(rd32(EDU_FACTORIAL), expect);
	EXPECT_EQ(rd32(EDU_IRQ_STATUS), 0);
	wr32(EDU_STATUS, 0);
	close(efd);
	close(fd);
	edu_reload("");
}

/* an MSI vector, not the INTx line of the PCI device */
static void factorial_with_msi(void)
{
	factorial_after_reload("msi=1",
			       "grep -q '^ *%llu:.*PCI-MSI.*edu' /proc/interrupts",
			       6, 720);
}

/*
 * iio_edu(4): a status of all ones is taken for a device that is gone:
 * IRQ_NONE, no event, nothing acknowledged.  edu cannot be made to read
 * all ones by going away here (device_del is orderly, and a closed window
 * or a disabled BAR reads 0 in QEMU 7.2), but its raise register sets any
 * status.  All ones raised through the register page under MSI (an edge:
 * no line is held) reaches the handler, which /proc/interrupts shows (the
 * guest has one CPU: the handler has returned once user space runs); it
 * must count no event and leave the status raised.  Acknowledged by hand,
 * a raise of 1 is then exactly one event: the count proves the first
 * interrupt counted none.  The event device refuses all ones (EINVAL).
 */
static void all_ones_status_is_no_event(void)
{
	uint32_t ones = ~0U, one = 1, before, c;
	unsigned long long irq, taken, deadline;
	int efd;

	edu_reload("msi=1");
	setup(0);
	irq = read_num(iio_attr_path(nr, "irq"));
	EXPECT(shell("grep -q '^ *%llu:.*PCI-MSI.*edu' /proc/interrupts",
		     irq) == 0);
	efd = MUST(open(iio_node(nr, "_event"), O_RDWR | O_NONBLOCK));
	EXPECT_ERRNO(write(efd, &ones, 4), EINVAL);
	before = read_num(iio_attr_path(nr, "event"));
	taken = irq_total(irq);
	wr32(EDU_IRQ_RAISE, ones);
	deadline = now_ms() + 5000;
	while (irq_total(irq) == taken) {
		if (now_ms() > deadline)
			FAIL("no interrupt of IRQ %llu within 5 s", irq);
		usleep(1000);
	}
	EXPECT_EQ(read_num(iio_attr_path(nr, "event")), before);
	EXPECT_ERRNO(read(efd, &c, 4), EAGAIN);
	EXPECT_EQ(rd32(EDU_IRQ_STATUS), ones);
	wr32(EDU_IRQ_ACK, ones);
	EXPECT_EQ(rd32(EDU_IRQ_STATUS), 0);
	EXPECT_EQ(write(efd, &one, 4), 4);
	EXPECT_EQ(wait_event(efd), before + 1);
	EXPECT_EQ(rd32(EDU_IRQ_STATUS), 0);
	close(efd);
	close(fd);
	edu_reload("");
}

/* IIO_THREADED: the handler runs in an interrupt thread */
static void factorial_with_threaded_handler(void)
{
	factorial_after_reload("msi=1 threaded=1", "ps | grep -q '[i]rq/%llu-edu'",
			       7, 5040);
}

/*
 * iio_edu(4): dma_size is "at most 4 MiB (more: probing fails with
 * EINVAL)": one byte more and every edu's probe fails with -22 (the
 * driver core's log line: "iio_edu: probe of ADDR failed with error
 * -22" on 6.1, "ADDR: probe with driver iio_edu failed with error -22"
 * later), no edu device registers; 4 MiB itself gives a 4 MiB buffer.
 */
static void dma_size_at_most_4mib(void)
{
	unsigned int edus = 0, before, failures;
	unsigned long long size4 = 0;
	int over, at, restored, nr_over, nr4, nr;
	char path[96];

	while (iio_find_by_name("edu", edus) >= 0)
		edus++;
	before = kmsg_count_with("failed with error -22", "iio_edu");
	/* what each load gives, first; the checks once the default is back */
	over = shell("rmmod iio_edu; insmod " MODDIR "/iio_edu.ko dma_size=4194305");
	failures = kmsg_count_with("failed with error -22", "iio_edu") - before;
	nr_over = iio_find_by_name("edu", 0);
	at = shell("rmmod iio_edu; insmod " MODDIR "/iio_edu.ko dma_size=4194304");
	nr4 = iio_find_by_name("edu", 0);
	if (nr4 >= 0) {
		snprintf(path, sizeof(path), "%s", iio_attr_path(nr4, "dma0/size"));
		size4 = read_num(path);
	}
	restored = shell("rmmod iio_edu; insmod " MODDIR "/iio_edu.ko");
	nr = iio_find_by_name("edu", 0);
	EXPECT_EQ(restored, 0);
	EXPECT(edus > 0);
	EXPECT_EQ(over, 0);
	EXPECT_EQ(failures, edus);
	EXPECT(nr_over < 0);
	EXPECT_EQ(at, 0);
	EXPECT(nr4 >= 0);
	EXPECT_EQ(size4, 4194304);
	EXPECT_EQ(nr, nr4);
}

#define UIO_EDU		"0000:00:12.0"	/* uio_pci_generic's (qemu/init) */
#define EDU_DRIVER	"/sys/bus/pci/drivers/iio_edu/"

/*
 * iio_edu(4): with threaded=1 an edu whose INTx line another driver
 * shares without a threaded one-shot handler of its own (uio_pci_generic's
 * edu, 00:12.0) cannot have its interrupt: its probe fails (-16, EBUSY),
 * while an edu on a line of its own, or shared with iio_edu's threaded
 * handlers alone, binds; with msi=1 threaded=1 every edu binds, as MSI is
 * never shared.  The boot's edus bound to iio_edu are the ones checked.
 */
static void threaded_intx_refused_on_a_shared_line(void)
{
	char addr[8][16], path[256];
	unsigned long long irq[8], uio_irq;
	unsigned int n = 0, i, shared = 0, bound_threaded = 0, bound_msi = 0,
		     refused = 0, before;
	int nr;

	EXPECT(path_exists("/sys/bus/pci/drivers/uio_pci_generic/" UIO_EDU));
	uio_irq = read_num("/sys/bus/pci/devices/" UIO_EDU "/irq");
	while (n < 8 && (nr = iio_find_by_name("edu", n)) >= 0) {
		snprintf(addr[n], sizeof(addr[n]), "%s", iio_pci(nr));
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/irq",
			 addr[n]);
		irq[n] = read_num(path);
		shared += irq[n] == uio_irq;
		n++;
	}
	if (!shared)
		FAIL("no edu of iio_edu shares IRQ %llu with uio_pci_generic's edu",
		     uio_irq);
	EXPECT(shared < n);
	before = kmsg_count_with("failed with error -16", "iio_edu");
	edu_reload("threaded=1");
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), EDU_DRIVER "%s", addr[i]);
		if (!path_exists(path))
			refused += irq[i] == uio_irq;
		else if (irq[i] != uio_irq)
			bound_threaded++;
	}
	edu_reload("msi=1 threaded=1");
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), EDU_DRIVER "%s", addr[i]);
		bound_msi += path_exists(path);
	}
	edu_reload("");
	EXPECT_EQ(refused, shared);
	EXPECT_EQ(bound_threaded, n - shared);
	EXPECT_EQ(kmsg_count_with("failed with error -16", "iio_edu"),
		  before + shared);
	EXPECT_EQ(bound_msi, n);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), EDU_DRIVER "%s", addr[i]);
		EXPECT(path_exists(path));
	}
}

/* rmmod iio_edu with a blocked reader and a live mapping of the BAR */
static void remove_while_in_use(void)
{
	volatile uint32_t *regs;
	pid_t reader;
	int efd;

	setup(0);
	regs = map_registers();
	efd = MUST(open(iio_node(nr, "_event"), O_RDONLY));
	reader = fork_blocked_reader(efd);
	wait_sleeping_in(reader, SYS_read, 10000);
	EXPECT(shell("rmmod iio_edu") == 0);
	expect_child_ok(reader);
	expect_sigbus(regs, 0);
	EXPECT_ERRNO(pread(fd, &efd, 4, 0), EIO);
	munmap((void *)regs, 4096);
	close(efd);
	close(fd);
	EXPECT(shell("insmod " MODDIR "/iio_edu.ko") == 0);
	EXPECT_EQ(iio_must_find("edu", 0), nr);
}

static const struct check_case cases[] = {
	CASE(identification),
	CASE(access_widths_are_exact),
	CASE(liveness),
	CASE(factorial_by_interrupt),
	CASE(factorial_by_mmap),
	CASE(mapping_is_uncached),
	CASE(in_window_maps_registers_read_only),
	CASE(trigger_raises_a_real_interrupt),
	CASE(two_edus_apart),
	CASE_T(factorial_with_msi, 90),
	CASE_T(all_ones_status_is_no_event, 90),
	CASE_T(factorial_with_threaded_handler, 90),
	CASE_T(dma_size_at_most_4mib, 90),
	CASE_T(remove_while_in_use, 90),
	CASE_T(threaded_intx_refused_on_a_shared_line, 90),
};
CHECK_MAIN(cases)
