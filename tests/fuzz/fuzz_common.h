/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_common.h - what the libFuzzer harnesses of iioctl share
 *
 * die() ends in exit(); the harnesses are linked with -Wl,--wrap=exit
 * (and popt statically, so its --help's exit is caught too): while a
 * harness runs an input, exit() jumps back to it instead of ending the
 * fuzzer.  Outside (libFuzzer's own exits) it is the real exit().
 *
 * The DEV and batch harnesses resolve against the host fixture
 * (tests/host/fixture.sh), which tests/fuzz/run builds and names in
 * IIOCTL_SYSFS and IIOCTL_DEV; the batch harness only ever runs commands
 * with iioctl_dry_run set, so it never writes to a node.
 */
#ifndef IIOCTL_FUZZ_COMMON_H
#define IIOCTL_FUZZ_COMMON_H

#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "device.h"

static jmp_buf fuzz_exit_jmp;
static volatile int fuzz_in_input;
static volatile int fuzz_exit_status;

noreturn void __real_exit(int status);
noreturn void __wrap_exit(int status);

void __wrap_exit(int status)
{
	if (fuzz_in_input) {
		fuzz_in_input = 0;
		fuzz_exit_status = status;
		longjmp(fuzz_exit_jmp, 1);
	}
	__real_exit(status);
}

/* Run CODE; evaluates to -1 if it returned, else the status it exited with. */
#define FUZZ_CATCH_EXIT(code) ({					\
	int fuzz_status_ = -1;						\
	if (!setjmp(fuzz_exit_jmp)) {					\
		fuzz_in_input = 1;					\
		code;							\
		fuzz_in_input = 0;					\
	} else {							\
		fuzz_status_ = fuzz_exit_status;			\
	}								\
	fuzz_status_;							\
})

/* The input as a NUL-terminated string (cut at its first NUL); free it. */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* Points iioctl at the fixture; aborts without it. */
static inline void fuzz_use_fixture(void)
{
	const char *sysfs = getenv("IIOCTL_SYSFS"), *dev = getenv("IIOCTL_DEV");

	if (!sysfs || !dev) {
		fprintf(stderr, "fuzz: IIOCTL_SYSFS and IIOCTL_DEV must name the fixture (tests/fuzz/run sets them)\n");
		abort();
	}
	device_set_roots(sysfs, dev);
}

/* A status iioctl may end with: 0..5 (130 only from wait-events' SIGINT). */
static inline void fuzz_check_status(int status)
{
	if (status < 0 || status > IIOCTL_ENOEVENTS) {
		fprintf(stderr, "fuzz: unexpected exit status %d\n", status);
		abort();
	}
}

#define FUZZ_ASSERT(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "fuzz: %s:%d: %s\n", __FILE__, __LINE__,	\
			#cond);						\
		abort();						\
	}								\
} while (0)

#endif
