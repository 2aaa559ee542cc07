// SPDX-License-Identifier: GPL-2.0-only
/*
 * timeit.c - wall time of one command, for the guest's shell (busybox has
 * no nanosecond clock)
 *
 * usage: timeit COMMAND [ARGS...]
 *
 * Runs COMMAND (stdin, stdout and stderr inherited), waits for it and
 * prints its wall time in nanoseconds (CLOCK_MONOTONIC) on fd 3, which
 * the caller must open ("timeit cmd 3>>file").  Exit status: COMMAND's.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "now_ns.h"

int main(int argc, char **argv)
{
	uint64_t t0, t1;
	int status;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: timeit COMMAND [ARGS...] 3>FILE\n");
		return 2;
	}
	t0 = now_ns();
	pid = fork();
	if (pid < 0) {
		perror("timeit: fork");
		return 2;
	}
	if (!pid) {
		close(3);
		execvp(argv[1], argv + 1);
		perror("timeit: exec");
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0) {
		perror("timeit: waitpid");
		return 2;
	}
	t1 = now_ns();
	dprintf(3, "%llu\n", (unsigned long long)(t1 - t0));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
