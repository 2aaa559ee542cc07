// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * iio.c - the backend of the iio framework (iio(4)): a PCI function bound
 * to an iio stub is one iio device per BAR (/dev/iioN, found under
 * /sys/bus/pci/devices/ADDR/iio/ and matched to its BAR by address); a
 * device without PCI (the dummy) is region 0 alone.  Events and DMA
 * buffers are those of the device of the lowest BAR with an event source
 * (iio_pci_generic(4) gives them to that one), else of the lowest BAR.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <unistd.h>

#include "access.h"
#include "internal.h"
#include "sigbus.h"
#include "lookup.h"

#define IIO_CLASS	"/sys/class/iio"
#define IIO_DMA_BUFFERS	4	/* dma0..dma3 (iio(4) DMA BUFFERS) */

struct iio_region {
	int nr;				/* iioN */
	int fd;				/* /dev/iioN, -1 until used */
};

struct iio_dev {
	struct iio_region region[UDRV_REGIONS_MAX];
	int primary;			/* iioN of events and DMA */
	bool unmask;			/* the stub unmasks INTx on write */
	unsigned int dma_used;		/* bit K: dmaK is one of ours */
};

static struct iio_dev *priv(const struct udrv_device *dev)
{
	return dev->priv;
}

/* IIO_CLASS/iio@nr/@attr into @buf */
static int iio_attr(int nr, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), IIO_CLASS "/iio%d/%s", nr, attr);
	return udrv_read_text(path, buf, len);
}

static int iio_attr_num(int nr, const char *attr, uint64_t *v)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), IIO_CLASS "/iio%d/%s", nr, attr);
	return udrv_read_number(path, v);
}

/*
 * iioN, or N of /dev/iioN, /dev/iioN_in, _out, _event or _eventK (a node
 * of its), else -1
 */
static int parse_iio(const char *s)
{
	enum udrv_iio_node node;
	unsigned int vector;

	if (!strncmp(s, "/dev/", 5))
		return (int)udrv_iio_node_parse(s + 5, &node, &vector);
	return (int)udrv_iio_label_parse(s);
}

/* the iio device named exactly @name: its number, or -errno */
static int find_by_name(const char *name)
{
	long nr = -1, found = udrv_iio_find_named(IIO_CLASS, name, &nr, 1);

	if (found < 0)
		return udrv_fail(ENOENT, "no device \"%s\": %s: %s (is iio.ko "
				 "loaded?)", name, IIO_CLASS,
				 strerror((int)-found));
	if (found > 1)
		return udrv_fail(EINVAL, "%ld iio devices are named \"%s\"; "
				 "give iioN or the PCI address", found, name);
	if (!found)
		return udrv_fail(ENOENT, "no device \"%s\": not a PCI address, "
				 "iioN, node or iio device name", name);
	return (int)nr;
}

/* the PCI function iio device @nr belongs to, into @addr; else false */
static bool parent_pci(int nr, char *addr, size_t len)
{
	char path[PATH_MAX], subsystem[16];

	snprintf(path, sizeof(path), IIO_CLASS "/iio%d/device/subsystem", nr);
	if (udrv_link_name(path, subsystem, sizeof(subsystem)) ||
	    strcmp(subsystem, "pci"))
		return false;
	snprintf(path, sizeof(path), IIO_CLASS "/iio%d/device", nr);
	return !udrv_link_name(path, addr, len);
}

/* iio device @nr as region @i of @dev */
static int add_region(struct udrv_device *dev, unsigned int i, int nr)
{
	struct udrv_region *r = &dev->regions[i];
	long page = sysconf(_SC_PAGESIZE);
	uint64_t physaddr;
	char type[16];
	int err;

	err = iio_attr_num(nr, "size", &r->size);
	if (!err)
		err = iio_attr_num(nr, "physaddr", &physaddr);
	if (!err)
		err = iio_attr(nr, "type", type, sizeof(type));
	if (err)
		return err;
	r->present = true;
	if (!strcmp(type, "mem")) {
		r->flags = UDRV_REGION_MEM;
		if (!(physaddr % page))
			r->flags |= UDRV_REGION_MAPPABLE;
	}
	priv(dev)->region[i] = (struct iio_region){ .nr = nr, .fd = -1 };
	return 0;
}

/* the BAR of PCI function @addr starting at @physaddr, or -1 */
static int bar_at(const char *addr, uint64_t physaddr)
{
	char resource[PATH_MAX];
	uint64_t start = 0;
	int bar;

	snprintf(resource, sizeof(resource), UDRV_PCI_DEVICES "/%s/resource",
		 addr);
	if (udrv_pci_bar_holding(resource, physaddr, &bar, &start) || bar < 0)
		return -1;
	return start == physaddr ? bar : -1;
}

/* every iio device of PCI function @addr, as regions by BAR */
static int open_pci(struct udrv_device *dev, const char *addr)
{
	char path[PATH_MAX], drv[64], irq[32], mode[16];
	struct iio_dev *p = priv(dev);
	uint64_t v, physaddr;
	struct dirent *de;
	int err = 0, events = -1;
	unsigned int i;
	DIR *dir;

	udrv_pci_identify(dev, addr);
	udrv_pci_driver(addr, drv, sizeof(drv));
	p->unmask = !strcmp(drv, "iio_pci_generic");
	snprintf(path, sizeof(path), UDRV_PCI_DEVICES "/%s/iio", addr);
	dir = opendir(path);
	if (!dir)
		return udrv_fail(ENODEV, "%s is bound to %s, which is neither an "
				 "iio stub nor vfio-pci; bind it to "
				 "iio_pci_generic (see iio_pci_generic(4)) or "
				 "vfio-pci", addr, drv);
	while ((de = readdir(dir)) && !err) {
		int nr = parse_iio(de->d_name), bar;

		if (nr < 0 || iio_attr_num(nr, "physaddr", &physaddr))
			continue;
		bar = bar_at(addr, physaddr);
		if (bar < 0)
			continue;	/* not a BAR: a stub's memory of its own */
		err = add_region(dev, bar, nr);
	}
	closedir(dir);
	if (err)
		return err;
	p->primary = -1;
	for (i = 0; i < UDRV_REGIONS_MAX; i++) {
		if (!dev->regions[i].present)
			continue;
		if (p->primary < 0)
			p->primary = p->region[i].nr;
		if (events < 0 && !iio_attr(p->region[i].nr, "irq", irq,
					    sizeof(irq)) && strcmp(irq, "none"))
			events = p->region[i].nr;
	}
	if (p->primary < 0)
		return udrv_fail(ENODEV, "%s: %s gave no BAR to user space", addr,
				 drv);
	if (events >= 0)
		p->primary = events;
	/* irq_mode is iio_pci_generic's; a stub's INTx uses the PCI irq */
	snprintf(path, sizeof(path), UDRV_PCI_DEVICES "/%s/irq_mode", addr);
	if (!udrv_read_text(path, mode, sizeof(mode)))
		snprintf(dev->irq_mode, sizeof(dev->irq_mode), "%s", mode);
	else if (events >= 0 && !udrv_pci_attr_num(addr, "irq", &v) &&
		 strtoull(irq, NULL, 10) == v)
		snprintf(dev->irq_mode, sizeof(dev->irq_mode), "intx");
	else if (events >= 0)
		snprintf(dev->irq_mode, sizeof(dev->irq_mode), "msi");
	return 0;
}

/* the vectors and the DMA policy, of the primary device */
static int events_and_dma(struct udrv_device *dev)
{
	struct iio_dev *p = priv(dev);
	uint64_t vectors;
	char irq[32];

	if (!iio_attr(p->primary, "irq", irq, sizeof(irq)) &&
	    strcmp(irq, "none") &&
	    !iio_attr_num(p->primary, "vectors", &vectors))
		dev->vectors = vectors > UDRV_VECTORS_MAX ? UDRV_VECTORS_MAX :
			       (unsigned int)vectors;
	if (iio_attr(p->primary, "dma_iommu", dev->dma_policy,
		     sizeof(dev->dma_policy)))
		snprintf(dev->dma_policy, sizeof(dev->dma_policy), "none");
	return 0;
}

static int iio_dev_setup(struct udrv_device *dev, int nr)
{
	struct iio_dev *p = priv(dev);
	char irq[32], addr[32];
	int err;

	if (parent_pci(nr, addr, sizeof(addr))) {
		err = open_pci(dev, addr);
	} else {
		err = add_region(dev, 0, nr);
		if (!err)
			err = iio_attr(nr, "name", dev->name,
				       sizeof(dev->name));
		p->primary = nr;
		if (!err && !iio_attr(nr, "irq", irq, sizeof(irq)) &&
		    strcmp(irq, "none"))
			snprintf(dev->irq_mode, sizeof(dev->irq_mode), "%.15s",
				 isdigit((unsigned char)irq[0]) ? "intx" : irq);
	}
	return err ? err : events_and_dma(dev);
}

static int region_fd(struct udrv_device *dev, unsigned int i);

/*
 * The driver's claim on the device, as vfio's group file and SPDK's lock
 * files give one: an exclusive flock(2) on the node of the primary region
 * (the region the events and DMA buffers belong to), which goes with the
 * last file of the process; another udrv_device_open() of the device, in
 * this process or another, fails with EBUSY.  Advisory: iioctl and
 * programs without the library are not kept out.
 */
static int claim(struct udrv_device *dev)
{
	struct iio_dev *p = priv(dev);
	unsigned int i;
	int fd;

	for (i = 0; i < UDRV_REGIONS_MAX; i++)
		if (dev->regions[i].present && p->region[i].nr == p->primary)
			break;
	if (i == UDRV_REGIONS_MAX)
		return udrv_fail(ENODEV, "%s: iio%d is none of its regions",
				 dev->name, p->primary);
	fd = region_fd(dev, i);
	if (fd < 0)
		return fd;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno == EWOULDBLOCK)
			return udrv_fail(EBUSY, "%s is in use by another driver "
					 "(a libudrv program holds /dev/iio%d)",
					 dev->name, p->primary);
		return udrv_fail(errno, "%s: flock /dev/iio%d: %s", dev->name,
				 p->primary, strerror(errno));
	}
	return 0;
}

int udrv_iio_open(struct udrv_device *dev, const char *spec)
{
	char addr[UDRV_PCI_ADDR_LEN], path[PATH_MAX], drv[64];
	int nr, err;

	dev->ops = &udrv_iio_ops;
	dev->priv = calloc(1, sizeof(struct iio_dev));
	if (!dev->priv)
		return udrv_fail(ENOMEM, "out of memory");
	if (!udrv_pci_address_parse(spec, addr, NULL)) {
		snprintf(path, sizeof(path), UDRV_PCI_DEVICES "/%s", addr);
		if (access(path, F_OK)) {
			err = udrv_fail(ENODEV, "no PCI device %s", addr);
			goto fail;
		}
		udrv_pci_driver(addr, drv, sizeof(drv));
		if (!drv[0]) {
			err = udrv_fail(ENODEV, "%s has no driver: bind it to "
					"iio_pci_generic (see "
					"iio_pci_generic(4)) or vfio-pci",
					addr);
			goto fail;
		}
		if (!strcmp(drv, "vfio-pci")) {
			free(dev->priv);
			return udrv_vfio_open(dev, addr);
		}
		err = open_pci(dev, addr);
		if (!err)
			err = events_and_dma(dev);
	} else {
		nr = parse_iio(spec);
		if (nr < 0)
			nr = find_by_name(spec);
		err = nr < 0 ? nr : 0;
		if (!err) {
			snprintf(path, sizeof(path), IIO_CLASS "/iio%d", nr);
			if (access(path, F_OK))
				err = udrv_fail(ENOENT, "no iio device iio%d",
						nr);
		}
		if (!err)
			err = iio_dev_setup(dev, nr);
	}
	if (!err)
		err = claim(dev);
	if (!err)
		return 0;
fail:
	udrv_iio_ops.close(dev);
	return err;
}

static void iio_close(struct udrv_device *dev)
{
	struct iio_dev *p = priv(dev);
	unsigned int i;

	if (!p)
		return;
	for (i = 0; i < UDRV_REGIONS_MAX; i++)
		if (dev->regions[i].present && p->region[i].fd >= 0)
			close(p->region[i].fd);
	free(p);
	dev->priv = NULL;
}

/* region @i's node, opened once, read-write */
static int region_fd(struct udrv_device *dev, unsigned int i)
{
	struct iio_region *r = &priv(dev)->region[i];
	char node[32];

	if (r->fd >= 0)
		return r->fd;
	snprintf(node, sizeof(node), "/dev/iio%d", r->nr);
	r->fd = open(node, O_RDWR | O_CLOEXEC);
	if (r->fd < 0) {
		if (errno == ENOENT || errno == ENODEV || errno == ENXIO)
			return udrv_device_lost(dev, node);
		return udrv_fail(errno, "%s: %s", node, strerror(errno));
	}
	return r->fd;
}

/* a failed transfer of @what: the device gone (EIO), or the errno */
static int transfer_failed(struct udrv_device *dev, const char *what,
			   unsigned int i, uint64_t offset, ssize_t n)
{
	if (n >= 0)
		return udrv_fail(EIO, "%s of region %u at 0x%llx: short",
				 what, i, (unsigned long long)offset);
	if (errno == EIO)
		return udrv_device_lost(dev, what);
	return udrv_fail(errno, "%s: %s of region %u at 0x%llx: %s",
			 dev->name, what, i, (unsigned long long)offset,
			 strerror(errno));
}

/* an aligned pread/pwrite of 1, 2, 4 or 8 bytes is one access (iio(4)) */
static int iio_read(struct udrv_device *dev, unsigned int i, uint64_t offset,
		    unsigned int width, uint64_t *value)
{
	int fd = region_fd(dev, i);
	ssize_t n;

	if (fd < 0)
		return fd;
	n = udrv_pread_value(fd, offset, width, value);
	if (n != (ssize_t)width)
		return transfer_failed(dev, "read", i, offset, n);
	return 0;
}

static int iio_write(struct udrv_device *dev, unsigned int i,
		     uint64_t offset, unsigned int width, uint64_t value)
{
	int fd = region_fd(dev, i);
	ssize_t n;

	if (fd < 0)
		return fd;
	n = udrv_pwrite_value(fd, offset, width, value);
	if (n != (ssize_t)width)
		return transfer_failed(dev, "write", i, offset, n);
	return 0;
}

static int iio_map(struct udrv_device *dev, unsigned int i, void **addr,
		   size_t *len)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t n = (dev->regions[i].size + page - 1) / page * page;
	int fd = region_fd(dev, i), err;
	void *p;

	if (fd < 0)
		return fd;
	p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		if (errno == ENODEV && dev->regions[i].flags & UDRV_REGION_MEM)
			return udrv_fail(ENODEV, "%s: region %u cannot be "
					 "mapped: it shares its page with "
					 "another device's registers (see "
					 "iio_pci_generic(4))", dev->name, i);
		return udrv_fail(errno, "%s: mmap of region %u: %s", dev->name,
				 i, strerror(errno));
	}
	err = udrv_sigbus_watch(p, n, fd, NULL, &dev->gone);
	if (err) {
		munmap(p, n);
		return err;
	}
	*addr = p;
	*len = n;
	return 0;
}

/* vector @v's node and its folder in sysfs, for iio device @nr */
static void vector_names(int nr, unsigned int v, char *node, size_t nlen,
			 char *attr, size_t alen)
{
	if (v) {
		snprintf(node, nlen, "/dev/iio%d_event%u", nr, v);
		snprintf(attr, alen, "iio%d_event%u/event", nr, v);
	} else {
		snprintf(node, nlen, "/dev/iio%d_event", nr);
		snprintf(attr, alen, "iio%d_event/event", nr);
	}
}

/*
 * The node, non-blocking.  The file sees the events after its open; the
 * count just before it is where the first consume counts from (an event
 * between the two is counted once more as merged, never lost).
 */
static int iio_event_fd(struct udrv_device *dev, unsigned int v)
{
	int nr = priv(dev)->primary, fd;
	char node[64], attr[64];
	uint64_t count;
	int err;

	vector_names(nr, v, node, sizeof(node), attr, sizeof(attr));
	err = iio_attr_num(nr, attr, &count);
	if (err)
		return err;
	fd = open(node, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return udrv_fail(errno, "%s: %s", node, strerror(errno));
	dev->vec[v].last = (uint32_t)count;
	return fd;
}

static int64_t iio_event_consume(struct udrv_device *dev, unsigned int v)
{
	uint32_t count, n;
	ssize_t r = read(dev->vec[v].fd, &count, sizeof(count));

	if (r < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (r < 0 && errno == EIO)
		return udrv_device_lost(dev, "reading an event");
	if (r != sizeof(count))
		return udrv_fail(r < 0 ? errno : EIO, "%s: reading vector %u: "
				 "%s", dev->name, v,
				 r < 0 ? strerror(errno) : "short");
	n = count - dev->vec[v].last;
	dev->vec[v].last = count;
	/* a read with the same 32 bits: exactly 2^32 new events (iio(4)) */
	return n ? n : (int64_t)1 << 32;
}

/* iio_pci_generic(4): a native-endian 32-bit 1 unmasks INTx */
static int iio_event_unmask(struct udrv_device *dev, unsigned int v)
{
	uint32_t one = 1;

	if (!priv(dev)->unmask)
		return 0;	/* the stub acknowledges the line itself */
	if (write(dev->vec[v].fd, &one, sizeof(one)) == sizeof(one))
		return 0;
	if (errno == EIO)
		return udrv_device_lost(dev, "unmasking INTx");
	return udrv_fail(errno, "%s: unmasking INTx: %s", dev->name,
			 strerror(errno));
}

static int iio_dma_map(struct udrv_device *dev, struct udrv_dma *dma,
		       int nr, int k)
{
	char path[PATH_MAX], attr[32];
	uint64_t size, bus;
	int fd, err;
	void *p;

	snprintf(attr, sizeof(attr), "dma%d/size", k);
	err = iio_attr_num(nr, attr, &size);
	snprintf(attr, sizeof(attr), "dma%d/bus_addr", k);
	if (!err)
		err = iio_attr_num(nr, attr, &bus);
	if (err)
		return err;
	snprintf(path, sizeof(path), IIO_CLASS "/iio%d/dma%d/buffer", nr, k);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return udrv_fail(errno, "%s: %s", path, strerror(errno));
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	err = errno;
	close(fd);
	if (p == MAP_FAILED)
		return udrv_fail(err, "mmap %s: %s", path, strerror(err));
	dma->addr = p;
	dma->bus = bus;
	dma->size = size;
	dma->priv = k;
	priv(dev)->dma_used |= 1u << k;
	return 0;
}

/* dmaK's size, 0 if it does not exist */
static uint64_t dma_size(int nr, int k)
{
	char attr[32];
	uint64_t size;

	snprintf(attr, sizeof(attr), "dma%d/size", k);
	return iio_attr_num(nr, attr, &size) ? 0 : size;
}

/*
 * Writes @k to iio@nr's dma_free; errors are not reported: udrv_dma_free()
 * returns nothing, and what can fail for a buffer we requested leaves
 * nothing to give back (ENODEV: the device went with its buffers; ENOENT:
 * another program freed it with dma_free).  Leaves the message of
 * udrv_strerror() alone.
 */
static void dma_give_back(int nr, int k)
{
	char path[PATH_MAX], text[16];
	int fd;

	snprintf(path, sizeof(path), IIO_CLASS "/iio%d/dma_free", nr);
	snprintf(text, sizeof(text), "%d", k);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (write(fd, text, strlen(text)) < 0) {
		/* nothing to do: see above */
	}
	close(fd);
}

/*
 * Reuse a buffer of at least @size bytes that exists and this device does
 * not use (a stub's own, or one left by another program), else
 * dma_request one, which udrv_dma_free() gives back (dma_free).
 */
static int iio_dma_alloc(struct udrv_device *dev, struct udrv_dma *dma,
			 size_t size)
{
	struct iio_dev *p = priv(dev);
	uint64_t had[IIO_DMA_BUFFERS];
	char path[PATH_MAX], text[32];
	int nr = p->primary, k, err;

	for (k = 0; k < IIO_DMA_BUFFERS; k++) {
		had[k] = dma_size(nr, k);
		if (!(p->dma_used & 1u << k) && had[k] >= size)
			return iio_dma_map(dev, dma, nr, k);
	}
	snprintf(path, sizeof(path), IIO_CLASS "/iio%d/dma_request", nr);
	if (access(path, F_OK))
		return udrv_fail(EOPNOTSUPP, "%s: iio%d has no free DMA buffer "
				 "of %zu bytes and its stub does not let user "
				 "space add one (no dma_request)", dev->name,
				 nr, size);
	snprintf(text, sizeof(text), "%zu", size);
	err = udrv_write_text(path, text);
	switch (err) {
	case 0:
		break;
	case -EPERM:
		return udrv_fail(EPERM, "%s: DMA refused (dma_iommu: %s): boot "
				 "with an IOMMU or opt in with "
				 "iio.enable_unsafe_noiommu_mode=1 (unsafe, "
				 "see iio(4))", dev->name, dev->dma_policy);
	case -ENOSPC:
		return udrv_fail(ENOSPC, "%s: all %d DMA buffers exist and none "
				 "of at least %zu bytes is free; udrv_dma_free() "
				 "one, or free one another program added "
				 "(iioctl dma --free K)", dev->name,
				 IIO_DMA_BUFFERS, size);
	case -E2BIG:
		return udrv_fail(E2BIG, "%s: %zu more bytes of DMA buffers are "
				 "past the stub's limit (dma_max)", dev->name,
				 size);
	default:
		return udrv_fail(-err, "%s: DMA buffer of %zu bytes: %s",
				 dev->name, size, strerror(-err));
	}
	for (k = 0; k < IIO_DMA_BUFFERS; k++)
		if (!had[k] && dma_size(nr, k) >= size) {
			err = iio_dma_map(dev, dma, nr, k);
			if (err)
				dma_give_back(nr, k);
			else
				dma->requested = true;
			return err;
		}
	return udrv_fail(EIO, "%s: dma_request made no buffer", dev->name);
}

/*
 * A buffer dma_request made for us goes back to the kernel (iio(4),
 * Freeing a buffer); one that existed before (a stub's own, or one another
 * program added) is only unmapped, left for its owner.
 */
static void iio_dma_free(struct udrv_device *dev, struct udrv_dma *dma)
{
	munmap(dma->addr, dma->size);
	if (dma->requested)
		dma_give_back(priv(dev)->primary, (int)dma->priv);
	priv(dev)->dma_used &= ~(1u << dma->priv);
}

const struct udrv_ops udrv_iio_ops = {
	.name = "iio",
	.close = iio_close,
	.read = iio_read,
	.write = iio_write,
	.map = iio_map,
	.event_fd = iio_event_fd,
	.event_consume = iio_event_consume,
	.event_unmask = iio_event_unmask,
	.dma_alloc = iio_dma_alloc,
	.dma_free = iio_dma_free,
};
