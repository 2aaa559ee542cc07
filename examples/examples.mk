# examples/examples.mk - the example drivers on libudrv, included by the top
# Makefile: static programs for the guest (build/guest-bin/, which
# qemu/mkinitramfs puts on the guest's PATH), run by the guest tests.
#   udrv-edu   examples/edu.c: QEMU's edu (tests/test_udrv, test_udrv_vfio)
#   udrv-nvme  examples/nvme.c: an NVMe driver (tests/test_nvme and others;
#              examples/nvme.md)
#   udrv-e1000e  examples/e1000e.c: a network driver for the 82574L
#              (tests/test_nic; examples/e1000e.md)

EXAMPLES := $(BUILD)/guest-bin/udrv-edu $(BUILD)/guest-bin/udrv-nvme \
	$(BUILD)/guest-bin/udrv-e1000e

tests: $(EXAMPLES)

$(BUILD)/guest-bin/udrv-edu: examples/edu.c
$(BUILD)/guest-bin/udrv-nvme: examples/nvme.c examples/latency_hist.h \
	examples/example_exit.h
$(BUILD)/guest-bin/udrv-e1000e: examples/e1000e.c examples/e1000e_frame.h \
	examples/example_exit.h
$(EXAMPLES): $(BUILD)/lib/guest/libudrv.a lib/udrv.h | deps
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -Ilib -o $@ $(filter %.c,$^) \
		$(BUILD)/lib/guest/libudrv.a
