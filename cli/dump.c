// SPDX-License-Identifier: GPL-2.0-only
/*
 * dump.c - iioctl dump DEV: hexdump -C of the region or a window, each
 * value one access of the chosen width; or the raw bytes
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "dumpfile.h"
#include "location.h"
#include "region.h"

#define LINE 16
/*
 * What dump reads without -n or --all: 256 bytes, as memtool md does
 * (lspci -x shows 64), so that a dump of a big BAR touches no more than
 * its first registers unless asked to.
 */
#define DEFAULT_LENGTH 256
/*
 * Bytes read per region_read_values(): one pread of this size without -w
 * (the kernel still makes the widest aligned accesses, the same ones as
 * in smaller pieces), the way dd bs=1M reads.
 */
#define CHUNK (1024 * 1024)
/* Formatted text collects here and goes out in one fwrite. */
#define OUT_SIZE (256 * 1024)
/* The longest line: 16-digit offset, 16 bytes, ASCII column. */
#define LINE_MAX_TEXT 128

static const char hex_digits[] = "0123456789abcdef";
static char *out_buf;
static size_t out_len;
/* hex_pair[2*b], hex_pair[2*b+1]: byte b in hex; ascii[b]: its column */
static char hex_pair[512], ascii[256];
/* hex_blank[b]: the 4 bytes "hh " and one spare, stored as one word */
static uint32_t hex_blank[256];

static void init_tables(void)
{
	int b;

	for (b = 0; b < 256; b++) {
		hex_pair[2 * b] = hex_digits[b >> 4];
		hex_pair[2 * b + 1] = hex_digits[b & 0xf];
		ascii[b] = (char)(b >= 0x20 && b < 0x7f ? b : '.');
		memcpy(&hex_blank[b], (char[4]){ hex_pair[2 * b],
			hex_pair[2 * b + 1], ' ', ' ' }, 4);
	}
}

static void out_flush(void)
{
	if (out_len)
		fwrite(out_buf, 1, out_len, stdout);
	out_len = 0;
}

/* Room for one more line of text. */
static char *out_reserve(void)
{
	if (out_len > OUT_SIZE - LINE_MAX_TEXT)
		out_flush();
	return out_buf + out_len;
}

/* %08llx: at least 8 hex digits. */
static inline char *put_offset(char *o, uint64_t offset)
{
	int digits = 8, i;

	if (offset <= 0xffffffffu) {
		memcpy(o, hex_pair + 2 * ((offset >> 24) & 0xff), 2);
		memcpy(o + 2, hex_pair + 2 * ((offset >> 16) & 0xff), 2);
		memcpy(o + 4, hex_pair + 2 * ((offset >> 8) & 0xff), 2);
		memcpy(o + 6, hex_pair + 2 * (offset & 0xff), 2);
		return o + 8;
	}

	while (digits < 16 && offset >> (4 * digits))
		digits++;
	for (i = digits - 1; i >= 0; i--)
		*o++ = hex_digits[(offset >> (4 * i)) & 0xf];
	return o;
}

/*
 * One line, as printf("%08llx ") and then per value " " at each 8-byte
 * group and "%0*llx " (2*step digits of the native-order value), or
 * 2*step+1 blanks past len; " |", the ASCII column, "|\n".
 */
static void print_line(uint64_t offset, const unsigned char *b, size_t len,
		       unsigned w, const unsigned char *skipped)
{
	unsigned step = w ? w : 1;
	char *o = out_reserve(), *start = o;
	size_t i, c;
	uint64_t v;
	int k;

	o = put_offset(o, offset);
	*o++ = ' ';
	if (step == 1 && len == LINE && !skipped) {
		/* the common case: "  hh hh ... hh  hh ... hh  |ascii|" */
		*o++ = ' ';
#pragma GCC unroll 8
		for (i = 0; i < 8; i++, o += 3)
			memcpy(o, &hex_blank[b[i]], 4);	/* 4th: overwritten */
		*o++ = ' ';
#pragma GCC unroll 8
		for (i = 8; i < LINE; i++, o += 3)
			memcpy(o, &hex_blank[b[i]], 4);
		*o++ = ' ';
		*o++ = '|';
#pragma GCC unroll 16
		for (c = 0; c < LINE; c++)
			o[c] = ascii[b[c]];
		o += LINE;
		*o++ = '|';
		*o++ = '\n';
		out_len += (size_t)(o - start);
		return;
	}
	for (i = 0; i < LINE; i += step) {
		if (i % 8 == 0)
			*o++ = ' ';
		if (i >= len) {
			memset(o, ' ', 2 * step + 1);
			o += 2 * step + 1;
			continue;
		}
		if (skipped && skipped[i]) {
			/* a register whose read has side effects: not read */
			memset(o, '-', 2 * step);
			o += 2 * step;
		} else if (step == 1) {
			memcpy(o, hex_pair + 2 * b[i], 2);
			o += 2;
		} else {
			v = 0;
			memcpy(&v, b + i, step);	/* native order */
			for (k = (int)(2 * step) - 1; k >= 0; k--)
				*o++ = hex_digits[(v >> (4 * k)) & 0xf];
		}
		*o++ = ' ';
	}
	*o++ = ' ';
	*o++ = '|';
	for (c = 0; c < len; c++) {
		if (skipped && skipped[c])
			*o++ = ' ';
		else
			*o++ = ascii[b[c]];
	}
	*o++ = '|';
	*o++ = '\n';
	out_len += (size_t)(o - start);
}

static void print_text(const char *text)
{
	char *o = out_reserve();
	size_t n = strlen(text);

	/* into the output buffer, which is written with its length */
	memcpy(o, text, n); /* NOLINT(bugprone-not-null-terminated-result) */
	out_len += n;
}

/* Open (map) [start, start+len) to read values of width (0: any). */
static void open_for_reading(struct region *r, uint64_t start, uint64_t len,
			     unsigned width)
{
	/* I/O memory: 4-byte registers may ignore wider (and narrower) reads */
	if (!width && region_is_io_memory(r))
		r->max_access = 4;
	region_open(r, false, start, len);
}

/*
 * The file to compare with, placed at start (raw bytes) or where its text
 * says (a dump): sets *start and *len, dies (status 2) on a bad file or a
 * range that does not fit.
 */
static struct dumpfile load_compare(const char *path, const char *start_arg,
				    const char *len_arg, uint64_t *start,
				    uint64_t *len)
{
	struct dumpfile d;
	unsigned long line;
	const char *why;
	unsigned char *data;
	size_t n;

	check_stdin_free(path);
	data = load_input(path, (size_t)1 << 32, &n);
	if (n > (size_t)1 << 32)
		die(IIOCTL_EUSAGE, "%s: more than 4 GiB to compare", path);
	why = dumpfile_parse((const char *)data, n, &d, &line);
	if (why)
		die(IIOCTL_EUSAGE, "%s:%lu: not a dump: %s", path, line, why);
	if (d.text) {
		free(data);
		if (start_arg || len_arg)
			die(IIOCTL_EUSAGE, "%s is a dump's text, which gives its offsets: -s and -n do not go with it",
			    path);
		*start = d.start;
		*len = d.len;
		return d;
	}
	d.bytes = data;
	d.len = n;
	*len = n;
	if (start_arg)
		*start = parse_u64_or_die(start_arg, "offset", NUM_SUFFIX,
					  UINT64_MAX);
	if (len_arg) {
		*len = parse_u64_or_die(len_arg, "length", NUM_SUFFIX,
					UINT64_MAX);
		if (*len > n)
			die(IIOCTL_EUSAGE, "%s holds 0x%zx bytes, fewer than the length 0x%llx",
			    path, n, (unsigned long long)*len);
	}
	return d;
}

/*
 * dump --compare: "OFFSET FILE DEVICE" (hex, values of width step) for
 * every value that differs; status 0 if none, 1 if any.
 */
static int compare(struct region *r, const struct dumpfile *d,
		   uint64_t start, uint64_t len, unsigned width)
{
	unsigned step = width ? width : 1;
	uint64_t pos, a, b, differ = 0;
	unsigned char *buf;
	size_t n, i;

	buf = xmalloc(CHUNK);
	for (pos = start; pos < start + len; pos += n) {
		n = start + len - pos < CHUNK ? (size_t)(start + len - pos) :
						CHUNK;
		region_read_values(r, pos, buf, n, width);
		for (i = 0; i < n; i += step) {
			const unsigned char *want = d->bytes + (pos - start) + i;

			if (!memcmp(want, buf + i, step))
				continue;
			a = b = 0;
			memcpy(&a, want, step);		/* native order */
			memcpy(&b, buf + i, step);
			printf("%08llx  %0*llx  %0*llx\n",
			       (unsigned long long)pos + i, (int)(2 * step),
			       (unsigned long long)a, (int)(2 * step),
			       (unsigned long long)b);
			differ++;
		}
	}
	free(buf);
	return differ ? IIOCTL_EDEVICE : IIOCTL_OK;
}

/*
 * --raw and --compare cannot show a register left out: a window holding
 * one whose read has side effects is a usage error without --force.
 */
static void refuse_marked(const struct region *r, uint64_t start,
			  uint64_t len, int force, const char *option)
{
	struct location *marked;
	size_t n;

	if (force)
		return;
	n = location_effects_in(r, start, len, &marked);
	if (!n)
		return;
	die(IIOCTL_EUSAGE, "%s: %s cannot leave out %s (0x%llx, read=%s), whose read has side effects: dump around it (-s, -n) or read it with --force",
	    r->label, option, udrv_reg_name(marked[0].reg),
	    (unsigned long long)marked[0].offset,
	    location_read_effect(marked[0].reg));
}

/*
 * [pos, pos+n) into buf, leaving out the marked registers (skip[i] set
 * for their bytes, which are 0 in buf): one region_read_values() per
 * stretch between them.
 */
static void read_around(struct region *r, uint64_t pos, unsigned char *buf,
			size_t n, unsigned width, const struct location *marked,
			size_t nmarked, unsigned char *skip)
{
	uint64_t at = pos, end = pos + n, from, to;
	size_t i;

	memset(skip, 0, n);
	for (i = 0; i <= nmarked; i++) {
		from = i < nmarked ? marked[i].offset : end;
		to = i < nmarked ? marked[i].offset + marked[i].width : end;
		if (from < pos)
			from = pos;
		if (from > end)
			from = end;
		if (to > end)
			to = end;
		/* a value of width that holds a marked byte is left out too */
		if (width) {
			from -= (from - pos) % width;
			to += (width - (to - pos) % width) % width;
			if (to > end)
				to = end;
		}
		if (from > at)
			region_read_values(r, at, buf + (at - pos),
					   (size_t)(from - at), width);
		if (to > from) {
			memset(buf + (from - pos), 0, (size_t)(to - from));
			memset(skip + (from - pos), 1, (size_t)(to - from));
		}
		if (to > at)
			at = to;
	}
}

static int do_dump(int argc, const char **argv)
{
	const char *width_arg = NULL, *start_arg = NULL, *len_arg = NULL;
	const char *dev_arg;
	const char *compare_path = NULL;
	unsigned char *buf, prev[LINE];
	const unsigned char *sk;
	uint64_t start = 0, len, pos, end;
	size_t n, i, line_len;
	int raw = 0, folded = 0, have_prev = 0, all = 0, force = 0;
	struct location *marked = NULL;
	unsigned char *skip = NULL;
	size_t nmarked = 0;
	unsigned width = 0;
	struct region r;
	poptContext ctx;
	const struct poptOption options[] = {
		{ "skip", 's', POPT_ARG_STRING, &start_arg, 0,
		  "start at OFFSET (default 0)", "OFFSET" },
		{ "length", 'n', POPT_ARG_STRING, &len_arg, 0,
		  "dump LENGTH bytes (default 256)", "LENGTH" },
		{ "all", 'a', POPT_ARG_NONE, &all, 0,
		  "dump to the end of the region or window", NULL },
		{ "force", 0, POPT_ARG_NONE, &force, 0,
		  "read the registers whose read has side effects too", NULL },
		{ "width", 'w', POPT_ARG_STRING, &width_arg, 0,
		  "one access of W bytes per value: 1, 2, 4 or 8 (default: bytes, read in 4-byte accesses from a PCI device's mem region, else in chunks)",
		  "W" },
		{ "raw", 0, POPT_ARG_NONE, &raw, 0,
		  "write the bytes to stdout instead of a hexdump", NULL },
		{ "compare", 0, POPT_ARG_STRING, &compare_path, 0,
		  "compare with FILE (raw bytes, or an earlier dump's text): print OFFSET FILE DEVICE where they differ; status 1 if any",
		  "FILE" },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE,
		  (void *)region_popt_options, 0, "Node options:", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};

	region_opts = (struct region_options){ 0 };
	ctx = parse_options(argc, argv, options, "DEV | @ADDR");
	if (width_arg)
		width = parse_width_or_die(width_arg);
	dev_arg = need_arg(ctx, "DEV");
	region_select(&r, dev_arg);
	no_more_args(ctx);
	if (dev_arg[0] == '@') {
		/* a physical address: where the dump starts */
		struct location at;

		if (start_arg || compare_path)
			die(IIOCTL_EUSAGE, "%s and %s conflict: the address is where the dump starts",
			    start_arg ? "-s" : "--compare", msg_word(dev_arg));
		location_parse_or_die(&r, dev_arg, 0, &at);
		if (at.bits)
			die(IIOCTL_EUSAGE, "dump: %s is a field; dump takes @ADDR alone",
			    msg_word(dev_arg));
		start = at.offset;
	}
	if (all && len_arg)
		die(IIOCTL_EUSAGE, "--all and --length conflict");
	if (compare_path) {
		struct dumpfile d;
		int status;

		if (raw)
			die(IIOCTL_EUSAGE, "--compare and --raw conflict");
		if (all)
			die(IIOCTL_EUSAGE, "--compare compares the file's length: --all does not go with it");
		d = load_compare(compare_path, start_arg, len_arg, &start,
				 &len);
		region_check_range(&r, start, len, width);
		refuse_marked(&r, start, len, force, "--compare");
		if (iioctl_dry_run) {
			region_plan_read(&r, start, len, width);
			free(d.bytes);
			return IIOCTL_OK;
		}
		open_for_reading(&r, start, len, width);
		status = compare(&r, &d, start, len, width);
		free(d.bytes);
		region_close(&r);
		return status;
	}
	if (start_arg)
		start = parse_u64_or_die(start_arg, "offset", NUM_SUFFIX,
					 UINT64_MAX);
	if (start > r.size)
		region_check_range(&r, start, 0, width);	/* dies */
	len = r.size - start;
	if (!all && len > DEFAULT_LENGTH)
		len = DEFAULT_LENGTH;
	if (len_arg)
		len = parse_u64_or_die(len_arg, "length", NUM_SUFFIX,
				       UINT64_MAX);
	region_check_range(&r, start, len, width);
	if (raw)
		refuse_marked(&r, start, len, force, "--raw");
	else if (!force)
		nmarked = location_effects_in(&r, start, len, &marked);
	if (len_arg && !len)
		return IIOCTL_OK;	/* -n 0: nothing, as hexdump -n 0 */
	if (iioctl_dry_run) {
		region_plan_read(&r, start, len, width);
		free(marked);
		return IIOCTL_OK;
	}
	location_say_skipped(&r, marked, nmarked);
	open_for_reading(&r, start, len, width);
	buf = xmalloc(CHUNK);
	init_tables();
	out_buf = raw ? NULL : xmalloc(OUT_SIZE);
	out_len = 0;
	end = start + len;
	for (pos = start; pos < end; pos += n) {
		n = end - pos < CHUNK ? (size_t)(end - pos) : CHUNK;
		/* what is formatted is out before a failed read can die */
		if (!raw)
			out_flush();
		if (nmarked) {
			if (!skip)
				skip = xmalloc(CHUNK);
			read_around(&r, pos, buf, n, width, marked, nmarked,
				    skip);
		} else {
			region_read_values(&r, pos, buf, n, width);
		}
		if (raw) {
			fwrite(buf, 1, n, stdout);
			continue;
		}
		for (i = 0; i < n; i += LINE) {
			line_len = n - i < LINE ? n - i : LINE;
			sk = skip && memchr(skip + i, 1, line_len) ?
			     skip + i : NULL;
			if (have_prev && line_len == LINE && !sk &&
			    !memcmp(prev, buf + i, LINE)) {
				if (!folded)
					print_text("*\n");
				folded = 1;
				continue;
			}
			print_line(pos + i, buf + i, line_len, width, sk);
			if (line_len == LINE)
				memcpy(prev, buf + i, LINE);
			else
				memcpy(prev, buf + i, line_len);
			have_prev = line_len == LINE && !sk;
			folded = 0;
		}
	}
	if (!raw) {
		char *o = out_reserve();

		o = put_offset(o, end);
		*o++ = '\n';
		out_len = (size_t)(o - out_buf);
		out_flush();
	}
	free(out_buf);
	out_buf = NULL;
	free(buf);
	free(skip);
	free(marked);
	region_close(&r);
	return IIOCTL_OK;
}

const struct iioctl_cmd iioctl_cmd_dump = {
	.name = "dump",
	.run = do_dump,
	.help = "hexdump of 256 bytes, a window (-s, -n) or all (--all) of the region (-w, --raw, --mmap)",
};
