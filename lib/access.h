/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * access.h - one device access of exactly 1, 2, 4 or 8 bytes: a volatile
 * load or store through a mapping, or a pread or pwrite of a node (iio(4)
 * and vfio-pci do an aligned one of those as one access).  The backends
 * (iio.c, vfio.c, sim.c) and iioctl's regions (cli/region.c) share them.
 *
 * Internal: in libudrv.a, which iioctl links, but never exported by
 * libudrv.so (lib/udrv.map's "local: *") and not part of udrv.h's API.
 * Values are native-endian, as the device's registers are to the CPU.
 */
#ifndef UDRV_ACCESS_H
#define UDRV_ACCESS_H

#include <stdint.h>
#include <sys/types.h>

/* one load of @width bytes at @p (any other width: 8) */
uint64_t udrv_load(const volatile void *p, unsigned int width);
/* one store of the low @width bytes of @value at @p */
void udrv_store(volatile void *p, unsigned int width, uint64_t value);

/*
 * One pread or pwrite of exactly @width bytes at @offset of @fd: what
 * pread/pwrite return (@width when the access was done; -1 with errno).
 * *@value is set only when all @width bytes were read.
 */
ssize_t udrv_pread_value(int fd, uint64_t offset, unsigned int width,
			 uint64_t *value);
ssize_t udrv_pwrite_value(int fd, uint64_t offset, unsigned int width,
			  uint64_t value);

#endif /* UDRV_ACCESS_H */
