// SPDX-License-Identifier: GPL-2.0-only
/*
 * memread.c - fill a region node with a pattern, and read it whole by
 * read() or through mmap()
 *
 * usage: memread fill NODE       fill NODE (a kernel-memory region) with
 *                                pseudo-random bytes through a mapping, so
 *                                no two 16-byte lines repeat (no folding)
 *        memread read FILE BUF   read() FILE (a node, or a file of the same
 *                                size to compare with) to its end in
 *                                BUF-byte calls
 *        memread mmap NODE       map NODE and copy it out in 1 MiB pieces
 * read and mmap print "bytes ns".
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "now_ns.h"
#include "../tests/lib/iio_raw.h"

/* the region size of a node /dev/iioN */
static size_t node_size(const char *node)
{
	long long size;
	int nr;

	if (sscanf(node, "/dev/iio%d", &nr) != 1) {
		fprintf(stderr, "memread: %s: not a node /dev/iioN\n", node);
		exit(1);
	}
	size = iio_raw_attr_num(nr, "size");
	if (size < 0) {
		fprintf(stderr, "memread: %s\n", iio_raw_error());
		exit(1);
	}
	return (size_t)size;
}

static void *map(const char *node, size_t size, int prot, int *fdp)
{
	int fd = open(node, (prot & PROT_WRITE) ? O_RDWR : O_RDONLY);
	void *p;

	if (fd < 0) {
		perror(node);
		exit(1);
	}
	p = mmap(NULL, size, prot, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	*fdp = fd;
	return p;
}

int main(int argc, char **argv)
{
	uint64_t t0, t1, x = 0x9e3779b97f4a7c15ull, *q;
	size_t size, i, done = 0, bufsz;
	unsigned char *p, *buf;
	ssize_t n;
	int fd;

	if (argc < 3) {
		fprintf(stderr, "usage: memread fill|read|mmap NODE [BUF]\n");
		return 2;
	}
	size = strcmp(argv[1], "read") ? node_size(argv[2]) : 0;
	if (!strcmp(argv[1], "fill")) {
		q = map(argv[2], size, PROT_READ | PROT_WRITE, &fd);
		for (i = 0; i < size / 8; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			q[i] = x;
		}
		munmap(q, size);
		close(fd);
		return 0;
	}
	if (!strcmp(argv[1], "read")) {
		bufsz = argc > 3 ? (size_t)strtoul(argv[3], NULL, 0) : 1 << 20;
		buf = malloc(bufsz);
		if (!buf) {
			perror("memread: BUF");
			return 1;
		}
		fd = open(argv[2], O_RDONLY);
		if (fd < 0) {
			perror(argv[2]);
			free(buf);
			return 1;
		}
		t0 = now_ns();
		while ((n = read(fd, buf, bufsz)) > 0)
			done += (size_t)n;
		t1 = now_ns();
		if (n < 0)
			perror("read");
		close(fd);
		free(buf);
		if (n < 0)
			return 1;
	} else if (!strcmp(argv[1], "mmap")) {
		buf = malloc(1 << 20);
		if (!buf) {
			perror("memread");
			return 1;
		}
		t0 = now_ns();
		p = map(argv[2], size, PROT_READ, &fd);
		for (done = 0; done < size; done += 1 << 20)
			memcpy(buf, p + done, size - done < (1 << 20) ?
			       size - done : 1 << 20);
		munmap(p, size);
		t1 = now_ns();
		close(fd);
		free(buf);
	} else {
		fprintf(stderr, "memread: unknown mode %s\n", argv[1]);
		return 2;
	}
	printf("%zu %llu\n", done, (unsigned long long)(t1 - t0));
	return 0;
}
