// SPDX-License-Identifier: GPL-2.0-only
/*
 * iio_pci_generic.c - drive any PCI device from user space, no stub needed
 *
 * What mainline's uio_pci_generic users ask for: every BAR, memory and I/O
 * alike, as an iio device with width-correct read/write (and mmap for
 * memory BARs), interrupts without touching config space, and MSI.
 *
 * Binding: the driver matches no device by itself.  Bind one with
 *	echo "VENDOR DEVICE" > /sys/bus/pci/drivers/iio_pci_generic/new_id
 * (binds every device with those ids that has no driver), or
 *	echo iio_pci_generic > /sys/bus/pci/devices/ADDR/driver_override
 *	echo ADDR > /sys/bus/pci/drivers/iio_pci_generic/bind
 * (after unbinding it from its current driver).
 *
 * Devices: one iio device per implemented BAR, named "ADDR barN" (e.g.
 * "0000:00:13.0 bar0"), whole BAR, no windows.
 *
 * Interrupts belong to the iio device of the lowest BAR:
 *  - INTx (default): the handler masks INTx with pci_check_and_mask_intx(),
 *    so shared lines work (IRQ_NONE when the device did not interrupt).
 *    Acknowledge the device's own interrupt, then write a native-endian
 *    32-bit 1 to the event device to unmask INTx again (0 masks it).  A
 *    device that cannot mask INTx is refused at bind, as mainline does.
 *  - MSI (module parameter msi=1): one edge-triggered vector, no masking
 *    needed; the event device's write of 1 or 0 enables or disables it.
 *    A device without MSI falls back to INTx and says so in the log.
 *  - A device with neither gets no event source (its event device: EIO).
 * Any other write to the event device: EINVAL.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "iio.h"

static bool msi;
module_param(msi, bool, 0444);
MODULE_PARM_DESC(msi, "use one MSI vector where the device has MSI (default no: INTx)");

/**
 * struct iio_pci_bar - one BAR registered as an iio device
 * @idev:	what the framework knows of it
 * @gdev:	the device it belongs to
 * @name:	"ADDR barN"
 */
struct iio_pci_bar {
	struct iio_device idev;
	struct iio_pci_generic *gdev;
	char name[32];
};

/**
 * struct iio_pci_generic - one bound PCI device
 * @pdev:	the device
 * @bars:	the registered BARs, in BAR order
 * @nr_bars:	how many of @bars are registered
 * @use_msi:	interrupts come from an MSI vector
 * @irq_lock:	serialises the event device's mask and unmask
 * @intx_lock:	protects @intx_masked against the handler
 * @intx_masked: INTx only: masked by the handler or by user space; while
 *		set, interrupts on the (shared) line are not ours
 * @irq_enabled: MSI only: the vector is enabled
 * @removing:	unbinding: the event device no longer masks or unmasks
 */
struct iio_pci_generic {
	struct pci_dev *pdev;
	struct iio_pci_bar bars[PCI_STD_NUM_BARS];
	int nr_bars;
	bool use_msi;
	struct mutex irq_lock;	/* protects irq_enabled, removing */
	spinlock_t intx_lock;	/* protects intx_masked */
	bool intx_masked;
	bool irq_enabled;
	bool removing;
};

/*
 * pci_check_and_mask_intx() reports a pending interrupt even when INTx is
 * already masked, so a masked device must not claim the shared line: an
 * interrupt of another device there would count as ours.
 */
static irqreturn_t iio_pci_generic_intx(int irq, struct iio_device *idev)
{
	struct iio_pci_bar *bar = container_of(idev, struct iio_pci_bar, idev);
	struct iio_pci_generic *gdev = bar->gdev;
	irqreturn_t ret = IRQ_NONE;

	spin_lock(&gdev->intx_lock);
	if (!gdev->intx_masked && pci_check_and_mask_intx(gdev->pdev)) {
		gdev->intx_masked = true;
		ret = IRQ_HANDLED;
	}
	spin_unlock(&gdev->intx_lock);
	return ret;
}

static irqreturn_t iio_pci_generic_msi(int irq, struct iio_device *idev)
{
	return IRQ_HANDLED;
}

static ssize_t iio_pci_generic_event_write(struct iio_device *idev,
					   const void *buf, size_t count)
{
	struct iio_pci_bar *bar = container_of(idev, struct iio_pci_bar, idev);
	struct iio_pci_generic *gdev = bar->gdev;
	u32 val;

	if (count != sizeof(val))
		return -EINVAL;
	memcpy(&val, buf, sizeof(val));
	if (val > 1)
		return -EINVAL;

	mutex_lock(&gdev->irq_lock);
	if (gdev->removing) {
		mutex_unlock(&gdev->irq_lock);
		return -EIO;
	}
	if (!gdev->use_msi) {
		unsigned long flags;

		spin_lock_irqsave(&gdev->intx_lock, flags);
		gdev->intx_masked = !val;
		pci_intx(gdev->pdev, val);
		spin_unlock_irqrestore(&gdev->intx_lock, flags);
	} else if (gdev->irq_enabled != val) {
		if (val)
			enable_irq(idev->irq);
		else
			disable_irq(idev->irq);
		gdev->irq_enabled = val;
	}
	mutex_unlock(&gdev->irq_lock);
	return sizeof(val);
}

/* The interrupt of @gdev: MSI if asked for and present, else INTx. */
static int iio_pci_generic_irq(struct iio_pci_generic *gdev, long *irq)
{
	struct pci_dev *pdev = gdev->pdev;
	int ret;

	*irq = IIO_IRQ_NONE;
	if (msi) {
		ret = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_MSI);
		if (ret > 0) {
			gdev->use_msi = true;
			gdev->irq_enabled = true;
			*irq = pci_irq_vector(pdev, 0);
			return 0;
		}
		pci_info(pdev, "no MSI, falling back to INTx\n");
	}
	if (!pdev->irq || pdev->irq == IRQ_NOTCONNECTED) {
		pci_info(pdev, "no interrupt: its event device gives EIO\n");
		return 0;
	}
	if (!pci_intx_mask_supported(pdev)) {
		pci_err(pdev, "refused: the device cannot mask INTx\n");
		return -ENODEV;
	}
	*irq = pdev->irq;
	return 0;
}

static void iio_pci_generic_unregister(struct iio_pci_generic *gdev)
{
	/* free_irq() of the framework wants the MSI vector enabled */
	mutex_lock(&gdev->irq_lock);
	gdev->removing = true;
	if (gdev->use_msi && !gdev->irq_enabled && gdev->nr_bars)
		enable_irq(gdev->bars[0].idev.irq);
	gdev->irq_enabled = true;
	mutex_unlock(&gdev->irq_lock);

	while (gdev->nr_bars)
		iio_unregister_device(&gdev->bars[--gdev->nr_bars].idev);
}

static int iio_pci_generic_probe(struct pci_dev *pdev,
				 const struct pci_device_id *id)
{
	struct iio_pci_generic *gdev;
	long irq;
	int i, ret;

	gdev = devm_kzalloc(&pdev->dev, sizeof(*gdev), GFP_KERNEL);
	if (!gdev)
		return -ENOMEM;
	gdev->pdev = pdev;
	mutex_init(&gdev->irq_lock);
	spin_lock_init(&gdev->intx_lock);

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	pci_set_master(pdev);
	ret = iio_pci_generic_irq(gdev, &irq);
	if (ret)
		return ret;
	pci_set_drvdata(pdev, gdev);

	for (i = 0; i < PCI_STD_NUM_BARS; i++) {
		struct iio_pci_bar *bar = &gdev->bars[gdev->nr_bars];
		struct iio_device *idev = &bar->idev;
		unsigned long flags = pci_resource_flags(pdev, i);

		if (!pci_resource_len(pdev, i) ||
		    !(flags & (IORESOURCE_MEM | IORESOURCE_IO)))
			continue;
		ret = pcim_iomap_regions(pdev, BIT(i), KBUILD_MODNAME);
		if (ret)
			goto err_unregister;

		bar->gdev = gdev;
		snprintf(bar->name, sizeof(bar->name), "%s bar%d",
			 pci_name(pdev), i);
		idev->name = bar->name;
		idev->version = "1.0";
		idev->physaddr = pci_resource_start(pdev, i);
		idev->size = pci_resource_len(pdev, i);
		if (flags & IORESOURCE_MEM)
			idev->virtaddr = pcim_iomap_table(pdev)[i];
		if (!gdev->nr_bars && irq != IIO_IRQ_NONE) {
			idev->irq = irq;
			idev->handler = gdev->use_msi ? iio_pci_generic_msi :
							iio_pci_generic_intx;
			idev->event_write = iio_pci_generic_event_write;
		}
		ret = iio_register_device(&pdev->dev, idev);
		if (ret < 0)
			goto err_unregister;
		gdev->nr_bars++;
	}
	return 0;

err_unregister:
	iio_pci_generic_unregister(gdev);
	if (gdev->use_msi)
		pci_free_irq_vectors(pdev);
	return ret;
}

static void iio_pci_generic_remove(struct pci_dev *pdev)
{
	struct iio_pci_generic *gdev = pci_get_drvdata(pdev);

	iio_pci_generic_unregister(gdev);
	if (gdev->use_msi)
		pci_free_irq_vectors(pdev);
}

/*
 * No id table at all: it binds only what a user gives it (new_id,
 * driver_override).  An empty table would make new_id refuse every id.
 */
static struct pci_driver iio_pci_generic_driver = {
	.name = "iio_pci_generic",
	.id_table = NULL,
	.probe = iio_pci_generic_probe,
	.remove = iio_pci_generic_remove,
};
module_pci_driver(iio_pci_generic_driver);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("iio: drive any PCI device from user space, with MSI");
