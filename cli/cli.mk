# cli/cli.mk - iioctl, included by the top-level Makefile
#
#   make cli            build/guest-bin/iioctl (static, for the guest's
#                       /usr/bin) and build/cli/iioctl (host, ASan+UBSan)
#                       plus the host test programs (build/cli/test_*)
#   make release        build/release/iioctl, what make install installs:
#                       dynamic (libpopt), the distribution's CFLAGS,
#                       CPPFLAGS and LDFLAGS (dpkg-buildflags), no -Werror
#                       and no make deps
#   tests/host/run      the host tests (built by `make cli`)
#
# iioctl is built on libudrv (lib/, its register maps: udrv_regmap_parse(3))
# and links it statically, the guest's build/lib/guest/libudrv.a in the
# static guest binary and build/lib/libudrv.a in the host one and in the
# release one (what make install installs): nothing more is needed at run
# time but libpopt.
#   make golden-update  boots the guest, reruns every case of tests/golden
#                       and rewrites each case's expected stdout, stderr
#                       and status with what the guest printed, for review
#                       with `git diff tests/golden` (see tests/golden/README)

DEB_PACKAGES += libpopt-dev

CLI_SRCS := $(wildcard cli/*.c)
CLI_HDRS := $(wildcard cli/*.h)
# the helpers (not the commands), for the host unit test programs, and
# what they take from libudrv: its device lookup, number parser,
# exact-width accesses and SIGBUS handling (lib/lib.mk's UDRV_SHARED_SRCS),
# internal to the library but in libudrv.a
CLI_LIB_SRCS := cli/common.c cli/device.c cli/columns.c cli/pci_ident.c \
	cli/region.c \
	$(UDRV_SHARED_SRCS)
# one version: the framework's (kmod/iio_core.c, /sys/class/iio/version)
IIO_VERSION := $(shell sed -n 's/^\#define IIO_FRAMEWORK_VERSION[[:space:]]*"\(.*\)"/\1/p' kmod/iio_core.c)
CLI_VERSION_FLAG := -DIIOCTL_VERSION='"$(IIO_VERSION)"'
CLI_RELEASE_CFLAGS := -std=gnu11 -Wall -Wextra -D_GNU_SOURCE -Ilib \
	$(CLI_VERSION_FLAG)
CLI_CFLAGS := $(CLI_RELEASE_CFLAGS) -Werror -g
CLI_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
CLI_POPT_STATIC := /usr/lib/x86_64-linux-gnu/libpopt.a
CLI_HOST_TESTS := $(patsubst tests/host/%.c,$(BUILD)/cli/%,\
	$(wildcard tests/host/test_*.c))

.PHONY: golden-update

release: $(BUILD)/release/iioctl
# CFLAGS: the caller's, else -O2 -g (as lib/lib.mk's); libudrv statically,
# its release build (lib/lib.mk), as the other builds link it
$(BUILD)/release/iioctl: $(CLI_SRCS) $(CLI_HDRS) kmod/iio_core.c $(UDRV_HDRS) \
		$(BUILD)/lib/libudrv.a
	@mkdir -p $(@D)
	$(CC) $(CLI_RELEASE_CFLAGS) $(CPPFLAGS) $(or $(CFLAGS),-O2 -g) $(LDFLAGS) \
		-o $@ $(CLI_SRCS) $(BUILD)/lib/libudrv.a -lpopt

cli: $(BUILD)/guest-bin/iioctl $(BUILD)/cli/iioctl $(CLI_HOST_TESTS)

$(BUILD)/guest-bin/iioctl: $(CLI_SRCS) $(CLI_HDRS) kmod/iio_core.c \
		$(UDRV_HDRS) $(BUILD)/lib/guest/libudrv.a | deps
	@mkdir -p $(@D)
	$(CC) $(CLI_CFLAGS) -O2 -static -o $@ $(CLI_SRCS) \
		$(BUILD)/lib/guest/libudrv.a $(CLI_POPT_STATIC)

$(BUILD)/cli/iioctl: $(CLI_SRCS) $(CLI_HDRS) kmod/iio_core.c $(UDRV_HDRS) \
		$(BUILD)/lib/libudrv.a | deps
	@mkdir -p $(@D)
	$(CC) $(CLI_CFLAGS) -O1 $(CLI_SAN) -o $@ $(CLI_SRCS) \
		$(BUILD)/lib/libudrv.a -lpopt

$(BUILD)/cli/test_%: tests/host/test_%.c $(CLI_LIB_SRCS) $(CLI_HDRS) \
		$(UDRV_HDRS) | deps
	@mkdir -p $(@D)
	$(CC) $(CLI_CFLAGS) -O1 $(CLI_SAN) -Icli -o $@ $< $(CLI_LIB_SRCS) -lpopt

golden-update: cli initramfs
	cli/golden-update

# the NIC example's frames, tested among the units
$(BUILD)/cli/test_units: examples/e1000e_frame.h
