/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * device.h - the devices under the sysfs class folder, DEV arguments and
 * the device nodes
 */
#ifndef IIOCTL_DEVICE_H
#define IIOCTL_DEVICE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

/* The nodes of a device, in minor order (kmod/iio_uapi.h). */
enum iio_node {
	NODE_REGION = 0,
	NODE_IN = 1,
	NODE_OUT = 2,
	NODE_EVENT = 3,
	NODE_DMA = 4,		/* a DMA buffer's sysfs file, not a minor */
	NODE_NONE = -1,		/* not chosen */
};

struct iio_window {
	bool present;
	uint64_t offset, len;
};

/* A part of a region the kernel keeps (the MSI-X table, the PBA). */
struct iio_reserved {
	uint64_t offset, len;
};
#define DEVICE_RESERVED_MAX	2	/* kmod/iio.h's IIO_MAX_RESERVED */

/* What sysfs says about one device. */
struct iio_device_info {
	unsigned nr;
	char label[16];			/* "iioN" */
	char name[256];
	char version[64];
	char type[16];			/* mem or port */
	char irq[32];			/* a number, cyclic, oneshot, none */
	char dev[32];			/* MAJ:MIN */
	char parent[256];		/* the device symlink's target name */
	char subsystem[64];		/* the parent's bus, or "" */
	uint64_t physaddr, size;
	uint64_t events, listeners;
	uint64_t vectors;		/* event vectors (nodes), at least 1 */
	uint64_t dma_buffers;		/* dma0/, dma1/, ... that exist */
	struct iio_window in, out;
	/* sysfs reserved: never mapped, accessed by pread/pwrite instead */
	struct iio_reserved reserved[DEVICE_RESERVED_MAX];
	unsigned nreserved;
};

/* Most DMA buffers and event vectors of a device (kmod/iio.h, iio_uapi.h) */
#define DEVICE_DMA_MAX		4
#define DEVICE_VECTORS_MAX	8

/* Roots: --sysfs / $IIOCTL_SYSFS, --dev / $IIOCTL_DEV. */
void device_set_roots(const char *sysfs, const char *dev);
const char *device_sysfs_root(void);

/*
 * Every device, sorted by number.  The list is read once and kept;
 * device_list_fresh() rereads.
 */
size_t device_list(const struct iio_device_info **devs);
size_t device_list_fresh(const struct iio_device_info **devs);

/* The result of resolving a DEV argument. */
struct iio_target {
	const struct iio_device_info *dev;
	enum iio_node node;		/* from a path's suffix, or NODE_NONE */
	char path[PATH_MAX];		/* the path given, or "" */
};

/*
 * DEV: iioN, N, a path to a node (its suffix picks the node; a character
 * device is identified by its minor), a PCI address ([DDDD:]BB:DD.F[/barN]:
 * the device whose parent it is, in BAR N), or an exact device name.  Dies with
 * status 2, listing the devices, when DEV matches none or several.  Unless
 * the list has been read, iioN, N and a node path read that device alone
 * and a name every device's name alone; what is read is kept.
 */
void device_resolve(const char *arg, struct iio_target *t);

/*
 * @ADDR[...]: the device whose region holds physical address ADDR (the
 * number after '@', up to a ':' or the end), as DEV's node NODE_REGION;
 * *offset is ADDR's offset in the region.  Only I/O memory has physical
 * addresses: a mem region whose physaddr is not 0 (iio(4): the dummy's 0
 * is informational, a port region's the first port).  Dies with status 2
 * on a bad number or an address no region holds.
 */
void device_resolve_address(const char *arg, struct iio_target *t,
			    uint64_t *offset);

/*
 * The PCI device a device's region belongs to (its parent's vendor,
 * device and class files) and the BAR holding the region (-1 if none
 * does); false if the parent is not a PCI device or lacks those files.
 */
struct iio_pci_id {
	unsigned vendor, device, class;
};
bool device_pci_id(const struct iio_device_info *dev, struct iio_pci_id *id);

/*
 * The BAR of dev's PCI parent (its resource file) that holds its
 * physaddr, or -1; dies if the file cannot be read.
 */
int device_pci_bar(const struct iio_device_info *dev);

/* The event node of a target: the path given, or the usual one. */
void target_event_path(const struct iio_target *t, char *buf, size_t size);

/* Whether the device has an event source (irq is not "none"). */
bool device_has_events(const struct iio_device_info *dev);

/* The event attribute, read now (not the listed value). */
uint32_t device_event_count(const struct iio_device_info *dev);

/*
 * DMA buffer K (sysfs dmaK/): its size; false if absent.  Reads nothing
 * else: the buffer's users need no more (bus_addr is root's alone).
 */
bool device_dma_size(const struct iio_device_info *dev, unsigned k,
		     uint64_t *size);
/*
 * Its bus address: false if it cannot be read for want of permission
 * (mode 0400: iio(4)); dies on any other failure.
 */
bool device_dma_bus_addr(const struct iio_device_info *dev, unsigned k,
			 uint64_t *bus_addr);
/* SYSFS/iioN/dmaK/FILE ("buffer", "size", ...) */
void dma_path(const struct iio_device_info *dev, unsigned k,
	      const char *file, char *buf, size_t size);
/* SYSFS/iioN/ATTR (an attribute, or a folder such as "dma0") */
void device_attr_path(const struct iio_device_info *dev, const char *attr,
		      char *buf, size_t size);

/* The event node of vector K: /dev/iioN_event (K 0) or /dev/iioN_eventK. */
void vector_event_path(const struct iio_device_info *dev, unsigned k,
		       char *buf, size_t size);
/* The event count of vector K, read now. */
uint32_t device_vector_event_count(const struct iio_device_info *dev,
				   unsigned k);

/* The window of a node: in, out or the whole region. */
struct iio_window device_window(const struct iio_device_info *dev,
				enum iio_node node);
/* "/dev/iioN", "/dev/iioN_in", ... under the --dev root. */
void node_path(const struct iio_device_info *dev, enum iio_node node,
	       char *buf, size_t size);
const char *node_suffix(enum iio_node node);

/*
 * open() through a small cache keyed by path and flags, so batch keeps
 * its nodes open from line to line; -1 and errno on failure.
 */
int node_open(const char *path, int flags);

#endif
