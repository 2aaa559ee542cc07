/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * iio_uapi.h - the user-space ABI of the iio framework
 *
 * Shared by the kernel modules, iioctl and the tests; user space needs only
 * <linux/types.h> (linux-libc-dev).
 *
 * Device numbering: every node is on one character device major, named
 * "iio_user" in /proc/devices.  Device N owns the IIO_MINORS_PER_DEVICE
 * minors from N * IIO_MINORS_PER_DEVICE: the whole region (/dev/iioN), the
 * in window (/dev/iioN_in), the out window (/dev/iioN_out) and the event
 * node of each vector K (/dev/iioN_event for K = 0, /dev/iioN_eventK for
 * K = 1 ... vectors - 1) at IIO_MINOR_EVENT + K.
 */
#ifndef _IIO_UAPI_H_
#define _IIO_UAPI_H_

#include <linux/types.h>

#define IIO_MINORS_PER_DEVICE	16
#define IIO_MINOR_REGION	0
#define IIO_MINOR_IN		1
#define IIO_MINOR_OUT		2
#define IIO_MINOR_EVENT		3	/* vector K: IIO_MINOR_EVENT + K */

/* Longest write() to an event node; longer ones fail with EINVAL. */
#define IIO_EVENT_WRITE_MAX	64

/* Event vectors of one device: /dev/iioN_event and /dev/iioN_event1..7 */
#define IIO_MAX_VECTORS		8

/**
 * struct iio_oneshot - arm a one-shot event through the event device
 * @time_ns:	expiry in nanoseconds of CLOCK_MONOTONIC: absolute with
 *		%IIO_ONESHOT_ABS, else relative to now
 * @flags:	%IIO_ONESHOT_ABS or 0
 * @reserved:	must be 0
 *
 * Written (exactly sizeof(struct iio_oneshot) bytes) to /dev/iioN_event of
 * a device in one-shot mode whose stub accepts it (see iio_event_arm()).
 * Arming again before expiry moves the event; it is never queued twice.
 */
struct iio_oneshot {
	__s64 time_ns;
	__u32 flags;
	__u32 reserved;
};

#define IIO_ONESHOT_ABS		0x1

#endif /* _IIO_UAPI_H_ */
