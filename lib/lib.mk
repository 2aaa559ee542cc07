# lib/lib.mk - libudrv, included by the top-level Makefile
#
#   make lib    build/lib/libudrv.so.$(UDRV_SOVERSION) (with its links),
#               build/lib/libudrv.a, build/lib/guest/libudrv.a (the guest's static
#               programs) and build/lib/test_udrv (the host unit tests on
#               the simulated backend, ASan+UBSan; lib/tests/run runs them)
#
# The release build honours the distribution's CFLAGS, CPPFLAGS and
# LDFLAGS (dpkg-buildflags); only the exported API (lib/udrv.map) is
# visible.  The SONAME changes with an incompatible ABI (abidiff).

DEB_PACKAGES += abigail-tools pkgconf

# the version: udrv.h's UDRV_VERSION_MAJOR and _MINOR
UDRV_API := $(shell sed -n 's/^\#define UDRV_VERSION_MAJOR[[:space:]]*//p' lib/udrv.h).$(shell sed -n 's/^\#define UDRV_VERSION_MINOR[[:space:]]*//p' lib/udrv.h)
UDRV_VERSION := $(UDRV_API).0
UDRV_SOVERSION := $(firstword $(subst ., ,$(UDRV_API)))
UDRV_SRCS := $(wildcard lib/*.c)
UDRV_HDRS := lib/udrv.h lib/internal.h lib/lookup.h lib/number.h \
	lib/access.h lib/sigbus.h
# the internals iioctl shares (in libudrv.a, never exported): the device
# lookup, the number parser, the exact-width accesses and the mappings
# that outlive their device (with the messages they leave); iioctl's host
# unit tests and fuzzers compile them with their own flags
UDRV_SHARED_SRCS := lib/lookup.c lib/number.c lib/access.c lib/sigbus.c \
	lib/error.c
LIBDIR ?= $(PREFIX)/lib/$(shell gcc -print-multiarch 2>/dev/null)
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

CFLAGS ?= -O2 -g
# the release objects (pic/, static/) without -Werror; the guest's and the
# unit tests' builds of the same sources keep it
UDRV_RELEASE_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra
UDRV_CFLAGS := $(UDRV_RELEASE_CFLAGS) -Werror
UDRV_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
UDRV_SO := $(BUILD)/lib/libudrv.so.$(UDRV_VERSION)
UDRV_TESTS := $(patsubst lib/tests/%.c,$(BUILD)/lib/%,\
	$(wildcard lib/tests/test_*.c))

.PHONY: lib

release: $(UDRV_SO) $(BUILD)/lib/libudrv.a

lib: $(UDRV_SO) $(BUILD)/lib/libudrv.a $(BUILD)/lib/guest/libudrv.a \
	$(UDRV_TESTS)

$(BUILD)/lib/pic/%.o: lib/%.c $(UDRV_HDRS) lib/lib.mk
	@mkdir -p $(@D)
	$(CC) $(UDRV_RELEASE_CFLAGS) $(CPPFLAGS) $(CFLAGS) -fPIC \
		-c -o $@ $<
$(BUILD)/lib/static/%.o: lib/%.c $(UDRV_HDRS) lib/lib.mk
	@mkdir -p $(@D)
	$(CC) $(UDRV_RELEASE_CFLAGS) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<
$(BUILD)/lib/guest/%.o: lib/%.c $(UDRV_HDRS) lib/lib.mk | deps
	@mkdir -p $(@D)
	$(CC) $(UDRV_CFLAGS) -O2 -g -c -o $@ $<

$(UDRV_SO): $(patsubst lib/%.c,$(BUILD)/lib/pic/%.o,$(UDRV_SRCS)) lib/udrv.map
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,libudrv.so.$(UDRV_SOVERSION) \
		-Wl,--version-script=lib/udrv.map -Wl,--no-undefined \
		-o $@ $(filter %.o,$^) -lpthread
	ln -sf $(@F) $(BUILD)/lib/libudrv.so.$(UDRV_SOVERSION)
	ln -sf $(@F) $(BUILD)/lib/libudrv.so
$(BUILD)/lib/libudrv.a: $(patsubst lib/%.c,$(BUILD)/lib/static/%.o,$(UDRV_SRCS))
	rm -f $@; ar rcs $@ $^
$(BUILD)/lib/guest/libudrv.a: $(patsubst lib/%.c,$(BUILD)/lib/guest/%.o,$(UDRV_SRCS))
	rm -f $@; ar rcs $@ $^
# the host unit tests (lib/tests/test_*.c): the library's sources under
# ASan+UBSan, with the harness lib/tests/unit.c.  test_regmap fails
# allocations at will: its malloc, calloc, realloc and strdup calls (the
# library's) go to its own __wrap_ functions (ld --wrap)
$(BUILD)/lib/test_%: lib/tests/test_%.c lib/tests/unit.c lib/tests/unit.h \
		$(UDRV_SRCS) $(UDRV_HDRS) examples/edu.c lib/lib.mk | deps
	@mkdir -p $(@D)
	$(CC) $(UDRV_CFLAGS) -O1 -g $(UDRV_SAN) -Ilib -o $@ $< \
		lib/tests/unit.c $(UDRV_SRCS) $(UDRV_TEST_LDFLAGS) -lpthread
$(BUILD)/lib/test_regmap: UDRV_TEST_LDFLAGS := \
	$(foreach f,malloc calloc realloc strdup,-Wl,--wrap=$(f))

# make install installs the library too (the release build: CFLAGS and
# LDFLAGS from the environment); make uninstall removes it
.PHONY: install-lib uninstall-lib
install: install-lib
uninstall: uninstall-lib
install-lib: $(UDRV_SO) $(BUILD)/lib/libudrv.a lib/udrv.pc.in
	install -D -m 0755 $(UDRV_SO) $(DESTDIR)$(LIBDIR)/$(notdir $(UDRV_SO))
	ln -sf $(notdir $(UDRV_SO)) $(DESTDIR)$(LIBDIR)/libudrv.so.$(UDRV_SOVERSION)
	ln -sf libudrv.so.$(UDRV_SOVERSION) $(DESTDIR)$(LIBDIR)/libudrv.so
	install -D -m 0644 $(BUILD)/lib/libudrv.a $(DESTDIR)$(LIBDIR)/libudrv.a
	install -D -m 0644 lib/udrv.h $(DESTDIR)$(INCLUDEDIR)/udrv.h
	mkdir -p $(DESTDIR)$(PKGCONFIGDIR)
	sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|; s|@VERSION@|$(UDRV_VERSION)|' \
	    lib/udrv.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/udrv.pc
uninstall-lib:
	rm -fv $(DESTDIR)$(LIBDIR)/$(notdir $(UDRV_SO)) \
		$(DESTDIR)$(LIBDIR)/libudrv.so.$(UDRV_SOVERSION) \
		$(DESTDIR)$(LIBDIR)/libudrv.so $(DESTDIR)$(LIBDIR)/libudrv.a \
		$(DESTDIR)$(INCLUDEDIR)/udrv.h $(DESTDIR)$(PKGCONFIGDIR)/udrv.pc
