// SPDX-License-Identifier: GPL-2.0-only
/*
 * iio_event.c - the event device /dev/iioN_event and the event sources
 *
 * Copyright (C) 2005 Benedikt Spranger <b.spranger@linutronix.de>
 * Copyright (C) 2005 Thomas Gleixner <tglx@linutronix.de>
 *
 * Ported from the event part of the 2006 RFC's iio_dev.c and iio_base.c
 * (what changed: kmod/HISTORY.md).
 *
 * Semantics (the ABI):
 *  - read() needs at least 4 bytes (else EINVAL), blocks until the file has
 *    an event it has not seen (O_NONBLOCK: EAGAIN; a signal: EINTR or a
 *    restart per SA_RESTART) and returns the device's total event count,
 *    a native-endian 32-bit unsigned int: the low 32 bits of the count,
 *    which is kept in 64 (so 2^32 events since the last read are unseen
 *    events, not none).
 *  - an open file that can read is a listener (sysfs "listener"); one
 *    opened write-only is not.
 *  - poll() reports EPOLLIN | EPOLLRDNORM exactly when there is an unseen
 *    event, EPOLLERR for a device without an event source, and
 *    EPOLLERR | EPOLLHUP once the device is unregistered.
 *  - write() goes to the stub's event_write; EOPNOTSUPP if it has none,
 *    EINVAL for more than IIO_EVENT_WRITE_MAX (64) bytes.
 *  - read() and write() on a device without an event source, or after
 *    unregistration (blocked readers wake up), fail with EIO.
 *  - O_ASYNC: SIGIO on every event (and POLL_HUP on unregistration).
 *  - No position: lseek, pread and pwrite fail with ESPIPE.
 *  - A device with several vectors has one such event node per vector,
 *    each with its own count and listeners; write() to the node of a
 *    vector other than 0 fails with EOPNOTSUPP.
 */

#include <linux/module.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "iio_internal.h"

/**
 * struct iio_listener - one open event file
 * @icd:	the device, pinned while the file is open
 * @q:		the events of its vector, in @icd
 * @vector:	which vector: 0 for /dev/iioN_event
 * @seen:	the event count (all 64 bits) this file last returned from
 *		read()
 * @listens:	the file can read, so it counts in @q's listeners
 */
struct iio_listener {
	struct iio_class_dev *icd;
	struct iio_event_queue *q;
	unsigned int vector;
	u64 seen;
	bool listens;
};

bool iio_has_event_source(const struct iio_device *idev)
{
	return idev->irq != IIO_IRQ_NONE;
}

/**
 * iio_event_add - tell user space that @idev had @n events
 * @idev: a registered device
 * @n: number of events, usually 1
 *
 * Adds @n to the device's event count, wakes its readers and pollers and
 * sends SIGIO to its O_ASYNC files.  Callable from any context, interrupt
 * handlers included; does nothing for a device that is not registered.
 * The stub must not call it (nor iio_event_set_freq() or iio_event_arm())
 * concurrently with its own iio_unregister_device(): stop its own event
 * sources first.
 */
void iio_event_add(struct iio_device *idev, u32 n)
{
	iio_event_add_vector(idev, 0, n);
}
EXPORT_SYMBOL_GPL(iio_event_add);

/**
 * iio_event_add_vector - tell user space that vector @vector had @n events
 * @idev: a registered device
 * @vector: 0 (the same as iio_event_add()) up to @idev->vectors - 1
 * @n: number of events, usually 1
 *
 * As iio_event_add(), for the event node of @vector (/dev/iioN_eventK);
 * a @vector the device does not have is a stub bug: a warning, no event.
 */
void iio_event_add_vector(struct iio_device *idev, unsigned int vector, u32 n)
{
	struct iio_class_dev *icd = idev->icd;
	struct iio_event_queue *q;

	if (!icd || !n || WARN_ON_ONCE(vector >= icd->vectors))
		return;
	q = &icd->evq[vector];
	atomic64_add(n, &q->count);
	wake_up_interruptible_all(&q->wait);
	kill_fasync(&q->async_queue, SIGIO, POLL_IN);
}
EXPORT_SYMBOL_GPL(iio_event_add_vector);

static irqreturn_t iio_event_source(struct iio_device *idev, int irq)
{
	irqreturn_t ret = idev->handler ? idev->handler(irq, idev) :
					  IRQ_HANDLED;

	if (ret == IRQ_HANDLED)
		iio_event_notify(idev);
	return ret;
}

static irqreturn_t iio_interrupt(int irq, void *dev_id)
{
	return iio_event_source(dev_id, irq);
}

static enum hrtimer_restart iio_timer_fn(struct hrtimer *timer)
{
	struct iio_class_dev *icd = container_of(timer, struct iio_class_dev,
						 timer);
	struct iio_device *idev = icd->idev;
	ktime_t period = READ_ONCE(icd->period);

	/* The timer is cancelled before icd->idev is revoked. */
	iio_event_source(idev, idev->irq);
	if (idev->irq != IIO_IRQ_CYCLIC || !period)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, period);
	return HRTIMER_RESTART;
}

void iio_event_init(struct iio_class_dev *icd)
{
	int i;

	for (i = 0; i < IIO_MAX_VECTORS; i++)
		init_waitqueue_head(&icd->evq[i].wait);
	mutex_init(&icd->timer_lock);
	hrtimer_setup(&icd->timer, iio_timer_fn, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL_SOFT);
}

static void iio_cyclic_restart(struct iio_class_dev *icd, unsigned int freq)
{
	hrtimer_cancel(&icd->timer);
	WRITE_ONCE(icd->period, freq ? ns_to_ktime(NSEC_PER_SEC / freq) : 0);
	if (freq)
		hrtimer_start(&icd->timer, icd->period, HRTIMER_MODE_REL_SOFT);
}

int iio_event_start(struct iio_class_dev *icd, struct iio_device *idev)
{
	unsigned long flags = idev->irq_flags | IRQF_SHARED;
	int ret;

	switch (idev->irq) {
	case IIO_IRQ_NONE:
	case IIO_IRQ_ONESHOT:
		return 0;
	case IIO_IRQ_CYCLIC:
		mutex_lock(&icd->timer_lock);
		iio_cyclic_restart(icd, idev->freq);
		mutex_unlock(&icd->timer_lock);
		return 0;
	}

	switch (idev->irq_type) {
	case IIO_THREADED:
		ret = request_threaded_irq(idev->irq, NULL, iio_interrupt,
					   flags | IRQF_ONESHOT, idev->name,
					   idev);
		break;
	case IIO_NODELAY:
		flags |= IRQF_NO_THREAD;
		fallthrough;
	default:
		ret = request_irq(idev->irq, iio_interrupt, flags, idev->name,
				  idev);
		break;
	}
	icd->irq_requested = !ret;
	return ret;
}

/*
 * The timer modes' source stops for good.  Called with idev_lock held for
 * writing: no event_write can re-arm it.
 */
void iio_event_stop(struct iio_class_dev *icd)
{
	mutex_lock(&icd->timer_lock);
	icd->stopped = true;
	WRITE_ONCE(icd->period, 0);
	hrtimer_cancel(&icd->timer);
	mutex_unlock(&icd->timer_lock);
}

/*
 * The interrupt goes: after revocation and after the stub's quiesce, so
 * that a device still asserting INTx is masked in the device first.
 */
void iio_event_free_irq(struct iio_class_dev *icd, struct iio_device *idev)
{
	if (icd->irq_requested)
		free_irq(idev->irq, idev);
	icd->irq_requested = false;
}

/* icd->idev is NULL now: wake everyone so they see it. */
void iio_event_revoke(struct iio_class_dev *icd)
{
	unsigned int i;

	for (i = 0; i < icd->vectors; i++) {
		wake_up_interruptible_all(&icd->evq[i].wait);
		kill_fasync(&icd->evq[i].async_queue, SIGIO, POLL_HUP);
	}
}

/**
 * iio_event_set_freq - change the rate of a cyclic event source
 * @idev: a registered device with irq %IIO_IRQ_CYCLIC
 * @freq: events per second, at most %IIO_MAX_FREQ; 0 stops the source
 *
 * Context: process context; may sleep, so not from @idev's handler.
 *
 * Return: 0, -EINVAL if @idev is not cyclic or @freq is too high, -ENODEV
 * if @idev is not registered.
 */
int iio_event_set_freq(struct iio_device *idev, unsigned int freq)
{
	struct iio_class_dev *icd = idev->icd;

	might_sleep();
	if (!icd)
		return -ENODEV;
	if (idev->irq != IIO_IRQ_CYCLIC || freq > IIO_MAX_FREQ)
		return -EINVAL;

	mutex_lock(&icd->timer_lock);
	if (!icd->stopped) {
		idev->freq = freq;
		iio_cyclic_restart(icd, freq);
	}
	mutex_unlock(&icd->timer_lock);
	return icd->stopped ? -ENODEV : 0;
}
EXPORT_SYMBOL_GPL(iio_event_set_freq);

/**
 * iio_event_arm - schedule the event of a one-shot event source
 * @idev: a registered device with irq %IIO_IRQ_ONESHOT
 * @expires: expiry on CLOCK_MONOTONIC
 * @absolute: @expires is absolute, else relative to now
 *
 * The event fires once; arming again before that moves it.  A time in the
 * past fires at once.
 *
 * Context: process context; may sleep, so not from @idev's handler.
 *
 * Return: 0, -EINVAL if @idev is not one-shot or a relative @expires is
 * negative, -ENODEV if @idev is not registered.
 */
int iio_event_arm(struct iio_device *idev, ktime_t expires, bool absolute)
{
	struct iio_class_dev *icd = idev->icd;

	might_sleep();
	if (!icd)
		return -ENODEV;
	if (idev->irq != IIO_IRQ_ONESHOT || (!absolute && expires < 0))
		return -EINVAL;

	mutex_lock(&icd->timer_lock);
	if (!icd->stopped)
		hrtimer_start(&icd->timer, expires, absolute ?
			      HRTIMER_MODE_ABS_SOFT : HRTIMER_MODE_REL_SOFT);
	mutex_unlock(&icd->timer_lock);
	return icd->stopped ? -ENODEV : 0;
}
EXPORT_SYMBOL_GPL(iio_event_arm);

/**
 * iio_event_write_oneshot - event_write that arms a one-shot event
 * @idev: a registered device with irq %IIO_IRQ_ONESHOT
 * @buf: a struct iio_oneshot, as written to the event device
 * @count: must be sizeof(struct iio_oneshot)
 *
 * A stub that lets user space schedule its one-shot events uses this as
 * its event_write, or calls it from its own.
 *
 * Return: @count, -EINVAL for a wrong size, unknown flags, a non-zero
 * reserved field or a negative relative time.
 */
ssize_t iio_event_write_oneshot(struct iio_device *idev, const void *buf,
				size_t count)
{
	struct iio_oneshot req;
	int ret;

	if (count != sizeof(req))
		return -EINVAL;
	memcpy(&req, buf, sizeof(req));
	if (req.flags & ~IIO_ONESHOT_ABS || req.reserved)
		return -EINVAL;
	ret = iio_event_arm(idev, ns_to_ktime(req.time_ns),
			    req.flags & IIO_ONESHOT_ABS);
	return ret ? ret : count;
}
EXPORT_SYMBOL_GPL(iio_event_write_oneshot);

/* -------------------------------------------------------------------- */
/* the event device */

static int iio_event_open(struct inode *inode, struct file *filp)
{
	struct iio_class_dev *icd;
	struct iio_listener *l;
	unsigned int vector;
	int ret = 0;

	icd = iio_class_dev_get(iminor(inode));
	if (!icd)
		return -ENODEV;
	vector = iminor(inode) % IIO_MINORS_PER_DEVICE - IIO_MINOR_EVENT;
	if (vector >= icd->vectors) {
		iio_class_dev_put(icd);
		return -ENODEV;
	}

	l = kzalloc_obj(*l, GFP_KERNEL);
	if (!l) {
		ret = -ENOMEM;
		goto err_put;
	}

	down_read(&icd->idev_lock);
	if (!icd->idev)
		ret = -ENODEV;
	up_read(&icd->idev_lock);
	if (ret)
		goto err_free;

	l->icd = icd;
	l->q = &icd->evq[vector];
	l->vector = vector;
	l->seen = atomic64_read(&l->q->count);
	l->listens = filp->f_mode & FMODE_READ;
	if (l->listens)
		atomic_inc(&l->q->listeners);
	iio_use_get(icd);
	filp->private_data = l;
	/* no position: pread and pwrite fail with ESPIPE, as lseek does */
	return stream_open(inode, filp);

err_free:
	kfree(l);
err_put:
	iio_class_dev_put(icd);
	return ret;
}

static int iio_event_release(struct inode *inode, struct file *filp)
{
	struct iio_listener *l = filp->private_data;
	struct iio_class_dev *icd = l->icd;

	if (l->listens)
		atomic_dec(&l->q->listeners);
	kfree(l);
	iio_use_put(icd);
	iio_class_dev_put(icd);
	return 0;
}

/* Vectors 1 and up are fed by the stub: they always are a source. */
static bool iio_vector_has_source(struct iio_listener *l,
				  const struct iio_device *idev)
{
	return l->vector || iio_has_event_source(idev);
}

/* 0 when events can arrive, else -EIO: gone or without an event source. */
static int iio_event_usable(struct iio_listener *l)
{
	struct iio_class_dev *icd = l->icd;
	int ret = -EIO;

	down_read(&icd->idev_lock);
	if (icd->idev && iio_vector_has_source(l, icd->idev))
		ret = 0;
	up_read(&icd->idev_lock);
	return ret;
}

static bool iio_event_ready(struct iio_listener *l)
{
	return atomic64_read(&l->q->count) != READ_ONCE(l->seen) ||
	       !READ_ONCE(l->icd->idev);
}

static ssize_t iio_event_read(struct file *filp, char __user *buf,
			      size_t count, loff_t *ppos)
{
	struct iio_listener *l = filp->private_data;
	u64 events;
	u32 abi_count;
	int ret;

	if (count < sizeof(abi_count))
		return -EINVAL;

	for (;;) {
		ret = iio_event_usable(l);
		if (ret)
			return ret;
		events = atomic64_read(&l->q->count);
		if (events != READ_ONCE(l->seen))
			break;
		if (filp->f_flags & O_NONBLOCK)
			return -EAGAIN;
		ret = wait_event_interruptible(l->q->wait, iio_event_ready(l));
		if (ret)
			return ret;
	}

	/* the ABI: the low 32 bits */
	abi_count = events;
	if (copy_to_user(buf, &abi_count, sizeof(abi_count)))
		return -EFAULT;
	WRITE_ONCE(l->seen, events);
	return sizeof(abi_count);
}

static __poll_t iio_event_poll(struct file *filp, poll_table *wait)
{
	struct iio_listener *l = filp->private_data;
	struct iio_class_dev *icd = l->icd;
	__poll_t mask = 0;

	poll_wait(filp, &l->q->wait, wait);

	down_read(&icd->idev_lock);
	if (!icd->idev)
		mask = EPOLLERR | EPOLLHUP;
	else if (!iio_vector_has_source(l, icd->idev))
		mask = EPOLLERR;
	else if (atomic64_read(&l->q->count) != READ_ONCE(l->seen))
		mask = EPOLLIN | EPOLLRDNORM;
	up_read(&icd->idev_lock);
	return mask;
}

static ssize_t iio_event_write(struct file *filp, const char __user *buf,
			       size_t count, loff_t *ppos)
{
	struct iio_listener *l = filp->private_data;
	struct iio_class_dev *icd = l->icd;
	struct iio_device *idev;
	ssize_t ret;
	void *kbuf;

	/*
	 * Copy first: no user access under idev_lock, which mmap() takes
	 * under mmap_lock (and a fault on a stalled page must not block
	 * unregistration).
	 */
	if (count > IIO_EVENT_WRITE_MAX)
		return -EINVAL;
	kbuf = memdup_user(buf, count);
	if (IS_ERR(kbuf))
		return PTR_ERR(kbuf);

	down_read(&icd->idev_lock);
	idev = icd->idev;
	if (!idev || !iio_vector_has_source(l, idev))
		ret = -EIO;
	else if (!idev->event_write || l->vector)
		ret = -EOPNOTSUPP;
	else
		ret = idev->event_write(idev, kbuf, count);
	up_read(&icd->idev_lock);
	kfree(kbuf);
	return ret;
}

static int iio_event_fasync(int fd, struct file *filp, int on)
{
	struct iio_listener *l = filp->private_data;

	return fasync_helper(fd, filp, on, &l->q->async_queue);
}

const struct file_operations iio_event_fops = {
	.owner = THIS_MODULE,
	.open = iio_event_open,
	.release = iio_event_release,
	.read = iio_event_read,
	.write = iio_event_write,
	.poll = iio_event_poll,
	.fasync = iio_event_fasync,
};
