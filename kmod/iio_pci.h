/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * iio_pci.h - what the PCI stubs share
 */
#ifndef _IIO_PCI_H_
#define _IIO_PCI_H_

#include <linux/pci.h>

/**
 * iio_pci_intx_off - mask INTx in a device, unbeknown to devres
 * @pdev: a device enabled with pcim_enable_device()
 *
 * pci_intx() on a managed device remembers the INTx state from before its
 * first change and restores it when the driver is unbound, after remove():
 * a device that interrupts later (a DMA completing) would then assert its
 * shared line with nobody to handle it.  A stub calls this right after
 * pcim_enable_device(), before pci_alloc_irq_vectors() or pci_intx() can
 * change INTx: the first change pci_intx() records is then an unmask, and
 * what unbinding restores is "masked".
 */
static inline void iio_pci_intx_off(struct pci_dev *pdev)
{
	u16 cmd;

	pci_read_config_word(pdev, PCI_COMMAND, &cmd);
	if (!(cmd & PCI_COMMAND_INTX_DISABLE))
		pci_write_config_word(pdev, PCI_COMMAND,
				      cmd | PCI_COMMAND_INTX_DISABLE);
}

/**
 * iio_pci_reset_present - reset a function at unbind, unless it is gone
 * @pdev: the device, its device lock held (remove(), or a quiesce called
 *	from it)
 *
 * Resets the function where it has a reset method (FLR and the like), so
 * that a device user space left running stops and the next binding finds
 * it idle; devices without one keep their state (-ENOTTY), as with
 * uio_pci_generic.  Not a device that is gone (a surprise removal: its
 * config space reads all ones): the PCI core would poll it for up to a
 * minute after the reset while holding the device lock and, under pciehp,
 * the PCI rescan and remove lock.
 */
static inline void iio_pci_reset_present(struct pci_dev *pdev)
{
	if (pci_device_is_present(pdev))
		pci_reset_function_locked(pdev);
	else
		pci_info(pdev, "gone: not reset\n");
}

#endif /* _IIO_PCI_H_ */
