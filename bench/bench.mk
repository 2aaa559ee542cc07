# bench/bench.mk - make bench, included by the top-level Makefile
#
#   make bench       builds what the guest needs, boots it once and prints
#                    the table of ours against the peers (bench/run; the
#                    table also goes to build/bench/RESULTS.md)
#   make bench-save  the same, and the table becomes bench/RESULTS.md
#
# The benchmark programs are static guest binaries in build/bench/; bench/run
# delivers them with qemu/run --overlay (they are not in the initramfs).

BENCH_SRCS := $(wildcard bench/*.c)
BENCH_BINS := $(patsubst bench/%.c,$(BUILD)/bench/%,$(BENCH_SRCS))

.PHONY: bench bench-save bench-bins

bench-bins: $(BENCH_BINS)

$(BUILD)/bench/%: bench/%.c bench/now_ns.h examples/latency_hist.h \
		tests/lib/iio_raw.c tests/lib/iio_raw.h lib/udrv.h \
		$(BUILD)/lib/guest/libudrv.a | deps
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -Ilib -o $@ $< tests/lib/iio_raw.c \
		$(BUILD)/lib/guest/libudrv.a

bench: modules cli kernel initramfs bench-bins
	bench/run

bench-save: modules cli kernel initramfs bench-bins
	bench/run --save
