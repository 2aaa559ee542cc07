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
/* Without an OFFSET, --length or --all: the first 256 bytes, as dump. */
#define DEFAULT_LENGTH 256
/* Reads between two looks at the clock inside a sweep (for -t). */
#define READS_PER_CLOCK 64

/* A value as watch prints it: 0x and 2*width digits, a field's own digits */
static void print_watched(const struct location *loc, uint64_t v)
{
	unsigned bits = location_nbits(loc);

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
	const char *len_arg = NULL;
	uint64_t interval = DEFAULT_INTERVAL_NS, timeout = 0, deadline = 0;
	uint64_t count = 0, seen = 0, *values, v, now, len;
	struct location *locs, *marked = NULL;
	size_t n = 0, nmarked = 0, i, k, kept;
	int all = 0, force = 0;
	bool past = false, *met;
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
		{ "length", 0, POPT_ARG_STRING, &len_arg, 0,
		  "without OFFSET: the values of the first LENGTH bytes (default 256)",
		  "LENGTH" },
		{ "all", 'a', POPT_ARG_NONE, &all, 0,
		  "without OFFSET: every value of the region or window", NULL },
		{ "force", 0, POPT_ARG_NONE, &force, 0,
		  "read the registers whose read has side effects too", NULL },
		{ "format", 0, POPT_ARG_STRING, &fmt, 0,
		  "line per change: %t monotonic, %T realtime, %r register (its offset or name), %o old, %n new, %% (default \"" DEFAULT_FORMAT "\")",
		  "FMT" },
		{ "json", 'j', POPT_ARG_NONE, &json, 0,
		  "a JSON object a line per change (JSON lines)", NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE,
		  (void *)region_popt_options, 0, "Node options:", NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE,
		  (void *)region_value_popt_options, 0, NULL, NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};

	region_opts = (struct region_options){ 0 };
	ctx = parse_options(argc, argv, options,
			    "DEV [OFFSET|REG[.FIELD]|OFFSET:MSB:LSB]... | @ADDR[:MSB:LSB] [...]");
	if (width_arg)
		width = parse_width_or_die(width_arg);
	if (json && fmt)
		die(IIOCTL_EUSAGE, "--json and --format conflict");
	if (!fmt)
		fmt = DEFAULT_FORMAT;
	arg = location_select(&r, ctx, false);
	locs = xmalloc(sizeof(*locs));
	for (; arg; arg = poptGetArg(ctx)) {
		locs = xrealloc(locs, (n + 1) * sizeof(*locs));
		location_parse_or_die(&r, arg, width_arg ? width : 0,
				      &locs[n]);
		location_check_access(&locs[n], false);
		region_check_range(&r, locs[n].offset, locs[n].width,
				   locs[n].width);
		n++;
	}
	if (n && (all || len_arg))
		die(IIOCTL_EUSAGE, "--%s is for a watch without OFFSET",
		    all ? "all" : "length");
	if (all && len_arg)
		die(IIOCTL_EUSAGE, "--all and --length conflict");
	if (!n) {
		/* the values of the first 256 bytes, LENGTH or the node */
		len = r.size < DEFAULT_LENGTH || all ? r.size : DEFAULT_LENGTH;
		if (len_arg)
			len = parse_u64_or_die(len_arg, "length", NUM_SUFFIX,
					       UINT64_MAX);
		if (!len_arg)
			len -= len % width;
		region_check_range(&r, 0, len, width);
		n = (size_t)(len / width);
		locs = xrealloc(locs, (n ? n : 1) * sizeof(*locs));
		for (i = 0; i < n; i++)
			locs[i] = (struct location){ .offset = i * width,
						     .width = width };
	}
	/* without --force, no register whose read has side effects */
	if (!force)
		nmarked = location_effects_in(&r, 0, r.size, &marked);
	met = xmalloc(nmarked + 1);
	memset(met, 0, nmarked + 1);
	for (i = kept = 0; i < n; i++) {
		for (k = 0; k < nmarked; k++)
			if (marked[k].offset < locs[i].offset + locs[i].width &&
			    locs[i].offset < marked[k].offset + marked[k].width)
				break;
		if (k < nmarked)
			met[k] = true;
		else
			locs[kept++] = locs[i];
	}
	/* the marked registers a value to watch holds: the ones left out */
	for (k = i = 0; k < nmarked; k++)
		if (met[k])
			marked[i++] = marked[k];
	nmarked = i;
	free(met);
	if (nmarked && !kept)
		die(IIOCTL_EUSAGE, "%s: nothing left to watch: %s (0x%llx, read=%s) is read only with --force",
		    r.label, udrv_reg_name(marked[0].reg),
		    (unsigned long long)marked[0].offset,
		    location_read_effect(marked[0].reg));
	n = kept;
	if (interval_arg)
		interval = parse_duration_or_die(interval_arg, "interval");
	if (timeout_arg)
		timeout = parse_duration_or_die(timeout_arg, "timeout");
	if (count_arg)
		count = parse_u64_or_die(count_arg, "number of changes", 0,
					 UINT64_MAX);
	check_format_or_die(fmt, "tTron%");
	if (iioctl_dry_run) {
		for (i = 0; i < n && region_planning(); i++)
			region_plan_read(&r, locs[i].offset, locs[i].width,
					 locs[i].width);
		free(marked);
		free(locs);
		return IIOCTL_OK;
	}
	location_say_skipped(&r, marked, nmarked);
	free(marked);

	region_open(&r, false, 0, r.size);
	catch_sigint();
	values = xmalloc((n ? n : 1) * sizeof(*values));
	if (timeout_arg)
		deadline = now_ns() + timeout;
	for (i = 0; i < n && !past; i++) {
		if (timeout_arg && i && i % READS_PER_CLOCK == 0 &&
		    now_ns() >= deadline)
			past = true;
		values[i] = region_read_value(&r, locs[i].offset,
					      locs[i].width);
	}
	while (!past && (!count || seen < count)) {
		now = now_ns();
		if (timeout_arg && now >= deadline)
			break;
		sleep_ns(timeout_arg && deadline - now < interval ?
			 deadline - now : interval);
		for (i = 0; i < n && (!count || seen < count); i++) {
			/* the deadline holds inside a long sweep too */
			if (timeout_arg && i && i % READS_PER_CLOCK == 0 &&
			    now_ns() >= deadline) {
				past = true;
				break;
			}
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
		if (iioctl_interrupted)
			die(IIOCTL_EINTERRUPTED, "%s: interrupted after %llu change%s",
			    r.label, (unsigned long long)seen,
			    seen == 1 ? "" : "s");
		if (past)
			break;
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
