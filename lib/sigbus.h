/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sigbus.h - mappings that read all ones after their device went away
 * (sigbus.c): the region mappings of libudrv's backends and iioctl's
 * --mmap mappings (cli/region.c) alike.
 *
 * Internal: in libudrv.a, which iioctl links, but never exported by
 * libudrv.so (lib/udrv.map's "local: *") and not part of udrv.h's API.
 */
#ifndef UDRV_SIGBUS_H
#define UDRV_SIGBUS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Watch the mapping [@addr, @addr + @len): a SIGBUS in it means its device
 * is gone if a 0-byte pread of @probe_fd (-1: none) fails with EIO or
 * ENODEV, or if *@gone (may be NULL) is set.  Then anonymous memory full
 * of ones replaces the mapping, *@lost is set, and the faulting access is
 * retried (it reads ones; a store goes nowhere): the caller checks *@lost
 * after its accesses.  Any other SIGBUS goes to the disposition that was
 * there before.  0, or -errno (udrv_strerror() says why).
 */
int udrv_sigbus_watch(void *addr, size_t len, int probe_fd,
		      const volatile int *gone, volatile bool *lost);
/* Stop watching the mapping at @addr (before it is unmapped). */
void udrv_sigbus_unwatch(void *addr);

#endif /* UDRV_SIGBUS_H */
