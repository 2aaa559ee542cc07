// SPDX-License-Identifier: GPL-2.0-only
/*
 * iio_pcitest.c - stub for QEMU's pci-testdev (1b36:0005): the port path
 *
 * Registers the device's I/O BAR (BAR1, 256 ports) as a port region, so
 * that the framework's virtaddr == NULL path (inb/inw/inl) runs on real
 * ports.  The device has no interrupt: its event device reports EIO.
 * No windows.
 *
 * The BAR begins with the header of QEMU's docs/specs/pci-testdev.rst:
 * byte 0 "test" (write a test number to select it), byte 1 "width_type",
 * u32 "offset" at 4, u32 "data" at 8, u32 "count" at 12 and the test's
 * NUL-terminated name from 16 on, so read-back is deterministic.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/pci.h>

#include "iio.h"

#define IIO_PCITEST_IO_BAR	1

static int iio_pcitest_probe(struct pci_dev *pdev,
			     const struct pci_device_id *id)
{
	struct iio_device *idev;
	int ret;

	idev = devm_kzalloc(&pdev->dev, sizeof(*idev), GFP_KERNEL);
	if (!idev)
		return -ENOMEM;

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	if (!(pci_resource_flags(pdev, IIO_PCITEST_IO_BAR) & IORESOURCE_IO)) {
		dev_err(&pdev->dev, "BAR%d is not an I/O BAR\n",
			IIO_PCITEST_IO_BAR);
		return -ENODEV;
	}
	ret = pcim_iomap_regions(pdev, BIT(IIO_PCITEST_IO_BAR), KBUILD_MODNAME);
	if (ret)
		return ret;

	idev->name = "pci-testdev";
	idev->version = "1.0";
	idev->physaddr = pci_resource_start(pdev, IIO_PCITEST_IO_BAR);
	idev->size = pci_resource_len(pdev, IIO_PCITEST_IO_BAR);
	idev->irq = IIO_IRQ_NONE;
	pci_set_drvdata(pdev, idev);

	ret = iio_register_device(&pdev->dev, idev);
	return ret < 0 ? ret : 0;
}

static void iio_pcitest_remove(struct pci_dev *pdev)
{
	iio_unregister_device(pci_get_drvdata(pdev));
}

static const struct pci_device_id iio_pcitest_ids[] = {
	{ PCI_DEVICE(PCI_VENDOR_ID_REDHAT, 0x0005) },
	{ }
};
MODULE_DEVICE_TABLE(pci, iio_pcitest_ids);

static struct pci_driver iio_pcitest_driver = {
	.name = "iio_pcitest",
	.id_table = iio_pcitest_ids,
	.probe = iio_pcitest_probe,
	.remove = iio_pcitest_remove,
};
module_pci_driver(iio_pcitest_driver);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("iio stub for QEMU's pci-testdev: I/O port region");
