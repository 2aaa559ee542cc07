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

#include "batch.h"
#include "common.h"

/* Splits line in place into words; returns their number. */
static int split_words(char *line, const char **words)
{
	const char *why;
	int n = batch_split_words(line, words, &why);

	if (n < 0)
		die(IIOCTL_EUSAGE, "%s", why);
	return n;
}

int batch_split_words(char *line, const char **words, const char **why)
{
	char *in = line, *out = line;
	int n = 0;

	for (;;) {
		while (*in == ' ' || *in == '\t' || *in == '\r')
			in++;
		if (!*in || *in == '#')
			break;
		if (n == BATCH_MAX_WORDS) {
			*why = BATCH_TOO_MANY_WORDS;
			return -1;
		}
		words[n++] = out;
		while (*in && *in != ' ' && *in != '\t' && *in != '\r') {
			if (*in == '\'' || *in == '"') {
				char quote = *in++;

				while (*in && *in != quote) {
					if (quote == '"' && *in == '\\' &&
					    (in[1] == '"' || in[1] == '\\'))
						in++;
					*out++ = *in++;
				}
				if (!*in) {
					*why = quote == '"' ?
						"unterminated \" quote" :
						"unterminated ' quote";
					return -1;
				}
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
	words[n] = NULL;
	return n;
}

int batch_run_lines(char *text, size_t len)
{
	const char *words[BATCH_MAX_WORDS + 1];
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
			if (!strcmp(words[0], "batch"))
				die(IIOCTL_EUSAGE, "batch cannot be nested");
			for (int i = 1; i < n && strcmp(words[i], "--"); i++)
				if (!strcmp(words[i], "--help") ||
				    !strcmp(words[i], "-?") ||
				    !strcmp(words[i], "--usage"))
					die(IIOCTL_EUSAGE, "%s has no place in a batch",
					    words[i]);
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
	iioctl_batch_stdin = !strcmp(input, "-");
	iioctl_dry_run = true;
	batch_run_lines((char *)text, len);
	iioctl_dry_run = false;
	batch_run_lines((char *)text, len);
	iioctl_batch_stdin = false;
	free(text);
	return IIOCTL_OK;
}

const struct iioctl_cmd iioctl_cmd_batch = {
	.name = "batch",
	.run = do_batch,
	.help = "run commands from FILE (default stdin), one a line",
};
