// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_number.c - libFuzzer harness of iioctl's number parsers
 * (cli/common.c): parse_u64 with and without K/M/G suffixes and under
 * several maxima, parse_width_or_die, parse_value_mask (VALUE and
 * setpci's VALUE:MASK) and parse_duration.  The input is the string (up
 * to its first NUL).  Besides the sanitizers, it checks what iioctl(1)
 * promises (NUMBERS; VALUE[:MASK] of poke and wait-value; TIMEOUT of
 * wait-events): the accepted forms round-trip, a suffix multiplies, the
 * maximum is the only difference a maximum makes, a mask holds the value,
 * a duration is [N][.F] with one of the units ns, us, ms, s, m or none,
 * and nothing is stored on an error.  A new form in the page needs its
 * case here and a seed in corpus/number.
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

/* VALUE or VALUE:MASK for each width, with and without -m MASK */
static void check_value_mask(const char *s)
{
	static const uint64_t widths[] = { 1, 2, 4, 8 };
	const char *colon = strchr(s, ':');
	char why[WHY_MAX];
	size_t i;

	for (i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
		uint64_t all = width_bits((unsigned)widths[i]);
		uint64_t v = SENTINEL, m = SENTINEL, pv = SENTINEL, pm = all;
		int ok = 0;
		bool got;

		got = parse_value_mask(s, NULL, all, &v, &m, why);
		if (colon) {
			char *value = strndup(s, (size_t)(colon - s));

			FUZZ_ASSERT(value);
			ok = !parse_u64(value, 0, all, &pv) &&
			     !parse_u64(colon + 1, 0, all, &pm);
			free(value);
			/* and VALUE:MASK with -m is a conflict */
			FUZZ_ASSERT(!parse_value_mask(s, "0x1", all, &v, &m, why));
		} else {
			ok = !parse_u64(s, 0, all, &pv);
		}
		ok = ok && !(pv & ~pm);
		FUZZ_ASSERT(got == ok);
		if (got)
			FUZZ_ASSERT(v == pv && m == pm && !(v & ~m));
	}
}

static uint64_t unit_ns(const char *u)
{
	if (!strcmp(u, "ns"))
		return 1;
	if (!strcmp(u, "us"))
		return 1000;
	if (!strcmp(u, "ms"))
		return 1000000;
	if (!strcmp(u, "s") || !*u)
		return 1000000000;
	if (!strcmp(u, "m"))
		return 60000000000ULL;
	return 0;
}

static void check_duration(const char *s)
{
	uint64_t ns = SENTINEL, again, unit;
	const char *why = parse_duration(s, &ns), *p = s, *point = NULL;
	char buf[64];

	if (why) {
		FUZZ_ASSERT(ns == SENTINEL);
		return;
	}
	/* [digits][.digits] (a digit on one side at least), then a unit */
	while (is_dec((unsigned char)*p))
		p++;
	if (*p == '.') {
		point = p++;
		FUZZ_ASSERT(is_dec((unsigned char)*p));
		while (is_dec((unsigned char)*p))
			p++;
	}
	FUZZ_ASSERT(p > s && (point != s || p > s + 1));
	unit = unit_ns(p);
	FUZZ_ASSERT(unit);
	if (!point) {		/* whole units: exact */
		char *whole = strndup(s, (size_t)(p - s));
		uint64_t n;

		FUZZ_ASSERT(whole);
		errno = 0;
		n = strtoull(whole, NULL, 10);
		FUZZ_ASSERT(errno == 0 && n <= UINT64_MAX / unit &&
			    n * unit == ns);
		free(whole);
	}
	/*
	 * a timeout message's form: "the timeout in the largest unit that
	 * shows it exactly" (s, ms, us or ns; "250ms")
	 */
	format_duration(ns, buf, sizeof(buf));
	for (p = buf; is_dec((unsigned char)*p); p++)
		;
	unit = unit_ns(p);
	FUZZ_ASSERT(p > buf && *p && strcmp(p, "m") && unit);
	errno = 0;
	again = strtoull(buf, NULL, 10);
	FUZZ_ASSERT(errno == 0 && again * unit == ns);
	FUZZ_ASSERT(unit == 1000000000 || again % 1000);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);

	check_u64(s);
	check_width(s);
	check_value_mask(s);
	check_duration(s);
	free(s);
	return 0;
}
