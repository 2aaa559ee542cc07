// SPDX-License-Identifier: GPL-2.0-only
/*
 * regs.c - iioctl regs DEV [REG[.FIELD]]...: the registers of the
 * device's register map read and decoded field by field (text or JSON),
 * or with --names only their names (a field's: its named values)
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "location.h"
#include "region.h"
#include "regmap_search.h"

/* One register to show: where it is, and one field or all of them. */
struct shown {
	struct location loc;
	bool has_value;
	uint64_t value;
	const char *not_read;	/* why it was not read, or NULL */
};

/* The text table: a row per register or field, columns aligned. */
enum { COL_NAME, COL_WHERE, COL_ACCESS, COL_VALUE, COL_DESC, NCOLS };

struct row {
	char *col[NCOLS];
};

static char *format(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static char *format(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		die(IIOCTL_EDEVICE, "out of memory");
	return s;
}

/* a map's text as a table shows it (common.h's text_escape()) */
static char *escaped(const char *text)
{
	size_t size = 4 * strlen(text) + 1;
	char *s = xmalloc(size);

	text_escape(text, s, size);
	return s;
}

static char *field_bits_text(const struct udrv_field *f)
{
	unsigned msb = udrv_field_msb(f), lsb = udrv_field_lsb(f);

	return msb == lsb ? format("%u", lsb) : format("%u:%u", msb, lsb);
}

static char *field_value_text(const struct shown *s,
			      const struct udrv_field *f)
{
	struct location floc = s->loc;
	const struct udrv_field_value *named;
	unsigned bits = field_nbits(f);
	uint64_t v;

	if (!s->has_value)
		return xstrdup("-");
	location_set_field(&floc, f);
	v = location_extract(&floc, s->value);
	named = udrv_field_value_for(f, v);
	return format("0x%0*llx%s%s%s", (int)((bits + 3) / 4),
		      (unsigned long long)v, named ? " (" : "",
		      named ? udrv_field_value_name(named) : "",
		      named ? ")" : "");
}

static char *reg_value_text(const struct shown *s)
{
	int digits = (int)(2 * s->loc.width);
	uint64_t reset;

	if (!s->has_value)
		return format("- (%s)", s->not_read);
	if (!udrv_reg_reset(s->loc.reg, &reset) && s->value != reset)
		return format("0x%0*llx (reset 0x%0*llx)", digits,
			      (unsigned long long)s->value, digits,
			      (unsigned long long)reset);
	return format("0x%0*llx", digits, (unsigned long long)s->value);
}

static void add_row(struct row **rows, size_t *n, char *name, char *where,
		    char *access, char *value, const char *desc)
{
	struct row *r;

	*rows = xrealloc(*rows, (*n + 1) * sizeof(**rows));
	r = &(*rows)[(*n)++];
	r->col[COL_NAME] = name;
	r->col[COL_WHERE] = where;
	r->col[COL_ACCESS] = access;
	r->col[COL_VALUE] = value;
	r->col[COL_DESC] = escaped(desc);
}

static void print_text(const struct shown *shown, size_t n)
{
	struct row *rows = NULL;
	size_t nrows = 0, i, j, width[NCOLS] = { 0 };
	int digits = 2;

	for (i = 0; i < n; i++)
		while (shown[i].loc.offset >> (4 * digits) && digits < 16)
			digits++;
	for (i = 0; i < n; i++) {
		const struct shown *s = &shown[i];
		const struct udrv_reg *reg = s->loc.reg;

		add_row(&rows, &nrows, escaped(udrv_reg_name(reg)),
			format("0x%0*llx", digits,
			       (unsigned long long)s->loc.offset),
			xstrdup(udrv_reg_access_name(udrv_reg_access(reg))),
			reg_value_text(s), udrv_reg_desc(reg));
		for (j = 0; j < udrv_reg_field_count(reg); j++) {
			const struct udrv_field *f = udrv_reg_field_at(reg, j);

			if (s->loc.field && s->loc.field != f)
				continue;
			add_row(&rows, &nrows,
				format("  %s", udrv_field_name(f)),
				field_bits_text(f),
				xstrdup(udrv_field_access(f) == UDRV_REG_RW ?
					"" : udrv_reg_access_name(
						udrv_field_access(f))),
				field_value_text(s, f), udrv_field_desc(f));
		}
	}
	for (i = 0; i < nrows; i++)
		for (j = 0; j < NCOLS; j++)
			if (strlen(rows[i].col[j]) > width[j])
				width[j] = strlen(rows[i].col[j]);
	for (i = 0; i < nrows; i++) {
		char *line = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&line, &len);

		if (!f)
			die(IIOCTL_EDEVICE, "out of memory");
		for (j = 0; j < NCOLS; j++) {
			fprintf(f, "%s%-*s", j ? "  " : "", (int)width[j],
				rows[i].col[j]);
			free(rows[i].col[j]);
		}
		fclose(f);
		while (len && line[len - 1] == ' ')
			line[--len] = '\0';
		puts(line);
		free(line);
	}
	free(rows);
}

static void json_field(const struct shown *s, const struct udrv_field *f)
{
	struct location floc = s->loc;
	const struct udrv_field_value *named = NULL;
	uint64_t v = 0;

	location_set_field(&floc, f);
	if (s->has_value) {
		v = location_extract(&floc, s->value);
		named = udrv_field_value_for(f, v);
	}
	printf("{\"name\": ");
	json_string(stdout, udrv_field_name(f));
	printf(", \"msb\": %u, \"lsb\": %u, \"value\": ", udrv_field_msb(f),
	       udrv_field_lsb(f));
	if (s->has_value)
		json_hex(stdout, v);
	else
		printf("null");
	printf(", \"value_name\": ");
	if (named)
		json_string(stdout, udrv_field_value_name(named));
	else
		printf("null");
	printf(", \"description\": ");
	json_string(stdout, udrv_field_desc(f));
	printf("}");
}

static void print_json(const struct shown *shown, size_t n)
{
	size_t i, j;
	uint64_t reset;
	bool first;

	printf("[");
	for (i = 0; i < n; i++) {
		const struct shown *s = &shown[i];
		const struct udrv_reg *reg = s->loc.reg;

		printf("%s\n  {\"name\": ", i ? "," : "");
		json_string(stdout, udrv_reg_name(reg));
		fputs(", \"offset\": ", stdout);
		json_hex(stdout, s->loc.offset);
		printf(", \"width\": %u, \"access\": \"%s\", \"value\": ",
		       s->loc.width,
		       udrv_reg_access_name(udrv_reg_access(reg)));
		if (s->has_value)
			json_hex(stdout, s->value);
		else
			printf("null");
		printf(", \"read\": \"%s\", \"reset\": ",
		       udrv_reg_read_name(udrv_reg_read(reg)));
		if (!udrv_reg_reset(reg, &reset))
			json_hex(stdout, reset);
		else
			printf("null");
		printf(", \"description\": ");
		json_string(stdout, udrv_reg_desc(reg));
		printf(", \"fields\": [");
		first = true;
		for (j = 0; j < udrv_reg_field_count(reg); j++) {
			const struct udrv_field *f = udrv_reg_field_at(reg, j);

			if (s->loc.field && s->loc.field != f)
				continue;
			printf("%s", first ? "" : ", ");
			first = false;
			json_field(s, f);
		}
		printf("]}");
	}
	printf("%s]\n", n ? "\n" : "");
}

/* Whether a read (readable) or a write (writable) takes the name. */
static bool name_takes(const struct location *loc, int readable,
		       int writable)
{
	char why[WHY_MAX];

	if (readable && !location_access(loc, false, why))
		return false;
	return !writable || location_access(loc, true, why);
}

static int do_regs(int argc, const char **argv)
{
	const struct udrv_regmap *map;
	struct shown *shown = NULL;
	struct location *skipped = NULL;
	const char *arg;
	char why[WHY_MAX];
	int json = 0, names = 0, force = 0, status = IIOCTL_OK;
	int readable = 0, writable = 0;
	size_t n = 0, nskipped = 0, i, j;
	struct region r;
	poptContext ctx;
	struct iio_window w = { 0 };
	const struct poptOption options[] = {
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "print JSON", NULL },
		{ "names", 0, POPT_ARG_NONE, &names, 0,
		  "print the names only (REG and REG.FIELD; of a REG.FIELD, its "
		  "named values), reading no register",
		  NULL },
		{ "readable", 0, POPT_ARG_NONE, &readable, 0,
		  "with --names: only what a read (peek, watch, wait-value) takes",
		  NULL },
		{ "writable", 0, POPT_ARG_NONE, &writable, 0,
		  "with --names: only what a write (poke) takes", NULL },
		/* region_popt_options but --dma: a DMA buffer has no map */
		{ "in", 0, POPT_ARG_NONE, &region_opts.in, 0,
		  "use the in window (/dev/iioN_in)", NULL },
		{ "out", 0, POPT_ARG_NONE, &region_opts.out, 0,
		  "use the out window (/dev/iioN_out)", NULL },
		{ "mmap", 0, POPT_ARG_NONE, &region_opts.mmap, 0,
		  "access through mmap() instead of pread()/pwrite()", NULL },
		{ "force", 0, POPT_ARG_NONE, &force, 0,
		  "read the registers whose read has side effects too", NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE,
		  (void *)region_value_popt_options, 0, NULL, NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};

	region_opts = (struct region_options){ 0 };
	ctx = parse_options(argc, argv, options, "DEV [REG[.FIELD]]...");
	region_select(&r, need_arg(ctx, "DEV"));
	map = device_regmap(r.dev);
	if (!map) {
		char searched[WHY_MAX / 2];

		regmap_searched(r.dev, searched, sizeof(searched));
		die(IIOCTL_EUSAGE, "%s has no register map (%s; see iio-regmap(5))",
		    r.dev->label, searched);
	}
	if (names && json)
		die(IIOCTL_EUSAGE, "--names and --json conflict");
	if ((readable || writable) && !names)
		die(IIOCTL_EUSAGE, "--%s needs --names",
		    readable ? "readable" : "writable");
	if (readable && writable)
		die(IIOCTL_EUSAGE, "--readable and --writable conflict");
	while ((arg = poptGetArg(ctx))) {
		shown = xrealloc(shown, (n + 1) * sizeof(*shown));
		memset(&shown[n], 0, sizeof(*shown));
		if (!(*arg >= '0' && *arg <= '9'))
			location_parse_or_die(&r, arg, 0, &shown[n].loc);
		if (!shown[n].loc.reg)
			die(IIOCTL_EUSAGE, "regs takes register names, not '%s'",
			    msg_word(arg));
		n++;
	}
	if (!n) {
		if (r.node == NODE_IN || r.node == NODE_OUT)
			w = device_window(r.dev, r.node);
		for (i = 0; i < udrv_regmap_reg_count(map); i++) {
			const struct udrv_reg *reg = udrv_regmap_reg_at(map, i);
			uint64_t offset = udrv_reg_offset(reg);

			if (w.present && (offset < w.offset ||
					  offset - w.offset >= w.len))
				continue;
			shown = xrealloc(shown, (n + 1) * sizeof(*shown));
			memset(&shown[n], 0, sizeof(*shown));
			location_parse_or_die(&r, udrv_reg_name(reg), 0,
					      &shown[n++].loc);
		}
		if (!n && !names)
			die(IIOCTL_EUSAGE, "%s: no register of %s is inside it",
			    r.label, udrv_regmap_path(map));
	}
	if (names) {
		for (i = 0; i < n && !iioctl_dry_run; i++) {
			const struct udrv_reg *reg = shown[i].loc.reg;
			const struct udrv_field *f = shown[i].loc.field;

			if (f) {	/* REG.FIELD: its named values */
				for (j = 0; j < udrv_field_value_count(f); j++)
					printf("%s\n", udrv_field_value_name(
						udrv_field_value_at(f, j)));
				continue;
			}
			if (name_takes(&shown[i].loc, readable, writable))
				printf("%s\n", udrv_reg_name(reg));
			for (j = 0; j < udrv_reg_field_count(reg); j++) {
				struct location loc = shown[i].loc;

				location_set_field(&loc,
						   udrv_reg_field_at(reg, j));
				if (name_takes(&loc, readable, writable))
					printf("%s.%s\n", udrv_reg_name(reg),
					       udrv_field_name(loc.field));
			}
		}
		free(shown);
		return IIOCTL_OK;
	}
	/*
	 * what is not read: write-only registers, those past the end of the
	 * node (named, the others still shown; status 1), and without
	 * --force those whose read has side effects (one line)
	 */
	for (i = 0; i < n; i++) {
		struct shown *sh = &shown[i];

		if (udrv_reg_access(sh->loc.reg) == UDRV_REG_WO) {
			sh->not_read = "write-only";
		} else if (!region_range(&r, sh->loc.offset, sh->loc.width,
					 sh->loc.width, why)) {
			sh->not_read = "past the end";
			fprintf(stderr, "iioctl: register %s: %s\n",
				udrv_reg_name(sh->loc.reg), why);
			status = IIOCTL_EDEVICE;
		} else if (!force && location_read_effect(sh->loc.reg)) {
			sh->not_read = udrv_reg_read(sh->loc.reg) ==
				       UDRV_READ_CLEARS ?
				       "read=clear: not read" :
				       "read=pop: not read";
			skipped = xrealloc(skipped, (nskipped + 1) *
					   sizeof(*skipped));
			skipped[nskipped++] = sh->loc;
		}
	}
	if (iioctl_dry_run) {
		for (i = 0; i < n; i++)
			if (!shown[i].not_read)
				region_plan_read(&r, shown[i].loc.offset,
						 shown[i].loc.width,
						 shown[i].loc.width);
		free(skipped);
		free(shown);
		return status;
	}
	location_say_skipped(&r, skipped, nskipped);
	free(skipped);
	region_open(&r, false, 0, r.size);
	for (i = 0; i < n; i++) {
		if (shown[i].not_read)
			continue;
		shown[i].value = region_read_value(&r, shown[i].loc.offset,
						   shown[i].loc.width);
		shown[i].has_value = true;
	}
	region_close(&r);
	if (json)
		print_json(shown, n);
	else
		print_text(shown, n);
	free(shown);
	return status;
}

const struct iioctl_cmd iioctl_cmd_regs = {
	.name = "regs",
	.run = do_regs,
	.help = "the registers of the device's map, decoded (-j JSON, --names)",
};
