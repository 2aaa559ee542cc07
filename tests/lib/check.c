// SPDX-License-Identifier: GPL-2.0-only
/* check.c - see check.h */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static const char *prog;
static char fail_pipe_msg[1024];

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

void check_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(fail_pipe_msg, sizeof(fail_pipe_msg), "%s:%d: ", file,
		     line);
	va_start(ap, fmt);
	vsnprintf(fail_pipe_msg + n, sizeof(fail_pipe_msg) - n, fmt, ap);
	va_end(ap);
	/* fd 3 is the pipe to the parent, which prints the FAIL line */
	if (write(3, fail_pipe_msg, strlen(fail_pipe_msg)) < 0)
		perror("write");
	fflush(stdout);
	_exit(1);
}

static int run_case(const struct check_case *c)
{
	char msg[1024] = "";
	struct timespec t0, t1;
	int fds[2], status;
	ssize_t n, len = 0;
	pid_t pid;

	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (pipe(fds) < 0) {
		perror("pipe");
		exit(2);
	}
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(2);
	}
	if (pid == 0) {
		close(fds[0]);
		if (dup2(fds[1], 3) < 0)
			_exit(2);
		/* fd 3 is the only writer: a child that closes it holds none */
		if (fds[1] != 3)
			close(fds[1]);
		setpgid(0, 0);
		alarm(c->timeout_s ? c->timeout_s : 20);
		c->fn();
		fflush(stdout);
		_exit(0);
	}
	close(fds[1]);
	while ((n = read(fds[0], msg + len, sizeof(msg) - 1 - len)) > 0)
		len += n;
	msg[len] = 0;
	close(fds[0]);
	waitpid(pid, &status, 0);
	kill(-pid, SIGKILL);	/* leftovers of the case */
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* where the suite's time goes: a note for every slow case */
	if (t1.tv_sec - t0.tv_sec >= 2)
		check_note("%s/%s took %ld s", prog, c->name,
			   (long)(t1.tv_sec - t0.tv_sec));

	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && !len) {
		printf("PASS %s/%s\n", prog, c->name);
		return 0;
	}
	if (!len) {
		if (WIFSIGNALED(status))
			snprintf(msg, sizeof(msg), "killed by signal %d (%s)%s",
				 WTERMSIG(status), strsignal(WTERMSIG(status)),
				 WTERMSIG(status) == SIGALRM ? ": timeout" : "");
		else
			snprintf(msg, sizeof(msg), "exit status %d",
				 WEXITSTATUS(status));
	}
	printf("FAIL %s/%s: %s\n", prog, c->name, msg);
	return 1;
}

int check_main(int argc, char **argv, const struct check_case *cases,
	       size_t n)
{
	int failed = 0;
	size_t i;

	prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < n; i++) {
		if (argc > 1 && strcmp(argv[1], cases[i].name))
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
