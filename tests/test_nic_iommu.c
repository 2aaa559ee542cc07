// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_nic_iommu.c - the user-space network driver (udrv-e1000e,
 * examples/e1000e.c) under the IOMMU, in a boot of its own (tests/run:
 * own_boots; qemu/run --iommu intel --nic --nic-dump, no opt-in): our port
 * 00:0a.0 translated on iio_pci_generic (dma_iommu "translated": the
 * rings and frame buffers at I/O virtual addresses), then on mainline
 * vfio-pci; every frame size from 60 to 1514 by MSI-X and polled on each,
 * against the kernel's e1000e (translated too) and the reflector, both
 * ends checking every frame, and every size sent by the kernel (a raw
 * socket, nic_reflect -S) to udrv-e1000e --receive-only, by MSI-X and polled, and after the boot tests/nic/pcap-check
 * against QEMU's record of the wire, as for test_nic.  The two long round
 * trips on iio_pci_generic (by MSI-X and polled) move iio_test.nic_frames
 * frames each (tests/run: NIC_FRAMES; default 20,000), as test_nic's do
 * without the IOMMU.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "lib/iio_test.h"
#include "lib/nic_test.h"

static void translated_on_iio(void)
{
	int nr;

	peer_up();
	nic_bind();
	nr = pci_bar_nr(NIC, 0);
	EXPECT_STREQ(read_text(iio_attr_path(nr, "dma_iommu")), "translated");
	from_kernel("", 1455, FRAME_MIN, FRAME_MAX);
	from_kernel("--poll", 1455, FRAME_MIN, FRAME_MAX);
	round_trip("", 1455, FRAME_MIN, FRAME_MAX);
	EXPECT(starts(line_of(OUT, "nic: "), NIC " (iio), 82574L, "));
	round_trip("--poll", 1455, FRAME_MIN, FRAME_MAX);
	pci_generic_unbind(NIC);
}

/* the long runs under the IOMMU: iio_test.nic_frames each (default 20000) */
static void many_frames_translated(const char *args)
{
	peer_up();
	nic_bind();
	round_trip(args, test_param("nic_frames", 20000), FRAME_MIN, FRAME_MAX);
	EXPECT(starts(line_of(OUT, "nic: "), NIC " (iio), 82574L, "));
	pci_generic_unbind(NIC);
}

static void many_frames_translated_by_interrupt(void)
{
	many_frames_translated("--window 128");
}

static void many_frames_translated_polled(void)
{
	many_frames_translated("--poll --window 128");
}

static void on_vfio(void)
{
	peer_up();
	vfio_bind(NIC);
	round_trip("", 1455, FRAME_MIN, FRAME_MAX);
	EXPECT(starts(line_of(OUT, "nic: "), NIC " (vfio), 82574L, "));
	EXPECT(starts(line_of(OUT, "interrupts: "), "msix, 5 vectors; "));
	round_trip("--poll", 1455, FRAME_MIN, FRAME_MAX);
	from_kernel("", 1455, FRAME_MIN, FRAME_MAX);
	from_kernel("--poll", 1455, FRAME_MIN, FRAME_MAX);
}

static const struct check_case cases[] = {
	CASE_T(translated_on_iio, 240),
	CASE_T(many_frames_translated_by_interrupt, 900),
	CASE_T(many_frames_translated_polled, 900),
	CASE_T(on_vfio, 240),
};
CHECK_MAIN(cases)
