// SPDX-License-Identifier: GPL-2.0-only
/*
 * info.c - iioctl info DEV: every field of one device and its node paths
 */
#include <string.h>

#include "columns.h"
#include "common.h"
#include "device.h"

static int do_info(int argc, const char **argv)
{
	static const enum iio_node nodes[] = {
		NODE_REGION, NODE_IN, NODE_OUT, NODE_EVENT,
	};
	static const char *const node_keys[] = {
		"region", "in", "out", "event",
	};
	const struct iio_device_info *d, *devs;
	char cell[COLUMN_TEXT_MAX], path[PATH_MAX], label[32];
	struct iio_target t;
	int json = 0;
	size_t i;
	poptContext ctx;
	const struct poptOption options[] = {
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "print JSON", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};

	ctx = parse_options(argc, argv, options, "DEV");
	device_list_fresh(&devs);
	device_resolve(need_arg(ctx, "DEV"), &t);
	no_more_args(ctx);
	if (iioctl_dry_run)
		return IIOCTL_OK;
	d = t.dev;
	if (json) {
		putchar('{');
		for (i = 0; i < ncolumns; i++) {
			printf("%s\"%s\": ", i ? ", " : "", columns[i].key);
			columns[i].json(stdout, d);
		}
		fputs(", \"nodes\": {", stdout);
	}
	for (i = 0; i < ncolumns && !json; i++) {
		columns[i].text(d, cell, sizeof(cell));
		snprintf(label, sizeof(label), "%s:", columns[i].key);
		printf("%-13s%s\n", label, cell);
	}
	for (i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		bool present = nodes[i] == NODE_EVENT ||
			       device_window(d, nodes[i]).present;

		node_path(d, nodes[i], path, sizeof(path));
		if (json) {
			printf("%s\"%s\": ", i ? ", " : "", node_keys[i]);
			if (present)
				json_string(stdout, path);
			else
				fputs("null", stdout);
		} else if (present) {
			snprintf(label, sizeof(label), "%s node:", node_keys[i]);
			printf("%-13s", label);
			text_escape_print(stdout, path);
			putchar('\n');
		}
	}
	/* the event nodes of vectors 1 and up: "event1" ... */
	for (i = 1; i < d->vectors; i++) {
		vector_event_path(d, (unsigned)i, path, sizeof(path));
		if (json) {
			printf(", \"event%zu\": ", i);
			json_string(stdout, path);
		} else {
			snprintf(label, sizeof(label), "event%zu node:", i);
			printf("%-13s", label);
			text_escape_print(stdout, path);
			putchar('\n');
		}
	}
	if (json)
		fputs("}}\n", stdout);
	return IIOCTL_OK;
}

const struct iioctl_cmd iioctl_cmd_info = {
	.name = "info",
	.run = do_info,
	.help = "everything about one device, node paths included (-j JSON)",
};
