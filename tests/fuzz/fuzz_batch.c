// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_batch.c - libFuzzer harness of iioctl's batch parser: the input is
 * a batch file.  Each line is split by batch_split_words (cli/batch.c),
 * checked against what splitting promises, and then the whole text is
 * checked the way `iioctl batch` checks it before running anything
 * (batch_run_lines with iioctl_dry_run set), so every command's option
 * parsing (popt), number, range and DEV checks see it too, against the
 * host fixture.  Dry run only: no node is ever opened or written.
 *
 * Run with -detect_leaks=0 (and ASAN_OPTIONS=detect_leaks=0): a command
 * that dies mid-way leaves what it allocated to exit(), which here
 * returns to the harness instead.
 *
 * Texts asking popt for help (a word --help or --usage, or a short option
 * cluster with '?') are split but not run: popt's help frees its context
 * and exits from inside poptGetNextOpt, which only the real exit() makes
 * safe (the tool prints that command's help and ends with status 0).
 */
#include "batch.h"
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_use_fixture();
	return 0;
}

/* Whether a word would make popt print help and exit. */
static bool is_help(const char *w)
{
	return !strcmp(w, "--help") || !strcmp(w, "--usage") ||
	       (w[0] == '-' && w[1] != '-' && strchr(w, '?'));
}

/* Checks the splitting of line; returns whether a word asks for help. */
static bool check_split(const char *line)
{
	bool help = false;
	const char *words[BATCH_MAX_WORDS + 1], *why = NULL;
	size_t len = strlen(line), total = 0;
	char *copy = strdup(line);
	int n, i;

	FUZZ_ASSERT(copy);
	n = batch_split_words(copy, words, &why);
	if (n < 0) {
		FUZZ_ASSERT(why && (!strcmp(why, BATCH_TOO_MANY_WORDS) ||
				    !strncmp(why, "unterminated ", 13)));
		free(copy);
		return false;
	}
	FUZZ_ASSERT(n <= BATCH_MAX_WORDS && !words[n]);
	for (i = 0; i < n; i++) {
		/* in place, in order, and never longer than the line */
		FUZZ_ASSERT(words[i] >= copy && words[i] < copy + len);
		FUZZ_ASSERT(!i || words[i] > words[i - 1]);
		total += strlen(words[i]) + 1;
		help |= is_help(words[i]);
	}
	FUZZ_ASSERT(total <= len + 1);
	free(copy);
	return help;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size), *line, *next;
	bool help = false;
	int status;

	/* the lines up to the first NUL; batch_run_lines sees those too */
	size = strlen(text);
	for (line = text; *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		help |= check_split(line);
		if (next)
			next[-1] = '\n';
		else
			break;
	}
	if (help) {
		free(text);
		return 0;
	}
	iioctl_dry_run = true;
	status = FUZZ_CATCH_EXIT(batch_run_lines(text, size));
	iioctl_batch_line = 0;
	if (status != -1)
		fuzz_check_status(status);
	free(text);
	return 0;
}
