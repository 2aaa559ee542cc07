/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * iio_raw.h - the iio nodes of a PCI function bound to iio_pci_generic(4),
 * without libudrv: bind it, find the iio device of one of its BARs, read
 * its attributes, map its region and open an interrupt vector's event
 * node.  For the tests and bench programs that exercise or measure the
 * nodes themselves (the guest tests through tests/lib/nvme_test.c and
 * test_corners, tests/intx-config, bench/irq_rtt.c, event_rate.c and
 * memread.c); a driver uses libudrv (lib/udrv.h), which also binds nothing.
 *
 * Every function returns 0 (or a non-negative value) on success and a
 * negative errno on failure; iio_raw_error() then holds one line saying
 * what failed and why, for the caller's message on stderr.  Nothing here
 * prints or exits.  Not thread-safe (the message is one static buffer).
 */
#ifndef IIO_RAW_H
#define IIO_RAW_H

#include <stddef.h>
#include <stdint.h>

/* the message of the last failure (static; "" if none yet) */
const char *iio_raw_error(void);

/*
 * Read sysfs attribute @attr of PCI function @pci
 * (/sys/bus/pci/devices/PCI/ATTR: "class", "irq_mode", ...) into @buf,
 * the trailing newline cut.  0 or -errno (-ENOENT: no such function or
 * attribute).
 */
int iio_raw_pci_attr(const char *pci, const char *attr, char *buf, size_t len);

/*
 * Bind PCI function @pci ("0000:00:1a.0") to iio_pci_generic: nothing to
 * do if it is already; if it has no driver, driver_override =
 * iio_pci_generic and bind (it stays bound and keeps the override).
 * Returns 0; -ENODEV no such PCI function; -EBUSY bound to another driver
 * (the message names it); -ENOENT iio_pci_generic is not loaded; or the
 * errno of the bind.
 */
int iio_raw_bind(const char *pci);

/*
 * The number N of the iio device (/dev/iioN) of BAR @bar of PCI function
 * @pci, the one named "PCI barB" under /sys/bus/pci/devices/PCI/iio/.
 * -ENOENT if there is none (not bound, or the BAR is not exposed).
 */
int iio_raw_find_bar(const char *pci, int bar);

/*
 * Read sysfs attribute @attr of iio device @nr (/sys/class/iio/iioN/ATTR,
 * "size", "vectors", "irq", "dma0/bus_addr", ...) into @buf; or as a
 * number (decimal or 0x hex), >= 0.  0 / the number, or -errno.
 */
int iio_raw_attr(int nr, const char *attr, char *buf, size_t len);
long long iio_raw_attr_num(int nr, const char *attr);

/* a mapping of an iio device's region */
struct iio_raw_map {
	volatile void *p;	/* the first byte */
	size_t len;		/* bytes mapped */
	size_t size;		/* the region's size (sysfs "size") */
};

/*
 * Map the first @len bytes (0: all of it; rounded up to pages) of iio
 * device @nr's region, /dev/iioN, shared, read-write.  The mapping keeps
 * the device open; touching it after the device went away raises SIGBUS.
 * 0 or -errno (-EINVAL: @len is larger than the region).
 */
int iio_raw_map(int nr, size_t len, struct iio_raw_map *m);
void iio_raw_unmap(struct iio_raw_map *m);

/*
 * Open vector @vector's event node of iio device @nr: /dev/iioN_event
 * for vector 0 (also INTx and MSI), /dev/iioN_eventV for the others;
 * read-write (write unmasks INTx on vector 0, see iio_pci_generic(4)),
 * close-on-exec.  Open it before the device can interrupt: an open file
 * sees only the events after its open.  The file descriptor, or -errno.
 * @path (may be NULL) receives the node's path.
 */
int iio_raw_event_open(int nr, int vector, char *path, size_t len);

#endif
