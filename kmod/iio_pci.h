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

#endif /* _IIO_PCI_H_ */
