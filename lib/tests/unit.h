/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * unit.h - the host unit tests' harness (lib/tests/test_*.c): each case
 * runs in a child process of its own, so a crash, a signal or a leak
 * report fails that case alone; unit_main() prints "PASS host/SUITE/NAME"
 * or "FAIL host/SUITE/NAME: why" per case and returns 1 if any failed.
 * usage of a test program: PROGRAM [CASE]
 */
#ifndef UDRV_UNIT_H
#define UDRV_UNIT_H

#include <stddef.h>

#include "udrv.h"

struct unit_case {
	const char *name;
	void (*fn)(void);
};

#define UNIT_CASE(f) { #f, f }

int unit_main(const char *suite, const struct unit_case *cases, size_t n,
	      int argc, char **argv);

/* end the running case with a FAIL line */
__attribute__((format(printf, 3, 4), noreturn))
void unit_fail(const char *file, int line, const char *fmt, ...);

#define FAIL(...) unit_fail(__FILE__, __LINE__, __VA_ARGS__)
#define EXPECT(c) do { if (!(c)) FAIL("%s (udrv: %s)", #c, \
				     udrv_strerror()); } while (0)
#define EXPECT_EQ(a, b) do { long long a_ = (long long)(a), \
	b_ = (long long)(b); if (a_ != b_) FAIL("%s is %lld, expected %lld " \
	"(udrv: %s)", #a, a_, b_, udrv_strerror()); } while (0)

#endif
