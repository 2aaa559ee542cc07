// SPDX-License-Identifier: GPL-2.0-only
/*
 * peek.c - iioctl peek DEV LOCATION...: one value a location (an offset,
 * REG[.FIELD], OFFSET:MSB:LSB or @ADDR), one access each
 */
#include <stdlib.h>

#include "common.h"
#include "location.h"
#include "region.h"

/* -j: one object for one location, an array of them for several */
static void print_json(const struct region *r, const struct location *locs,
		       const uint64_t *values, size_t n)
{
	size_t i;

	if (n == 1) {
		location_print_json(r, &locs[0], values[0]);
		return;
	}
	putchar('[');
	for (i = 0; i < n; i++) {
		fputs(i ? ", {" : "{", stdout);
		location_json(r, &locs[i]);
		location_json_value(&locs[i], "value", values[i]);
		putchar('}');
	}
	puts("]");
}

/* the locations, reachable from here when a check or an access dies */
static struct location *locs;
static uint64_t *values;

static int do_peek(int argc, const char **argv)
{
	const char *width_arg = NULL, *arg;
	uint64_t start, len;
	unsigned width = 0;
	size_t n = 0, i;
	struct region r;
	int decimal = 0, json = 0;
	poptContext ctx;
	const struct poptOption options[] = {
		{ "width", 'w', POPT_ARG_STRING, &width_arg, 0,
		  "access width in bytes: 1, 2, 4 or 8 (default: the register's, or 4)",
		  "W" },
		{ "decimal", 'd', POPT_ARG_NONE, &decimal, 0,
		  "print the values in decimal", NULL },
		{ "json", 'j', POPT_ARG_NONE, &json, 0,
		  "print a JSON object (several: an array; values hex strings)",
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
			    "DEV OFFSET|REG[.FIELD]|OFFSET:MSB:LSB... | @ADDR[:MSB:LSB] [...]");
	if (width_arg)
		width = parse_width_or_die(width_arg);
	if (json && decimal)
		die(IIOCTL_EUSAGE, "--json and --decimal conflict");
	arg = location_select(&r, ctx, true);
	locs = NULL;
	/* every location checked before the first access */
	do {
		locs = xrealloc(locs, (n + 1) * sizeof(*locs));
		location_parse_or_die(&r, arg, width, &locs[n]);
		location_check_access(&locs[n], false);
		region_check_range(&r, locs[n].offset, locs[n].width,
				   locs[n].width);
		n++;
	} while ((arg = poptGetArg(ctx)));
	if (iioctl_dry_run) {
		for (i = 0; i < n; i++)
			region_plan_read(&r, locs[i].offset, locs[i].width,
					 locs[i].width);
		free(locs);
		return IIOCTL_OK;
	}
	/* read them all, in order, then print: a failed access prints none */
	values = xmalloc(n * sizeof(*values));
	location_span(locs, n, &start, &len);
	region_open(&r, false, start, len);
	for (i = 0; i < n; i++)
		values[i] = region_read_value(&r, locs[i].offset,
					      locs[i].width);
	region_close(&r);
	if (json)
		print_json(&r, locs, values, n);
	else
		for (i = 0; i < n; i++)
			location_print(&locs[i], values[i], decimal);
	free(values);
	free(locs);
	return IIOCTL_OK;
}

const struct iioctl_cmd iioctl_cmd_peek = {
	.name = "peek",
	.run = do_peek,
	.help = "read values, registers or fields, one a line (-w 1|2|4|8, -d decimal, -j JSON)",
};
