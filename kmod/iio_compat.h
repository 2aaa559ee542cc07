/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * iio_compat.h - the kernel API differences between the kernels iio.ko
 * builds against, in one place
 *
 * The .c files are written against the newest kernel's API.  For an older
 * kernel, each difference below is one macro or inline helper that gives
 * the newer shape; none of them changes what the code does.  Tested on
 * Debian's 6.1, 6.12 and newest kernels (make check-kernels); the version
 * of each change is the mainline release that made it.
 *
 * Differences the code avoids instead (nothing here for them):
 *  - struct class lost .owner (6.4): never set, it was never read;
 *  - class attribute show() takes const pointers (6.4): the class's
 *    version file is a CLASS_ATTR_STRING;
 *  - platform_driver.remove() returns void (6.11): iio_user_dummy tears down
 *    through a devm action, with no .remove;
 *  - no_llseek is gone (6.12): the event node's open is stream_open(),
 *    which clears FMODE_LSEEK, so llseek() fails with ESPIPE on every
 *    kernel without a .llseek.
 */
#ifndef _IIO_COMPAT_H
#define _IIO_COMPAT_H

#include <linux/version.h>
#include <linux/hrtimer.h>
#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

/* 6.3: vma->vm_flags is read-only; vm_flags_set() changes it. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0)
static inline void vm_flags_set(struct vm_area_struct *vma, vm_flags_t flags)
{
	vma->vm_flags |= flags;
}
#endif

/*
 * 6.12: iommu-dma is called directly, not through dma_map_ops, and
 * use_dma_iommu() tells a device that uses it.  Before, iommu-dma was the
 * device's dma_map_ops (x86's only ones besides dma-direct's none, bar
 * AMD's GART and Xen's): a device with DMA operations is taken to use it.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/iommu-dma.h>
#else
#include <linux/dma-map-ops.h>

static inline bool use_dma_iommu(struct device *dev)
{
	return get_dma_ops(dev);
}
#endif

/*
 * 6.3: whether a device's MSI are isolated (interrupt remapping, or an MSI
 * controller that checks the requester, ARM's ITS) is asked of its IOMMU
 * group, iommu_group_has_isolated_msi(), as vfio_iommu_type1 does.
 * Before, vfio_iommu_type1 asked the MSI irq domains and the IOMMU's
 * IOMMU_CAP_INTR_REMAP, the same question.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
#include <linux/iommu.h>

static inline bool iio_isolated_msi(struct device *dev)
{
	struct iommu_group *group = iommu_group_get(dev);
	bool isolated;

	if (!group)
		return false;
	isolated = iommu_group_has_isolated_msi(group);
	iommu_group_put(group);
	return isolated;
}
#else
#include <linux/iommu.h>
#include <linux/irqdomain.h>

static inline bool iio_isolated_msi(struct device *dev)
{
	return irq_domain_check_msi_remap() ||
	       device_iommu_capable(dev, IOMMU_CAP_INTR_REMAP);
}
#endif

/*
 * 6.5: the PCI core turns a device's AER error reporting on when it
 * enumerates it (native AER); before, each driver did, with
 * pci_enable_pcie_error_reporting(), which 6.6 removed.  Without it an
 * uncorrectable error of the device is never reported (nor recovered).
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 5, 0)
#include <linux/aer.h>

static inline void iio_pci_error_reporting(struct pci_dev *pdev, bool on)
{
	if (on)
		pci_enable_pcie_error_reporting(pdev);
	else
		pci_disable_pcie_error_reporting(pdev);
}
#else
static inline void iio_pci_error_reporting(struct pci_dev *pdev, bool on)
{
}
#endif

/* 6.8: PCI_IRQ_LEGACY is PCI_IRQ_INTX (a macro: tested by name). */
#ifndef PCI_IRQ_INTX
#define PCI_IRQ_INTX PCI_IRQ_LEGACY
#endif

/* 7.0: kzalloc_obj() allocates an object of its argument's type. */
#ifndef kzalloc_obj
#define kzalloc_obj(P, gfp) kzalloc(sizeof(P), gfp)
#endif

/* 6.13: hrtimer_setup() initialises the timer and sets its function. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
static inline void hrtimer_setup(struct hrtimer *timer,
				 enum hrtimer_restart (*function)(struct hrtimer *),
				 clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
}
#endif

/*
 * 6.13: a bin_attribute's mmap() takes it const; 6.16: read() and write()
 * too, and an attribute group's bin_attrs is an array of const pointers.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define iio_bin_attr_mmap_const const
#else
#define iio_bin_attr_mmap_const
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
#define iio_bin_attr_const const
#else
#define iio_bin_attr_const
#endif

/*
 * 6.17: pfn_t is gone (linux/pfn_t.h with it); vmf_insert_mixed() takes
 * the page frame number.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 17, 0)
#include <linux/pfn_t.h>

static inline vm_fault_t iio_vmf_insert_mixed(struct vm_area_struct *vma,
					      unsigned long addr,
					      unsigned long pfn)
{
	return vmf_insert_mixed(vma, addr, pfn_to_pfn_t(pfn));
}
#else
#define iio_vmf_insert_mixed vmf_insert_mixed
#endif

#endif /* _IIO_COMPAT_H */
