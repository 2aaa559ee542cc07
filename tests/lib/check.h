/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * check.h - the guest tests' little framework
 *
 * A test program is a list of cases.  check_main() runs each case in a
 * child process of its own process group (so a SIGBUS or a hang fails one
 * case, not the program) and prints one line per case: "PASS prog/case"
 * or "FAIL prog/case: why".  A case fails at its first failed EXPECT (in
 * the case or in any process it forked), which prints the expression, the
 * values and errno; it also fails when it is killed by a signal, exits
 * non-zero, or exits without returning from its function.  A watchdog
 * kills the case's whole process group at its timeout ("timeout after N
 * s", with what the case last said it was doing: check_doing()), and
 * the group is killed when the case ends anyway, so nothing a case forks
 * outlives it.  The result travels in shared memory, never
 * through a descriptor that the case's children could hold open.
 *
 * A case that cannot run where it is (the kernel lacks what it tests)
 * calls check_skip(why) instead of returning: "SKIP prog/case: why",
 * which the runner counts apart, never as a pass.
 *
 * "prog --list" prints the case names, one a line (the runner compares
 * them with what ran); "prog CASE" runs one case.  Exit status: 0 all
 * passed or skipped, 1 a case failed, 2 a usage or setup error.  SIGTERM
 * (the runner's per-program time limit) kills the running case's process
 * group before the program dies of it.
 */
#ifndef CHECK_H
#define CHECK_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct check_case {
	const char *name;
	void (*fn)(void);
	unsigned int timeout_s;	/* 0: the default, 20 s */
};

#define CASE(fn) { #fn, fn, 0 }
#define CASE_T(fn, t) { #fn, fn, t }

int check_main(int argc, char **argv, const struct check_case *cases,
	       size_t n);
#define CHECK_MAIN(cases) \
	int main(int argc, char **argv) \
	{ return check_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0])); }

__attribute__((noreturn, format(printf, 3, 4)))
void check_fail(const char *file, int line, const char *fmt, ...);
__attribute__((format(printf, 1, 2)))
void check_note(const char *fmt, ...);
/*
 * What the case is doing now (printf-like; replaces what it said before):
 * a case killed at its timeout says it, "timeout after N s, while WHAT".
 * Shared memory, no system call: cheap enough for every step of a loop.
 */
__attribute__((format(printf, 1, 2)))
void check_doing(const char *fmt, ...);
/* Ends the case as skipped: "SKIP prog/case: why" (in the case's process). */
__attribute__((noreturn, format(printf, 1, 2)))
void check_skip(const char *fmt, ...);

#define FAIL(...) check_fail(__FILE__, __LINE__, __VA_ARGS__)

#define EXPECT(cond) do { \
	if (!(cond)) \
		FAIL("%s (errno %d: %s)", #cond, errno, strerror(errno)); \
} while (0)

#define EXPECT_EQ(a, b) do { \
	long long a_ = (long long)(a), b_ = (long long)(b); \
	if (a_ != b_) \
		FAIL("%s == %s: %lld != %lld (0x%llx != 0x%llx; errno %d: %s)", \
		     #a, #b, a_, b_, a_, b_, errno, strerror(errno)); \
} while (0)

#define EXPECT_STREQ(a, b) do { \
	const char *a_ = (a), *b_ = (b); \
	if (strcmp(a_, b_)) \
		FAIL("%s == %s: \"%s\" != \"%s\"", #a, #b, a_, b_); \
} while (0)

/* expr must fail with -1 (or MAP_FAILED) and errno e. */
#define EXPECT_ERRNO(expr, e) do { \
	errno = 0; \
	long long r_ = (long long)(intptr_t)(expr); \
	int err_ = errno; \
	if (r_ != -1 || err_ != (e)) \
		FAIL("%s: returned %lld, errno %d (%s); want -1, %s", #expr, \
		     r_, err_, strerror(err_), #e); \
} while (0)

/* expr must succeed (not -1); its value is returned. */
#define MUST(expr) ({ \
	errno = 0; \
	long long r_ = (long long)(expr); \
	if (r_ == -1) \
		FAIL("%s failed: errno %d (%s)", #expr, errno, strerror(errno)); \
	r_; \
})

/* sysfs and shell helpers */
char *read_text(const char *path);		/* trailing newline cut; static */
unsigned long long read_num(const char *path);	/* strtoull base 0 */
/* output files: the rest of the first line starting with @prefix (a FAIL
 * if none), the last line or @if_empty; static buffers */
const char *line_of(const char *file, const char *prefix);
const char *last_line(const char *file, const char *if_empty);
int lines_in(const char *file);	/* -1 if it cannot be read */
int write_text(const char *path, const char *text);	/* 0 or errno */
int shell(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msleep(unsigned int ms);
int path_exists(const char *path);
/* an address that is not mapped, for EFAULT cases */
void *bad_pointer(void);

#endif
