// SPDX-License-Identifier: GPL-2.0-only
/*
 * watch.c - iioctl watch DEV [OFFSET|REG[.FIELD]]...: poll registers, one line per
 * change with a timestamp and the old and new value (gpiomon for
 * registers)
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "location.h"
#include "region.h"

#define DEFAULT_FORMAT "%t %r %o -> %n"
#define DEFAULT_INTERVAL_NS 10000000ULL	/* 10ms */

/* A value as watch prints it: 0x and 2*width digits, a field's own digits */
static void print_watched(const struct location *loc, uint64_t v)
{
	unsigned bits = loc->field ? field_nbits(loc->field) : 8 * loc->width;

	printf("0x%0*llx", (int)((bits + 3) / 4),
	       (unsigned long long)location_extract(loc, v));
}

static void print_change(const char *fmt, const struct location *loc,
			 uint64_t old, uint64_t new)
{
	char label[160];
	const char *p;

	for (p = fmt; *p; p++) {
		if (*p != '%') {
			putchar(*p);
			continue;
		}
		switch (*++p) {
		case 't': print_clock(stdout, CLOCK_MONOTONIC); break;
		case 'T': print_clock(stdout, CLOCK_REALTIME); break;
		case 'r':
			location_label(loc, label, sizeof(label));
			fputs(label, stdout);
			break;
		case 'o': print_watched(loc, old); break;
		case 'n': print_watched(loc, new); break;
		default: putchar('%'); break;
		}
	}
	putchar('\n');
}

/* watch -j: a JSON line per change */
static void print_change_json(const struct region *r,
			      const struct location *loc, uint64_t old,
			      uint64_t new)
{
	fputs("{\"time\": \"", stdout);
	print_clock(stdout, CLOCK_MONOTONIC);
	fputs("\", ", stdout);
	location_json(r, loc);
	location_json_value(loc, "old", old);
	location_json_value(loc, "new", new);
	puts("}");
}

static int do_watch(int argc, const char **argv)
{
	const char *width_arg = NULL, *interval_arg = NULL, *count_arg = NULL;
	const char *timeout_arg = NULL, *fmt = NULL, *arg;
	uint64_t interval = DEFAULT_INTERVAL_NS, timeout = 0, deadline = 0;
	uint64_t count = 0, seen = 0, *values, v, now;
	struct location *locs;
	size_t n = 0, i;
	unsigned width = 4;
	int json = 0;
	struct region r;
	poptContext ctx;
	const struct poptOption options[] = {
		{ "width", 'w', POPT_ARG_STRING, &width_arg, 0,
		  "access width in bytes: 1, 2, 4 or 8 (default: the register's, or 4)",
		  "W" },
		{ "interval", 'i', POPT_ARG_STRING, &interval_arg, 0,
		  "read every INTERVAL (default 10ms)", "INTERVAL" },
		{ "num-changes", 'n', POPT_ARG_STRING, &count_arg, 0,
		  "return after N changes (default: until interrupted)", "N" },
		{ "timeout", 't', POPT_ARG_STRING, &timeout_arg, 0,
		  "return (status 0) after TIMEOUT", "TIMEOUT" },
		{ "format", 0, POPT_ARG_STRING, &fmt, 0,
		  "line per change: %t monotonic, %T realtime, %r register (its offset or name), %o old, %n new, %% (default \"" DEFAULT_FORMAT "\")",
		  "FMT" },
		{ "json", 'j', POPT_ARG_NONE, &json, 0,
		  "a JSON object a line per change (JSON lines)", NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE,
		  (void *)region_popt_options, 0, "Node options:", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};

	region_opts = (struct region_options){ 0 };
	ctx = parse_options(argc, argv, options, "DEV [OFFSET|REG[.FIELD]]...");
	if (width_arg)
		width = parse_width_or_die(width_arg);
	if (json && fmt)
		die(IIOCTL_EUSAGE, "--json and --format conflict");
	if (!fmt)
		fmt = DEFAULT_FORMAT;
	region_select(&r, need_arg(ctx, "DEV"));
	locs = xmalloc(sizeof(*locs));
	while ((arg = poptGetArg(ctx))) {
		locs = xrealloc(locs, (n + 1) * sizeof(*locs));
		location_parse_or_die(&r, arg, width_arg ? width : 0,
				      &locs[n]);
		location_check_access(&locs[n], false);
		region_check_range(&r, locs[n].offset, locs[n].width,
				   locs[n].width);
		n++;
	}
	if (!n) {
		/* every value of the node */
		region_check_range(&r, 0, r.size - r.size % width, width);
		n = (size_t)(r.size / width);
		locs = xrealloc(locs, (n ? n : 1) * sizeof(*locs));
		for (i = 0; i < n; i++)
			locs[i] = (struct location){ .offset = i * width,
						     .width = width };
	}
	if (interval_arg)
		interval = parse_duration_or_die(interval_arg, "interval");
	if (timeout_arg)
		timeout = parse_duration_or_die(timeout_arg, "timeout");
	if (count_arg)
		count = parse_u64_or_die(count_arg, "number of changes", 0,
					 UINT64_MAX);
	check_format_or_die(fmt, "tTron%");
	if (iioctl_dry_run) {
		free(locs);
		return IIOCTL_OK;
	}

	region_open(&r, false, 0, r.size);
	values = xmalloc((n ? n : 1) * sizeof(*values));
	for (i = 0; i < n; i++)
		values[i] = region_read_value(&r, locs[i].offset,
					      locs[i].width);
	if (timeout_arg)
		deadline = now_ns() + timeout;
	while (!count || seen < count) {
		now = now_ns();
		if (timeout_arg && now >= deadline)
			break;
		sleep_ns(timeout_arg && deadline - now < interval ?
			 deadline - now : interval);
		for (i = 0; i < n && (!count || seen < count); i++) {
			v = region_read_value(&r, locs[i].offset,
					      locs[i].width);
			if (location_extract(&locs[i], v) ==
			    location_extract(&locs[i], values[i]))
				continue;
			if (json)
				print_change_json(&r, &locs[i], values[i], v);
			else
				print_change(fmt, &locs[i], values[i], v);
			values[i] = v;
			seen++;
		}
		flush_stdout();
	}
	free(values);
	free(locs);
	region_close(&r);
	return IIOCTL_OK;
}

const struct iioctl_cmd iioctl_cmd_watch = {
	.name = "watch",
	.run = do_watch,
	.help = "a line per change of registers (-i INTERVAL, -n N, -t TIMEOUT, --format, -j)",
};
