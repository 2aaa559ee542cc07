/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * internal.h - what the front (device.c) and the backends (iio.c, vfio.c,
 * sim.c) share; nothing here is exported (udrv.map)
 */
#ifndef UDRV_INTERNAL_H
#define UDRV_INTERNAL_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "udrv.h"

#define UDRV_VECTORS_MAX	8
#define UDRV_DMA_MAX		64	/* buffers per device at once */

/* udrv_fail(): set this thread's message; returns -@err */
__attribute__((format(printf, 2, 3)))
int udrv_fail(int err, const char *fmt, ...);

struct udrv_region {
	bool present;
	uint64_t size;
	unsigned int flags;		/* UDRV_REGION_* */
	volatile void *map;		/* udrv_region_map()'s, or NULL */
	size_t map_len;
	void *priv;			/* the backend's */
};

struct udrv_vector {
	int fd;				/* pollable; -1 until asked for */
	uint64_t total, merged;		/* consumed events; merged ones */
	uint32_t last;			/* iio: the count last read */
};

struct udrv_dma {
	struct udrv_device *dev;
	void *addr;
	uint64_t bus;
	size_t size;
	long priv;			/* the backend's (iio: dmaK) */
	bool requested;			/* iio: dma_request made it, so
					 * udrv_dma_free() gives it back */
	struct udrv_dma *next;		/* the device's list */
};

/* a backend: each operation returns 0 / a count, or -errno via udrv_fail */
struct udrv_ops {
	const char *name;
	void (*close)(struct udrv_device *dev);
	int (*read)(struct udrv_device *dev, unsigned int region,
		    uint64_t offset, unsigned int width, uint64_t *value);
	int (*write)(struct udrv_device *dev, unsigned int region,
		     uint64_t offset, unsigned int width, uint64_t value);
	/* map region and watch it (udrv_sigbus_watch()) */
	int (*map)(struct udrv_device *dev, unsigned int region, void **addr,
		   size_t *len);
	/* open vector's pollable fd */
	int (*event_fd)(struct udrv_device *dev, unsigned int vector);
	/* new events of vector since the last consume (no waiting) */
	int64_t (*event_consume)(struct udrv_device *dev, unsigned int vector);
	int (*event_unmask)(struct udrv_device *dev, unsigned int vector);
	int (*dma_alloc)(struct udrv_device *dev, struct udrv_dma *dma,
			 size_t size);
	void (*dma_free)(struct udrv_device *dev, struct udrv_dma *dma);
};

struct udrv_device {
	const struct udrv_ops *ops;
	char name[64];
	bool pci;
	uint16_t vendor, device;
	uint32_t class_code;
	char irq_mode[16];
	char dma_policy[32];
	volatile bool gone;		/* set by the SIGBUS handler too */
	struct udrv_region regions[UDRV_REGIONS_MAX];
	unsigned int vectors;
	struct udrv_vector vec[UDRV_VECTORS_MAX];
	unsigned int dma_count;
	struct udrv_dma *dma_list;	/* freed by udrv_device_close() */
	void *priv;			/* the backend's */
};

/* backends: open @spec (already classified) into @dev */
extern const struct udrv_ops udrv_iio_ops, udrv_vfio_ops, udrv_sim_ops;
int udrv_iio_open(struct udrv_device *dev, const char *spec);
int udrv_vfio_open(struct udrv_device *dev, const char *addr);
int udrv_sim_open(struct udrv_device *dev, const char *name);

/* a PCI function in sysfs (pci.c) */
#define UDRV_PCI_DEVICES	"/sys/bus/pci/devices"
int udrv_pci_attr_num(const char *addr, const char *attr, uint64_t *v);
/* the name, vendor, device and class of @dev from PCI function @addr */
void udrv_pci_identify(struct udrv_device *dev, const char *addr);
/* the driver @addr is bound to, into @drv ("" if none) */
void udrv_pci_driver(const char *addr, char *drv, size_t len);
/* BAR @bar's start and IORESOURCE_ flags: 0, or -1 if it has none */
int udrv_pci_bar(const char *addr, unsigned int bar, uint64_t *start,
		 uint64_t *flags);

/* sysfs helpers (sysfs.c) */
int udrv_read_text(const char *path, char *buf, size_t len);
int udrv_write_text(const char *path, const char *text);
int udrv_read_number(const char *path, uint64_t *value);

/* the device is gone: remember, and say so (-ENODEV) */
int udrv_device_lost(struct udrv_device *dev, const char *what);

#endif /* UDRV_INTERNAL_H */
