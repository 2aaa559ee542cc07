// SPDX-License-Identifier: GPL-2.0-only
/*
 * event_rate.c - the dummy's cyclic timer at a given rate, delivered to L
 * listeners: does any of them ever miss a count?
 *
 * usage: event_rate N FREQ LISTENERS SECONDS
 *
 * With the dummy iioN stopped (freq 0), forks LISTENERS processes that
 * each open /dev/iioN_event and read it in a loop, sets the rate to FREQ
 * (/sys/devices/platform/iio_user_dummy.0/freq), sleeps SECONDS, stops the
 * timer and adds one last event (a write of u32 1 to the event node) that
 * wakes every listener for the end.  Each read returns the device's total
 * count; a read that returns more than the previous count + 1 means the
 * listener missed (new - 1) events.
 *
 * Prints one line: "FREQ LISTENERS generated_per_s delivered_per_s
 * missed_total max_new", delivered being the mean over the listeners of
 * reads per second that returned a timer event.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "now_ns.h"
#include "../tests/lib/iio_raw.h"

#define MAX_LISTENERS 16
#define FREQ_ATTR "/sys/devices/platform/iio_user_dummy.0/freq"

struct result {
	volatile uint32_t stop_at;	/* set by the parent: the final count */
	struct {
		uint64_t reads, missed;
		uint32_t max_new;
		volatile uint32_t last;	/* the count it last read */
		int ready, done;
	} l[MAX_LISTENERS];
};

static void write_attr(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, val, strlen(val)) != (ssize_t)strlen(val)) {
		perror(path);
		exit(1);
	}
	close(fd);
}

static uint32_t read_count(int nr)
{
	long long n = iio_raw_attr_num(nr, "event");

	if (n < 0) {
		fprintf(stderr, "event_rate: %s\n", iio_raw_error());
		exit(1);
	}
	return (uint32_t)n;
}

static void listener(struct result *res, int i, const char *evpath,
		     uint32_t base)
{
	uint32_t c, last = base, stop, n;
	int fd = open(evpath, O_RDONLY);

	if (fd < 0) {
		perror(evpath);
		_exit(1);
	}
	res->l[i].last = base;
	__atomic_store_n(&res->l[i].ready, 1, __ATOMIC_SEQ_CST);
	for (;;) {
		if (read(fd, &c, 4) != 4) {
			perror("read");
			_exit(1);
		}
		stop = res->stop_at;
		if (stop && c - base >= stop - base) {
			/* the final event: events up to stop - 1 were timer ticks */
			if (stop - 1 - last > 0)
				res->l[i].missed += stop - 1 - last;
			break;
		}
		n = c - last;
		if (n > 1)
			res->l[i].missed += n - 1;
		if (n > res->l[i].max_new)
			res->l[i].max_new = n;
		res->l[i].reads++;
		last = c;
		res->l[i].last = c;
	}
	__atomic_store_n(&res->l[i].done, 1, __ATOMIC_SEQ_CST);
	_exit(0);
}

int main(int argc, char **argv)
{
	char evpath[64], freq_s[32];
	uint32_t base, end, one = 1, max_new = 0;
	uint64_t t0, t1, reads = 0, missed = 0;
	struct timespec dur;
	struct result *res;
	int nr, lis, i, efd, status;
	double secs;

	if (argc != 5) {
		fprintf(stderr, "usage: event_rate N FREQ LISTENERS SECONDS\n");
		return 2;
	}
	nr = atoi(argv[1]);
	snprintf(freq_s, sizeof(freq_s), "%s", argv[2]);
	lis = atoi(argv[3]);
	secs = atof(argv[4]);
	if (lis < 1 || lis > MAX_LISTENERS || secs <= 0) {
		fprintf(stderr, "event_rate: bad arguments\n");
		return 2;
	}
	res = mmap(NULL, sizeof(*res), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	memset(res, 0, sizeof(*res));
	snprintf(evpath, sizeof(evpath), "/dev/iio%d_event", nr);
	write_attr(FREQ_ATTR, "0");
	base = read_count(nr);
	for (i = 0; i < lis; i++)
		if (!fork())
			listener(res, i, evpath, base);
	for (i = 0; i < lis; i++)
		while (!__atomic_load_n(&res->l[i].ready, __ATOMIC_SEQ_CST))
			usleep(1000);
	usleep(20000);	/* let them block in read() */

	t0 = now_ns();
	write_attr(FREQ_ATTR, freq_s);
	dur.tv_sec = (time_t)secs;
	dur.tv_nsec = (long)((secs - (double)dur.tv_sec) * 1e9);
	nanosleep(&dur, NULL);
	write_attr(FREQ_ATTR, "0");
	t1 = now_ns();
	end = read_count(nr);
	/*
	 * Let every listener read the last tick before the final event, or
	 * the final event would hide it (up to 1 s: a listener that cannot
	 * catch up missed events anyway).
	 */
	for (i = 0; i < lis; i++)
		for (int w = 0; w < 1000 && res->l[i].last != end; w++)
			usleep(1000);
	res->stop_at = end + 1;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	efd = open(evpath, O_WRONLY);
	if (efd < 0 || write(efd, &one, 4) != 4) {
		perror("final event");
		return 1;
	}
	close(efd);
	for (i = 0; i < lis; i++) {
		if (wait(&status) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			fprintf(stderr, "event_rate: a listener failed\n");
			return 1;
		}
	}
	for (i = 0; i < lis; i++) {
		reads += res->l[i].reads;
		missed += res->l[i].missed;
		if (res->l[i].max_new > max_new)
			max_new = res->l[i].max_new;
	}
	secs = (double)(t1 - t0) / 1e9;
	printf("%s %d %.0f %.0f %llu %u\n", freq_s, lis,
	       (double)(end - base) / secs, (double)reads / lis / secs,
	       (unsigned long long)missed, max_new);
	return 0;
}
