// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * test_number.c - the number parser libudrv and iioctl share (lib/number.h,
 * internal to the library), and the sysfs number reader on it: each form
 * taken, each near miss refused with iioctl's words (run by lib/tests/run;
 * see unit.h)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "number.h"
#include "unit.h"

/* @s starts with the number @want, followed by @rest */
static void number_ok(const char *s, uint64_t want, const char *rest)
{
	const char *why, *end = NULL;
	uint64_t v = 0;

	why = udrv_number_parse(s, &v, &end);
	if (why)
		FAIL("\"%s\" refused: %s", s, why);
	if (v != want)
		FAIL("\"%s\" is 0x%llx, expected 0x%llx", s,
		     (unsigned long long)v, (unsigned long long)want);
	if (strcmp(end, rest))
		FAIL("\"%s\": \"%s\" after the number, expected \"%s\"", s,
		     end, rest);
}

/* @s is refused for @why (its start), and nothing is stored */
static void number_refused(const char *s, const char *want)
{
	const char *why, *end = "untouched";
	uint64_t v = 7;

	why = udrv_number_parse(s, &v, &end);
	if (!why)
		FAIL("\"%s\" taken as 0x%llx", s, (unsigned long long)v);
	if (strncmp(why, want, strlen(want)))
		FAIL("\"%s\": \"%s\", expected \"%s\"", s, why, want);
	if (v != 7 || strcmp(end, "untouched"))
		FAIL("\"%s\": refused, but a value or an end was stored", s);
}

static void forms(void)
{
	number_ok("0", 0, "");
	number_ok("42", 42, "");
	number_ok("0x1F", 0x1f, "");
	number_ok("0XaBc", 0xabc, "");
	number_ok("0x0001", 1, "");		/* zeros after 0x are fine */
	number_ok("18446744073709551615", UINT64_MAX, "");
	number_ok("0xffffffffffffffff", UINT64_MAX, "");
	number_ok("12K", 12, "K");		/* the caller's suffix */
	number_ok("0x10:0xff", 0x10, ":0xff");
	number_ok("0 ", 0, " ");
}

static void refused(void)
{
	number_refused("", "empty");
	number_refused("-1", "negative");
	number_refused("0x", "no digits after 0x");
	number_refused("010", "leading zero (octal is not accepted");
	number_refused("00", "leading zero");
	number_refused("x1", "not a number");
	number_refused("0xg", "not a number");
	number_refused(" 1", "not a number");
	number_refused("+1", "not a number");
	number_refused("18446744073709551616", "too large");
	number_refused("0x10000000000000000", "too large");
	number_refused("99999999999999999999z", "too large");
}

/* udrv_read_number() of a file holding @text */
static int read_number(const char *text, uint64_t *v)
{
	char path[] = "/tmp/udrv-number-XXXXXX";
	int fd = mkstemp(path), err;

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		FAIL("scratch file: %s", strerror(errno));
	close(fd);
	err = udrv_read_number(path, v);
	unlink(path);
	return err;
}

/* sysfs writes decimal or 0x hex: nothing is read as octal */
static void sysfs_numbers(void)
{
	uint64_t v = 0;

	EXPECT_EQ(read_number("4096\n", &v), 0);
	EXPECT_EQ(v, 4096);
	EXPECT_EQ(read_number("0x1b36\n", &v), 0);
	EXPECT_EQ(v, 0x1b36);
	EXPECT_EQ(read_number("0\n", &v), 0);
	EXPECT_EQ(v, 0);
	EXPECT_EQ(read_number("010\n", &v), -EINVAL);
	EXPECT_EQ(read_number("-1\n", &v), -EINVAL);
	EXPECT_EQ(read_number("12 3\n", &v), -EINVAL);
	EXPECT_EQ(read_number("\n", &v), -EINVAL);
	if (!strstr(udrv_strerror(), "is not a number"))
		FAIL("message \"%s\"", udrv_strerror());
}

static const struct unit_case cases[] = {
	UNIT_CASE(forms),
	UNIT_CASE(refused),
	UNIT_CASE(sysfs_numbers),
};

int main(int argc, char **argv)
{
	return unit_main("number", cases, sizeof(cases) / sizeof(cases[0]),
			 argc, argv);
}
