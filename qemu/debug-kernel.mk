# qemu/debug-kernel.mk - make debug-kernel and make check-debug, included
# by the top-level Makefile
#
#   make debug-kernel   the debug kernel (qemu/debug-kernel.config:
#                       lockdep, KASAN, UBSAN, KFENCE, debug objects ...)
#                       from Debian's linux-source of the headers' version,
#                       and our modules built against it, in
#                       build/debug-kernel/ (qemu/build-debug-kernel)
#   make check-debug    every guest test program and golden case, then a
#                       bounded stress and syscall-fuzz run
#                       (CHECK_DEBUG_STRESS_SECONDS, default 120), under
#                       the debug kernel with two CPUs; ends with
#                       "N passed, N failed" (tests/check-debug)

CHECK_DEBUG_STRESS_SECONDS ?= 120

.PHONY: debug-kernel check-debug

debug-kernel: deps
	qemu/build-debug-kernel

check-debug: debug-kernel tests cli
	CHECK_DEBUG_STRESS_SECONDS=$(CHECK_DEBUG_STRESS_SECONDS) tests/check-debug
