// SPDX-License-Identifier: GPL-2.0-only
/*
 * iio_test_api.c - a test-only stub: drives iio_register_device() and the
 * event API with the arguments iio_register_device(9) documents, good and
 * bad, and reports what they return (tests/test_register_api)
 *
 * Built for the guest only (tests/kmod/Kbuild), never installed.  It has
 * no device of its own at load; each action builds one, calls the API and
 * tears down what it made.  Module parameters, root only:
 *  run		write an action's name (below) to run it; an unknown name
 *		fails the write with EINVAL
 *  result	the last action's return value: a negative errno, or what
 *		the call returned (a device number, 0, a byte count)
 *  count	the fill action's number of devices registered before its
 *		registration failed
 *  vector_dev	the number of the device the hold_vectors action keeps
 *		registered (-1: none), one-shot with two event vectors,
 *		windows and a DMA buffer, until release or unload;
 *		add_vector_K adds an event to its vector K, add_held_N N
 *		events with iio_event_add(), arm_held arms it to fire now,
 *		revoke_held revokes it (unregistered by release); hold_io
 *		keeps an I/O memory device with an unaligned physaddr instead,
 *		hold_dma_ops one whose DMA buffer comes from DMA operations of
 *		this module's (neither the kernel's direct nor IOMMU ones)
 *
 * Interrupts: the module allocates an interrupt descriptor of its own
 * (dummy chip, nothing ever raises it), so that an unshared request of a
 * line by another "driver" is real without touching a device's line.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dma-map-ops.h>
#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/irq.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "iio.h"

/* every number iio_register_device(9) promises, and one more */
#define IIO_TEST_FILL		(256 + 1)
/* hold_vectors' out window and DMA buffer (tests/test_register_api.c) */
#define IIO_TEST_OUT_OFFSET	8
#define IIO_TEST_OUT_LEN	16
#define IIO_TEST_DMA_SIZE	100
/* hold_io's physaddr: this far past a page boundary */
#define IIO_TEST_PHYS_SKEW	8

static long iio_test_result;
static int iio_test_count;
static int iio_test_vector_dev = -1;

static DEFINE_MUTEX(iio_test_lock);
static struct platform_device *iio_test_pdev;
/* a device whose DMA goes through iio_test_dma_ops */
static struct platform_device *iio_test_ops_pdev;
static void *iio_test_page;		/* one page, the kernel memory region */
static int iio_test_irq;		/* our own descriptor */
static struct iio_device iio_test_dev;	/* an action's device */
static struct iio_device iio_test_held;	/* hold_vectors' device */

static irqreturn_t iio_test_handler(int irq, struct iio_device *idev)
{
	return IRQ_NONE;
}

static irqreturn_t iio_test_other_handler(int irq, void *data)
{
	return IRQ_NONE;
}

/* a valid device: one page of kernel memory, no event source */
static void iio_test_base(struct iio_device *idev)
{
	memset(idev, 0, sizeof(*idev));
	idev->name = "iio_test_api";
	idev->version = "1";
	idev->kernaddr = iio_test_page;
	idev->size = PAGE_SIZE;
}

/* registers @idev; on success unregisters it, returning the number */
static long iio_test_register(struct iio_device *idev)
{
	int ret = iio_register_device(&iio_test_pdev->dev, idev);

	if (ret >= 0)
		iio_unregister_device(idev);
	return ret;
}

/* registration: the base device with one field changed */

static long valid(struct iio_device *d)
{
	return iio_test_register(d);
}

static long no_name(struct iio_device *d)
{
	d->name = NULL;
	return iio_test_register(d);
}

static long no_version(struct iio_device *d)
{
	d->version = NULL;
	return iio_test_register(d);
}

static long no_size(struct iio_device *d)
{
	d->size = 0;
	return iio_test_register(d);
}

static long virtaddr_and_kernaddr(struct iio_device *d)
{
	d->virtaddr = (__force void __iomem *)iio_test_page;
	return iio_test_register(d);
}

static long kernaddr_unaligned(struct iio_device *d)
{
	d->kernaddr = iio_test_page + 8;
	d->size = PAGE_SIZE - 8;
	return iio_test_register(d);
}

/* ports: no virtaddr, no kernaddr */
static long ports_at_limit(struct iio_device *d)
{
	d->kernaddr = NULL;
	d->physaddr = IO_SPACE_LIMIT + 1 - 0x10;
	d->size = 0x10;
	return iio_test_register(d);
}

static long ports_end_beyond_limit(struct iio_device *d)
{
	d->kernaddr = NULL;
	d->physaddr = IO_SPACE_LIMIT + 1 - 0x10;
	d->size = 0x11;
	return iio_test_register(d);
}

static long ports_start_beyond_limit(struct iio_device *d)
{
	d->kernaddr = NULL;
	d->physaddr = IO_SPACE_LIMIT + 1;
	d->size = 1;
	return iio_test_register(d);
}

static long windows_whole_region(struct iio_device *d)
{
	d->read_len = PAGE_SIZE;
	d->write_offset = PAGE_SIZE - 1;
	d->write_len = 1;
	return iio_test_register(d);
}

static long read_window_past_end(struct iio_device *d)
{
	d->read_offset = 1;
	d->read_len = PAGE_SIZE;
	return iio_test_register(d);
}

static long read_window_outside(struct iio_device *d)
{
	d->read_offset = PAGE_SIZE;
	d->read_len = 1;
	return iio_test_register(d);
}

static long write_window_past_end(struct iio_device *d)
{
	d->write_offset = 1;
	d->write_len = PAGE_SIZE;
	return iio_test_register(d);
}

static long write_window_outside(struct iio_device *d)
{
	d->write_offset = PAGE_SIZE;
	d->write_len = 1;
	return iio_test_register(d);
}

static long irq_with_handler(struct iio_device *d)
{
	d->irq = iio_test_irq;
	d->handler = iio_test_handler;
	return iio_test_register(d);
}

static long irq_without_handler(struct iio_device *d)
{
	d->irq = iio_test_irq;
	return iio_test_register(d);
}

static long irq_below_oneshot(struct iio_device *d)
{
	d->irq = IIO_IRQ_ONESHOT - 1;
	return iio_test_register(d);
}

/* another driver holds the line: unshared, or shared */
static long iio_test_register_beside(struct iio_device *d, unsigned long flags)
{
	long ret;

	/* IRQF_ONESHOT is for threaded handlers (newer kernels warn) */
	if (flags & IRQF_ONESHOT)
		ret = request_threaded_irq(iio_test_irq, NULL,
					   iio_test_other_handler, flags,
					   "iio_test_api other",
					   &iio_test_count);
	else
		ret = request_irq(iio_test_irq, iio_test_other_handler, flags,
				  "iio_test_api other", &iio_test_count);
	if (ret)
		return ret;
	d->irq = iio_test_irq;
	d->handler = iio_test_handler;
	ret = iio_test_register(d);
	free_irq(iio_test_irq, &iio_test_count);
	return ret;
}

static long irq_held_unshared(struct iio_device *d)
{
	return iio_test_register_beside(d, 0);
}

static long irq_held_shared(struct iio_device *d)
{
	return iio_test_register_beside(d, IRQF_SHARED);
}

/* a threaded handler on a line shared without IRQF_ONESHOT */
static long irq_threaded_beside_not_oneshot(struct iio_device *d)
{
	d->irq_type = IIO_THREADED;
	return iio_test_register_beside(d, IRQF_SHARED);
}

static long irq_threaded_beside_oneshot(struct iio_device *d)
{
	d->irq_type = IIO_THREADED;
	return iio_test_register_beside(d, IRQF_SHARED | IRQF_ONESHOT);
}

static long cyclic_max_freq(struct iio_device *d)
{
	d->irq = IIO_IRQ_CYCLIC;
	d->freq = IIO_MAX_FREQ;
	return iio_test_register(d);
}

static long cyclic_freq_too_high(struct iio_device *d)
{
	d->irq = IIO_IRQ_CYCLIC;
	d->freq = IIO_MAX_FREQ + 1;
	return iio_test_register(d);
}

/* the other modes ignore freq */
static long oneshot_freq_ignored(struct iio_device *d)
{
	d->irq = IIO_IRQ_ONESHOT;
	d->freq = IIO_MAX_FREQ + 1;
	return iio_test_register(d);
}

static long max_vectors(struct iio_device *d)
{
	d->vectors = IIO_MAX_VECTORS;
	return iio_test_register(d);
}

static long too_many_vectors(struct iio_device *d)
{
	d->vectors = IIO_MAX_VECTORS + 1;
	return iio_test_register(d);
}

static long dma_max_size(struct iio_device *d)
{
	d->dma_dev = &iio_test_pdev->dev;
	d->dma_size[0] = IIO_DMA_MAX_SIZE;
	return iio_test_register(d);
}

static long dma_too_large(struct iio_device *d)
{
	d->dma_dev = &iio_test_pdev->dev;
	d->dma_size[0] = IIO_DMA_MAX_SIZE + 1;
	return iio_test_register(d);
}

static long dma_size_after_end(struct iio_device *d)
{
	d->dma_dev = &iio_test_pdev->dev;
	d->dma_size[0] = PAGE_SIZE;
	d->dma_size[2] = PAGE_SIZE;
	return iio_test_register(d);
}

static long dma_without_dev(struct iio_device *d)
{
	d->dma_size[0] = PAGE_SIZE;
	return iio_test_register(d);
}

/*
 * Every number: registers until a registration fails (count: how many
 * did not), returns that failure, then unregisters them all.
 */
static long fill(struct iio_device *d)
{
	struct iio_device *devs;
	long ret = 0;
	int i, n;

	devs = kcalloc(IIO_TEST_FILL, sizeof(*devs), GFP_KERNEL);
	if (!devs)
		return -ENOMEM;
	for (n = 0; n < IIO_TEST_FILL; n++) {
		iio_test_base(&devs[n]);
		ret = iio_register_device(&iio_test_pdev->dev, &devs[n]);
		if (ret < 0)
			break;
	}
	iio_test_count = n;
	for (i = 0; i < n; i++)
		iio_unregister_device(&devs[i]);
	kfree(devs);
	return ret;
}

/* the event API: a device of each mode, registered or not */

static long iio_test_registered(struct iio_device *d, long irq)
{
	d->irq = irq;
	return iio_register_device(&iio_test_pdev->dev, d);
}

static long iio_test_set_freq(struct iio_device *d, long irq,
			      unsigned int freq)
{
	long ret = iio_test_registered(d, irq);

	if (ret < 0)
		return ret;
	ret = iio_event_set_freq(d, freq);
	/* the field follows the rate (the documented way to read it) */
	if (!ret && READ_ONCE(d->freq) != freq)
		ret = -ERANGE;
	iio_unregister_device(d);
	return ret;
}

static long set_freq_cyclic(struct iio_device *d)
{
	return iio_test_set_freq(d, IIO_IRQ_CYCLIC, 10);
}

static long set_freq_max(struct iio_device *d)
{
	return iio_test_set_freq(d, IIO_IRQ_CYCLIC, IIO_MAX_FREQ);
}

static long set_freq_stop(struct iio_device *d)
{
	d->freq = 10;
	return iio_test_set_freq(d, IIO_IRQ_CYCLIC, 0);
}

static long set_freq_too_high(struct iio_device *d)
{
	return iio_test_set_freq(d, IIO_IRQ_CYCLIC, IIO_MAX_FREQ + 1);
}

static long set_freq_oneshot(struct iio_device *d)
{
	return iio_test_set_freq(d, IIO_IRQ_ONESHOT, 10);
}

static long set_freq_no_source(struct iio_device *d)
{
	return iio_test_set_freq(d, IIO_IRQ_NONE, 10);
}

static long set_freq_never_registered(struct iio_device *d)
{
	d->irq = IIO_IRQ_CYCLIC;
	return iio_event_set_freq(d, 10);
}

static long set_freq_unregistered(struct iio_device *d)
{
	long ret = iio_test_registered(d, IIO_IRQ_CYCLIC);

	if (ret < 0)
		return ret;
	iio_unregister_device(d);
	return iio_event_set_freq(d, 10);
}

/* being unregistered: revoked, not yet unregistered */
static long set_freq_revoked(struct iio_device *d)
{
	long ret = iio_test_registered(d, IIO_IRQ_CYCLIC);

	if (ret < 0)
		return ret;
	iio_revoke_device(d);
	ret = iio_event_set_freq(d, 10);
	iio_unregister_device(d);
	return ret;
}

static long iio_test_arm(struct iio_device *d, long irq, ktime_t expires,
			 bool absolute)
{
	long ret = iio_test_registered(d, irq);

	if (ret < 0)
		return ret;
	ret = iio_event_arm(d, expires, absolute);
	iio_unregister_device(d);
	return ret;
}

static long arm_relative(struct iio_device *d)
{
	return iio_test_arm(d, IIO_IRQ_ONESHOT, ms_to_ktime(1000), false);
}

static long arm_absolute_past(struct iio_device *d)
{
	return iio_test_arm(d, IIO_IRQ_ONESHOT, 0, true);
}

static long arm_relative_negative(struct iio_device *d)
{
	return iio_test_arm(d, IIO_IRQ_ONESHOT, -1, false);
}

static long arm_cyclic(struct iio_device *d)
{
	return iio_test_arm(d, IIO_IRQ_CYCLIC, ms_to_ktime(1000), false);
}

static long arm_no_source(struct iio_device *d)
{
	return iio_test_arm(d, IIO_IRQ_NONE, ms_to_ktime(1000), false);
}

static long arm_never_registered(struct iio_device *d)
{
	d->irq = IIO_IRQ_ONESHOT;
	return iio_event_arm(d, ms_to_ktime(1000), false);
}

static long arm_unregistered(struct iio_device *d)
{
	long ret = iio_test_registered(d, IIO_IRQ_ONESHOT);

	if (ret < 0)
		return ret;
	iio_unregister_device(d);
	return iio_event_arm(d, ms_to_ktime(1000), false);
}

static long arm_revoked(struct iio_device *d)
{
	long ret = iio_test_registered(d, IIO_IRQ_ONESHOT);

	if (ret < 0)
		return ret;
	iio_revoke_device(d);
	ret = iio_event_arm(d, ms_to_ktime(1000), false);
	iio_unregister_device(d);
	return ret;
}

/* iio_event_write_oneshot() of @size bytes of a struct iio_oneshot */
static long iio_test_write_oneshot(struct iio_device *d, long irq,
				   s64 time_ns, u32 flags, u32 reserved,
				   size_t size)
{
	struct {
		struct iio_oneshot req;
		u8 more[8];
	} buf = { .req = { .time_ns = time_ns, .flags = flags,
			   .reserved = reserved } };
	long ret = iio_test_registered(d, irq);

	if (ret < 0)
		return ret;
	ret = iio_event_write_oneshot(d, &buf, size);
	iio_unregister_device(d);
	return ret;
}

#define ONESHOT_SIZE	sizeof(struct iio_oneshot)

static long write_oneshot_relative(struct iio_device *d)
{
	return iio_test_write_oneshot(d, IIO_IRQ_ONESHOT, NSEC_PER_SEC, 0, 0,
				      ONESHOT_SIZE);
}

static long write_oneshot_absolute_past(struct iio_device *d)
{
	return iio_test_write_oneshot(d, IIO_IRQ_ONESHOT, 0, IIO_ONESHOT_ABS,
				      0, ONESHOT_SIZE);
}

static long write_oneshot_short(struct iio_device *d)
{
	return iio_test_write_oneshot(d, IIO_IRQ_ONESHOT, NSEC_PER_SEC, 0, 0,
				      ONESHOT_SIZE - 1);
}

static long write_oneshot_long(struct iio_device *d)
{
	return iio_test_write_oneshot(d, IIO_IRQ_ONESHOT, NSEC_PER_SEC, 0, 0,
				      ONESHOT_SIZE + 1);
}

static long write_oneshot_unknown_flag(struct iio_device *d)
{
	return iio_test_write_oneshot(d, IIO_IRQ_ONESHOT, NSEC_PER_SEC,
				      IIO_ONESHOT_ABS << 1, 0, ONESHOT_SIZE);
}

static long write_oneshot_reserved(struct iio_device *d)
{
	return iio_test_write_oneshot(d, IIO_IRQ_ONESHOT, NSEC_PER_SEC, 0, 1,
				      ONESHOT_SIZE);
}

static long write_oneshot_relative_negative(struct iio_device *d)
{
	return iio_test_write_oneshot(d, IIO_IRQ_ONESHOT, -1, 0, 0,
				      ONESHOT_SIZE);
}

static long write_oneshot_cyclic(struct iio_device *d)
{
	return iio_test_write_oneshot(d, IIO_IRQ_CYCLIC, NSEC_PER_SEC, 0, 0,
				      ONESHOT_SIZE);
}

static long write_oneshot_unregistered(struct iio_device *d)
{
	struct iio_oneshot req = { .time_ns = NSEC_PER_SEC };
	long ret = iio_test_registered(d, IIO_IRQ_ONESHOT);

	if (ret < 0)
		return ret;
	iio_unregister_device(d);
	return iio_event_write_oneshot(d, &req, sizeof(req));
}

/* unregistration of a device whose registration failed does nothing */
static long unregister_failed(struct iio_device *d)
{
	long ret;

	d->name = NULL;
	ret = iio_register_device(&iio_test_pdev->dev, d);
	iio_revoke_device(d);
	iio_unregister_device(d);
	return ret;
}

/* nor does a second one */
static long unregister_twice(struct iio_device *d)
{
	long ret = iio_test_registered(d, IIO_IRQ_CYCLIC);

	if (ret < 0)
		return ret;
	iio_unregister_device(d);
	iio_revoke_device(d);
	iio_unregister_device(d);
	return 0;
}

/* events for a device that is not registered: nothing happens */
static long add_unregistered(struct iio_device *d)
{
	long ret = iio_test_registered(d, IIO_IRQ_NONE);

	if (ret < 0)
		return ret;
	iio_unregister_device(d);
	iio_event_add(d, 1);
	iio_event_notify(d);
	iio_event_add_vector(d, 0, 1);
	return 0;
}

/*
 * A device kept for the test's nodes: two event vectors, a one-shot
 * source without a handler (armed only by arm_held), an in window over
 * the whole page and an out window inside it at an offset that is not
 * page-aligned (overlapping windows), and one DMA buffer of
 * IIO_TEST_DMA_SIZE bytes, not a multiple of the page size.
 */
static long hold_vectors(struct iio_device *d)
{
	long ret;

	if (iio_test_vector_dev >= 0)
		return -EBUSY;
	iio_test_base(&iio_test_held);
	iio_test_held.name = "iio_test_api vectors";
	iio_test_held.vectors = 2;
	iio_test_held.irq = IIO_IRQ_ONESHOT;
	iio_test_held.read_len = PAGE_SIZE;
	iio_test_held.write_offset = IIO_TEST_OUT_OFFSET;
	iio_test_held.write_len = IIO_TEST_OUT_LEN;
	iio_test_held.dma_dev = &iio_test_pdev->dev;
	iio_test_held.dma_size[0] = IIO_TEST_DMA_SIZE;
	ret = iio_register_device(&iio_test_pdev->dev, &iio_test_held);
	if (ret >= 0)
		iio_test_vector_dev = ret;
	return ret;
}

static long iio_test_add_vector(unsigned int vector)
{
	if (iio_test_vector_dev < 0)
		return -ENODEV;
	iio_event_add_vector(&iio_test_held, vector, 1);
	return 0;
}

static long add_vector_0(struct iio_device *d)
{
	return iio_test_add_vector(0);
}

static long add_vector_1(struct iio_device *d)
{
	return iio_test_add_vector(1);
}

/* a vector the device does not have: a stub's bug */
static long add_vector_2(struct iio_device *d)
{
	return iio_test_add_vector(2);
}

/*
 * A device kept instead: I/O memory whose physaddr is not page-aligned
 * (the page's kernel address stands in for an ioremap()ed one; nothing
 * maps it).
 */
static long hold_io(struct iio_device *d)
{
	long ret;

	if (iio_test_vector_dev >= 0)
		return -EBUSY;
	iio_test_base(&iio_test_held);
	iio_test_held.name = "iio_test_api io";
	iio_test_held.kernaddr = NULL;
	iio_test_held.virtaddr = (__force void __iomem *)iio_test_page;
	iio_test_held.physaddr = virt_to_phys(iio_test_page) +
				 IIO_TEST_PHYS_SKEW;
	ret = iio_register_device(&iio_test_pdev->dev, &iio_test_held);
	if (ret >= 0)
		iio_test_vector_dev = ret;
	return ret;
}

/*
 * DMA operations of our own, as a platform with its own allocator (AMD's
 * GART, Xen) has: plain pages, the physical address as the bus address,
 * and no mmap, so the kernel cannot say which page attributes a user
 * mapping needs (iio(4): ENODEV).
 */
static void *iio_test_dma_alloc(struct device *dev, size_t size,
				dma_addr_t *dma_handle, gfp_t gfp,
				unsigned long attrs)
{
	void *cpu_addr = alloc_pages_exact(size, gfp | __GFP_ZERO);

	if (cpu_addr)
		*dma_handle = virt_to_phys(cpu_addr);
	return cpu_addr;
}

static void iio_test_dma_free(struct device *dev, size_t size,
			      void *cpu_addr, dma_addr_t dma_handle,
			      unsigned long attrs)
{
	free_pages_exact(cpu_addr, size);
}

static const struct dma_map_ops iio_test_dma_ops = {
	.alloc = iio_test_dma_alloc,
	.free = iio_test_dma_free,
};

/* a device kept instead: one DMA buffer from iio_test_dma_ops */
static long hold_dma_ops(struct iio_device *d)
{
	long ret;

	if (iio_test_vector_dev >= 0)
		return -EBUSY;
	iio_test_base(&iio_test_held);
	iio_test_held.name = "iio_test_api dma ops";
	iio_test_held.dma_dev = &iio_test_ops_pdev->dev;
	iio_test_held.dma_size[0] = PAGE_SIZE;
	ret = iio_register_device(&iio_test_ops_pdev->dev, &iio_test_held);
	if (ret >= 0)
		iio_test_vector_dev = ret;
	return ret;
}

/* the held device's one-shot source, armed to fire at once */
static long arm_held(struct iio_device *d)
{
	if (iio_test_vector_dev < 0)
		return -ENODEV;
	return iio_event_arm(&iio_test_held, 0, false);
}

/* the held device revoked: being unregistered until release */
static long revoke_held(struct iio_device *d)
{
	if (iio_test_vector_dev < 0)
		return -ENODEV;
	iio_revoke_device(&iio_test_held);
	return 0;
}

/* iio_event_add() of 0 and of 3 events to the held device */
static long iio_test_add_held(u32 n)
{
	if (iio_test_vector_dev < 0)
		return -ENODEV;
	iio_event_add(&iio_test_held, n);
	return 0;
}

static long add_held_0(struct iio_device *d)
{
	return iio_test_add_held(0);
}

static long add_held_3(struct iio_device *d)
{
	return iio_test_add_held(3);
}

static void iio_test_release_held(void)
{
	if (iio_test_vector_dev < 0)
		return;
	iio_unregister_device(&iio_test_held);
	iio_test_vector_dev = -1;
}

static long release(struct iio_device *d)
{
	iio_test_release_held();
	return 0;
}

#define ACTION(fn) { #fn, fn }
static const struct {
	const char *name;
	long (*fn)(struct iio_device *d);
} iio_test_actions[] = {
	ACTION(valid), ACTION(no_name), ACTION(no_version), ACTION(no_size),
	ACTION(virtaddr_and_kernaddr), ACTION(kernaddr_unaligned),
	ACTION(ports_at_limit), ACTION(ports_end_beyond_limit),
	ACTION(ports_start_beyond_limit), ACTION(windows_whole_region),
	ACTION(read_window_past_end), ACTION(read_window_outside),
	ACTION(write_window_past_end), ACTION(write_window_outside),
	ACTION(irq_with_handler), ACTION(irq_without_handler),
	ACTION(irq_below_oneshot), ACTION(irq_held_unshared),
	ACTION(irq_held_shared), ACTION(irq_threaded_beside_not_oneshot),
	ACTION(irq_threaded_beside_oneshot), ACTION(cyclic_max_freq),
	ACTION(cyclic_freq_too_high), ACTION(oneshot_freq_ignored),
	ACTION(max_vectors), ACTION(too_many_vectors), ACTION(dma_max_size),
	ACTION(dma_too_large), ACTION(dma_size_after_end),
	ACTION(dma_without_dev), ACTION(fill),
	ACTION(set_freq_cyclic), ACTION(set_freq_max), ACTION(set_freq_stop),
	ACTION(set_freq_too_high), ACTION(set_freq_oneshot),
	ACTION(set_freq_no_source), ACTION(set_freq_never_registered),
	ACTION(set_freq_unregistered), ACTION(set_freq_revoked),
	ACTION(arm_relative), ACTION(arm_absolute_past),
	ACTION(arm_relative_negative), ACTION(arm_cyclic),
	ACTION(arm_no_source), ACTION(arm_never_registered),
	ACTION(arm_unregistered), ACTION(arm_revoked),
	ACTION(write_oneshot_relative), ACTION(write_oneshot_absolute_past),
	ACTION(write_oneshot_short), ACTION(write_oneshot_long),
	ACTION(write_oneshot_unknown_flag), ACTION(write_oneshot_reserved),
	ACTION(write_oneshot_relative_negative), ACTION(write_oneshot_cyclic),
	ACTION(write_oneshot_unregistered), ACTION(unregister_failed),
	ACTION(unregister_twice), ACTION(add_unregistered),
	ACTION(hold_vectors), ACTION(add_vector_0), ACTION(add_vector_1),
	ACTION(add_vector_2), ACTION(arm_held), ACTION(add_held_0),
	ACTION(add_held_3), ACTION(revoke_held), ACTION(hold_io),
	ACTION(hold_dma_ops), ACTION(release),
};

static int iio_test_run_set(const char *val, const struct kernel_param *kp)
{
	size_t len = strcspn(val, "\n");
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(iio_test_actions); i++) {
		const char *name = iio_test_actions[i].name;

		if (strlen(name) != len || strncmp(name, val, len))
			continue;
		mutex_lock(&iio_test_lock);
		iio_test_base(&iio_test_dev);
		iio_test_result = iio_test_actions[i].fn(&iio_test_dev);
		mutex_unlock(&iio_test_lock);
		return 0;
	}
	return -EINVAL;
}

static const struct kernel_param_ops iio_test_run_ops = {
	.set = iio_test_run_set,
};

module_param_cb(run, &iio_test_run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "an action to run (write only)");
module_param_named(result, iio_test_result, long, 0444);
MODULE_PARM_DESC(result, "the last action's return value");
module_param_named(count, iio_test_count, int, 0444);
MODULE_PARM_DESC(count, "devices the fill action registered");
module_param_named(vector_dev, iio_test_vector_dev, int, 0444);
MODULE_PARM_DESC(vector_dev, "the device of hold_vectors, -1: none");

static int __init iio_test_init(void)
{
	int ret;

	iio_test_page = (void *)get_zeroed_page(GFP_KERNEL);
	if (!iio_test_page)
		return -ENOMEM;
	iio_test_irq = irq_alloc_desc(NUMA_NO_NODE);
	if (iio_test_irq < 0) {
		ret = iio_test_irq;
		goto err_page;
	}
	irq_set_chip_and_handler(iio_test_irq, &dummy_irq_chip,
				 handle_simple_irq);
	iio_test_pdev = platform_device_register_simple("iio_test_api", -1,
							NULL, 0);
	if (IS_ERR(iio_test_pdev)) {
		ret = PTR_ERR(iio_test_pdev);
		goto err_irq;
	}
	ret = dma_coerce_mask_and_coherent(&iio_test_pdev->dev,
					   DMA_BIT_MASK(32));
	if (ret)
		goto err_pdev;
	iio_test_ops_pdev = platform_device_register_simple("iio_test_api_ops",
							    -1, NULL, 0);
	if (IS_ERR(iio_test_ops_pdev)) {
		ret = PTR_ERR(iio_test_ops_pdev);
		goto err_pdev;
	}
	set_dma_ops(&iio_test_ops_pdev->dev, &iio_test_dma_ops);
	ret = dma_coerce_mask_and_coherent(&iio_test_ops_pdev->dev,
					   DMA_BIT_MASK(32));
	if (ret)
		goto err_ops_pdev;
	return 0;

err_ops_pdev:
	platform_device_unregister(iio_test_ops_pdev);
err_pdev:
	platform_device_unregister(iio_test_pdev);
err_irq:
	irq_free_desc(iio_test_irq);
err_page:
	free_page((unsigned long)iio_test_page);
	return ret;
}

static void __exit iio_test_exit(void)
{
	mutex_lock(&iio_test_lock);
	iio_test_release_held();
	mutex_unlock(&iio_test_lock);
	platform_device_unregister(iio_test_ops_pdev);
	platform_device_unregister(iio_test_pdev);
	irq_free_desc(iio_test_irq);
	free_page((unsigned long)iio_test_page);
}

module_init(iio_test_init);
module_exit(iio_test_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("iio: test-only stub driving the registration and event API");
