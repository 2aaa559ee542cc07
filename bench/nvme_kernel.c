// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvme_kernel.c - the kernel's nvme driver under the workload of
 * `udrv-nvme --workload randread`: random reads of 4 KiB through O_DIRECT
 * on a block device (/dev/nvme0n1), DEPTH in flight per ring, RINGS
 * io_uring instances (one thread each), for SECS seconds; with "poll",
 * the rings are IORING_SETUP_IOPOLL (completions polled on the driver's
 * poll queues: nvme.poll_queues=N).  Raw io_uring system calls, no
 * liburing, so the static guest binary needs nothing but the kernel's
 * headers.
 *
 * usage: nvme_kernel DEV DEPTH RINGS SECS [poll]
 *
 * Prints, as udrv-nvme does (bench/guest.sh parses both the same way):
 *   rate: N IOPS, X MiB/s
 *   latency: p50 A us, p99 B us, p99.9 C us, min D us, max E us
 * Exit 1 on any error (one line on stderr), 2 on usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/io_uring.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "now_ns.h"
#include "../examples/latency_hist.h"

#define IO_BYTES	4096

static const char *dev_path;
static unsigned int depth, secs;
static int polled;
static uint64_t units;

struct ring_thread {
	pthread_t tid;
	unsigned int nr;
	struct lat_hist lat;
	uint8_t *bufs;		/* DEPTH buffers of IO_BYTES */
	uint64_t *t0;		/* each slot's submission time */
	const char *error;
	int err;
};

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

#define FAIL(t, what) do { (t)->error = (what); (t)->err = errno; return NULL; } while (0)

static void *ring_main(void *arg)
{
	struct ring_thread *t = arg;
	struct io_uring_params p = { 0 };
	unsigned int *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
	uint64_t rng = 0x2545f4914f6cdd1dull + t->nr, end, *t0, now;
	unsigned int i, pending, head, tail, inflight;
	size_t sq_len, cq_len;
	uint8_t *sq_ring, *cq_ring, *bufs;
	long ret;
	int fd, ring;

	fd = open(dev_path, O_RDONLY | O_DIRECT);
	if (fd < 0)
		FAIL(t, "open");
	if (posix_memalign((void **)&t->bufs, 4096, (size_t)depth * IO_BYTES))
		FAIL(t, "posix_memalign");
	bufs = t->bufs;
	t->t0 = calloc(depth, sizeof(*t->t0));
	if (!t->t0)
		FAIL(t, "calloc");
	t0 = t->t0;
	if (polled)
		p.flags = IORING_SETUP_IOPOLL;
	ret = syscall(__NR_io_uring_setup, depth, &p);
	if (ret < 0)
		FAIL(t, "io_uring_setup");
	ring = (int)ret;	/* a file descriptor, an int in the kernel */
	sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (p.features & IORING_FEAT_SINGLE_MMAP) {
		if (cq_len > sq_len)
			sq_len = cq_len;
		cq_len = sq_len;
	}
	sq_ring = mmap(NULL, sq_len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, ring, IORING_OFF_SQ_RING);
	if (sq_ring == MAP_FAILED)
		FAIL(t, "mmap SQ ring");
	cq_ring = sq_ring;
	if (!(p.features & IORING_FEAT_SINGLE_MMAP)) {
		cq_ring = mmap(NULL, cq_len, PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_POPULATE, ring, IORING_OFF_CQ_RING);
		if (cq_ring == MAP_FAILED)
			FAIL(t, "mmap CQ ring");
	}
	sqes = mmap(NULL, p.sq_entries * sizeof(*sqes), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_POPULATE, ring, IORING_OFF_SQES);
	if (sqes == MAP_FAILED)
		FAIL(t, "mmap SQEs");
	sq_tail = (unsigned int *)(sq_ring + p.sq_off.tail);
	sq_mask = (unsigned int *)(sq_ring + p.sq_off.ring_mask);
	sq_array = (unsigned int *)(sq_ring + p.sq_off.array);
	cq_head = (unsigned int *)(cq_ring + p.cq_off.head);
	cq_tail = (unsigned int *)(cq_ring + p.cq_off.tail);
	cq_mask = (unsigned int *)(cq_ring + p.cq_off.ring_mask);
	cqes = (struct io_uring_cqe *)(cq_ring + p.cq_off.cqes);

	lat_hist_init(&t->lat);
	end = now_ns() + secs * 1000000000ull;
	pending = 0;
	/* slot i: sqe i, buffer i; resubmitted as it completes */
	for (i = 0; i < depth; i++) {
		struct io_uring_sqe *e = &sqes[i];

		memset(e, 0, sizeof(*e));
		e->opcode = IORING_OP_READ;
		e->fd = fd;
		e->addr = (uintptr_t)(bufs + (size_t)i * IO_BYTES);
		e->len = IO_BYTES;
		e->off = xorshift(&rng) % units * IO_BYTES;
		e->user_data = i;
		tail = *sq_tail;
		sq_array[tail & *sq_mask] = i;
		__atomic_store_n(sq_tail, tail + 1, __ATOMIC_RELEASE);
		t0[i] = now_ns();
		pending++;
	}
	inflight = depth;
	while (inflight) {
		if (syscall(__NR_io_uring_enter, ring, pending, 1,
			    IORING_ENTER_GETEVENTS, NULL, 0) < 0 && errno != EINTR)
			FAIL(t, "io_uring_enter");
		pending = 0;
		now = now_ns();
		head = *cq_head;
		tail = __atomic_load_n(cq_tail, __ATOMIC_ACQUIRE);
		for (; head != tail; head++) {
			struct io_uring_cqe *c = &cqes[head & *cq_mask];
			unsigned int slot = c->user_data;
			uint64_t lat = now - t0[slot];

			if (c->res != IO_BYTES) {
				errno = c->res < 0 ? -c->res : EIO;
				FAIL(t, "read");
			}
			lat_hist_add(&t->lat, lat);
			inflight--;
			if (now >= end)
				continue;
			sqes[slot].off = xorshift(&rng) % units * IO_BYTES;
			i = *sq_tail;
			sq_array[i & *sq_mask] = slot;
			__atomic_store_n(sq_tail, i + 1, __ATOMIC_RELEASE);
			t0[slot] = now;
			pending++;
			inflight++;
		}
		__atomic_store_n(cq_head, head, __ATOMIC_RELEASE);
	}
	close(ring);
	close(fd);
	return NULL;
}

int main(int argc, char **argv)
{
	struct ring_thread *th;
	static struct lat_hist lat;
	uint64_t t0, elapsed, bytes;
	unsigned int rings, i;
	int fd, status = 0;

	if (argc < 5 || argc > 6 || (argc == 6 && strcmp(argv[5], "poll"))) {
		fprintf(stderr, "usage: nvme_kernel DEV DEPTH RINGS SECS [poll]\n");
		return 2;
	}
	dev_path = argv[1];
	depth = atoi(argv[2]);
	rings = atoi(argv[3]);
	secs = atoi(argv[4]);
	polled = argc == 6;
	if (!depth || depth > 4096 || !rings || rings > 64 || !secs) {
		fprintf(stderr, "nvme_kernel: bad DEPTH, RINGS or SECS\n");
		return 2;
	}
	fd = open(dev_path, O_RDONLY);
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &bytes)) {
		fprintf(stderr, "nvme_kernel: %s: %s\n", dev_path, strerror(errno));
		return 1;
	}
	close(fd);
	units = bytes / IO_BYTES;
	if (!units) {
		fprintf(stderr, "nvme_kernel: %s: smaller than %d bytes\n",
			dev_path, IO_BYTES);
		return 1;
	}
	th = calloc(rings, sizeof(*th));
	if (!th) {
		fprintf(stderr, "nvme_kernel: out of memory\n");
		return 1;
	}
	lat_hist_init(&lat);
	t0 = now_ns();
	for (i = 0; i < rings; i++) {
		th[i].nr = i;
		if (pthread_create(&th[i].tid, NULL, ring_main, &th[i])) {
			/* the rings started run out and are joined below */
			fprintf(stderr, "nvme_kernel: pthread_create failed\n");
			rings = i;
			status = 1;
			break;
		}
	}
	for (i = 0; i < rings; i++)
		pthread_join(th[i].tid, NULL);
	elapsed = now_ns() - t0;
	for (i = 0; i < rings; i++) {
		free(th[i].bufs);
		free(th[i].t0);
		if (th[i].error) {
			fprintf(stderr, "nvme_kernel: ring %u: %s: %s\n", i,
				th[i].error, strerror(th[i].err));
			status = 1;
		}
		lat_hist_merge(&lat, &th[i].lat);
	}
	free(th);
	if (status)
		return status;
	/* counts and nanoseconds below 2^53: exact as doubles */
	printf("rate: %.0f IOPS, %.2f MiB/s\n",
	       (double)lat.n * 1e9 / (double)elapsed,
	       (double)lat.n * IO_BYTES * 1e9 / (double)elapsed / (1024 * 1024));
	lat_hist_print(&lat);
	return 0;
}
