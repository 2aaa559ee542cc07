# tests/fuzz/fuzz.mk - libFuzzer harnesses of iioctl's parsers, included
# by the top-level Makefile
#
#   make fuzz            builds build/fuzz/fuzz_{number,dev,batch,regmap,json} (clang,
#                        -fsanitize=fuzzer,address,undefined) and runs each
#                        for FUZZ_SECONDS (default 60) from the committed
#                        seeds (tests/fuzz/corpus/NAME) after replaying the
#                        regression inputs (tests/fuzz/regress/NAME); new
#                        inputs go to build/fuzz/corpus/NAME, crashes to
#                        build/fuzz/crash-NAME-*
#   make fuzz-build      only builds them
#   tests/fuzz/run       what make check runs: a few seconds each (why so
#                        few, and how long a fuzzer needs to find a form
#                        its oracle does not know: tests/fuzz/README)
#
# A crash found becomes a regression test: copy the crash-* file into
# tests/fuzz/regress/NAME/ with the fix.
#
# Also the packages of tests/analyze (sparse, cppcheck, clang-tidy,
# valgrind): one list for the fuzzing and the static analysis.

DEB_PACKAGES += clang libclang-rt-dev sparse cppcheck clang-tidy valgrind

FUZZ_SECONDS ?= 60
FUZZ_CC := clang
FUZZ_CFLAGS := -std=gnu11 -D_GNU_SOURCE -g -O1 -Wall -Wextra -Werror \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer -Icli -Ilib $(CLI_VERSION_FLAG)
# what iioctl takes from libudrv (lib/): its register maps and the
# internals it shares (lib/lib.mk)
FUZZ_UDRV_SRCS := lib/regmap.c $(UDRV_SHARED_SRCS)
# exit() returns to the harness (tests/fuzz/fuzz_common.h); popt is linked
# statically so that its --help exit is caught as well
FUZZ_LDFLAGS := -Wl,--wrap=exit
FUZZ_HDRS := tests/fuzz/fuzz_common.h $(wildcard cli/*.h) $(UDRV_HDRS)
FUZZ_BINS := $(BUILD)/fuzz/fuzz_number $(BUILD)/fuzz/fuzz_dev \
	$(BUILD)/fuzz/fuzz_batch $(BUILD)/fuzz/fuzz_regmap \
	$(BUILD)/fuzz/fuzz_json
# every source but main.c's main(), renamed away (libFuzzer has main)
FUZZ_BATCH_SRCS := $(filter-out cli/main.c,$(wildcard cli/*.c))

.PHONY: fuzz fuzz-build

fuzz-build: $(FUZZ_BINS)

fuzz: fuzz-build
	tests/fuzz/run --seconds $(FUZZ_SECONDS)

$(BUILD)/fuzz/fuzz_number: tests/fuzz/fuzz_number.c cli/common.c \
		lib/number.c $(FUZZ_HDRS) | deps
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< cli/common.c lib/number.c \
		$(FUZZ_LDFLAGS) $(CLI_POPT_STATIC)

$(BUILD)/fuzz/fuzz_regmap: tests/fuzz/fuzz_regmap.c $(FUZZ_UDRV_SRCS) \
		$(FUZZ_HDRS) | deps
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_UDRV_SRCS) $(FUZZ_LDFLAGS)

$(BUILD)/fuzz/fuzz_dev: tests/fuzz/fuzz_dev.c $(CLI_LIB_SRCS) \
		$(FUZZ_HDRS) | deps
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(CLI_LIB_SRCS) $(FUZZ_LDFLAGS) \
		$(CLI_POPT_STATIC)

$(BUILD)/fuzz/fuzz_batch: tests/fuzz/fuzz_batch.c $(FUZZ_BATCH_SRCS) \
		$(FUZZ_UDRV_SRCS) cli/main.c $(FUZZ_HDRS) | deps
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -Dmain=iioctl_main -o $@-main.o cli/main.c
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_BATCH_SRCS) \
		$(FUZZ_UDRV_SRCS) $@-main.o $(FUZZ_LDFLAGS) $(CLI_POPT_STATIC)

# the JSON oracle (tests/fuzz/json_check.h) over list -j and info -j of a
# device whose sysfs attributes are the input (main.c's command table)
$(BUILD)/fuzz/fuzz_json: tests/fuzz/fuzz_json.c tests/fuzz/json_check.h \
		$(FUZZ_BATCH_SRCS) $(FUZZ_UDRV_SRCS) cli/main.c $(FUZZ_HDRS) | deps
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -Dmain=iioctl_main -o $@-main.o cli/main.c
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_BATCH_SRCS) \
		$(FUZZ_UDRV_SRCS) $@-main.o $(FUZZ_LDFLAGS) $(CLI_POPT_STATIC)
