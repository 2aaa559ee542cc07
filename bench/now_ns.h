/* SPDX-License-Identifier: GPL-2.0-only */
/* now_ns.h - the benchmark programs' clock: CLOCK_MONOTONIC nanoseconds */
#ifndef BENCH_NOW_NS_H
#define BENCH_NOW_NS_H

#include <stdint.h>
#include <time.h>

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
