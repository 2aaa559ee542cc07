// SPDX-License-Identifier: GPL-2.0-only
/*
 * iio_dma.c - coherent DMA buffers that user space reads, writes and maps
 *
 * Not in the 2006 RFC: a user-space PCI driver needs memory its device
 * can reach by DMA and whose bus address it knows.  A stub asks for up to
 * IIO_DMA_MAX buffers (iio_device.dma_dev, .dma_size); each is allocated
 * with dma_alloc_coherent() at registration and appears as a child device
 * iioN_dmaK of /sys/class/iio/iioN (class iio_dma, DEVTYPE iio_user_dma, so
 * that it sends uevents), reached through the link /sys/class/iio/iioN/dmaK:
 *
 *   dmaK/size      bytes, hex ("0x10000")
 *   dmaK/bus_addr  the address the device uses, hex; mode 0400, as it
 *                  gives away a physical address
 *   dmaK/buffer    the memory: read, write (any size and offset) and
 *                  mmap (MAP_SHARED, from offset 0 up to size), mode 0600
 *
 * Who the device can reach (the policy of iio_dma_policy()): where an
 * IOMMU translates the device's DMA (a DMA-API paging domain with strict
 * invalidation), the device is alone in its IOMMU group and its MSI are
 * isolated (interrupt remapping), the buffers come through the IOMMU,
 * bus_addr is an I/O virtual address and the device reaches those buffers
 * and nothing else.  Without translation (no IOMMU, or an
 * identity/passthrough domain) the device reaches all memory: user space
 * could program it with any bus address; in a group shared with other
 * devices it reaches whatever is mapped for them (one domain serves the
 * whole group; vfio too wants the whole group); with lazy invalidation
 * (DMA-FQ) it reaches a freed buffer until the flush queue is flushed.
 * Then no buffer is allocated (dma_request fails with EPERM, a stub's own
 * buffers are left out) unless the administrator opted in with the module
 * parameter enable_unsafe_noiommu_mode, as vfio's of that name: the first
 * such buffer taints the kernel (TAINT_USER) and logs one warning.
 * Translated without interrupt remapping, the device can write the MSI
 * window and raise any interrupt on any CPU: refused in the same way
 * unless the administrator opted in with allow_unsafe_interrupts (as
 * vfio_iommu_type1's), or with enable_unsafe_noiommu_mode, which allows
 * more.  Only root may use these files (and the region nodes) either way.
 * The same policy
 * tells the PCI stubs whether the device may master the bus at all
 * (iio_dma_allowed()): programmed from user space it reaches any bus
 * address, buffer or not, and its MSI messages are memory writes.
 *
 * Mapping: the pages are mapped with the attributes dma_mmap_coherent()
 * would give them (iio_dma_pgprot()), not with the VMA's as given.
 *
 * Lifetime: unregistration deletes each buffer's device first, with the
 * rest of the revocation: sysfs (kernfs) waits for every read, write, mmap
 * and page fault in progress, then zaps every user mapping of
 * dmaK/buffer, so a later touch raises SIGBUS and open files get ENODEV.
 * The memory is freed last, after the stub has quiesced the device (see
 * iio_unregister_device()), while it is still bound.  mmap() only checks the request: pages
 * are inserted by the fault handler, which runs with the file active, so
 * no page can be mapped after the zap (inserting them in mmap() would
 * race: the new VMA is not yet on the file's mapping while ->mmap runs).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cc_platform.h>
#include <linux/device.h>
#include <linux/dma-map-ops.h>
#include <linux/dma-mapping.h>
#include <linux/iommu.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/ratelimit.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "iio_internal.h"

static bool enable_unsafe_noiommu_mode;
module_param(enable_unsafe_noiommu_mode, bool, 0644);
MODULE_PARM_DESC(enable_unsafe_noiommu_mode,
		 "allow DMA buffers for devices whose DMA no IOMMU translates (the device can reach all memory; taints the kernel on first use; default off)");

static bool allow_unsafe_interrupts;
module_param(allow_unsafe_interrupts, bool, 0644);
MODULE_PARM_DESC(allow_unsafe_interrupts,
		 "allow DMA buffers and bus mastering for devices an IOMMU translates without interrupt remapping (the device can raise any interrupt; taints the kernel on first use; default off)");

/**
 * struct iio_dma_buffer - one coherent buffer, /sys/class/iio/iioN/dmaK
 * @dev:	child of the class device; its release frees the buffer
 * @dma_dev:	the device that allocated it (a reference is held)
 * @cpu_addr:	kernel address of the buffer
 * @bus_addr:	the device's address of the buffer
 * @size:	length in bytes, a multiple of PAGE_SIZE
 * @translated:	an IOMMU translates @dma_dev's DMA (iommu-dma allocated it)
 * @requested:	user space added it (dma_request), so it may free it
 * @data:	the dmaK/buffer file
 * @bin_attrs:	@data and the terminating NULL
 * @group:	the group holding @bin_attrs, for @groups
 * @groups:	@group and iio_dma_group, the device's sysfs groups
 * @link:	"dmaK", its link in the class device's folder
 */
struct iio_dma_buffer {
	struct device dev;
	struct device *dma_dev;
	void *cpu_addr;
	dma_addr_t bus_addr;
	size_t size;
	bool translated;
	bool requested;
	struct bin_attribute data;
	iio_bin_attr_const struct bin_attribute *bin_attrs[2];
	struct attribute_group group;
	const struct attribute_group *groups[3];
	char link[8];
};

#define to_iio_dma_buffer(d) container_of(d, struct iio_dma_buffer, dev)

/*
 * An IOMMU translates @dma_dev's DMA through a DMA-API paging domain (so
 * iommu-dma allocates its buffers), strict or lazy.  While a driver is
 * bound the group's domain is its default one: iommu_device_use_default_domain()
 * at probe refuses a group that another owner (vfio) claimed, and such a
 * claim fails while we are bound.
 */
static bool iio_dma_translated(struct device *dma_dev)
{
	struct iommu_domain *domain = iommu_get_domain_for_dev(dma_dev);

	return domain && (domain->type & __IOMMU_DOMAIN_PAGING) &&
	       iommu_is_dma_domain(domain);
}

/*
 * Translated with strict invalidation: an unmapped buffer is out of reach
 * when dma_free_coherent() returns, not once a flush queue (DMA-FQ) is
 * flushed, milliseconds later.
 */
static bool iio_dma_strict(struct device *dma_dev)
{
	struct iommu_domain *domain = iommu_get_domain_for_dev(dma_dev);

	return domain && domain->type == IOMMU_DOMAIN_DMA;
}

/* PCI bridges (ports) do no DMA of their own: vfio lets them be */
static int iio_dma_count_device(struct device *dev, void *count)
{
	if (!dev_is_pci(dev) || !pci_is_bridge(to_pci_dev(dev)))
		(*(unsigned int *)count)++;
	return 0;
}

/*
 * @dma_dev alone in its IOMMU group, but for bridges.  The devices of a
 * group (functions of one slot without ACS, devices behind a PCIe-to-PCI
 * bridge) share one domain: each reaches every I/O virtual address mapped
 * for any of them, its buffers and the DMA mappings of a kernel driver
 * alike.
 */
static bool iio_dma_group_alone(struct device *dma_dev)
{
	struct iommu_group *group = iommu_group_get(dma_dev);
	unsigned int devices = 0;

	if (!group)
		return false;
	iommu_group_for_each_dev(group, &devices, iio_dma_count_device);
	iommu_group_put(group);
	return devices == 1;
}

/**
 * enum iio_dma_gap - what keeps a device's DMA from being confined
 * @IIO_DMA_CONFINED:	nothing: translated strictly, alone in its group,
 *			its MSI isolated
 * @IIO_DMA_UNTRANSLATED: no IOMMU translates it (none, or identity)
 * @IIO_DMA_SHARED:	translated, in a group with other devices
 * @IIO_DMA_LAZY:	translated with lazy invalidation (DMA-FQ)
 * @IIO_DMA_MSI_OPEN:	translated, but no interrupt remapping: it can write
 *			any MSI
 */
enum iio_dma_gap {
	IIO_DMA_CONFINED,
	IIO_DMA_UNTRANSLATED,
	IIO_DMA_SHARED,
	IIO_DMA_LAZY,
	IIO_DMA_MSI_OPEN,
};

static enum iio_dma_gap iio_dma_gap(struct device *dma_dev)
{
	if (!iio_dma_translated(dma_dev))
		return IIO_DMA_UNTRANSLATED;
	if (!iio_dma_group_alone(dma_dev))
		return IIO_DMA_SHARED;
	if (!iio_dma_strict(dma_dev))
		return IIO_DMA_LAZY;
	if (!iio_isolated_msi(dma_dev))
		return IIO_DMA_MSI_OPEN;
	return IIO_DMA_CONFINED;
}

/**
 * iio_dma_policy - may DMA buffers be allocated on @dma_dev, and why
 * @dma_dev: the device that does the DMA
 *
 * Reads enable_unsafe_noiommu_mode and allow_unsafe_interrupts as they
 * are now (they are writable at run time).
 *
 * Return: %IIO_DMA_TRANSLATED where an IOMMU translates the device's DMA
 * (a DMA domain, strict), the device is alone in its IOMMU group and its
 * MSI are isolated; %IIO_DMA_UNSAFE_INTERRUPTS where all but the last
 * hold and allow_unsafe_interrupts is on; otherwise %IIO_DMA_UNSAFE when
 * the administrator opted in with enable_unsafe_noiommu_mode,
 * %IIO_DMA_REFUSED when not.
 */
enum iio_dma_protection iio_dma_policy(struct device *dma_dev)
{
	enum iio_dma_gap gap = iio_dma_gap(dma_dev);

	if (gap == IIO_DMA_CONFINED)
		return IIO_DMA_TRANSLATED;
	if (gap == IIO_DMA_MSI_OPEN && READ_ONCE(allow_unsafe_interrupts))
		return IIO_DMA_UNSAFE_INTERRUPTS;
	return READ_ONCE(enable_unsafe_noiommu_mode) ? IIO_DMA_UNSAFE :
						       IIO_DMA_REFUSED;
}

/*
 * The line that names the opt-in, after @what ("DMA buffer refused"): one
 * ratelimit for all of them (at most ten in five seconds, as iio(4) says),
 * unless @limited is false (a stub's choice at bind, which only the
 * administrator makes).  Return: the line was logged.
 */
static bool iio_dma_refusal(struct device *dev, struct device *dma_dev,
			    const char *what, bool limited)
{
	static DEFINE_RATELIMIT_STATE(refusals, DEFAULT_RATELIMIT_INTERVAL,
				      DEFAULT_RATELIMIT_BURST);
	static const char * const why[] = {
		[IIO_DMA_UNTRANSLATED] =
			"no IOMMU translates the DMA of %s, which could reach all memory",
		[IIO_DMA_SHARED] =
			"%s shares its IOMMU group with other devices, whose DMA mappings it could reach",
		[IIO_DMA_LAZY] =
			"the IOMMU unmaps the DMA of %s lazily (DMA-FQ), which could reach freed memory meanwhile; iommu.strict=1 at boot, or DMA written to its IOMMU group's type while it is unbound, makes it strict",
		[IIO_DMA_MSI_OPEN] =
			"no interrupt remapping isolates the MSI of %s, which could raise any interrupt",
	};
	enum iio_dma_gap gap = iio_dma_gap(dma_dev);
	char reason[256];

	if (gap == IIO_DMA_CONFINED)
		return false;
	if (limited && !__ratelimit(&refusals))
		return false;
	snprintf(reason, sizeof(reason), why[gap], dev_name(dma_dev));
	dev_notice(dev, "%s: %s; %s allows it (unsafe, taints the kernel)\n",
		   what, reason, gap == IIO_DMA_MSI_OPEN ?
		   "iio.allow_unsafe_interrupts=1" :
		   "iio.enable_unsafe_noiommu_mode=1");
	return true;
}

/* 0, or -EPERM with the line that names the opt-in (ratelimited) */
static int iio_dma_permit(struct iio_class_dev *icd, struct device *dma_dev)
{
	if (iio_dma_policy(dma_dev) != IIO_DMA_REFUSED)
		return 0;
	iio_dma_refusal(&icd->dev, dma_dev, "DMA buffer refused", true);
	return -EPERM;
}

/*
 * The first use of this load allowed by an opt-in (@policy: which one) for
 * each way the device escapes confinement (@what: "DMA buffer", "bus
 * mastering"): taint and say so, naming what the device can reach and
 * the opt-in.  One warning for each opt-in and gap: a later device of
 * another kind gets its own.
 */
static void iio_dma_unsafe_use(struct device *dma_dev, const char *what,
			       enum iio_dma_protection policy)
{
	static const char * const how[] = {
		[IIO_DMA_UNTRANSLATED] =
			"without IOMMU translation (%s): the device can reach all memory",
		[IIO_DMA_SHARED] =
			"in a shared IOMMU group (%s): the device can reach the DMA mappings of the others",
		[IIO_DMA_LAZY] =
			"with lazy IOMMU invalidation (%s): the device can reach freed memory",
		[IIO_DMA_MSI_OPEN] =
			"without interrupt remapping (%s): the device can raise any interrupt",
	};
	static atomic_t used[2][IIO_DMA_MSI_OPEN + 1];
	bool irq_opt_in = policy == IIO_DMA_UNSAFE_INTERRUPTS;
	enum iio_dma_gap gap = iio_dma_gap(dma_dev);
	char text[160];

	if (gap == IIO_DMA_CONFINED || atomic_xchg(&used[irq_opt_in][gap], 1))
		return;
	add_taint(TAINT_USER, LOCKDEP_STILL_OK);
	snprintf(text, sizeof(text), how[gap], irq_opt_in ?
		 "allow_unsafe_interrupts" : "enable_unsafe_noiommu_mode");
	dev_warn(dma_dev, "iio: %s %s; kernel tainted\n", what, text);
}

/**
 * iio_dma_allowed - may a device master the bus (DMA, and MSI)
 * @dma_dev: the device (its PCI function) that would master the bus
 * @use: %IIO_DMA_USE_MASTER when the stub is about to turn bus mastering
 *	on (the first open of the device), %IIO_DMA_USE_MSI when it chooses
 *	MSI or MSI-X at bind (a memory write by the device: without bus
 *	mastering it is lost, and the stub uses INTx instead)
 * @refusal_logged: NULL, or the stub's flag for this binding: the refusal
 *	is logged only while it is false, and sets it
 *
 * The policy of the DMA buffers (iio_dma_policy()), read now: user space
 * that drives a bus master can make it reach any bus address, with or
 * without a buffer of ours.  Translated: true.  Unsafe (the administrator
 * opted in with enable_unsafe_noiommu_mode): true, and for
 * %IIO_DMA_USE_MASTER the first use of this load without translation
 * taints the kernel and logs one warning, as the first such DMA buffer
 * does (one taint and one warning for both).  Refused: false, with the
 * line that names iio.enable_unsafe_noiommu_mode=1 ("bus mastering
 * refused: ...", ratelimited with the DMA buffers' refusals, or "MSI
 * refused (it needs bus mastering), INTx instead: ...", not ratelimited).
 *
 * Context: process context.
 * Return: true where the device may master the bus.
 */
bool iio_dma_allowed(struct device *dma_dev, enum iio_dma_use use,
		     bool *refusal_logged)
{
	enum iio_dma_protection policy = iio_dma_policy(dma_dev);
	bool logged;

	switch (policy) {
	case IIO_DMA_TRANSLATED:
		return true;
	case IIO_DMA_UNSAFE_INTERRUPTS:
	case IIO_DMA_UNSAFE:
		if (use == IIO_DMA_USE_MASTER)
			iio_dma_unsafe_use(dma_dev, "bus mastering", policy);
		return true;
	case IIO_DMA_REFUSED:
		break;
	}
	if (refusal_logged && *refusal_logged)
		return false;
	if (use == IIO_DMA_USE_MSI)
		logged = iio_dma_refusal(dma_dev, dma_dev,
					 "MSI refused (it needs bus mastering), INTx instead",
					 false);
	else
		logged = iio_dma_refusal(dma_dev, dma_dev,
					 "bus mastering refused", true);
	/* a line the ratelimit dropped is logged at the next first open */
	if (refusal_logged)
		*refusal_logged = logged;
	return false;
}
EXPORT_SYMBOL_GPL(iio_dma_allowed);

static ssize_t size_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "0x%zx\n", to_iio_dma_buffer(dev)->size);
}
static DEVICE_ATTR_RO(size);

static ssize_t bus_addr_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "0x%llx\n",
			  (unsigned long long)to_iio_dma_buffer(dev)->bus_addr);
}
static DEVICE_ATTR_ADMIN_RO(bus_addr);

static struct attribute *iio_dma_attrs[] = {
	&dev_attr_size.attr,
	&dev_attr_bus_addr.attr,
	NULL,
};

static const struct attribute_group iio_dma_group = {
	.attrs = iio_dma_attrs,
};

/*
 * sysfs calls the three below with an active reference on the file, and
 * the buffer's device is deleted (which waits for them) before its memory
 * can be freed.  sysfs has already clamped @off and @count to the size.
 */
static ssize_t iio_dma_read(struct file *file, struct kobject *kobj,
			    iio_bin_attr_const struct bin_attribute *attr, char *buf,
			    loff_t off, size_t count)
{
	struct iio_dma_buffer *buffer = attr->private;

	memcpy(buf, buffer->cpu_addr + off, count);
	return count;
}

static ssize_t iio_dma_write(struct file *file, struct kobject *kobj,
			     iio_bin_attr_const struct bin_attribute *attr, char *buf,
			     loff_t off, size_t count)
{
	struct iio_dma_buffer *buffer = attr->private;

	memcpy(buffer->cpu_addr + off, buf, count);
	return count;
}

/* kernfs calls it with the file active: the buffer cannot go meanwhile */
static vm_fault_t iio_dma_fault(struct vm_fault *vmf)
{
	struct iio_dma_buffer *buffer = vmf->vma->vm_private_data;
	void *p;

	if (vmf->pgoff >= buffer->size >> PAGE_SHIFT)
		return VM_FAULT_SIGBUS;
	p = buffer->cpu_addr + (vmf->pgoff << PAGE_SHIFT);
	return vmf_insert_pfn(vmf->vma, vmf->address,
			      page_to_pfn(iio_kernel_page(p)));
}

static const struct vm_operations_struct iio_dma_vm_ops = {
	.fault = iio_dma_fault,
};

/*
 * The page protection dma_mmap_coherent() would give @buffer's mapping.
 * dma_mmap_coherent() itself cannot be used: in ->mmap it would insert
 * the pages before kernfs links the VMA to the file, so the zap of
 * unregistration could miss them (see the head), and from the fault
 * handler it can BUG (iommu-dma maps its vmalloc'ed pages with
 * vm_map_pages(), which wants mmap_lock held for writing).  So the pages
 * are inserted one by one at fault time with this protection, computed
 * here as dma_pgprot() and force_dma_unencrypted() are not exported.  It
 * mirrors 6.1's dma_direct_mmap() and iommu_dma_mmap(): uncached
 * (pgprot_dmacoherent()) for a device that is not DMA-coherent; decrypted
 * where dma-direct allocated decrypted memory, which on x86 is
 * force_dma_unencrypted(): an encrypted-memory guest (SEV, TDX), or an SME
 * host when the device's mask cannot carry the encryption bit; iommu-dma
 * does not decrypt.  -ENODEV where that cannot be known: DMA operations
 * other than dma-direct without translation and iommu-dma with it (AMD
 * GART, Xen's), another architecture that decrypts DMA memory, an
 * allocator that cannot mmap (dma_can_mmap()), or memory without a struct
 * page behind its kernel address (a per-device coherent pool, an uncached
 * segment), which the fault handler could not find.
 */
static int iio_dma_pgprot(struct iio_dma_buffer *buffer, pgprot_t *prot)
{
	struct device *dev = buffer->dma_dev;
	bool decrypted = false;

	if (!dma_can_mmap(dev) ||
	    (!is_vmalloc_addr(buffer->cpu_addr) &&
	     !virt_addr_valid(buffer->cpu_addr)))
		return -ENODEV;
	/* translated: iommu-dma's memory; otherwise dma-direct's (no ops) */
	if (buffer->translated ? !use_dma_iommu(dev) :
				 get_dma_ops(dev) || use_dma_iommu(dev))
		return -ENODEV;
	if (!buffer->translated) {
#if defined(CONFIG_X86)
		if (cc_platform_has(CC_ATTR_GUEST_MEM_ENCRYPT)) {
			decrypted = true;
		} else if (cc_platform_has(CC_ATTR_HOST_MEM_ENCRYPT)) {
			u64 enc_mask = DMA_BIT_MASK(__ffs64(sme_me_mask));
			u64 dev_mask = min_not_zero(dev->coherent_dma_mask,
						    dev->bus_dma_limit);

			decrypted = dev_mask <= enc_mask;
		}
#elif defined(CONFIG_ARCH_HAS_FORCE_DMA_UNENCRYPTED)
		return -ENODEV;
#endif
	}
	if (!dev_is_dma_coherent(dev))
		*prot = pgprot_dmacoherent(*prot);
	if (decrypted)
		*prot = pgprot_decrypted(*prot);
	return 0;
}

static int iio_dma_mmap(struct file *file, struct kobject *kobj,
			iio_bin_attr_mmap_const struct bin_attribute *attr,
			struct vm_area_struct *vma)
{
	struct iio_dma_buffer *buffer = attr->private;
	unsigned long pages = vma_pages(vma);
	pgprot_t prot = vma->vm_page_prot;
	int ret;

	/* VM_MAYSHARE: VM_SHARED is cleared for a read-only file */
	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	if (vma->vm_pgoff >= buffer->size >> PAGE_SHIFT ||
	    pages > (buffer->size >> PAGE_SHIFT) - vma->vm_pgoff)
		return -EINVAL;
	ret = iio_dma_pgprot(buffer, &prot);
	if (ret)
		return ret;
	vma->vm_page_prot = prot;
	vm_flags_set(vma, VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP);
	vma->vm_private_data = buffer;
	vma->vm_ops = &iio_dma_vm_ops;
	return 0;
}

static void iio_dma_free(struct iio_dma_buffer *buffer)
{
	if (buffer->cpu_addr)
		dma_free_coherent(buffer->dma_dev, buffer->size,
				  buffer->cpu_addr, buffer->bus_addr);
	buffer->cpu_addr = NULL;
}

/* Normally the memory is gone already (iio_dma_free_all()). */
static void iio_dma_release(struct device *dev)
{
	struct iio_dma_buffer *buffer = to_iio_dma_buffer(dev);

	iio_dma_free(buffer);
	put_device(buffer->dma_dev);
	kfree(buffer);
}

/**
 * iio_dma_validate - check the DMA buffers an iio_device asks for
 * @idev: the stub's description
 *
 * Return: 0, or -EINVAL when a size is over %IIO_DMA_MAX_SIZE, a size
 * follows a 0, sizes or a dma_user_max are given without @idev->dma_dev,
 * or @idev->dma_dev has no coherent DMA mask.
 */
int iio_dma_validate(const struct iio_device *idev)
{
	bool ended = false;
	int i;

	for (i = 0; i < IIO_DMA_MAX; i++) {
		size_t size = idev->dma_size[i];

		if (!size) {
			ended = true;
			continue;
		}
		if (ended || !idev->dma_dev || size > IIO_DMA_MAX_SIZE)
			return -EINVAL;
	}
	if (idev->dma_user_max && !idev->dma_dev)
		return -EINVAL;
	/* dma_alloc_coherent() would warn */
	if (idev->dma_dev && !idev->dma_dev->coherent_dma_mask)
		return -EINVAL;
	return 0;
}

static int iio_dma_add(struct iio_class_dev *icd, struct device *dma_dev,
		       unsigned int index, size_t size, bool requested)
{
	enum iio_dma_protection policy;
	struct iio_dma_buffer *buffer;
	int ret;

	buffer = kzalloc_obj(*buffer, GFP_KERNEL);
	if (!buffer)
		return -ENOMEM;

	device_initialize(&buffer->dev);
	buffer->dev.class = &iio_dma_class;
	buffer->dev.type = &iio_dma_type;
	buffer->dev.parent = &icd->dev;
	buffer->dev.release = iio_dma_release;
	buffer->dma_dev = get_device(dma_dev);
	buffer->size = PAGE_ALIGN(size);
	buffer->requested = requested;
	ret = dev_set_name(&buffer->dev, "iio%d_dma%u", icd->nr, index);
	if (ret)
		goto err_put;
	snprintf(buffer->link, sizeof(buffer->link), "dma%u", index);

	buffer->cpu_addr = dma_alloc_coherent(dma_dev, buffer->size,
					      &buffer->bus_addr,
					      GFP_KERNEL | __GFP_NOWARN);
	if (!buffer->cpu_addr) {
		ret = -ENOMEM;
		goto err_put;
	}
	buffer->translated = iio_dma_translated(dma_dev);
	policy = iio_dma_policy(dma_dev);
	if (policy != IIO_DMA_TRANSLATED)
		iio_dma_unsafe_use(dma_dev, "DMA buffer", policy);

	sysfs_bin_attr_init(&buffer->data);
	buffer->data.attr.name = "buffer";
	buffer->data.attr.mode = 0600;
	buffer->data.size = buffer->size;
	buffer->data.read = iio_dma_read;
	buffer->data.write = iio_dma_write;
	buffer->data.mmap = iio_dma_mmap;
	buffer->data.private = buffer;
	buffer->bin_attrs[0] = &buffer->data;
	buffer->group.bin_attrs = buffer->bin_attrs;
	buffer->groups[0] = &iio_dma_group;
	buffer->groups[1] = &buffer->group;
	buffer->dev.groups = buffer->groups;

	dev_set_uevent_suppress(&buffer->dev, true);
	ret = device_add(&buffer->dev);
	if (ret)
		goto err_put;
	ret = sysfs_create_link(&icd->dev.kobj, &buffer->dev.kobj,
				buffer->link);
	if (ret) {
		device_del(&buffer->dev);
		goto err_put;
	}
	icd->dma[index] = buffer;
	if (icd->dma_uevents)
		iio_uevent_add(&buffer->dev);
	return 0;

err_put:
	put_device(&buffer->dev);
	return ret;
}

/**
 * iio_dma_request - add a buffer that user space asked for (dma_request)
 * @icd: the registered class device
 * @idev: its stub's description (idev_lock held for reading)
 * @size: bytes, rounded up to pages
 *
 * The buffer becomes the lowest free dmaK after the stub's own.
 *
 * Return: 0; -EINVAL for 0 or more than %IIO_DMA_MAX_SIZE; -EPERM when no
 * IOMMU translates the device's DMA and enable_unsafe_noiommu_mode is off
 * (logged, ratelimited); -E2BIG when the buffers user space added would
 * exceed @idev->dma_user_max; -ENOSPC when all %IIO_DMA_MAX exist;
 * -ENOMEM.
 */
int iio_dma_request(struct iio_class_dev *icd, struct iio_device *idev,
		    size_t size)
{
	unsigned int i;
	int ret;

	lockdep_assert_held_read(&icd->idev_lock);
	if (!size || size > IIO_DMA_MAX_SIZE)
		return -EINVAL;
	size = PAGE_ALIGN(size);
	ret = iio_dma_permit(icd, idev->dma_dev);
	if (ret)
		return ret;

	mutex_lock(&icd->dma_lock);
	/* after the stub's own buffers, which may not exist yet */
	for (i = 0; i < IIO_DMA_MAX && idev->dma_size[i]; i++)
		;
	while (i < IIO_DMA_MAX && icd->dma[i])
		i++;
	if (size > idev->dma_user_max - icd->dma_user_size)
		ret = -E2BIG;
	else if (i == IIO_DMA_MAX)
		ret = -ENOSPC;
	else
		ret = iio_dma_add(icd, idev->dma_dev, i, size, true);
	if (!ret)
		icd->dma_user_size += size;
	mutex_unlock(&icd->dma_lock);
	return ret;
}

/**
 * iio_dma_add_all - allocate and publish the buffers @idev asks for
 * @icd: the registered class device (already added)
 * @idev: the stub's description, validated by iio_dma_validate()
 *
 * Where iio_dma_policy() refuses buffers, none is added (the refusal is
 * logged) and the device works without them.
 *
 * Return: 0, or a negative errno after deleting the buffers added so far.
 */
int iio_dma_add_all(struct iio_class_dev *icd, struct iio_device *idev)
{
	unsigned int i;
	int ret = 0;

	if (!idev->dma_size[0] || iio_dma_permit(icd, idev->dma_dev))
		return 0;
	mutex_lock(&icd->dma_lock);
	for (i = 0; i < IIO_DMA_MAX && idev->dma_size[i] && !ret; i++)
		ret = iio_dma_add(icd, idev->dma_dev, i, idev->dma_size[i],
				  false);
	mutex_unlock(&icd->dma_lock);
	if (ret)
		iio_dma_free_all(icd);
	return ret;
}

/**
 * iio_dma_uevents_add - the device is announced: so are its buffers
 * @icd: the registered class device
 *
 * Sends the ADD uevents of the buffers added so far, and from now on each
 * buffer added sends its own.
 */
void iio_dma_uevents_add(struct iio_class_dev *icd)
{
	unsigned int i;

	mutex_lock(&icd->dma_lock);
	icd->dma_uevents = true;
	for (i = 0; i < IIO_DMA_MAX; i++)
		if (icd->dma[i])
			iio_uevent_add(&icd->dma[i]->dev);
	mutex_unlock(&icd->dma_lock);
}

/*
 * Take @buffer away from user space (dma_lock held): delete its device, so
 * that sysfs (kernfs) waits for the reads, writes, mmap() calls and page
 * faults in progress on dmaK/buffer, then zaps every user mapping of it
 * (a later touch raises SIGBUS); open files fail with ENODEV from then on.
 * Its REMOVE uevent goes now (none if its ADD was held back).  The memory
 * stays allocated.  Doing it twice is harmless.
 */
static void iio_dma_revoke(struct iio_class_dev *icd,
			   struct iio_dma_buffer *buffer)
{
	lockdep_assert_held(&icd->dma_lock);
	if (!device_is_registered(&buffer->dev))
		return;
	sysfs_remove_link(&icd->dev.kobj, buffer->link);
	device_del(&buffer->dev);
}

/*
 * Free the memory of buffer @index, revoked already, and its number
 * (dma_lock held).  The buffer's structure goes with its last reference.
 */
static void iio_dma_destroy(struct iio_class_dev *icd, unsigned int index)
{
	struct iio_dma_buffer *buffer = icd->dma[index];

	lockdep_assert_held(&icd->dma_lock);
	icd->dma[index] = NULL;
	if (buffer->requested)
		icd->dma_user_size -= buffer->size;
	iio_dma_free(buffer);
	put_device(&buffer->dev);
}

/**
 * iio_dma_free_requested - free a buffer that user space added (dma_free)
 * @icd: the registered class device (idev_lock held for reading, with
 *	icd->idev set: the device cannot be revoked meanwhile)
 * @index: the buffer's number K (dmaK)
 *
 * Revokes the buffer as unregistration does (iio_dma_revoke(): calls in
 * progress finish, every user mapping is zapped, open files get ENODEV),
 * then frees its memory; K is free for the next dma_request.  The device
 * itself is not stopped: where no IOMMU translates its DMA (the unsafe
 * opt-in) it can still reach the freed memory if user space left it
 * programmed with the buffer's address (see iio(4)).  Under strict
 * translation dma_free_coherent() has unmapped the buffer from the
 * device's domain when it returns.
 *
 * Return: 0; -EINVAL for a number past the last (%IIO_DMA_MAX - 1);
 * -ENOENT when dmaK does not exist; -EPERM when dmaK is one of the stub's
 * own buffers (they go with the device).
 */
int iio_dma_free_requested(struct iio_class_dev *icd, u64 index)
{
	struct iio_dma_buffer *buffer;
	int ret = 0;

	lockdep_assert_held_read(&icd->idev_lock);
	if (index >= IIO_DMA_MAX)
		return -EINVAL;

	mutex_lock(&icd->dma_lock);
	buffer = icd->dma[index];
	if (!buffer) {
		ret = -ENOENT;
		goto out_unlock;
	}
	if (!buffer->requested) {
		ret = -EPERM;
		goto out_unlock;
	}
	iio_dma_revoke(icd, buffer);
	iio_dma_destroy(icd, index);
out_unlock:
	mutex_unlock(&icd->dma_lock);
	return ret;
}

/**
 * iio_dma_revoke_all - take the buffers of @icd away from user space
 * @icd: the class device being unregistered (revoked: no dma_request or
 *	dma_free can change the buffers any more)
 *
 * Revokes each buffer (iio_dma_revoke()).  The memory stays allocated (the
 * device may still be doing DMA) until iio_dma_free_all().  Doing it twice
 * is harmless.
 */
void iio_dma_revoke_all(struct iio_class_dev *icd)
{
	int i;

	mutex_lock(&icd->dma_lock);
	for (i = IIO_DMA_MAX - 1; i >= 0; i--)
		if (icd->dma[i])
			iio_dma_revoke(icd, icd->dma[i]);
	mutex_unlock(&icd->dma_lock);
}

/**
 * iio_dma_free_all - free the buffers of @icd
 * @icd: the class device being unregistered
 *
 * Revokes them if that was not done yet, then frees the memory.  The stub
 * has stopped the device's DMA before (quiesce).
 */
void iio_dma_free_all(struct iio_class_dev *icd)
{
	int i;

	iio_dma_revoke_all(icd);
	mutex_lock(&icd->dma_lock);
	for (i = IIO_DMA_MAX - 1; i >= 0; i--)
		if (icd->dma[i])
			iio_dma_destroy(icd, i);
	mutex_unlock(&icd->dma_lock);
}
