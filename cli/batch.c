// SPDX-License-Identifier: GPL-2.0-only
/*
 * batch.c - iioctl batch [FILE|-]: one command a line, in one process
 *
 * Every line is first checked (parsed, its device resolved, its numbers
 * and ranges validated) without touching a node; only if all are good are
 * they run, in order, stopping at the first failure.  Either way an error
 * is reported as "iioctl: batch line N: ..." with that command's status.
 * With --stream each line is checked and run as it arrives, its answer
 * ended by a line "ok N" and flushed at once (a co-process protocol).
 * Lines: the words of a command line (no "iioctl"), split at blanks, with
 * '...' and "..." quoting and \ escapes; # starts a comment; blank lines
 * are skipped.  Nodes stay open from line to line (device.c's cache).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "common.h"
#include "location.h"
#include "region.h"

/* Splits line in place into words; returns their number. */
static int split_words(char *line, const char **words)
{
	const char *why;
	int n = batch_split_words(line, words, &why);

	if (n < 0)
		die(IIOCTL_EUSAGE, "%s", why);
	return n;
}

/*
 * What a character is to the splitter: the end of the line, a blank, one
 * that quoting or escaping needs (' " \), or plain.
 */
enum char_kind { PLAIN, END, BLANK, SPECIAL };
static const unsigned char char_kind[256] = {
	['\0'] = END, [' '] = BLANK, ['\t'] = BLANK, ['\r'] = BLANK,
	['\''] = SPECIAL, ['"'] = SPECIAL, ['\\'] = SPECIAL,
};

/*
 * The rest of a word from in, with its quotes and escapes removed,
 * written from out (out <= in) and NUL-terminated; returns where the next
 * word may start, or NULL with *why set.
 */
static char *split_quoted(char *in, char *out, const char **why)
{
	while (char_kind[(unsigned char)*in] != END &&
	       char_kind[(unsigned char)*in] != BLANK) {
		if (*in == '\'' || *in == '"') {
			char quote = *in++;

			while (*in && *in != quote) {
				if (quote == '"' && *in == '\\' &&
				    (in[1] == '"' || in[1] == '\\'))
					in++;
				*out++ = *in++;
			}
			if (!*in) {
				*why = quote == '"' ? "unterminated \" quote" :
						      "unterminated ' quote";
				return NULL;
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
	*out = '\0';
	return in;
}

int batch_split_words(char *line, const char **words, const char **why)
{
	unsigned char kind;
	char *in = line;
	int n = 0;

	for (;;) {
		while (char_kind[(unsigned char)*in] == BLANK)
			in++;
		if (!*in || *in == '#')
			break;
		if (n == BATCH_MAX_WORDS) {
			*why = BATCH_TOO_MANY_WORDS;
			return -1;
		}
		words[n++] = in;
		/* a plain run ended by a blank or the end: nothing to remove */
		while ((kind = char_kind[(unsigned char)*in]) == PLAIN)
			in++;
		if (kind == BLANK)
			*in++ = '\0';
		else if (kind == SPECIAL && !(in = split_quoted(in, in, why)))
			return -1;
	}
	words[n] = NULL;
	return n;
}

/*
 * The fast path: a peek or poke line with only the common options (-w,
 * -m, --verify, -d, --in, --out, --mmap) whose every check passes is
 * compiled when the lines are checked, with the command's own checked
 * parsers (common.h, location.h; register names too), and run from that:
 * no popt, no parsing, the node resolved once and, with --mmap, one
 * mapping of the whole window per device for the whole batch.  Any other
 * line, and any line with a mistake (so that its message is the
 * command's own), goes through the command as typed.
 */
enum batch_op_kind { OP_COMMAND, OP_PEEK, OP_POKE };

struct fast_region {
	char *dev;			/* the DEV word */
	enum iio_node node;		/* NODE_IN, NODE_OUT or NODE_NONE */
	bool mmap, write, opened;
	struct region r;
};

struct batch_op {
	enum batch_op_kind kind;
	bool verify, decimal;
	struct fast_region *fr;
	struct location loc;
	uint64_t value, mask;
};

#define FAST_REGIONS 16
static struct fast_region fast_regions[FAST_REGIONS];
static size_t nfast_regions;

static struct fast_region *fast_region(const char *dev, enum iio_node node,
				       bool mmap, bool write)
{
	struct fast_region *fr;
	size_t i;

	for (i = 0; i < nfast_regions; i++) {
		fr = &fast_regions[i];
		if (fr->node == node && fr->mmap == mmap &&
		    fr->write == write && !strcmp(fr->dev, dev))
			return fr;
	}
	if (nfast_regions == FAST_REGIONS)
		return NULL;
	region_opts = (struct region_options){
		.in = node == NODE_IN, .out = node == NODE_OUT, .mmap = mmap,
	};
	fr = &fast_regions[nfast_regions];
	region_select(&fr->r, dev);	/* dies as the command would */
	fr->dev = xstrdup(dev);
	fr->node = node;
	fr->mmap = mmap;
	fr->write = write;
	fr->opened = false;	/* the slot may be a closed batch's */
	nfast_regions++;
	return fr;
}

static void fast_regions_close(void)
{
	while (nfast_regions) {
		struct fast_region *fr = &fast_regions[--nfast_regions];

		region_close(&fr->r);
		free(fr->dev);
	}
}

/* "-w" "W", "-wW", "--width" "W", "--width=W": the value, or NULL. */
static const char *option_value(const char *arg, char s, const char *l,
				const char *const **next, const char *const *end)
{
	size_t n = strlen(l);

	if (arg[1] == s && arg[2])
		return arg + 2;
	if ((arg[1] == s && !arg[2]) || !strcmp(arg + 2, l)) {
		if (*next == end)
			return NULL;
		return *(*next)++;
	}
	if (!strncmp(arg + 2, l, n) && arg[2 + n] == '=')
		return arg + 3 + n;
	return NULL;
}

/* Compiles words (peek or poke) into op; false: run it as a command. */
static bool compile_fast(int n, const char **words, struct batch_op *op)
{
	const char *const *w = words + 1, *const *end = words + n;
	const char *pos[3], *width_arg = NULL, *mask_arg = NULL, *a;
	bool poke = !strcmp(words[0], "poke"), in = false, out = false;
	bool mmap = false;
	char why[WHY_MAX];
	unsigned width = 0;
	int npos = 0;

	if (!poke && strcmp(words[0], "peek"))
		return false;
	op->verify = op->decimal = false;
	while (w < end) {
		a = *w++;
		if (a[0] != '-' || !a[1]) {
			if (npos == 3)
				return false;
			pos[npos++] = a;
		} else if (!strcmp(a, "--mmap")) {
			mmap = true;
		} else if (!strcmp(a, "--in")) {
			in = true;
		} else if (!strcmp(a, "--out")) {
			out = true;
		} else if (poke && !strcmp(a, "--verify")) {
			op->verify = true;
		} else if (!poke && (!strcmp(a, "-d") ||
				     !strcmp(a, "--decimal"))) {
			op->decimal = true;
		} else if (a[1] == 'w' || !strncmp(a, "--width", 7)) {
			width_arg = option_value(a, 'w', "width", &w, end);
			if (!width_arg)
				return false;
		} else if (poke && (a[1] == 'm' || !strncmp(a, "--mask", 6))) {
			mask_arg = option_value(a, 'm', "mask", &w, end);
			if (!mask_arg)
				return false;
		} else {
			return false;
		}
	}
	if (npos != (poke ? 3 : 2) || (in && out) ||
	    (width_arg && !parse_width(width_arg, &width, why)))
		return false;
	op->fr = fast_region(pos[0], in ? NODE_IN : out ? NODE_OUT : NODE_NONE,
			     mmap, poke);
	if (!op->fr || (poke && op->fr->r.node == NODE_IN) ||
	    !location_parse(&op->fr->r, pos[1], width, &op->loc, why) ||
	    !location_access(&op->loc, poke, why) ||
	    (op->verify && !location_verify(&op->loc, why)) ||
	    (poke && !location_value_mask(&op->loc, pos[2], mask_arg,
					  &op->value, &op->mask, why)) ||
	    !region_range(&op->fr->r, op->loc.offset, op->loc.width,
			  op->loc.width, why))
		return false;
	op->kind = poke ? OP_POKE : OP_PEEK;
	return true;
}

static void run_fast(const struct batch_op *op)
{
	struct fast_region *fr = op->fr;
	const struct location *loc = &op->loc;

	if (!fr->opened) {
		region_open(&fr->r, fr->write, 0, fr->r.size);
		fr->opened = true;
	} else {
		/*
		 * the node cache may have closed the fd for a newer node
		 * since (it holds NODE_CACHE_SIZE): ask it again, as
		 * region_open() does (a mapping outlives its fd)
		 */
		fr->r.fd = node_open(fr->r.path, fr->write ? O_RDWR : O_RDONLY);
		if (fr->r.fd < 0)
			die_open(fr->r.path, fr->write ? " for writing" : "");
	}
	if (op->kind == OP_POKE)
		region_poke(&fr->r, loc->offset, loc->width, op->value,
			    op->mask, location_zero_bits(loc), op->verify);
	else
		location_print(loc, region_read_value(&fr->r, loc->offset,
						      loc->width),
			       op->decimal);
}

/* --dry-run: what a compiled line would do */
static void plan_fast(const struct batch_op *op)
{
	const struct location *loc = &op->loc;

	if (op->kind == OP_POKE)
		region_plan_poke(&op->fr->r, loc->offset, loc->width,
				 op->value, op->mask, location_zero_bits(loc),
				 1);
	else
		region_plan_read(&op->fr->r, loc->offset, loc->width,
				 loc->width);
}

/* One line, split into words and run (or checked) as a command. */
static void run_command_line(const char **words, int n)
{
	int status;

	if (!strcmp(words[0], "batch"))
		die(IIOCTL_EUSAGE, "batch cannot be nested");
	status = iioctl_run_command(n, words);
	if (status)
		die(status, "%s failed", words[0]);
}

/*
 * Each line of text in turn.  Checking (ops): split into a copy, then
 * compiled into ops[nr - 1] or checked as a command.  Running (compiled):
 * a compiled line runs from its op, any other is split and run.
 */
static void for_each_line(char *text, size_t len, unsigned long first,
			  struct batch_op *ops, const struct batch_op *compiled)
{
	static char *copy;	/* kept: a line may die */
	static size_t cap;
	const char *words[BATCH_MAX_WORDS + 1];
	char *line, *next, *nul;
	size_t n;
	unsigned long nr = 0;
	int nwords;

	for (line = text; line < text + len; line = next) {
		next = memchr(line, '\n', (size_t)(text + len - line));
		next = next ? next + 1 : text + len;
		iioctl_batch_line = first + ++nr;
		if (compiled && compiled[nr - 1].kind != OP_COMMAND) {
			run_fast(&compiled[nr - 1]);
			continue;
		}
		n = (size_t)(next - line);
		/* the line would end there unseen: refuse it while checking */
		nul = ops ? memchr(line, '\0', n) : NULL;
		if (nul)
			die(IIOCTL_EUSAGE, "a NUL byte at column %zu (a batch is text)",
			    (size_t)(nul - line) + 1);
		if (!copy || n + 1 > cap)
			copy = xrealloc(copy, cap = 2 * n + 64);
		memcpy(copy, line, n);
		copy[n && line[n - 1] == '\n' ? n - 1 : n] = '\0';
		if (ops)
			ops[nr - 1].kind = OP_COMMAND;
		nwords = split_words(copy, words);
		if (!nwords)
			continue;
		if (ops && compile_fast(nwords, words, &ops[nr - 1])) {
			plan_fast(&ops[nr - 1]);
			continue;
		}
		run_command_line(words, nwords);
	}
	iioctl_batch_line = 0;
}

/* The number of lines of text (a last line without '\n' counts). */
static size_t count_lines(const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	size_t n = 0;

	while (p < end) {
		p = memchr(p, '\n', (size_t)(end - p));
		n++;
		p = p ? p + 1 : end;
	}
	return n;
}

/*
 * Checks (and compiles) every line of text, numbered from first + 1, then
 * runs them unless only checking; keep_open leaves the fast path's
 * regions open for the next call (a stream).
 */
static void run_text(char *text, size_t len, unsigned long first,
		     bool keep_open)
{
	static struct batch_op *ops;	/* kept: a batch may die midway */
	static size_t ops_cap;
	bool check_only = iioctl_dry_run;
	size_t need = count_lines(text, len) + 1;

	if (need > ops_cap)
		ops = xrealloc(ops, (ops_cap = need) * sizeof(*ops));
	iioctl_dry_run = true;
	for_each_line(text, len, first, ops, NULL);
	if (!check_only) {
		iioctl_dry_run = false;
		for_each_line(text, len, first, NULL, ops);
	}
	iioctl_dry_run = check_only;
	if (!keep_open)
		fast_regions_close();
}

int batch_run_lines(char *text, size_t len)
{
	fast_regions_close();		/* what a batch that died left */
	run_text(text, len, 0, false);
	return IIOCTL_OK;
}

/*
 * --stream: each line of in checked and run as it arrives, then "ok N"
 * and a flush, so that a co-process driver knows the answer is whole;
 * the first failure ends the batch as it does a whole one (its message
 * on stderr, its status, no "ok" line).  A closed standard output is a
 * write error (status 1), not a SIGPIPE.
 */
static void run_stream(FILE *in, const char *name)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned long nr = 0;

	signal(SIGPIPE, SIG_IGN);
	fast_regions_close();
	while ((n = getline(&line, &cap, in)) > 0) {
		run_text(line, (size_t)n, nr, true);
		iioctl_batch_line = ++nr;
		printf("ok %lu\n", nr);
		flush_stdout();
		iioctl_batch_line = 0;
	}
	if (ferror(in))
		die_perror(IIOCTL_EUSAGE, "cannot read %s", name);
	free(line);
	fast_regions_close();
}

static int do_batch(int argc, const char **argv)
{
	const char *input;
	unsigned char *text;
	size_t len;
	poptContext ctx;
	int stream = 0;
	FILE *in;
	const struct poptOption options[] = {
		{ "stream", 's', POPT_ARG_NONE, &stream, 0,
		  "check and run each line as it arrives, then print \"ok N\"",
		  NULL },
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
	iioctl_batch_stdin = !strcmp(input, "-");
	options_refuse_help(true);
	if (stream) {
		in = iioctl_batch_stdin ? stdin : fopen(input, "re");
		if (!in)
			die_perror(IIOCTL_EUSAGE, "cannot open %s", input);
		run_stream(in, input);
		if (in != stdin)
			fclose(in);
	} else {
		text = load_input(input, SIZE_MAX - 1, &len);
		batch_run_lines((char *)text, len);
		free(text);
	}
	options_refuse_help(false);
	iioctl_batch_stdin = false;
	return IIOCTL_OK;
}

const struct iioctl_cmd iioctl_cmd_batch = {
	.name = "batch",
	.run = do_batch,
	.help = "run commands from FILE (default stdin), one a line",
};
