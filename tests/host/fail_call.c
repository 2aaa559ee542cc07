// SPDX-License-Identifier: GPL-2.0-only
/*
 * fail_call.so - an LD_PRELOAD shim for the host tests: makes one call
 * (IIO_FAIL_CALL: read, write, pread or pwrite) on one file
 * (IIO_FAIL_PATH) fail with errno IIO_FAIL_ERRNO, so that iioctl's
 * handling of errors only a real device gives (EIO once it is gone,
 * EOPNOTSUPP from a stub without event_write) is tested against the
 * fixture.  With IIO_FAIL_OFFSET (a number, as strtoull reads it) only a
 * pread or pwrite at that offset fails: an access in the middle of
 * several.  Every other call goes through.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* whether @call on @fd is the one to fail; sets errno if so */
static int fails(int fd, const char *call)
{
	const char *path = getenv("IIO_FAIL_PATH");
	const char *which = getenv("IIO_FAIL_CALL");
	const char *err = getenv("IIO_FAIL_ERRNO");
	char link[64], target[PATH_MAX];
	ssize_t n;

	if (!path || !which || !err || strcmp(which, call))
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return 0;
	target[n] = 0;
	if (strcmp(target, path))
		return 0;
	errno = atoi(err);
	return 1;
}

#define NEXT(name) ({ \
	static __typeof__(name) *next_; \
	if (!next_) \
		next_ = (__typeof__(name) *)dlsym(RTLD_NEXT, #name); \
	next_; \
})

ssize_t read(int fd, void *buf, size_t n)
{
	return fails(fd, "read") ? -1 : NEXT(read)(fd, buf, n);
}

ssize_t write(int fd, const void *buf, size_t n)
{
	return fails(fd, "write") ? -1 : NEXT(write)(fd, buf, n);
}

/* IIO_FAIL_OFFSET unset, or off is it */
static int at_offset(off_t off)
{
	const char *at = getenv("IIO_FAIL_OFFSET");

	return !at || strtoull(at, NULL, 0) == (unsigned long long)off;
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	return at_offset(off) && fails(fd, "pread") ? -1 :
	       NEXT(pread)(fd, buf, n, off);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	return at_offset(off) && fails(fd, "pwrite") ? -1 :
	       NEXT(pwrite)(fd, buf, n, off);
}
