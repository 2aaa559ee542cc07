// SPDX-License-Identifier: GPL-2.0-only
/*
 * pokes.c - N register stores from one C program: the floor for iioctl
 * batch
 *
 * usage: pokes mmap|pwrite NODE OFFSET N
 *
 * mmap: map NODE and store the 32-bit values 1..N to OFFSET (volatile);
 * pwrite: the same as N 4-byte pwrite()s (one syscall each).  Mapping and
 * opening are included.  Prints the nanoseconds it took.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "now_ns.h"

int main(int argc, char **argv)
{
	volatile uint32_t *regs;
	unsigned long off, n, i;
	uint64_t t0, t1;
	uint32_t v;
	int fd;

	if (argc != 5) {
		fprintf(stderr, "usage: pokes mmap|pwrite NODE OFFSET N\n");
		return 2;
	}
	off = strtoul(argv[3], NULL, 0);
	n = strtoul(argv[4], NULL, 0);
	t0 = now_ns();
	fd = open(argv[2], O_RDWR);
	if (fd < 0) {
		perror(argv[2]);
		return 1;
	}
	if (!strcmp(argv[1], "mmap")) {
		regs = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			    (off_t)(off & ~4095ul));
		if (regs == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		for (i = 1; i <= n; i++)
			regs[(off & 4095) / 4] = (uint32_t)i;
		munmap((void *)regs, 4096);
	} else {
		for (i = 1; i <= n; i++) {
			v = (uint32_t)i;
			if (pwrite(fd, &v, 4, (off_t)off) != 4) {
				perror("pwrite");
				return 1;
			}
		}
	}
	close(fd);
	t1 = now_ns();
	printf("%llu\n", (unsigned long long)(t1 - t0));
	return 0;
}
