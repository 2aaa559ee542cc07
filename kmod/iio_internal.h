/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * iio_internal.h - shared between the files of iio.ko, not for stubs
 */
#ifndef _IIO_INTERNAL_H_
#define _IIO_INTERNAL_H_

#include <linux/atomic.h>
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/wait.h>

#include "iio.h"
#include "iio_compat.h"

#define IIO_MAX_DEVICES		256
/* the minors of one device in use: the region nodes and the event nodes */
#define IIO_MINORS_USED		(IIO_MINOR_EVENT + IIO_MAX_VECTORS)

/**
 * struct iio_event_queue - the events of one vector and their listeners
 * @count:	total events since registration, in 64 bits so that a listener
 *		that last read 2^32 events ago still sees them (read() gives
 *		the low 32 bits)
 * @listeners:	open event files of this vector that can read
 * @wait:	its readers and pollers
 * @async_queue: its O_ASYNC files
 */
struct iio_event_queue {
	atomic64_t count;
	atomic_t listeners;
	wait_queue_head_t wait;
	struct fasync_struct *async_queue;
};

/**
 * struct iio_class_dev - one registered device, owned by iio.ko
 * @dev:	the class device /sys/class/iio/iioN; its release frees all
 * @nr:		device number N, which owns the minors from
 *		N * %IIO_MINORS_PER_DEVICE (see iio_uapi.h)
 * @region_cdev: character device of the region nodes /dev/iioN, _in and
 *		_out (minors %IIO_MINOR_REGION to %IIO_MINOR_OUT)
 * @event_cdev:	character device of the event nodes /dev/iioN_event[K]
 *		(minors %IIO_MINOR_EVENT + K, K < @vectors)
 * @node:	by minor within the device: the child devices (class
 *		iio_node) that give devtmpfs /dev/iioN_in ... /dev/iioN_eventK;
 *		NULL where absent, and at %IIO_MINOR_REGION (/dev/iioN is @dev)
 * @inode:	anonymous inode whose mapping every open file shares, so that
 *		unregistering can zap all user mappings at once
 * @idev_lock:	readers: every file operation, sysfs show and store while
 *		it uses @idev; writer: unregistration revoking it
 * @idev:	the stub's description, NULL once unregistered
 * @vectors:	event vectors, at least 1
 * @evq:	the events of each vector (@vectors of them)
 * @timer:	cyclic or one-shot event source
 * @period:	cyclic period, 0 when stopped
 * @timer_lock:	serialises changes of @period and arming of @timer
 * @stopped:	the event source was stopped for good (unregistration)
 * @irq_requested: a real interrupt was requested
 * @dma:	the DMA buffers, children of @dev; NULL where absent
 * @dma_lock:	serialises adding, freeing and deleting the buffers of @dma
 * @dma_user_size: bytes of the buffers user space added
 * @dma_uevents: the device was announced: a buffer added sends its ADD
 *		uevent at once
 * @use_lock:	serialises @users and the stub's in_use calls
 * @users:	open files of the region and event nodes
 */
struct iio_class_dev {
	struct device dev;
	int nr;
	struct cdev region_cdev;
	struct cdev event_cdev;
	struct device *node[IIO_MINORS_USED];
	struct inode *inode;

	struct rw_semaphore idev_lock;	/* protects idev */
	struct iio_device *idev;

	unsigned int vectors;
	struct iio_event_queue evq[IIO_MAX_VECTORS];

	struct hrtimer timer;
	ktime_t period;
	struct mutex timer_lock;	/* protects period, timer */
	bool stopped;
	bool irq_requested;
	struct iio_dma_buffer *dma[IIO_DMA_MAX];
	struct mutex dma_lock;		/* protects dma, dma_* */
	size_t dma_user_size;
	bool dma_uevents;
	struct mutex use_lock;		/* protects users */
	unsigned int users;
};

#define to_iio_class_dev(d) container_of(d, struct iio_class_dev, dev)

/* The page behind kernel memory: vmalloc()ed or from the page allocator. */
static inline struct page *iio_kernel_page(const void *kaddr)
{
	return is_vmalloc_addr(kaddr) ? vmalloc_to_page(kaddr) :
					virt_to_page(kaddr);
}

/* iio_core.c */
extern struct class iio_dma_class;
extern const struct device_type iio_dma_type;
struct iio_class_dev *iio_class_dev_get(unsigned int minor);
void iio_uevent_add(struct device *dev);
void iio_class_dev_put(struct iio_class_dev *icd);
void iio_use_get(struct iio_class_dev *icd);
void iio_use_put(struct iio_class_dev *icd);

/* iio_dev.c */
extern const struct file_operations iio_fops;
int iio_window(const struct iio_device *idev, unsigned int kind,
	       unsigned long *offset, unsigned long *len);

/* iio_dma.c */
struct iio_dma_buffer;

/**
 * enum iio_dma_protection - what keeps a device's DMA to its buffers
 * @IIO_DMA_TRANSLATED:	an IOMMU translates it and the device is alone in
 *			its IOMMU group: buffers are allowed
 * @IIO_DMA_UNSAFE_INTERRUPTS: as translated, but without interrupt
 *			remapping, and the administrator opted in
 *			(allow_unsafe_interrupts): buffers are allowed
 * @IIO_DMA_UNSAFE:	nothing, and the administrator opted in
 *			(enable_unsafe_noiommu_mode): buffers are allowed
 * @IIO_DMA_REFUSED:	nothing: buffers are refused
 */
enum iio_dma_protection {
	IIO_DMA_TRANSLATED,
	IIO_DMA_UNSAFE_INTERRUPTS,
	IIO_DMA_UNSAFE,
	IIO_DMA_REFUSED,
};

enum iio_dma_protection iio_dma_policy(struct device *dma_dev);
int iio_dma_validate(const struct iio_device *idev);
int iio_dma_add_all(struct iio_class_dev *icd, struct iio_device *idev);
void iio_dma_revoke_all(struct iio_class_dev *icd);
void iio_dma_free_all(struct iio_class_dev *icd);
void iio_dma_uevents_add(struct iio_class_dev *icd);
int iio_dma_request(struct iio_class_dev *icd, struct iio_device *idev,
		    size_t size);
int iio_dma_free_requested(struct iio_class_dev *icd, u64 index);

/* iio_event.c */
extern const struct file_operations iio_event_fops;
bool iio_has_event_source(const struct iio_device *idev);
void iio_event_init(struct iio_class_dev *icd);
int iio_event_start(struct iio_class_dev *icd, struct iio_device *idev);
void iio_event_stop(struct iio_class_dev *icd);
void iio_event_free_irq(struct iio_class_dev *icd, struct iio_device *idev);
void iio_event_revoke(struct iio_class_dev *icd);

#endif /* _IIO_INTERNAL_H_ */
