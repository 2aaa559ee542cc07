// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_harness.c - the harness itself: check_main() on cases that
 * misbehave on purpose (tests/helpers/harness_cases.c: a case that fails
 * while a child it forked sleeps forever, one that exits without
 * reporting, one that hangs, ...), and the guest runner
 * (tests/guest/run-tests) on programs that lose a case, crash outside
 * their cases, declare none, hang past the time limit or are missing, and
 * on a golden runner or folder that is missing.  Their expected FAIL lines
 * are compared here, exactly; they are not the suite's failures.  (The
 * host side, tests/run, has its self-test in tests/host/runner.)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/check.h"

#define HELPER "/tests/helpers/harness_cases"
#define RUN_TESTS "/tests/run-tests"
#define SRC "tests/helpers/harness_cases.c"

/* every line harness_cases prints but its notes, in order */
static const char *const helper_lines[] = {
	"FAIL harness_cases/child_sleeps_then_fails: " SRC ":*: failed on purpose",
	"PASS harness_cases/child_sleeps_then_passes",
	"FAIL harness_cases/child_fails: " SRC ":*: child failed on purpose",
	"FAIL harness_cases/exits_without_reporting: exited (status 0) without reporting a result",
	"FAIL harness_cases/exits_non_zero: exit status 7",
	"FAIL harness_cases/killed_by_signal: killed by signal 11 (Segmentation fault)",
	"FAIL harness_cases/hangs: timeout after 1 s",
	"FAIL harness_cases/hangs_ignoring_signals: timeout after 1 s, while step 7 of ignoring signals",
	"PASS harness_cases/passes",
	"SKIP harness_cases/skips: skipped on purpose",
	"FAIL harness_cases/skips_after_failing: " SRC ":*: failed before the skip",
	"PASS harness_cases/waits_for_term",
};
#define N_HELPER (sizeof(helper_lines) / sizeof(helper_lines[0]))

struct output {
	char lines[64][512];
	size_t n;
	int status;		/* exit status, or 128 + signal */
	pid_t sleepers[8];	/* from "# sleeper PID" notes */
	size_t n_sleepers;
};

/*
 * Runs the shell command cmd and keeps its stdout lines but notes ("# ").
 * It returns at the end-of-file of its stdout: every process that holds
 * it (the sleepers the cases fork) must be gone by then.
 */
static void run(const char *cmd, struct output *o)
{
	char line[512];
	FILE *f;
	int st;

	memset(o, 0, sizeof(*o));
	fflush(stdout);
	f = popen(cmd, "r");
	EXPECT(f != NULL);
	while (fgets(line, sizeof(line), f)) {
		int pid;

		line[strcspn(line, "\n")] = 0;
		if (sscanf(line, "# sleeper %d", &pid) == 1 &&
		    o->n_sleepers < sizeof(o->sleepers) / sizeof(o->sleepers[0]))
			o->sleepers[o->n_sleepers++] = pid;
		if (!strncmp(line, "# ", 2))
			continue;
		if (o->n == sizeof(o->lines) / sizeof(o->lines[0]))
			FAIL("%s: more than %zu lines", cmd, o->n);
		snprintf(o->lines[o->n++], sizeof(o->lines[0]), "%s", line);
	}
	st = pclose(f);
	EXPECT(st != -1);
	o->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* o's lines must match the fnmatch(3) patterns want, one for one */
static void expect_lines(const struct output *o, const char *const *want,
			 size_t n)
{
	size_t i;

	for (i = 0; i < n && i < o->n; i++)
		if (fnmatch(want[i], o->lines[i], 0))
			FAIL("line %zu: \"%s\", expected \"%s\"", i + 1,
			     o->lines[i], want[i]);
	if (o->n != n)
		FAIL("%zu lines, expected %zu (line %zu: \"%s\")", o->n, n,
		     i + 1, i < o->n ? o->lines[i] : want[i]);
}

/*
 * Process pid was killed: it has exited (pidfd_open(2) fails with ESRCH
 * once it is reaped; its pidfd polls readable once it is a zombie).  A
 * SIGKILLed process still runs its exit path for a moment after kill(2)
 * returns, so its exit is waited for, up to 10 s; a sleeper nobody killed
 * sleeps 1000 s and fails here.
 */
static void expect_gone(pid_t pid)
{
	struct pollfd p = { .events = POLLIN };
	int n;

	p.fd = syscall(SYS_pidfd_open, pid, 0);
	if (p.fd < 0 && errno == ESRCH)
		return;
	EXPECT(p.fd >= 0);
	n = poll(&p, 1, 10000);
	close(p.fd);
	if (n != 1)
		FAIL("sleeper %d outlived its case (alive 10 s later)",
		     (int)pid);
}

/*
 * Every misbehaving case is one exact line naming it; the cases after a
 * hang or a failure with a live child still run; nothing forked by a case
 * outlives the program; status 1 (a case failed).
 */
static void misbehaving_cases_each_report_one_line(void)
{
	struct output o;
	size_t i;

	run(HELPER " 2>/dev/null", &o);
	expect_lines(&o, helper_lines, N_HELPER);
	EXPECT_EQ(o.status, 1);
	EXPECT_EQ(o.n_sleepers, 3);
	for (i = 0; i < o.n_sleepers; i++)
		expect_gone(o.sleepers[i]);
}

static void list_prints_the_case_table(void)
{
	static const char *const want[] = {
		"child_sleeps_then_fails", "child_sleeps_then_passes",
		"child_fails", "exits_without_reporting", "exits_non_zero",
		"killed_by_signal", "hangs", "hangs_ignoring_signals", "passes",
		"skips", "skips_after_failing", "waits_for_term",
	};
	struct output o;

	run(HELPER " --list", &o);
	expect_lines(&o, want, sizeof(want) / sizeof(want[0]));
	EXPECT_EQ(o.status, 0);
}

static void one_case_by_name(void)
{
	static const char *const pass[] = { "PASS harness_cases/passes" };
	static const char *const hang[] = {
		"FAIL harness_cases/hangs: timeout after 1 s",
	};
	static const char *const unknown[] = {
		"harness_cases: no case nonesuch (see --list)",
	};
	struct output o;

	run(HELPER " passes", &o);
	expect_lines(&o, pass, 1);
	EXPECT_EQ(o.status, 0);
	run(HELPER " hangs", &o);
	expect_lines(&o, hang, 1);
	EXPECT_EQ(o.status, 1);
	run(HELPER " nonesuch 2>&1", &o);
	expect_lines(&o, unknown, 1);
	EXPECT_EQ(o.status, 2);
}

/* a fake test program: its --list prints list, a run runs body */
static void write_program(const char *dir, const char *name,
			  const char *list, const char *body)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	EXPECT(f != NULL);
	fprintf(f, "#!/bin/sh\nif [ \"$1\" = --list ]; then\nprintf '%s'\nexit 0\nfi\n%s\n",
		list, body);
	EXPECT(fclose(f) == 0);
	MUST(chmod(path, 0755));
}

/*
 * The runner fails a declared case that did not report, a case reported
 * twice or not declared, a missing program and a program that exited
 * non-zero outside its cases, and goes on with the next program.
 */
static void runner_fails_what_did_not_report(void)
{
	static const char *const want[] = {
		"FAIL harness_cases/child_sleeps_then_fails: " SRC ":*: failed on purpose",
		"PASS harness_cases/child_sleeps_then_passes",
		"FAIL harness_cases/child_fails: " SRC ":*: child failed on purpose",
		"FAIL harness_cases/exits_without_reporting: exited (status 0) without reporting a result",
		"FAIL harness_cases/exits_non_zero: exit status 7",
		"FAIL harness_cases/killed_by_signal: killed by signal 11 (Segmentation fault)",
		"FAIL harness_cases/hangs: timeout after 1 s",
		"FAIL harness_cases/hangs_ignoring_signals: timeout after 1 s, while step 7 of ignoring signals",
		"PASS harness_cases/passes",
		"SKIP harness_cases/skips: skipped on purpose",
		"FAIL harness_cases/skips_after_failing: " SRC ":*: failed before the skip",
		"PASS harness_cases/waits_for_term",
		"PASS loses_a_case/a",
		"FAIL loses_a_case/b: declared but did not report",
		"FAIL absent: program missing from /tmp/harness-bin",
		"PASS crashes/a",
		"FAIL crashes: exit status 139 outside its cases",
		"PASS fails_without_a_case/a",
		"FAIL fails_without_a_case: exit status 1 outside its cases",
		"PASS extra/a",
		"PASS extra/a",
		"FAIL extra/b: not run",
		"PASS extra/c",
		"FAIL extra/a: reported 2 times",
		"FAIL extra/c: reported but not declared",
		"PASS fine/a",
		"PASS fine/b",
	};
	const char *dir = "/tmp/harness-bin";
	struct output o;

	shell("rm -rf %s; mkdir -p %s; ln -s " HELPER " %s/harness_cases",
	      dir, dir, dir);
	write_program(dir, "loses_a_case", "a\\nb\\n",
		      "echo PASS loses_a_case/a");
	write_program(dir, "crashes", "a\\n",
		      "echo PASS crashes/a; kill -SEGV $$");
	write_program(dir, "fails_without_a_case", "a\\n",
		      "echo PASS fails_without_a_case/a; exit 1");
	write_program(dir, "extra", "a\\nb\\n",
		      "echo PASS extra/a; echo PASS extra/a; echo 'FAIL extra/b: not run'; echo PASS extra/c");
	write_program(dir, "fine", "a\\nb\\n", "echo PASS fine/a; echo PASS fine/b");
	run("TESTS_BIN=/tmp/harness-bin " RUN_TESTS " harness_cases loses_a_case absent crashes fails_without_a_case extra fine 2>/dev/null",
	    &o);
	expect_lines(&o, want, sizeof(want) / sizeof(want[0]));
	shell("rm -rf %s", dir);
}

/*
 * SIGTERM (the runner's time limit) ends the program and the case it
 * runs, with everything the case forked: no line, and no sleeper left
 * holding the output (without the handler, run() would wait for it).
 */
static void term_ends_the_running_case(void)
{
	struct output o;
	size_t i;

	run("HARNESS_WAIT=1 timeout -s TERM 3 " HELPER " waits_for_term", &o);
	EXPECT_EQ(o.n, 0);
	/* busybox's timeout execs the program: it dies of SIGTERM; GNU's 124 */
	EXPECT(o.status == 128 + SIGTERM || o.status == 124);
	EXPECT_EQ(o.n_sleepers, 1);
	for (i = 0; i < o.n_sleepers; i++)
		expect_gone(o.sleepers[i]);
}

/*
 * A program whose --list declares no case, one that hangs past the time
 * limit (its cases that did not report each fail too, and the next
 * program runs), one whose --list hangs; a skipped case is passed on as
 * SKIP and counts as reported.
 */
static void runner_limits_and_empty_programs(void)
{
	static const char *const want[] = {
		"FAIL no_cases: --list declares no case",
		"PASS hangs/a",
		"FAIL hangs/b: declared but did not report",
		"FAIL hangs/c: declared but did not report",
		"FAIL hangs: timed out after 2 s",
		"FAIL hangs_in_list: --list timed out after 2 s",
		"SKIP skips/a: not here",
		"PASS skips/b",
	};
	const char *dir = "/tmp/harness-limits";
	struct output o;

	shell("rm -rf %s; mkdir -p %s", dir, dir);
	write_program(dir, "no_cases", "", "echo PASS no_cases/a");
	write_program(dir, "hangs", "a\\nb\\nc\\n",
		      "echo PASS hangs/a; exec sleep 1000");
	write_program(dir, "skips", "a\\nb\\n",
		      "echo 'SKIP skips/a: not here'; echo PASS skips/b");
	/* --list hangs: its limit is the program's, when under 60 s */
	shell("printf '#!/bin/sh\\nexec sleep 1000\\n' > %s/hangs_in_list; chmod 755 %s/hangs_in_list",
	      dir, dir);
	run("TESTS_BIN=/tmp/harness-limits " RUN_TESTS " --timeout 2 no_cases hangs hangs_in_list skips 2>/dev/null",
	    &o);
	expect_lines(&o, want, sizeof(want) / sizeof(want[0]));
	shell("rm -rf %s", dir);
}

/*
 * The whole-suite run's golden part: a missing or non-executable runner,
 * a missing or empty folder each fail by name; a runner that loses a
 * case fails that case.
 */
#define GOLDEN_ENV(cases) "TESTS_GOLDEN=/tmp/harness-golden/" cases \
	" TESTS_PROGRAMS=/tmp/harness-golden/programs" \
	" TESTS_RUN_GOLDEN=/tmp/harness-golden/run-golden " RUN_TESTS " 2>/dev/null"

static void runner_fails_a_missing_golden_part(void)
{
	static const char *const missing_runner[] = {
		"FAIL golden: the golden runner /tmp/harness-golden/run-golden is missing",
	};
	static const char *const not_executable[] = {
		"FAIL golden: the golden runner /tmp/harness-golden/run-golden is not executable",
	};
	static const char *const no_folder[] = {
		"FAIL golden: no golden case folder /tmp/harness-golden/none",
	};
	static const char *const empty_folder[] = {
		"FAIL golden: no golden case in /tmp/harness-golden/empty",
	};
	static const char *const loses_one[] = {
		"PASS golden/one",
		"FAIL golden/two: declared but did not report",
	};
	struct output o;

	shell("rm -rf /tmp/harness-golden; mkdir -p /tmp/harness-golden/cases /tmp/harness-golden/empty;"
	      " : > /tmp/harness-golden/programs; touch /tmp/harness-golden/cases/one /tmp/harness-golden/cases/two");
	run(GOLDEN_ENV("cases"), &o);
	expect_lines(&o, missing_runner, 1);
	shell("printf '#!/bin/sh\\necho PASS golden/one\\n' > /tmp/harness-golden/run-golden");
	run(GOLDEN_ENV("cases"), &o);
	expect_lines(&o, not_executable, 1);
	shell("chmod 755 /tmp/harness-golden/run-golden");
	run(GOLDEN_ENV("cases"), &o);
	expect_lines(&o, loses_one, 2);
	run(GOLDEN_ENV("none"), &o);
	expect_lines(&o, no_folder, 1);
	run(GOLDEN_ENV("empty"), &o);
	expect_lines(&o, empty_folder, 1);
	shell("rm -rf /tmp/harness-golden");
}

static const struct check_case cases[] = {
	CASE_T(misbehaving_cases_each_report_one_line, 60),
	CASE(list_prints_the_case_table),
	CASE_T(one_case_by_name, 30),
	CASE_T(runner_fails_what_did_not_report, 60),
	CASE_T(term_ends_the_running_case, 30),
	CASE_T(runner_limits_and_empty_programs, 120),
	CASE_T(runner_fails_a_missing_golden_part, 30),
};

CHECK_MAIN(cases)
