// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * number.c - numbers as iioctl(1), iio-regmap(5) and sysfs write them
 * (number.h); a digit table, since a batch parses numbers by the million
 */
#include <stddef.h>

#include "number.h"

/* 1 + a digit's value (hex digits of either case); 0 for any other char */
static const unsigned char digit_values[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

const char *udrv_number_parse(const char *s, uint64_t *v, const char **end)
{
	unsigned int base = 10, d;
	const char *p = s, *digits;
	uint64_t n = 0;

	if (!*s)
		return "empty";
	if (*s == '-')
		return "negative";
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		p += 2;
		if (!*p)
			return "no digits after 0x";
	} else if (s[0] == '0' && s[1] >= '0' && s[1] <= '9') {
		return "leading zero (octal is not accepted; write it in decimal or 0x hex)";
	}
	digits = p;
	/* a non-digit's 0 - 1 wraps to UINT_MAX */
	for (; (d = digit_values[(unsigned char)*p] - 1u) < base; p++)
		if (__builtin_mul_overflow(n, base, &n) ||
		    __builtin_add_overflow(n, d, &n))
			return "too large";
	if (p == digits)
		return "not a number";
	*v = n;
	*end = p;
	return NULL;
}
