// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_regmap.c - libFuzzer harness of the register map parser iioctl uses,
 * libudrv's (lib/regmap.c, udrv_regmap_parse(3), iio-regmap(5)).  The input
 * is a map's text, NULs and all.  A map is either refused, -EINVAL with a
 * message "fuzz:LINE: why", LINE within the text, and no map (nothing left
 * allocated: the leak check), or accepted, and then it keeps the format's
 * promises: at least one register; names of letters, digits and _, unique
 * in their scope ignoring case and each found by its name in any case;
 * widths 1, 2, 4, 8 with aligned offsets and no two registers overlapping;
 * fields inside their register, not overlapping; values inside their
 * field, no two alike; reset values inside the width.  Written back out as
 * text, the map parses again into the same map.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <strings.h>

#include "fuzz_common.h"
#include "udrv.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static void check_name(const char *name)
{
	const char *c;

	FUZZ_ASSERT(*name && strlen(name) <= UDRV_REGMAP_NAME_MAX);
	FUZZ_ASSERT(!isdigit((unsigned char)*name));
	for (c = name; *c; c++)
		FUZZ_ASSERT(isalnum((unsigned char)*c) || *c == '_');
}

/* name with its case flipped: lookups ignore case */
static char *flip_case(const char *name)
{
	char *s = strdup(name), *c;

	FUZZ_ASSERT(s);
	for (c = s; *c; c++)
		*c = (char)(islower((unsigned char)*c) ?
			    toupper((unsigned char)*c) :
			    tolower((unsigned char)*c));
	return s;
}

static uint64_t width_mask(unsigned int width)
{
	return width >= 8 ? UINT64_MAX : (1ULL << 8 * width) - 1;
}

static void check_field(const struct udrv_reg *r, const struct udrv_field *f)
{
	const struct udrv_field_value *v;
	unsigned int msb = udrv_field_msb(f), lsb = udrv_field_lsb(f);
	uint64_t bits = udrv_field_mask(f) >> lsb;
	size_t k, l;
	char *flipped;

	check_name(udrv_field_name(f));
	FUZZ_ASSERT(lsb <= msb && msb < 8 * udrv_reg_width(r));
	FUZZ_ASSERT(bits == (msb - lsb == 63 ? UINT64_MAX :
			     (1ULL << (msb - lsb + 1)) - 1));
	flipped = flip_case(udrv_field_name(f));
	FUZZ_ASSERT(udrv_reg_find_field(r, flipped) == f);
	free(flipped);
	FUZZ_ASSERT(!udrv_field_value_at(f, udrv_field_value_count(f)));
	for (k = 0; k < udrv_field_value_count(f); k++) {
		v = udrv_field_value_at(f, k);
		check_name(udrv_field_value_name(v));
		FUZZ_ASSERT(!(udrv_field_value_number(v) & ~bits));
		FUZZ_ASSERT(udrv_field_find_value(f, udrv_field_value_name(v)) ==
			    v);
		FUZZ_ASSERT(udrv_field_value_for(f, udrv_field_value_number(v)) ==
			    v);
		for (l = 0; l < k; l++)
			FUZZ_ASSERT(strcasecmp(udrv_field_value_name(
						udrv_field_value_at(f, l)),
					       udrv_field_value_name(v)));
	}
}

static void check_map(const struct udrv_regmap *map)
{
	const struct udrv_reg *r, *o;
	const struct udrv_field *f, *g;
	size_t i, j, k, n = udrv_regmap_reg_count(map);
	uint64_t reset;
	char *flipped;

	FUZZ_ASSERT(n > 0);
	FUZZ_ASSERT(!udrv_regmap_reg_at(map, n));
	for (i = 0; i < n; i++) {
		unsigned int w;

		r = udrv_regmap_reg_at(map, i);
		w = udrv_reg_width(r);
		check_name(udrv_reg_name(r));
		FUZZ_ASSERT(w == 1 || w == 2 || w == 4 || w == 8);
		FUZZ_ASSERT(udrv_reg_offset(r) % w == 0);
		FUZZ_ASSERT(udrv_reg_access_name(udrv_reg_access(r)));
		FUZZ_ASSERT(udrv_reg_reset(r, &reset) ||
			    !(reset & ~width_mask(w)));
		flipped = flip_case(udrv_reg_name(r));
		FUZZ_ASSERT(udrv_regmap_find_reg(map, flipped) == r);
		free(flipped);
		for (j = 0; j < i; j++) {
			o = udrv_regmap_reg_at(map, j);
			FUZZ_ASSERT(udrv_reg_offset(r) >=
				    udrv_reg_offset(o) + udrv_reg_width(o) ||
				    udrv_reg_offset(o) >=
				    udrv_reg_offset(r) + w);
		}
		FUZZ_ASSERT(!udrv_reg_field_at(r, udrv_reg_field_count(r)));
		for (j = 0; j < udrv_reg_field_count(r); j++) {
			f = udrv_reg_field_at(r, j);
			check_field(r, f);
			for (k = 0; k < j; k++) {
				g = udrv_reg_field_at(r, k);
				FUZZ_ASSERT(!(udrv_field_mask(f) &
					      udrv_field_mask(g)));
			}
		}
	}
}

static void out(char **buf, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void out(char **buf, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	*buf = realloc(*buf, *len + (size_t)n + 1);
	FUZZ_ASSERT(*buf);
	va_start(ap, fmt);
	vsnprintf(*buf + *len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	*len += (size_t)n;
}

/* The map as text in the format (descriptions as they were read). */
static char *write_map(const struct udrv_regmap *map, size_t *len)
{
	const struct udrv_reg *r;
	const struct udrv_field *f;
	const struct udrv_field_value *v;
	char *buf = NULL;
	size_t i, j, k;
	uint64_t reset;

	*len = 0;
	for (i = 0; i < udrv_regmap_reg_count(map); i++) {
		r = udrv_regmap_reg_at(map, i);
		out(&buf, len, "register %s 0x%llx %u %s", udrv_reg_name(r),
		    (unsigned long long)udrv_reg_offset(r), udrv_reg_width(r),
		    udrv_reg_access_name(udrv_reg_access(r)));
		if (udrv_reg_read(r) != UDRV_READ_PLAIN)
			out(&buf, len, " read=%s",
			    udrv_reg_read_name(udrv_reg_read(r)));
		if (!udrv_reg_reset(r, &reset))
			out(&buf, len, " reset=0x%llx", (unsigned long long)reset);
		out(&buf, len, " %s\n", udrv_reg_desc(r));
		for (j = 0; j < udrv_reg_field_count(r); j++) {
			f = udrv_reg_field_at(r, j);
			out(&buf, len, "\tfield %s %u:%u", udrv_field_name(f),
			    udrv_field_msb(f), udrv_field_lsb(f));
			if (udrv_field_access(f) != UDRV_REG_RW)
				out(&buf, len, " %s", udrv_reg_access_name(
					udrv_field_access(f)));
			out(&buf, len, " %s\n", udrv_field_desc(f));
			for (k = 0; k < udrv_field_value_count(f); k++) {
				v = udrv_field_value_at(f, k);
				out(&buf, len, "\t\tvalue %s %llu %s\n",
				    udrv_field_value_name(v),
				    (unsigned long long)udrv_field_value_number(v),
				    udrv_field_value_desc(v));
			}
		}
	}
	return buf;
}

static void check_same(const struct udrv_regmap *a, const struct udrv_regmap *b)
{
	const struct udrv_reg *r, *s;
	const struct udrv_field *f, *g;
	const struct udrv_field_value *v, *w;
	size_t i, j, k;
	uint64_t ra = 0, rb = 0;

	FUZZ_ASSERT(udrv_regmap_reg_count(a) == udrv_regmap_reg_count(b));
	for (i = 0; i < udrv_regmap_reg_count(a); i++) {
		r = udrv_regmap_reg_at(a, i);
		s = udrv_regmap_reg_at(b, i);
		FUZZ_ASSERT(!strcmp(udrv_reg_name(r), udrv_reg_name(s)) &&
			    udrv_reg_offset(r) == udrv_reg_offset(s) &&
			    udrv_reg_width(r) == udrv_reg_width(s) &&
			    udrv_reg_access(r) == udrv_reg_access(s) &&
			    udrv_reg_read(r) == udrv_reg_read(s) &&
			    udrv_reg_reset(r, &ra) == udrv_reg_reset(s, &rb) &&
			    ra == rb &&
			    !strcmp(udrv_reg_desc(r), udrv_reg_desc(s)) &&
			    udrv_reg_field_count(r) == udrv_reg_field_count(s));
		for (j = 0; j < udrv_reg_field_count(r); j++) {
			f = udrv_reg_field_at(r, j);
			g = udrv_reg_field_at(s, j);
			FUZZ_ASSERT(!strcmp(udrv_field_name(f), udrv_field_name(g)) &&
				    udrv_field_msb(f) == udrv_field_msb(g) &&
				    udrv_field_lsb(f) == udrv_field_lsb(g) &&
				    udrv_field_access(f) == udrv_field_access(g) &&
				    !strcmp(udrv_field_desc(f), udrv_field_desc(g)) &&
				    udrv_field_value_count(f) ==
				    udrv_field_value_count(g));
			for (k = 0; k < udrv_field_value_count(f); k++) {
				v = udrv_field_value_at(f, k);
				w = udrv_field_value_at(g, k);
				FUZZ_ASSERT(!strcmp(udrv_field_value_name(v),
						    udrv_field_value_name(w)) &&
					    udrv_field_value_number(v) ==
					    udrv_field_value_number(w) &&
					    !strcmp(udrv_field_value_desc(v),
						    udrv_field_value_desc(w)));
			}
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct udrv_regmap *map = (void *)1, *again;
	unsigned int line = 0, lines = 1;
	const char *err;
	char *text, *end;
	size_t i, len;
	int ret;

	for (i = 0; i < size; i++)
		lines += data[i] == '\n';
	ret = udrv_regmap_parse((const char *)data, size, "fuzz", &map);
	if (ret) {
		err = udrv_strerror();
		FUZZ_ASSERT(ret == -EINVAL || ret == -ENOMEM);
		FUZZ_ASSERT(!map);
		if (ret == -ENOMEM)
			return 0;
		FUZZ_ASSERT(!strncmp(err, "fuzz:", 5));
		line = (unsigned int)strtoul(err + 5, &end, 10);
		FUZZ_ASSERT(end > err + 5 && !strncmp(end, ": ", 2) && end[2]);
		FUZZ_ASSERT(line >= 1 && line <= lines);
		return 0;
	}
	check_map(map);
	text = write_map(map, &len);
	if (udrv_regmap_parse(text, len, "again", &again)) {
		fprintf(stderr, "fuzz: the map written back fails: %s\n%s",
			udrv_strerror(), text);
		abort();
	}
	check_same(map, again);
	udrv_regmap_free(again);
	udrv_regmap_free(map);
	free(text);
	return 0;
}
