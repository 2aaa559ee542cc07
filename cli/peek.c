// SPDX-License-Identifier: GPL-2.0-only
/*
 * peek.c - iioctl peek DEV OFFSET|REG[.FIELD]: one value, one access
 */
#include "common.h"
#include "location.h"
#include "region.h"

static int do_peek(int argc, const char **argv)
{
	const char *width_arg = NULL;
	struct location loc;
	unsigned width = 0;
	struct region r;
	uint64_t v;
	int decimal = 0, json = 0;
	poptContext ctx;
	const struct poptOption options[] = {
		{ "width", 'w', POPT_ARG_STRING, &width_arg, 0,
		  "access width in bytes: 1, 2, 4 or 8 (default: the register's, or 4)",
		  "W" },
		{ "decimal", 'd', POPT_ARG_NONE, &decimal, 0,
		  "print the value in decimal", NULL },
		{ "json", 'j', POPT_ARG_NONE, &json, 0,
		  "print a JSON object (the value a hex string)", NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE,
		  (void *)region_popt_options, 0, "Node options:", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};

	region_opts = (struct region_options){ 0 };
	ctx = parse_options(argc, argv, options, "DEV OFFSET|REG[.FIELD]");
	if (width_arg)
		width = parse_width_or_die(width_arg);
	if (json && decimal)
		die(IIOCTL_EUSAGE, "--json and --decimal conflict");
	region_select(&r, need_arg(ctx, "DEV"));
	location_parse_or_die(&r, need_arg(ctx, "OFFSET"), width, &loc);
	no_more_args(ctx);
	location_check_access(&loc, false);
	region_check_range(&r, loc.offset, loc.width, loc.width);
	if (iioctl_dry_run) {
		region_plan_read(&r, loc.offset, loc.width, loc.width);
		return IIOCTL_OK;
	}
	region_open(&r, false, loc.offset, loc.width);
	v = region_read_value(&r, loc.offset, loc.width);
	region_close(&r);
	if (json)
		location_print_json(&r, &loc, v);
	else
		location_print(&loc, v, decimal);
	return IIOCTL_OK;
}

const struct iioctl_cmd iioctl_cmd_peek = {
	.name = "peek",
	.run = do_peek,
	.help = "read one value or register (-w 1|2|4|8, -d decimal, -j JSON)",
};
