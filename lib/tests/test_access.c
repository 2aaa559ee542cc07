// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * test_access.c - the exact-width accesses libudrv's backends and iioctl
 * share (lib/access.h, internal to the library): each width touches its
 * own bytes and no others, through memory and through a file, and a
 * transfer cut short says so (run by lib/tests/run; see unit.h)
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "access.h"
#include "unit.h"

static const unsigned int widths[] = { 1, 2, 4, 8 };

/* a pattern no access writes: a byte outside an access keeps it */
#define FILL 0xa5

static uint64_t low_bytes(unsigned int width)
{
	return width == 8 ? 0x0807060504030201ULL :
	       0x0807060504030201ULL & ((1ULL << (8 * width)) - 1);
}

/* the bytes around [@off, @off + @width) of @buf are still FILL */
static void expect_untouched(const unsigned char *buf, size_t len,
			     size_t off, unsigned int width)
{
	size_t i;

	for (i = 0; i < len; i++)
		if ((i < off || i >= off + width) && buf[i] != FILL)
			FAIL("width %u at %zu: byte %zu changed to 0x%02x",
			     width, off, i, buf[i]);
}

static void load_store_widths(void)
{
	unsigned char buf[32] __attribute__((aligned(8)));
	unsigned int i;

	for (i = 0; i < 4; i++) {
		unsigned int w = widths[i];

		memset(buf, FILL, sizeof(buf));
		udrv_store(buf + 8, w, low_bytes(w));
		expect_untouched(buf, sizeof(buf), 8, w);
		EXPECT_EQ(udrv_load(buf + 8, w), low_bytes(w));
		/* in memory order: the value's low byte first */
		if (memcmp(buf + 8, "\x01\x02\x03\x04\x05\x06\x07\x08", w))
			FAIL("width %u: not in memory order", w);
	}
	/* a store keeps only the width's bytes of a wider value */
	memset(buf, FILL, sizeof(buf));
	udrv_store(buf + 4, 2, 0xffff1234);
	expect_untouched(buf, sizeof(buf), 4, 2);
	EXPECT_EQ(udrv_load(buf + 4, 2), 0x1234);
}

static void file_widths(void)
{
	unsigned char buf[32];
	unsigned int i;
	uint64_t v;
	int fd = memfd_create("access", 0);

	if (fd < 0)
		FAIL("memfd_create: %s", strerror(errno));
	for (i = 0; i < 4; i++) {
		unsigned int w = widths[i];

		memset(buf, FILL, sizeof(buf));
		if (pwrite(fd, buf, sizeof(buf), 0) != sizeof(buf))
			FAIL("pwrite: %s", strerror(errno));
		EXPECT_EQ(udrv_pwrite_value(fd, 16, w, low_bytes(w)), w);
		if (pread(fd, buf, sizeof(buf), 0) != sizeof(buf))
			FAIL("pread: %s", strerror(errno));
		expect_untouched(buf, sizeof(buf), 16, w);
		v = 0;
		EXPECT_EQ(udrv_pread_value(fd, 16, w, &v), w);
		EXPECT_EQ(v, low_bytes(w));
	}
	close(fd);
}

/* past the end: pread's 0 comes back, the value is left alone */
static void file_short(void)
{
	uint64_t v = 7;
	int fd = memfd_create("access", 0);

	if (fd < 0 || ftruncate(fd, 6))
		FAIL("memfd: %s", strerror(errno));
	EXPECT_EQ(udrv_pread_value(fd, 8, 4, &v), 0);
	EXPECT_EQ(udrv_pread_value(fd, 4, 4, &v), 2);
	EXPECT_EQ(v, 7);
	close(fd);
	EXPECT_EQ(udrv_pread_value(fd, 0, 4, &v), -1);
	EXPECT_EQ(errno, EBADF);
	EXPECT_EQ(udrv_pwrite_value(fd, 0, 4, 1), -1);
	EXPECT_EQ(errno, EBADF);
}

static const struct unit_case cases[] = {
	UNIT_CASE(load_store_widths),
	UNIT_CASE(file_widths),
	UNIT_CASE(file_short),
};

int main(int argc, char **argv)
{
	return unit_main("access", cases, sizeof(cases) / sizeof(cases[0]),
			 argc, argv);
}
