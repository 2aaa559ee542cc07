// SPDX-License-Identifier: GPL-2.0-only
/*
 * wait_value.c - iioctl wait-value DEV OFFSET|REG[.FIELD] VALUE: poll a
 * register until
 * (value & mask) == VALUE, or with --change until it changes
 */
#include "common.h"
#include "location.h"
#include "region.h"

#define DEFAULT_INTERVAL_NS 10000000ULL	/* 10ms */

static int do_wait_value(int argc, const char **argv)
{
	const char *width_arg = NULL, *mask_arg = NULL, *timeout_arg = NULL;
	const char *interval_arg = NULL, *value_arg;
	uint64_t offset, value = 0, mask, v, first, deadline = 0;
	uint64_t timeout = 0, interval = DEFAULT_INTERVAL_NS, now;
	struct location loc;
	unsigned width = 0;	/* -w's (0: none), then the location's */
	int change = 0, json = 0;
	char text[32], where[160];
	struct region r;
	poptContext ctx;
	const struct poptOption options[] = {
		{ "width", 'w', POPT_ARG_STRING, &width_arg, 0,
		  "access width in bytes: 1, 2, 4 or 8 (default: the register's, or 4)",
		  "W" },
		{ "mask", 'm', POPT_ARG_STRING, &mask_arg, 0,
		  "compare only these bits", "MASK" },
		{ "timeout", 't', POPT_ARG_STRING, &timeout_arg, 0,
		  "give up (status 3) after TIMEOUT: seconds (0.5) or with a unit (250ms, 2s)",
		  "TIMEOUT" },
		{ "interval", 'i', POPT_ARG_STRING, &interval_arg, 0,
		  "read every INTERVAL (default 10ms)", "INTERVAL" },
		{ "json", 'j', POPT_ARG_NONE, &json, 0,
		  "print the last value read as a JSON object, as peek -j",
		  NULL },
		{ "change", 0, POPT_ARG_NONE, &change, 0,
		  "wait until the value (under the mask) differs from the first read",
		  NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE,
		  (void *)region_popt_options, 0, "Node options:", NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE,
		  (void *)region_value_popt_options, 0, NULL, NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};

	region_opts = (struct region_options){ 0 };
	ctx = parse_options(argc, argv, options,
			    "DEV LOC VALUE[:MASK] | DEV LOC --change\n(LOC: OFFSET, REG[.FIELD], OFFSET:MSB:LSB; @ADDR[:MSB:LSB] for DEV LOC)");
	if (width_arg)
		width = parse_width_or_die(width_arg);
	location_parse_or_die(&r, location_select(&r, ctx, true), width, &loc);
	offset = loc.offset;
	width = loc.width;
	/* --change: the mask alone, as VALUE 0 under it */
	value_arg = change ? "0" : need_arg(ctx, "VALUE");
	location_value_mask_or_die(&loc, value_arg, mask_arg, &value, &mask);
	no_more_args(ctx);
	location_check_access(&loc, false);
	if (timeout_arg)
		timeout = parse_duration_or_die(timeout_arg, "timeout");
	if (interval_arg)
		interval = parse_duration_or_die(interval_arg, "interval");
	region_check_range(&r, offset, width, width);
	if (iioctl_dry_run)
		return IIOCTL_OK;

	region_open(&r, false, offset, width);
	catch_sigint();
	if (timeout_arg)
		deadline = now_ns() + timeout;
	v = region_read_value(&r, offset, width);
	for (first = v & mask;; v = region_read_value(&r, offset, width)) {
		if (change ? (v & mask) != first : (v & mask) == value)
			break;
		if (iioctl_interrupted) {
			location_print(&loc, v, false);
			flush_stdout();
			location_label(&loc, where, sizeof(where));
			die(IIOCTL_EINTERRUPTED, "%s: interrupted: %s is 0x%0*llx",
			    r.label, where, (int)(2 * width),
			    (unsigned long long)v);
		}
		now = now_ns();
		if (timeout_arg && now >= deadline) {
			if (json)
				location_print_json(&r, &loc, v);
			else
				location_print(&loc, v, false);
			flush_stdout();
			location_label(&loc, where, sizeof(where));
			if (change)
				die(IIOCTL_ETIMEOUT, "%s: timeout after %s: %s unchanged",
				    r.label,
				    format_duration(timeout, text, sizeof(text)),
				    where);
			die(IIOCTL_ETIMEOUT, "%s: timeout after %s: %s is 0x%0*llx, not 0x%0*llx under mask 0x%0*llx",
			    r.label, format_duration(timeout, text, sizeof(text)),
			    where, (int)(2 * width),
			    (unsigned long long)v, (int)(2 * width),
			    (unsigned long long)value, (int)(2 * width),
			    (unsigned long long)mask);
		}
		/* the last read at the deadline */
		sleep_ns(timeout_arg && deadline - now < interval ?
			 deadline - now : interval);
	}
	if (json)
		location_print_json(&r, &loc, v);
	else
		location_print(&loc, v, false);
	region_close(&r);
	return IIOCTL_OK;
}

const struct iioctl_cmd iioctl_cmd_wait_value = {
	.name = "wait-value",
	.run = do_wait_value,
	.help = "poll a register until (value & -m MASK) == VALUE, or --change (-j JSON)",
};
