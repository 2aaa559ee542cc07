/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * udrv_test.h - the guest tests of libudrv (tests/test_udrv*.c): a call's
 * result checked with the library's message in the failure
 */
#ifndef UDRV_TEST_H
#define UDRV_TEST_H

#include "check.h"
#include "udrv.h"

/* libudrv's call @expr returned @err (0 or -errno) */
#define EXPECT_UDRV(expr, err) do { \
	long long r_ = (long long)(expr); \
	if (r_ != (err)) \
		FAIL("%s returned %lld, expected %lld: %s", #expr, r_, \
		     (long long)(err), udrv_strerror()); \
} while (0)

/* udrv_device_open(@spec), which must succeed */
static inline struct udrv_device *udrv_test_open(const char *spec)
{
	struct udrv_device *dev = NULL;

	EXPECT_UDRV(udrv_device_open(spec, &dev), 0);
	return dev;
}

#endif
