/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lookup.h - finding iio devices and PCI functions in sysfs: the lookup
 * that libudrv's iio backend (lib/iio.c) and iioctl (cli/device.c) share,
 * one implementation for both, and the attribute reader under it (which
 * lib/sysfs.c's udrv_read_text() words failures of).
 *
 * Internal: in libudrv.a, which iioctl links, but never exported by
 * libudrv.so (lib/udrv.map's "local: *"; lib/tests/run checks the
 * exports) and not part of udrv.h's API.  Every path is the caller's, so
 * iioctl's roots (--sysfs, $IIOCTL_SYSFS) and the library's fixed ones
 * both work; nothing here keeps state, prints, or sets udrv_strerror()'s
 * message: a failure is a negative errno the caller words.
 */
#ifndef UDRV_LOOKUP_H
#define UDRV_LOOKUP_H

#include <stddef.h>
#include <stdint.h>

/* "0000:00:04.0" and its NUL */
#define UDRV_PCI_ADDR_LEN	13
/* BARs of a PCI function (lines of its resource file that count) */
#define UDRV_PCI_BARS		6

/*
 * A PCI address: "DDDD:BB:SS.F" or "BB:SS.F" (hex digits of any case, F
 * 0 to 7), and with @bar non-NULL "/barN" after it ("/bar" of any case, N
 * 0 to 5).  0 with the address, its domain 0000 when left out, in lower
 * case in @addr and N (-1 without /barN) in *@bar; -EINVAL if @s is not
 * one (with @bar NULL, one with /barN is not).
 */
int udrv_pci_address_parse(const char *s, char addr[UDRV_PCI_ADDR_LEN],
			   int *bar);

/*
 * The BAR (0 to 5) whose range, in the PCI function's resource file
 * @resource (sysfs's "start end flags" lines), holds @physaddr: 0 with its
 * number in *@bar and its start in *@start (may be NULL), or -1 in *@bar
 * if none does (an empty BAR is "0 0 0" and holds nothing); -errno if
 * @resource cannot be opened.
 */
int udrv_pci_bar_holding(const char *resource, uint64_t physaddr, int *bar,
			 uint64_t *start);

/*
 * The first line of the file @path (a sysfs attribute), without its
 * newline, into @buf of @size bytes: 0, or -errno with @buf "" if it
 * cannot be opened or read.
 */
int udrv_read_line(const char *path, char *buf, size_t size);

/*
 * The last component of the symbolic link @path's target (a sysfs link:
 * a device's driver, its subsystem, its parent device) into @buf of @size
 * bytes: 0, or -errno with @buf "" if it is no link or does not fit.
 */
int udrv_link_name(const char *path, char *buf, size_t size);

/* N of "iioN" (decimal, no leading zero, at most INT_MAX), else -1 */
long udrv_iio_label_parse(const char *s);

/* The nodes of an iio device (iio(4)), in their minors' order. */
enum udrv_iio_node {
	UDRV_IIO_NODE_REGION,		/* iioN */
	UDRV_IIO_NODE_IN,		/* iioN_in */
	UDRV_IIO_NODE_OUT,		/* iioN_out */
	UDRV_IIO_NODE_EVENT,		/* iioN_event, iioN_eventK */
};

/*
 * A node's name (no folder): N of "iioN", "iioN_in", "iioN_out",
 * "iioN_event" or "iioN_eventK" (K 1 to 7, no leading zero), its kind in
 * *@node and K (0 but for iioN_eventK) in *@vector; -1 if @name is none.
 */
long udrv_iio_node_parse(const char *name, enum udrv_iio_node *node,
			 unsigned int *vector);

/*
 * The iio devices under the class folder @class_dir whose name attribute
 * is exactly @name: how many there are (0: none), the first @max of their
 * numbers in @nrs in the folder's order; -errno if @class_dir cannot be
 * read.  Reads the name attributes alone.
 */
long udrv_iio_find_named(const char *class_dir, const char *name, long *nrs,
			 size_t max);

#endif /* UDRV_LOOKUP_H */
