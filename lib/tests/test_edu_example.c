// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * test_edu_example.c - examples/edu.c, unchanged, on a simulated edu: a
 * model of the device's registers (QEMU's hw/misc/edu.c as iio_edu(4)
 * describes it: identity, liveness, factorial with its interrupt, the
 * interrupt status and acknowledge, the DMA engine with its own 4 KiB) in
 * a write hook.  With INTx, every interrupt must be unmasked; with MSI
 * nothing is.
 */
#include <stdio.h>
#include <string.h>

#include "udrv.h"
#include "unit.h"

#define main edu_main
#include "../../examples/edu.c"
#undef main

struct edu_model {
	struct udrv_sim *sim;
	unsigned char ram[4096];	/* edu's own memory at EDU_BUFFER */
	unsigned int dmas;
};

static uint32_t *reg32(struct udrv_sim *sim, uint64_t offset)
{
	return (uint32_t *)((char *)udrv_sim_region(sim, 0) + offset);
}

static uint64_t *reg64(struct udrv_sim *sim, uint64_t offset)
{
	return (uint64_t *)((char *)udrv_sim_region(sim, 0) + offset);
}

static void edu_interrupt(struct udrv_sim *sim, uint32_t cause)
{
	*reg32(sim, EDU_IRQ_STATUS) |= cause;
	if (udrv_sim_raise(sim, 0, 1))
		FAIL("raise: %s", udrv_strerror());
}

static void edu_do_dma(struct edu_model *m)
{
	struct udrv_sim *sim = m->sim;
	uint64_t src = *reg64(sim, EDU_DMA_SRC), dst = *reg64(sim, EDU_DMA_DST);
	uint64_t len = *reg64(sim, EDU_DMA_COUNT), cmd = *reg64(sim, EDU_DMA_CMD);
	void *ram;

	if (cmd & 2) {		/* edu to RAM */
		ram = udrv_sim_dma(sim, dst, len);
		if (!ram || src < EDU_BUFFER || src - EDU_BUFFER + len > 4096)
			FAIL("DMA from edu 0x%llx to bus 0x%llx, %llu bytes: "
			     "outside a buffer", (unsigned long long)src,
			     (unsigned long long)dst, (unsigned long long)len);
		memcpy(ram, m->ram + (src - EDU_BUFFER), len);
	} else {
		ram = udrv_sim_dma(sim, src, len);
		if (!ram || dst < EDU_BUFFER || dst - EDU_BUFFER + len > 4096)
			FAIL("DMA from bus 0x%llx to edu 0x%llx, %llu bytes: "
			     "outside a buffer", (unsigned long long)src,
			     (unsigned long long)dst, (unsigned long long)len);
		memcpy(m->ram + (dst - EDU_BUFFER), ram, len);
	}
	m->dmas++;
	*reg64(sim, EDU_DMA_CMD) = cmd & ~1ull;
	if (cmd & 4)
		edu_interrupt(sim, 0x100);
}

static void edu_write(struct udrv_sim *sim, unsigned int region,
		      uint64_t offset, unsigned int width, uint64_t value,
		      void *data)
{
	struct edu_model *m = data;
	uint32_t n = (uint32_t)value, fact = 1;

	if (region || (offset < 0x80 && width != 4))
		FAIL("a write of %u bytes at 0x%llx of region %u", width,
		     (unsigned long long)offset, region);
	switch (offset) {
	case EDU_LIVENESS:
		*reg32(sim, offset) = ~n;
		break;
	case EDU_FACTORIAL:
		while (n > 1)
			fact *= n--;
		*reg32(sim, offset) = fact;
		if (*reg32(sim, EDU_STATUS) & 0x80)
			edu_interrupt(sim, 1);
		break;
	case EDU_IRQ_ACK:
		*reg32(sim, EDU_IRQ_STATUS) &= ~n;
		break;
	case EDU_DMA_CMD:
		if (value & 1)
			edu_do_dma(m);
		break;
	}
}

static void run_example(const char *mode, unsigned int unmasks)
{
	struct edu_model m = { 0 };
	char *argv[] = { "edu", "sim:edu", NULL };

	EXPECT_EQ(udrv_sim_new("edu", &m.sim), 0);
	EXPECT_EQ(udrv_sim_set_pci_id(m.sim, 0x1234, 0x11e8, 0xff0000), 0);
	EXPECT_EQ(udrv_sim_add_region(m.sim, 0, 1 << 20), 0);
	EXPECT_EQ(udrv_sim_set_vectors(m.sim, 1, mode), 0);
	*reg32(m.sim, EDU_ID) = 0x010000ed;
	udrv_sim_set_write_hook(m.sim, edu_write, &m);
	EXPECT_EQ(edu_main(2, argv), 0);
	EXPECT_EQ(m.dmas, 2);
	EXPECT(!strcmp((char *)m.ram, "a round trip through edu"));
	EXPECT_EQ(*reg32(m.sim, EDU_IRQ_STATUS), 0);
	EXPECT_EQ(udrv_sim_unmasks(m.sim), unmasks);
	udrv_sim_free(m.sim);
}

/* the unmask at start (for what an earlier user left), then three interrupts */
static void example_on_intx(void)
{
	run_example("intx", 4);
}

static void example_on_msi(void)
{
	run_example("msi", 0);
}

/* a device that is not there: one line on stderr, status 1 */
static void example_without_device(void)
{
	char *argv[] = { "edu", "sim:absent", NULL };

	EXPECT_EQ(edu_main(2, argv), 1);
}

static const struct unit_case cases[] = {
	UNIT_CASE(example_on_intx),
	UNIT_CASE(example_on_msi),
	UNIT_CASE(example_without_device),
};

int main(int argc, char **argv)
{
	return unit_main("edu-example", cases,
			 sizeof(cases) / sizeof(cases[0]), argc, argv);
}
