// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_number.c - libFuzzer harness of iioctl's number parsers
 * (cli/common.c): parse_u64 with and without K/M/G suffixes and under
 * several maxima, parse_width_or_die and parse_duration.  The input is
 * the string (up to its first NUL).  Besides the sanitizers, it checks
 * what the parsers promise: the accepted forms round-trip, a suffix
 * multiplies, the maximum is the only difference a maximum makes, and
 * nothing is stored on an error.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>

#include "fuzz_common.h"

#define SENTINEL 0x5a5a5a5a5a5a5a5aULL

static int all_of(const char *s, int (*pred)(int))
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!pred((unsigned char)*s))
			return 0;
	return 1;
}

static int is_dec(int c) { return c >= '0' && c <= '9'; }

static unsigned shift_of(char c)
{
	switch (c) {
	case 'k': case 'K': return 10;
	case 'm': case 'M': return 20;
	case 'g': case 'G': return 30;
	}
	return 0;
}

/* The plain forms: "0", [1-9][0-9]*, 0x[0-9a-fA-F]+; the value by libc. */
static void check_plain(const char *s, uint64_t v)
{
	char buf[32];

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		FUZZ_ASSERT(all_of(s + 2, isxdigit));
		errno = 0;
		FUZZ_ASSERT(strtoull(s + 2, NULL, 16) == v && errno == 0);
	} else {
		FUZZ_ASSERT(all_of(s, is_dec));
		FUZZ_ASSERT(s[0] != '0' || !s[1]);
		snprintf(buf, sizeof(buf), "%" PRIu64, v);
		FUZZ_ASSERT(!strcmp(buf, s));
	}
}

static void check_u64(const char *s)
{
	uint64_t v0 = SENTINEL, vs = SENTINEL, v = SENTINEL, max;
	const char *why0, *whys, *why;
	size_t len = strlen(s);
	uint64_t maxima[5];
	size_t i;

	why0 = parse_u64(s, 0, UINT64_MAX, &v0);
	whys = parse_u64(s, NUM_SUFFIX, UINT64_MAX, &vs);
	if (why0)
		FUZZ_ASSERT(v0 == SENTINEL);
	else
		check_plain(s, v0);
	if (whys) {
		FUZZ_ASSERT(vs == SENTINEL);
		FUZZ_ASSERT(why0);	/* a suffix only adds forms */
	} else if (!why0) {
		FUZZ_ASSERT(vs == v0);
	} else {
		/* accepted only with the suffix: PLAIN then one of KMG */
		char *prefix = strndup(s, len - 1);
		unsigned shift = shift_of(s[len - 1]);
		uint64_t p = SENTINEL;

		FUZZ_ASSERT(prefix && len >= 2 && shift);
		FUZZ_ASSERT(!parse_u64(prefix, 0, UINT64_MAX, &p));
		FUZZ_ASSERT(p <= UINT64_MAX >> shift && vs == p << shift);
		free(prefix);
	}
	/* a maximum refuses exactly the larger values, as "too large" */
	maxima[0] = 0;
	maxima[1] = 0xff;
	maxima[2] = UINT32_MAX;
	maxima[3] = why0 ? 1 : v0;
	maxima[4] = why0 || !v0 ? 0 : v0 - 1;
	for (i = 0; i < sizeof(maxima) / sizeof(maxima[0]); i++) {
		max = maxima[i];
		v = SENTINEL;
		why = parse_u64(s, 0, max, &v);
		if (why0) {
			FUZZ_ASSERT(why && v == SENTINEL);
		} else if (v0 > max) {
			FUZZ_ASSERT(why && !strcmp(why, "too large"));
			FUZZ_ASSERT(v == SENTINEL);
		} else {
			FUZZ_ASSERT(!why && v == v0);
		}
	}
}

static void check_width(const char *s)
{
	unsigned width = 0;
	uint64_t v = SENTINEL;
	int status, good;

	good = !parse_u64(s, 0, 8, &v) && (v == 1 || v == 2 || v == 4 ||
					   v == 8);
	status = FUZZ_CATCH_EXIT(width = parse_width_or_die(s));
	if (good)
		FUZZ_ASSERT(status == -1 && width == v);
	else
		FUZZ_ASSERT(status == IIOCTL_EUSAGE);
}

static void check_duration(const char *s)
{
	uint64_t ns = SENTINEL;
	const char *why = parse_duration(s, &ns);

	if (why) {
		FUZZ_ASSERT(ns == SENTINEL);
		return;
	}
	/* a digit first, or the point of a fraction without a whole (".5") */
	FUZZ_ASSERT(is_dec((unsigned char)s[0]) ||
		    (s[0] == '.' && is_dec((unsigned char)s[1])));
	if (all_of(s, is_dec)) {	/* whole seconds */
		errno = 0;
		FUZZ_ASSERT(strtoull(s, NULL, 10) * 1000000000ULL == ns);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);

	check_u64(s);
	check_width(s);
	check_duration(s);
	free(s);
	return 0;
}
