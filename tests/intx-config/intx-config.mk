# tests/intx-config/intx-config.mk - the device-side proof of the INTx
# round trip's configuration-space accesses, included by the top Makefile:
# build/intx-config/intx_config, the static guest program that
# tests/intx-config/run boots with QEMU's configuration-space trace.

tests: $(BUILD)/intx-config/intx_config

$(BUILD)/intx-config/intx_config: tests/intx-config/intx_config.c \
		tests/lib/iio_raw.c tests/lib/iio_raw.h | deps
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $< tests/lib/iio_raw.c
