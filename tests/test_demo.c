// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_demo.c - make demo's steps (qemu/demo/dummy.sh, /demo/dummy.sh in the
 * guest) as the demo runs them: on a terminal, here under load
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/iio_test.h"

#define DEMO "/demo/dummy.sh"
#define ROUNDS 100

/* a process that only burns CPU, killed with the case's process group */
static void cpu_hog(void)
{
	if (!MUST(fork()))
		for (;;)
			;
}

/*
 * The demo's edu factorial step ROUNDS times in one run of the demo, its
 * output on a pseudo-terminal (the demo's is the guest's serial console),
 * with two CPU hogs beside it.  A shell whose output is a terminal makes a
 * forked printf flush at each newline byte, so printf '\012\000\000\000'
 * | dd (10 to edu's factorial register, as the demo used to write it)
 * could reach edu as a 1-byte and a 3-byte write, which edu ignores: no
 * factorial, no interrupt, and the demo's read of the event node blocked
 * for ever (about 6 rounds in 100 under this load).  Every round must
 * print 10!, and the demo must end.
 */
/* how many times @s holds "10! =     3628800", the demo's result line */
static int results(const char *s)
{
	int n = 0;

	while ((s = strstr(s, "10! =     3628800"))) {
		n++;
		s++;
	}
	return n;
}

static void edu_factorial_under_load(void)
{
	static char out[1 << 18];	/* ~150 bytes a round */
	char *argv[ROUNDS + 3], scratch[4096];
	unsigned long long deadline;
	int master, status, i;
	struct pollfd pfd;
	size_t len = 0;
	pid_t pid;
	ssize_t n;

	cpu_hog();
	cpu_hog();
	argv[0] = "sh";
	argv[1] = DEMO;
	for (i = 0; i < ROUNDS; i++)
		argv[2 + i] = "edu_factorial";
	argv[ROUNDS + 2] = NULL;

	pid = MUST(forkpty(&master, NULL, NULL, NULL));
	if (!pid) {
		/* a lost interrupt ends the demo, not the case's watchdog */
		setenv("DEMO_WAIT", "10", 1);
		execv("/bin/sh", argv);
		_exit(127);
	}
	/* the demo has a session of its own: killed here, not by the watchdog */
	deadline = now_ms() + 150 * 1000;
	pfd = (struct pollfd){ .fd = master, .events = POLLIN };
	for (;;) {
		long left = (long)(deadline - now_ms());
		int full = len == sizeof(out) - 1;

		if (left <= 0 || !poll(&pfd, 1, left)) {
			kill(-pid, SIGKILL);
			waitpid(pid, NULL, 0);
			FAIL("the demo hung after %d of %d rounds", results(out),
			     ROUNDS);
		}
		n = read(master, full ? scratch : out + len,
			 full ? sizeof(scratch) : sizeof(out) - 1 - len);
		if (n <= 0)	/* EIO: the terminal's last user closed it */
			break;
		if (!full)
			len += (size_t)n;
		out[len] = '\0';
	}
	close(master);
	EXPECT_EQ(waitpid(pid, &status, 0), pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		FAIL("the demo failed (status %#x) after %d of %d rounds: %s",
		     status, results(out), ROUNDS,
		     len > 300 ? out + len - 300 : out);
	EXPECT_EQ(results(out), ROUNDS);
}

static const struct check_case cases[] = {
	CASE_T(edu_factorial_under_load, 240),
};
CHECK_MAIN(cases)
