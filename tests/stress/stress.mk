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
# and kernel log under build/logs/stress-*.

STRESS_SECONDS ?= 600
STRESS_SEED ?=
STRESS_PROGS := test_stress test_fuzz_syscalls

.PHONY: stress

stress: tests cli modules initramfs
	@half=$$(( $(STRESS_SECONDS) / 2 )); \
	stamp=$$(date +%Y%m%d-%H%M%S); \
	log=$(BUILD)/logs/stress-$$stamp.log; out=$(BUILD)/logs/stress-$$stamp.out; \
	overlay=$$(mktemp -d); trap 'rm -rf "$$overlay"' EXIT; \
	mkdir -p "$$overlay/tests/bin" $(BUILD)/logs; \
	for p in $(STRESS_PROGS); do cp $(BUILD)/tests/$$p "$$overlay/tests/bin/" || exit 2; done; \
	cp tests/guest/run-tests "$$overlay/tests/"; \
	append="slub_debug=FZPU iio.enable_unsafe_noiommu_mode=1 iio_test.seconds=$$half"; \
	[ -z "$(STRESS_SEED)" ] || append="$$append iio_test.seed=$(STRESS_SEED)"; \
	echo "make stress: $(STRESS_SECONDS) s ($$append), kernel log in $$log"; \
	{ QEMU_SMP=$${QEMU_SMP:-2} qemu/run --log "$$log" \
		--timeout $$(( $(STRESS_SECONDS) + 900 )) --append "$$append" \
		--overlay "$$overlay" -- /tests/run-tests $(STRESS_PROGS); \
	  echo $$? > "$$out.status"; } | tee "$$out"; \
	status=$$(cat "$$out.status"); rm -f "$$out.status"; \
	passed=$$(grep -c '^PASS ' "$$out"); failed=$$(grep -c '^FAIL ' "$$out"); \
	if [ "$$status" = 0 ]; then echo "PASS stress/kernel-log-clean"; passed=$$((passed + 1)); \
	else echo "FAIL stress/kernel-log-clean: qemu/run exited $$status, kernel log in $$log"; failed=$$((failed + 1)); fi; \
	if [ "$$passed" -le 1 ]; then echo "FAIL stress/ran-tests: no test result came back"; failed=$$((failed + 1)); fi; \
	echo "$$passed passed, $$failed failed"; \
	[ "$$failed" = 0 ]
