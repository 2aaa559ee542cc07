/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * iio_udrv.h - what every user-space PCI driver (udrv) on iio needs, in one small
 * C file to copy or link: bind a PCI function to iio_pci_generic(4), find
 * the iio device of one of its BARs, map it, get DMA buffers
 * (dma_request, see iio(4) DMA BUFFERS) and wait on an interrupt vector's
 * event node with a timeout.  Used by examples/nvme.c, the guest
 * tests (tests/lib/nvme_test.c, tests/intx-config) and the bench programs
 * (bench/irq_rtt.c, event_rate.c, memread.c); documented in
 * tests/nvme/README.md.
 *
 * Every function returns 0 (or a non-negative value) on success and a
 * negative errno on failure; iio_udrv_error() then holds one line saying
 * what failed and why ("dma_request of iio4: ..."), for the caller's
 * message on stderr.  Nothing here prints or exits.  Not thread-safe (the
 * message is one static buffer).
 */
#ifndef IIO_UDRV_H
#define IIO_UDRV_H

#include <stddef.h>
#include <stdint.h>

#define IIO_UDRV_DMA_MAX	4	/* dma0..dma3 per device (iio(4)) */
#define IIO_UDRV_VECTORS_MAX	8	/* iio_pci_generic vectors=1..8 */

/* the message of the last failure (static; "" if none yet) */
const char *iio_udrv_error(void);

/*
 * Read sysfs attribute @attr of PCI function @pci
 * (/sys/bus/pci/devices/PCI/ATTR: "class", "irq_mode", ...) into @buf,
 * the trailing newline cut.  0 or -errno (-ENOENT: no such function or
 * attribute).
 */
int iio_udrv_pci_attr(const char *pci, const char *attr, char *buf, size_t len);

/*
 * Bind PCI function @pci ("0000:00:1a.0") to iio_pci_generic: nothing to
 * do if it is already; if it has no driver, driver_override =
 * iio_pci_generic and bind (it stays bound and keeps the override).
 * Returns 0; -ENODEV no such PCI function; -EBUSY bound to another driver
 * (the message names it); -ENOENT iio_pci_generic is not loaded; or the
 * errno of the bind.
 */
int iio_udrv_bind(const char *pci);

/*
 * The number N of the iio device (/dev/iioN) of BAR @bar of PCI function
 * @pci, the one named "PCI barB" under /sys/bus/pci/devices/PCI/iio/.
 * -ENOENT if there is none (not bound, or the BAR is not exposed).
 */
int iio_udrv_find_bar(const char *pci, int bar);

/*
 * Read sysfs attribute @attr of iio device @nr (/sys/class/iio/iioN/ATTR,
 * "size", "vectors", "irq", "dma0/bus_addr", ...) into @buf; or as a
 * number (decimal or 0x hex), >= 0.  0 / the number, or -errno.
 */
int iio_udrv_attr(int nr, const char *attr, char *buf, size_t len);
long long iio_udrv_attr_num(int nr, const char *attr);

/* a mapping of an iio device's region */
struct iio_udrv_map {
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
int iio_udrv_map(int nr, size_t len, struct iio_udrv_map *m);
void iio_udrv_unmap(struct iio_udrv_map *m);

/* a DMA buffer, mapped */
struct iio_udrv_dma {
	int k;			/* dmaK */
	void *cpu;		/* its mapping */
	uint64_t bus;		/* the address the device uses (bus_addr) */
	size_t size;		/* bytes, a multiple of the page size */
};

/*
 * A DMA buffer of at least @len bytes for iio device @nr, mapped: an
 * existing dmaK that large (buffers live until the device is unbound, at
 * most IIO_UDRV_DMA_MAX, so a driver run again reuses its old one), else a
 * new one asked for through dma_request.  The contents are left as they
 * are.  0 or -errno: -EPERM no IOMMU translates the device's DMA and
 * iio.enable_unsafe_noiommu_mode is off (the message names the opt-in);
 * -E2BIG past the stub's dma_max; -ENOSPC all four buffers exist and none
 * is large enough (unbind and bind again to free them); -EOPNOTSUPP the
 * device has no dma_request; -EINVAL more than 4 MiB; -ENOMEM.
 */
int iio_udrv_dma(int nr, size_t len, struct iio_udrv_dma *d);
void iio_udrv_dma_unmap(struct iio_udrv_dma *d);

/*
 * Open vector @vector's event node of iio device @nr: /dev/iioN_event
 * for vector 0 (also INTx and MSI), /dev/iioN_eventV for the others;
 * read-write (write unmasks INTx on vector 0, see iio_pci_generic(4)),
 * close-on-exec.  Open it before the device can interrupt: an open file
 * sees only the events after its open.  The file descriptor, or -errno.
 * @path (may be NULL) receives the node's path.
 */
int iio_udrv_event_open(int nr, int vector, char *path, size_t len);

/*
 * Wait up to @timeout_ms (-1: no limit) until one of the @n event nodes
 * @fds has an event not yet seen, and read each that has: @counts[i]
 * (may be NULL) gets node i's total event count.  Returns a bit mask of
 * the nodes read (bit i: @fds[i]; n <= 32), 0 on timeout or when a signal
 * interrupted the wait, -EIO when a device went away (the node polls
 * POLLERR/POLLHUP or its read fails with EIO), or another -errno.
 */
long iio_udrv_event_wait(const int *fds, int n, int timeout_ms,
			 uint32_t *counts);

#endif
