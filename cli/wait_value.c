// SPDX-License-Identifier: GPL-2.0-only
/*
 * wait_value.c - iioctl wait-value DEV OFFSET VALUE: poll a register until
 * (value & mask) == VALUE, or with --change until it changes
 */
#include "common.h"
#include "region.h"

#define DEFAULT_INTERVAL_NS 10000000ULL	/* 10ms */

static int do_wait_value(int argc, const char **argv)
{
	const char *width_arg = NULL, *mask_arg = NULL, *timeout_arg = NULL;
	const char *interval_arg = NULL, *value_arg;
	uint64_t offset, value = 0, mask, all, v, first, deadline = 0;
	uint64_t timeout = 0, interval = DEFAULT_INTERVAL_NS, now;
	unsigned width = 4;
	int change = 0;
	char text[32];
	struct region r;
	poptContext ctx;
	const struct poptOption options[] = {
		{ "width", 'w', POPT_ARG_STRING, &width_arg, 0,
		  "access width in bytes: 1, 2, 4 (default) or 8", "W" },
		{ "mask", 'm', POPT_ARG_STRING, &mask_arg, 0,
		  "compare only these bits", "MASK" },
		{ "timeout", 't', POPT_ARG_STRING, &timeout_arg, 0,
		  "give up (status 3) after TIMEOUT: seconds (0.5) or with a unit (250ms, 2s)",
		  "TIMEOUT" },
		{ "interval", 'i', POPT_ARG_STRING, &interval_arg, 0,
		  "read every INTERVAL (default 10ms)", "INTERVAL" },
		{ "change", 0, POPT_ARG_NONE, &change, 0,
		  "wait until the value (under the mask) differs from the first read",
		  NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE,
		  (void *)region_popt_options, 0, "Node options:", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};

	region_opts = (struct region_options){ 0 };
	ctx = parse_options(argc, argv, options,
			    "DEV OFFSET VALUE[:MASK] | DEV OFFSET --change");
	if (width_arg)
		width = parse_width_or_die(width_arg);
	region_select(&r, need_arg(ctx, "DEV"));
	offset = parse_u64_or_die(need_arg(ctx, "OFFSET"), "offset",
				  NUM_SUFFIX, UINT64_MAX);
	all = width == 8 ? UINT64_MAX : (1ULL << 8 * width) - 1;
	if (change) {
		mask = mask_arg ? parse_u64_or_die(mask_arg, "mask", 0, all) :
				  all;
	} else {
		value_arg = need_arg(ctx, "VALUE");
		parse_value_mask_or_die(value_arg, mask_arg, all, &value,
					&mask);
	}
	no_more_args(ctx);
	if (timeout_arg)
		timeout = parse_duration_or_die(timeout_arg, "timeout");
	if (interval_arg)
		interval = parse_duration_or_die(interval_arg, "interval");
	region_check_range(&r, offset, width, width);
	if (iioctl_dry_run)
		return IIOCTL_OK;

	region_open(&r, false, offset, width);
	if (timeout_arg)
		deadline = now_ns() + timeout;
	v = region_read_value(&r, offset, width);
	for (first = v & mask;; v = region_read_value(&r, offset, width)) {
		if (change ? (v & mask) != first : (v & mask) == value)
			break;
		now = now_ns();
		if (timeout_arg && now >= deadline) {
			print_value(v, width, false);
			flush_stdout();
			if (change)
				die(IIOCTL_ETIMEOUT, "%s: timeout after %s: 0x%llx unchanged",
				    r.label,
				    format_duration(timeout, text, sizeof(text)),
				    (unsigned long long)offset);
			die(IIOCTL_ETIMEOUT, "%s: timeout after %s: 0x%llx is 0x%0*llx, not 0x%0*llx under mask 0x%0*llx",
			    r.label, format_duration(timeout, text, sizeof(text)),
			    (unsigned long long)offset, (int)(2 * width),
			    (unsigned long long)v, (int)(2 * width),
			    (unsigned long long)value, (int)(2 * width),
			    (unsigned long long)mask);
		}
		/* the last read at the deadline */
		sleep_ns(timeout_arg && deadline - now < interval ?
			 deadline - now : interval);
	}
	print_value(v, width, false);
	region_close(&r);
	return IIOCTL_OK;
}

const struct iioctl_cmd iioctl_cmd_wait_value = {
	.name = "wait-value",
	.run = do_wait_value,
	.help = "poll a register until (value & -m MASK) == VALUE, or --change",
};
