// SPDX-License-Identifier: GPL-2.0-only
/*
 * common.c - error reporting, number parsing and popt glue shared by the
 * iioctl commands
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "number.h"

bool iioctl_dry_run;
bool iioctl_dry_run_asked;
bool iioctl_verbose;
unsigned long iioctl_batch_line;
bool iioctl_batch_stdin;

void check_stdin_free(const char *path)
{
	if (iioctl_batch_stdin && !strcmp(path, "-"))
		die(IIOCTL_EUSAGE, "'-' is the batch itself here (give the batch as a FILE to read standard input)");
}

static void report(const char *fmt, va_list ap, int err)
{
	fflush(stdout);
	fputs("iioctl: ", stderr);
	if (iioctl_batch_line)
		fprintf(stderr, "batch line %lu: ", iioctl_batch_line);
	vfprintf(stderr, fmt, ap);
	if (err)
		fprintf(stderr, ": %s", strerror(err));
	fputc('\n', stderr);
}

void die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(fmt, ap, 0);
	va_end(ap);
	exit(status);
}

void die_perror(int status, const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	report(fmt, ap, err);
	va_end(ap);
	exit(status);
}

void die_open(const char *path, const char *how)
{
	if ((errno == EACCES || errno == EPERM) && geteuid() != 0)
		die(IIOCTL_EDEVICE, "%s: permission denied (the iio nodes are root-only; see iio(4) for a udev rule)",
		    path);
	die_perror(IIOCTL_EDEVICE, "cannot open %s%s", path, how);
}

const char *msg_word(const char *word)
{
	static char bufs[4][ARG_SHOWN_MAX + 4];
	static unsigned next;
	char *buf = bufs[next++ % 4];

	if (word[text_escape(word, buf, ARG_SHOWN_MAX + 1)])
		memcpy(buf + strlen(buf), "...", 4);	/* the room is there */
	return buf;
}

int errno_status(int err)
{
	/* Every node fails with EIO once its device is unregistered. */
	return err == EIO ? IIOCTL_EGONE : IIOCTL_EDEVICE;
}

void *xmalloc(size_t size)
{
	return xrealloc(NULL, size);
}

void *xrealloc(void *ptr, size_t size)
{
	ptr = realloc(ptr, size ? size : 1);
	if (!ptr)
		die(IIOCTL_EDEVICE, "out of memory");
	return ptr;
}

char *xstrdup(const char *s)
{
	size_t len = strlen(s) + 1;

	return memcpy(xmalloc(len), s, len);
}

void copy_string(char *dst, size_t size, const char *src)
{
	size_t len = strlen(src);

	if (!size)
		return;
	if (len >= size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

static unsigned suffix_shift(char c)
{
	switch (c) {
	case 'k': case 'K': return 10;
	case 'm': case 'M': return 20;
	case 'g': case 'G': return 30;
	}
	return 0;
}

const char *parse_u64(const char *s, unsigned flags, uint64_t max,
		      uint64_t *out)
{
	const char *problem, *p;
	unsigned shift;
	uint64_t v;

	/* decimal or 0x hex, no sign, no octal: libudrv's (lib/number.h) */
	problem = udrv_number_parse(s, &v, &p);
	if (problem)
		return problem;
	if (*p && (flags & NUM_SUFFIX) && (shift = suffix_shift(*p)) &&
	    !p[1]) {
		if (v > (UINT64_MAX >> shift))
			return "too large";
		v <<= shift;
	} else if (*p) {
		return (flags & NUM_SUFFIX) ?
			"not a number (suffixes: K, M, G)" : "not a number";
	}
	if (v > max)
		return "too large";
	*out = v;
	return NULL;
}

bool parse_number(const char *s, const char *what, unsigned flags,
		  uint64_t max, uint64_t *v, char *why)
{
	const char *problem = parse_u64(s, flags, max, v);

	if (!problem)
		return true;
	if (!strcmp(problem, "too large"))
		snprintf(why, WHY_MAX, "invalid %s '%s': too large (at most 0x%llx)",
			 what, msg_word(s), (unsigned long long)max);
	else
		snprintf(why, WHY_MAX, "invalid %s '%s': %s", what, msg_word(s),
			 problem);
	return false;
}

uint64_t parse_u64_or_die(const char *s, const char *what, unsigned flags,
			  uint64_t max)
{
	char why[WHY_MAX];
	uint64_t v;

	if (!parse_number(s, what, flags, max, &v, why))
		die(IIOCTL_EUSAGE, "%s", why);
	return v;
}

bool parse_value_mask(const char *value_arg, const char *mask_arg,
		      uint64_t all, uint64_t *value, uint64_t *mask, char *why)
{
	const char *colon = strchr(value_arg, ':');
	char *buf = NULL;
	bool ok = false;

	if (colon) {
		/* setpci's VALUE:MASK, the same as VALUE -m MASK */
		if (mask_arg) {
			snprintf(why, WHY_MAX, "VALUE:MASK '%s' conflicts with -m",
				 value_arg);
			return false;
		}
		/* VALUE whole, however long (leading zeros are fine) */
		buf = xstrdup(value_arg);
		buf[colon - value_arg] = '\0';
		mask_arg = colon + 1;
		value_arg = buf;
	}
	if (!parse_number(value_arg, "value", 0, all, value, why))
		goto out;
	*mask = all;
	if (mask_arg && !parse_number(mask_arg, "mask", 0, all, mask, why))
		goto out;
	if (*value & ~*mask) {
		snprintf(why, WHY_MAX, "value 0x%llx has bits outside mask 0x%llx",
			 (unsigned long long)*value, (unsigned long long)*mask);
		goto out;
	}
	ok = true;
out:
	free(buf);
	return ok;
}

void parse_value_mask_or_die(const char *value_arg, const char *mask_arg,
			     uint64_t all, uint64_t *value, uint64_t *mask)
{
	char why[WHY_MAX];

	if (!parse_value_mask(value_arg, mask_arg, all, value, mask, why))
		die(IIOCTL_EUSAGE, "%s", why);
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

void print_clock(FILE *f, clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	fprintf(f, "%lld.%09ld", (long long)ts.tv_sec, ts.tv_nsec);
}

void sleep_ns(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000),
		.tv_nsec = (long)(ns % 1000000000),
	};

	while (nanosleep(&ts, &ts) && errno == EINTR && !iioctl_interrupted)
		;
}

volatile sig_atomic_t iioctl_interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	iioctl_interrupted = 1;
}

void catch_sigint(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	iioctl_interrupted = 0;
	sigaction(SIGINT, &sa, NULL);
}

uint64_t parse_duration_or_die(const char *s, const char *what)
{
	const char *why;
	uint64_t ns;

	why = parse_duration(s, &ns);
	if (why)
		die(IIOCTL_EUSAGE, "invalid %s '%s': %s", what, msg_word(s), why);
	return ns;
}

void check_format_or_die(const char *fmt, const char *convs)
{
	char use[64] = "";
	const char *p;
	size_t i, n = strlen(convs);

	for (p = strchr(fmt, '%'); p; p = strchr(p + 2, '%'))
		if (!p[1] || !strchr(convs, p[1]))
			break;
	if (!p)
		return;
	for (i = 0; i < n; i++)
		snprintf(use + strlen(use), sizeof(use) - strlen(use), "%s%%%c",
			 !i ? "" : i == n - 1 ? " or " : ", ", convs[i]);
	die(IIOCTL_EUSAGE, "unknown conversion '%%%.1s' in format (use %s)",
	    p + 1, use);
}

uint64_t width_bits(unsigned width)
{
	return width >= 8 ? UINT64_MAX : (1ULL << 8 * width) - 1;
}

bool parse_width(const char *s, unsigned *width, char *why)
{
	uint64_t w;

	if (parse_u64(s, 0, 64, &w) || (w != 1 && w != 2 && w != 4 && w != 8)) {
		/* -w 32: bits where bytes are meant */
		if (!parse_u64(s, 0, 64, &w) && (w == 16 || w == 32 || w == 64))
			snprintf(why, WHY_MAX, "unsupported width '%s': the width is in bytes, 1, 2, 4 or 8 (%llu bits: -w %llu)",
				 msg_word(s), (unsigned long long)w,
				 (unsigned long long)w / 8);
		else
			snprintf(why, WHY_MAX, "unsupported width '%s': the width is in bytes, 1, 2, 4 or 8",
				 msg_word(s));
		return false;
	}
	*width = (unsigned)w;
	return true;
}

unsigned parse_width_or_die(const char *s)
{
	char why[WHY_MAX];
	unsigned w;

	if (!parse_width(s, &w, why))
		die(IIOCTL_EUSAGE, "%s", why);
	return w;
}

const char *parse_duration(const char *s, uint64_t *ns)
{
	static const struct {
		const char *name;
		uint64_t ns;
	} units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		{ "s", 1000000000 }, { "m", 60000000000 }, { "", 1000000000 },
	};
	uint64_t whole = 0, frac = 0, scale = 1;
	const char *p = s;
	size_t i;

	if ((*p < '0' || *p > '9') && *p != '.')
		return *p == '-' ? "negative" : "not a duration";
	for (; *p >= '0' && *p <= '9'; p++) {
		if (whole > (UINT64_MAX - 9) / 10)
			return "too large";
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return "no digits after the point";
		for (; *p >= '0' && *p <= '9'; p++) {
			if (scale < 1000000000) {	/* finer is ignored */
				frac = frac * 10 + (uint64_t)(*p - '0');
				scale *= 10;
			}
		}
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(p, units[i].name))
			break;
	if (i == sizeof(units) / sizeof(units[0]))
		return "unknown unit (use ns, us, ms, s or m)";
	if (whole > UINT64_MAX / units[i].ns / 2)	/* keep room */
		return "too large";
	*ns = whole * units[i].ns +
	      (uint64_t)((double)frac / (double)scale * (double)units[i].ns);
	return NULL;
}

char *format_duration(uint64_t ns, char *buf, size_t size)
{
	static const struct {
		const char *unit;
		uint64_t ns;
	} units[] = {
		{ "s", 1000000000 }, { "ms", 1000000 }, { "us", 1000 },
		{ "ns", 1 },
	};
	size_t i;

	for (i = 0; ns && ns % units[i].ns; i++)
		;
	snprintf(buf, size, "%llu%s", (unsigned long long)(ns / units[i].ns),
		 units[i].unit);
	return buf;
}

static poptContext current_ctx;
static char current_name[64];
static const char **current_argv;
static const char *current_args;
static bool help_refused;

/*
 * Every command's help options, in place of popt's POPT_AUTOHELP (which
 * the command tables name, and parse_options() replaces): -h as well as
 * -? for --help, and a --usage that lists each option once (popt's lists
 * every flag twice, once in a bundle such as [-d?] and once on its own).
 */
#define HELP_OPTION_VAL 0x7000
#define USAGE_OPTION_VAL 0x7001
static const struct poptOption help_options[] = {
	{ "help", 'h', POPT_ARG_NONE, NULL, HELP_OPTION_VAL,
	  "show this help message", NULL },
	{ NULL, '?', POPT_ARG_NONE | POPT_ARGFLAG_DOC_HIDDEN, NULL,
	  HELP_OPTION_VAL, NULL, NULL },
	{ "usage", 0, POPT_ARG_NONE, NULL, USAGE_OPTION_VAL,
	  "display brief usage message", NULL },
	POPT_TABLEEND
};

void options_refuse_help(bool refuse)
{
	help_refused = refuse;
}

/* Appends one usage word to f, wrapped at 79 columns as popt does. */
static void usage_word(FILE *f, const char *word, size_t *col)
{
	size_t len = strcspn(word, "\n");

	if (*col + 1 + len > 79) {
		fputs("\n       ", f);
		*col = 7;
	}
	fprintf(f, " %.*s", (int)len, word);
	*col += 1 + len;
}

/* The [-s|--long=ARG] words of a table and of the tables it includes. */
static void usage_options(FILE *f, const struct poptOption *o, size_t *col)
{
	char word[128];

	for (; o->longName || o->shortName || o->argInfo; o++) {
		unsigned type = o->argInfo & POPT_ARG_MASK;
		const char *arg = o->argDescrip ? o->argDescrip : "ARG";
		bool takes_arg = type != POPT_ARG_NONE && type != POPT_ARG_VAL;
		int n = 0;

		if (type == POPT_ARG_INCLUDE_TABLE) {
			usage_options(f, o->arg, col);
			continue;
		}
		if (o->argInfo & POPT_ARGFLAG_DOC_HIDDEN)
			continue;
		if (o->shortName && o->longName)
			n = snprintf(word, sizeof(word), "[-%c|--%s%s%s]",
				     o->shortName, o->longName,
				     takes_arg ? "=" : "", takes_arg ? arg : "");
		else if (o->longName)
			n = snprintf(word, sizeof(word), "[--%s%s%s]",
				     o->longName, takes_arg ? "=" : "",
				     takes_arg ? arg : "");
		else
			n = snprintf(word, sizeof(word), "[-%c%s%s]",
				     o->shortName, takes_arg ? " " : "",
				     takes_arg ? arg : "");
		if (n > 0)
			usage_word(f, word, col);
	}
}

/* --usage: "Usage: iioctl CMD" with each option once, then the arguments. */
static void print_usage_line(FILE *f, const struct poptOption *options)
{
	size_t col = strlen("Usage: ") + strlen(current_name);

	fprintf(f, "Usage: %s", current_name);
	usage_options(f, options, &col);
	if (current_args) {
		usage_word(f, current_args, &col);
		fputs(current_args + strcspn(current_args, "\n"), f);
	}
	fputc('\n', f);
}

/*
 * popt strdup()s the value of a POPT_ARG_STRING option into the
 * caller's variable and never frees it, so a repeated option ("-o nr -o
 * name") would leak the first copy.  parse_options() hands popt a copy
 * of the tables in which every such option returns STRING_OPTION_VAL + i
 * instead: the value is then taken with poptGetOptArg(), stored in the
 * caller's variable and owned here (the previous one freed), and
 * everything is freed with the next command's context.
 */
#define MAX_STRING_OPTIONS 32
#define MAX_OPTION_TABLES 8
#define STRING_OPTION_VAL 0x7100
static const char **string_vars[MAX_STRING_OPTIONS];
static char *owned_strings[MAX_STRING_OPTIONS];
static struct poptOption *table_copies[MAX_OPTION_TABLES];
static size_t nstring_options, ntable_copies;

static void free_option_state(void)
{
	while (nstring_options) {
		nstring_options--;
		free(owned_strings[nstring_options]);
		owned_strings[nstring_options] = NULL;
	}
	while (ntable_copies)
		free(table_copies[--ntable_copies]);
}

/* The table with its string options (and its included tables') rerouted. */
static const struct poptOption *reroute_strings(const struct poptOption *o)
{
	struct poptOption *copy;
	size_t n, i;

	for (n = 0; o[n].longName || o[n].shortName || o[n].argInfo; n++)
		;
	if (ntable_copies == MAX_OPTION_TABLES)
		die(IIOCTL_EDEVICE, "too many option tables");
	copy = calloc(n + 1, sizeof(*copy));
	if (!copy)
		die(IIOCTL_EDEVICE, "out of memory");
	memcpy(copy, o, (n + 1) * sizeof(*copy));
	table_copies[ntable_copies++] = copy;
	for (i = 0; i < n; i++) {
		unsigned type = copy[i].argInfo & POPT_ARG_MASK;

		if (type == POPT_ARG_INCLUDE_TABLE &&
		    copy[i].arg == poptHelpOptions) {
			copy[i].arg = (void *)help_options;
		} else if (type == POPT_ARG_INCLUDE_TABLE && copy[i].arg) {
			copy[i].arg = (void *)reroute_strings(copy[i].arg);
		} else if (type == POPT_ARG_STRING && copy[i].arg &&
			   !copy[i].val) {
			if (nstring_options == MAX_STRING_OPTIONS)
				die(IIOCTL_EDEVICE, "too many string options");
			string_vars[nstring_options] = copy[i].arg;
			copy[i].arg = NULL;
			copy[i].val = STRING_OPTION_VAL + (int)nstring_options++;
		}
	}
	return copy;
}

poptContext parse_options(int argc, const char **argv,
			  const struct poptOption *options, const char *args)
{
	int rc;
	size_t i;

	if (current_ctx)
		poptFreeContext(current_ctx);
	free_option_state();
	options = reroute_strings(options);
	/*
	 * popt keeps the name and argv, and names the program after argv[0]
	 * in its help: "iioctl COMMAND", in static storage, one at a time.
	 */
	snprintf(current_name, sizeof(current_name), "iioctl %s", argv[0]);
	free(current_argv);
	current_argv = xmalloc(((size_t)argc + 1) * sizeof(*current_argv));
	memcpy(current_argv, argv, (size_t)argc * sizeof(*current_argv));
	current_argv[0] = current_name;
	current_argv[argc] = NULL;
	current_ctx = poptGetContext(current_name, argc, current_argv,
				     options, 0);
	current_args = args;
	if (args)
		poptSetOtherOptionHelp(current_ctx, args);
	while ((rc = poptGetNextOpt(current_ctx)) > 0) {
		if (rc == HELP_OPTION_VAL || rc == USAGE_OPTION_VAL) {
			if (help_refused)
				die(IIOCTL_EUSAGE, "%s has no place in a batch",
				    poptBadOption(current_ctx,
						  POPT_BADOPTION_NOALIAS));
			if (rc == HELP_OPTION_VAL)
				poptPrintHelp(current_ctx, stdout, 0);
			else
				print_usage_line(stdout, options);
			flush_stdout();
			exit(IIOCTL_OK);
		}
		i = (size_t)(rc - STRING_OPTION_VAL);
		if (rc < STRING_OPTION_VAL || i >= nstring_options)
			continue;
		free(owned_strings[i]);
		owned_strings[i] = poptGetOptArg(current_ctx);
		*string_vars[i] = owned_strings[i];
	}
	if (rc < -1) {
		const char *bad = poptBadOption(current_ctx,
						POPT_BADOPTION_NOALIAS);

		/* peek iio0 -1: a number with a sign, not an option */
		if (bad[0] == '-' && bad[1] >= '0' && bad[1] <= '9')
			die(IIOCTL_EUSAGE, "%s: invalid number '%s': negative (numbers have no sign; -- ends the options)",
			    current_name + 7, msg_word(bad));
		die(IIOCTL_EUSAGE, "%s: %s: %s", current_name + 7, msg_word(bad),
		    poptStrerror(rc));
	}
	return current_ctx;
}

const char *need_arg(poptContext ctx, const char *what)
{
	const char *arg = poptGetArg(ctx);

	if (!arg)
		die(IIOCTL_EUSAGE, "%s: missing %s (see %s --help)",
		    current_name + 7, what, current_name);
	return arg;
}

void no_more_args(poptContext ctx)
{
	const char *arg = poptGetArg(ctx);

	if (arg)
		die(IIOCTL_EUSAGE, "%s: unexpected argument '%s' (see %s --help)",
		    current_name + 7, msg_word(arg), current_name);
}

size_t utf8_sequence(const unsigned char *p)
{
	unsigned c = p[0], cp, n, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)	/* the NUL too */
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

/*
 * How the byte sequence at p shows: 0 as it is (*len bytes of it), or 1
 * escaped (*len bytes, each as \xNN or, in JSON, a C0, DEL or C1 code
 * point as \u00NN: *cp set).
 */
static int classify(const unsigned char *p, size_t *len, unsigned *cp)
{
	size_t n = utf8_sequence(p);

	*len = n ? n : 1;
	*cp = n == 2 ? (unsigned)(p[0] & 0x1f) << 6 | (p[1] & 0x3f) : p[0];
	if (!n)
		return 1;
	if (n == 1)
		return p[0] < 0x20 || p[0] == 0x7f ||
		       (p[0] == '\\' && p[1] == 'x');
	return n == 2 && *cp < 0xa0;	/* C1 controls */
}

size_t text_escape(const char *s, char *buf, size_t size)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len, out = 0, i;
	unsigned cp;

	if (!size)
		return 0;
	for (; *p; p += len) {
		int esc = classify(p, &len, &cp);
		size_t need = esc ? 4 * len : len;

		if (out + need >= size)
			break;
		for (i = 0; i < len; i++) {
			if (esc)
				snprintf(buf + out + 4 * i, 5, "\\x%02x", p[i]);
			else
				buf[out + i] = (char)p[i];
		}
		out += need;
	}
	buf[out] = '\0';
	return (size_t)(p - (const unsigned char *)s);
}

void text_escape_print(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len, i;
	unsigned cp;

	for (; *p; p += len) {
		int esc = classify(p, &len, &cp);

		for (i = 0; i < len; i++) {
			if (esc)
				fprintf(f, "\\x%02x", p[i]);
			else
				fputc(p[i], f);
		}
	}
}

void json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len, i;
	unsigned cp;

	fputc('"', f);
	for (; *p; p += len) {
		if (!classify(p, &len, &cp)) {
			if (*p == '"' || *p == '\\')
				fputc('\\', f);
			fwrite(p, 1, len, f);
		} else if (len == 1 && *p == '\\') {
			fputs("\\\\x5c", f);		/* \x5c: a '\' before 'x' */
		} else if (utf8_sequence(p)) {
			fprintf(f, "\\u%04x", cp);	/* C0, DEL, C1 */
		} else {
			for (i = 0; i < len; i++)
				fprintf(f, "\\\\x%02x", p[i]);
		}
	}
	fputc('"', f);
}

void json_hex(FILE *f, uint64_t v)
{
	fprintf(f, "\"0x%llx\"", (unsigned long long)v);
}

void flush_stdout(void)
{
	if (fflush(stdout) || ferror(stdout))
		die_perror(IIOCTL_EDEVICE, "writing standard output");
}

unsigned char *load_input(const char *path, uint64_t max, size_t *len)
{
	size_t cap = 4096, n = 0;
	unsigned char *buf;
	ssize_t got;
	int fd = 0;

	if (strcmp(path, "-")) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			die_perror(IIOCTL_EUSAGE, "cannot open %s", path);
	}
	buf = xmalloc(cap);
	while (n <= max) {
		if (n == cap)
			buf = xrealloc(buf, cap *= 2);
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			die_perror(IIOCTL_EUSAGE, "cannot read %s", path);
		if (!got)
			break;
		n += (size_t)got;
	}
	if (fd)
		close(fd);
	*len = n;
	return buf;
}
