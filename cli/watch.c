// SPDX-License-Identifier: GPL-2.0-only
/*
 * watch.c - iioctl watch DEV [OFFSET]...: poll registers, one line per
 * change with a timestamp and the old and new value (gpiomon for
 * registers)
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "region.h"

#define DEFAULT_FORMAT "%t %r %o -> %n"
#define DEFAULT_INTERVAL_NS 10000000ULL	/* 10ms */

static void print_change(const char *fmt, uint64_t offset, unsigned width,
			 uint64_t old, uint64_t new)
{
	const char *p;

	for (p = fmt; *p; p++) {
		if (*p != '%') {
			putchar(*p);
			continue;
		}
		switch (*++p) {
		case 't': print_clock(stdout, CLOCK_MONOTONIC); break;
		case 'T': print_clock(stdout, CLOCK_REALTIME); break;
		case 'r': printf("0x%llx", (unsigned long long)offset); break;
		case 'o': printf("0x%0*llx", (int)(2 * width),
				 (unsigned long long)old); break;
		case 'n': printf("0x%0*llx", (int)(2 * width),
				 (unsigned long long)new); break;
		default: putchar('%'); break;
		}
	}
	putchar('\n');
}

static int do_watch(int argc, const char **argv)
{
	const char *width_arg = NULL, *interval_arg = NULL, *count_arg = NULL;
	const char *timeout_arg = NULL, *fmt = DEFAULT_FORMAT, *arg;
	uint64_t interval = DEFAULT_INTERVAL_NS, timeout = 0, deadline = 0;
	uint64_t count = 0, seen = 0, *offsets, *values, v, now;
	size_t n = 0, i;
	unsigned width = 4;
	struct region r;
	poptContext ctx;
	const struct poptOption options[] = {
		{ "width", 'w', POPT_ARG_STRING, &width_arg, 0,
		  "access width in bytes: 1, 2, 4 (default) or 8", "W" },
		{ "interval", 'i', POPT_ARG_STRING, &interval_arg, 0,
		  "read every INTERVAL (default 10ms)", "INTERVAL" },
		{ "num-changes", 'n', POPT_ARG_STRING, &count_arg, 0,
		  "return after N changes (default: until interrupted)", "N" },
		{ "timeout", 't', POPT_ARG_STRING, &timeout_arg, 0,
		  "return (status 0) after TIMEOUT", "TIMEOUT" },
		{ "format", 0, POPT_ARG_STRING, &fmt, 0,
		  "line per change: %t monotonic, %T realtime, %r register, %o old, %n new, %% (default \"" DEFAULT_FORMAT "\")",
		  "FMT" },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE,
		  (void *)region_popt_options, 0, "Node options:", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};

	region_opts = (struct region_options){ 0 };
	ctx = parse_options(argc, argv, options, "DEV [OFFSET]...");
	if (width_arg)
		width = parse_width_or_die(width_arg);
	region_select(&r, need_arg(ctx, "DEV"));
	offsets = xmalloc(sizeof(*offsets));
	while ((arg = poptGetArg(ctx))) {
		offsets = xrealloc(offsets, (n + 1) * sizeof(*offsets));
		offsets[n] = parse_u64_or_die(arg, "offset", NUM_SUFFIX,
					      UINT64_MAX);
		region_check_range(&r, offsets[n++], width, width);
	}
	if (!n) {
		/* every value of the node */
		region_check_range(&r, 0, r.size - r.size % width, width);
		n = (size_t)(r.size / width);
		offsets = xrealloc(offsets, (n ? n : 1) * sizeof(*offsets));
		for (i = 0; i < n; i++)
			offsets[i] = i * width;
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
		free(offsets);
		return IIOCTL_OK;
	}

	region_open(&r, false, 0, r.size);
	values = xmalloc((n ? n : 1) * sizeof(*values));
	for (i = 0; i < n; i++)
		values[i] = region_read_value(&r, offsets[i], width);
	if (timeout_arg)
		deadline = now_ns() + timeout;
	while (!count || seen < count) {
		now = now_ns();
		if (timeout_arg && now >= deadline)
			break;
		sleep_ns(timeout_arg && deadline - now < interval ?
			 deadline - now : interval);
		for (i = 0; i < n && (!count || seen < count); i++) {
			v = region_read_value(&r, offsets[i], width);
			if (v == values[i])
				continue;
			print_change(fmt, offsets[i], width, values[i], v);
			values[i] = v;
			seen++;
		}
		flush_stdout();
	}
	free(values);
	free(offsets);
	region_close(&r);
	return IIOCTL_OK;
}

const struct iioctl_cmd iioctl_cmd_watch = {
	.name = "watch",
	.run = do_watch,
	.help = "a line per change of registers (-i INTERVAL, -n N, -t TIMEOUT, --format)",
};
