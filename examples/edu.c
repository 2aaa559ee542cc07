// SPDX-License-Identifier: MIT
/*
 * edu.c - a user-space driver for QEMU's edu device on libudrv: its
 * identity, a factorial whose completion is an interrupt, and one DMA
 * round trip through the device's own memory.  The same code runs on
 * iio_edu or iio_pci_generic, on vfio-pci and on a simulated edu.
 *
 *   cc -o edu edu.c $(pkg-config --cflags --libs udrv)
 *   ./edu 0000:00:04.0
 */
#include <stdio.h>
#include <string.h>
#include <udrv.h>

#define EDU_ID		0x00
#define EDU_LIVENESS	0x04
#define EDU_FACTORIAL	0x08
#define EDU_STATUS	0x20	/* 1: computing; 0x80: interrupt when done */
#define EDU_IRQ_STATUS	0x24
#define EDU_IRQ_ACK	0x64
#define EDU_DMA_SRC	0x80
#define EDU_DMA_DST	0x88
#define EDU_DMA_COUNT	0x90
#define EDU_DMA_CMD	0x98	/* 1 start, 2 edu to RAM, 4 interrupt */
#define EDU_BUFFER	0x40000	/* the device's own 4 KiB */

static int fail(const char *what)
{
	fprintf(stderr, "edu: %s: %s\n", what, udrv_strerror());
	return 1;
}

/*
 * Wait until the device is done (@busy clear in register @reg): at each
 * interrupt, acknowledge it in the device (where a stub has not done so
 * already), unmask INTx (where that is needed) and look.  An event does
 * not say which completion it was: one left from before may come first.
 */
static int wait_done(struct udrv_device *dev, uint64_t reg, uint64_t busy)
{
	uint64_t status, v;

	for (;;) {
		if (udrv_event_wait(dev, 0, 5000) <= 0 ||
		    udrv_read(dev, 0, EDU_IRQ_STATUS, 4, &status) ||
		    (status && udrv_write(dev, 0, EDU_IRQ_ACK, 4, status)) ||
		    udrv_event_unmask(dev, 0) ||
		    udrv_read(dev, 0, reg, reg < 0x80 ? 4 : 8, &v))
			return -1;
		if (!(v & busy))
			return 0;
	}
}

/* copy @len bytes at bus address @from to @to with edu's engine */
static int edu_dma(struct udrv_device *dev, uint64_t from, uint64_t to,
		   uint64_t len, int to_ram)
{
	if (udrv_write(dev, 0, EDU_DMA_SRC, 8, from) ||
	    udrv_write(dev, 0, EDU_DMA_DST, 8, to) ||
	    udrv_write(dev, 0, EDU_DMA_COUNT, 8, len) ||
	    udrv_write(dev, 0, EDU_DMA_CMD, 8, 1 | 4 | (to_ram ? 2 : 0)))
		return -1;
	return wait_done(dev, EDU_DMA_CMD, 1);
}

int main(int argc, char **argv)
{
	static const char msg[] = "a round trip through edu";
	struct udrv_device *dev;
	struct udrv_dma *buf;
	uint64_t v;
	char *mem;

	if (argc != 2) {
		fprintf(stderr, "usage: edu DEVICE (a PCI address, iioN, ...)\n");
		return 2;
	}
	if (udrv_device_open(argv[1], &dev))
		return fail(argv[1]);
	if (udrv_read(dev, 0, EDU_ID, 4, &v))
		return fail("identity");
	printf("%s: edu %llu.%llu via %s, interrupts %s\n",
	       udrv_device_name(dev), (unsigned long long)(v >> 24),
	       (unsigned long long)(v >> 16 & 0xff),
	       udrv_device_backend(dev), udrv_device_irq_mode(dev));
	if (udrv_write(dev, 0, EDU_LIVENESS, 4, 0x12345678) ||
	    udrv_read(dev, 0, EDU_LIVENESS, 4, &v) || v != 0xedcba987)
		return fail("liveness");

	/*
	 * Interrupts: an interrupt an earlier user left pending is cleared
	 * (and INTx unmasked after it); then the factorial of 10, its
	 * completion an interrupt.
	 */
	if (udrv_event_fd(dev, 0) < 0 ||
	    udrv_read(dev, 0, EDU_IRQ_STATUS, 4, &v) ||
	    (v && udrv_write(dev, 0, EDU_IRQ_ACK, 4, v)) ||
	    udrv_event_unmask(dev, 0) ||
	    udrv_write(dev, 0, EDU_STATUS, 4, 0x80) ||
	    udrv_write(dev, 0, EDU_FACTORIAL, 4, 10) ||
	    wait_done(dev, EDU_STATUS, 1) ||
	    udrv_read(dev, 0, EDU_FACTORIAL, 4, &v))
		return fail("factorial");
	printf("10! = %llu\n", (unsigned long long)v);

	/* RAM to edu and back, into the second half of the buffer */
	if (udrv_dma_alloc(dev, 4096, &buf))
		return fail("DMA buffer");
	mem = udrv_dma_addr(buf);
	memset(mem, 0, 4096);
	memcpy(mem, msg, sizeof(msg));
	if (edu_dma(dev, udrv_dma_bus_addr(buf), EDU_BUFFER, sizeof(msg), 0) ||
	    edu_dma(dev, EDU_BUFFER, udrv_dma_bus_addr(buf) + 2048,
		    sizeof(msg), 1))
		return fail("DMA");
	if (strcmp(mem + 2048, msg)) {
		fprintf(stderr, "edu: DMA: read back \"%.*s\"\n",
			(int)sizeof(msg), mem + 2048);
		return 1;
	}
	printf("DMA: \"%s\" back from edu\n", mem + 2048);
	udrv_device_close(dev);
	return 0;
}
