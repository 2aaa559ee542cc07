// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_regmap.c - libFuzzer harness of iioctl's register map parser
 * (cli/regmap.c, iio-regmap(5)).  The input is a map's text, NULs and
 * all.  A map is either refused, with a message and a line number within
 * the text and nothing left allocated, or accepted, and then it keeps the
 * format's promises: at least one register; names of letters, digits and
 * _, unique in their scope ignoring case and each found by its name in
 * any case; widths 1, 2, 4, 8 with aligned offsets and no two registers
 * overlapping; fields inside their register, not overlapping; values
 * inside their field, no two alike; reset values inside the width.
 * Written back out as text, the map parses again into the same map.
 */
#include <ctype.h>
#include <stdarg.h>

#include "fuzz_common.h"
#include "regmap.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static void check_name(const char *name)
{
	const char *c;

	FUZZ_ASSERT(*name && strlen(name) <= REGMAP_NAME_MAX);
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

static void check_field(const struct regmap_reg *r,
			const struct regmap_field *f)
{
	size_t k, l;
	char *flipped;

	check_name(f->name);
	FUZZ_ASSERT(f->lsb <= f->msb && f->msb < 8 * r->width);
	flipped = flip_case(f->name);
	FUZZ_ASSERT(regmap_find_field(r, flipped) == f);
	free(flipped);
	for (k = 0; k < f->nvalues; k++) {
		const struct regmap_value *v = &f->values[k];

		check_name(v->name);
		FUZZ_ASSERT(!(v->value & ~regmap_field_bits(f)));
		FUZZ_ASSERT(regmap_find_value(f, v->name) == v);
		FUZZ_ASSERT(regmap_value_name(f, v->value) == v);
		for (l = 0; l < k; l++)
			FUZZ_ASSERT(strcasecmp(f->values[l].name, v->name));
	}
}

static void check_map(const struct regmap *map)
{
	size_t i, j, k;
	char *flipped;

	FUZZ_ASSERT(map->nregs > 0);
	for (i = 0; i < map->nregs; i++) {
		const struct regmap_reg *r = &map->regs[i];

		check_name(r->name);
		FUZZ_ASSERT(r->width == 1 || r->width == 2 || r->width == 4 ||
			    r->width == 8);
		FUZZ_ASSERT(r->offset % r->width == 0);
		FUZZ_ASSERT(r->access <= ACCESS_W1C);
		FUZZ_ASSERT(!r->has_reset || !(r->reset & ~width_bits(r->width)));
		flipped = flip_case(r->name);
		FUZZ_ASSERT(regmap_find_reg(map, flipped) == r);
		free(flipped);
		for (j = 0; j < i; j++) {
			const struct regmap_reg *o = &map->regs[j];

			FUZZ_ASSERT(r->offset >= o->offset + o->width ||
				    o->offset >= r->offset + r->width);
		}
		for (j = 0; j < r->nfields; j++) {
			check_field(r, &r->fields[j]);
			for (k = 0; k < j; k++)
				FUZZ_ASSERT(r->fields[j].lsb > r->fields[k].msb ||
					    r->fields[k].lsb > r->fields[j].msb);
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
static char *write_map(const struct regmap *map, size_t *len)
{
	char *buf = NULL;
	size_t i, j, k;

	*len = 0;
	for (i = 0; i < map->nregs; i++) {
		const struct regmap_reg *r = &map->regs[i];

		out(&buf, len, "register %s 0x%llx %u %s", r->name,
		    (unsigned long long)r->offset, r->width,
		    regmap_access_name(r->access));
		if (r->has_reset)
			out(&buf, len, " reset=0x%llx",
			    (unsigned long long)r->reset);
		out(&buf, len, " %s\n", r->desc);
		for (j = 0; j < r->nfields; j++) {
			const struct regmap_field *f = &r->fields[j];

			out(&buf, len, "\tfield %s %u:%u %s\n", f->name, f->msb,
			    f->lsb, f->desc);
			for (k = 0; k < f->nvalues; k++)
				out(&buf, len, "\t\tvalue %s %llu %s\n",
				    f->values[k].name,
				    (unsigned long long)f->values[k].value,
				    f->values[k].desc);
		}
	}
	return buf;
}

static void check_same(const struct regmap *a, const struct regmap *b)
{
	size_t i, j, k;

	FUZZ_ASSERT(a->nregs == b->nregs);
	for (i = 0; i < a->nregs; i++) {
		const struct regmap_reg *r = &a->regs[i], *s = &b->regs[i];

		FUZZ_ASSERT(!strcmp(r->name, s->name) && r->offset == s->offset &&
			    r->width == s->width && r->access == s->access &&
			    r->has_reset == s->has_reset && r->reset == s->reset &&
			    !strcmp(r->desc, s->desc) &&
			    r->nfields == s->nfields);
		for (j = 0; j < r->nfields; j++) {
			const struct regmap_field *f = &r->fields[j];
			const struct regmap_field *g = &s->fields[j];

			FUZZ_ASSERT(!strcmp(f->name, g->name) && f->msb == g->msb &&
				    f->lsb == g->lsb && !strcmp(f->desc, g->desc) &&
				    f->nvalues == g->nvalues);
			for (k = 0; k < f->nvalues; k++)
				FUZZ_ASSERT(!strcmp(f->values[k].name,
						    g->values[k].name) &&
					    f->values[k].value ==
						    g->values[k].value &&
					    !strcmp(f->values[k].desc,
						    g->values[k].desc));
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct regmap map, again;
	char err[256] = "", *text;
	unsigned line = 0, lines = 1;
	size_t i, len;

	for (i = 0; i < size; i++)
		lines += data[i] == '\n';
	if (!regmap_parse((const char *)data, size, "fuzz", &map, &line, err,
			  sizeof(err))) {
		FUZZ_ASSERT(err[0] && strlen(err) < sizeof(err) - 1);
		FUZZ_ASSERT(line >= 1 && line <= lines);
		FUZZ_ASSERT(!map.regs && !map.nregs && !map.path);
		return 0;
	}
	check_map(&map);
	text = write_map(&map, &len);
	if (!regmap_parse(text, len, "again", &again, &line, err,
			  sizeof(err))) {
		fprintf(stderr, "fuzz: the map written back fails at line %u: %s\n%s",
			line, err, text);
		abort();
	}
	check_same(&map, &again);
	regmap_free(&again);
	regmap_free(&map);
	free(text);
	return 0;
}
