// SPDX-License-Identifier: GPL-2.0-only
/*
 * iio_dev.c - the region nodes /dev/iioN, /dev/iioN_in and /dev/iioN_out
 *
 * Copyright (C) 2005 Benedikt Spranger <b.spranger@linutronix.de>
 * Copyright (C) 2005 Thomas Gleixner <tglx@linutronix.de>
 *
 * Ported from the 2006 RFC's iio_dev.c (what changed: kmod/HISTORY.md).
 *
 * Semantics (the ABI, see also kmod/README.md):
 *  - positions are relative to the node's window; read() at or past its
 *    end returns 0; write() starting at or past its end fails with
 *    ENOSPC, one running past it is shortened; lseek() (SEEK_SET, SEEK_CUR,
 *    SEEK_END) to outside [0, window size] fails with EINVAL.
 *  - the in window is read-only: opening /dev/iioN_in for writing fails
 *    with EACCES.  The out window is read-write, not write-only: mmap()
 *    needs a readable file descriptor (and x86 page tables cannot express
 *    write-only pages), and read-back is what read-modify-write and
 *    verification of output registers need.
 *  - mmap() needs MAP_SHARED (else EINVAL), a memory region (port regions:
 *    ENODEV), a page-aligned window (else EINVAL) and must stay inside the
 *    window rounded up to a page (else EINVAL).  I/O memory is mapped
 *    uncached; kernel memory maps its own pages.
 *  - after unregistration: read, write and lseek fail with EIO, mmap with
 *    ENODEV, open with ENODEV.
 */

#include <linux/io.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/sched/signal.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "iio_internal.h"

#define IIO_BOUNCE_SIZE		PAGE_SIZE
#define IIO_SMALL_BOUNCE	64
/* kernel memory: bytes copied per taking of idev_lock */
#define IIO_KERNEL_CHUNK	SZ_256K

static unsigned int iio_file_kind(const struct file *filp)
{
	return iminor(file_inode(filp)) % IIO_MINORS_PER_DEVICE;
}

/**
 * iio_window - offset and length of the part of the region a node shows
 * @idev: the device
 * @kind: %IIO_MINOR_REGION, %IIO_MINOR_IN or %IIO_MINOR_OUT
 * @offset: set to the window's offset in the region
 * @len: set to the window's length
 *
 * Return: 0, or -ENODEV if the device has no such window.
 */
int iio_window(const struct iio_device *idev, unsigned int kind,
	       unsigned long *offset, unsigned long *len)
{
	switch (kind) {
	case IIO_MINOR_REGION:
		*offset = 0;
		*len = idev->size;
		return 0;
	case IIO_MINOR_IN:
		*offset = idev->read_offset;
		*len = idev->read_len;
		return idev->read_len ? 0 : -ENODEV;
	case IIO_MINOR_OUT:
		*offset = idev->write_offset;
		*len = idev->write_len;
		return idev->write_len ? 0 : -ENODEV;
	default:
		return -ENODEV;
	}
}

/* The widest access that @off's alignment and @len allow. */
static unsigned int iio_access_width(unsigned long off, size_t len)
{
	unsigned int width = 8;

	while (width > 1 && ((off & (width - 1)) || len < width))
		width /= 2;
	return width;
}

static u64 iio_read_one(const struct iio_device *idev, unsigned long off,
			unsigned int width)
{
	if (idev->kernaddr) {
		void *p = idev->kernaddr + off;

		switch (width) {
		case 1:
			return READ_ONCE(*(u8 *)p);
		case 2:
			return READ_ONCE(*(u16 *)p);
		case 4:
			return READ_ONCE(*(u32 *)p);
		default:
			return READ_ONCE(*(u64 *)p);
		}
	}
	if (idev->virtaddr) {
		void __iomem *p = idev->virtaddr + off;

		switch (width) {
		case 1:
			return ioread8(p);
		case 2:
			return ioread16(p);
		case 4:
			return ioread32(p);
		default:
			return readq(p);
		}
	} else {
		unsigned long port = idev->physaddr + off;

		switch (width) {
		case 1:
			return inb(port);
		case 2:
			return inw(port);
		case 4:
			return inl(port);
		default:
			return inl(port) | (u64)inl(port + 4) << 32;
		}
	}
}

static void iio_write_one(const struct iio_device *idev, unsigned long off,
			  unsigned int width, u64 val)
{
	if (idev->kernaddr) {
		void *p = idev->kernaddr + off;

		switch (width) {
		case 1:
			WRITE_ONCE(*(u8 *)p, val);
			break;
		case 2:
			WRITE_ONCE(*(u16 *)p, val);
			break;
		case 4:
			WRITE_ONCE(*(u32 *)p, val);
			break;
		default:
			WRITE_ONCE(*(u64 *)p, val);
			break;
		}
	} else if (idev->virtaddr) {
		void __iomem *p = idev->virtaddr + off;

		switch (width) {
		case 1:
			iowrite8(val, p);
			break;
		case 2:
			iowrite16(val, p);
			break;
		case 4:
			iowrite32(val, p);
			break;
		default:
			writeq(val, p);
			break;
		}
	} else {
		unsigned long port = idev->physaddr + off;

		switch (width) {
		case 1:
			outb(val, port);
			break;
		case 2:
			outw(val, port);
			break;
		case 4:
			outl(val, port);
			break;
		default:
			outl(lower_32_bits(val), port);
			outl(upper_32_bits(val), port + 4);
			break;
		}
	}
}

/* Copy between the region and a kernel buffer, one device access a unit. */
static void iio_region_copy(const struct iio_device *idev, unsigned long off,
			    u8 *buf, size_t len, bool to_device)
{
	while (len) {
		unsigned int width = iio_access_width(off, len);
		u64 val = 0;

		if (to_device) {
			memcpy(&val, buf, width);
			iio_write_one(idev, off, width, val);
		} else {
			val = iio_read_one(idev, off, width);
			memcpy(buf, &val, width);
		}
		off += width;
		buf += width;
		len -= width;
	}
}

/**
 * iio_open - open a region node
 * @inode: the node
 * @filp: the new file
 *
 * Pins the device until iio_release().  Stubs with their own fops must use
 * this as their open.
 *
 * Return: 0, -ENODEV if the device or window does not exist (or is being
 * removed), -EACCES when opening the in window for writing.
 */
int iio_open(struct inode *inode, struct file *filp)
{
	unsigned int kind = iminor(inode) % IIO_MINORS_PER_DEVICE;
	struct iio_class_dev *icd;
	unsigned long off, len;
	int ret;

	icd = iio_class_dev_get(iminor(inode));
	if (!icd)
		return -ENODEV;

	down_read(&icd->idev_lock);
	if (!icd->idev)
		ret = -ENODEV;
	else
		ret = iio_window(icd->idev, kind, &off, &len);
	if (!ret && kind == IIO_MINOR_IN && (filp->f_mode & FMODE_WRITE))
		ret = -EACCES;
	up_read(&icd->idev_lock);
	if (ret) {
		iio_class_dev_put(icd);
		return ret;
	}

	filp->private_data = icd;
	/* One mapping for every file of the device: see iio_unregister_device */
	filp->f_mapping = icd->inode->i_mapping;
	iio_use_get(icd);
	return 0;
}
EXPORT_SYMBOL_GPL(iio_open);

/**
 * iio_release - close a file opened by iio_open()
 * @inode: the node
 * @filp: the file
 *
 * Return: 0.
 */
int iio_release(struct inode *inode, struct file *filp)
{
	iio_use_put(filp->private_data);
	iio_class_dev_put(filp->private_data);
	return 0;
}
EXPORT_SYMBOL_GPL(iio_release);

/**
 * iio_lseek - set the position in a region node's window
 * @filp: the file
 * @offset: new position, relative to @whence
 * @whence: %SEEK_SET, %SEEK_CUR or %SEEK_END
 *
 * Return: the new position, -EINVAL if it would lie outside [0, window
 * size] or @whence is not one of the above, -EIO after unregistration.
 */
loff_t iio_lseek(struct file *filp, loff_t offset, int whence)
{
	struct iio_class_dev *icd = filp->private_data;
	unsigned long off, len;
	loff_t ret = -EIO;

	if (whence != SEEK_SET && whence != SEEK_CUR && whence != SEEK_END)
		return -EINVAL;

	down_read(&icd->idev_lock);
	if (icd->idev && !iio_window(icd->idev, iio_file_kind(filp), &off, &len))
		ret = fixed_size_llseek(filp, offset, whence, len);
	up_read(&icd->idev_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(iio_lseek);

/* Does [@off, @off + @len) of the region touch @r? */
static bool iio_range_overlaps(const struct iio_range *r, unsigned long off,
			       unsigned long len)
{
	return r->len && off < r->offset + r->len && r->offset < off + len;
}

/* Does [@off, @off + @len) of the region touch a range the kernel keeps? */
static bool iio_overlaps_reserved(const struct iio_device *idev,
				  unsigned long off, unsigned long len)
{
	int i;

	for (i = 0; i < IIO_MAX_RESERVED; i++)
		if (iio_range_overlaps(&idev->reserved[i], off, len))
			return true;
	return false;
}

/*
 * How much of a write of @len bytes at region offset @off user space may
 * do: up to the first reserved range it would touch; 0 when it starts in
 * one.
 */
static size_t iio_writable(const struct iio_device *idev, unsigned long off,
			   size_t len)
{
	int i;

	for (i = 0; i < IIO_MAX_RESERVED; i++) {
		const struct iio_range *r = &idev->reserved[i];

		if (iio_range_overlaps(r, off, len))
			len = r->offset > off ? r->offset - off : 0;
	}
	return len;
}

/*
 * How much of a transfer of @count bytes at @pos in the node's window can
 * be done, under idev_lock: the bytes, starting at region offset *@start;
 * 0 for a read at or past the window's end; -ENOSPC for a write there,
 * -EPERM for one that starts in a reserved range, -EIO once the device is
 * gone.
 */
static ssize_t iio_transfer_len(struct iio_class_dev *icd, unsigned int kind,
				loff_t pos, size_t count, bool to_device,
				unsigned long *start)
{
	unsigned long off, len;
	ssize_t ret;

	if (!icd->idev || iio_window(icd->idev, kind, &off, &len))
		return -EIO;
	if (pos >= len)
		return to_device ? -ENOSPC : 0;
	*start = off + pos;
	ret = min_t(u64, count, len - pos);
	if (to_device)
		ret = iio_writable(icd->idev, *start, ret) ?: -EPERM;
	return ret;
}

/*
 * One chunk of a transfer under idev_lock: the device access only, never a
 * user copy (which could fault on a mapping of this very device).
 */
static ssize_t iio_transfer_chunk(struct iio_class_dev *icd,
				  unsigned int kind, loff_t pos, u8 *bounce,
				  size_t count, bool to_device)
{
	unsigned long start;
	ssize_t ret;

	down_read(&icd->idev_lock);
	ret = iio_transfer_len(icd, kind, pos, count, to_device, &start);
	if (ret > 0)
		iio_region_copy(icd->idev, start, bounce, ret, to_device);
	up_read(&icd->idev_lock);
	return ret;
}

/*
 * One chunk of a transfer between kernel memory and user space, under
 * idev_lock with page faults off: the user buffer may be a mapping of this
 * very device, whose fault handler takes idev_lock (a writer waiting for
 * it would deadlock us), so a user page that is not present ends the copy
 * short instead.  Returns the bytes copied (0 at the window's end),
 * -EFAULT if the first byte faulted, or the errno of iio_transfer_len().
 */
static ssize_t iio_kernel_chunk(struct iio_class_dev *icd, unsigned int kind,
				loff_t pos, char __user *ubuf, size_t count,
				bool to_device)
{
	unsigned long start, left;
	ssize_t ret;
	void *kaddr;

	down_read(&icd->idev_lock);
	ret = iio_transfer_len(icd, kind, pos, count, to_device, &start);
	if (ret > 0) {
		kaddr = icd->idev->kernaddr + start;
		pagefault_disable();
		/* not copy_from_user(): it would zero what it could not copy */
		if (to_device)
			left = __copy_from_user_inatomic(kaddr, ubuf, ret);
		else
			left = __copy_to_user_inatomic(ubuf, kaddr, ret);
		pagefault_enable();
		ret = left == ret ? -EFAULT : ret - left;
	}
	up_read(&icd->idev_lock);
	return ret;
}

/*
 * Can the user pages of [@ubuf, @ubuf + @n) be faulted in, the first one?
 * For a read, without writing to them (not fault_in_writeable(), which
 * stores a zero in each page): a read that ends short must leave the rest
 * of the buffer as it was, and the buffer may map this very device.
 */
static bool iio_fault_in(char __user *ubuf, size_t n, bool to_device)
{
	size_t missing = to_device ? fault_in_readable(ubuf, n) :
				     fault_in_safe_writeable(ubuf, n);

	return missing < n;
}

/*
 * Kernel memory (iio_device.kernaddr) has no registers: a transfer longer
 * than %IIO_SMALL_BOUNCE is copied straight between the region and the
 * user buffer, without access widths, a chunk at a time.  A chunk whose
 * first user page faulted is faulted in outside the lock and tried again;
 * -EFAULT when that page cannot be.
 */
static ssize_t iio_kernel_transfer(struct iio_class_dev *icd,
				   unsigned int kind, char __user *ubuf,
				   size_t count, loff_t *ppos, bool to_device)
{
	ssize_t done = 0, ret = 0;

	if (!access_ok(ubuf, count))
		return -EFAULT;
	while (count) {
		size_t n = min_t(size_t, count, IIO_KERNEL_CHUNK);

		ret = iio_kernel_chunk(icd, kind, *ppos, ubuf + done, n,
				       to_device);
		if (ret == -EFAULT) {
			if (!iio_fault_in(ubuf + done, n, to_device))
				break;
		} else if (ret > 0) {
			*ppos += ret;
			done += ret;
			count -= ret;
		} else {
			break;
		}
		if (fatal_signal_pending(current))
			break;
		cond_resched();
	}
	return done ? done : ret;
}

static ssize_t iio_transfer(struct file *filp, char __user *ubuf,
			    size_t count, loff_t *ppos, bool to_device)
{
	struct iio_class_dev *icd = filp->private_data;
	unsigned int kind = iio_file_kind(filp);
	u8 small[IIO_SMALL_BOUNCE] __aligned(8);
	size_t bounce_size = IIO_SMALL_BOUNCE;
	u8 *bounce = small;
	ssize_t done = 0, ret = 0;
	bool kernel_memory;

	/* nothing to move, but a device that went away still says so */
	down_read(&icd->idev_lock);
	ret = icd->idev ? 0 : -EIO;
	kernel_memory = icd->idev && icd->idev->kernaddr;
	up_read(&icd->idev_lock);
	if (!count || ret)
		return ret;
	/* a short one keeps its single accesses: the dummy's 64-bit tick */
	if (kernel_memory && count > IIO_SMALL_BOUNCE)
		return iio_kernel_transfer(icd, kind, ubuf, count, ppos,
					   to_device);
	if (count > IIO_SMALL_BOUNCE) {
		bounce_size = IIO_BOUNCE_SIZE;
		bounce = kmalloc(bounce_size, GFP_KERNEL);
		if (!bounce)
			return -ENOMEM;
	}

	while (count) {
		size_t n = min(count, bounce_size);

		if (to_device && copy_from_user(bounce, ubuf + done, n)) {
			ret = -EFAULT;
			break;
		}
		ret = iio_transfer_chunk(icd, kind, *ppos, bounce, n,
					 to_device);
		if (ret <= 0)
			break;
		if (!to_device && copy_to_user(ubuf + done, bounce, ret)) {
			ret = -EFAULT;
			break;
		}
		*ppos += ret;
		done += ret;
		count -= ret;
		if (fatal_signal_pending(current))
			break;
		cond_resched();
	}

	if (bounce != small)
		kfree(bounce);
	return done ? done : ret;
}

/**
 * iio_read - read from a region node's window
 * @filp: the file
 * @buf: user buffer
 * @count: bytes wanted
 * @ppos: position in the window
 *
 * Return: bytes read (0 at or past the end of the window), -EFAULT, or
 * -EIO after unregistration.
 */
ssize_t iio_read(struct file *filp, char __user *buf, size_t count,
		 loff_t *ppos)
{
	return iio_transfer(filp, buf, count, ppos, false);
}
EXPORT_SYMBOL_GPL(iio_read);

/**
 * iio_write - write to a region node's window
 * @filp: the file
 * @buf: user buffer
 * @count: bytes to write
 * @ppos: position in the window
 *
 * Return: bytes written (shortened at the end of the window), -ENOSPC if
 * @ppos is at or past the end, -EFAULT, or -EIO after unregistration.
 */
ssize_t iio_write(struct file *filp, const char __user *buf, size_t count,
		  loff_t *ppos)
{
	return iio_transfer(filp, (char __user *)buf, count, ppos, true);
}
EXPORT_SYMBOL_GPL(iio_write);

/* Does the page at @pgoff of the window exist?  Sets its region offset. */
static bool iio_mmap_page(const struct iio_device *idev, unsigned int kind,
			  unsigned long pgoff, unsigned long *start)
{
	unsigned long off, len;

	if (iio_window(idev, kind, &off, &len) || !PAGE_ALIGNED(off) ||
	    pgoff >= DIV_ROUND_UP(len, PAGE_SIZE))
		return false;
	*start = off + (pgoff << PAGE_SHIFT);
	return true;
}

/*
 * Is the last page of I/O memory its own?  Not when the region ends inside
 * a page whose rest the stub did not reserve: another device's registers
 * may be there.
 */
static bool iio_last_page_owned(const struct iio_device *idev)
{
	return !idev->virtaddr || PAGE_ALIGNED(idev->size) ||
	       idev->page_reserved;
}

/*
 * A page of kernel memory into a mapping.  A page after the first of a
 * higher-order allocation without __GFP_COMP has no reference count of its
 * own, which vm_insert_page() refuses: it is mapped by its frame number
 * instead, as I/O memory is (unregistration zaps it all the same).
 */
static vm_fault_t iio_insert_kernel_page(struct vm_area_struct *vma,
					 unsigned long addr, struct page *page)
{
	int err;

	if (!page_count(page))
		return iio_vmf_insert_mixed(vma, addr, page_to_pfn(page));
	err = vm_insert_page(vma, addr, page);
	if (!err || err == -EBUSY)
		return VM_FAULT_NOPAGE;
	return err == -ENOMEM ? VM_FAULT_OOM : VM_FAULT_SIGBUS;
}

/*
 * Pages are inserted here, on first touch, under idev_lock: a mapping made
 * while the device is being unregistered is linked into the shared
 * address_space before it can fault, so unregistration's
 * unmap_mapping_range() zaps every page that was ever inserted, and a
 * fault after revocation gets SIGBUS.  A page zapped by MADV_DONTNEED is
 * simply inserted again.
 */
static vm_fault_t iio_vm_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct iio_class_dev *icd = vma->vm_file->private_data;
	unsigned int kind = iio_file_kind(vma->vm_file);
	struct iio_device *idev;
	vm_fault_t ret = VM_FAULT_SIGBUS;
	unsigned long start;

	down_read(&icd->idev_lock);
	idev = icd->idev;
	if (!idev || !iio_mmap_page(idev, kind, vmf->pgoff, &start) ||
	    iio_overlaps_reserved(idev, start, PAGE_SIZE))
		goto out;

	if (idev->kernaddr)
		ret = iio_insert_kernel_page(vma, vmf->address,
					     iio_kernel_page(idev->kernaddr +
							     start));
	else
		ret = vmf_insert_pfn_prot(vma, vmf->address,
					  (idev->physaddr + start) >> PAGE_SHIFT,
					  vma->vm_page_prot);
out:
	up_read(&icd->idev_lock);
	return ret;
}

static const struct vm_operations_struct iio_vm_ops = {
	.fault = iio_vm_fault,
};

/**
 * iio_mmap - map a region node's window
 * @filp: the file
 * @vma: the new mapping; vm_pgoff is the page offset in the window
 *
 * Only checks and sets up the mapping; its pages are inserted by the
 * fault handler, on first touch.
 *
 * Pages that hold a reserved range (iio_device.reserved) are never
 * inserted: touching them raises SIGBUS.
 *
 * Return: 0; -EINVAL for a private mapping, an unaligned window or a
 * mapping beyond the window; -ENODEV for port regions, I/O memory smaller
 * than its last page whose rest is not reserved (iio_device.page_reserved)
 * and after unregistration.
 */
int iio_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct iio_class_dev *icd = filp->private_data;
	unsigned long pages = vma_pages(vma);
	unsigned int kind = iio_file_kind(filp);
	unsigned long first, last;
	struct iio_device *idev;
	int ret;

	down_read(&icd->idev_lock);
	idev = icd->idev;
	ret = -ENODEV;
	if (!idev || (!idev->virtaddr && !idev->kernaddr) ||
	    kind == IIO_MINOR_EVENT || !iio_last_page_owned(idev))
		goto out;
	ret = -EINVAL;
	if (!(vma->vm_flags & VM_MAYSHARE) ||
	    !iio_mmap_page(idev, kind, vma->vm_pgoff, &first) ||
	    !iio_mmap_page(idev, kind, vma->vm_pgoff + pages - 1, &last))
		goto out;
	if (idev->virtaddr && !PAGE_ALIGNED(idev->physaddr))
		goto out;

	ret = 0;
	vma->vm_ops = &iio_vm_ops;
	vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	if (idev->kernaddr) {
		vm_flags_set(vma, VM_MIXEDMAP);	/* vm_insert_page() in fault */
	} else {
		vm_flags_set(vma, VM_IO | VM_PFNMAP);
		vma->vm_page_prot = pgprot_noncached(vma->vm_page_prot);
	}
out:
	up_read(&icd->idev_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(iio_mmap);

const struct file_operations iio_fops = {
	.owner = THIS_MODULE,
	.open = iio_open,
	.release = iio_release,
	.llseek = iio_lseek,
	.read = iio_read,
	.write = iio_write,
	.mmap = iio_mmap,
};
