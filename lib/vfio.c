// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfio.c - the backend of mainline vfio-pci, through the VFIO group and
 * container API (every kernel from 4.x to today has it; Debian 12's 6.1
 * has nothing else): the device's IOMMU group is attached to a type1
 * container of its own, the BARs are regions of the device file (pread,
 * pwrite, mmap at each region's offset), interrupts are eventfds set with
 * VFIO_DEVICE_SET_IRQS (MSI-X, else MSI, else INTx, as iio_pci_generic
 * picks), and DMA buffers are anonymous memory mapped into the container
 * at I/O virtual addresses of our choosing, from 1 MiB up (below the
 * device's DMA mask, even a 28-bit one like edu's).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/vfio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "access.h"
#include "internal.h"
#include "sigbus.h"
#include "lookup.h"

#define IORESOURCE_MEM	0x200	/* a BAR's flags in sysfs (linux/ioport.h) */
#define IOVA_BASE	0x100000ull
#define PCI_COMMAND	0x04
#define PCI_COMMAND_MASTER 0x4

struct vfio_dev {
	int container, group, device;
	uint64_t offset[UDRV_REGIONS_MAX];	/* each BAR in the device file */
	uint64_t config;			/* config space's offset */
	unsigned int irq_index;			/* VFIO_PCI_*_IRQ_INDEX */
};

static struct vfio_dev *priv(const struct udrv_device *dev)
{
	return dev->priv;
}

/* the group's node: /dev/vfio/G, or /dev/vfio/noiommu-G */
static int open_group(struct udrv_device *dev, const char *addr)
{
	char path[PATH_MAX], g[32], node[64];
	int fd, err;

	snprintf(path, sizeof(path), UDRV_PCI_DEVICES "/%s/iommu_group", addr);
	err = udrv_link_name(path, g, sizeof(g));
	if (err)
		return udrv_fail(ENODEV, "%s has no IOMMU group (%s: %s): boot "
				 "with an IOMMU (intel_iommu=on) for vfio-pci",
				 addr, path, strerror(-err));
	snprintf(node, sizeof(node), "/dev/vfio/%s", g);
	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		snprintf(node, sizeof(node), "/dev/vfio/noiommu-%s", g);
		fd = open(node, O_RDWR | O_CLOEXEC);
		if (fd >= 0)
			snprintf(dev->dma_policy, sizeof(dev->dma_policy), "noiommu");
	}
	if (fd < 0)
		return udrv_fail(errno, "%s: /dev/vfio/%s: %s%s", addr, g,
				 strerror(errno), errno == EBUSY ?
				 " (another process has the group open)" : "");
	return fd;
}

static int container_setup(struct udrv_device *dev, struct vfio_dev *p)
{
	struct vfio_group_status status = { .argsz = sizeof(status) };
	int type = strcmp(dev->dma_policy, "noiommu") ? VFIO_TYPE1v2_IOMMU :
		   VFIO_NOIOMMU_IOMMU;

	p->container = open("/dev/vfio/vfio", O_RDWR | O_CLOEXEC);
	if (p->container < 0)
		return udrv_fail(errno, "/dev/vfio/vfio: %s (is vfio loaded?)",
				 strerror(errno));
	if (ioctl(p->container, VFIO_GET_API_VERSION) != VFIO_API_VERSION)
		return udrv_fail(EINVAL, "/dev/vfio/vfio: unknown VFIO API");
	if (ioctl(p->container, VFIO_CHECK_EXTENSION, type) <= 0)
		return udrv_fail(EOPNOTSUPP, "/dev/vfio/vfio: no %s IOMMU",
				 type == VFIO_NOIOMMU_IOMMU ? "no-IOMMU" :
				 "type1v2");
	if (ioctl(p->group, VFIO_GROUP_GET_STATUS, &status))
		return udrv_fail(errno, "%s: VFIO_GROUP_GET_STATUS: %s",
				 dev->name, strerror(errno));
	if (!(status.flags & VFIO_GROUP_FLAGS_VIABLE))
		return udrv_fail(EBUSY, "%s: its IOMMU group is not viable: "
				 "bind every device of the group to vfio-pci or "
				 "to no driver (ls /sys/bus/pci/devices/%s/"
				 "iommu_group/devices)", dev->name, dev->name);
	if (ioctl(p->group, VFIO_GROUP_SET_CONTAINER, &p->container))
		return udrv_fail(errno, "%s: VFIO_GROUP_SET_CONTAINER: %s",
				 dev->name, strerror(errno));
	if (ioctl(p->container, VFIO_SET_IOMMU, type))
		return udrv_fail(errno, "%s: VFIO_SET_IOMMU: %s", dev->name,
				 strerror(errno));
	if (type == VFIO_TYPE1v2_IOMMU)
		snprintf(dev->dma_policy, sizeof(dev->dma_policy), "iommu");
	return 0;
}

static int regions_setup(struct udrv_device *dev, struct vfio_dev *p)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t start, flags;
	unsigned int i;

	for (i = 0; i <= VFIO_PCI_CONFIG_REGION_INDEX; i++) {
		struct vfio_region_info info = {
			.argsz = sizeof(info), .index = i,
		};

		if (ioctl(p->device, VFIO_DEVICE_GET_REGION_INFO, &info))
			return udrv_fail(errno, "%s: region %u: %s", dev->name,
					 i, strerror(errno));
		if (i == VFIO_PCI_CONFIG_REGION_INDEX) {
			p->config = info.offset;
			break;
		}
		if (i >= UDRV_REGIONS_MAX || !info.size)
			continue;
		dev->regions[i].present = true;
		dev->regions[i].size = info.size;
		p->offset[i] = info.offset;
		if (!udrv_pci_bar(dev->name, i, &start, &flags) &&
		    flags & IORESOURCE_MEM)
			dev->regions[i].flags = UDRV_REGION_MEM;
		if (info.flags & VFIO_REGION_INFO_FLAG_MMAP &&
		    info.size >= (uint64_t)page)
			dev->regions[i].flags |= UDRV_REGION_MAPPABLE;
	}
	return 0;
}

/* MSI-X (up to UDRV_VECTORS_MAX), else MSI (one), else INTx: eventfds */
static int irqs_setup(struct udrv_device *dev, struct vfio_dev *p)
{
	static const struct {
		unsigned int index;
		const char *mode;
	} modes[] = {
		{ VFIO_PCI_MSIX_IRQ_INDEX, "msix" },
		{ VFIO_PCI_MSI_IRQ_INDEX, "msi" },
		{ VFIO_PCI_INTX_IRQ_INDEX, "intx" },
	};
	char buf[sizeof(struct vfio_irq_set) + UDRV_VECTORS_MAX * sizeof(int)];
	struct vfio_irq_set *set = (struct vfio_irq_set *)buf;
	unsigned int m, v, count = 0;
	int *fds = (int *)set->data;

	for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		struct vfio_irq_info info = {
			.argsz = sizeof(info), .index = modes[m].index,
		};

		if (ioctl(p->device, VFIO_DEVICE_GET_IRQ_INFO, &info) ||
		    !info.count)
			continue;
		count = info.count;
		if (modes[m].index == VFIO_PCI_MSI_IRQ_INDEX)
			count = 1;
		if (count > UDRV_VECTORS_MAX)
			count = UDRV_VECTORS_MAX;
		break;
	}
	if (!count)
		return 0;	/* no interrupt: no vectors */
	for (v = 0; v < count; v++) {
		dev->vec[v].fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (dev->vec[v].fd < 0)
			return udrv_fail(errno, "eventfd: %s", strerror(errno));
		fds[v] = dev->vec[v].fd;
	}
	*set = (struct vfio_irq_set){
		.argsz = sizeof(*set) + count * sizeof(int),
		.flags = VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER,
		.index = modes[m].index,
		.count = count,
	};
	if (ioctl(p->device, VFIO_DEVICE_SET_IRQS, set))
		return udrv_fail(errno, "%s: %s interrupts: %s", dev->name,
				 modes[m].mode, strerror(errno));
	p->irq_index = modes[m].index;
	dev->vectors = count;
	snprintf(dev->irq_mode, sizeof(dev->irq_mode), "%s", modes[m].mode);
	return 0;
}

/* bus mastering on, in the command register (vfio leaves it to us) */
static int master_on(struct udrv_device *dev, struct vfio_dev *p)
{
	uint16_t cmd;

	if (pread(p->device, &cmd, 2, (off_t)(p->config + PCI_COMMAND)) != 2)
		return udrv_fail(errno, "%s: reading the command register: %s",
				 dev->name, strerror(errno));
	if (cmd & PCI_COMMAND_MASTER)
		return 0;
	cmd |= PCI_COMMAND_MASTER;
	if (pwrite(p->device, &cmd, 2, (off_t)(p->config + PCI_COMMAND)) != 2)
		return udrv_fail(errno, "%s: bus mastering on: %s", dev->name,
				 strerror(errno));
	return 0;
}

int udrv_vfio_open(struct udrv_device *dev, const char *addr)
{
	struct vfio_dev *p;
	int err;

	dev->ops = &udrv_vfio_ops;
	p = calloc(1, sizeof(*p));
	if (!p)
		return udrv_fail(ENOMEM, "out of memory");
	p->container = p->group = p->device = -1;
	dev->priv = p;
	udrv_pci_identify(dev, addr);
	p->group = open_group(dev, addr);
	err = p->group < 0 ? p->group : container_setup(dev, p);
	if (!err) {
		p->device = ioctl(p->group, VFIO_GROUP_GET_DEVICE_FD, addr);
		if (p->device < 0)
			err = udrv_fail(errno, "%s: VFIO_GROUP_GET_DEVICE_FD: %s",
					addr, strerror(errno));
	}
	if (!err)
		err = regions_setup(dev, p);
	if (!err)
		err = irqs_setup(dev, p);
	if (!err)
		err = master_on(dev, p);
	if (err)
		udrv_vfio_ops.close(dev);
	return err;
}

static void vfio_close(struct udrv_device *dev)
{
	struct vfio_dev *p = priv(dev);
	unsigned int v;

	if (!p)
		return;
	if (dev->vectors) {
		struct vfio_irq_set set = {
			.argsz = sizeof(set),
			.flags = VFIO_IRQ_SET_DATA_NONE |
				 VFIO_IRQ_SET_ACTION_TRIGGER,
			.index = p->irq_index,
		};

		ioctl(p->device, VFIO_DEVICE_SET_IRQS, &set);
	}
	for (v = 0; v < UDRV_VECTORS_MAX; v++)
		if (dev->vec[v].fd >= 0) {
			close(dev->vec[v].fd);
			dev->vec[v].fd = -1;
		}
	if (p->device >= 0)
		close(p->device);
	if (p->group >= 0)
		close(p->group);
	if (p->container >= 0)
		close(p->container);
	free(p);
	dev->priv = NULL;
}

static int vfio_failed(struct udrv_device *dev, const char *what,
		       unsigned int i, uint64_t offset, ssize_t n)
{
	if (n >= 0)
		return udrv_fail(EIO, "%s: %s of region %u at 0x%llx: short",
				 dev->name, what, i,
				 (unsigned long long)offset);
	if (errno == ENODEV || errno == EIO)
		return udrv_device_lost(dev, what);
	return udrv_fail(errno, "%s: %s of region %u at 0x%llx: %s",
			 dev->name, what, i, (unsigned long long)offset,
			 strerror(errno));
}

/*
 * vfio-pci does an aligned pread/pwrite of 1, 2 or 4 bytes as one access,
 * but 8 bytes as two of 4 before Linux 6.10: an 8-byte access goes through
 * the region's mapping where there is one (one 64-bit load or store).
 */
static volatile uint64_t *reg64(struct udrv_device *dev, unsigned int i,
				uint64_t offset)
{
	volatile void *p;

	if (!(dev->regions[i].flags & UDRV_REGION_MAPPABLE) ||
	    udrv_region_map(dev, i, &p, NULL))
		return NULL;
	return (volatile uint64_t *)((volatile char *)p + offset);
}

static int vfio_read(struct udrv_device *dev, unsigned int i,
		     uint64_t offset, unsigned int width, uint64_t *value)
{
	const volatile uint64_t *r = width == 8 ? reg64(dev, i, offset) : NULL;
	ssize_t n;

	if (r) {
		*value = udrv_load(r, 8);
		return dev->gone ? udrv_device_lost(dev, "read") : 0;
	}
	n = udrv_pread_value(priv(dev)->device, priv(dev)->offset[i] + offset,
			     width, value);
	if (n != (ssize_t)width)
		return vfio_failed(dev, "read", i, offset, n);
	return 0;
}

static int vfio_write(struct udrv_device *dev, unsigned int i,
		      uint64_t offset, unsigned int width, uint64_t value)
{
	volatile uint64_t *r = width == 8 ? reg64(dev, i, offset) : NULL;
	ssize_t n;

	if (r) {
		udrv_store(r, 8, value);
		return dev->gone ? udrv_device_lost(dev, "write") : 0;
	}
	n = udrv_pwrite_value(priv(dev)->device,
			      priv(dev)->offset[i] + offset, width, value);
	if (n != (ssize_t)width)
		return vfio_failed(dev, "write", i, offset, n);
	return 0;
}

static int vfio_map(struct udrv_device *dev, unsigned int i, void **addr,
		    size_t *len)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t n = (dev->regions[i].size + page - 1) / page * page;
	void *m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED,
		       priv(dev)->device, (off_t)priv(dev)->offset[i]);
	int err;

	if (m == MAP_FAILED)
		return udrv_fail(errno, "%s: mmap of region %u: %s", dev->name,
				 i, strerror(errno));
	err = udrv_sigbus_watch(m, n, -1, NULL, &dev->gone);
	if (err) {
		munmap(m, n);
		return err;
	}
	*addr = m;
	*len = n;
	return 0;
}

/* the eventfds exist from the open on */
static int vfio_event_fd(struct udrv_device *dev, unsigned int v)
{
	return udrv_fail(EBADF, "%s: vector %u has no eventfd", dev->name, v);
}

static int64_t vfio_event_consume(struct udrv_device *dev, unsigned int v)
{
	uint64_t n;

	if (read(dev->vec[v].fd, &n, sizeof(n)) == sizeof(n))
		return (int64_t)n;
	if (errno == EAGAIN || errno == EINTR)
		return 0;
	return udrv_fail(errno, "%s: reading vector %u: %s", dev->name, v,
			 strerror(errno));
}

/* VFIO masks INTx at each interrupt; it is unmasked by the user */
static int vfio_event_unmask(struct udrv_device *dev, unsigned int v)
{
	struct vfio_irq_set set = {
		.argsz = sizeof(set),
		.flags = VFIO_IRQ_SET_DATA_NONE | VFIO_IRQ_SET_ACTION_UNMASK,
		.index = VFIO_PCI_INTX_IRQ_INDEX,
		.start = v,
		.count = 1,
	};

	if (ioctl(priv(dev)->device, VFIO_DEVICE_SET_IRQS, &set))
		return udrv_fail(errno, "%s: unmasking INTx: %s", dev->name,
				 strerror(errno));
	return 0;
}

/*
 * The lowest I/O virtual address from IOVA_BASE where @n bytes overlap
 * none of the device's buffers: a freed buffer's addresses are used
 * again, so that a program that allocates and frees in a loop while
 * holding other buffers stays below the device's DMA mask.
 */
static uint64_t iova_find(const struct udrv_device *dev, size_t n)
{
	const struct udrv_dma *d;
	uint64_t at = IOVA_BASE;
	bool moved;

	do {
		moved = false;
		for (d = dev->dma_list; d; d = d->next)
			if (at < d->bus + d->size && d->bus < at + n) {
				at = d->bus + d->size;
				moved = true;
			}
	} while (moved);
	return at;
}

static int vfio_dma_alloc(struct udrv_device *dev, struct udrv_dma *dma,
			  size_t size)
{
	long page = sysconf(_SC_PAGESIZE);
	struct vfio_dev *p = priv(dev);
	struct vfio_iommu_type1_dma_map map = { .argsz = sizeof(map) };
	size_t n = (size + page - 1) / page * page;
	void *m;

	if (size > 1ull << 30)
		return udrv_fail(EINVAL, "a DMA buffer of %zu bytes: at most "
				 "1 GiB", size);
	if (!strcmp(dev->dma_policy, "noiommu"))
		return udrv_fail(EOPNOTSUPP, "%s: vfio's no-IOMMU mode has no "
				 "DMA mapping; use the iio backend's "
				 "dma_request instead", dev->name);
	m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (m == MAP_FAILED)
		return udrv_fail(errno, "a DMA buffer of %zu bytes: %s", n,
				 strerror(errno));
	memset(m, 0, n);	/* every page present before it is pinned */
	map.vaddr = (uintptr_t)m;
	map.iova = iova_find(dev, n);
	map.size = n;
	map.flags = VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE;
	if (ioctl(p->container, VFIO_IOMMU_MAP_DMA, &map)) {
		int err = errno;

		munmap(m, n);
		return udrv_fail(err, "%s: mapping %zu bytes for DMA: %s%s",
				 dev->name, n, strerror(err), err == ENOMEM ?
				 " (the locked-memory limit, ulimit -l?)" : "");
	}
	dma->addr = m;
	dma->bus = map.iova;
	dma->size = n;
	return 0;
}

static void vfio_dma_free(struct udrv_device *dev, struct udrv_dma *dma)
{
	struct vfio_iommu_type1_dma_unmap unmap = {
		.argsz = sizeof(unmap), .iova = dma->bus, .size = dma->size,
	};

	ioctl(priv(dev)->container, VFIO_IOMMU_UNMAP_DMA, &unmap);
	munmap(dma->addr, dma->size);
}

const struct udrv_ops udrv_vfio_ops = {
	.name = "vfio",
	.close = vfio_close,
	.read = vfio_read,
	.write = vfio_write,
	.map = vfio_map,
	.event_fd = vfio_event_fd,
	.event_consume = vfio_event_consume,
	.event_unmask = vfio_event_unmask,
	.dma_alloc = vfio_dma_alloc,
	.dma_free = vfio_dma_free,
};
