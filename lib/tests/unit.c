// SPDX-License-Identifier: LGPL-2.1-or-later
/* unit.c - see unit.h */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit.h"

static const char *suite_name, *current;

/*
 * ASan's own SIGBUS report would stand where the default disposition
 * kills the process; the tests of what happens without a handler need the
 * default.  Leaks are failures, with an exit status of their own (ASan's
 * default, 1, is unit_fail()'s, which has printed its FAIL line).
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "handle_sigbus=0:detect_leaks=1:exitcode=23";
}

void unit_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	printf("FAIL host/%s/%s: %s:%d: ", suite_name, current, file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	_exit(1);
}

int unit_main(const char *suite, const struct unit_case *cases, size_t n,
	      int argc, char **argv)
{
	int failed = 0, ran = 0;
	size_t i;

	suite_name = suite;
	for (i = 0; i < n; i++) {
		pid_t pid;
		int status;

		if (argc > 1 && strcmp(argv[1], cases[i].name))
			continue;
		ran++;
		current = cases[i].name;
		fflush(stdout);
		pid = fork();
		if (pid < 0) {
			perror("fork");
			return 2;
		}
		if (!pid) {
			cases[i].fn();
			exit(0);	/* exit, not _exit: LeakSanitizer runs */
		}
		waitpid(pid, &status, 0);
		/* a pass once the case's process ended clean, leaks checked */
		if (WIFEXITED(status) && !WEXITSTATUS(status)) {
			printf("PASS host/%s/%s\n", suite, current);
			fflush(stdout);
			continue;
		}
		failed = 1;
		if (WIFSIGNALED(status))
			printf("FAIL host/%s/%s: killed by signal %d\n", suite,
			       current, WTERMSIG(status));
		else if (WEXITSTATUS(status) != 1)
			printf("FAIL host/%s/%s: exit status %d (a sanitizer "
			       "report above?)\n", suite, current,
			       WEXITSTATUS(status));
	}
	if (!ran) {
		printf("FAIL host/%s: no case \"%s\"\n", suite, argv[1]);
		return 1;
	}
	return failed;
}
