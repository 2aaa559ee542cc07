// SPDX-License-Identifier: GPL-2.0-only
/*
 * iio_edu.c - stub for QEMU's edu device (1234:11e8)
 *
 * The stub the article describes: enable the device, register its region,
 * acknowledge its interrupt in a minimal handler, leave the rest to user
 * space.  See QEMU's docs/specs/edu.rst for the registers.
 *
 * Region: BAR0 (1 MiB of MMIO).  In window: the first page, which holds
 * every register (0x00 id, 0x04 liveness, 0x08 factorial, 0x20 status,
 * 0x24 interrupt status, 0x60 raise, 0x64 acknowledge, 0x80.. DMA), as a
 * read-only view for monitoring programs.  No out window.  Only 4-byte
 * accesses below 0x80 are valid; the device ignores other writes, and
 * other reads return no register (0 in QEMU 7.2, all ones in some
 * versions; see iio_edu(4)).
 *
 * Interrupt: INTx, shared; the handler reads the interrupt status (0x24),
 * returns IRQ_NONE when it is zero (not ours) or all ones (what a read
 * of a device that is gone returns), else acknowledges it (0x64) and
 * returns IRQ_HANDLED.  With msi=1 an MSI vector is used where
 * bus mastering is allowed (iio_dma_allowed(): MSI is a memory write by the
 * device), else INTx and one line in the log; with threaded=1 the handler
 * runs in an interrupt thread (IIO_THREADED).
 *
 * Event device write: a native-endian 32-bit value, neither 0 nor all ones,
 * is written to the raise register (0x60), so the device interrupts for
 * real.  All ones would set a status the handler takes for a device that
 * is gone: never acknowledged, it would hold the INTx line it shares.
 *
 * DMA: one coherent buffer of dma_size bytes (default 64 KiB, 0 for
 * none), /sys/class/iio/iioN/dma0/ (see iio_dma.c).  edu's engine copies
 * between its own 4 KiB at 0x40000 and a bus address: 0x80 source, 0x88
 * destination, 0x90 count, 0x98 command (bit 0 start, bit 1 direction,
 * 1 = edu to RAM, bit 2 interrupt 0x100 on completion), all set from user
 * space with the buffer's bus_addr.  edu drives 28 address bits, which is
 * the DMA mask.  Bus mastering is on only while a file of the device is
 * open (in_use) and the DMA policy allows it (iio_dma_allowed(): the
 * engine reaches any bus address it is given, buffer or not), and cleared
 * before the buffer goes away (quiesce).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/sizes.h>
#include <linux/string.h>

#include "iio.h"
#include "iio_compat.h"
#include "iio_pci.h"

#define EDU_BAR			0
#define EDU_REG_IRQ_STATUS	0x24
#define EDU_REG_IRQ_RAISE	0x60
#define EDU_REG_IRQ_ACK		0x64
#define EDU_DMA_BITS		28

static bool msi;
module_param(msi, bool, 0444);
MODULE_PARM_DESC(msi, "use an MSI vector instead of INTx (default no)");

static unsigned int dma_size = SZ_64K;
module_param(dma_size, uint, 0444);
MODULE_PARM_DESC(dma_size, "bytes of the DMA buffer, rounded up to pages, at most 4 MiB; 0: none (default 64 KiB)");

static bool threaded;
module_param(threaded, bool, 0444);
MODULE_PARM_DESC(threaded, "run the handler in an interrupt thread (IIO_THREADED; with INTx only if no other driver shares the line) (default no)");

/**
 * struct iio_edu - one bound edu
 * @idev:		what the framework knows of it
 * @master_refused:	bus mastering was refused and the log says so
 */
struct iio_edu {
	struct iio_device idev;
	bool master_refused;
};

static irqreturn_t iio_edu_handler(int irq, struct iio_device *idev)
{
	u32 status = ioread32(idev->virtaddr + EDU_REG_IRQ_STATUS);

	/* 0: another device's interrupt; all ones: the device is gone */
	if (!status || status == ~0U)
		return IRQ_NONE;
	iowrite32(status, idev->virtaddr + EDU_REG_IRQ_ACK);
	return IRQ_HANDLED;
}

static ssize_t iio_edu_event_write(struct iio_device *idev, const void *buf,
				   size_t count)
{
	u32 val;

	if (count != sizeof(val))
		return -EINVAL;
	memcpy(&val, buf, sizeof(val));
	/* all ones: a status the handler would never acknowledge */
	if (!val || val == ~0U)
		return -EINVAL;
	iowrite32(val, idev->virtaddr + EDU_REG_IRQ_RAISE);
	return sizeof(val);
}

/*
 * Bus mastering (DMA, and MSI, a memory write) only while in use, and only
 * where the DMA policy allows it; in_use calls are serialised.
 */
static void iio_edu_in_use(struct iio_device *idev, bool used)
{
	struct iio_edu *edu = container_of(idev, struct iio_edu, idev);
	struct pci_dev *pdev = idev->priv;

	if (!used)
		pci_clear_master(pdev);
	else if (iio_dma_allowed(&pdev->dev, IIO_DMA_USE_MASTER,
				 &edu->master_refused))
		pci_set_master(pdev);
}

/*
 * User space can no longer reach the device: INTx masked in the device
 * (before the framework frees the interrupt, so that an interrupt raised
 * from now on, a DMA completing, say, cannot hold a shared line), no more
 * DMA, a reset where there is one (edu has none) and the device is there.
 */
static void iio_edu_quiesce(struct iio_device *idev)
{
	struct pci_dev *pdev = idev->priv;

	pci_intx(pdev, 0);
	pci_clear_master(pdev);
	iio_pci_reset_present(pdev);
}

static int iio_edu_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct iio_device *idev;
	struct iio_edu *edu;
	bool use_msi;
	int ret;

	edu = devm_kzalloc(&pdev->dev, sizeof(*edu), GFP_KERNEL);
	if (!edu)
		return -ENOMEM;
	idev = &edu->idev;

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	iio_pci_intx_off(pdev);
	ret = pcim_iomap_regions(pdev, BIT(EDU_BAR), KBUILD_MODNAME);
	if (ret)
		return ret;
	if (dma_size) {
		ret = dma_set_mask_and_coherent(&pdev->dev,
						DMA_BIT_MASK(EDU_DMA_BITS));
		if (ret)
			return ret;
	}
	/* bus mastering only while user space uses the device (in_use) */
	pci_clear_master(pdev);

	/* MSI is a memory write: without bus mastering it is lost */
	use_msi = msi && iio_dma_allowed(&pdev->dev, IIO_DMA_USE_MSI, NULL);
	ret = pci_alloc_irq_vectors(pdev, 1, 1,
				    use_msi ? PCI_IRQ_MSI : PCI_IRQ_INTX);
	if (ret < 0)
		return ret;

	idev->name = "edu";
	idev->version = "1.0";
	idev->physaddr = pci_resource_start(pdev, EDU_BAR);
	idev->virtaddr = pcim_iomap_table(pdev)[EDU_BAR];
	idev->size = pci_resource_len(pdev, EDU_BAR);
	idev->read_offset = 0;
	idev->read_len = PAGE_SIZE;
	idev->irq = pci_irq_vector(pdev, 0);
	idev->irq_type = threaded ? IIO_THREADED : IIO_EVENT;
	idev->handler = iio_edu_handler;
	idev->event_write = iio_edu_event_write;
	idev->in_use = iio_edu_in_use;
	idev->quiesce = iio_edu_quiesce;
	idev->priv = pdev;
	if (dma_size) {
		idev->dma_dev = &pdev->dev;
		idev->dma_size[0] = dma_size;
	}
	pci_set_drvdata(pdev, idev);

	ret = iio_register_device(&pdev->dev, idev);
	if (ret < 0)
		goto err_free_vectors;
	return 0;

err_free_vectors:
	pci_free_irq_vectors(pdev);
	pci_intx(pdev, 0);
	return ret;
}

/*
 * iio_unregister_device() quiesces the device (iio_edu_quiesce()) before it
 * frees the interrupt and the DMA buffer.  Turning MSI off turns INTx back
 * on in the device (pci_intx_for_msi()): masked again.
 */
static void iio_edu_remove(struct pci_dev *pdev)
{
	iio_unregister_device(pci_get_drvdata(pdev));
	pci_free_irq_vectors(pdev);
	pci_intx(pdev, 0);
}

static const struct pci_device_id iio_edu_ids[] = {
	{ PCI_DEVICE(0x1234, 0x11e8) },
	{ }
};
MODULE_DEVICE_TABLE(pci, iio_edu_ids);

static struct pci_driver iio_edu_driver = {
	.name = "iio_edu",
	.id_table = iio_edu_ids,
	.probe = iio_edu_probe,
	.remove = iio_edu_remove,
};
module_pci_driver(iio_edu_driver);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("iio stub for QEMU's edu device");
