// SPDX-License-Identifier: GPL-2.0-only
/*
 * harness_cases - cases that misbehave on purpose, for test_harness: each
 * must come out of check_main() as exactly one PASS or FAIL line, and no
 * process any of them forks may outlive it.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../lib/check.h"

/* Forks a child that sleeps forever (holding stdout), then fails. */
static void child_sleeps_then_fails(void)
{
	pid_t pid = MUST(fork());

	if (pid == 0)
		for (;;)
			pause();
	printf("# sleeper %d\n", (int)pid);
	FAIL("failed on purpose");
}

/* Forks a child that sleeps forever, then passes. */
static void child_sleeps_then_passes(void)
{
	pid_t pid = MUST(fork());

	if (pid == 0)
		for (;;)
			pause();
	printf("# sleeper %d\n", (int)pid);
}

/* A failure in a child of the case fails the case. */
static void child_fails(void)
{
	pid_t pid = MUST(fork());
	int status;

	if (pid == 0)
		FAIL("child failed on purpose");
	waitpid(pid, &status, 0);
}

static void exits_without_reporting(void)
{
	exit(0);
}

static void exits_non_zero(void)
{
	_exit(7);
}

static void killed_by_signal(void)
{
	raise(SIGSEGV);
}

/* Hangs with a child that also hangs; the timeout is 1 s. */
static void hangs(void)
{
	pid_t pid = MUST(fork());

	if (pid == 0)
		for (;;)
			pause();
	printf("# sleeper %d\n", (int)pid);
	for (;;)
		pause();
}

/*
 * Ignores SIGALRM and SIGTERM: only SIGKILL ends it.  Says what it is
 * doing first: the timeout's line names it.
 */
static void hangs_ignoring_signals(void)
{
	check_doing("step %d of something", 3);
	check_doing("step %d of ignoring signals", 7);
	signal(SIGALRM, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	for (;;)
		pause();
}

static void passes(void)
{
	EXPECT_EQ(1 + 1, 2);
}

/* Skips: one SKIP line, status 0, never a PASS. */
static void skips(void)
{
	check_skip("skipped on purpose");
}

/* A skip that then fails in a child is a failure: the first report wins */
static void skips_after_failing(void)
{
	pid_t pid = MUST(fork());
	int status;

	if (pid == 0)
		FAIL("failed before the skip");
	waitpid(pid, &status, 0);
	check_skip("too late");
}

/*
 * With HARNESS_WAIT set (test_harness sends the program SIGTERM then):
 * forks a sleeper and waits; without, passes at once.
 */
static void waits_for_term(void)
{
	pid_t pid;

	if (!getenv("HARNESS_WAIT"))
		return;
	pid = MUST(fork());
	if (pid == 0)
		for (;;)
			pause();
	printf("# sleeper %d\n", (int)pid);
	for (;;)
		pause();
}

static const struct check_case cases[] = {
	CASE(child_sleeps_then_fails),
	CASE(child_sleeps_then_passes),
	CASE(child_fails),
	CASE(exits_without_reporting),
	CASE(exits_non_zero),
	CASE(killed_by_signal),
	CASE_T(hangs, 1),
	CASE_T(hangs_ignoring_signals, 1),
	CASE(passes),
	CASE(skips),
	CASE(skips_after_failing),
	CASE_T(waits_for_term, 60),
};

CHECK_MAIN(cases)
