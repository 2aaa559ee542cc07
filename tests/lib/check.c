// SPDX-License-Identifier: GPL-2.0-only
/* check.c - see check.h */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

/* Default timeout of a case; reloading a PCI stub takes seconds. */
#define CASE_TIMEOUT_S 20
/* How long a killed case may take to die before it is given up on. */
#define REAP_TIMEOUT_MS 10000

/*
 * A case's result, in memory shared with the case and everything it
 * forks: the parent reads it once the case process has ended (or was
 * killed at its timeout), whatever its children still hold open.
 */
enum case_state {
	CASE_RUNNING,
	CASE_RETURNED,		/* the case function returned */
	CASE_WRITING,		/* a FAIL message is being written */
	CASE_FAILED,		/* a FAIL message is complete */
	CASE_SKIPPED,		/* a SKIP message is complete */
};

struct case_report {
	int state;
	char msg[1024];
	/* what the case said it is doing (check_doing()), for a timeout */
	char doing[256];
};

static const char *prog;
static struct case_report *report;
static pid_t case_pid;
/* the case process running, for the SIGTERM handler (0: none) */
static volatile pid_t running_case;

/*
 * SIGTERM (the runner's time limit): the running case's process group is
 * in a group of its own, which the signal does not reach; kill it, then
 * die of the signal.
 */
static void on_term(int sig)
{
	static const char note[] = "# killed at the program's time limit, while ";
	pid_t pid = running_case;

	if (pid > 0)
		kill(-pid, SIGKILL);
	/* what the case was doing (write(2): safe in a signal handler) */
	if (pid > 0 && report && report->doing[0]) {
		size_t len = strnlen(report->doing, sizeof(report->doing));

		if (write(STDOUT_FILENO, note, sizeof(note) - 1) > 0 &&
		    write(STDOUT_FILENO, report->doing, len) > 0)
			(void)!write(STDOUT_FILENO, "\n", 1);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

void check_note(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* Claims the report for a failure; the first failure of a case wins. */
static int claim_report(void)
{
	int state;

	for (state = CASE_RUNNING; state <= CASE_RETURNED; state++) {
		int expected = state;

		if (__atomic_compare_exchange_n(&report->state, &expected,
						CASE_WRITING, 0,
						__ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
			return 1;
	}
	return 0;
}

void check_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	fflush(stdout);
	if (!report) {		/* outside a case: the program fails */
		fprintf(stderr, "%s:%d: ", file, line);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
		exit(2);
	}
	if (claim_report()) {
		n = snprintf(report->msg, sizeof(report->msg), "%s:%d: ", file,
			     line);
		va_start(ap, fmt);
		vsnprintf(report->msg + n, sizeof(report->msg) - n, fmt, ap);
		va_end(ap);
		__atomic_store_n(&report->state, CASE_FAILED, __ATOMIC_SEQ_CST);
	}
	_exit(1);
}

void check_doing(const char *fmt, ...)
{
	va_list ap;

	if (!report)
		return;
	va_start(ap, fmt);
	vsnprintf(report->doing, sizeof(report->doing), fmt, ap);
	va_end(ap);
}

void check_skip(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	if (!report) {		/* outside a case: a usage error */
		fprintf(stderr, "check_skip() outside a case\n");
		exit(2);
	}
	if (getpid() != case_pid)
		FAIL("check_skip() in a process the case forked");
	if (claim_report()) {
		va_start(ap, fmt);
		vsnprintf(report->msg, sizeof(report->msg), fmt, ap);
		va_end(ap);
		__atomic_store_n(&report->state, CASE_SKIPPED, __ATOMIC_SEQ_CST);
	}
	_exit(0);
}

static long elapsed_ms(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) * 1000 +
	       (t1.tv_nsec - t0->tv_nsec) / 1000000;
}

/*
 * Waits up to timeout_ms for child pid (pidfd its pidfd) to end and reaps
 * it: 1 if it ended, 0 if the time ran out.
 */
static int reap_within(pid_t pid, int pidfd, long timeout_ms, int *status)
{
	struct pollfd pfd = { .fd = pidfd, .events = POLLIN };
	struct timespec t0;
	long left;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return 1;
		if (r < 0 && errno != EINTR) {
			perror("waitpid");
			exit(2);
		}
		left = timeout_ms - elapsed_ms(&t0);
		if (left <= 0)
			return 0;
		if (poll(&pfd, 1, (int)left) < 0 && errno != EINTR) {
			perror("poll");
			exit(2);
		}
	}
}

/* The case's child process: runs the case, reports that it returned. */
static __attribute__((noreturn)) void case_child(const struct check_case *c)
{
	int expected = CASE_RUNNING;

	signal(SIGTERM, SIG_DFL);
	setpgid(0, 0);
	c->fn();
	fflush(stdout);
	/* a process the case forked may return here too: only the case's */
	if (getpid() == case_pid)
		__atomic_compare_exchange_n(&report->state, &expected,
					    CASE_RETURNED, 0, __ATOMIC_SEQ_CST,
					    __ATOMIC_SEQ_CST);
	_exit(0);
}

/*
 * Runs case c in a process group of its own under a watchdog: at its
 * timeout the whole group is killed, and the group is killed anyway when
 * the case process ends, so nothing it forked outlives it.  0 if it
 * passed.
 */
static int run_case(const struct check_case *c)
{
	unsigned int timeout_s = c->timeout_s ? c->timeout_s : CASE_TIMEOUT_S;
	char why[sizeof(report->msg) + sizeof(report->doing) + 64] = "";
	int pidfd, status = 0, ended, state;
	struct timespec t0;
	long took_ms;
	pid_t pid;

	report = mmap(NULL, sizeof(*report), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (report == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	fflush(stdout);
	fflush(stderr);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(2);
	}
	if (pid == 0) {
		case_pid = getpid();
		case_child(c);
	}
	setpgid(pid, pid);	/* also here: no window before the child's */
	running_case = pid;
	pidfd = syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0) {
		perror("pidfd_open");
		exit(2);
	}
	ended = reap_within(pid, pidfd, timeout_s * 1000L, &status);
	kill(-pid, SIGKILL);	/* the case at its timeout, or its leftovers */
	if (!ended && !reap_within(pid, pidfd, REAP_TIMEOUT_MS, &status))
		snprintf(why, sizeof(why),
			 "timeout after %u s%s%s, and still alive %d s after SIGKILL",
			 timeout_s, report->doing[0] ? ", while " : "",
			 report->doing, REAP_TIMEOUT_MS / 1000);
	running_case = 0;
	close(pidfd);
	took_ms = elapsed_ms(&t0);
	/* where the suite's time goes: a note for every slow case */
	if (took_ms >= 2000)
		check_note("%s/%s took %ld s", prog, c->name, took_ms / 1000);

	state = __atomic_load_n(&report->state, __ATOMIC_SEQ_CST);
	if (why[0])
		;
	else if (ended && state == CASE_SKIPPED && WIFEXITED(status) &&
		 !WEXITSTATUS(status)) {
		printf("SKIP %s/%s: %s\n", prog, c->name, report->msg);
		munmap(report, sizeof(*report));
		report = NULL;
		return 0;
	} else if (!ended)
		snprintf(why, sizeof(why), "timeout after %u s%s%s%s%s",
			 timeout_s, report->doing[0] ? ", while " : "",
			 report->doing,
			 state >= CASE_WRITING ? ", after " : "",
			 state >= CASE_WRITING ? report->msg : "");
	else if (state == CASE_SKIPPED)	/* then a signal or a status */
		snprintf(why, sizeof(why), "skipped (%s), then %s %d",
			 report->msg, WIFSIGNALED(status) ? "signal" :
			 "exit status", WIFSIGNALED(status) ?
			 WTERMSIG(status) : WEXITSTATUS(status));
	else if (state >= CASE_WRITING)
		snprintf(why, sizeof(why), "%s", report->msg);
	else if (WIFSIGNALED(status))
		snprintf(why, sizeof(why), "killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (WEXITSTATUS(status))
		snprintf(why, sizeof(why), "exit status %d",
			 WEXITSTATUS(status));
	else if (state != CASE_RETURNED)
		snprintf(why, sizeof(why),
			 "exited (status 0) without reporting a result");
	munmap(report, sizeof(*report));
	report = NULL;

	if (!why[0]) {
		printf("PASS %s/%s\n", prog, c->name);
		return 0;
	}
	printf("FAIL %s/%s: %s\n", prog, c->name, why);
	return 1;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: %s [--list | CASE]\n"
		"Runs every case (or CASE) and prints \"PASS %s/CASE\" or\n"
		"\"FAIL %s/CASE: why\" for each; --list prints the case names.\n"
		"Exit status: 0 all passed (or skipped), 1 a case failed, 2 usage or\n"
		"setup error.\n",
		prog, prog, prog);
}

int check_main(int argc, char **argv, const struct check_case *cases,
	       size_t n)
{
	const char *only = NULL;
	int failed = 0;
	size_t i;

	prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGTERM, on_term);
	if (argc > 2 || (argc == 2 && argv[1][0] == '-' &&
			 strcmp(argv[1], "--list") && strcmp(argv[1], "--help"))) {
		usage(stderr);
		return 2;
	}
	if (argc == 2 && !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < n; i++)
			printf("%s\n", cases[i].name);
		return 0;
	}
	if (argc == 2) {
		only = argv[1];
		for (i = 0; i < n && strcmp(only, cases[i].name); i++)
			;
		if (i == n) {
			fprintf(stderr, "%s: no case %s (see --list)\n", prog,
				only);
			return 2;
		}
	}
	for (i = 0; i < n; i++) {
		if (only && strcmp(only, cases[i].name))
			continue;
		failed |= run_case(&cases[i]);
	}
	return failed;
}

char *read_text(const char *path)
{
	static char buf[4096];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		FAIL("open %s: %s", path, strerror(errno));
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0)
		FAIL("read %s: %s", path, strerror(errno));
	close(fd);
	buf[n] = 0;
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = 0;
	return buf;
}

/* the rest of the first line of @file starting with @prefix (static buffer) */
const char *line_of(const char *file, const char *prefix)
{
	static char buf[512];
	char line[512];
	FILE *f = fopen(file, "r");

	if (!f)
		FAIL("no %s", file);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, prefix, strlen(prefix))) {
			fclose(f);
			line[strcspn(line, "\n")] = 0;
			snprintf(buf, sizeof(buf), "%s", line + strlen(prefix));
			return buf;
		}
	}
	fclose(f);
	FAIL("%s has no line \"%s...\"", file, prefix);
}

/* the last line of @file (static buffer), @if_empty for an empty file */
const char *last_line(const char *file, const char *if_empty)
{
	static char buf[512];
	char line[512];
	FILE *f = fopen(file, "r");

	buf[0] = 0;
	if (!f) {
		snprintf(buf, sizeof(buf), "(no %s)", file);
		return buf;
	}
	while (fgets(line, sizeof(line), f))
		snprintf(buf, sizeof(buf), "%s", line);
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return buf[0] ? buf : if_empty;
}

int lines_in(const char *file)
{
	char line[512];
	FILE *f = fopen(file, "r");
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n++;
	fclose(f);
	return n;
}

unsigned long long read_num(const char *path)
{
	char *text = read_text(path), *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(text, &end, 0);
	if (errno || end == text || *end)
		FAIL("%s: \"%s\" is not a number", path, text);
	return v;
}

int write_text(const char *path, const char *text)
{
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	n = write(fd, text, strlen(text));
	if (n < 0)
		err = errno;
	close(fd);
	return err;
}

int shell(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;
	int status;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	fflush(stdout);
	status = system(cmd);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

void msleep(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

int path_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

void *bad_pointer(void)
{
	void *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		FAIL("mmap: %s", strerror(errno));
	munmap(p, 4096);
	return p;
}
