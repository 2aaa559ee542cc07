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
 *  - INTx (default): the handler masks INTx with the PCI core's
 *    pci_check_and_mask_intx() (under its config lock), so shared lines
 *    work (IRQ_NONE when the device did not interrupt).  Acknowledge the
 *    device's own interrupt, then write a native-endian 32-bit 1 to the
 *    event device to unmask INTx again (pci_check_and_unmask_intx(); 0
 *    masks it): if the device still asserts its interrupt, INTx stays
 *    masked and the event is counted again at once, as vfio-pci does.
 *    INTx is unmasked only while the device is in use (a file of any of
 *    its iio devices open): it is requested masked, unmasked at the first
 *    open (an interrupt left pending by an earlier user is then the new
 *    user's first event) and masked at the last close.  A device that
 *    cannot mask INTx is refused at bind, as mainline does.
 *  - MSI (module parameter msi=1): one edge-triggered vector, no masking
 *    needed; the event device's write of 1 or 0 enables or disables it.
 *    A device without MSI falls back to INTx and says so in the log.
 *  - MSI-X (module parameter vectors=N, 1 to 8): up to N vectors, one
 *    event node each (/dev/iioN_event is vector 0, /dev/iioN_eventK vector
 *    K); edge-triggered, nothing to acknowledge.  Fewer vectors than asked
 *    for are taken if that is all the device has; a device without MSI-X
 *    falls back to MSI, then INTx, and says so.
 *  - A device with neither gets no event source (its event device: EIO).
 *  - MSI and MSI-X are memory writes by the device, lost without bus
 *    mastering: where the DMA policy refuses bus mastering
 *    (iio_dma_allowed()), msi=1 and vectors=N fall back to INTx, with one
 *    line in the log that names the opt-in.
 * Any other write to the event device: EINVAL.  The PCI device's sysfs
 * attribute irq_mode says which one is in use: msix, msi, intx or none.
 *
 * DMA: user space adds coherent buffers to the device of the lowest BAR by
 * writing a size to its dma_request attribute (see iio(4)), up to dma_max
 * bytes in all, below a DMA mask of dma_bits bits.  They are freed on
 * unbind, after bus mastering is cleared and every mapping is gone (or
 * one at a time by dma_free, with the device left running).  Bus
 * mastering is turned on only where the DMA policy allows it: a device
 * user space drives reaches any bus address it is given.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "iio.h"
#include "iio_compat.h"
#include "iio_pci.h"

static bool msi;
module_param(msi, bool, 0444);
MODULE_PARM_DESC(msi, "use one MSI vector where the device has MSI (default no: INTx)");

static unsigned int vectors;
module_param(vectors, uint, 0444);
MODULE_PARM_DESC(vectors, "use up to this many MSI-X vectors, 1 to 8, one event node each (default 0: INTx or msi)");

static unsigned long dma_max = SZ_4M;
module_param(dma_max, ulong, 0444);
MODULE_PARM_DESC(dma_max, "bytes of DMA buffers user space may add per device (dma_request; default 4 MiB, 0: none)");

static unsigned int dma_bits = 32;
module_param(dma_bits, uint, 0444);
MODULE_PARM_DESC(dma_bits, "DMA mask of the bound devices in bits, 24 to 64 (default 32)");

enum iio_pci_irq_mode {
	IIO_PCI_IRQ_NONE,
	IIO_PCI_IRQ_INTX,
	IIO_PCI_IRQ_MSI,
	IIO_PCI_IRQ_MSIX,
};

static const char * const iio_pci_irq_mode_name[] = {
	[IIO_PCI_IRQ_NONE] = "none",
	[IIO_PCI_IRQ_INTX] = "intx",
	[IIO_PCI_IRQ_MSI] = "msi",
	[IIO_PCI_IRQ_MSIX] = "msix",
};

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
 * struct iio_pci_vector - MSI-X vector 1 and up, fed to its event node
 * @idev:	the iio device of the lowest BAR
 * @vector:	its number
 * @requested:	its interrupt is requested
 * @name:	its name in /proc/interrupts, "ADDR bar0 msixK"
 */
struct iio_pci_vector {
	struct iio_device *idev;
	unsigned int vector;
	bool requested;
	char name[48];
};

/**
 * struct iio_pci_generic - one bound PCI device
 * @pdev:	the device
 * @bars:	the registered BARs, in BAR order
 * @nr_bars:	how many of @bars are registered
 * @mode:	which interrupts it uses
 * @nr_vectors:	MSI-X: how many vectors (else 1)
 * @vectors:	MSI-X vectors 1 and up (index 0 unused: the framework's)
 * @irq_lock:	serialises the event device's mask and unmask
 * @intx_lock:	protects @intx_masked against the handler, and our changes
 *		of PCI_COMMAND against each other
 * @intx_masked: INTx only: masked by the handler, by user space or while
 *		nobody uses the device; while set, interrupts on the
 *		(shared) line are not ours
 * @irq_enabled: MSI only: the vector is enabled
 * @removing:	unbinding: a file opened or closed no longer masks or
 *		unmasks INTx
 * @users:	how many of @bars are in use (their files open): bus
 *		mastering is on while there are any (where it is allowed)
 * @master_refused: bus mastering was refused and the log says so
 * @mastering:	bus mastering is on (set_master()), under intx_lock
 * @errors:	PCI errors reported to us (AER's error_detected) since bind
 * @recoveries:	recoveries from them completed (AER's resume)
 * @subpage:	the reservations of the rest of sub-page BARs' last pages
 */
struct iio_pci_generic {
	struct pci_dev *pdev;
	struct iio_pci_bar bars[PCI_STD_NUM_BARS];
	int nr_bars;
	enum iio_pci_irq_mode mode;
	unsigned int nr_vectors;
	struct iio_pci_vector vectors[IIO_MAX_VECTORS];
	struct mutex irq_lock;	/* protects irq_enabled, removing, users */
	spinlock_t intx_lock;	/* protects intx_masked, PCI_COMMAND */
	bool intx_masked;
	bool irq_enabled;
	bool removing;
	unsigned int users;
	bool master_refused;
	bool mastering;
	atomic_t errors;
	atomic_t recoveries;
	struct resource *subpage[PCI_STD_NUM_BARS];
};

/* Interrupts from an MSI or MSI-X vector: edge-triggered, nothing masked. */
static bool iio_pci_generic_uses_msi(const struct iio_pci_generic *gdev)
{
	return gdev->mode == IIO_PCI_IRQ_MSI || gdev->mode == IIO_PCI_IRQ_MSIX;
}

/*
 * The device's interrupt status bit says whether the shared line is ours;
 * if so, pci_check_and_mask_intx() masks INTx in the device (one config
 * read and one write, under the PCI core's pci_lock, so no other config
 * access of the kernel's falls between them) until user space unmasks it.
 * A masked device must not claim the line (its status bit stays set while
 * an interrupt of another device there arrives).
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

/*
 * Mask INTx in the device, unless masked already; with @force whatever
 * this driver believed (MSI off and a restore of config space turn it on
 * behind our back).  Not pci_intx(), whose devres bookkeeping may sleep,
 * under a spinlock.
 */
static void iio_pci_generic_mask_intx(struct iio_pci_generic *gdev, bool force)
{
	unsigned long flags;
	u16 cmd;

	spin_lock_irqsave(&gdev->intx_lock, flags);
	if (gdev->intx_masked && !force)
		goto out;
	pci_read_config_word(gdev->pdev, PCI_COMMAND, &cmd);
	if (!(cmd & PCI_COMMAND_INTX_DISABLE))
		pci_write_config_word(gdev->pdev, PCI_COMMAND,
				      cmd | PCI_COMMAND_INTX_DISABLE);
	gdev->intx_masked = true;
out:
	spin_unlock_irqrestore(&gdev->intx_lock, flags);
}

/*
 * Unmask INTx unless the device still asserts its interrupt: then it stays
 * masked and the interrupt is counted as an event now (the handler would
 * have taken it at once), so user space handles it and unmasks again.  A
 * device that is gone reads all ones, its status bit included: no event
 * for it, it stays masked.  Under irq_lock.
 *
 * Return: 0, or -EIO for a device that is gone.
 */
static int iio_pci_generic_unmask_intx(struct iio_pci_generic *gdev)
{
	unsigned long flags;
	bool asserted = false;

	spin_lock_irqsave(&gdev->intx_lock, flags);
	if (gdev->intx_masked) {
		if (pci_check_and_unmask_intx(gdev->pdev))
			gdev->intx_masked = false;
		else
			asserted = true;
	}
	spin_unlock_irqrestore(&gdev->intx_lock, flags);
	if (!asserted)
		return 0;
	if (!pci_device_is_present(gdev->pdev))
		return -EIO;
	iio_event_add(&gdev->bars[0].idev, 1);
	return 0;
}

/*
 * Bus mastering on or off: under intx_lock, as the handler's masking
 * (pci_set_master() reads and writes PCI_COMMAND without pci_lock).
 */
static void iio_pci_generic_set_master(struct iio_pci_generic *gdev, bool on)
{
	unsigned long flags;

	spin_lock_irqsave(&gdev->intx_lock, flags);
	if (on)
		pci_set_master(gdev->pdev);
	else
		pci_clear_master(gdev->pdev);
	gdev->mastering = on;
	spin_unlock_irqrestore(&gdev->intx_lock, flags);
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
	int ret = 0;
	u32 val;

	if (count != sizeof(val))
		return -EINVAL;
	memcpy(&val, buf, sizeof(val));
	if (val > 1)
		return -EINVAL;

	/*
	 * Never after quiesce: the framework revokes the device first, and a
	 * write then fails with EIO before it gets here.
	 */
	mutex_lock(&gdev->irq_lock);
	if (!iio_pci_generic_uses_msi(gdev)) {
		if (val)
			ret = iio_pci_generic_unmask_intx(gdev);
		else
			iio_pci_generic_mask_intx(gdev, false);
	} else if (gdev->irq_enabled != val) {
		if (val)
			enable_irq(idev->irq);
		else
			disable_irq(idev->irq);
		gdev->irq_enabled = val;
	}
	mutex_unlock(&gdev->irq_lock);
	return ret ? ret : sizeof(val);
}

static irqreturn_t iio_pci_generic_vector(int irq, void *dev_id)
{
	struct iio_pci_vector *v = dev_id;

	iio_event_add_vector(v->idev, v->vector, 1);
	return IRQ_HANDLED;
}

/*
 * The interrupt of @gdev: MSI-X if vectors are asked for and present, MSI
 * if asked for (or instead of MSI-X) and present, else INTx.  MSI and
 * MSI-X only where bus mastering is allowed: they are memory writes.
 */
static int iio_pci_generic_irq(struct iio_pci_generic *gdev, long *irq)
{
	struct pci_dev *pdev = gdev->pdev;
	bool want_msi = msi || vectors;
	int ret;

	*irq = IIO_IRQ_NONE;
	gdev->nr_vectors = 1;
	if (want_msi && (pdev->msi_cap || (vectors && pdev->msix_cap)))
		want_msi = iio_dma_allowed(&pdev->dev, IIO_DMA_USE_MSI, NULL);
	if (vectors && want_msi) {
		ret = pci_alloc_irq_vectors(pdev, 1, vectors, PCI_IRQ_MSIX);
		if (ret > 0) {
			gdev->mode = IIO_PCI_IRQ_MSIX;
			gdev->nr_vectors = ret;
			pci_info(pdev, "%d MSI-X vectors\n", ret);
		} else {
			pci_info(pdev, "no MSI-X, trying MSI\n");
		}
	}
	if (!gdev->mode && want_msi) {
		if (pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_MSI) > 0)
			gdev->mode = IIO_PCI_IRQ_MSI;
		else
			pci_info(pdev, "no MSI, falling back to INTx\n");
	}
	if (iio_pci_generic_uses_msi(gdev)) {
		gdev->irq_enabled = true;
		*irq = pci_irq_vector(pdev, 0);
		return 0;
	}
	if (!pdev->irq || pdev->irq == IRQ_NOTCONNECTED) {
		pci_info(pdev, "no interrupt: its event device gives EIO\n");
		return 0;
	}
	if (!pci_intx_mask_supported(pdev)) {
		pci_err(pdev, "refused: the device cannot mask INTx\n");
		return -ENODEV;
	}
	gdev->mode = IIO_PCI_IRQ_INTX;
	*irq = pdev->irq;
	return 0;
}

static void iio_pci_generic_free_vectors(struct iio_pci_generic *gdev)
{
	unsigned int i;

	for (i = 1; i < gdev->nr_vectors; i++) {
		if (gdev->vectors[i].requested)
			free_irq(pci_irq_vector(gdev->pdev, i), &gdev->vectors[i]);
		gdev->vectors[i].requested = false;
	}
}

/* MSI-X vectors 1 and up, once the device of the lowest BAR is registered */
static int iio_pci_generic_request_vectors(struct iio_pci_generic *gdev)
{
	struct iio_pci_bar *bar = &gdev->bars[0];
	unsigned int i;
	int ret;

	for (i = 1; i < gdev->nr_vectors; i++) {
		struct iio_pci_vector *v = &gdev->vectors[i];

		v->idev = &bar->idev;
		v->vector = i;
		snprintf(v->name, sizeof(v->name), "%s msix%u", bar->name, i);
		ret = request_irq(pci_irq_vector(gdev->pdev, i),
				  iio_pci_generic_vector, 0, v->name, v);
		if (ret) {
			iio_pci_generic_free_vectors(gdev);
			return ret;
		}
		v->requested = true;
	}
	return 0;
}

static ssize_t irq_mode_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct iio_pci_generic *gdev = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%s\n", iio_pci_irq_mode_name[gdev->mode]);
}
static DEVICE_ATTR_RO(irq_mode);

static ssize_t errors_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct iio_pci_generic *gdev = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%d\n", atomic_read(&gdev->errors));
}
static DEVICE_ATTR_RO(errors);

static ssize_t recoveries_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct iio_pci_generic *gdev = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%d\n", atomic_read(&gdev->recoveries));
}
static DEVICE_ATTR_RO(recoveries);

static struct attribute *iio_pci_generic_attrs[] = {
	&dev_attr_irq_mode.attr,
	&dev_attr_errors.attr,
	&dev_attr_recoveries.attr,
	NULL,
};
ATTRIBUTE_GROUPS(iio_pci_generic);

/*
 * Bus mastering is on while any BAR's device is in use: user space drives
 * the device then, and DMA and MSI (a memory write) need it.  Not on a
 * device without DMA buffers (dma_max=0) that uses INTx, nor where the DMA
 * policy refuses it (iio_dma_allowed()).  INTx is unmasked while it is in
 * use too: an interrupt pending from an earlier user becomes the first
 * event of the new one, and no interrupt holds a shared line while nobody
 * is there to acknowledge it.
 */
static void iio_pci_generic_in_use(struct iio_device *idev, bool used)
{
	struct iio_pci_bar *bar = container_of(idev, struct iio_pci_bar, idev);
	struct iio_pci_generic *gdev = bar->gdev;

	mutex_lock(&gdev->irq_lock);
	if (used ? !gdev->users++ : !--gdev->users) {
		if (!used)
			iio_pci_generic_set_master(gdev, false);
		else if ((dma_max || iio_pci_generic_uses_msi(gdev)) &&
			 iio_dma_allowed(&gdev->pdev->dev, IIO_DMA_USE_MASTER,
					 &gdev->master_refused))
			iio_pci_generic_set_master(gdev, true);
		if (gdev->mode == IIO_PCI_IRQ_INTX && !gdev->removing) {
			if (used)
				iio_pci_generic_unmask_intx(gdev);
			else
				iio_pci_generic_mask_intx(gdev, false);
		}
	}
	mutex_unlock(&gdev->irq_lock);
}

/*
 * The device of the lowest BAR is unregistered last, once user space can
 * reach none of them: silence the function before its interrupt is freed
 * and its DMA buffers go.
 */
static void iio_pci_generic_quiesce(struct iio_device *idev)
{
	struct iio_pci_bar *bar = container_of(idev, struct iio_pci_bar, idev);
	struct iio_pci_generic *gdev = bar->gdev;

	mutex_lock(&gdev->irq_lock);
	gdev->removing = true;
	/* free_irq() of the framework wants the MSI vector enabled */
	if (iio_pci_generic_uses_msi(gdev) && !gdev->irq_enabled)
		enable_irq(idev->irq);
	gdev->irq_enabled = true;
	mutex_unlock(&gdev->irq_lock);

	/* a line the device still asserts is released here, not after */
	iio_pci_generic_mask_intx(gdev, true);
	iio_pci_generic_free_vectors(gdev);
	iio_pci_generic_set_master(gdev, false);
	/*
	 * A device user space left running (an NVMe controller with queues in
	 * our DMA buffers) may have fetched addresses before bus mastering
	 * went off: reset it where it can be (iio_pci_reset_present()), so
	 * nothing lands in the buffers once freed and a later bind finds it
	 * idle.
	 */
	iio_pci_reset_present(gdev->pdev);
}

/*
 * Every BAR's device away from user space first (no access to a device in
 * reset), then each unregistered, the lowest last (its quiesce silences
 * the function); then MSI or MSI-X off, which turns INTx back on in the
 * device (pci_intx_for_msi()): masked again, so that an interrupt the
 * device raises later cannot hold a shared line.
 */
static void iio_pci_generic_unregister(struct iio_pci_generic *gdev)
{
	int i;

	for (i = 0; i < gdev->nr_bars; i++)
		iio_revoke_device(&gdev->bars[i].idev);
	while (gdev->nr_bars)
		iio_unregister_device(&gdev->bars[--gdev->nr_bars].idev);
	if (iio_pci_generic_uses_msi(gdev))
		pci_free_irq_vectors(gdev->pdev);
	iio_pci_generic_mask_intx(gdev, true);
	iio_pci_error_reporting(gdev->pdev, false);
	for (i = 0; i < PCI_STD_NUM_BARS; i++) {
		if (gdev->subpage[i]) {
			release_resource(gdev->subpage[i]);
			kfree(gdev->subpage[i]);
			gdev->subpage[i] = NULL;
		}
	}
}

/*
 * While MSI-X is in use, its table and PBA are the kernel's: user space may
 * read them but not write or map them (iio_device.reserved).
 */
static void iio_pci_generic_reserve_msix(struct iio_pci_generic *gdev,
					 int bar, struct iio_device *idev)
{
	struct pci_dev *pdev = gdev->pdev;
	unsigned int entries, n = 0;
	u32 table, pba;
	u16 flags;

	if (gdev->mode != IIO_PCI_IRQ_MSIX)
		return;
	pci_read_config_word(pdev, pdev->msix_cap + PCI_MSIX_FLAGS, &flags);
	pci_read_config_dword(pdev, pdev->msix_cap + PCI_MSIX_TABLE, &table);
	pci_read_config_dword(pdev, pdev->msix_cap + PCI_MSIX_PBA, &pba);
	entries = (flags & PCI_MSIX_FLAGS_QSIZE) + 1;
	if ((table & PCI_MSIX_TABLE_BIR) == bar) {
		idev->reserved[n].offset = table & PCI_MSIX_TABLE_OFFSET;
		idev->reserved[n++].len = entries * PCI_MSIX_ENTRY_SIZE;
	}
	if ((pba & PCI_MSIX_PBA_BIR) == bar) {
		idev->reserved[n].offset = pba & PCI_MSIX_PBA_OFFSET;
		idev->reserved[n].len = DIV_ROUND_UP(entries, 64) * 8;
	}
}

/*
 * A memory BAR smaller than a page may be mapped only if nothing else can
 * live in the rest of its page: reserve that (as vfio-pci does).  A BAR
 * that does not start a page, or whose page is shared already, is not
 * mappable (iio_device.page_reserved stays false).
 */
static void iio_pci_generic_reserve_page(struct iio_pci_generic *gdev,
					 int bar, struct iio_device *idev)
{
	struct resource *res = &gdev->pdev->resource[bar];
	struct resource *rest;

	if (!(res->flags & IORESOURCE_MEM) || resource_size(res) >= PAGE_SIZE ||
	    !PAGE_ALIGNED(res->start) || !res->parent)
		return;
	rest = kzalloc_obj(*rest, GFP_KERNEL);
	if (!rest)
		return;
	rest->name = "iio_pci_generic sub-page reserved";
	rest->start = res->end + 1;
	rest->end = res->start + PAGE_SIZE - 1;
	rest->flags = res->flags;
	if (request_resource(res->parent, rest)) {
		pci_info(gdev->pdev, "BAR %d shares its page: not mappable\n",
			 bar);
		kfree(rest);
		return;
	}
	gdev->subpage[bar] = rest;
	idev->page_reserved = true;
}

static int iio_pci_generic_probe(struct pci_dev *pdev,
				 const struct pci_device_id *id)
{
	struct iio_pci_generic *gdev;
	long irq;
	int i, ret;

	/* a bridge's bus mastering and resets are those of all behind it */
	if (pdev->hdr_type != PCI_HEADER_TYPE_NORMAL) {
		pci_err(pdev, "refused: not a type 0 header (a bridge)\n");
		return -EINVAL;
	}
	gdev = devm_kzalloc(&pdev->dev, sizeof(*gdev), GFP_KERNEL);
	if (!gdev)
		return -ENOMEM;
	gdev->pdev = pdev;
	mutex_init(&gdev->irq_lock);
	spin_lock_init(&gdev->intx_lock);

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	iio_pci_intx_off(pdev);
	ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(dma_bits));
	if (ret)
		return ret;
	/* bus mastering only while user space uses the device (in_use) */
	iio_pci_generic_set_master(gdev, false);
	ret = iio_pci_generic_irq(gdev, &irq);
	if (ret)
		return ret;
	/* INTx stays masked (iio_pci_intx_off()) until the first open */
	gdev->intx_masked = true;
	pci_set_drvdata(pdev, gdev);
	/* nothing for a device without AER, or without native AER */
	iio_pci_error_reporting(pdev, true);
	/* what an AER recovery's link reset loses (slot_reset) */
	pci_save_state(pdev);

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
		idev->in_use = iio_pci_generic_in_use;
		iio_pci_generic_reserve_msix(gdev, i, idev);
		iio_pci_generic_reserve_page(gdev, i, idev);
		if (!gdev->nr_bars)
			idev->quiesce = iio_pci_generic_quiesce;
		if (!gdev->nr_bars && irq != IIO_IRQ_NONE) {
			idev->irq = irq;
			idev->handler = iio_pci_generic_uses_msi(gdev) ?
					iio_pci_generic_msi :
					iio_pci_generic_intx;
			idev->event_write = iio_pci_generic_event_write;
			idev->vectors = gdev->nr_vectors;
		}
		if (!gdev->nr_bars) {
			idev->dma_dev = &pdev->dev;
			idev->dma_user_max = dma_max;
		}
		ret = iio_register_device(&pdev->dev, idev);
		if (ret < 0)
			goto err_unregister;
		gdev->nr_bars++;
	}
	if (gdev->nr_bars) {
		ret = iio_pci_generic_request_vectors(gdev);
		if (ret)
			goto err_unregister;
	}
	return 0;

err_unregister:
	iio_pci_generic_unregister(gdev);
	return ret;
}

static void iio_pci_generic_remove(struct pci_dev *pdev)
{
	iio_pci_generic_unregister(pci_get_drvdata(pdev));
}

/*
 * With no PM callbacks at all the PCI core re-enables the device on resume
 * (pci_pm_reenable_device()), which unmasks INTx behind our back: a level
 * interrupt pending while we believe INTx masked would storm the shared
 * line until the kernel disables it.  With these, the core saves config
 * space at suspend and restores it at resume; what user space masked (or
 * the handler did) is masked again here all the same.
 */
static int iio_pci_generic_resume(struct device *dev)
{
	struct iio_pci_generic *gdev = dev_get_drvdata(dev);
	unsigned long flags;
	bool masked;

	mutex_lock(&gdev->irq_lock);
	spin_lock_irqsave(&gdev->intx_lock, flags);
	masked = gdev->intx_masked;
	spin_unlock_irqrestore(&gdev->intx_lock, flags);
	if (gdev->mode == IIO_PCI_IRQ_INTX && masked)
		iio_pci_generic_mask_intx(gdev, true);
	mutex_unlock(&gdev->irq_lock);
	return 0;
}

static DEFINE_SIMPLE_DEV_PM_OPS(iio_pci_generic_pm, NULL,
				iio_pci_generic_resume);

/*
 * A reset the PCI core runs while the device is bound (the sysfs reset
 * file, any reset of the core's that calls these): every BAR's device is
 * kept from user space and its mappings zapped first (a page is faulted in
 * again afterwards); the event device's mask and unmask, and the first
 * open's bus mastering and unmask, wait with the rest (they run under
 * idev_lock), so that nobody touches the function in reset.  No lock of
 * ours beyond that is held across the reset: the core's reset takes
 * pci_bus_sem, under which an AER recovery calls slot_reset (irq_lock).
 * The core saves config space before and restores it after (INTx masking
 * and bus mastering included); the device's own state is the user's to
 * set up again.  Not while the
 * device is being unbound: the BARs are gone, and quiesce's own reset
 * comes here too.
 */
static void iio_pci_generic_reset_prepare(struct pci_dev *pdev)
{
	struct iio_pci_generic *gdev = pci_get_drvdata(pdev);
	int i;

	for (i = 0; i < gdev->nr_bars; i++)
		iio_lock_access(&gdev->bars[i].idev, i);
}

static void iio_pci_generic_reset_done(struct pci_dev *pdev)
{
	struct iio_pci_generic *gdev = pci_get_drvdata(pdev);
	int i;

	for (i = gdev->nr_bars - 1; i >= 0; i--)
		iio_unlock_access(&gdev->bars[i].idev);
}

/*
 * AER: user space learns of each error and each completed recovery
 * through the PCI device's errors and recoveries attributes (pollable:
 * POLLPRI).  A non-fatal error lets the device go on.  A frozen link wants
 * a reset, which the core runs between here and slot_reset without
 * reset_prepare: every BAR's mappings are zapped first, so a page is
 * faulted in again afterwards (held off they are not: a recovery that
 * fails never calls back).  A permanent failure disconnects it.
 */
static pci_ers_result_t iio_pci_generic_error_detected(struct pci_dev *pdev,
						       pci_channel_state_t state)
{
	struct iio_pci_generic *gdev = pci_get_drvdata(pdev);
	int i;

	if (state == pci_channel_io_frozen)
		for (i = 0; i < gdev->nr_bars; i++)
			iio_zap_mappings(&gdev->bars[i].idev);
	atomic_inc(&gdev->errors);
	sysfs_notify(&pdev->dev.kobj, NULL, "errors");
	pci_info(pdev, "PCI error (channel state %d): user space told\n",
		 state);
	switch (state) {
	case pci_channel_io_normal:
		return PCI_ERS_RESULT_CAN_RECOVER;
	case pci_channel_io_frozen:
		return PCI_ERS_RESULT_NEED_RESET;
	default:
		return PCI_ERS_RESULT_DISCONNECT;
	}
}

static pci_ers_result_t iio_pci_generic_mmio_enabled(struct pci_dev *pdev)
{
	return PCI_ERS_RESULT_RECOVERED;
}

/*
 * The link was reset (a frozen link's recovery, without the save and
 * restore of reset_prepare and reset_done): config space as saved at bind
 * (BARs, MSI and MSI-X, error reporting), then what changed since, bus
 * mastering and INTx masking.
 */
static pci_ers_result_t iio_pci_generic_slot_reset(struct pci_dev *pdev)
{
	struct iio_pci_generic *gdev = pci_get_drvdata(pdev);
	unsigned long flags;
	bool masked;

	pci_restore_state(pdev);
	pci_save_state(pdev);
	mutex_lock(&gdev->irq_lock);
	spin_lock_irqsave(&gdev->intx_lock, flags);
	masked = gdev->intx_masked;
	spin_unlock_irqrestore(&gdev->intx_lock, flags);
	iio_pci_generic_set_master(gdev, gdev->mastering);
	if (gdev->mode == IIO_PCI_IRQ_INTX) {
		iio_pci_generic_mask_intx(gdev, true);
		if (!masked)
			iio_pci_generic_unmask_intx(gdev);
	}
	mutex_unlock(&gdev->irq_lock);
	return PCI_ERS_RESULT_RECOVERED;
}

static void iio_pci_generic_error_resume(struct pci_dev *pdev)
{
	struct iio_pci_generic *gdev = pci_get_drvdata(pdev);

	atomic_inc(&gdev->recoveries);
	sysfs_notify(&pdev->dev.kobj, NULL, "recoveries");
}

static const struct pci_error_handlers iio_pci_generic_err_handler = {
	.error_detected = iio_pci_generic_error_detected,
	.mmio_enabled = iio_pci_generic_mmio_enabled,
	.slot_reset = iio_pci_generic_slot_reset,
	.reset_prepare = iio_pci_generic_reset_prepare,
	.reset_done = iio_pci_generic_reset_done,
	.resume = iio_pci_generic_error_resume,
};

/*
 * No id table at all: it binds only what a user gives it (new_id,
 * driver_override).  An empty table would make new_id refuse every id.
 */
static struct pci_driver iio_pci_generic_driver = {
	.name = "iio_pci_generic",
	.id_table = NULL,
	.probe = iio_pci_generic_probe,
	.remove = iio_pci_generic_remove,
	.dev_groups = iio_pci_generic_groups,
	.driver.pm = pm_sleep_ptr(&iio_pci_generic_pm),
	.err_handler = &iio_pci_generic_err_handler,
};

/* Bad parameters fail the module load (insmod: EINVAL), not each bind. */
static int __init iio_pci_generic_init(void)
{
	if (vectors > IIO_MAX_VECTORS || dma_bits < 24 || dma_bits > 64) {
		pr_err("vectors is at most %d, dma_bits 24 to 64\n",
		       IIO_MAX_VECTORS);
		return -EINVAL;
	}
	return pci_register_driver(&iio_pci_generic_driver);
}
module_init(iio_pci_generic_init);

static void __exit iio_pci_generic_exit(void)
{
	pci_unregister_driver(&iio_pci_generic_driver);
}
module_exit(iio_pci_generic_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("iio: drive any PCI device from user space, with MSI");
