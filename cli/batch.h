/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * batch.h - the batch command's line parser, callable on its own (the
 * fuzz harness tests/fuzz/fuzz_batch.c uses it)
 */
#ifndef IIOCTL_BATCH_H
#define IIOCTL_BATCH_H

#include <stddef.h>

#define BATCH_MAX_WORDS 64
#define BATCH_TOO_MANY_WORDS "more than 64 words"	/* BATCH_MAX_WORDS */

/*
 * Splits line in place into words (blanks separate; '...' and "..."
 * quote, \ escapes, # starts a comment): words needs BATCH_MAX_WORDS + 1
 * entries and ends with NULL.  Returns the number of words, or -1 with
 * *why set to a message (static storage) for a line that is not valid.
 */
int batch_split_words(char *line, const char **words, const char **why);

/*
 * Checks every line of text, then runs them all (with iioctl_dry_run set:
 * only checks): dies with "batch line N: ..." and that command's status
 * at the first failure.
 */
int batch_run_lines(char *text, size_t len);

#endif
