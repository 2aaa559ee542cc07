// SPDX-License-Identifier: GPL-2.0-only
/*
 * batch.c - iioctl batch [FILE|-]: one command a line, in one process
 *
 * Every line is first checked (parsed, its device resolved, its numbers
 * and ranges validated) without touching a node; only if all are good are
 * they run, in order, stopping at the first failure.  Either way an error
 * is reported as "iioctl: batch line N: ..." with that command's status.
 * Lines: the words of a command line (no "iioctl"), split at blanks, with
 * '...' and "..." quoting and \ escapes; # starts a comment; blank lines
 * are skipped.  Nodes stay open from line to line (device.c's cache).
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define MAX_WORDS 64

/* Splits line in place into words; returns their number. */
static int split_words(char *line, const char **words)
{
	char *in = line, *out = line;
	int n = 0;

	for (;;) {
		while (*in == ' ' || *in == '\t' || *in == '\r')
			in++;
		if (!*in || *in == '#')
			return n;
		if (n == MAX_WORDS)
			die(IIOCTL_EUSAGE, "more than %d words", MAX_WORDS);
		words[n++] = out;
		while (*in && *in != ' ' && *in != '\t' && *in != '\r') {
			char quote = 0;

			if (*in == '\'' || *in == '"') {
				quote = *in++;
				while (*in && *in != quote) {
					if (quote == '"' && *in == '\\' &&
					    (in[1] == '"' || in[1] == '\\'))
						in++;
					*out++ = *in++;
				}
				if (!*in)
					die(IIOCTL_EUSAGE, "unterminated %c quote",
					    quote);
				in++;
			} else if (*in == '\\' && in[1]) {
				in++;
				*out++ = *in++;
			} else {
				*out++ = *in++;
			}
		}
		if (*in)
			in++;
		*out++ = '\0';
	}
}

static int run_lines(char *text, size_t len)
{
	const char *words[MAX_WORDS + 1];
	char *line, *next, *copy;
	unsigned long nr = 0;
	int n, status;

	for (line = text; line < text + len; line = next) {
		next = memchr(line, '\n', (size_t)(text + len - line));
		next = next ? next + 1 : text + len;
		nr++;
		copy = strndup(line, (size_t)(next - line));
		if (!copy)
			die(IIOCTL_EDEVICE, "out of memory");
		copy[strcspn(copy, "\n")] = '\0';
		iioctl_batch_line = nr;
		n = split_words(copy, words);
		if (n) {
			words[n] = NULL;
			if (!strcmp(words[0], "batch"))
				die(IIOCTL_EUSAGE, "batch cannot be nested");
			status = iioctl_run_command(n, words);
			if (status)
				die(status, "%s failed", words[0]);
		}
		free(copy);
	}
	iioctl_batch_line = 0;
	return IIOCTL_OK;
}

static int do_batch(int argc, const char **argv)
{
	const char *input;
	unsigned char *text;
	size_t len;
	poptContext ctx;
	const struct poptOption options[] = {
		POPT_AUTOHELP
		POPT_TABLEEND
	};

	ctx = parse_options(argc, argv, options, "[FILE|-]");
	input = poptGetArg(ctx);
	if (!input)
		input = "-";
	no_more_args(ctx);
	if (iioctl_batch_line)
		die(IIOCTL_EUSAGE, "batch cannot be nested");
	text = load_input(input, SIZE_MAX - 1, &len);
	iioctl_dry_run = true;
	run_lines((char *)text, len);
	iioctl_dry_run = false;
	run_lines((char *)text, len);
	free(text);
	return IIOCTL_OK;
}

const struct iioctl_cmd iioctl_cmd_batch = {
	.name = "batch",
	.run = do_batch,
	.help = "run commands from FILE (default stdin), one a line",
};
