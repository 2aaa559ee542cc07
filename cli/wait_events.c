// SPDX-License-Identifier: GPL-2.0-only
/*
 * wait_events.c - iioctl wait-events DEV: block (poll) until N events,
 * one line per read of the event node
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "device.h"
#include "region.h"

#define DEFAULT_FORMAT "count=%c new=%n time=%t"

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void print_event(const char *fmt, uint32_t count, uint32_t new)
{
	const char *p;

	for (p = fmt; *p; p++) {
		if (*p != '%') {
			putchar(*p);
			continue;
		}
		switch (*++p) {
		case 'c': printf("%u", count); break;
		case 'n': printf("%u", new); break;
		case 't': print_clock(stdout, CLOCK_MONOTONIC); break;
		case 'T': print_clock(stdout, CLOCK_REALTIME); break;
		default: putchar('%'); break;
		}
	}
	putchar('\n');
}

/* wait-events -j: a JSON line per read */
static void print_event_json(const struct iio_device_info *dev,
			     unsigned vector, uint32_t count, uint32_t new)
{
	fputs("{\"time\": \"", stdout);
	print_clock(stdout, CLOCK_MONOTONIC);
	fputs("\", \"device\": ", stdout);
	json_string(stdout, dev->label);
	printf(", \"vector\": %u, \"count\": %u, \"new\": %u}\n", vector,
	       count, new);
}

static int do_wait_events(int argc, const char **argv)
{
	const char *num_arg = NULL, *timeout_arg = NULL, *fmt = NULL;
	const char *vector_arg = NULL;
	unsigned vector = 0;
	uint64_t want = 1, got = 0, timeout = 0, deadline = 0, now;
	uint64_t timeout_ns = 0;
	char text[32];
	const struct iio_device_info *dev;
	struct sigaction sa, old_sa;
	char path[PATH_MAX];
	sigset_t block, old_mask;
	struct iio_target t;
	struct timespec ts;
	struct pollfd pfd;
	uint32_t last, count;
	int quiet = 0, json = 0, fd, rc;
	ssize_t n;
	poptContext ctx;
	const struct poptOption options[] = {
		{ "num-events", 'n', POPT_ARG_STRING, &num_arg, 0,
		  "return after N events (default 1; 0: until interrupted or, with -t, for TIMEOUT)",
		  "N" },
		{ "timeout", 't', POPT_ARG_STRING, &timeout_arg, 0,
		  "give up (status 3) TIMEOUT after the start: seconds (0.5) or with a unit (250ms, 2s)",
		  "TIMEOUT" },
		{ "format", 0, POPT_ARG_STRING, &fmt, 0,
		  "line per read: %c count, %n new, %t monotonic, %T realtime, %% (default \"" DEFAULT_FORMAT "\")",
		  "FMT" },
		{ "quiet", 'q', POPT_ARG_NONE, &quiet, 0, "print nothing",
		  NULL },
		{ "json", 'j', POPT_ARG_NONE, &json, 0,
		  "a JSON object a line per read (JSON lines)", NULL },
		{ "vector", 0, POPT_ARG_STRING, &vector_arg, 0,
		  "the events of vector K (/dev/iioN_eventK; default 0)", "K" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};

	ctx = parse_options(argc, argv, options, "DEV");
	device_resolve(need_arg(ctx, "DEV"), &t);
	no_more_args(ctx);
	dev = t.dev;
	if (num_arg)
		want = parse_u64_or_die(num_arg, "number of events", 0,
					UINT32_MAX);
	if (timeout_arg) {
		timeout = parse_duration_or_die(timeout_arg, "timeout");
		timeout_ns = timeout;
	}
	if (json && fmt)
		die(IIOCTL_EUSAGE, "--json and --format conflict");
	if (json && quiet)
		die(IIOCTL_EUSAGE, "--json and --quiet conflict");
	if (!fmt)
		fmt = DEFAULT_FORMAT;
	check_format_or_die(fmt, "cntT%");
	if (vector_arg) {
		vector = (unsigned)parse_u64_or_die(vector_arg, "vector", 0,
						    DEVICE_VECTORS_MAX - 1);
		if (vector >= dev->vectors)
			die(IIOCTL_EUSAGE, "%s has no vector %u (it has %llu)",
			    dev->label, vector,
			    (unsigned long long)dev->vectors);
		if (t.node == NODE_EVENT)
			die(IIOCTL_EUSAGE, "%s is an event node; --vector takes a device",
			    t.path);
	}
	if (!vector && !device_has_events(dev))
		die(IIOCTL_ENOEVENTS, "%s has no event source (irq none)",
		    dev->label);
	if (vector)
		vector_event_path(dev, vector, path, sizeof(path));
	else
		target_event_path(&t, path, sizeof(path));
	if (iioctl_dry_run) {
		if (region_planning()) {
			fprintf(stderr, "iioctl: %s: would wait ", dev->label);
			if (want)
				fprintf(stderr, "for %llu event%s",
					(unsigned long long)want,
					want == 1 ? "" : "s");
			else
				fputs(timeout_arg ? "and count the events" :
				      "until interrupted", stderr);
			fprintf(stderr, " on %s", path);
			if (timeout_arg)
				fprintf(stderr, ", %s %s", want ? "at most" :
					"for", format_duration(timeout, text,
							       sizeof(text)));
			fputc('\n', stderr);
		}
		return IIOCTL_OK;
	}
	/* counted from here: events between this and open() count too */
	last = device_vector_event_count(dev, vector);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		die_open(path, "");

	/* SIGINT only interrupts ppoll(): no lost wake-up */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigaction(SIGINT, &sa, &old_sa);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &old_mask);
	interrupted = 0;
	if (timeout_arg)
		deadline = now_ns() + timeout;

	while (!want || got < want) {
		if (!quiet)
			fflush(stdout);
		if (timeout_arg) {
			now = now_ns();
			if (now >= deadline)
				timeout = 0;
			else
				timeout = deadline - now;
			ts.tv_sec = (time_t)(timeout / 1000000000);
			ts.tv_nsec = (long)(timeout % 1000000000);
		}
		pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
		rc = ppoll(&pfd, 1, timeout_arg ? &ts : NULL, &old_mask);
		if (rc < 0 && errno == EINTR && interrupted)
			die(IIOCTL_EINTERRUPTED, "%s: interrupted after %llu event%s",
			    dev->label, (unsigned long long)got,
			    got == 1 ? "" : "s");
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc < 0)
			die_perror(IIOCTL_EDEVICE, "%s: poll", path);
		if (!rc && !want) {
			/* -n 0 -t T: watching for a while, not a timeout */
			if (!quiet)
				fprintf(stderr, "iioctl: %s: %llu event%s in %s\n",
					dev->label, (unsigned long long)got,
					got == 1 ? "" : "s",
					format_duration(timeout_ns, text,
							sizeof(text)));
			break;
		}
		if (!rc)
			die(IIOCTL_ETIMEOUT, "%s: timeout after %s with %llu of %llu event%s",
			    dev->label,
			    format_duration(timeout_ns, text, sizeof(text)),
			    (unsigned long long)got,
			    (unsigned long long)want, want == 1 ? "" : "s");
		if (pfd.revents & POLLHUP)
			die(IIOCTL_EGONE, "%s: the device went away", dev->label);
		if (pfd.revents & POLLERR)
			die(IIOCTL_ENOEVENTS, "%s has no event source",
			    dev->label);
		n = read(fd, &count, sizeof(count));
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n < 0)
			die_perror(errno_status(errno), "%s: read", path);
		if (n != sizeof(count))
			die(IIOCTL_EDEVICE, "%s: short read of %zd bytes", path, n);
		got += (uint32_t)(count - last);
		if (json)
			print_event_json(dev, vector, count, count - last);
		else if (!quiet)
			print_event(fmt, count, count - last);
		last = count;
	}
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	sigaction(SIGINT, &old_sa, NULL);
	close(fd);
	return IIOCTL_OK;
}

const struct iioctl_cmd iioctl_cmd_wait_events = {
	.name = "wait-events",
	.run = do_wait_events,
	.help = "block until N events (-n N, -t TIMEOUT, --format FMT, -q, -j)",
};
