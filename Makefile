# iio: user-space I/O framework and its tools.  See README.md.
#
#   make          the release build: iioctl (dynamic, with the
#                 distribution's CFLAGS, CPPFLAGS and LDFLAGS, no -Werror),
#                 libudrv, the man pages; needs only gcc, make, libpopt-dev
#                 and scdoc (no root, network, apt-get or test tools)
#   make all      modules, guest test programs, kernel image, initramfs
#   make check    every test; ends with "N passed, N failed"
#   make demo     boots the guest: a tour of iioctl and the framework
#   make check-debug   the guest suite and a short stress run under the
#                 debug kernel (make debug-kernel: lockdep, KASAN ...)
#   make deps     installs the Debian packages the project needs (as root)
#   make install  iioctl, the man pages and the completions, into
#                 $(DESTDIR)$(PREFIX) (PREFIX=/usr/local); make uninstall
#   make modules_install   the modules for KVER (see qemu/kbuild)
#   make check-kernels   make check on every kernel of qemu/kernels
#                 (Debian 12's, 6.12 and the newest); KVER=... picks the
#                 kernel of every other target, KERNELS=... some of them
#   make deb      the Debian packages (debian/) in build/deb/, lintian-clean
#   make check-deb   make deb, then the packages installed, used, removed
#                 and purged in clean Debian 12 and 13 roots (tests/deb/)
#   make mutate   applies each mutant of tests/mutants/ and runs the tests
#                 it names (not part of make check)
#   make clean

# Debian packages the build and the tests need; `make deps` installs the
# missing ones, and every other target runs it first.  (The other kernels'
# packages come through qemu/apt, never installed: see qemu/kernels.)
DEB_PACKAGES := gcc make libc6-dev linux-headers-amd64 qemu-system-x86 \
	busybox-static cpio kmod python3 perl xz-utils zstd dkms dwarves \
	mmdebstrap

BUILD := build
# gcc unless the caller names a compiler (dpkg-buildpackage, CC=clang)
ifeq ($(origin CC),default)
CC := gcc
endif
# The guest runs static binaries; the host builds them.
GUEST_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -static

TEST_SRCS := $(wildcard tests/test_*.c)
TEST_LIB := tests/lib/check.c tests/lib/iio_test.c tests/lib/nvme_test.c \
	tests/lib/nic_test.c tests/lib/iio_raw.c $(BUILD)/lib/guest/libudrv.a
TEST_HDRS := tests/lib/check.h tests/lib/iio_test.h tests/lib/nvme_test.h \
	tests/lib/nic_test.h kmod/iio_uapi.h \
	tests/lib/iio_raw.h lib/udrv.h examples/e1000e_frame.h
TEST_BINS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRCS))
# programs the tests run (tests/helpers/, /tests/helpers/ in the guest)
HELPER_SRCS := $(wildcard tests/helpers/*.c)
HELPER_BINS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(HELPER_SRCS))

.PHONY: all release deps modules tests cli man kernel initramfs check demo \
	clean install uninstall modules_install

# `make` alone is the release build (what make install installs);
# `make all` is the development build (make check's)
.DEFAULT_GOAL := release
all: modules tests cli lib kernel initramfs man

# lib/lib.mk: libudrv, the library for user-space drivers (shared,
# static, pkg-config, the guest's static copy, its host unit tests);
# before cli.mk, which names its sources and headers.
-include lib/lib.mk
lib: deps
# cli/cli.mk: the iioctl build (target cli; the static guest binary goes
# to build/guest-bin/, which qemu/mkinitramfs puts on the guest's PATH),
# its host tests (tests/host/run) and golden-update.
-include cli/cli.mk
cli: deps
# man/man.mk: the manual pages (scdoc) into build/man/; man/lint checks them.
-include man/man.mk
man: deps
# completions/completions.mk: the shell completions (bash, zsh, fish) and
# their test's packages.
-include completions/completions.mk
# bench/bench.mk: make bench, one guest boot, ours against the peers.
-include bench/bench.mk
# tests/fuzz/fuzz.mk: make fuzz, libFuzzer harnesses of the tool's parsers.
-include tests/fuzz/fuzz.mk
# examples/examples.mk: the drivers on libudrv (edu, NVMe), built for the
# guest and run by the guest tests.
-include examples/examples.mk
# tests/stress/stress.mk: make stress, the long guest stress and syscall fuzz.
-include tests/stress/stress.mk
# tests/widths/widths.mk: the guest half of tests/widths/run, the
# device-side proof of access widths.
-include tests/widths/widths.mk
# tests/intx-config/intx-config.mk: the guest half of tests/intx-config/run,
# the device-side proof of the INTx round trip's configuration-space reads.
-include tests/intx-config/intx-config.mk
# tests/mutants/mutants.mk: make mutate, the mutation score of the suite.
-include tests/mutants/mutants.mk
# qemu/debug-kernel.mk: make debug-kernel (lockdep, KASAN, UBSAN, KFENCE,
# debug objects) and make check-debug, the guest suite under it.
-include qemu/debug-kernel.mk

# make -s print-VAR: a variable's value (tests/analyze reads the list of
# libudrv's internals iioctl shares, UDRV_SHARED_SRCS, from here)
print-%:
	@echo $($*)

deps:
	@missing=$$(for p in $(DEB_PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
			grep -q 'install ok installed' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
		echo "make deps: installing" $$missing; \
		apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends $$missing; \
	fi

# the Debian packages (tests/deb/build: dpkg-buildpackage in build/deb/,
# lintian) and their installation test in Debian 12 and 13 roots made by
# mmdebstrap (tests/deb/run); debian/control's Build-Depends are what a
# package build needs, these what make deb needs besides
DEB_PACKAGES += debhelper dh-dkms dpkg-dev lintian
.PHONY: deb check-deb
deb: deps
	tests/deb/build
check-deb: all
	tests/deb/run

# our modules for KVER (qemu/kver's default; one of qemu/kernels), built
# in build/modules/KVER/ (qemu/build-modules), kmod/ left clean
modules: deps
	qemu/build-modules

tests: deps $(TEST_BINS) $(HELPER_BINS)

$(BUILD)/tests/%: tests/%.c $(TEST_LIB) $(TEST_HDRS) | deps
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -Ilib -o $@ $< $(TEST_LIB)

# test_faults' list of failure points
$(BUILD)/tests/test_faults: tests/test_faults_points.h

kernel: deps
	qemu/fetch-kernel

initramfs: modules tests cli kernel
	qemu/mkinitramfs

check: all
	tests/run

# make check on every kernel of qemu/kernels (tests/check-kernels)
check-kernels: deps
	tests/check-kernels

# The demo (qemu/demo/tour.sh): the build's output goes to a log, shown
# only if the build fails, so the tour starts the screen.  It shows edu's
# DMA buffer: the guest has no IOMMU, so it opts in
# (iio.enable_unsafe_noiommu_mode, see iio(4)).
demo:
	@echo "make demo: building (log: $(BUILD)/demo-build.log) ..."
	@mkdir -p $(BUILD)
	@$(MAKE) -s all > $(BUILD)/demo-build.log 2>&1 || \
		{ tail -n 30 $(BUILD)/demo-build.log; exit 1; }
	@echo "make demo: booting the guest (QEMU, about a minute) ..."
	@qemu/run --append iio.enable_unsafe_noiommu_mode=1 -- /demo/tour.sh

# Where the ecosystem looks: man-db's sections under share/man,
# bash-completion's completionsdir, zsh's fpath (Debian's zsh has
# /usr/share/zsh/vendor-completions, for packages, and
# /usr/local/share/zsh/site-functions), fish's vendor_completions.d.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASH_COMPLETION_DIR ?= $(PREFIX)/share/bash-completion/completions
ZSH_COMPLETION_DIR ?= $(PREFIX)/share/zsh/$(if $(filter /usr,$(PREFIX)),vendor-completions,site-functions)
FISH_COMPLETION_DIR ?= $(PREFIX)/share/fish/vendor_completions.d
# the register maps (iio-regmap(5)), where iioctl finds them: beside
# BINDIR/iioctl, or in $XDG_DATA_DIRS (/usr/local/share, /usr/share)
MAP_DIR ?= $(PREFIX)/share/iioctl/maps
# name:directory of every installed file but the man pages
INSTALL_FILES = $(BUILD)/release/iioctl:$(BINDIR)/iioctl \
	completions/iioctl.bash:$(BASH_COMPLETION_DIR)/iioctl \
	completions/_iioctl:$(ZSH_COMPLETION_DIR)/_iioctl \
	completions/iioctl.fish:$(FISH_COMPLETION_DIR)/iioctl.fish \
	kmod/iio_uapi.h:$(INCLUDEDIR)/iio_uapi.h \
	$(foreach m,$(wildcard cli/maps/*.map),$(m):$(MAP_DIR)/$(notdir $(m)))

# The release build (cli/cli.mk's build/release/iioctl, lib/lib.mk's
# libudrv, the pages): no make deps, nothing of the test toolchain.
install: release
	@set -e; for f in $(INSTALL_FILES); do \
		src=$${f%%:*} dst=$(DESTDIR)$${f#*:}; \
		mode=0644; [ "$$src" != $(BUILD)/release/iioctl ] || mode=0755; \
		echo "install $$dst"; install -D -m $$mode "$$src" "$$dst"; \
	done
	@set -e; for page in $(MAN_PAGES); do \
		sec=$${page##*.}; dst=$(DESTDIR)$(MANDIR)/man$$sec/$${page##*/}; \
		echo "install $$dst"; install -D -m 0644 "$$page" "$$dst"; \
	done

uninstall:
	@for f in $(INSTALL_FILES); do rm -fv "$(DESTDIR)$${f#*:}"; done
	@for page in $(MAN_PAGES); do \
		sec=$${page##*.}; rm -fv "$(DESTDIR)$(MANDIR)/man$$sec/$${page##*/}"; \
	done

# the modules of make modules into $(DESTDIR)/lib/modules/KVER/updates/
# (CONFIG_MODULE_SIG_ALL= : Debian's config signs on install, with a key
# only Debian's build has; they go unsigned, as DKMS's do); depmod runs
# when DESTDIR is empty
modules_install: modules
	qemu/kbuild $(CURDIR)/$(BUILD)/modules/$$(qemu/kver) \
		INSTALL_MOD_PATH=$(DESTDIR) INSTALL_MOD_DIR=updates \
		CONFIG_MODULE_SIG_ALL= modules_install
	$(if $(DESTDIR),,depmod -a $$(qemu/kver))

clean:
	$(MAKE) -C kmod clean
	rm -rf $(BUILD)/tests $(BUILD)/initramfs* $(BUILD)/logs $(BUILD)/modules
