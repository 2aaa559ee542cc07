// SPDX-License-Identifier: GPL-2.0-only
/*
 * iio_core.c - class, registration, sysfs and lifetime of iio devices
 *
 * Copyright (C) 2005 Benedikt Spranger <b.spranger@linutronix.de>
 * Copyright (C) 2005 Thomas Gleixner <tglx@linutronix.de>
 *
 * Ported from the 2006 RFC's iio_base.c to a modern kernel (what changed:
 * kmod/HISTORY.md).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/io.h>
#include <linux/kdev_t.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/pseudo_fs.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "iio_internal.h"

#define IIO_FRAMEWORK_VERSION	"1.1"
#define IIO_FS_MAGIC		0x69696f21	/* "iio!" */
/* /proc/devices: not "iio", which mainline Industrial I/O registers */
#define IIO_CHRDEV_NAME		"iio_user"

static_assert(IIO_MINORS_USED <= IIO_MINORS_PER_DEVICE);

static dev_t iio_devt;		/* the first of the minors of all nodes */
static DEFINE_MUTEX(iio_lock);	/* orders iio_devices' lookups and changes */
/* device number -> struct iio_class_dev; NULL (reserved) while not live */
static DEFINE_XARRAY_ALLOC(iio_devices);
static struct vfsmount *iio_mnt;

/* -------------------------------------------------------------------- */
/* sysfs */

static ssize_t iio_show(struct device *dev, char *buf,
			ssize_t (*show)(struct iio_class_dev *icd,
					struct iio_device *idev, char *buf))
{
	struct iio_class_dev *icd = to_iio_class_dev(dev);
	ssize_t ret = -ENODEV;

	down_read(&icd->idev_lock);
	if (icd->idev)
		ret = show(icd, icd->idev, buf);
	up_read(&icd->idev_lock);
	return ret;
}

#define IIO_ATTR_RO(attr, fmt, ...)					\
static ssize_t attr##_value(struct iio_class_dev *icd,			\
			    struct iio_device *idev, char *buf)	\
{									\
	return sysfs_emit(buf, fmt "\n", __VA_ARGS__);			\
}									\
static ssize_t attr##_show(struct device *dev,				\
			   struct device_attribute *da, char *buf)	\
{									\
	return iio_show(dev, buf, attr##_value);			\
}									\
static DEVICE_ATTR_RO(attr)

IIO_ATTR_RO(name, "%s", idev->name);
IIO_ATTR_RO(version, "%s", idev->version);
IIO_ATTR_RO(physaddr, "0x%llx", (unsigned long long)idev->physaddr);
IIO_ATTR_RO(size, "0x%lx", idev->size);
IIO_ATTR_RO(read_offset, "0x%lx", idev->read_offset);
IIO_ATTR_RO(read_len, "0x%lx", idev->read_len);
IIO_ATTR_RO(write_offset, "0x%lx", idev->write_offset);
IIO_ATTR_RO(write_len, "0x%lx", idev->write_len);
IIO_ATTR_RO(listener, "%u", (u32)atomic_read(&icd->evq[0].listeners));
IIO_ATTR_RO(event, "%u", (u32)atomic64_read(&icd->evq[0].count));
IIO_ATTR_RO(vectors, "%u", icd->vectors);
IIO_ATTR_RO(type, "%s", idev->virtaddr || idev->kernaddr ? "mem" : "port");

static ssize_t irq_value(struct iio_class_dev *icd, struct iio_device *idev,
			 char *buf)
{
	switch (idev->irq) {
	case IIO_IRQ_NONE:
		return sysfs_emit(buf, "none\n");
	case IIO_IRQ_CYCLIC:
		return sysfs_emit(buf, "cyclic\n");
	case IIO_IRQ_ONESHOT:
		return sysfs_emit(buf, "oneshot\n");
	default:
		return sysfs_emit(buf, "%ld\n", idev->irq);
	}
}

static ssize_t irq_show(struct device *dev, struct device_attribute *da,
			char *buf)
{
	return iio_show(dev, buf, irq_value);
}
static DEVICE_ATTR_RO(irq);

/* dma_request: a size written adds a DMA buffer (see iio_dma.c) */
static ssize_t dma_request_store(struct device *dev,
				 struct device_attribute *da,
				 const char *buf, size_t count)
{
	struct iio_class_dev *icd = to_iio_class_dev(dev);
	u64 size;
	int ret;

	ret = iio_kstrtou64(buf, &size);
	if (ret)
		return -EINVAL;		/* ERANGE too: iio(4) says EINVAL */

	down_read(&icd->idev_lock);
	ret = icd->idev ? iio_dma_request(icd, icd->idev, size) : -ENODEV;
	up_read(&icd->idev_lock);
	return ret ? ret : count;
}
static DEVICE_ATTR_WO(dma_request);

/* dma_free: a buffer's number K written frees dmaK, if dma_request added it */
static ssize_t dma_free_store(struct device *dev, struct device_attribute *da,
			      const char *buf, size_t count)
{
	struct iio_class_dev *icd = to_iio_class_dev(dev);
	u64 index;
	int ret;

	ret = iio_kstrtou64(buf, &index);
	if (ret)
		return -EINVAL;

	down_read(&icd->idev_lock);
	ret = icd->idev ? iio_dma_free_requested(icd, index) : -ENODEV;
	up_read(&icd->idev_lock);
	return ret ? ret : count;
}
static DEVICE_ATTR_WO(dma_free);

/* dma_iommu: what confines the device's DMA (iio_dma_policy()) */
static ssize_t dma_iommu_value(struct iio_class_dev *icd,
			       struct iio_device *idev, char *buf)
{
	static const char * const names[] = {
		[IIO_DMA_TRANSLATED] = "translated",
		[IIO_DMA_UNSAFE_INTERRUPTS] = "unsafe-interrupts",
		[IIO_DMA_UNSAFE] = "unsafe",
		[IIO_DMA_REFUSED] = "refused",
	};

	return sysfs_emit(buf, "%s\n", names[iio_dma_policy(idev->dma_dev)]);
}

static ssize_t dma_iommu_show(struct device *dev, struct device_attribute *da,
			      char *buf)
{
	return iio_show(dev, buf, dma_iommu_value);
}
static DEVICE_ATTR_RO(dma_iommu);

/* the parts of the region the kernel keeps, "OFFSET LEN" (hex) a line */
static ssize_t reserved_value(struct iio_class_dev *icd,
			      struct iio_device *idev, char *buf)
{
	ssize_t n = 0;
	int i;

	for (i = 0; i < IIO_MAX_RESERVED; i++)
		if (idev->reserved[i].len)
			n += sysfs_emit_at(buf, n, "0x%lx 0x%lx\n",
					   idev->reserved[i].offset,
					   idev->reserved[i].len);
	return n;
}

static bool iio_has_reserved(const struct iio_device *idev)
{
	int i;

	for (i = 0; i < IIO_MAX_RESERVED; i++)
		if (idev->reserved[i].len)
			return true;
	return false;
}

static ssize_t reserved_show(struct device *dev, struct device_attribute *da,
			     char *buf)
{
	return iio_show(dev, buf, reserved_value);
}
static DEVICE_ATTR_RO(reserved);

static struct attribute *iio_attrs[] = {
	&dev_attr_name.attr,
	&dev_attr_version.attr,
	&dev_attr_physaddr.attr,
	&dev_attr_size.attr,
	&dev_attr_read_offset.attr,
	&dev_attr_read_len.attr,
	&dev_attr_write_offset.attr,
	&dev_attr_write_len.attr,
	&dev_attr_listener.attr,
	&dev_attr_event.attr,
	&dev_attr_type.attr,
	&dev_attr_irq.attr,
	&dev_attr_vectors.attr,
	&dev_attr_dma_request.attr,
	&dev_attr_dma_free.attr,
	&dev_attr_dma_iommu.attr,
	&dev_attr_reserved.attr,
	NULL,
};

/*
 * A window's attributes exist only when the window does; dma_request only
 * where the stub lets user space add DMA buffers, dma_iommu and dma_free
 * where it does DMA (has a dma_dev; dma_free refuses the stub's own
 * buffers), reserved where the kernel keeps parts of the region.
 */
static umode_t iio_attr_is_visible(struct kobject *kobj, struct attribute *a,
				   int n)
{
	struct iio_class_dev *icd = to_iio_class_dev(kobj_to_dev(kobj));
	const struct iio_device *idev = icd->idev;

	if (!idev)
		return a->mode;
	if (a == &dev_attr_read_offset.attr || a == &dev_attr_read_len.attr)
		return idev->read_len ? a->mode : 0;
	if (a == &dev_attr_write_offset.attr || a == &dev_attr_write_len.attr)
		return idev->write_len ? a->mode : 0;
	if (a == &dev_attr_dma_request.attr)
		return idev->dma_user_max ? a->mode : 0;
	if (a == &dev_attr_dma_iommu.attr || a == &dev_attr_dma_free.attr)
		return idev->dma_dev ? a->mode : 0;
	if (a == &dev_attr_reserved.attr)
		return iio_has_reserved(idev) ? a->mode : 0;
	return a->mode;
}

static const struct attribute_group iio_group = {
	.attrs = iio_attrs,
	.is_visible = iio_attr_is_visible,
};

static const struct attribute_group *iio_groups[] = {
	&iio_group,
	NULL,
};

/* /sys/class/iio/version: the framework's version */
static CLASS_ATTR_STRING(version, 0444, IIO_FRAMEWORK_VERSION);

static struct attribute *iio_class_attrs[] = {
	&class_attr_version.attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(iio_class);

static struct class iio_class = {
	.name = "iio",
	.dev_groups = iio_groups,
	.class_groups = iio_class_groups,
};

/*
 * The nodes other than /dev/iioN and the DMA buffers are devices of
 * classes of their own, so that they send uevents (a device without a
 * class or bus sends none) while /sys/class/iio keeps one entry per
 * device.  DEVTYPE tells each of them, and /sys/class/iio/iioN, from
 * mainline Industrial I/O's devices, which also say SUBSYSTEM=iio.
 */
static struct class iio_node_class = {
	.name = "iio_node",
};

struct class iio_dma_class = {
	.name = "iio_dma",
};

static const struct device_type iio_device_type = {
	.name = "iio_user_device",
};

static const struct device_type iio_node_type = {
	.name = "iio_user_node",
};

const struct device_type iio_dma_type = {
	.name = "iio_user_dma",
};

/* -------------------------------------------------------------------- */
/* lookup and lifetime */

/**
 * iio_class_dev_get - find a registered device by minor and pin it
 * @minor: any minor of the device
 *
 * Return: the device with a reference held, or NULL if no device with that
 * number is registered (or it is being unregistered).
 */
struct iio_class_dev *iio_class_dev_get(unsigned int minor)
{
	struct iio_class_dev *icd;

	mutex_lock(&iio_lock);
	icd = xa_load(&iio_devices, minor / IIO_MINORS_PER_DEVICE);
	if (icd)
		get_device(&icd->dev);
	mutex_unlock(&iio_lock);
	return icd;
}

/**
 * iio_class_dev_put - drop a reference taken by iio_class_dev_get()
 * @icd: the device
 */
void iio_class_dev_put(struct iio_class_dev *icd)
{
	put_device(&icd->dev);
}

/**
 * iio_use_get - a file of @icd was opened
 * @icd: the device
 *
 * The first one tells the stub that its device is in use (in_use), unless
 * it is being unregistered.
 */
void iio_use_get(struct iio_class_dev *icd)
{
	down_read(&icd->idev_lock);
	mutex_lock(&icd->use_lock);
	if (!icd->users++ && icd->idev && icd->idev->in_use)
		icd->idev->in_use(icd->idev, true);
	mutex_unlock(&icd->use_lock);
	up_read(&icd->idev_lock);
}

/**
 * iio_use_put - a file of @icd was closed
 * @icd: the device
 *
 * The last one tells the stub that nobody uses its device any more.
 */
void iio_use_put(struct iio_class_dev *icd)
{
	down_read(&icd->idev_lock);
	mutex_lock(&icd->use_lock);
	if (!--icd->users && icd->idev && icd->idev->in_use)
		icd->idev->in_use(icd->idev, false);
	mutex_unlock(&icd->use_lock);
	up_read(&icd->idev_lock);
}

/* The last reference is gone: only now may the number be reused. */
static void iio_dev_release(struct device *dev)
{
	struct iio_class_dev *icd = to_iio_class_dev(dev);

	mutex_lock(&iio_lock);
	xa_erase(&iio_devices, icd->nr);
	mutex_unlock(&iio_lock);
	if (icd->inode)
		iput(icd->inode);
	kfree(icd);
}

static void iio_node_release(struct device *dev)
{
	kfree(dev);
}

/* The minor of @icd's node @index: one numbering for every node. */
static dev_t iio_devt_of(const struct iio_class_dev *icd, unsigned int index)
{
	return MKDEV(MAJOR(iio_devt), icd->nr * IIO_MINORS_PER_DEVICE + index);
}

/*
 * The event nodes' own folders, /sys/class/iio/iioN/iioN_event[K]/, have
 * their vector's "event" and "listener" counts.
 */
static ssize_t iio_vector_show(struct device *node, char *buf, bool listeners)
{
	struct iio_class_dev *icd = to_iio_class_dev(node->parent);
	unsigned int vector = MINOR(node->devt) % IIO_MINORS_PER_DEVICE -
			      IIO_MINOR_EVENT;
	struct iio_event_queue *q = &icd->evq[vector];
	ssize_t ret = -ENODEV;

	down_read(&icd->idev_lock);
	if (icd->idev)
		ret = sysfs_emit(buf, "%u\n", listeners ?
				 (u32)atomic_read(&q->listeners) :
				 (u32)atomic64_read(&q->count));
	up_read(&icd->idev_lock);
	return ret;
}

static ssize_t vector_event_show(struct device *node,
				 struct device_attribute *da, char *buf)
{
	return iio_vector_show(node, buf, false);
}

static ssize_t vector_listener_show(struct device *node,
				    struct device_attribute *da, char *buf)
{
	return iio_vector_show(node, buf, true);
}

static struct device_attribute dev_attr_vector_event =
	__ATTR(event, 0444, vector_event_show, NULL);
static struct device_attribute dev_attr_vector_listener =
	__ATTR(listener, 0444, vector_listener_show, NULL);

static struct attribute *iio_vector_attrs[] = {
	&dev_attr_vector_event.attr,
	&dev_attr_vector_listener.attr,
	NULL,
};
ATTRIBUTE_GROUPS(iio_vector);

/*
 * Node @index of @icd (%IIO_MINOR_IN and up): a child device of class
 * iio_node, so that devtmpfs creates /dev/iioN_in, _out, _event or _eventK.
 * Its uevent waits for iio_uevents_add(): the device is not findable yet.
 */
static int iio_node_add(struct iio_class_dev *icd, unsigned int index)
{
	struct device *node;
	int ret;

	node = kzalloc_obj(*node, GFP_KERNEL);
	if (!node)
		return -ENOMEM;

	device_initialize(node);
	node->class = &iio_node_class;
	node->type = &iio_node_type;
	node->parent = &icd->dev;
	node->devt = iio_devt_of(icd, index);
	node->release = iio_node_release;
	if (index == IIO_MINOR_IN)
		ret = dev_set_name(node, "iio%d_in", icd->nr);
	else if (index == IIO_MINOR_OUT)
		ret = dev_set_name(node, "iio%d_out", icd->nr);
	else if (index == IIO_MINOR_EVENT)
		ret = dev_set_name(node, "iio%d_event", icd->nr);
	else
		ret = dev_set_name(node, "iio%d_event%u", icd->nr,
				   index - IIO_MINOR_EVENT);
	if (ret)
		goto err_put;
	if (index >= IIO_MINOR_EVENT)
		node->groups = iio_vector_groups;
	dev_set_uevent_suppress(node, true);
	ret = device_add(node);
	if (ret)
		goto err_put;
	icd->node[index] = node;
	return 0;

err_put:
	put_device(node);
	return ret;
}

static void iio_nodes_del(struct iio_class_dev *icd)
{
	int i;

	for (i = IIO_MINORS_USED - 1; i > IIO_MINOR_REGION; i--) {
		if (icd->node[i])
			device_unregister(icd->node[i]);
		icd->node[i] = NULL;
	}
}

static int iio_nodes_add(struct iio_class_dev *icd, struct iio_device *idev)
{
	unsigned int vector;
	int ret = 0;

	if (idev->read_len)
		ret = iio_node_add(icd, IIO_MINOR_IN);
	if (!ret && idev->write_len)
		ret = iio_node_add(icd, IIO_MINOR_OUT);
	for (vector = 0; !ret && vector < icd->vectors; vector++)
		ret = iio_node_add(icd, IIO_MINOR_EVENT + vector);
	if (ret)
		iio_nodes_del(icd);
	return ret;
}

/**
 * iio_uevent_add - send the ADD uevent a child of an iio device held back
 * @dev: a node or DMA buffer device, added with its uevents suppressed
 *
 * Children are added with their uevents suppressed until the device can be
 * found by open(), so that udev (or anyone) acting on an ADD uevent finds a
 * node that opens.
 */
void iio_uevent_add(struct device *dev)
{
	dev_set_uevent_suppress(dev, false);
	kobject_uevent(&dev->kobj, KOBJ_ADD);
}

/*
 * The ADD uevents of a registered device, once every node can be opened
 * and every DMA buffer used: /sys/class/iio/iioN first, then its children.
 */
static void iio_uevents_add(struct iio_class_dev *icd)
{
	unsigned int i;

	iio_uevent_add(&icd->dev);
	for (i = IIO_MINOR_REGION + 1; i < IIO_MINORS_USED; i++)
		if (icd->node[i])
			iio_uevent_add(icd->node[i]);
	iio_dma_uevents_add(icd);
}

static bool iio_window_valid(unsigned long offset, unsigned long len,
			     unsigned long size)
{
	return !len || (offset < size && len <= size - offset);
}

static int iio_validate(const struct iio_device *idev)
{
	if (!idev->name || !idev->version || !idev->size)
		return -EINVAL;
	if (idev->virtaddr && idev->kernaddr)
		return -EINVAL;
	if (idev->kernaddr && !PAGE_ALIGNED(idev->kernaddr))
		return -EINVAL;
	if (!idev->virtaddr && !idev->kernaddr &&
	    (idev->physaddr > IO_SPACE_LIMIT ||
	     idev->size > IO_SPACE_LIMIT + 1 - idev->physaddr))
		return -EINVAL;
	if (!iio_window_valid(idev->read_offset, idev->read_len, idev->size) ||
	    !iio_window_valid(idev->write_offset, idev->write_len, idev->size))
		return -EINVAL;
	if (idev->irq > 0 && !idev->handler)
		return -EINVAL;
	if (idev->irq < IIO_IRQ_ONESHOT || idev->vectors > IIO_MAX_VECTORS)
		return -EINVAL;
	if (idev->irq == IIO_IRQ_CYCLIC && idev->freq > IIO_MAX_FREQ)
		return -EINVAL;
	return iio_dma_validate(idev);
}

/*
 * Revoke @idev: no new open finds it, the timer modes' event source stops,
 * open files fail from now on (blocked readers and pollers are woken),
 * sysfs shows and stores see nothing, and every user mapping of the region
 * and of the DMA buffers is zapped.  The interrupt stays requested and the
 * DMA memory allocated (see iio_unregister_device()).
 */
static void iio_revoke(struct iio_class_dev *icd)
{
	mutex_lock(&iio_lock);
	/*
	 * An allocating xarray keeps the number reserved for NULL.  The slot
	 * exists since xa_alloc(): the store allocates nothing, cannot fail.
	 */
	xa_store(&iio_devices, icd->nr, NULL, GFP_KERNEL);
	mutex_unlock(&iio_lock);

	down_write(&icd->idev_lock);
	iio_event_stop(icd);
	icd->idev = NULL;
	up_write(&icd->idev_lock);

	iio_event_revoke(icd);
	unmap_mapping_range(icd->inode->i_mapping, 0, 0, 1);
	iio_dma_revoke_all(icd);
}

/**
 * iio_register_device - register a region with the iio framework
 * @parent: parent device (the PCI or platform device), may be NULL
 * @idev: description of the region and its event source; must stay valid
 *	until iio_unregister_device() returns
 *
 * Creates /sys/class/iio/iioN, /dev/iioN, /dev/iioN_in and /dev/iioN_out
 * (where those windows exist) and /dev/iioN_event, allocates the DMA
 * buffers of @idev->dma_size (/sys/class/iio/iioN/dmaK/), and starts the
 * event source (requests the interrupt, or starts the cyclic timer).
 *
 * Return: the device number N (>= 0), or a negative errno: -EINVAL for an
 * inconsistent @idev, -ENOSPC when all numbers are in use, -ENOMEM when a
 * DMA buffer cannot be allocated, or the error of request_irq() or of the
 * driver core.
 */
int iio_register_device(struct device *parent, struct iio_device *idev)
{
	const struct file_operations *fops = idev->fops ?: &iio_fops;
	struct iio_class_dev *icd;
	u32 nr;
	int ret;

	ret = iio_validate(idev);
	if (ret)
		return ret;

	icd = kzalloc_obj(*icd, GFP_KERNEL);
	if (!icd)
		return -ENOMEM;

	init_rwsem(&icd->idev_lock);
	mutex_init(&icd->dma_lock);
	mutex_init(&icd->use_lock);
	icd->vectors = max(idev->vectors, 1U);
	iio_event_init(icd);
	icd->idev = idev;

	/* Reserve the number; lookups find NULL until registration ends. */
	mutex_lock(&iio_lock);
	ret = xa_alloc(&iio_devices, &nr, NULL,
		       XA_LIMIT(0, IIO_MAX_DEVICES - 1), GFP_KERNEL);
	mutex_unlock(&iio_lock);
	if (ret < 0) {
		kfree(icd);
		return ret == -EBUSY ? -ENOSPC : ret;	/* all in use */
	}
	icd->nr = nr;

	device_initialize(&icd->dev);
	icd->dev.class = &iio_class;
	icd->dev.type = &iio_device_type;
	icd->dev.parent = parent;
	icd->dev.devt = iio_devt_of(icd, IIO_MINOR_REGION);
	icd->dev.release = iio_dev_release;
	ret = dev_set_name(&icd->dev, "iio%d", icd->nr);
	if (ret)
		goto err_put;

	icd->inode = alloc_anon_inode(iio_mnt->mnt_sb);
	if (IS_ERR(icd->inode)) {
		ret = PTR_ERR(icd->inode);
		icd->inode = NULL;
		goto err_put;
	}

	/*
	 * The cdevs exist before any node does (as cdev_device_add() does it).
	 * Open files pin the cdevs, and the cdevs pin icd->dev.
	 */
	cdev_init(&icd->region_cdev, fops);
	icd->region_cdev.owner = fops->owner;
	cdev_set_parent(&icd->region_cdev, &icd->dev.kobj);
	ret = cdev_add(&icd->region_cdev, iio_devt_of(icd, IIO_MINOR_REGION),
		       IIO_MINOR_OUT + 1);
	if (ret)
		goto err_put;

	cdev_init(&icd->event_cdev, &iio_event_fops);
	icd->event_cdev.owner = THIS_MODULE;
	cdev_set_parent(&icd->event_cdev, &icd->dev.kobj);
	ret = cdev_add(&icd->event_cdev, iio_devt_of(icd, IIO_MINOR_EVENT),
		       icd->vectors);
	if (ret)
		goto err_del_region_cdev;

	/* The handler may run from here on; nothing can open a node yet. */
	idev->icd = icd;
	ret = iio_event_start(icd, idev);
	if (ret)
		goto err_del_event_cdev;

	/*
	 * The ADD uevents only once everything exists and the number is
	 * findable, so that a program that opens a node on its uevent (udev's
	 * RUN) succeeds: iioN's and its children's are held back until then.
	 */
	dev_set_uevent_suppress(&icd->dev, true);
	ret = device_add(&icd->dev);
	if (ret)
		goto err_stop_events;

	ret = iio_nodes_add(icd, idev);
	if (!ret)
		ret = iio_dma_add_all(icd, idev);
	if (ret)
		goto err_del_children;

	mutex_lock(&iio_lock);
	/* into the slot xa_alloc() made: cannot fail (see iio_revoke()) */
	xa_store(&iio_devices, icd->nr, icd, GFP_KERNEL);
	mutex_unlock(&iio_lock);
	iio_uevents_add(icd);
	return icd->nr;

err_del_children:
	/* sysfs stores (dma_request) may already run: revoke first */
	iio_revoke(icd);
	iio_dma_free_all(icd);
	iio_nodes_del(icd);
	device_del(&icd->dev);
	goto err_free_irq;
err_stop_events:
	iio_revoke(icd);
err_free_irq:
	iio_event_free_irq(icd, idev);
err_del_event_cdev:
	idev->icd = NULL;
	cdev_del(&icd->event_cdev);
err_del_region_cdev:
	cdev_del(&icd->region_cdev);
err_put:
	icd->idev = NULL;
	put_device(&icd->dev);
	return ret;
}
EXPORT_SYMBOL_GPL(iio_register_device);

/**
 * iio_revoke_device - take a registered device away from user space
 * @idev: the stub's description
 *
 * The first step of iio_unregister_device(), for a stub with several
 * devices over one piece of hardware (the BARs of one PCI function), which
 * must take every one of them away from user space before it silences the
 * hardware: open files fail from now on (blocked readers and pollers wake
 * with EIO), every user mapping of the region and of the DMA buffers is
 * zapped (touching it raises SIGBUS), no new open finds the device.  The
 * interrupt stays requested and the DMA memory allocated until
 * iio_unregister_device(), which the stub must still call.  Calling it
 * twice, or before iio_unregister_device(), is harmless.
 *
 * Context: process context, may sleep.
 */
void iio_revoke_device(struct iio_device *idev)
{
	struct iio_class_dev *icd = idev->icd;

	if (icd && READ_ONCE(icd->idev))
		iio_revoke(icd);
}
EXPORT_SYMBOL_GPL(iio_revoke_device);

/**
 * iio_zap_mappings - unmap every user mapping of a device's region
 * @idev: a registered device
 *
 * The pages are faulted in again at the next touch: for a stub whose
 * device changes under the mappings (an AER recovery's reset, which the
 * PCI core runs between the stub's error_detected and slot_reset without
 * reset_prepare), so that no page mapped before it is touched without a
 * fault after.
 *
 * Context: process context, may sleep.
 */
void iio_zap_mappings(struct iio_device *idev)
{
	struct iio_class_dev *icd = idev->icd;

	if (icd)
		unmap_mapping_range(icd->inode->i_mapping, 0, 0, 1);
}
EXPORT_SYMBOL_GPL(iio_zap_mappings);

/**
 * iio_lock_access - keep user space off a device's region while it resets
 * @idev: a registered device
 * @subclass: 0, or for a stub that locks several devices at once (the BARs
 *	of one PCI function) each one's place among them, 0 to 7 (lockdep)
 *
 * For a reset the stub did not start (the PCI core's reset_prepare, before
 * a reset through sysfs or an AER recovery): waits for the reads, writes
 * and page faults of the region nodes in progress, holds off new ones (and
 * new opens) until iio_unlock_access(), and zaps every user mapping of the
 * region, so that nobody touches the device in reset and a page mapped
 * before it is faulted in again after.  Event nodes and DMA buffers are
 * not held off.  A revoked device is locked all the same (nothing to
 * zap).
 *
 * Context: process context, may sleep; the stub must not take the device's
 * files' paths meanwhile (its in_use callback, say).
 */
void iio_lock_access(struct iio_device *idev, unsigned int subclass)
{
	struct iio_class_dev *icd = idev->icd;

	down_write_nested(&icd->idev_lock, subclass);
	iio_zap_mappings(idev);
}
EXPORT_SYMBOL_GPL(iio_lock_access);

/**
 * iio_unlock_access - let user space at a device's region again
 * @idev: a device locked with iio_lock_access()
 *
 * Context: process context.
 */
void iio_unlock_access(struct iio_device *idev)
{
	up_write(&idev->icd->idev_lock);
}
EXPORT_SYMBOL_GPL(iio_unlock_access);

/**
 * iio_unregister_device - remove a device registered by iio_register_device()
 * @idev: the stub's description
 *
 * Tears the device down in the order that keeps user space away from
 * hardware in transition and the hardware away from freed memory:
 *
 * 1. revokes @idev (iio_revoke_device(): files fail, every mapping of the
 *    region and of the DMA buffers is zapped, the timer source stops);
 * 2. calls the stub's quiesce, which masks the device's interrupts, clears
 *    bus mastering and resets it;
 * 3. frees the interrupt;
 * 4. frees the DMA buffers' memory;
 * 5. removes the nodes and the class device.
 *
 * When this returns, no framework code will touch @idev, its region or its
 * handlers again, so the stub may free them.  Files that are still open
 * keep working as far as closing them: blocked readers and pollers wake
 * with EIO, later reads, writes and seeks fail with EIO, mmap() with
 * ENODEV; the DMA buffers' open files fail with ENODEV.  The number is
 * reused only after the last open file is closed.
 *
 * Context: process context, may sleep.
 */
void iio_unregister_device(struct iio_device *idev)
{
	struct iio_class_dev *icd = idev->icd;

	if (!icd)
		return;

	iio_revoke_device(idev);
	if (idev->quiesce)
		idev->quiesce(idev);
	iio_event_free_irq(icd, idev);
	iio_dma_free_all(icd);
	idev->icd = NULL;
	iio_nodes_del(icd);
	cdev_del(&icd->event_cdev);
	cdev_del(&icd->region_cdev);
	device_del(&icd->dev);
	put_device(&icd->dev);
}
EXPORT_SYMBOL_GPL(iio_unregister_device);

/* -------------------------------------------------------------------- */
/* module */

static int iio_fs_init_fs_context(struct fs_context *fc)
{
	return init_pseudo(fc, IIO_FS_MAGIC) ? 0 : -ENOMEM;
}

/* No .owner: the internal mount would pin the module forever. */
static struct file_system_type iio_fs_type = {
	.name = "iio",
	.init_fs_context = iio_fs_init_fs_context,
	.kill_sb = kill_anon_super,
};

static int __init iio_init(void)
{
	int ret;

	iio_mnt = kern_mount(&iio_fs_type);
	if (IS_ERR(iio_mnt))
		return PTR_ERR(iio_mnt);

	ret = alloc_chrdev_region(&iio_devt, 0,
				  IIO_MAX_DEVICES * IIO_MINORS_PER_DEVICE,
				  IIO_CHRDEV_NAME);
	if (ret)
		goto err_unmount;

	ret = class_register(&iio_class);
	if (ret)
		goto err_unregister_region;
	ret = class_register(&iio_node_class);
	if (ret)
		goto err_unregister_class;
	ret = class_register(&iio_dma_class);
	if (ret)
		goto err_unregister_node_class;
	return 0;

err_unregister_node_class:
	class_unregister(&iio_node_class);
err_unregister_class:
	class_unregister(&iio_class);
err_unregister_region:
	unregister_chrdev_region(iio_devt,
				 IIO_MAX_DEVICES * IIO_MINORS_PER_DEVICE);
err_unmount:
	kern_unmount(iio_mnt);
	return ret;
}

static void __exit iio_exit(void)
{
	class_unregister(&iio_dma_class);
	class_unregister(&iio_node_class);
	class_unregister(&iio_class);
	unregister_chrdev_region(iio_devt,
				 IIO_MAX_DEVICES * IIO_MINORS_PER_DEVICE);
	kern_unmount(iio_mnt);
	xa_destroy(&iio_devices);
}

module_init(iio_init);
module_exit(iio_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("Benedikt Spranger");
MODULE_AUTHOR("Thomas Gleixner");
MODULE_DESCRIPTION("iio: user-space I/O framework");
MODULE_VERSION(IIO_FRAMEWORK_VERSION);
