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

#define IIO_MAX_DEVICES		256
#define IIO_NODE_COUNT		3	/* in, out and event child devices */

/**
 * struct iio_event_queue - the events of one vector and their listeners
 * @count:	total events since registration
 * @listeners:	open event files of this vector
 * @wait:	its readers and pollers
 * @async_queue: its O_ASYNC files
 */
struct iio_event_queue {
	atomic_t count;
	atomic_t listeners;
	wait_queue_head_t wait;
	struct fasync_struct *async_queue;
};

/**
 * struct iio_class_dev - one registered device, owned by iio.ko
 * @dev:	the class device /sys/class/iio/iioN; its release frees all
 * @nr:		device number N
 * @cdev:	character device of the region nodes (3 minors)
 * @event_cdev:	character device of the event node (1 minor)
 * @vector_cdev: character device of the event nodes of vectors 1 and up
 * @node:	class-less child devices that give devtmpfs /dev/iioN_in,
 *		/dev/iioN_out and /dev/iioN_event; NULL where absent
 * @vector_node: the same for /dev/iioN_eventK (index K >= 1)
 * @inode:	anonymous inode whose mapping every open file shares, so that
 *		unregistering can zap all user mappings at once
 * @info_lock:	readers: every file operation, sysfs show and store while
 *		it uses @info; writer: unregistration revoking it
 * @info:	the stub's description, NULL once unregistered
 * @vectors:	event vectors, at least 1
 * @evq:	the events of each vector (@vectors of them)
 * @timer:	cyclic or one-shot event source
 * @period:	cyclic period, 0 when stopped
 * @timer_lock:	serialises changes of @period and arming of @timer
 * @stopped:	the event source was stopped for good (unregistration)
 * @irq_requested: a real interrupt was requested
 * @dma:	the DMA buffers, children of @dev; NULL where absent
 * @dma_lock:	serialises adding and deleting the buffers of @dma
 * @dma_user_size: bytes of the buffers user space added
 * @use_lock:	serialises @users and the stub's in_use calls
 * @users:	open files of the region and event nodes
 */
struct iio_class_dev {
	struct device dev;
	int nr;
	struct cdev cdev;
	struct cdev event_cdev;
	struct cdev vector_cdev;
	struct device *node[IIO_NODE_COUNT];
	struct device *vector_node[IIO_MAX_VECTORS];
	struct inode *inode;

	struct rw_semaphore info_lock;	/* protects info */
	struct iio_device *info;

	unsigned int vectors;
	struct iio_event_queue evq[IIO_MAX_VECTORS];

	struct hrtimer timer;
	ktime_t period;
	struct mutex timer_lock;	/* protects period, timer */
	bool stopped;
	bool irq_requested;
	struct iio_dma_buffer *dma[IIO_DMA_MAX];
	struct mutex dma_lock;		/* protects dma, dma_user_size */
	size_t dma_user_size;
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
struct iio_class_dev *iio_class_dev_get(unsigned int minor);
struct iio_class_dev *iio_event_dev_get(struct inode *inode,
					unsigned int *vector);
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
 * @IIO_DMA_UNSAFE:	nothing, and the administrator opted in
 *			(enable_unsafe_noiommu_mode): buffers are allowed
 * @IIO_DMA_REFUSED:	nothing: buffers are refused
 */
enum iio_dma_protection {
	IIO_DMA_TRANSLATED,
	IIO_DMA_UNSAFE,
	IIO_DMA_REFUSED,
};

enum iio_dma_protection iio_dma_policy(struct device *dma_dev);
int iio_dma_validate(const struct iio_device *idev);
int iio_dma_add_all(struct iio_class_dev *icd, struct iio_device *idev);
void iio_dma_revoke_all(struct iio_class_dev *icd);
void iio_dma_free_all(struct iio_class_dev *icd);
int iio_dma_request(struct iio_class_dev *icd, struct iio_device *idev,
		    size_t size);

/* iio_event.c */
extern const struct file_operations iio_event_fops;
bool iio_has_event_source(const struct iio_device *idev);
void iio_event_init(struct iio_class_dev *icd);
int iio_event_start(struct iio_class_dev *icd, struct iio_device *idev);
void iio_event_stop(struct iio_class_dev *icd);
void iio_event_free_irq(struct iio_class_dev *icd, struct iio_device *idev);
void iio_event_revoke(struct iio_class_dev *icd);

#endif /* _IIO_INTERNAL_H_ */
