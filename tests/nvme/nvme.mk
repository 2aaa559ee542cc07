# tests/nvme/nvme.mk - the user-space NVMe driver, included by the top
# Makefile: build/guest-bin/iio_nvme, a static program that qemu/mkinitramfs
# puts on the guest's PATH (/usr/bin), run by tests/test_nvme.  Its sysfs
# and node plumbing, tests/nvme/iio_udrv.c, is shared with the guest tests
# (TEST_LIB).  The test image the guest's NVMe controller reads is made by
# qemu/run with tests/nvme/mkimage (see tests/nvme/README.md).

NVME_CFLAGS := -std=gnu11 -O2 -g -static -Wall -Wextra -Werror

tests: $(BUILD)/guest-bin/iio_nvme

$(BUILD)/guest-bin/iio_nvme: tests/nvme/iio_nvme.c tests/nvme/iio_udrv.c \
		tests/nvme/iio_udrv.h tests/nvme/latency_hist.h | deps
	@mkdir -p $(@D)
	$(CC) $(NVME_CFLAGS) -o $@ tests/nvme/iio_nvme.c tests/nvme/iio_udrv.c
