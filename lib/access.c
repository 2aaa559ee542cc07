// SPDX-License-Identifier: LGPL-2.1-or-later
/* access.c - one device access of exactly 1, 2, 4 or 8 bytes (access.h) */
#include <unistd.h>

#include "access.h"

/* a value of each width, in memory order: its low bytes at any endianness */
union value {
	uint8_t b;
	uint16_t w;
	uint32_t l;
	uint64_t q;
};

uint64_t udrv_load(const volatile void *p, unsigned int width)
{
	switch (width) {
	case 1: return *(const volatile uint8_t *)p;
	case 2: return *(const volatile uint16_t *)p;
	case 4: return *(const volatile uint32_t *)p;
	default: return *(const volatile uint64_t *)p;
	}
}

void udrv_store(volatile void *p, unsigned int width, uint64_t value)
{
	switch (width) {
	case 1: *(volatile uint8_t *)p = (uint8_t)value; break;
	case 2: *(volatile uint16_t *)p = (uint16_t)value; break;
	case 4: *(volatile uint32_t *)p = (uint32_t)value; break;
	default: *(volatile uint64_t *)p = value; break;
	}
}

ssize_t udrv_pread_value(int fd, uint64_t offset, unsigned int width,
			 uint64_t *value)
{
	union value v = { .q = 0 };
	ssize_t n = pread(fd, &v, width, (off_t)offset);

	if (n != (ssize_t)width)
		return n;
	switch (width) {
	case 1: *value = v.b; break;
	case 2: *value = v.w; break;
	case 4: *value = v.l; break;
	default: *value = v.q; break;
	}
	return n;
}

ssize_t udrv_pwrite_value(int fd, uint64_t offset, unsigned int width,
			  uint64_t value)
{
	union value v;

	switch (width) {
	case 1: v.b = (uint8_t)value; break;
	case 2: v.w = (uint16_t)value; break;
	case 4: v.l = (uint32_t)value; break;
	default: v.q = value; break;
	}
	return pwrite(fd, &v, width, (off_t)offset);
}
