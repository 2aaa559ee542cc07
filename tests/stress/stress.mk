# tests/stress/stress.mk - make stress, included by the top-level Makefile
#
#   make stress [STRESS_SECONDS=600] [STRESS_SEED=N]
#
# One guest boot (two CPUs, slub_debug=FZPU, iio.enable_unsafe_noiommu_mode=1
# for the DMA buffers) running the guest stress
# (tests/test_stress.c: every kind of listener, a writer, the dummy's
# timer at 2 kHz and reload/unbind cycles under them; numbers back to
# iio0; slab growth over 200 load/unload cycles) and the syscall fuzzer
# (tests/test_fuzz_syscalls.c), each for half of STRESS_SECONDS
# (iio_test.seconds on the kernel command line).  STRESS_SEED replays a
# fuzzer seed (the "# seed N" line it prints).  Ends with "N passed,
# N failed" like make check; the kernel log must stay clean (no oops,
# BUG, WARNING, lockdep or slub poison report: qemu/run checks).  Output
# and kernel log under build/logs/stress-*.  QEMU_KERNEL=debug (or kcsan)
# in the environment boots that kernel instead (tests/check-debug does).
#
#   make stress-faults [STRESS_SECONDS=600] [STRESS_FAIL_PERCENT=1]
#
# The same boot under the debug kernel's fault injection (make
# debug-kernel): the syscall fuzzer alone, for all of STRESS_SECONDS,
# with STRESS_FAIL_PERCENT % of the slab and page allocations of its
# fuzzed calls and of its cycler's loads, unloads, binds and unbinds
# failed at random (iio_test.fail_percent: tests/test_fuzz_syscalls.c says
# how and why only those); the kernel log may show the injections' own
# lines and nothing else that qemu/log-check calls a problem, and every
# device works at the end.  (test_stress's exact counts cannot hold when
# its own calls fail: it is not part of it.)  STRESS_FAIL_PERCENT=N on
# make stress does the same under whatever kernel QEMU_KERNEL names.

STRESS_SECONDS ?= 600
STRESS_SEED ?=
STRESS_FAIL_PERCENT ?=
STRESS_PROGS := $(if $(STRESS_FAIL_PERCENT),test_fuzz_syscalls,test_stress test_fuzz_syscalls)

.PHONY: stress stress-faults

stress-faults: debug-kernel
	@QEMU_KERNEL=debug $(MAKE) -s --no-print-directory stress \
		STRESS_SECONDS=$(STRESS_SECONDS) STRESS_SEED=$(STRESS_SEED) \
		STRESS_FAIL_PERCENT=$(or $(STRESS_FAIL_PERCENT),1)

stress: tests cli modules initramfs
	@half=$$(( $(STRESS_SECONDS) / $(words $(STRESS_PROGS)) )); \
	stamp=$$(date +%Y%m%d-%H%M%S)$(if $(STRESS_FAIL_PERCENT),-faults); \
	log=$(BUILD)/logs/stress-$$stamp.log; out=$(BUILD)/logs/stress-$$stamp.out; \
	overlay=$$(mktemp -d); trap 'rm -rf "$$overlay"' EXIT; \
	mkdir -p "$$overlay/tests/bin" $(BUILD)/logs; \
	for p in $(STRESS_PROGS); do cp $(BUILD)/tests/$$p "$$overlay/tests/bin/" || exit 2; done; \
	cp tests/guest/run-tests "$$overlay/tests/"; \
	append="slub_debug=FZPU iio.enable_unsafe_noiommu_mode=1 iio_test.seconds=$$half"; \
	[ -z "$(STRESS_SEED)" ] || append="$$append iio_test.seed=$(STRESS_SEED)"; \
	[ -z "$(STRESS_FAIL_PERCENT)" ] || append="$$append iio_test.fail_percent=$(STRESS_FAIL_PERCENT)"; \
	echo "make stress: $(STRESS_SECONDS) s ($$append), kernel log in $$log"; \
	{ QEMU_SMP=$${QEMU_SMP:-2} qemu/run --log "$$log" \
		--timeout $$(( $(STRESS_SECONDS) + 900 )) --append "$$append" \
		--overlay "$$overlay" -- /tests/run-tests --timeout $$(( half + 300 )) $(STRESS_PROGS); \
	  echo $$? > "$$out.status"; } | tee "$$out"; \
	status=$$(cat "$$out.status"); rm -f "$$out.status"; \
	passed=$$(grep -c '^PASS ' "$$out"); failed=$$(grep -c '^FAIL ' "$$out"); \
	if [ "$$status" = 0 ]; then echo "PASS stress/kernel-log-clean"; passed=$$((passed + 1)); \
	else echo "FAIL stress/kernel-log-clean: qemu/run exited $$status, kernel log in $$log"; failed=$$((failed + 1)); fi; \
	if [ $$(( passed + failed )) -le 1 ]; then echo "FAIL stress/ran-tests: no test result came back"; failed=$$((failed + 1)); fi; \
	echo "$$passed passed, $$failed failed"; \
	[ "$$failed" = 0 ]
