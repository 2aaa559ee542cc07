// SPDX-License-Identifier: GPL-2.0-only
/*
 * common.c - error reporting, number parsing and popt glue shared by the
 * iioctl commands
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "common.h"

bool iioctl_dry_run;
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

static int digit_value(char c, unsigned base)
{
	int v;

	if (c >= '0' && c <= '9')
		v = c - '0';
	else if (c >= 'a' && c <= 'f')
		v = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		v = c - 'A' + 10;
	else
		return -1;
	return (unsigned)v < base ? v : -1;
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
	unsigned base = 10, shift = 0;
	const char *p = s;
	uint64_t v = 0;
	int d;

	if (!*s)
		return "empty";
	if (*s == '-')
		return "negative";
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		p += 2;
		if (!*p)
			return "no digits after 0x";
	} else if (s[0] == '0' && s[1] >= '0' && s[1] <= '9') {
		return "leading zero (octal is not accepted; write it in decimal or 0x hex)";
	}
	for (; *p; p++) {
		d = digit_value(*p, base);
		if (d < 0)
			break;
		if (v > (UINT64_MAX - (unsigned)d) / base)
			return "too large";
		v = v * base + (unsigned)d;
	}
	if (p == s || (base == 16 && p == s + 2))
		return "not a number";
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

uint64_t parse_u64_or_die(const char *s, const char *what, unsigned flags,
			  uint64_t max)
{
	const char *why;
	uint64_t v;

	why = parse_u64(s, flags, max, &v);
	if (why) {
		if (!strcmp(why, "too large"))
			die(IIOCTL_EUSAGE, "invalid %s '%s': too large (at most 0x%llx)",
			    what, s, (unsigned long long)max);
		die(IIOCTL_EUSAGE, "invalid %s '%s': %s", what, s, why);
	}
	return v;
}

unsigned parse_width_or_die(const char *s)
{
	uint64_t w;

	if (parse_u64(s, 0, 8, &w) || (w != 1 && w != 2 && w != 4 && w != 8))
		die(IIOCTL_EUSAGE, "unsupported width '%s' (use 1, 2, 4 or 8)",
		    s);
	return (unsigned)w;
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

	if (*p < '0' || *p > '9')
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

static poptContext current_ctx;
static char current_name[64];
static const char **current_argv;

/*
 * popt strdup()s the value of every POPT_ARG_STRING option into the
 * caller's variable: they are kept here (reachable) and freed with the
 * next command's context.
 */
#define MAX_STRING_OPTIONS 32
static struct {
	const char **var;
	const char *before;
} string_options[MAX_STRING_OPTIONS];
static char *owned_strings[MAX_STRING_OPTIONS];
static size_t nstring_options, nowned;

static void note_string_options(const struct poptOption *o)
{
	for (; o->longName || o->shortName || o->argInfo; o++) {
		if ((o->argInfo & POPT_ARG_MASK) == POPT_ARG_INCLUDE_TABLE &&
		    o->arg)
			note_string_options(o->arg);
		else if ((o->argInfo & POPT_ARG_MASK) == POPT_ARG_STRING &&
			 o->arg && nstring_options < MAX_STRING_OPTIONS) {
			string_options[nstring_options].var = o->arg;
			string_options[nstring_options++].before =
				*(const char **)o->arg;
		}
	}
}

static void own_string_options(void)
{
	size_t i;

	for (i = 0; i < nstring_options; i++)
		if (*string_options[i].var != string_options[i].before)
			owned_strings[nowned++] = (char *)*string_options[i].var;
	nstring_options = 0;
}

static void free_owned_strings(void)
{
	while (nowned)
		free(owned_strings[--nowned]);
}

poptContext parse_options(int argc, const char **argv,
			  const struct poptOption *options, const char *args)
{
	int rc;

	if (current_ctx)
		poptFreeContext(current_ctx);
	free_owned_strings();
	note_string_options(options);
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
	if (args)
		poptSetOtherOptionHelp(current_ctx, args);
	while ((rc = poptGetNextOpt(current_ctx)) > 0)
		;
	own_string_options();
	if (rc < -1)
		die(IIOCTL_EUSAGE, "%s: %s: %s", current_name + 7,
		    poptBadOption(current_ctx, POPT_BADOPTION_NOALIAS),
		    poptStrerror(rc));
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
		    current_name + 7, arg, current_name);
}

void json_string(FILE *f, const char *s)
{
	const unsigned char *p;

	fputc('"', f);
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
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
