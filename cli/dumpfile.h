/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dumpfile.h - the bytes of a file to compare a region with: raw bytes,
 * or the text of an earlier `iioctl dump` or `hexdump -C`
 */
#ifndef IIOCTL_DUMPFILE_H
#define IIOCTL_DUMPFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dumpfile {
	bool text;		/* it was a hexdump's text, not raw bytes */
	uint64_t start;		/* the text's first offset (0 for raw) */
	unsigned char *bytes;	/* malloc()ed */
	size_t len;
};

/*
 * Parses text (len bytes) as the output of `iioctl dump` (any -w) or
 * `hexdump -C`: offset lines, "*" for repeated lines, the end offset last.
 * Returns NULL and fills d, or a message (static storage) and sets *line
 * to the line it is about.  Text that does not start like a hexdump is
 * not one: returns NULL with d->text false (the caller takes it as raw).
 */
const char *dumpfile_parse(const char *text, size_t len, struct dumpfile *d,
			   unsigned long *line);

#endif
