// SPDX-License-Identifier: GPL-2.0-only
/*
 * dump.c - iioctl dump DEV: hexdump -C of the region or a window, each
 * value one access of the chosen width; or the raw bytes
 */
#include <string.h>

#include "common.h"
#include "region.h"

#define LINE 16
#define CHUNK 4096

/* One line: offset, values of width w (0: bytes), ASCII column. */
static void print_line(uint64_t offset, const unsigned char *b, size_t len,
		       unsigned w)
{
	unsigned step = w ? w : 1;
	size_t i, c;
	uint64_t v;

	printf("%08llx ", (unsigned long long)offset);
	for (i = 0; i < LINE; i += step) {
		if (i % 8 == 0)
			putchar(' ');
		if (i >= len) {
			printf("%*s", (int)(2 * step + 1), "");
			continue;
		}
		v = 0;
		memcpy(&v, b + i, step);	/* native order */
		printf("%0*llx ", (int)(2 * step), (unsigned long long)v);
	}
	fputs(" |", stdout);
	for (c = 0; c < len; c++)
		putchar(b[c] >= 0x20 && b[c] < 0x7f ? b[c] : '.');
	fputs("|\n", stdout);
}

static int do_dump(int argc, const char **argv)
{
	const char *width_arg = NULL, *start_arg = NULL, *len_arg = NULL;
	unsigned char buf[CHUNK], prev[LINE];
	uint64_t start = 0, len, pos, end;
	size_t n, i, line_len;
	int raw = 0, folded = 0, have_prev = 0;
	unsigned width = 0;
	struct region r;
	poptContext ctx;
	const struct poptOption options[] = {
		{ "skip", 's', POPT_ARG_STRING, &start_arg, 0,
		  "start at OFFSET (default 0)", "OFFSET" },
		{ "length", 'n', POPT_ARG_STRING, &len_arg, 0,
		  "dump LENGTH bytes (default: to the end)", "LENGTH" },
		{ "width", 'w', POPT_ARG_STRING, &width_arg, 0,
		  "one access of W bytes per value: 1, 2, 4 or 8 (default: chunks shown as bytes)",
		  "W" },
		{ "raw", 0, POPT_ARG_NONE, &raw, 0,
		  "write the bytes to stdout instead of a hexdump", NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE,
		  (void *)region_popt_options, 0, "Node options:", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};

	region_opts = (struct region_options){ 0 };
	ctx = parse_options(argc, argv, options, "DEV");
	if (width_arg)
		width = parse_width_or_die(width_arg);
	region_select(&r, need_arg(ctx, "DEV"));
	no_more_args(ctx);
	if (start_arg)
		start = parse_u64_or_die(start_arg, "offset", NUM_SUFFIX,
					 UINT64_MAX);
	if (start > r.size)
		region_check_range(&r, start, 0, width);	/* dies */
	len = r.size - start;
	if (len_arg)
		len = parse_u64_or_die(len_arg, "length", NUM_SUFFIX,
				       UINT64_MAX);
	region_check_range(&r, start, len, width);
	if (iioctl_dry_run)
		return IIOCTL_OK;
	region_open(&r, false, start, len);
	end = start + len;
	for (pos = start; pos < end; pos += n) {
		n = end - pos < CHUNK ? (size_t)(end - pos) : CHUNK;
		region_read_values(&r, pos, buf, n, width);
		if (raw) {
			fwrite(buf, 1, n, stdout);
			continue;
		}
		for (i = 0; i < n; i += LINE) {
			line_len = n - i < LINE ? n - i : LINE;
			if (have_prev && line_len == LINE &&
			    !memcmp(prev, buf + i, LINE)) {
				if (!folded)
					puts("*");
				folded = 1;
				continue;
			}
			print_line(pos + i, buf + i, line_len, width);
			memcpy(prev, buf + i, line_len);
			have_prev = line_len == LINE;
			folded = 0;
		}
	}
	if (!raw)
		printf("%08llx\n", (unsigned long long)end);
	region_close(&r);
	return IIOCTL_OK;
}

const struct iioctl_cmd iioctl_cmd_dump = {
	.name = "dump",
	.run = do_dump,
	.help = "hexdump of the region or a window (-s, -n, -w, --raw, --mmap)",
};
