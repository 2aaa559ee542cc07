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

/* the registers of QEMU's edu the tests use (iio_edu(4)) */
#define EDU_ID		0x00
#define EDU_LIVENESS	0x04
#define EDU_FACTORIAL	0x08
#define EDU_STATUS	0x20
#define EDU_IRQ_STATUS	0x24
#define EDU_IRQ_RAISE	0x60
#define EDU_IRQ_ACK	0x64
#define EDU_DMA_SRC	0x80

/* udrv_device_open(@spec), which must succeed */
static inline struct udrv_device *udrv_test_open(const char *spec)
{
	struct udrv_device *dev = NULL;

	EXPECT_UDRV(udrv_device_open(spec, &dev), 0);
	return dev;
}

/*
 * edu's identity, its liveness register (4 bytes) and its DMA source
 * register (8 bytes, one access each way) through udrv_read/udrv_write
 */
static inline void udrv_test_edu_registers(struct udrv_device *dev)
{
	uint64_t v;

	EXPECT_UDRV(udrv_read(dev, 0, EDU_ID, 4, &v), 0);
	EXPECT_EQ(v, 0x010000ed);
	EXPECT_UDRV(udrv_write(dev, 0, EDU_LIVENESS, 4, 0x0f0f1234), 0);
	EXPECT_UDRV(udrv_read(dev, 0, EDU_LIVENESS, 4, &v), 0);
	EXPECT_EQ(v, 0xf0f0edcb);
	EXPECT_UDRV(udrv_write(dev, 0, EDU_DMA_SRC, 8, 0x123456789abcull), 0);
	EXPECT_UDRV(udrv_read(dev, 0, EDU_DMA_SRC, 8, &v), 0);
	EXPECT_EQ(v, 0x123456789abcull);
}

#endif
