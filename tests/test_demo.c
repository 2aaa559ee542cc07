// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_demo.c - make demo's tour (qemu/demo/tour.sh, /demo/tour.sh in the
 * guest) as the demo runs it: on a terminal, whole, and its edu step under
 * load
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

#define DEMO "/demo/tour.sh"
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
/* how many times @s holds @line */
static int count_of(const char *s, const char *line)
{
	int n = 0;

	while ((s = strstr(s, line))) {
		n++;
		s++;
	}
	return n;
}

/*
 * The demo's output @out as note lines ("# | ..."), before a FAIL line:
 * a FAIL line holds only the first kilobyte of a message
 */
static void show_output(const char *out)
{
	const char *end;

	for (; *out; out = *end ? end + 1 : end) {
		end = strchrnul(out, '\n');
		printf("# | %.*s\n", (int)(end - out - (end > out && end[-1] == '\r')),
		       out);
	}
	fflush(stdout);
}

/*
 * Runs the demo with @argv on a pseudo-terminal (the demo's output is the
 * guest's serial console), its waits limited to @wait_s seconds, and
 * keeps its output in @out (NUL-terminated, the start of it if longer).
 * Returns its wait status.  A demo that prints nothing for @quiet_s
 * seconds (more than any wait of its own) hangs: it is killed and the case
 * fails.  A slow guest (the debug kernel, a loaded host) only makes it
 * take longer, up to @limit_s seconds in all (below the case's limit: the
 * demo is killed here, not left behind by the watchdog).
 */
static int run_demo(char **argv, const char *wait_s, int quiet_s, int limit_s,
		    char *out, size_t size)
{
	unsigned long long deadline;
	char scratch[4096];
	struct pollfd pfd;
	int master, status;
	size_t len = 0;
	pid_t pid;
	ssize_t n;

	out[0] = '\0';
	pid = MUST(forkpty(&master, NULL, NULL, NULL));
	if (!pid) {
		/* a lost interrupt ends the demo, not the case's watchdog */
		setenv("DEMO_WAIT", wait_s, 1);
		execv("/bin/sh", argv);
		_exit(127);
	}
	/* the demo has a session of its own: killed here, not by the watchdog */
	deadline = now_ms() + (unsigned long long)limit_s * 1000;
	pfd = (struct pollfd){ .fd = master, .events = POLLIN };
	for (;;) {
		long left = (long)(deadline - now_ms());
		/* the wait ends at the deadline before any silence can */
		int to_deadline = left <= quiet_s * 1000L;
		int full = len == size - 1;

		if (left <= 0 ||
		    !poll(&pfd, 1, to_deadline ? left : quiet_s * 1000L)) {
			kill(-pid, SIGKILL);
			waitpid(pid, NULL, 0);
			show_output(out);
			if (to_deadline)
				FAIL("the demo had not ended after %d s (its output above)",
				     limit_s);
			FAIL("the demo printed nothing for %d s: it hangs (its output above)",
			     quiet_s);
		}
		n = read(master, full ? scratch : out + len,
			 full ? sizeof(scratch) : size - 1 - len);
		if (n <= 0)	/* EIO: the terminal's last user closed it */
			break;
		if (!full)
			len += (size_t)n;
		out[len] = '\0';
	}
	close(master);
	EXPECT_EQ(waitpid(pid, &status, 0), pid);
	return status;
}

static void edu_factorial_under_load(void)
{
	static char out[1 << 18];	/* ~150 bytes a round */
	char *argv[ROUNDS + 3];
	int status, i;

	cpu_hog();
	cpu_hog();
	argv[0] = "sh";
	argv[1] = DEMO;
	for (i = 0; i < ROUNDS; i++)
		argv[2 + i] = "edu_factorial";
	argv[ROUNDS + 2] = NULL;
	status = run_demo(argv, "10", 60, 540, out, sizeof(out));
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		show_output(out);
		FAIL("the demo failed (status %#x) after %d of %d rounds (its output above)",
		     status, count_of(out, "10! = 3628800"), ROUNDS);
	}
	EXPECT_EQ(count_of(out, "10! = 3628800"), ROUNDS);
}

/*
 * make demo's whole tour, as make demo runs it: every step ends, each with
 * its header, and the results it shows are the device's: 10!, 12! and 5!
 * computed by edu (by interrupt, polled, and through iio_pci_generic),
 * the pattern back from edu's DMA, the dummy's events and ticks.
 */
static void whole_tour(void)
{
	static char out[1 << 16];
	char *argv[] = { "sh", DEMO, NULL };
	static const char *const shows[] = {
		"10! = 3628800", "12! = 479001600", "5! = 120",
		"second page now: DMA through user space",
		"(1 new)", "|xV4.", "$ iioctl regs",
	};
	size_t i;
	int status;

	status = run_demo(argv, "20", 90, 200, out, sizeof(out));
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		show_output(out);
		FAIL("the demo failed (status %#x; its output above)", status);
	}
	EXPECT_EQ(count_of(out, "\n== "), 11);
	/*
	 * 00:13.0 left as qemu/init leaves it: no driver, and "none" in its
	 * driver_override, so that no stub takes it when loaded (iio_edu
	 * would: it is an edu)
	 */
	EXPECT(!path_exists("/sys/bus/pci/devices/0000:00:13.0/driver"));
	EXPECT_STREQ(read_text("/sys/bus/pci/devices/0000:00:13.0/driver_override"),
		     "none");
	for (i = 0; i < sizeof(shows) / sizeof(shows[0]); i++)
		if (!strstr(out, shows[i])) {
			show_output(out);
			FAIL("the tour does not show '%s' (its output above)",
			     shows[i]);
		}
}

static const struct check_case cases[] = {
	CASE_T(edu_factorial_under_load, 600),
	CASE_T(whole_tour, 240),
};
CHECK_MAIN(cases)
