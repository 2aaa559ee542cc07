// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * device.c - the front: open by spec and pick the backend, the identity,
 * and the checks every backend would otherwise repeat (region and vector
 * numbers, widths and alignment, a device already gone)
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"
#include "sigbus.h"

#define STRING(x) #x
#define VERSION(major, minor) STRING(major) "." STRING(minor)

const char *udrv_version(void)
{
	return VERSION(UDRV_VERSION_MAJOR, UDRV_VERSION_MINOR);
}

int udrv_device_open(const char *spec, struct udrv_device **devp)
{
	struct udrv_device *dev;
	int err, i;

	*devp = NULL;
	if (!spec || !*spec)
		return udrv_fail(EINVAL, "no device given (a PCI address, iioN, "
				 "a node path, a name or sim:NAME)");
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return udrv_fail(ENOMEM, "out of memory");
	for (i = 0; i < UDRV_VECTORS_MAX; i++)
		dev->vec[i].fd = -1;
	snprintf(dev->irq_mode, sizeof(dev->irq_mode), "none");
	snprintf(dev->dma_policy, sizeof(dev->dma_policy), "none");
	if (!strncmp(spec, "sim:", 4))
		err = udrv_sim_open(dev, spec + 4);
	else
		err = udrv_iio_open(dev, spec);
	if (err) {
		free(dev);
		return err;
	}
	*devp = dev;
	return 0;
}

void udrv_device_close(struct udrv_device *dev)
{
	struct udrv_dma *dma, *next;
	unsigned int i;

	if (!dev)
		return;
	for (dma = dev->dma_list; dma; dma = next) {
		next = dma->next;
		dev->ops->dma_free(dev, dma);
		free(dma);
	}
	dev->dma_list = NULL;
	for (i = 0; i < UDRV_REGIONS_MAX; i++) {
		struct udrv_region *r = &dev->regions[i];

		if (!r->map)
			continue;
		udrv_sigbus_unwatch((void *)r->map);
		munmap((void *)r->map, r->map_len);
	}
	dev->ops->close(dev);	/* interrupts off before their fds close */
	for (i = 0; i < UDRV_VECTORS_MAX; i++)
		if (dev->vec[i].fd >= 0)
			close(dev->vec[i].fd);
	free(dev);
}

const char *udrv_device_backend(const struct udrv_device *dev)
{
	return dev->ops->name;
}

const char *udrv_device_name(const struct udrv_device *dev)
{
	return dev->name;
}

int udrv_device_pci_id(const struct udrv_device *dev, uint16_t *vendor,
		       uint16_t *device, uint32_t *class_code)
{
	if (!dev->pci)
		return udrv_fail(ENODEV, "%s is not a PCI device", dev->name);
	if (vendor)
		*vendor = dev->vendor;
	if (device)
		*device = dev->device;
	if (class_code)
		*class_code = dev->class_code;
	return 0;
}

const char *udrv_device_irq_mode(const struct udrv_device *dev)
{
	return dev->irq_mode;
}

const char *udrv_device_dma_policy(const struct udrv_device *dev)
{
	return dev->dma_policy;
}

int udrv_device_gone(const struct udrv_device *dev)
{
	return dev->gone;
}

int udrv_device_lost(struct udrv_device *dev, const char *what)
{
	dev->gone = true;
	return udrv_fail(ENODEV, "%s: %s: the device went away", dev->name,
			 what);
}

/* region @i of @dev, or NULL with the message set */
static struct udrv_region *region(const struct udrv_device *dev,
				  unsigned int i)
{
	if (i >= UDRV_REGIONS_MAX || !dev->regions[i].present) {
		udrv_fail(ENOENT, "%s has no region %u", dev->name, i);
		return NULL;
	}
	return (struct udrv_region *)&dev->regions[i];
}

int udrv_region_info(const struct udrv_device *dev, unsigned int i,
		     uint64_t *size, unsigned int *flags)
{
	const struct udrv_region *r = region(dev, i);

	if (!r)
		return -ENOENT;
	if (size)
		*size = r->size;
	if (flags)
		*flags = r->flags;
	return 0;
}

/* the checks of udrv_read() and udrv_write(): 0 or -errno */
static int check_access(const struct udrv_device *dev, unsigned int i,
			uint64_t offset, unsigned int width, const char *op)
{
	const struct udrv_region *r;

	if (dev->gone)
		return udrv_fail(ENODEV, "%s: the device went away", dev->name);
	r = region(dev, i);
	if (!r)
		return -ENOENT;
	if (width != 1 && width != 2 && width != 4 && width != 8)
		return udrv_fail(EINVAL, "%s of width %u: 1, 2, 4 or 8 bytes",
				 op, width);
	if (offset % width)
		return udrv_fail(EINVAL, "%s of %u bytes at 0x%llx: not a "
				 "multiple of the width", op, width,
				 (unsigned long long)offset);
	if (offset >= r->size || r->size - offset < width)
		return udrv_fail(EINVAL, "%s of %u bytes at 0x%llx: past the "
				 "end of region %u (0x%llx bytes)", op, width,
				 (unsigned long long)offset, i,
				 (unsigned long long)r->size);
	return 0;
}

int udrv_read(struct udrv_device *dev, unsigned int i, uint64_t offset,
	      unsigned int width, uint64_t *value)
{
	int err = check_access(dev, i, offset, width, "read");

	return err ? err : dev->ops->read(dev, i, offset, width, value);
}

int udrv_write(struct udrv_device *dev, unsigned int i, uint64_t offset,
	       unsigned int width, uint64_t value)
{
	int err = check_access(dev, i, offset, width, "write");

	if (err)
		return err;
	if (width < 8 && value >> (8 * width))
		return udrv_fail(EINVAL, "write of 0x%llx: wider than %u bytes",
				 (unsigned long long)value, width);
	return dev->ops->write(dev, i, offset, width, value);
}

int udrv_region_map(struct udrv_device *dev, unsigned int i,
		    volatile void **addr, size_t *len)
{
	struct udrv_region *r = region(dev, i);
	void *p;
	size_t n;
	int err;

	if (!r)
		return -ENOENT;
	if (dev->gone)
		return udrv_fail(ENODEV, "%s: the device went away", dev->name);
	if (!r->map) {
		if (!(r->flags & UDRV_REGION_MAPPABLE))
			return udrv_fail(ENODEV, "%s: region %u cannot be "
					 "mapped (I/O ports, or not on a page "
					 "boundary)", dev->name, i);
		err = dev->ops->map(dev, i, &p, &n);
		if (err)
			return err;
		r->map = p;
		r->map_len = n;
	}
	*addr = r->map;
	if (len)
		*len = r->map_len;
	return 0;
}

int udrv_vector_count(const struct udrv_device *dev)
{
	return (int)dev->vectors;
}

/* vector @v of @dev, its fd opened; NULL with *@err (-errno) set */
static struct udrv_vector *vector(struct udrv_device *dev, unsigned int v,
				  int *err)
{
	if (v >= dev->vectors) {
		*err = udrv_fail(ENOENT, "%s has no vector %u (it has %u)",
				 dev->name, v, dev->vectors);
		return NULL;
	}
	if (dev->vec[v].fd < 0 && dev->gone) {
		*err = udrv_fail(ENODEV, "%s: the device went away",
				 dev->name);
		return NULL;
	}
	if (dev->vec[v].fd < 0) {
		int fd = dev->ops->event_fd(dev, v);

		if (fd < 0) {
			*err = fd;
			return NULL;
		}
		dev->vec[v].fd = fd;
	}
	return &dev->vec[v];
}

int udrv_event_fd(struct udrv_device *dev, unsigned int v)
{
	int err;
	struct udrv_vector *vec = vector(dev, v, &err);

	return vec ? vec->fd : err;
}

int64_t udrv_event_consume(struct udrv_device *dev, unsigned int v)
{
	int err;
	struct udrv_vector *vec = vector(dev, v, &err);
	int64_t n;

	if (!vec)
		return err;
	if (dev->gone)
		return udrv_fail(ENODEV, "%s: the device went away", dev->name);
	n = dev->ops->event_consume(dev, v);
	if (n > 0) {
		vec->total += n;
		vec->merged += n - 1;
	}
	return n;
}

int64_t udrv_event_wait(struct udrv_device *dev, unsigned int v,
			int timeout_ms)
{
	int err, ret;
	struct udrv_vector *vec = vector(dev, v, &err);
	struct pollfd pfd;
	int64_t n;

	if (!vec)
		return err;
	if (dev->gone)
		return udrv_fail(ENODEV, "%s: the device went away", dev->name);
	/* poll first: with an event pending it returns at once, so that a
	 * wait costs a poll and a read, the least the nodes allow */
	pfd = (struct pollfd){ .fd = vec->fd, .events = POLLIN };
	for (;;) {
		ret = poll(&pfd, 1, timeout_ms);
		if (ret < 0)
			return udrv_fail(errno, "%s: waiting on vector %u: %s",
					 dev->name, v, strerror(errno));
		if (!ret)
			return 0;
		if (pfd.revents & (POLLERR | POLLHUP | POLLNVAL))
			return udrv_device_lost(dev, "waiting for an event");
		n = udrv_event_consume(dev, v);
		if (n)
			return n;
		/* POLLIN but nothing new to consume (another reader took
		 * it): wait again, the timeout not restarted */
	}
}

uint64_t udrv_event_merged(const struct udrv_device *dev, unsigned int v)
{
	return v < dev->vectors ? dev->vec[v].merged : 0;
}

int udrv_event_unmask(struct udrv_device *dev, unsigned int v)
{
	int err;

	if (!vector(dev, v, &err))
		return err;
	/* only INTx is masked by the interrupt, and only vector 0 is INTx */
	if (v || strcmp(dev->irq_mode, "intx") || !dev->ops->event_unmask)
		return 0;
	if (dev->gone)
		return udrv_fail(ENODEV, "%s: the device went away", dev->name);
	return dev->ops->event_unmask(dev, v);
}

int udrv_dma_alloc(struct udrv_device *dev, size_t size,
		   struct udrv_dma **dmap)
{
	struct udrv_dma *dma;
	int err;

	*dmap = NULL;
	if (dev->gone)
		return udrv_fail(ENODEV, "%s: the device went away", dev->name);
	if (!size)
		return udrv_fail(EINVAL, "a DMA buffer of 0 bytes");
	if (!dev->ops->dma_alloc)
		return udrv_fail(EOPNOTSUPP, "%s does no DMA", dev->name);
	dma = calloc(1, sizeof(*dma));
	if (!dma)
		return udrv_fail(ENOMEM, "out of memory");
	dma->dev = dev;
	err = dev->ops->dma_alloc(dev, dma, size);
	if (err) {
		free(dma);
		return err;
	}
	dev->dma_count++;
	dma->next = dev->dma_list;
	dev->dma_list = dma;
	*dmap = dma;
	return 0;
}

void udrv_dma_free(struct udrv_dma *dma)
{
	struct udrv_dma **p;

	if (!dma)
		return;
	for (p = &dma->dev->dma_list; *p != dma; p = &(*p)->next)
		;
	*p = dma->next;
	dma->dev->ops->dma_free(dma->dev, dma);
	dma->dev->dma_count--;
	free(dma);
}

void *udrv_dma_addr(const struct udrv_dma *dma)
{
	return dma->addr;
}

uint64_t udrv_dma_bus_addr(const struct udrv_dma *dma)
{
	return dma->bus;
}

size_t udrv_dma_size(const struct udrv_dma *dma)
{
	return dma->size;
}

unsigned int udrv_dma_outstanding(const struct udrv_device *dev)
{
	return dev->dma_count;
}
