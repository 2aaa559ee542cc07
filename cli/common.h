/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * common.h - what every iioctl command shares: the command table entry,
 * exit statuses, error reporting and strict number parsing
 */
#ifndef IIOCTL_COMMON_H
#define IIOCTL_COMMON_H

#include <popt.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdnoreturn.h>
#include <time.h>

/* Exit statuses; documented in main.c and in `iioctl --help`. */
enum iioctl_status {
	IIOCTL_OK = 0,
	IIOCTL_EDEVICE = 1,	/* open/read/write failed, --verify mismatch */
	IIOCTL_EUSAGE = 2,	/* bad command line, number, device, range */
	IIOCTL_ETIMEOUT = 3,	/* wait-events: timeout */
	IIOCTL_EGONE = 4,	/* the device went away (EIO, POLLHUP) */
	IIOCTL_ENOEVENTS = 5,	/* no event source / stub has no event_write */
	IIOCTL_EINTERRUPTED = 130, /* wait-events, watch, wait-value: SIGINT */
};

/* One subcommand; each cli/<command>.c exports only its entry. */
struct iioctl_cmd {
	const char *name;
	int (*run)(int argc, const char **argv);	/* argv[0]: name */
	const char *help;
};

extern const struct iioctl_cmd iioctl_cmd_list, iioctl_cmd_info,
	iioctl_cmd_dump, iioctl_cmd_peek, iioctl_cmd_poke,
	iioctl_cmd_wait_events, iioctl_cmd_trigger, iioctl_cmd_batch,
	iioctl_cmd_dma, iioctl_cmd_wait_value, iioctl_cmd_watch,
	iioctl_cmd_regs, iioctl_cmd_config, iioctl_cmd_bind, iioctl_cmd_unbind;

/* main.c: run one command line (argv[0] is the command name). */
int iioctl_run_command(int argc, const char **argv);

/*
 * Set by batch while it checks every line before running any: commands
 * parse and validate everything, then return before touching a node.
 */
extern bool iioctl_dry_run;
/*
 * The global --dry-run: like iioctl_dry_run, and the commands print on
 * standard error the accesses they would make (region_plan_*()).
 */
extern bool iioctl_dry_run_asked;
/* The global -v: every device access printed on standard error. */
extern bool iioctl_verbose;
/* Set by batch: the number of the line being run, 0 outside batch. */
extern unsigned long iioctl_batch_line;
/* Set by batch while the batch itself is read from standard input. */
extern bool iioctl_batch_stdin;
/*
 * "-" as a file to read: refused (status 2) where the batch itself is
 * standard input, which it has already read to the end.
 */
void check_stdin_free(const char *path);

/* "iioctl: [batch line N: ]MESSAGE" on stderr, then exit(status). */
noreturn void die(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The same, with ": strerror(errno)" appended. */
noreturn void die_perror(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * Opening the node path failed (errno): "cannot open PATH[HOW]: why"
 * (status 1), or, for a user other than root refused access, one line
 * saying the nodes are root-only (status 1 too).
 */
noreturn void die_open(const char *path, const char *how);
/*
 * A word of the command line (or of a file) as a message quotes it:
 * escaped (text_escape()) and cut to ARG_SHOWN_MAX bytes with "..." after
 * it, so that a 100 kB word makes a one-line error.  The text lives in
 * one of a few static buffers: good until a few more calls.
 */
#define ARG_SHOWN_MAX 64
const char *msg_word(const char *word);
/* The status a failed device access with this errno maps to. */
int errno_status(int err);

void *xmalloc(size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
/* strlcpy: src, cut to fit size bytes with its NUL. */
void copy_string(char *dst, size_t size, const char *src);

/*
 * Numbers: decimal or 0x hex; with NUM_SUFFIX also a K, M or G suffix
 * (either case, powers of 1024).  "0" is fine, but a leading 0 followed by
 * digits is refused as ambiguous (octal or decimal?); no sign, no blanks.
 * Returns NULL and sets *out, or an error description.
 */
#define NUM_SUFFIX	0x1
const char *parse_u64(const char *s, unsigned flags, uint64_t max,
		      uint64_t *out);
/*
 * The checked parsers: true, or false with why (WHY_MAX bytes) set to the
 * message their _or_die twins die with (status 2).  batch compiles lines
 * with them and leaves a line that fails one to the command.
 */
#define WHY_MAX 1024
/* "invalid WHAT 'S': ..." */
bool parse_number(const char *s, const char *what, unsigned flags,
		  uint64_t max, uint64_t *v, char *why);
uint64_t parse_u64_or_die(const char *s, const char *what, unsigned flags,
			  uint64_t max);
/*
 * VALUE, or setpci's VALUE:MASK, and -m MASK (or NULL): both fit all (the
 * width's bits), the value has no bit outside the mask (all without a
 * mask).
 */
bool parse_value_mask(const char *value_arg, const char *mask_arg,
		      uint64_t all, uint64_t *value, uint64_t *mask, char *why);
void parse_value_mask_or_die(const char *value_arg, const char *mask_arg,
			     uint64_t all, uint64_t *value, uint64_t *mask);
/* All the bits of a value of width bytes (1 to 8). */
uint64_t width_bits(unsigned width);
/* An access width: 1, 2, 4 or 8. */
bool parse_width(const char *s, unsigned *width, char *why);
unsigned parse_width_or_die(const char *s);
/*
 * A --format string whose every %X has X in @convs (which ends in '%');
 * dies with "unknown conversion '%X' in format (use %a, %b or %%)".
 */
void check_format_or_die(const char *fmt, const char *convs);
/*
 * A duration: seconds with an optional fraction ("0.5") or a number with
 * a unit ns, us, ms, s, m ("250ms", "1.5s").  Returns NULL or an error.
 */
const char *parse_duration(const char *s, uint64_t *ns);
/* Dies with "invalid WHAT 'S': why" (status 2). */
uint64_t parse_duration_or_die(const char *s, const char *what);
/* CLOCK_MONOTONIC in ns; print a clock as seconds.nanoseconds; sleep. */
uint64_t now_ns(void);
void print_clock(FILE *f, clockid_t clock);
void sleep_ns(uint64_t ns);
/*
 * watch and wait-value: SIGINT sets iioctl_interrupted (and cuts a
 * sleep_ns() short) instead of killing the process, which then ends with
 * status 130 and its summary line.
 */
extern volatile sig_atomic_t iioctl_interrupted;
void catch_sigint(void);
/* ns as parse_duration() reads it, in the largest exact unit ("1s", "250ms") */
char *format_duration(uint64_t ns, char *buf, size_t size);

/*
 * popt for one command: parses argv with options, dies with status 2 on
 * a bad option, and returns the context (owned here, freed by the next
 * call) so the caller can take the arguments with poptGetArg().
 */
poptContext parse_options(int argc, const char **argv,
			  const struct poptOption *options, const char *args);
/*
 * Makes -h, -?, --help and --usage a usage error ("has no place in a
 * batch") instead of printing and exiting: batch lines.
 */
void options_refuse_help(bool refuse);
/* The next argument, or die "NAME: missing WHAT". */
const char *need_arg(poptContext ctx, const char *what);
/* Die if arguments are left. */
void no_more_args(poptContext ctx);

/*
 * The bytes of path ("-": stdin), at most max + 1 of them: *len > max
 * tells the file holds more than max.  Dies (status 2) if it cannot be read.
 */
unsigned char *load_input(const char *path, uint64_t max, size_t *len);

/*
 * Names as they come from sysfs or files may hold any byte.  For a
 * terminal and a table, as lsblk shows them: a control character (C0,
 * DEL, C1), a byte that is not part of valid UTF-8, and a '\\' before an
 * 'x' as the text \xNN of each byte (so the text says which bytes there
 * were); valid UTF-8 as it is.  text_escape() writes at most size bytes
 * with the NUL (cut before a character or escape that does not fit) and
 * returns how many bytes of s it took; text_escape_print() writes it all.
 */
size_t text_escape(const char *s, char *buf, size_t size);
void text_escape_print(FILE *f, const char *s);
/*
 * The length of the valid UTF-8 sequence at p (1 to 4: no overlong form,
 * surrogate or code point above U+10FFFF), or 0.
 */
size_t utf8_sequence(const unsigned char *p);

/*
 * JSON string literal (with quotes) of s on f, always valid JSON: '"' and
 * '\\' escaped, control characters as \u00NN, a byte that is not part of
 * valid UTF-8 (and a '\\' before an 'x') as the text \xNN (text_escape()'s).
 */
void json_string(FILE *f, const char *s);
/*
 * JSON's rule for numbers (iioctl(1), JSON): an address, offset, length,
 * size or register value is a string "0x..." (lower-case hex, no leading
 * zeros), exact where a JSON number above 2^53 is not; counts are numbers.
 */
void json_hex(FILE *f, uint64_t v);

/* Flush stdout; die with status 1 if writing it failed. */
void flush_stdout(void);

#endif
