/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * latency_hist.h - command latencies in a log-linear histogram, and the
 * "latency:" line iio_nvme and bench/nvme_kernel both print (bench/guest.sh
 * parses the two the same way).  Values below 64 ns are exact, above in 64
 * steps per power of two (1.6 % wide).
 */
#ifndef LATENCY_HIST_H
#define LATENCY_HIST_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define LAT_HIST_BUCKETS	(59 * 64)

struct lat_hist {
	uint64_t bucket[LAT_HIST_BUCKETS];
	uint64_t n, min, max;		/* samples, smallest, largest (ns) */
};

static inline void lat_hist_init(struct lat_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = ~0ull;
}

static inline unsigned int lat_hist_index(uint64_t ns)
{
	unsigned int e;

	if (ns < 64)
		return ns;
	e = 63 - __builtin_clzll(ns);
	return (e - 5) * 64 + ((ns >> (e - 6)) & 63);
}

/* the smallest value of bucket @i */
static inline uint64_t lat_hist_value(unsigned int i)
{
	if (i < 64)
		return i;
	return (uint64_t)(64 + i % 64) << (i / 64 - 1);
}

static inline void lat_hist_add(struct lat_hist *h, uint64_t ns)
{
	h->bucket[lat_hist_index(ns)]++;
	h->n++;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
}

static inline void lat_hist_merge(struct lat_hist *to,
				  const struct lat_hist *from)
{
	unsigned int i;

	for (i = 0; i < LAT_HIST_BUCKETS; i++)
		to->bucket[i] += from->bucket[i];
	to->n += from->n;
	if (from->min < to->min)
		to->min = from->min;
	if (from->max > to->max)
		to->max = from->max;
}

/* the latency in µs below which fraction @p of the samples lie */
static inline double lat_hist_percentile_us(const struct lat_hist *h,
					    double p)
{
	uint64_t want = (uint64_t)(p * h->n), seen = 0;
	unsigned int i;

	if (want < p * h->n || !want)
		want++;
	for (i = 0; i < LAT_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= want)
			return lat_hist_value(i) / 1e3;
	}
	return h->max / 1e3;
}

/* "latency: p50 A us, p99 B us, p99.9 C us, min D us, max E us" */
static inline void lat_hist_print(const struct lat_hist *h)
{
	printf("latency: p50 %.1f us, p99 %.1f us, p99.9 %.1f us, "
	       "min %.1f us, max %.1f us\n", lat_hist_percentile_us(h, 0.5),
	       lat_hist_percentile_us(h, 0.99),
	       lat_hist_percentile_us(h, 0.999), h->min / 1e3, h->max / 1e3);
}

#endif
