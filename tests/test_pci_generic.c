// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_pci_generic.c - iio_pci_generic: a user binds an edu (00:13.0) and
 * a pci-testdev (00:19.0) the way they would bind their own card, and
 * drives them with INTx and with MSI, beside iio_edu and uio_pci_generic
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/iio_test.h"

#define EDU_PCI		"0000:00:13.0"
#define TESTDEV_PCI	"0000:00:19.0"
#define DRV		"/sys/bus/pci/drivers/iio_pci_generic"
#define EDU_ID		0x00
#define EDU_FACTORIAL	0x08
#define EDU_STATUS	0x20
#define EDU_IRQ_STATUS	0x24
#define EDU_IRQ_RAISE	0x60
#define EDU_IRQ_ACK	0x64

static void wait_event(int efd, uint32_t expect)
{
	struct pollfd pfd = { .fd = efd, .events = POLLIN };

	if (poll(&pfd, 1, 5000) != 1)
		FAIL("no event within 5 s (want count %u)", expect);
	EXPECT_EQ(event_read(efd), expect);
}

static void no_event(int efd, unsigned int ms)
{
	struct pollfd pfd = { .fd = efd, .events = POLLIN };

	EXPECT_EQ(poll(&pfd, 1, ms), 0);
}

static volatile uint32_t *map_regs(int nr)
{
	int fd = MUST(open(iio_node(nr, ""), O_RDWR));
	volatile uint32_t *regs;

	regs = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	EXPECT(regs != MAP_FAILED);
	close(fd);
	return regs;
}

static void unmask(int efd)
{
	uint32_t one = 1;

	EXPECT_EQ(write(efd, &one, 4), 4);
}

/* edu @regs raises its interrupt: event @count, acknowledged, unmasked */
static void intx_round(volatile uint32_t *regs, int efd, uint32_t count)
{
	regs[EDU_IRQ_RAISE / 4] = 0x1;
	wait_event(efd, count);
	regs[EDU_IRQ_ACK / 4] = regs[EDU_IRQ_STATUS / 4];
	unmask(efd);
}

static void binds_nothing_by_itself(void)
{
	EXPECT(!path_exists(DRV "/" EDU_PCI));
	EXPECT(!path_exists(DRV "/" TESTDEV_PCI));
	EXPECT_EQ(iio_find_by_name(EDU_PCI " bar0", 0), -1);
}

/* one iio device per BAR, memory and I/O alike, width-correct */
static void every_bar_memory_and_ports(void)
{
	int mem, port, fd, efd;
	char name[32] = "";
	uint8_t zero = 0;
	uint32_t off;

	pci_generic_bind(TESTDEV_PCI);
	mem = pci_bar_nr(TESTDEV_PCI, 0);
	port = pci_bar_nr(TESTDEV_PCI, 1);
	EXPECT_STREQ(read_text(iio_attr_path(mem, "type")), "mem");
	EXPECT_STREQ(read_text(iio_attr_path(mem, "size")), "0x1000");
	EXPECT_STREQ(read_text(iio_attr_path(port, "type")), "port");
	EXPECT_STREQ(read_text(iio_attr_path(port, "size")), "0x100");
	EXPECT_STREQ(read_text(iio_attr_path(mem, "irq")), "none");

	fd = MUST(open(iio_node(port, ""), O_RDWR));
	EXPECT_EQ(pwrite(fd, &zero, 1, 0), 1);
	EXPECT_EQ(pread(fd, &off, 4, 4), 4);
	EXPECT_EQ(off, 128 + 3);
	EXPECT_EQ(pread(fd, name, 18, 16), 18);
	EXPECT_STREQ(name, "portio-no-eventfd");
	EXPECT_ERRNO(mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0), ENODEV);
	close(fd);

	fd = MUST(open(iio_node(mem, ""), O_RDWR));
	EXPECT_EQ(pwrite(fd, &zero, 1, 0), 1);
	memset(name, 0, sizeof(name));
	EXPECT_EQ(pread(fd, name, 16, 16), 16);
	EXPECT_STREQ(name, "mmio-no-eventfd");
	close(fd);

	efd = MUST(open(iio_node(mem, "_event"), O_RDWR));
	EXPECT_ERRNO(read(efd, &off, 4), EIO);
	close(efd);
	pci_generic_unbind(TESTDEV_PCI);
	EXPECT_EQ(iio_find_by_name(TESTDEV_PCI " bar0", 0), -1);
}

static void factorial(int nr, bool intx)
{
	volatile uint32_t *regs;
	uint32_t before, v;
	int fd, efd;

	fd = MUST(open(iio_node(nr, ""), O_RDWR));
	efd = MUST(open(iio_node(nr, "_event"), O_RDWR));
	before = read_num(iio_attr_path(nr, "event"));
	/* through read/write */
	v = 0x80;
	EXPECT_EQ(pwrite(fd, &v, 4, EDU_STATUS), 4);
	v = 9;
	EXPECT_EQ(pwrite(fd, &v, 4, EDU_FACTORIAL), 4);
	wait_event(efd, before + 1);
	EXPECT_EQ(pread(fd, &v, 4, EDU_FACTORIAL), 4);
	EXPECT_EQ(v, 362880);
	EXPECT_EQ(pread(fd, &v, 4, EDU_IRQ_STATUS), 4);
	EXPECT_EQ(pwrite(fd, &v, 4, EDU_IRQ_ACK), 4);
	if (intx)
		unmask(efd);
	/* through mmap */
	regs = map_regs(nr);
	EXPECT_EQ(regs[EDU_ID / 4], 0x010000ed);
	regs[EDU_FACTORIAL / 4] = 11;
	wait_event(efd, before + 2);
	EXPECT_EQ(regs[EDU_FACTORIAL / 4], 39916800);
	regs[EDU_IRQ_ACK / 4] = regs[EDU_IRQ_STATUS / 4];
	regs[EDU_STATUS / 4] = 0;
	if (intx)
		unmask(efd);
	munmap((void *)regs, 4096);
	close(fd);
	close(efd);
}

/* raise, wait, acknowledge, unmask: every interrupt is one event */
static void rounds(int nr, int n, bool intx)
{
	volatile uint32_t *regs = map_regs(nr);
	int efd = MUST(open(iio_node(nr, "_event"), O_RDWR));
	uint32_t before = read_num(iio_attr_path(nr, "event"));
	int i;

	for (i = 1; i <= n; i++) {
		regs[EDU_IRQ_RAISE / 4] = 0x1;
		wait_event(efd, before + i);
		regs[EDU_IRQ_ACK / 4] = regs[EDU_IRQ_STATUS / 4];
		if (intx)
			unmask(efd);
	}
	EXPECT_EQ(read_num(iio_attr_path(nr, "event")), before + n);
	munmap((void *)regs, 4096);
	close(efd);
}

static void intx_factorial_and_1000_rounds(void)
{
	int nr;

	pci_generic_bind(EDU_PCI);
	nr = pci_bar_nr(EDU_PCI, 0);
	EXPECT_EQ(read_num(iio_attr_path(nr, "irq")),
		  read_num("/sys/bus/pci/devices/" EDU_PCI "/irq"));
	factorial(nr, true);
	rounds(nr, 1000, true);
	pci_generic_unbind(EDU_PCI);
}

/* INTx stays masked until user space unmasks it through the event device */
static void intx_mask_and_unmask(void)
{
	volatile uint32_t *regs;
	uint32_t before, zero = 0, two = 2;
	int nr, efd;

	pci_generic_bind(EDU_PCI);
	nr = pci_bar_nr(EDU_PCI, 0);
	regs = map_regs(nr);
	efd = MUST(open(iio_node(nr, "_event"), O_RDWR));
	before = read_num(iio_attr_path(nr, "event"));
	EXPECT_EQ(write(efd, &zero, 4), 4);	/* mask */
	regs[EDU_IRQ_RAISE / 4] = 0x1;
	/* the device interrupts, masked: a state, then no event either */
	pci_wait_intx_held_back(EDU_PCI);
	no_event(efd, 300);
	unmask(efd);				/* the line is still asserted */
	wait_event(efd, before + 1);
	regs[EDU_IRQ_ACK / 4] = regs[EDU_IRQ_STATUS / 4];
	EXPECT_ERRNO(write(efd, &two, 4), EINVAL);
	EXPECT_ERRNO(write(efd, &zero, 2), EINVAL);
	unmask(efd);
	munmap((void *)regs, 4096);
	close(efd);
	pci_generic_unbind(EDU_PCI);
}

/*
 * Run on the CPU that takes @irq (its effective affinity; the guest runs
 * no irqbalance), so that an MSI raised by a store of ours is taken by the
 * kernel before our next system call: the CPU takes a pending interrupt at
 * the next instruction boundary (under TCG, before the next translation
 * block, and a call or a system call ends one).  The old mask is put back
 * by unpin().
 */
static cpu_set_t pin_to_irq_cpu(unsigned long long irq)
{
	char path[64];
	cpu_set_t old, one;
	unsigned int cpu;

	snprintf(path, sizeof(path), "/proc/irq/%llu/effective_affinity_list",
		 irq);
	if (sscanf(read_text(path), "%u", &cpu) != 1)
		FAIL("%s: \"%s\" names no CPU", path, read_text(path));
	MUST(sched_getaffinity(0, sizeof(old), &old));
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	MUST(sched_setaffinity(0, sizeof(one), &one));
	EXPECT_EQ(sched_getcpu(), (int)cpu);
	return old;
}

static void unpin(cpu_set_t *old)
{
	MUST(sched_setaffinity(0, sizeof(*old), old));
}

static void msi_factorial_and_1000_rounds(void)
{
	volatile uint32_t *regs;
	uint32_t before, zero = 0;
	cpu_set_t cpus;
	int nr, efd;

	pci_generic_reload("msi=1");
	pci_generic_bind(EDU_PCI);
	nr = pci_bar_nr(EDU_PCI, 0);
	EXPECT(shell("grep -q '^ *%llu:.*PCI-MSI.*%s' /proc/interrupts",
		     read_num(iio_attr_path(nr, "irq")), EDU_PCI) == 0);
	factorial(nr, false);
	rounds(nr, 1000, false);

	/*
	 * Disabled, an MSI stays pending and arrives once enabled again.
	 * Not a window the guest may be too slow to fill: edu raised it
	 * (its status says so, and edu sends the message in the store that
	 * raises it), on the CPU that takes it and this one, so the kernel
	 * had it, and held it back, before the poll began; an event then
	 * would be there at once.
	 */
	regs = map_regs(nr);
	efd = MUST(open(iio_node(nr, "_event"), O_RDWR));
	before = read_num(iio_attr_path(nr, "event"));
	EXPECT_EQ(write(efd, &zero, 4), 4);
	cpus = pin_to_irq_cpu(read_num(iio_attr_path(nr, "irq")));
	regs[EDU_IRQ_RAISE / 4] = 0x1;
	EXPECT_EQ(regs[EDU_IRQ_STATUS / 4], 0x1);
	no_event(efd, 300);
	EXPECT_EQ(read_num(iio_attr_path(nr, "event")), before);
	unpin(&cpus);
	unmask(efd);
	wait_event(efd, before + 1);
	regs[EDU_IRQ_ACK / 4] = regs[EDU_IRQ_STATUS / 4];
	/* unbinding with the vector disabled */
	EXPECT_EQ(write(efd, &zero, 4), 4);
	munmap((void *)regs, 4096);
	close(efd);
	pci_generic_unbind(EDU_PCI);
	pci_generic_reload("");
}

/* the generic edu shares IRQ 11 with an iio_edu edu: each sees its own */
static void beside_iio_edu_on_a_shared_line(void)
{
	volatile uint32_t *gregs, *eregs;
	int gnr, enr = -1, i, gfd, efd;
	uint32_t gbefore, ebefore;

	pci_generic_bind(EDU_PCI);
	gnr = pci_bar_nr(EDU_PCI, 0);
	for (i = 0; iio_find_by_name("edu", i) >= 0; i++)
		if (read_num(iio_attr_path(iio_find_by_name("edu", i), "irq")) ==
		    read_num(iio_attr_path(gnr, "irq")))
			enr = iio_find_by_name("edu", i);
	if (enr < 0)
		FAIL("no iio_edu device shares the generic edu's IRQ");
	gregs = map_regs(gnr);
	eregs = map_regs(enr);
	gfd = MUST(open(iio_node(gnr, "_event"), O_RDWR));
	efd = MUST(open(iio_node(enr, "_event"), O_RDWR));
	gbefore = read_num(iio_attr_path(gnr, "event"));
	ebefore = read_num(iio_attr_path(enr, "event"));

	gregs[EDU_IRQ_RAISE / 4] = 0x1;
	wait_event(gfd, gbefore + 1);
	/*
	 * the line's other handler runs for the same interrupt, within
	 * microseconds of the one that told the event: 200 ms are ample
	 */
	EXPECT_EQ(read_num(iio_attr_path(enr, "event")), ebefore);
	no_event(efd, 200);

	/*
	 * The generic edu is masked and still pending (not acknowledged):
	 * the iio edu's interrupt on the shared line is not its event.
	 */
	pci_wait_intx_held_back(EDU_PCI);
	eregs[EDU_IRQ_RAISE / 4] = 0x1;	/* iio_edu acknowledges itself */
	wait_event(efd, ebefore + 1);
	EXPECT_EQ(read_num(iio_attr_path(gnr, "event")), gbefore + 1);
	no_event(gfd, 200);
	gregs[EDU_IRQ_ACK / 4] = gregs[EDU_IRQ_STATUS / 4];
	unmask(gfd);
	no_event(gfd, 200);
	EXPECT_EQ(read_num(iio_attr_path(gnr, "event")), gbefore + 1);
	EXPECT_EQ(read_num(iio_attr_path(enr, "event")), ebefore + 1);
	munmap((void *)gregs, 4096);
	munmap((void *)eregs, 4096);
	close(gfd);
	close(efd);
	pci_generic_unbind(EDU_PCI);
}

/* root changes PCI_COMMAND through the config file, bytes 4 and 5 */
static void config_write_command(const char *pci, unsigned int cmd)
{
	char path[128];
	uint16_t v = (uint16_t)cmd;
	int fd;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/config", pci);
	fd = MUST(open(path, O_WRONLY));
	EXPECT_EQ(pwrite(fd, &v, 2, 4), 2);
	close(fd);
}

/*
 * The unmask reads PCI_COMMAND afresh (pci_check_and_unmask_intx()): a
 * change root made through config space between an interrupt and the
 * unmask (bus mastering off, here) stays.
 */
static void intx_unmask_keeps_config_changes(void)
{
	volatile uint32_t *regs;
	uint32_t before;
	int nr, efd;

	pci_generic_bind(EDU_PCI);
	nr = pci_bar_nr(EDU_PCI, 0);
	regs = map_regs(nr);
	efd = MUST(open(iio_node(nr, "_event"), O_RDWR));
	before = read_num(iio_attr_path(nr, "event"));
	EXPECT(pci_command(EDU_PCI) & PCI_CMD_MASTER);	/* in use, opted in */
	regs[EDU_IRQ_RAISE / 4] = 0x1;
	wait_event(efd, before + 1);
	EXPECT(pci_command(EDU_PCI) & PCI_CMD_INTX_DISABLE);
	config_write_command(EDU_PCI, pci_command(EDU_PCI) & ~PCI_CMD_MASTER);
	regs[EDU_IRQ_ACK / 4] = regs[EDU_IRQ_STATUS / 4];
	unmask(efd);
	EXPECT_EQ(pci_command(EDU_PCI) & (PCI_CMD_MASTER | PCI_CMD_INTX_DISABLE),
		  0);
	intx_round(regs, efd, before + 2);
	munmap((void *)regs, 4096);
	close(efd);
	pci_generic_unbind(EDU_PCI);
}

/*
 * An interrupt the last user left unacknowledged: INTx is masked while
 * nobody uses the device, so it is not taken at the next bind (nor
 * counted), but at the next first open, as the new user's first event;
 * the man page's sequence (wait, acknowledge, unmask) then goes on.
 */
static void intx_pending_from_earlier_user(void)
{
	volatile uint32_t *regs;
	int nr, efd;

	pci_generic_bind(EDU_PCI);
	nr = pci_bar_nr(EDU_PCI, 0);
	EXPECT(pci_command(EDU_PCI) & PCI_CMD_INTX_DISABLE);	/* unused */
	regs = map_regs(nr);
	efd = MUST(open(iio_node(nr, "_event"), O_RDWR));
	EXPECT_EQ(pci_command(EDU_PCI) & PCI_CMD_INTX_DISABLE, 0);
	regs[EDU_IRQ_RAISE / 4] = 0x1;
	wait_event(efd, 1);
	munmap((void *)regs, 4096);		/* not acknowledged */
	close(efd);
	EXPECT(pci_command(EDU_PCI) & PCI_CMD_INTX_DISABLE);
	pci_generic_unbind(EDU_PCI);

	pci_generic_bind(EDU_PCI);
	nr = pci_bar_nr(EDU_PCI, 0);
	EXPECT_EQ(read_num(iio_attr_path(nr, "event")), 0);
	EXPECT(pci_command(EDU_PCI) & PCI_CMD_INTX_DISABLE);
	efd = MUST(open(iio_node(nr, "_event"), O_RDWR));
	regs = map_regs(nr);
	wait_event(efd, 1);
	regs[EDU_IRQ_ACK / 4] = regs[EDU_IRQ_STATUS / 4];
	unmask(efd);
	EXPECT_EQ(pci_command(EDU_PCI) & PCI_CMD_INTX_DISABLE, 0);
	intx_round(regs, efd, 2);
	munmap((void *)regs, 4096);
	close(efd);
	pci_generic_unbind(EDU_PCI);
}

/*
 * Suspend and resume (s2idle, devices suspended for 1 s: pm_test_delay,
 * whose default 5 s of busy-waiting on a loaded host ran past RCU's stall
 * limit of 21 s) with an interrupt pending and INTx masked: the PCI core restores the device
 * as it was, so INTx stays masked, the shared line is not disabled
 * ("nobody cared") and no event is counted; then it works on.
 */
#define PM_TEST_DELAY "/sys/module/suspend/parameters/pm_test_delay"

static void intx_masked_across_suspend(void)
{
	volatile uint32_t *regs;
	int nr, efd;

	pci_generic_bind(EDU_PCI);
	nr = pci_bar_nr(EDU_PCI, 0);
	regs = map_regs(nr);
	efd = MUST(open(iio_node(nr, "_event"), O_RDWR));
	regs[EDU_IRQ_RAISE / 4] = 0x1;
	wait_event(efd, 1);
	EXPECT_EQ(write_text(PM_TEST_DELAY, "1"), 0);
	EXPECT_EQ(write_text("/sys/power/pm_test", "devices"), 0);
	EXPECT_EQ(write_text("/sys/power/state", "freeze"), 0);
	EXPECT_EQ(write_text("/sys/power/pm_test", "none"), 0);
	EXPECT_EQ(write_text(PM_TEST_DELAY, "5"), 0);
	EXPECT(pci_command(EDU_PCI) & PCI_CMD_INTX_DISABLE);
	EXPECT_EQ(kmsg_count("nobody cared"), 0);
	EXPECT_EQ(read_num(iio_attr_path(nr, "event")), 1);
	regs[EDU_IRQ_ACK / 4] = regs[EDU_IRQ_STATUS / 4];
	unmask(efd);
	intx_round(regs, efd, 2);
	munmap((void *)regs, 4096);
	close(efd);
	pci_generic_unbind(EDU_PCI);
}

/* unbind under a blocked reader and a live mapping, then bind again */
static void unbind_bind_cycles_in_use(void)
{
	int cycle, nr, first = -1;

	for (cycle = 0; cycle < 3; cycle++) {
		volatile uint32_t *regs;
		pid_t reader;
		int efd;

		pci_generic_bind(EDU_PCI);
		nr = pci_bar_nr(EDU_PCI, 0);
		if (first < 0)
			first = nr;
		EXPECT_EQ(nr, first);	/* the number comes back */
		regs = map_regs(nr);
		EXPECT_EQ(regs[EDU_ID / 4], 0x010000ed);
		efd = MUST(open(iio_node(nr, "_event"), O_RDONLY));
		reader = fork_blocked_reader(efd);
		wait_sleeping_in(reader, SYS_read, 10000);
		pci_generic_unbind(EDU_PCI);
		expect_child_ok(reader);
		expect_sigbus(regs, 0);
		munmap((void *)regs, 4096);
		close(efd);
	}
}

/*
 * iio(4), iio_pci_generic(4): a write to the event device that races an
 * unbind fails with EIO, the framework's (it revokes the device before
 * the stub quiesces it), and never another errno.  A child masks and
 * unmasks INTx in a loop that ends only on a failure, so the unbind always
 * lands among its writes: the parent unbinds once the child has written
 * 100 times, and the child then must fail, with EIO, and keep failing.
 * Three rounds; the first failure's errno and any success after it are
 * reported through shared memory.
 */
struct write_race {
	volatile unsigned int written, failed_errno, late_successes, eio;
};

static void event_write_races_unbind(void)
{
	struct write_race *r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int round;

	EXPECT(r != MAP_FAILED);
	for (round = 0; round < 3; round++) {
		unsigned long long deadline;
		pid_t writer;
		int efd, nr;

		memset((void *)r, 0, sizeof(*r));
		pci_generic_bind(EDU_PCI);
		nr = pci_bar_nr(EDU_PCI, 0);
		efd = MUST(open(iio_node(nr, "_event"), O_RDWR));
		writer = MUST(fork());
		if (!writer) {
			uint32_t v = 0;
			int i;

			for (;; v ^= 1) {
				if (write(efd, &v, 4) != 4)
					break;
				r->written++;
			}
			r->failed_errno = errno;
			for (i = 0; i < 100; i++) {
				if (write(efd, &v, 4) == 4)
					r->late_successes++;
				else if (errno == EIO)
					r->eio++;
			}
			_exit(0);
		}
		deadline = now_ms() + 10000;
		while (r->written < 100 && now_ms() < deadline)
			usleep(1000);
		EXPECT(r->written >= 100);
		pci_generic_unbind(EDU_PCI);
		expect_child_ok(writer);
		close(efd);
		if (r->failed_errno != EIO)
			FAIL("round %d: the write racing the unbind failed with %s, not EIO",
			     round, strerror(r->failed_errno));
		EXPECT_EQ(r->late_successes, 0);
		EXPECT_EQ(r->eio, 100);
	}
	munmap((void *)r, sizeof(*r));
}

static void new_id_binds_too(void)
{
	int nr;

	EXPECT_EQ(write_text("/sys/bus/pci/devices/" EDU_PCI "/driver_override",
			     "\n"), 0);
	EXPECT_EQ(write_text(DRV "/new_id", "1234 11e8"), 0);
	nr = pci_bar_nr(EDU_PCI, 0);
	EXPECT(path_exists(DRV "/" EDU_PCI));
	/* the edus that have drivers keep them */
	EXPECT(!path_exists(DRV "/0000:00:10.0"));
	EXPECT(!path_exists(DRV "/0000:00:12.0"));
	EXPECT_STREQ(read_text(iio_attr_path(nr, "type")), "mem");
	EXPECT_EQ(write_text(DRV "/remove_id", "1234 11e8"), 0);
	pci_generic_unbind(EDU_PCI);
}

/* what the PCI device says of its interrupts (irq_mode) */
static const char *irq_mode(const char *pci)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/irq_mode", pci);
	return read_text(path);
}

/*
 * vectors=4 on edu, which has MSI but no MSI-X: it falls back to MSI with
 * one vector and says so.  DMA buffers requested by user space: limits and
 * errors, a round trip through edu's DMA engine (28-bit: dma_bits=28)
 * with MSI completions, and unbind with the buffer mapped.
 */
static void msix_fallback_and_requested_dma(void)
{
	uint8_t want[2048], *buf;
	volatile uint64_t *regs64;
	uint64_t bus;
	uint32_t count;
	char path[160];
	int nr, efd, bfd;

	pci_generic_reload("vectors=4 dma_bits=28 dma_max=0x6000");
	pci_generic_bind(EDU_PCI);
	nr = pci_bar_nr(EDU_PCI, 0);
	EXPECT_STREQ(irq_mode(EDU_PCI), "msi");
	EXPECT_EQ(read_num(iio_attr_path(nr, "vectors")), 1);
	EXPECT(!path_exists(iio_node(nr, "_event1")));
	EXPECT(shell("dmesg | grep -q '%s: no MSI-X, trying MSI'", EDU_PCI) == 0);
	snprintf(path, sizeof(path), "/sys/class/iio/iio%d/iio%d_event/event",
		 nr, nr);
	EXPECT_EQ(read_num(path), read_num(iio_attr_path(nr, "event")));

	EXPECT_EQ(iio_dma_request(nr, "0"), EINVAL);
	EXPECT_EQ(iio_dma_request(nr, "lots"), EINVAL);
	/* too large to parse: EINVAL too, not kstrtou64()'s ERANGE */
	EXPECT_EQ(iio_dma_request(nr, "99999999999999999999"), EINVAL);
	EXPECT_EQ(iio_dma_request(nr, "0x7000"), E2BIG);
	EXPECT_EQ(iio_dma_request(nr, "4096"), 0);
	EXPECT_EQ(iio_dma_request(nr, "0x1001"), 0);	/* two pages */
	EXPECT_EQ(iio_dma_request(nr, "0x1000"), 0);
	EXPECT_EQ(iio_dma_request(nr, "0x3000"), E2BIG);	/* 0x4000 used */
	EXPECT_EQ(iio_dma_request(nr, "1"), 0);		/* dma3: 0x5000 */
	EXPECT_EQ(iio_dma_request(nr, "1"), ENOSPC);	/* all four exist */
	snprintf(path, sizeof(path), "/sys/class/iio/iio%d/dma1/size", nr);
	EXPECT_STREQ(read_text(path), "0x2000");
	EXPECT(path_exists(iio_attr_path(nr, "dma3")));
	snprintf(path, sizeof(path), "/sys/class/iio/iio%d/dma1/bus_addr", nr);
	bus = read_num(path);
	EXPECT(bus + 0x2000 <= 1ULL << 28);

	snprintf(path, sizeof(path), "/sys/class/iio/iio%d/dma1/buffer", nr);
	bfd = MUST(open(path, O_RDWR));
	buf = mmap(NULL, 0x2000, PROT_READ | PROT_WRITE, MAP_SHARED, bfd, 0);
	EXPECT(buf != MAP_FAILED);
	for (unsigned int i = 0; i < sizeof(want); i++)
		want[i] = (uint8_t)(i * 13 + 5);
	memcpy(buf, want, sizeof(want));

	regs64 = (volatile uint64_t *)map_regs(nr);
	efd = MUST(open(iio_node(nr, "_event"), O_RDWR));
	count = read_num(iio_attr_path(nr, "event"));
	regs64[0x80 / 8] = bus;				/* buffer -> edu */
	regs64[0x88 / 8] = 0x40000;
	regs64[0x90 / 8] = sizeof(want);
	regs64[0x98 / 8] = 0x1 | 0x4;
	wait_event(efd, ++count);
	regs64[EDU_IRQ_ACK / 8] = regs64[EDU_IRQ_STATUS / 8] & 0xffffffff;
	regs64[0x80 / 8] = 0x40000;			/* edu -> page 1 */
	regs64[0x88 / 8] = bus + 4096;
	regs64[0x98 / 8] = 0x1 | 0x2 | 0x4;
	wait_event(efd, ++count);
	EXPECT(memcmp(buf + 4096, want, sizeof(want)) == 0);

	pci_generic_unbind(EDU_PCI);
	expect_sigbus(buf + 4096, 0);
	EXPECT_ERRNO(pread(bfd, want, 1, 0), ENODEV);
	munmap(buf, 0x2000);
	munmap((void *)regs64, 4096);
	close(bfd);
	close(efd);
	pci_generic_reload("");
}

/*
 * The module's parameter limits: vectors 1 to 8 (9 fails the load with
 * EINVAL), dma_bits 24 to 64; dma_max=0 gives a bound device no
 * dma_request attribute.
 */
static void module_parameter_limits(void)
{
	int nr;

	EXPECT_EQ(module_unload("iio_pci_generic"), 0);
	EXPECT_EQ(module_load("iio_pci_generic", "vectors=9"), EINVAL);
	EXPECT_EQ(module_load("iio_pci_generic", "dma_bits=23"), EINVAL);
	EXPECT_EQ(module_load("iio_pci_generic", "dma_bits=65"), EINVAL);
	EXPECT(!path_exists(DRV));
	pci_generic_reload("vectors=8");
	pci_generic_reload("dma_bits=24");
	pci_generic_reload("dma_bits=64");
	pci_generic_reload("dma_max=0");
	pci_generic_bind(EDU_PCI);
	nr = pci_bar_nr(EDU_PCI, 0);
	EXPECT(path_exists(iio_attr_path(nr, "dma_iommu")));
	EXPECT(!path_exists(iio_attr_path(nr, "dma_request")));
	pci_generic_unbind(EDU_PCI);
	pci_generic_reload("");
	pci_generic_bind(EDU_PCI);
	EXPECT(path_exists(iio_attr_path(pci_bar_nr(EDU_PCI, 0), "dma_request")));
	pci_generic_unbind(EDU_PCI);
}

/*
 * dma_request: more than 4 MiB is EINVAL even where dma_max allows more
 * (E2BIG is the stub's limit); written after the device went away (its
 * file open across the unbind), ENODEV.
 */
static void dma_request_limits(void)
{
	int nr, fd;

	pci_generic_reload("dma_bits=28 dma_max=0x1000000");
	pci_generic_bind(EDU_PCI);
	nr = pci_bar_nr(EDU_PCI, 0);
	EXPECT_EQ(iio_dma_request(nr, "0x400001"), EINVAL);
	EXPECT_EQ(iio_dma_request(nr, "0x1000001"), EINVAL);
	EXPECT_EQ(iio_dma_request(nr, "0x-1"), EINVAL);
	EXPECT(!path_exists(iio_attr_path(nr, "dma0")));
	EXPECT_EQ(iio_dma_request(nr, "0x1000"), 0);
	EXPECT(path_exists(iio_attr_path(nr, "dma0")));
	fd = MUST(open(iio_attr_path(nr, "dma_request"), O_WRONLY));
	pci_generic_unbind(EDU_PCI);
	EXPECT_ERRNO(write(fd, "4096", 4), ENODEV);
	close(fd);
	pci_generic_reload("");
}

/*
 * msi=1 on pci-testdev, which has neither MSI nor an interrupt pin: the
 * stub says it falls back to INTx, then that there is no interrupt, and
 * binds without an event source (irq none, irq_mode none, EIO).
 */
static void no_msi_no_interrupt(void)
{
	unsigned int fallbacks, none;
	uint32_t v;
	int nr, efd;

	fallbacks = kmsg_count(TESTDEV_PCI ": no MSI, falling back to INTx");
	none = kmsg_count(TESTDEV_PCI ": no interrupt: its event device gives EIO");
	pci_generic_reload("msi=1");
	pci_generic_bind(TESTDEV_PCI);
	EXPECT_EQ(kmsg_count(TESTDEV_PCI ": no MSI, falling back to INTx"),
		  fallbacks + 1);
	EXPECT_EQ(kmsg_count(TESTDEV_PCI ": no interrupt: its event device gives EIO"),
		  none + 1);
	EXPECT_STREQ(read_text("/sys/bus/pci/devices/" TESTDEV_PCI "/irq_mode"),
		     "none");
	nr = pci_bar_nr(TESTDEV_PCI, 0);
	EXPECT_STREQ(read_text(iio_attr_path(nr, "irq")), "none");
	efd = MUST(open(iio_node(nr, "_event"), O_RDWR));
	EXPECT_ERRNO(read(efd, &v, 4), EIO);
	close(efd);
	pci_generic_unbind(TESTDEV_PCI);
	pci_generic_reload("");
}

/*
 * A device that cannot mask INTx (PCI 2.3 INTx masking) is refused at
 * bind with ENODEV and one line; no QEMU device is one, so the test-only
 * stub marks edu's masking broken as the PCI core's quirks do
 * (tests/kmod/iio_test_pci.c: pci_dev.broken_intx_masking), and unmarks
 * it: then the same edu binds, on INTx.
 */
static void intx_unmaskable_refused(void)
{
	const char *line = "iio_pci_generic " EDU_PCI ": refused: the device cannot mask INTx";
	const char *override = "/sys/bus/pci/devices/" EDU_PCI "/driver_override";
	unsigned int refusals = kmsg_count(line), logged;
	int refused, bound, nr;

	pci_generic_reload("");
	test_module_load("iio_test_pci");
	EXPECT_EQ(write_text("/sys/module/iio_test_pci/parameters/intx_broken",
			     EDU_PCI), 0);
	EXPECT_EQ(write_text(override, "iio_pci_generic"), 0);
	refused = pci_driver_bind("iio_pci_generic", EDU_PCI);
	bound = path_exists(DRV "/" EDU_PCI);
	nr = iio_find_by_parent(EDU_PCI);
	logged = kmsg_count(line) - refusals;
	/* mended (and free again if it bound), before any check */
	EXPECT_EQ(write_text("/sys/module/iio_test_pci/parameters/intx_broken",
			     "none"), 0);
	if (bound)
		EXPECT_EQ(pci_driver_unbind("iio_pci_generic", EDU_PCI), 0);
	EXPECT_EQ(refused, ENODEV);
	EXPECT(!bound);
	EXPECT_EQ(nr, -1);
	EXPECT_EQ(logged, 1);
	/* the same edu, mended, binds on INTx */
	EXPECT_EQ(pci_driver_bind("iio_pci_generic", EDU_PCI), 0);
	EXPECT_STREQ(read_text("/sys/bus/pci/devices/" EDU_PCI "/irq_mode"),
		     "intx");
	pci_generic_unbind(EDU_PCI);
	EXPECT_EQ(kmsg_count(line), refusals + 1);
	EXPECT_EQ(module_unload("iio_test_pci"), 0);
}

static const struct check_case cases[] = {
	CASE(binds_nothing_by_itself),
	CASE(every_bar_memory_and_ports),
	CASE_T(intx_factorial_and_1000_rounds, 120),
	CASE(intx_mask_and_unmask),
	CASE_T(msi_factorial_and_1000_rounds, 120),
	CASE(beside_iio_edu_on_a_shared_line),
	CASE(intx_unmask_keeps_config_changes),
	CASE(intx_pending_from_earlier_user),
	CASE_T(intx_masked_across_suspend, 60),
	CASE_T(unbind_bind_cycles_in_use, 90),
	CASE_T(event_write_races_unbind, 90),
	CASE(new_id_binds_too),
	CASE_T(msix_fallback_and_requested_dma, 90),
	CASE_T(module_parameter_limits, 90),
	CASE_T(dma_request_limits, 60),
	CASE_T(no_msi_no_interrupt, 60),
	CASE_T(intx_unmaskable_refused, 60),
};
CHECK_MAIN(cases)
