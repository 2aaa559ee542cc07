/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pci_ident.h - who a device's PCI parent is and how it is set up, as
 * lspci -nnk and PCI sysfs tell it: IDs, class and their pci.ids names,
 * bound driver, BARs, interrupt mode, bus mastering, DMA policy, IOMMU
 * group (list's and info's identity columns)
 */
#ifndef IIOCTL_PCI_IDENT_H
#define IIOCTL_PCI_IDENT_H

#include <stdbool.h>

#include "device.h"

struct pci_ident {
	bool pci;			/* false: no PCI parent, all else "" */
	char id[16];			/* "1234:11e8" */
	char vendor[128], product[128];	/* pci.ids names, or "" */
	char class[8];			/* "00ff00" */
	char class_name[200];		/* pci.ids: "Subclass (Prog-if)", or "" */
	char driver[64];		/* the bound driver, or "" */
	char bars[96];			/* "0:mem,64,pref 2:io", or "" */
	char irq_mode[24];		/* "msix:4", "msi:1", "intx", "none" */
	char master[4];			/* "on", "off", or "" if unreadable */
	char dma[32];			/* iio's dma_iommu, or "" */
	char iommu_group[16];		/* the group's number, or "" */
};

/* Everything above, read now from sysfs (and pci.ids). */
void pci_ident(const struct iio_device_info *dev, struct pci_ident *id);

#endif
