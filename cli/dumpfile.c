// SPDX-License-Identifier: GPL-2.0-only
/*
 * dumpfile.c - parse the text of a hexdump (iioctl dump, hexdump -C) back
 * into bytes, for dump --compare
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "dumpfile.h"

#define LINE 16

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* At least 8 and at most 16 hex digits; their value, or false. */
static bool parse_offset(const char *s, size_t n, uint64_t *v)
{
	size_t i;

	if (n < 8 || n > 16)
		return false;
	*v = 0;
	for (i = 0; i < n; i++) {
		if (hex_value(s[i]) < 0)
			return false;
		*v = *v << 4 | (uint64_t)hex_value(s[i]);
	}
	return true;
}

/* Whether text starts with "OFFSET  " or is a lone "OFFSET" line. */
static bool looks_like_dump(const char *text, size_t len)
{
	size_t n = 0;
	uint64_t v;

	while (n < len && n < 17 && hex_value(text[n]) >= 0)
		n++;
	if (!parse_offset(text, n, &v))
		return false;
	return (n + 1 < len && text[n] == ' ' && text[n + 1] == ' ') ||
	       (n < len && text[n] == '\n');
}

/* Room for the bytes up to end; false if the dump is too large. */
static bool grow(struct dumpfile *d, size_t *cap, uint64_t end)
{
	if (end - d->start > (uint64_t)1 << 32)
		return false;
	if (end - d->start > *cap) {
		size_t old = *cap;

		*cap = (size_t)(end - d->start) * 2;
		d->bytes = xrealloc(d->bytes, *cap);
		memset(d->bytes + old, 0, *cap - old);
	}
	return true;
}

const char *dumpfile_parse(const char *text, size_t len, struct dumpfile *d,
			   unsigned long *line)
{
	const char *p = text, *end = text + len, *eol, *q;
	uint64_t offset, pos = 0, v;
	unsigned char prev[LINE];
	bool have_prev = false, repeat = false, done = false;
	size_t cap = 0, nbytes, digits, i;

	memset(d, 0, sizeof(*d));
	*line = 0;
	if (!looks_like_dump(text, len))
		return NULL;
	d->text = true;
	for (; p < end; p = eol + 1) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		++*line;
		if (done)
			return eol == p ? NULL : "text after the end offset";
		if (eol - p == 1 && *p == '*') {
			if (!have_prev || repeat)
				return "'*' without a line to repeat";
			repeat = true;
			continue;
		}
		for (q = p; q < eol && *q != ' '; q++)
			;
		if (!parse_offset(p, (size_t)(q - p), &offset))
			return "expected an offset of 8 to 16 hex digits";
		if (*line == 1)
			d->start = pos = offset;
		if (offset < pos || (offset > pos && !repeat))
			return "offset out of order";
		if (repeat) {
			if ((offset - pos) % LINE)
				return "'*' does not end at a whole line";
			if (!grow(d, &cap, offset))
				return "too large";
			for (; pos < offset; pos += LINE)
				memcpy(d->bytes + (pos - d->start), prev, LINE);
			repeat = false;
		}
		if (q == eol) {		/* the end offset */
			done = true;
			continue;
		}
		/* values up to the ASCII column: "hh", "hhhh", ... each */
		nbytes = 0;
		if (!grow(d, &cap, offset + LINE))
			return "too large";
		for (;;) {
			while (q < eol && *q == ' ')
				q++;
			if (q == eol || *q == '|')
				break;
			for (digits = 0; q + digits < eol &&
			     hex_value(q[digits]) >= 0; digits++)
				;
			if ((digits != 2 && digits != 4 && digits != 8 &&
			     digits != 16) || nbytes + digits / 2 > LINE ||
			    (q + digits < eol && q[digits] != ' '))
				return "expected values of 2, 4, 8 or 16 hex digits";
			for (v = 0, i = 0; i < digits; i++)
				v = v << 4 | (uint64_t)hex_value(q[i]);
			for (i = 0; i < digits / 2; i++)	/* native order */
				d->bytes[offset - d->start + nbytes++] =
					(unsigned char)(v >> (8 * i));
			q += digits;
		}
		if (!nbytes)
			return "a line without values";
		memcpy(prev, d->bytes + (offset - d->start), nbytes);
		have_prev = nbytes == LINE;
		pos = offset + nbytes;
	}
	if (!done)
		return "no end offset (the last line of a dump)";
	d->len = (size_t)(pos - d->start);
	return NULL;
}
