// SPDX-License-Identifier: GPL-2.0-only
/*
 * nic_reflect - the peer of udrv-e1000e (examples/e1000e.c) in the guest
 * tests: on a raw packet socket (AF_PACKET) of IFACE, a port driven by the
 * kernel's e1000e, it takes COUNT test frames (examples/e1000e_frame.h)
 * and sends each back as its echo (MACs swapped, kind 2, CRC again).  The
 * frames must come in order from sequence number 0 (the run id is the
 * first frame's), each with its size, CRC and payload right: anything else
 * ends it.  Frames that are not test frames (the kernel's own IPv6
 * traffic) are counted and left alone.
 *
 * usage: nic_reflect [-n] [-c SEQ] [-d SEQ] [-s SEQ]
 *                    IFACE COUNT [TIMEOUT_MS]
 *
 * -n: no echoes at all, every frame only checked and counted (the peer
 * of udrv-e1000e --transmit-only, which has no flow control: a frame
 * dropped on the way is missing, and one QEMU held back while the port
 * had no room may come after later ones (QEMU delivers a frame directly
 * when the port has room, ahead of those still queued); neither is a
 * fault, a repeated or damaged frame is): ends when all COUNT came or
 * none for TIMEOUT_MS after the first, and prints "took N frames of run
 * 0xR, B bytes, O other frames, L lost, E late" (E: came after a later
 * one).
 *
 * The faults a driver must notice, on purpose: -c (corrupt) flips a payload
 * bit of SEQ's echo after its CRC is computed, -d (drop) sends no echo of
 * SEQ, -s (swap) sends SEQ's echo after SEQ + 1's.
 *
 * Prints "reflected N frames of run 0xR, B bytes, O other frames" and
 * exits 0; 1 on a bad frame (one line saying which and why), 2 usage,
 * 3 no frame for TIMEOUT_MS (default 10000), 4 a socket error.
 *
 * usage: nic_reflect -S SIZE|MIN-MAX -r RUN [-w WINDOW] IFACE COUNT [TIMEOUT_MS]
 *
 * The sender for udrv-e1000e --receive-only: COUNT test frames of run RUN
 * (kind 1, sequence numbers from 0, frame k of MIN + k % (MAX - MIN + 1)
 * bytes, to the broadcast address), at most WINDOW (default 128) ahead
 * of the receiver's last credit frame (kind 3, its sequence number the
 * frames it took); done when a credit says all COUNT were taken.  Prints
 * "sent N frames of run 0xR, B bytes, C credits" and exits 0; 3 when no
 * credit came for TIMEOUT_MS, 1 on a credit that went back.  -c SEQ:
 * frame SEQ with a payload bit flipped after its CRC was computed.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../../examples/e1000e_frame.h"

static void __attribute__((noreturn, format(printf, 2, 3)))
die(int status, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "nic_reflect: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(status);
}

/* -S: @count frames of @lo to @hi bytes of run @run on @fd, credited */
static int send_frames(int fd, const uint8_t mac[6], unsigned long long count,
		       unsigned int lo, unsigned int hi, uint32_t run,
		       unsigned long long window, int timeout_ms,
		       long long corrupt)
{
	static const uint8_t broadcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static uint8_t f[2048];
	unsigned long long sent = 0, credited = 0, bytes = 0, credits = 0, got;
	unsigned int size;
	ssize_t len;

	while (credited < count) {
		while (sent < count && sent - credited < window) {
			size = lo + (unsigned int)(sent % (hi - lo + 1));
			frame_fill(f, broadcast, mac, FRAME_KIND_SENT,
				   (uint16_t)size, run, sent);
			if ((long long)sent == corrupt)
				f[size - 1] ^= 0x10;
			if (send(fd, f, size, 0) != (ssize_t)size)
				die(4, "send: %s", strerror(errno));
			sent++;
			bytes += size;
		}
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int ready = poll(&pfd, 1, timeout_ms);

		if (ready < 0 && errno == EINTR)
			continue;
		if (ready < 0)
			die(4, "poll: %s", strerror(errno));
		if (!ready)
			die(3, "timeout: no credit for %d ms, %llu sent, %llu "
			    "credited", timeout_ms, sent, credited);
		len = recv(fd, f, sizeof(f), 0);
		if (len < 0)
			die(4, "recv: %s", strerror(errno));
		if (!frame_is_ours(f, (size_t)len) ||
		    f[FRAME_OFF_KIND] != FRAME_KIND_CREDIT ||
		    frame_get32(f + FRAME_OFF_RUN) != run)
			continue;
		if (frame_fault(f, (size_t)len, FRAME_KIND_CREDIT))
			die(1, "bad credit frame: %s",
			    frame_fault(f, (size_t)len, FRAME_KIND_CREDIT));
		got = frame_get64(f + FRAME_OFF_SEQ);
		if (got < credited || got > sent)
			die(1, "bad credit: %llu after %llu, %llu sent", got,
			    credited, sent);
		credited = got;
		credits++;
	}
	printf("sent %llu frames of run 0x%08x, %llu bytes, %llu credits\n",
	       sent, run, bytes, credits);
	return 0;
}

int main(int argc, char **argv)
{
	static uint8_t f[2048], held[2048];
	long long corrupt = -1, drop = -1, swap = -1;
	ssize_t held_len = 0;
	int c;
	unsigned int lo = 0, hi = 0;
	unsigned long long window = 128;
	bool no_echo = false;
	unsigned long long count, done = 0, other = 0, bytes = 0, next = 0;
	unsigned long long late = 0;
	uint8_t *seen = NULL;
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	int fd, timeout_ms = 10000, bufsize = 8 << 20;
	uint32_t run = 0;
	struct ifreq ifr;
	const char *why;
	uint8_t mac[6];
	uint64_t seq;
	ssize_t len;
	char *end;

	while ((c = getopt(argc, argv, "nc:d:s:S:r:w:")) != -1) {
		switch (c) {
		case 'n':
			no_echo = true;
			break;
		case 'S':
			if (sscanf(optarg, "%u-%u", &lo, &hi) == 1)
				hi = lo;
			else if (sscanf(optarg, "%u-%u", &lo, &hi) != 2)
				lo = 0;
			if (lo < FRAME_MIN || hi > FRAME_MAX || lo > hi)
				die(2, "-S: SIZE or MIN-MAX within %d-%d, not "
				    "\"%s\"", FRAME_MIN, FRAME_MAX, optarg);
			break;
		case 'r':
			run = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'w':
			window = strtoull(optarg, NULL, 0);
			break;
		case 'c':
			corrupt = atoll(optarg);
			break;
		case 'd':
			drop = atoll(optarg);
			break;
		case 's':
			swap = atoll(optarg);
			break;
		default:
			die(2, "usage: nic_reflect [-n] [-c SEQ] [-d SEQ] [-s SEQ] "
			    "[-S SIZE -r RUN [-w WINDOW]] IFACE COUNT [TIMEOUT_MS]");
		}
	}
	argc -= optind - 1;
	argv += optind - 1;
	if (argc < 3 || argc > 4)
		die(2, "usage: nic_reflect [-n] [-c SEQ] [-d SEQ] [-s SEQ] "
		    "[-S SIZE -r RUN [-w WINDOW]] IFACE COUNT [TIMEOUT_MS]");
	count = strtoull(argv[2], &end, 0);
	if (*end || !count)
		die(2, "COUNT: a number, not \"%s\"", argv[2]);
	if (argc == 4)
		timeout_ms = atoi(argv[3]);
	fd = socket(AF_PACKET, SOCK_RAW, htons(FRAME_ETHERTYPE));
	if (fd < 0)
		die(4, "socket: %s", strerror(errno));
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", argv[1]);
	if (ioctl(fd, SIOCGIFINDEX, &ifr))
		die(4, "%s: %s", argv[1], strerror(errno));
	sll.sll_ifindex = ifr.ifr_ifindex;
	sll.sll_protocol = htons(FRAME_ETHERTYPE);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr))
		die(4, "%s: no MAC address: %s", argv[1], strerror(errno));
	memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)))
		die(4, "bind: %s", strerror(errno));
	/* room for a window of large frames whatever the scheduling */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bufsize, sizeof(bufsize)))
		die(4, "SO_RCVBUFFORCE: %s", strerror(errno));
	printf("ready on %s\n", argv[1]);
	fflush(stdout);
	if (lo) {
		if (!run || !window)
			die(2, "-S needs -r RUN (not 0) and a WINDOW of 1 or more");
		return send_frames(fd, mac, count, lo, hi, run, window,
				   timeout_ms, corrupt);
	}
	if (no_echo) {
		seen = calloc(count / 8 + 1, 1);
		if (!seen)
			die(4, "no memory for %llu frames", count);
	}
	while (done < count) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int ready;

		/* a frame waiting is taken at once: poll(2) only when none is */
		len = recv(fd, f, sizeof(f), MSG_DONTWAIT);
		if (len < 0 && errno != EAGAIN && errno != EINTR)
			die(4, "recv: %s", strerror(errno));
		if (len < 0) {
			ready = poll(&pfd, 1, timeout_ms);
			if (ready < 0 && errno == EINTR)
				continue;
			if (ready < 0)
				die(4, "poll: %s", strerror(errno));
			if (!ready && no_echo && done)
				break;	/* the rest lost */
			if (!ready)
				die(3, "timeout: no frame for %d ms, %llu of "
				    "%llu reflected", timeout_ms, done, count);
			continue;
		}
		if (!frame_is_ours(f, (size_t)len) ||
		    (done && frame_get32(f + FRAME_OFF_RUN) != run)) {
			other++;
			continue;
		}
		seq = frame_get64(f + FRAME_OFF_SEQ);
		if (!done)
			run = frame_get32(f + FRAME_OFF_RUN);
		why = frame_fault(f, (size_t)len, FRAME_KIND_SENT);
		if (why)
			die(1, "bad frame: %llu of %zd bytes: %s",
			    (unsigned long long)seq, len, why);
		if (no_echo) {
			if (seq >= count || (seen[seq / 8] & (1u << (seq % 8))))
				die(1, "bad frame: %llu: %s",
				    (unsigned long long)seq, seq >= count ?
				    "past COUNT" : "repeated");
			seen[seq / 8] |= (uint8_t)(1u << (seq % 8));
			if (seq < next)
				late++;
			else
				next = seq + 1;
			done++;
			bytes += (unsigned long long)len;
			continue;
		}
		if (seq != done)
			die(1, "bad frame: %llu came when %llu was due",
			    (unsigned long long)seq, done);
		/* the echo: to the sender, from us, kind 2 */
		memcpy(f, f + 6, 6);
		memcpy(f + 6, mac, 6);
		f[FRAME_OFF_KIND] = FRAME_KIND_ECHO;
		frame_seal(f, (size_t)len);
		done++;
		bytes += (unsigned long long)len;
		if ((long long)seq == corrupt)
			f[len - 1] ^= 0x10;
		if ((long long)seq == drop)
			continue;
		if ((long long)seq == swap) {
			memcpy(held, f, (size_t)len);
			held_len = len;
			continue;
		}
		if (send(fd, f, (size_t)len, 0) != len)
			die(4, "send: %s", strerror(errno));
		if (held_len && send(fd, held, (size_t)held_len, 0) != held_len)
			die(4, "send: %s", strerror(errno));
		held_len = 0;
	}
	if (no_echo)
		printf("took %llu frames of run 0x%08x, %llu bytes, %llu other "
		       "frames, %llu lost, %llu late\n", done, run, bytes, other,
		       count - done, late);
	else
		printf("reflected %llu frames of run 0x%08x, %llu bytes, %llu "
		       "other frames\n", done, run, bytes, other);
	return 0;
}
