/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * iio.h - the in-kernel API of the iio user-space I/O framework
 *
 * Copyright (C) 2005 Benedikt Spranger <b.spranger@linutronix.de>
 * Copyright (C) 2005 Thomas Gleixner <tglx@linutronix.de>
 *
 * A stub driver fills in a struct iio_device describing one region of its
 * hardware (I/O memory, I/O ports or kernel memory), optional "in" and
 * "out" windows inside it and an event source, and registers it with
 * iio_register_device().  User space then reads, writes and maps the
 * region through /dev/iioN, /dev/iioN_in and /dev/iioN_out and learns
 * about interrupts through /dev/iioN_event.
 */
#ifndef _IIO_H_
#define _IIO_H_

#include <linux/fs.h>
#include <linux/interrupt.h>
#include <linux/kstrtox.h>
#include <linux/ktime.h>
#include <linux/types.h>

#include "iio_uapi.h"

/* Values of iio_device.irq other than a real interrupt number. */
#define IIO_IRQ_NONE		0	/* no event source */
#define IIO_IRQ_CYCLIC		(-1)	/* hrtimer at iio_device.freq */
#define IIO_IRQ_ONESHOT		(-2)	/* hrtimer armed by iio_event_arm() */

/* Highest cyclic rate: a 10 us period, so a timer cannot starve a CPU. */
#define IIO_MAX_FREQ		100000

/* Parts of a region the kernel keeps for itself (iio_device.reserved). */
#define IIO_MAX_RESERVED	2

/* DMA buffers of one device (sysfs dma0 ... dma3), and the largest one. */
#define IIO_DMA_MAX		4
#define IIO_DMA_MAX_SIZE	(4UL << 20)

/**
 * enum iio_irq_type - how the handler of a real interrupt runs
 * @IIO_EVENT:		in hard interrupt context (request_irq())
 * @IIO_THREADED:	in an interrupt thread (request_threaded_irq() with
 *			%IRQF_ONESHOT, so every sharer must agree)
 * @IIO_NODELAY:	in hard interrupt context even on forced-threading
 *			kernels (%IRQF_NO_THREAD)
 */
enum iio_irq_type {
	IIO_EVENT,
	IIO_THREADED,
	IIO_NODELAY,
};

struct iio_class_dev;

/**
 * enum iio_dma_use - what a stub asks iio_dma_allowed() about
 * @IIO_DMA_USE_MASTER:	turning bus mastering on (DMA, and MSI)
 * @IIO_DMA_USE_MSI:	choosing MSI or MSI-X at bind: a memory write by
 *			the device, lost without bus mastering
 */
enum iio_dma_use {
	IIO_DMA_USE_MASTER,
	IIO_DMA_USE_MSI,
};

/**
 * struct iio_range - a part of a region
 * @offset:	its start in the region
 * @len:	its length in bytes; 0: no range
 */
struct iio_range {
	unsigned long offset;
	unsigned long len;
};

/**
 * struct iio_device - what a stub driver tells the framework
 * @name:	device name, shown in sysfs (required)
 * @version:	stub driver version, shown in sysfs (required)
 * @physaddr:	physical address of I/O memory, or first I/O port of a port
 *		region; informational for kernel memory (may be 0)
 * @virtaddr:	the I/O memory, mapped by ioremap() or pci_iomap()
 * @kernaddr:	kernel memory instead of I/O memory: page-aligned and backed
 *		by pages: vmalloc_user(), vmalloc(), or one block of the page
 *		allocator of any order, compound (__GFP_COMP) or not (a
 *		non-compound block's pages after the first are mapped by
 *		frame number, so get_user_pages() of such a mapping fails);
 *		not kmalloc(), whose slab pages cannot be mapped
 * @size:	length of the region in bytes
 * @read_offset: start of the "in" window in the region
 * @read_len:	length of the "in" window; 0 means no in window
 * @write_offset: start of the "out" window in the region
 * @write_len:	length of the "out" window; 0 means no out window
 * @irq:	interrupt number, or %IIO_IRQ_NONE, %IIO_IRQ_CYCLIC or
 *		%IIO_IRQ_ONESHOT
 * @irq_flags:	extra request_irq() flags; %IRQF_SHARED is always added
 * @irq_type:	how @handler runs for a real interrupt
 * @freq:	events per second in cyclic mode (0: stopped, at most
 *		%IIO_MAX_FREQ); change it with iio_event_set_freq() after
 *		registration
 * @handler:	called for each interrupt or timer tick; returns
 *		%IRQ_HANDLED when the device interrupted (user space is then
 *		told), %IRQ_NONE otherwise.  Required for a real interrupt,
 *		optional for the timer modes (every tick is an event then)
 * @event_write: called for write() on the event device with the bytes
 *		already copied into the kernel (at most %IIO_EVENT_WRITE_MAX);
 *		returns @count or a negative errno; optional
 * @fops:	file operations of the region nodes; NULL selects the
 *		framework's.  A stub's own must use iio_open() and
 *		iio_release() and may wrap the other exported ones
 * @priv:	stub private data
 * @vectors:	event vectors, each with its own event node and count: 0 or
 *		1 for the usual one (fed by @irq, @handler or the timer);
 *		up to %IIO_MAX_VECTORS, where the stub feeds vectors 1 and
 *		up with iio_event_add_vector() (MSI-X vectors, say)
 * @dma_dev:	the device that does DMA (its PCI function) when the stub
 *		wants DMA buffers; its DMA mask must be set
 * @dma_size:	size of each coherent DMA buffer the framework allocates on
 *		@dma_dev at registration (rounded up to pages, at most
 *		%IIO_DMA_MAX_SIZE; 0: none; a size after a 0 is -EINVAL).
 *		User space finds buffer K in sysfs as dmaK/ under the device
 *		(size, bus_addr) and reads, writes and maps dmaK/buffer.  The
 *		stub stops the device's DMA (pci_clear_master()) in @quiesce
 *		(or before iio_unregister_device()); the memory is freed after
 *		that
 * @dma_user_max: total bytes of DMA buffers that user space may add by
 *		writing a size to the device's dma_request attribute (0: the
 *		attribute does not exist); needs @dma_dev
 * @reserved:	parts of an I/O memory region that the kernel programs and
 *		user space must not change (a PCI device's MSI-X table and
 *		PBA): read() shows them, write() stops short of them (EPERM
 *		when it starts in one) and the pages holding them are never
 *		mapped (touching them raises SIGBUS)
 * @page_reserved: an I/O memory region whose size is not a multiple of the
 *		page size: the stub has reserved the rest of its last page, so
 *		no other device's registers can be there and it may be mapped
 *		(without it, mmap() fails with ENODEV)
 * @in_use:	called with true when the first file of the device is opened
 *		(a region or event node; a mapping keeps its file open), with
 *		false when the last is closed; not after revocation.  A PCI
 *		stub turns bus mastering on and off here, on only where
 *		iio_dma_allowed() says so.  Process context, may sleep;
 *		optional
 * @quiesce:	called by iio_unregister_device() once user space can no
 *		longer reach the device (files revoked, every mapping of the
 *		region and of the DMA buffers zapped) and before the framework
 *		frees the interrupt and the DMA buffers: the stub silences the
 *		device here, in this order: its interrupts (INTx disabled in
 *		the device, its own vectors freed), bus mastering off, a reset
 *		where the device has one.  Process context; optional
 * @icd:	framework internal; set by iio_register_device()
 *
 * If both @virtaddr and @kernaddr are NULL, the region is a range of I/O
 * ports starting at @physaddr, as in the 2006 RFC.
 */
struct iio_device {
	const char *name;
	const char *version;
	phys_addr_t physaddr;
	void __iomem *virtaddr;
	void *kernaddr;
	unsigned long size;
	unsigned long read_offset;
	unsigned long read_len;
	unsigned long write_offset;
	unsigned long write_len;
	long irq;
	unsigned long irq_flags;
	enum iio_irq_type irq_type;
	unsigned int freq;
	irqreturn_t (*handler)(int irq, struct iio_device *idev);
	ssize_t (*event_write)(struct iio_device *idev, const void *buf,
			       size_t count);
	const struct file_operations *fops;
	void *priv;
	unsigned int vectors;
	struct device *dma_dev;
	size_t dma_size[IIO_DMA_MAX];
	size_t dma_user_max;
	struct iio_range reserved[IIO_MAX_RESERVED];
	bool page_reserved;
	void (*in_use)(struct iio_device *idev, bool used);
	void (*quiesce)(struct iio_device *idev);

	struct iio_class_dev *icd;
};

/**
 * iio_kstrtou64 - parse a number written to an iio sysfs attribute
 * @buf: the text, optionally ending in a newline
 * @val: where the number goes
 *
 * The numbers of iio's ABI are decimal or 0x hex, never octal ("010" is
 * ten), as in iioctl.
 *
 * Return: 0, or the error of kstrtou64() (-EINVAL, -ERANGE).
 */
static inline int iio_kstrtou64(const char *buf, u64 *val)
{
	if (buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X'))
		return kstrtou64(buf + 2, 16, val);
	return kstrtou64(buf, 10, val);
}

int iio_register_device(struct device *parent, struct iio_device *idev);
void iio_revoke_device(struct iio_device *idev);
void iio_zap_mappings(struct iio_device *idev);
void iio_lock_access(struct iio_device *idev, unsigned int subclass);
void iio_unlock_access(struct iio_device *idev);
void iio_unregister_device(struct iio_device *idev);

bool iio_dma_allowed(struct device *dma_dev, enum iio_dma_use use,
		     bool *refusal_logged);

void iio_event_add(struct iio_device *idev, u32 n);
void iio_event_add_vector(struct iio_device *idev, unsigned int vector, u32 n);

/**
 * iio_event_notify - tell user space that @idev had one event
 * @idev: a registered device
 *
 * Callable from any context, interrupt handlers included.
 */
static inline void iio_event_notify(struct iio_device *idev)
{
	iio_event_add(idev, 1);
}

int iio_event_set_freq(struct iio_device *idev, unsigned int freq);
int iio_event_arm(struct iio_device *idev, ktime_t expires, bool absolute);
ssize_t iio_event_write_oneshot(struct iio_device *idev, const void *buf,
				size_t count);

/* The framework's file operations, for stubs that supply their own fops. */
int iio_open(struct inode *inode, struct file *filp);
int iio_release(struct inode *inode, struct file *filp);
loff_t iio_lseek(struct file *filp, loff_t offset, int whence);
ssize_t iio_read(struct file *filp, char __user *buf, size_t count,
		 loff_t *ppos);
ssize_t iio_write(struct file *filp, const char __user *buf, size_t count,
		  loff_t *ppos);
int iio_mmap(struct file *filp, struct vm_area_struct *vma);

#endif /* _IIO_H_ */
