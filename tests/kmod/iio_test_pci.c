// SPDX-License-Identifier: GPL-2.0-only
/*
 * iio_test_pci.c - a test-only stub for the PCI cases no QEMU device
 * gives (tests/test_pci_generic, tests/test_udrv)
 *
 * Built for the guest only (tests/kmod/Kbuild), never installed.  It
 * has three parts:
 *  - a PCI driver, "iio_test_pci", that binds only a function given to it
 *    (driver_override) and registers one iio device of one page of kernel
 *    memory, the function its parent: a stub that gives no BAR to user
 *    space (udrv_device_open(3): ENODEV);
 *  - the parameter occupy, "ADDR BAR" (root only, write only): the rest
 *    of the page of sub-page memory BAR BAR of PCI function ADDR is
 *    reserved ("iio_test_pci occupied" in /proc/iomem), as if another
 *    device lived there, so that iio_pci_generic cannot reserve it
 *    (iio_pci_generic(4): "BAR K shares its page: not mappable"); "none"
 *    or the unload releases it;
 *  - the parameter intx_broken, "ADDR": PCI function ADDR is marked as a
 *    device whose INTx masking does not work (pci_dev.broken_intx_masking,
 *    which the PCI core sets for the devices of its quirks and for those
 *    whose INTx disable bit does not stick), so pci_intx_mask_supported()
 *    is false for it (iio_pci_generic(4): refused at bind); "none" or the
 *    unload restores it.
 * One of each at a time: a second write releases the first.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ioport.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "iio.h"

static DEFINE_MUTEX(iio_test_pci_lock);
static struct resource iio_test_occupied = {
	.name = "iio_test_pci occupied",
};

static bool iio_test_occupying;
static struct pci_dev *iio_test_broken;	/* intx_broken's, referenced */
static bool iio_test_broken_was;

/* "none" (or nothing): release what the parameter holds */
static bool iio_test_none(const char *val)
{
	return !*val || sysfs_streq(val, "none");
}

/* "DDDD:BB:DD.F" to its PCI function, referenced; NULL if there is none */
static struct pci_dev *iio_test_pci_get(const char *addr)
{
	unsigned int domain, bus, dev, fn;

	if (sscanf(addr, "%x:%x:%x.%x", &domain, &bus, &dev, &fn) != 4 ||
	    dev > 0x1f || fn > 7)
		return NULL;
	return pci_get_domain_bus_and_slot(domain, bus, PCI_DEVFN(dev, fn));
}

static void iio_test_vacate(void)
{
	if (iio_test_occupying)
		release_resource(&iio_test_occupied);
	iio_test_occupying = false;
}

static int iio_test_occupy_set(const char *val, const struct kernel_param *kp)
{
	struct pci_dev *pdev;
	struct resource *res;
	char addr[16];
	int bar, ret;

	mutex_lock(&iio_test_pci_lock);
	iio_test_vacate();
	ret = 0;
	if (iio_test_none(val))
		goto out;
	ret = -EINVAL;
	if (sscanf(val, "%15s %d", addr, &bar) != 2 || bar < 0 ||
	    bar >= PCI_STD_NUM_BARS)
		goto out;
	ret = -ENODEV;
	pdev = iio_test_pci_get(addr);
	if (!pdev)
		goto out;
	res = &pdev->resource[bar];
	ret = -EINVAL;
	if ((res->flags & IORESOURCE_MEM) && res->parent &&
	    resource_size(res) < PAGE_SIZE && PAGE_ALIGNED(res->start)) {
		iio_test_occupied.start = res->end + 1;
		iio_test_occupied.end = res->start + PAGE_SIZE - 1;
		iio_test_occupied.flags = res->flags;
		ret = request_resource(res->parent, &iio_test_occupied);
		iio_test_occupying = !ret;
	}
	pci_dev_put(pdev);
out:
	mutex_unlock(&iio_test_pci_lock);
	return ret;
}

static const struct kernel_param_ops iio_test_occupy_ops = {
	.set = iio_test_occupy_set,
};
module_param_cb(occupy, &iio_test_occupy_ops, NULL, 0200);
MODULE_PARM_DESC(occupy, "\"ADDR BAR\": reserve the rest of the page of that sub-page BAR; none: release");

static void iio_test_mend(void)
{
	if (iio_test_broken) {
		iio_test_broken->broken_intx_masking = iio_test_broken_was;
		pci_dev_put(iio_test_broken);
	}
	iio_test_broken = NULL;
}

static int iio_test_intx_broken_set(const char *val,
				    const struct kernel_param *kp)
{
	struct pci_dev *pdev;
	char addr[16];
	int ret = 0;

	mutex_lock(&iio_test_pci_lock);
	iio_test_mend();
	if (iio_test_none(val) || sscanf(val, "%15s", addr) != 1)
		goto out;	/* mended */
	pdev = iio_test_pci_get(addr);
	if (!pdev) {
		ret = -ENODEV;
		goto out;
	}
	iio_test_broken = pdev;
	iio_test_broken_was = pdev->broken_intx_masking;
	pdev->broken_intx_masking = 1;
out:
	mutex_unlock(&iio_test_pci_lock);
	return ret;
}

static const struct kernel_param_ops iio_test_intx_broken_ops = {
	.set = iio_test_intx_broken_set,
};
module_param_cb(intx_broken, &iio_test_intx_broken_ops, NULL, 0200);
MODULE_PARM_DESC(intx_broken, "\"ADDR\": that function's INTx masking is marked broken; none: restored");

/* the stub without a BAR: one page of kernel memory per bound function */
struct iio_test_pci {
	struct iio_device idev;
	void *page;
};

static int iio_test_pci_probe(struct pci_dev *pdev,
			      const struct pci_device_id *id)
{
	struct iio_test_pci *t;
	int ret;

	t = devm_kzalloc(&pdev->dev, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->page = (void *)devm_get_free_pages(&pdev->dev,
					      GFP_KERNEL | __GFP_ZERO, 0);
	if (!t->page)
		return -ENOMEM;
	t->idev.name = "iio_test_pci";
	t->idev.version = "1";
	t->idev.kernaddr = t->page;
	t->idev.size = PAGE_SIZE;
	pci_set_drvdata(pdev, t);
	ret = iio_register_device(&pdev->dev, &t->idev);
	return ret < 0 ? ret : 0;
}

static void iio_test_pci_remove(struct pci_dev *pdev)
{
	struct iio_test_pci *t = pci_get_drvdata(pdev);

	iio_unregister_device(&t->idev);
}

static struct pci_driver iio_test_pci_driver = {
	.name = "iio_test_pci",
	.probe = iio_test_pci_probe,
	.remove = iio_test_pci_remove,
};

static int __init iio_test_pci_init(void)
{
	return pci_register_driver(&iio_test_pci_driver);
}

static void __exit iio_test_pci_exit(void)
{
	pci_unregister_driver(&iio_test_pci_driver);
	mutex_lock(&iio_test_pci_lock);
	iio_test_vacate();
	iio_test_mend();
	mutex_unlock(&iio_test_pci_lock);
}

module_init(iio_test_pci_init);
module_exit(iio_test_pci_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("iio: test-only stub for PCI cases QEMU does not give");
