// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_uio_side.c - mainline UIO beside us: the third edu (00:12.0) is
 * bound to Debian's uio_pci_generic, and shares its INTx line with one of
 * our edus.  Both get their interrupts, and neither counts the other's:
 * iio_edu's handler returns IRQ_NONE when its device did not interrupt.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/iio_test.h"

#define UIO_PCI "/sys/bus/pci/devices/0000:00:12.0"
#define EDU_ID		0x00
#define EDU_IRQ_STATUS	0x24
#define EDU_IRQ_RAISE	0x60
#define EDU_IRQ_ACK	0x64

static volatile uint32_t *uio_regs;
static int uio_fd;

static void uio_setup(void)
{
	char link[PATH_MAX];
	ssize_t n;
	int res;

	n = readlink(UIO_PCI "/driver", link, sizeof(link) - 1);
	EXPECT(n > 0);
	link[n] = 0;
	EXPECT(strstr(link, "/uio_pci_generic"));
	EXPECT_STREQ(read_text("/sys/class/uio/uio0/name"), "uio_pci_generic");
	uio_fd = MUST(open("/dev/uio0", O_RDWR));
	res = MUST(open(UIO_PCI "/resource0", O_RDWR));
	uio_regs = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, res, 0);
	EXPECT(uio_regs != MAP_FAILED);
	close(res);
}

/*
 * uio_pci_generic masks INTx in its handler (PCI_COMMAND_INTX_DISABLE) and
 * has no irqcontrol: user space unmasks through config space.
 */
static void uio_unmask(void)
{
	int cfg = MUST(open(UIO_PCI "/config", O_RDWR));
	uint16_t cmd;

	EXPECT_EQ(pread(cfg, &cmd, 2, 4), 2);
	cmd &= ~0x400;
	EXPECT_EQ(pwrite(cfg, &cmd, 2, 4), 2);
	close(cfg);
}

/* mainline UIO: unmask, raise, wait, acknowledge (all from user space) */
static uint32_t uio_interrupt(void)
{
	struct pollfd pfd = { .fd = uio_fd, .events = POLLIN };
	uint32_t count;

	uio_unmask();
	uio_regs[EDU_IRQ_RAISE / 4] = 0x1;
	if (poll(&pfd, 1, 5000) != 1)
		FAIL("uio_pci_generic: no interrupt within 5 s");
	EXPECT_EQ(read(uio_fd, &count, 4), 4);
	uio_regs[EDU_IRQ_ACK / 4] = uio_regs[EDU_IRQ_STATUS / 4];
	return count;
}

static void uio_pci_generic_gets_interrupts(void)
{
	uint32_t first;

	uio_setup();
	EXPECT_EQ(uio_regs[EDU_ID / 4], 0x010000ed);
	first = uio_interrupt();
	EXPECT_EQ(uio_interrupt(), first + 1);
	EXPECT_EQ(uio_regs[EDU_IRQ_STATUS / 4], 0);
}

/* the iio edu whose interrupt line the uio edu shares */
static int sharing_iio_edu(void)
{
	unsigned long long uio_irq = read_num(UIO_PCI "/irq");
	int i, nr;

	for (i = 0; (nr = iio_find_by_name("edu", i)) >= 0; i++)
		if (read_num(iio_attr_path(nr, "irq")) == uio_irq)
			return nr;
	FAIL("no iio edu shares IRQ %llu with the uio edu", uio_irq);
}

static void both_interrupt_side_by_side(void)
{
	uint32_t raise = 1, before, uio_before;
	struct pollfd pfd;
	int nr, efd;

	uio_setup();
	nr = sharing_iio_edu();
	efd = MUST(open(iio_node(nr, "_event"), O_RDWR | O_NONBLOCK));
	before = read_num(iio_attr_path(nr, "event"));

	/* the uio edu interrupts on the shared line: not ours, no event */
	uio_before = uio_interrupt();
	msleep(100);
	EXPECT_EQ(read_num(iio_attr_path(nr, "event")), before);
	EXPECT_ERRNO(read(efd, &raise, 4), EAGAIN);

	/* ours interrupts: one event for us; uio's count stays */
	raise = 1;
	EXPECT_EQ(write(efd, &raise, 4), 4);
	pfd = (struct pollfd){ .fd = efd, .events = POLLIN };
	EXPECT_EQ(poll(&pfd, 1, 5000), 1);
	EXPECT_EQ(event_read(efd), before + 1);
	EXPECT_EQ(uio_interrupt(), uio_before + 1);
	EXPECT_EQ(read_num(iio_attr_path(nr, "event")), before + 1);
	close(efd);
}

static const struct check_case cases[] = {
	CASE(uio_pci_generic_gets_interrupts),
	CASE(both_interrupt_side_by_side),
};
CHECK_MAIN(cases)
