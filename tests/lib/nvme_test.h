/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nvme_test.h - helpers of the guest tests that run the user-space NVMe
 * driver (udrv-nvme, examples/nvme.c) on QEMU's nvme (qemu/run: 00:1a.0) bound
 * to iio_pci_generic with vectors=4: test_nvme, and test_iommu under the
 * IOMMU
 */
#ifndef NVME_TEST_H
#define NVME_TEST_H

#define NVME_PCI	"0000:00:1a.0"
#define NVME_VECTORS	4
#define NVME_DRV	"/sys/bus/pci/drivers/iio_pci_generic"
#define NVME_OUT	"/tmp/nvme.out"		/* the driver's stdout */
#define NVME_ERR	"/tmp/nvme.err"		/* and stderr */

/* udrv-nvme's exit statuses (examples/nvme.md) */
#define EXIT_USAGE	2
#define EXIT_SETUP	3
#define EXIT_CONTROLLER	4
#define EXIT_COMMAND	5
#define EXIT_TIMEOUT	6
#define EXIT_GONE	7

/*
 * Bind the controller to iio_pci_generic with vectors=4 (reloaded if it
 * has other parameters) as a user would: the iio device of BAR0.
 */
int nvme_bind(void);
/* unbind and leave it to no driver, as qemu/init does */
void nvme_unbind(void);
/* udrv-nvme ARGS ADDR, stdout in NVME_OUT, stderr in NVME_ERR: its exit status */
int nvme_driver(const char *args, const char *addr);
/* udrv-nvme ARGS on NVME_PCI must exit 0 with nothing on stderr */
void nvme_driver_ok(const char *args);
/* the driver's last stderr line, for failure messages (static buffer) */
const char *nvme_driver_err(void);
/* the rest of the first line of NVME_OUT that starts with @prefix (static) */
const char *nvme_out_line(const char *prefix);
/* the numbers of the line "commands: admin N, io N" */
void nvme_parse_commands(unsigned long *admin, unsigned long *io);
/*
 * Event counters of the device's vectors: each node opened before the
 * driver runs, so that without a sysfs count a non-blocking read of it
 * afterwards tells the total.
 */
void nvme_open_vectors(int nr, int fds[NVME_VECTORS]);
/* vector @k's events since the bind: its node's sysfs count, or a read */
unsigned long long nvme_vector_count(int nr, int k, int fd);

#endif
