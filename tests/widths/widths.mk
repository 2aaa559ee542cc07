# tests/widths/widths.mk - the device-side proof of access widths, included
# by the top Makefile: build/widths/widths, the static guest program that
# tests/widths/run boots with QEMU's access trace (see tests/widths/run).

tests: $(BUILD)/widths/widths

$(BUILD)/widths/widths: tests/widths/widths.c | deps
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $<
