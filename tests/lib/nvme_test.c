// SPDX-License-Identifier: GPL-2.0-only
/* nvme_test.c - see nvme_test.h */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "iio_raw.h"
#include "iio_test.h"
#include "nvme_test.h"

/* iio_pci_generic with vectors=4 (reloaded if it has other parameters) */
static void nvme_generic_with_vectors(void)
{
	char want[8];

	snprintf(want, sizeof(want), "%d", NVME_VECTORS);
	if (path_exists("/sys/module/iio_pci_generic/parameters/vectors") &&
	    !strcmp(read_text("/sys/module/iio_pci_generic/parameters/vectors"),
		    want))
		return;
	if (shell("rmmod iio_pci_generic && insmod " MODDIR
		  "/iio_pci_generic.ko vectors=%d", NVME_VECTORS)) {
		shell("insmod " MODDIR "/iio_pci_generic.ko");
		FAIL("iio_pci_generic.ko vectors=%d: not loaded (no MSI-X support?)",
		     NVME_VECTORS);
	}
}

/* bind the controller as a user would (iio_raw.h); the iio device of BAR0 */
int nvme_bind(void)
{
	int nr;

	if (path_exists(NVME_DRV "/" NVME_PCI))	/* left by a failed case */
		write_text(NVME_DRV "/unbind", NVME_PCI);
	nvme_generic_with_vectors();
	if (iio_raw_bind(NVME_PCI))
		FAIL("%s", iio_raw_error());
	nr = iio_raw_find_bar(NVME_PCI, 0);
	if (nr < 0)
		FAIL("%s", iio_raw_error());
	return nr;
}

/* unbind and leave it to no driver, as qemu/init does */
void nvme_unbind(void)
{
	EXPECT_EQ(write_text(NVME_DRV "/unbind", NVME_PCI), 0);
	EXPECT_EQ(write_text("/sys/bus/pci/devices/" NVME_PCI "/driver_override",
			     "none"), 0);
}

/* the driver's last stderr line, for failure messages */
const char *nvme_driver_err(void)
{
	return last_line(NVME_ERR, "(nothing on stderr)");
}

/* udrv-nvme ARGS ADDR, stdout in NVME_OUT, stderr in NVME_ERR: its exit status */
int nvme_driver(const char *args, const char *addr)
{
	return shell("udrv-nvme %s %s > " NVME_OUT " 2> " NVME_ERR, args, addr);
}

void nvme_driver_ok(const char *args)
{
	int status = nvme_driver(args, NVME_PCI);

	if (status)
		FAIL("udrv-nvme %s: exit %d: %s", args, status, nvme_driver_err());
	EXPECT_STREQ(nvme_driver_err(), "(nothing on stderr)");
}

/* the rest of the first line of NVME_OUT that starts with @prefix */
const char *nvme_out_line(const char *prefix)
{
	return line_of(NVME_OUT, prefix);
}

void nvme_parse_commands(unsigned long *admin, unsigned long *io)
{
	if (sscanf(nvme_out_line("commands: "), "admin %lu, io %lu", admin, io) != 2)
		FAIL("cannot parse \"commands: %s\"", nvme_out_line("commands: "));
}

/*
 * Event counters of the device's vectors: each node opened before the
 * driver runs, so that without a sysfs count a non-blocking read of it
 * afterwards tells the total (the device is freshly bound: counts start
 * at 0; no unseen event since the open: none at all).
 */
void nvme_open_vectors(int nr, int fds[NVME_VECTORS])
{
	int k;

	for (k = 0; k < NVME_VECTORS; k++) {
		fds[k] = iio_raw_event_open(nr, k, NULL, 0);
		if (fds[k] < 0)
			FAIL("%s", iio_raw_error());
		MUST(fcntl(fds[k], F_SETFL, O_NONBLOCK));
	}
}

/* vector @k's events since the bind: its node's sysfs count, or a read */
unsigned long long nvme_vector_count(int nr, int k, int fd)
{
	static const char *const files[] = { "count", "event" };
	char node[32], path[192];
	uint32_t count;
	int i;

	if (k)
		snprintf(node, sizeof(node), "iio%d_event%d", nr, k);
	else
		snprintf(node, sizeof(node), "iio%d_event", nr);
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "/sys/class/iio/iio%d/%s/%s", nr,
			 node, files[i]);
		if (path_exists(path))
			return read_num(path);
	}
	if (read(fd, &count, 4) != 4) {
		EXPECT(errno == EAGAIN);
		count = 0;
	}
	return count;
}
