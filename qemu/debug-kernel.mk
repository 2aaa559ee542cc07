# qemu/debug-kernel.mk - make debug-kernel, make check-debug, make
# kcsan-kernel and make check-kcsan, included by the top-level Makefile
#
#   make debug-kernel   the debug kernel (qemu/debug-kernel.config:
#                       lockdep, KASAN, UBSAN, KFENCE, debug objects, fault
#                       injection, kmemleak ...) from Debian's linux-source
#                       of the headers' version, and our modules built
#                       against it, in build/debug-kernel/
#                       (qemu/build-debug-kernel)
#   make check-debug    every guest test program and golden case, then a
#                       bounded stress and syscall-fuzz run
#                       (CHECK_DEBUG_STRESS_SECONDS, default 120) and the
#                       fuzzer under random allocation failures
#                       (make stress-faults, CHECK_DEBUG_FAULTS_SECONDS,
#                       default 120), under the debug kernel with two CPUs;
#                       ends with "N passed, N failed" (tests/check-debug)
#   make kcsan-kernel   the KCSAN kernel (qemu/kcsan-kernel.config: the
#                       data-race detector, which 6.1 cannot build with
#                       KASAN), in build/kcsan-kernel/, the same way
#   make check-kcsan    the guest suite and the stress run under it (not
#                       part of CI: tests/README.md, "Data races: the KCSAN kernel")

CHECK_DEBUG_STRESS_SECONDS ?= 120
CHECK_DEBUG_FAULTS_SECONDS ?= 120

.PHONY: debug-kernel check-debug kcsan-kernel check-kcsan

debug-kernel: deps
	qemu/build-debug-kernel debug

check-debug: debug-kernel tests cli
	CHECK_DEBUG_STRESS_SECONDS=$(CHECK_DEBUG_STRESS_SECONDS) \
	CHECK_DEBUG_FAULTS_SECONDS=$(CHECK_DEBUG_FAULTS_SECONDS) \
		tests/check-debug debug

kcsan-kernel: deps
	qemu/build-debug-kernel kcsan

check-kcsan: kcsan-kernel tests cli
	CHECK_DEBUG_STRESS_SECONDS=$(CHECK_DEBUG_STRESS_SECONDS) \
		tests/check-debug kcsan
