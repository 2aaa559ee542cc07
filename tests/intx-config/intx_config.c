// SPDX-License-Identifier: GPL-2.0-only
/*
 * intx_config.c - the guest half of the device-side proof that
 * iio_pci_generic's INTx round trip is the PCI core's helpers' accesses
 *
 * Runs in a guest booted by tests/intx-config/run with QEMU's
 * configuration-space trace on (qemu/run --trace-config).  It gives the
 * edu at 00:13.0 to iio_pci_generic (INTx, its default) and, between two
 * markers, does INTx round trips as iio_pci_generic(4) tells a user to:
 * raise edu's interrupt (register 0x60), wait for the event, acknowledge
 * it (0x64) through the mapping, write 1 to the event node.  iio_pci_generic
 * promises that the handler reads PCI_COMMAND and PCI_STATUS once (one
 * dword at 0x4, pci_check_and_mask_intx()) and writes PCI_COMMAND once
 * (INTx masked), and that the unmask does the same (a fresh read, so a
 * change made meanwhile through config space is kept, and a write,
 * pci_check_and_unmask_intx()).  A second case masks and unmasks with no
 * interrupt: a read and a write each, and nothing for a mask or unmask
 * that changes nothing.
 *
 * Output, one line each:
 *
 *   intx-config-plan N              first: N cases follow
 *   intx-config-device BDF          the function whose accesses count
 *   intx-config-marker BDF OFFSET   where the markers are written
 *   intx-config-case K NAME R ACCESS...  case K: ACCESS... ("r@0x4" or
 *                                   "w@0x4") repeated R times, in order,
 *                                   is all the function must see
 *   FAIL intx-config/NAME: why      the case itself failed
 *
 * Marker K is a 4-byte write of K through sysfs to the configuration
 * space of the pci-testdev at 00:19.0 (offset 0, its read-only vendor and
 * device id: the write changes nothing, but QEMU traces it), a device no
 * one uses in this boot; it goes through the PCI core, none of the code
 * under test.  tests/intx-config/run compares each case with the edu's
 * accesses between marker K and the next.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../lib/iio_raw.h"

#define EDU_PCI		"0000:00:13.0"
#define MARKER_PCI	"0000:00:19.0"
#define MARKER_OFF	0x0
#define EDU_IRQ_STATUS	0x24
#define EDU_IRQ_RAISE	0x60
#define EDU_IRQ_ACK	0x64
#define ROUNDS		100

static void die(const char *fmt, ...)
{
	va_list ap;

	printf("FAIL intx-config/setup: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	exit(1);
}

static void write_attr(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		die("write %s to %s: %s", val, path, strerror(errno));
	close(fd);
}

static int marker_fd;

static void marker(unsigned int k)
{
	uint32_t v = k;

	if (pwrite(marker_fd, &v, 4, MARKER_OFF) != 4)
		die("marker %u: %s", k, strerror(errno));
}

static int event_write(int efd, uint32_t v)
{
	return write(efd, &v, 4) == 4 ? 0 : -1;
}

/* one round trip; 0, or -1 with a FAIL line for @name */
static int round_trip(const char *name, volatile uint32_t *regs, int efd,
		      uint32_t want)
{
	struct pollfd pfd = { .fd = efd, .events = POLLIN };
	uint32_t count;

	regs[EDU_IRQ_RAISE / 4] = 0x1;
	if (poll(&pfd, 1, 5000) != 1) {
		printf("FAIL intx-config/%s: no event within 5 s\n", name);
		return -1;
	}
	if (read(efd, &count, 4) != 4 || count != want) {
		printf("FAIL intx-config/%s: event count %u, want %u\n",
		       name, count, want);
		return -1;
	}
	regs[EDU_IRQ_ACK / 4] = regs[EDU_IRQ_STATUS / 4];
	if (event_write(efd, 1)) {
		printf("FAIL intx-config/%s: unmask: %s\n", name,
		       strerror(errno));
		return -1;
	}
	return 0;
}

int main(void)
{
	struct iio_raw_map map;
	char buf[64];
	volatile uint32_t *regs;
	long long events;
	uint32_t count;
	int nr, efd, i, ok;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("intx-config-plan 2\n");
	printf("intx-config-device %s\n", EDU_PCI + 5);
	printf("intx-config-marker %s 0x%x\n", MARKER_PCI + 5, MARKER_OFF);
	marker_fd = open("/sys/bus/pci/devices/" MARKER_PCI "/config", O_WRONLY);
	if (marker_fd < 0)
		die(MARKER_PCI " config: %s", strerror(errno));

	if (iio_raw_bind(EDU_PCI) ||
	    iio_raw_pci_attr(EDU_PCI, "irq_mode", buf, sizeof(buf)))
		die("%s", iio_raw_error());
	if (strcmp(buf, "intx"))
		die(EDU_PCI " irq_mode is \"%s\", not intx", buf);
	nr = iio_raw_find_bar(EDU_PCI, 0);
	if (nr < 0 || iio_raw_map(nr, 4096, &map) ||
	    (efd = iio_raw_event_open(nr, 0, NULL, 0)) < 0 ||
	    (events = iio_raw_attr_num(nr, "event")) < 0)
		die("%s", iio_raw_error());
	regs = map.p;
	/* the count so far (0 after bind), and one round outside the markers */
	count = (uint32_t)events;
	if (round_trip("setup", regs, efd, ++count))
		return 1;

	/* case 1: the handler's read and write, the unmask's read and write */
	marker(1);
	ok = 1;
	for (i = 0; i < ROUNDS && ok; i++)
		ok = !round_trip("round-trips", regs, efd, ++count);
	marker(2);
	if (ok)
		printf("intx-config-case 1 round-trips %d r@0x4 w@0x4 r@0x4 w@0x4\n",
		       ROUNDS);

	/*
	 * case 2: a mask and an unmask are a read and a write each; a second
	 * mask or unmask changes nothing and accesses nothing
	 */
	if (event_write(efd, 0) || event_write(efd, 0) ||
	    event_write(efd, 1) || event_write(efd, 1))
		printf("FAIL intx-config/mask-unmask: write: %s\n",
		       strerror(errno));
	else
		printf("intx-config-case 2 mask-unmask 1 r@0x4 w@0x4 r@0x4 w@0x4\n");
	marker(3);

	iio_raw_unmap(&map);
	close(efd);
	write_attr("/sys/bus/pci/drivers/iio_pci_generic/unbind", EDU_PCI);
	write_attr("/sys/bus/pci/devices/" EDU_PCI "/driver_override", "none");
	close(marker_fd);
	return 0;
}
