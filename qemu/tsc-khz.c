// SPDX-License-Identifier: GPL-2.0
/*
 * qemu/tsc-khz - print the host's TSC frequency in kHz, measured
 *
 * usage: tsc-khz
 *
 * Under TCG a guest's TSC is the host's (QEMU's cpu_get_ticks() reads
 * the host's rdtsc), so this is the frequency the guest kernel should
 * find; qemu/run hands it over as tsc_early_khz= (it says why).  Two
 * (CLOCK_MONOTONIC_RAW, TSC) pairs 100 ms apart, each the tightest of 200
 * reads (a read preempted between the clock and the TSC is a wide one and
 * is not taken), so host load costs accuracy only if every read of a
 * pair was preempted.  Exit status 1 (and nothing printed) when no
 * tight pair was found or the result is not plausible.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* the tightest of 200 (clock, TSC) reads; returns its width in ns */
static uint64_t pair(uint64_t *ns, uint64_t *tsc)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 200; i++) {
		uint64_t a = now_ns();
		uint64_t t = __rdtsc();
		uint64_t b = now_ns();

		if (b - a < best) {
			best = b - a;
			*ns = a + (b - a) / 2;
			*tsc = t;
		}
	}
	return best;
}

int main(void)
{
	struct timespec wait = { 0, 100000000 };
	uint64_t n0, c0, n1, c1, khz;

	if (pair(&n0, &c0) > 20000)
		return 1;
	nanosleep(&wait, NULL);
	if (pair(&n1, &c1) > 20000 || n1 <= n0 || c1 <= c0)
		return 1;
	khz = (uint64_t)((double)(c1 - c0) * 1e6 / (double)(n1 - n0) + 0.5);
	if (khz < 100000 || khz > 10000000)
		return 1;
	printf("%llu\n", (unsigned long long)khz);
	return 0;
}
