// SPDX-License-Identifier: GPL-2.0-only
/*
 * rx_count.c - the kernel's receive rate for make bench's item 8: how
 * fast an interface's rx_packets counter rises while another program
 * sends to it, measured as udrv-e1000e --receive-only --unchecked measures
 * its own (from the first frame to the last)
 *
 * usage: rx_count IFACE COUNT IDLE_MS
 *
 * Reads /sys/class/net/IFACE/statistics/rx_packets once, prints "ready"
 * (the caller starts the sender then), and reads it again every 2 ms
 * (one pread() of a file kept open: a shell loop would fork a process a
 * read and take the vCPU from the receive path it measures).  The first
 * read that has risen is the first frame's time, the last that rose the
 * last's.  Ends when COUNT frames came, or none for IDLE_MS after the
 * first (a sender without flow control loses what QEMU's queue cannot
 * hold).  Prints "rate: R frames/s (G frames in S s)" and "got: G";
 * exit 0, 1 when no frame came within 10 x IDLE_MS, 2 usage.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "now_ns.h"

static unsigned long long rx_packets(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0) {
		perror("rx_count: rx_packets");
		exit(1);
	}
	buf[n] = 0;
	return strtoull(buf, NULL, 10);
}

int main(int argc, char **argv)
{
	const struct timespec step = { 0, 2000000 };
	unsigned long long count, base, first = 0, last, v;
	uint64_t idle_ns, t_first = 0, t_last = 0, t_start;
	char path[128];
	int fd;

	if (argc != 4) {
		fprintf(stderr, "usage: rx_count IFACE COUNT IDLE_MS\n");
		return 2;
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/rx_packets",
		 argv[1]);
	count = strtoull(argv[2], NULL, 0);
	idle_ns = strtoull(argv[3], NULL, 0) * 1000000ull;
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		return 2;
	}
	base = last = rx_packets(fd);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ready\n");
	t_start = now_ns();
	for (;;) {
		nanosleep(&step, NULL);
		v = rx_packets(fd);
		if (v != last) {
			t_last = now_ns();
			if (!t_first) {
				t_first = t_last;
				first = v;
			}
			last = v;
		}
		if (last - base >= count)
			break;
		if (t_first && now_ns() - t_last > idle_ns)
			break;
		if (!t_first && now_ns() - t_start > 10 * idle_ns) {
			fprintf(stderr, "rx_count: no frame on %s\n", argv[1]);
			return 1;
		}
	}
	/* the frames after the first read that saw any, over the time
	 * from that read to the last that saw more */
	printf("rate: %.0f frames/s (%llu frames in %.3f s)\n",
	       t_last > t_first ? (double)(last - first) * 1e9 /
				  (double)(t_last - t_first) : 0.0,
	       last - base, (double)(t_last - t_first) / 1e9);
	printf("got: %llu\n", last - base);
	return 0;
}
