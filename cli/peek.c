// SPDX-License-Identifier: GPL-2.0-only
/*
 * peek.c - iioctl peek DEV OFFSET: one value, one access
 */
#include "common.h"
#include "region.h"

static int do_peek(int argc, const char **argv)
{
	const char *width_arg = NULL;
	unsigned width = 4;
	struct region r;
	uint64_t offset, v;
	int decimal = 0;
	poptContext ctx;
	const struct poptOption options[] = {
		{ "width", 'w', POPT_ARG_STRING, &width_arg, 0,
		  "access width in bytes: 1, 2, 4 (default) or 8", "W" },
		{ "decimal", 'd', POPT_ARG_NONE, &decimal, 0,
		  "print the value in decimal", NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE,
		  (void *)region_popt_options, 0, "Node options:", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};

	region_opts = (struct region_options){ 0 };
	ctx = parse_options(argc, argv, options, "DEV OFFSET");
	if (width_arg)
		width = parse_width_or_die(width_arg);
	region_select(&r, need_arg(ctx, "DEV"));
	offset = parse_u64_or_die(need_arg(ctx, "OFFSET"), "offset",
				  NUM_SUFFIX, UINT64_MAX);
	no_more_args(ctx);
	region_check_range(&r, offset, width, width);
	if (iioctl_dry_run)
		return IIOCTL_OK;
	region_open(&r, false, offset, width);
	v = region_read_value(&r, offset, width);
	region_close(&r);
	print_value(v, width, decimal);
	return IIOCTL_OK;
}

const struct iioctl_cmd iioctl_cmd_peek = {
	.name = "peek",
	.run = do_peek,
	.help = "read one value (-w 1|2|4|8, -d decimal)",
};
