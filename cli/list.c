// SPDX-License-Identifier: GPL-2.0-only
/*
 * list.c - iioctl list: every device, as a table or JSON
 */
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "common.h"
#include "device.h"

#define MAX_COLUMNS 32

/*
 * -o COLUMNS → the columns; the default list without -o, and before the
 * columns of "+COLUMNS" (util-linux's -o +COL).
 */
static size_t pick_columns(const char *spec, const struct column **cols)
{
	const char *given = spec;	/* for messages */
	char *copy, *tok, *save;
	size_t n = 0, i;

	if (!spec || spec[0] == '+')
		for (i = 0; i < ncolumns; i++)
			if (columns[i].listed)
				cols[n++] = &columns[i];
	if (!spec)
		return n;
	if (spec[0] == '+')
		spec++;
	if (!spec[0] || spec[0] == ',' || strstr(spec, ",,") ||
	    (spec[0] && spec[strlen(spec) - 1] == ','))
		die(IIOCTL_EUSAGE, "empty column in '%s' (columns: %s)", given,
		    column_names());
	copy = xstrdup(spec);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n == MAX_COLUMNS)
			die(IIOCTL_EUSAGE, "too many columns");
		cols[n] = column_find(tok);
		if (!cols[n]) {
			char name[64];

			snprintf(name, sizeof(name), "%s", tok);
			free(copy);
			die(IIOCTL_EUSAGE, "unknown column '%s' (columns: %s)",
			    name, column_names());
		}
		for (i = 0; i < n; i++)
			if (cols[i] == cols[n]) {
				/* a default column asked for again by +COL */
				const char *dup = cols[n]->name;

				free(copy);
				die(IIOCTL_EUSAGE, "column %s given twice", dup);
			}
		n++;
	}
	free(copy);
	return n;
}

/* --list-columns: each column's name, JSON key and meaning */
static void list_columns(bool json)
{
	size_t i;

	if (json)
		putchar('[');
	for (i = 0; i < ncolumns; i++) {
		const struct column *c = &columns[i];

		if (!json) {
			printf("%-10s %s%s\n", c->name, c->help,
			       c->listed ? "" : " (not by default)");
			continue;
		}
		printf("%s\n  {\"name\": ", i ? "," : "");
		json_string(stdout, c->name);
		fputs(", \"key\": ", stdout);
		json_string(stdout, c->key);
		fputs(", \"description\": ", stdout);
		json_string(stdout, c->help);
		printf(", \"default\": %s}", c->listed ? "true" : "false");
	}
	if (json)
		fputs("\n]\n", stdout);
}

static void print_json(const struct iio_device_info *const *devs,
		       size_t ndevs, const struct column **cols, size_t ncols)
{
	size_t i, c;

	fputs("[", stdout);
	for (i = 0; i < ndevs; i++) {
		fputs(i ? ",\n  {" : "\n  {", stdout);
		for (c = 0; c < ncols; c++) {
			printf("%s\"%s\": ", c ? ", " : "", cols[c]->key);
			cols[c]->json(stdout, devs[i]);
		}
		fputs("}", stdout);
	}
	fputs(ndevs ? "\n]\n" : "]\n", stdout);
}

static void print_table(const struct iio_device_info *const *devs,
			size_t ndevs, const struct column **cols,
			size_t ncols, int headings)
{
	size_t width[MAX_COLUMNS], i, c, len;
	char cell[COLUMN_TEXT_MAX];

	for (c = 0; c < ncols; c++)
		width[c] = headings ? strlen(cols[c]->name) : 0;
	for (i = 0; i < ndevs; i++)
		for (c = 0; c < ncols; c++) {
			cols[c]->text(devs[i], cell, sizeof(cell));
			len = strlen(cell);
			if (len > width[c])
				width[c] = len;
		}
	for (i = headings ? 0 : 1; i <= ndevs; i++) {
		for (c = 0; c < ncols; c++) {
			const char *s = cell;
			int w = (int)width[c];

			if (i == 0)
				s = cols[c]->name;
			else
				cols[c]->text(devs[i - 1], cell, sizeof(cell));
			if (cols[c]->right)
				printf("%s%*s", c ? " " : "", w, s);
			else if (c + 1 == ncols)	/* no trailing blanks */
				printf("%s%s", c ? " " : "", s);
			else
				printf("%s%-*s", c ? " " : "", w, s);
		}
		putchar('\n');
	}
}

static int do_list(int argc, const char **argv)
{
	const struct iio_device_info *all, **devs;
	const struct column *cols[MAX_COLUMNS];
	int json = 0, noheadings = 0, list_cols = 0;
	const char *output = NULL, *arg;
	struct iio_target t;
	size_t ncols, n, ndevs = 0, i;
	poptContext ctx;
	const struct poptOption options[] = {
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "print JSON", NULL },
		{ "noheadings", 'n', POPT_ARG_NONE, &noheadings, 0,
		  "no heading line", NULL },
		{ "output", 'o', POPT_ARG_STRING, &output, 0,
		  "columns to print, a comma list (see above); +COLUMNS: after the default ones",
		  "[+]COLUMNS" },
		{ "list-columns", 'H', POPT_ARG_NONE, &list_cols, 0,
		  "list the columns and what they hold (-j: JSON)", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};

	ctx = parse_options(argc, argv, options, "[DEV...]\n"
			    "columns: DEVICE NR NAME VERSION TYPE SIZE PHYSADDR IN OUT IRQ\n"
			    "         EVENTS LISTENERS VECTORS DMA DEV PARENT\n"
			    "         ID VENDOR PRODUCT CLASS DRIVER BARS IRQMODE MASTER\n"
			    "         DMAPOLICY IOMMUGROUP (the PCI parent's)\n"
			    "         (NR, VECTORS, DMA, DEV, PARENT and the PCI ones not by\n"
			    "         default)");
	if (list_cols) {
		if (output || noheadings || poptPeekArg(ctx))
			die(IIOCTL_EUSAGE, "--list-columns takes only -j");
		if (!iioctl_dry_run)
			list_columns(json);
		return IIOCTL_OK;
	}
	ncols = pick_columns(output, cols);
	n = device_list_fresh(&all);
	/* an array of pointers: NOLINTNEXTLINE(bugprone-sizeof-expression) */
	devs = xmalloc((n ? n : 1) * sizeof(*devs));
	if (!poptPeekArg(ctx)) {
		for (i = 0; i < n; i++)
			devs[ndevs++] = &all[i];
	} else {
		size_t cap = n;

		while ((arg = poptGetArg(ctx))) {
			device_resolve(arg, &t);
			if (ndevs == cap)
				/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
				devs = xrealloc(devs, (cap = cap ? 2 * cap : 8) * sizeof(*devs));
			devs[ndevs++] = t.dev;
		}
	}
	if (!iioctl_dry_run) {
		if (json)
			print_json(devs, ndevs, cols, ncols);
		else
			print_table(devs, ndevs, cols, ncols, !noheadings);
	}
	free(devs);
	return IIOCTL_OK;
}

const struct iioctl_cmd iioctl_cmd_list = {
	.name = "list",
	.run = do_list,
	.help = "list the devices (-j JSON, -o [+]COLUMNS, -n no headings, -H columns)",
};
