// SPDX-License-Identifier: GPL-2.0-only
/*
 * iio_user_dummy.c - example stub: kernel memory and a timer as a "device"
 *
 * Ported from the 2006 RFC's iio_dummy.c (what changed: kmod/HISTORY.md).
 * Each dummy is a platform device
 * "iio_user_dummy.N" with a region of kernel memory (module parameter size,
 * default 8 KiB; the in window is its first 4 KiB, the out window its last
 * 4 KiB) and an hrtimer event source.  Each tick increments the tick
 * count, writes it as a native-endian 64-bit value at offset 0 of the
 * region and, if sig_pid is set, sends SIGALRM to that process.
 *
 * sysfs, on the platform device (/sys/devices/platform/iio_user_dummy.N/):
 *  count	tick count (read-write)
 *  freq	ticks per second, 0 stops (read-write; cyclic mode only)
 *  sig_pid	process to send SIGALRM on each tick, 0 for none
 *		(read-write, root only; a pid that does not exist: EINVAL)
 *
 * The event device's write: a native-endian 32-bit unsigned N adds N
 * events at once (N = 0: EINVAL), so tests are deterministic with freq 0.
 * With mode=oneshot the event source is one-shot instead of cyclic, and a
 * struct iio_oneshot written to the event device arms it.  With
 * alloc=pages the memory is one higher-order block of the page allocator
 * instead of vmalloc_user()'s pages (see iio.h's kernaddr).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/capability.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/platform_device.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "iio.h"

#define IIO_DUMMY_WINDOW	SZ_4K
#define IIO_DUMMY_MAX_SIZE	SZ_256M
#define IIO_DUMMY_MAX_DEVICES	16

/* size=16M, 64K or 8192, as iioctl takes sizes (memparse(): K, M, G) */
static int iio_dummy_size_set(const char *val, const struct kernel_param *kp)
{
	unsigned long long bytes;
	char *end;

	bytes = memparse(val, &end);
	if (end == val || (*end && *end != '\n') || bytes > ULONG_MAX)
		return -EINVAL;
	*(unsigned long *)kp->arg = bytes;
	return 0;
}

static const struct kernel_param_ops iio_dummy_size_ops = {
	.set = iio_dummy_size_set,
	.get = param_get_ulong,
};

static unsigned long size = SZ_8K;
module_param_cb(size, &iio_dummy_size_ops, &size, 0444);
MODULE_PARM_DESC(size, "bytes of memory per dummy, a multiple of 4096 from 8192 to 256 MiB, with an optional K, M or G suffix (default 8192)");

static unsigned int devices = 1;
module_param(devices, uint, 0444);
MODULE_PARM_DESC(devices, "number of dummies, 0 to 16 (default 1)");

static unsigned int freq = 1;
module_param(freq, uint, 0444);
MODULE_PARM_DESC(freq, "initial ticks per second in cyclic mode (default 1)");

static char *mode = "cyclic";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "event source: cyclic (default) or oneshot");

static bool event_write = true;
module_param(event_write, bool, 0444);
MODULE_PARM_DESC(event_write, "give the event node a write (default yes; no: write() fails with EOPNOTSUPP, as for a stub without event_write)");

static char *alloc = "vmalloc";
module_param(alloc, charp, 0444);
MODULE_PARM_DESC(alloc, "where the memory comes from: vmalloc (default) or pages (one block of the page allocator, without __GFP_COMP)");

/* memory from the page allocator (alloc=pages), else vmalloc_user() */
static bool iio_dummy_pages(void)
{
	return !strcmp(alloc, "pages");
}

static void *iio_dummy_mem_alloc(void)
{
	if (!iio_dummy_pages())
		return vmalloc_user(size);
	/* higher-order, not compound: iio.h allows it for kernaddr */
	return (void *)__get_free_pages(GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN,
					get_order(size));
}

static void iio_dummy_mem_free(void *mem)
{
	if (iio_dummy_pages())
		free_pages((unsigned long)mem, get_order(size));
	else
		vfree(mem);
}

/**
 * struct iio_dummy - one dummy device
 * @idev:	what the framework knows of it
 * @count:	tick count
 * @sig_lock:	protects @sig_pid
 * @sig_pid:	process to signal on each tick, or NULL
 */
struct iio_dummy {
	struct iio_device idev;
	atomic64_t count;
	spinlock_t sig_lock;	/* protects sig_pid */
	struct pid *sig_pid;
};

static struct platform_device *iio_dummy_pdevs[IIO_DUMMY_MAX_DEVICES];

static irqreturn_t iio_dummy_handler(int irq, struct iio_device *idev)
{
	struct iio_dummy *dummy = container_of(idev, struct iio_dummy, idev);
	u64 ticks = atomic64_inc_return(&dummy->count);

	WRITE_ONCE(*(u64 *)idev->kernaddr, ticks);

	spin_lock(&dummy->sig_lock);
	if (dummy->sig_pid)
		kill_pid(dummy->sig_pid, SIGALRM, 1);
	spin_unlock(&dummy->sig_lock);
	return IRQ_HANDLED;
}

static ssize_t iio_dummy_event_write(struct iio_device *idev, const void *buf,
				     size_t count)
{
	u32 n;

	if (idev->irq == IIO_IRQ_ONESHOT && count == sizeof(struct iio_oneshot))
		return iio_event_write_oneshot(idev, buf, count);
	if (count != sizeof(n))
		return -EINVAL;
	memcpy(&n, buf, sizeof(n));
	if (!n)
		return -EINVAL;
	iio_event_add(idev, n);
	return sizeof(n);
}

static ssize_t count_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct iio_dummy *dummy = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%llu\n", (u64)atomic64_read(&dummy->count));
}

static ssize_t count_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t len)
{
	struct iio_dummy *dummy = dev_get_drvdata(dev);
	u64 val;
	int ret;

	ret = iio_kstrtou64(buf, &val);
	if (ret)
		return ret;
	atomic64_set(&dummy->count, val);
	return len;
}
static DEVICE_ATTR_RW(count);

static ssize_t freq_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct iio_dummy *dummy = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", READ_ONCE(dummy->idev.freq));
}

static ssize_t freq_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t len)
{
	struct iio_dummy *dummy = dev_get_drvdata(dev);
	u64 val;
	int ret;

	ret = iio_kstrtou64(buf, &val);
	if (ret)
		return ret;
	if (val > IIO_MAX_FREQ)
		return -EINVAL;
	ret = iio_event_set_freq(&dummy->idev, val);
	return ret ? ret : len;
}
static DEVICE_ATTR_RW(freq);

static ssize_t sig_pid_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct iio_dummy *dummy = dev_get_drvdata(dev);
	pid_t nr;

	spin_lock_bh(&dummy->sig_lock);
	nr = dummy->sig_pid ? pid_vnr(dummy->sig_pid) : 0;
	spin_unlock_bh(&dummy->sig_lock);
	return sysfs_emit(buf, "%d\n", nr);
}

static ssize_t sig_pid_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t len)
{
	struct iio_dummy *dummy = dev_get_drvdata(dev);
	struct pid *pid = NULL, *old;
	int nr, ret;

	if (!capable(CAP_KILL))
		return -EPERM;
	ret = kstrtoint(buf, 10, &nr);
	if (ret)
		return ret;
	if (nr < 0)
		return -EINVAL;
	if (nr) {
		pid = find_get_pid(nr);
		if (!pid || !pid_has_task(pid, PIDTYPE_PID)) {
			put_pid(pid);
			return -EINVAL;
		}
	}

	spin_lock_bh(&dummy->sig_lock);
	old = dummy->sig_pid;
	dummy->sig_pid = pid;
	spin_unlock_bh(&dummy->sig_lock);
	put_pid(old);
	return len;
}
static DEVICE_ATTR_RW(sig_pid);

static struct attribute *iio_dummy_attrs[] = {
	&dev_attr_count.attr,
	&dev_attr_freq.attr,
	&dev_attr_sig_pid.attr,
	NULL,
};
ATTRIBUTE_GROUPS(iio_dummy);

/*
 * Unbind's teardown, a devm action (it runs after the driver core has
 * removed the attributes, as a .remove() would): no .remove(), whose
 * return type changed in 6.11.
 */
static void iio_dummy_teardown(void *data)
{
	struct iio_dummy *dummy = data;

	iio_unregister_device(&dummy->idev);
	iio_dummy_mem_free(dummy->idev.kernaddr);
	put_pid(dummy->sig_pid);
}

static int iio_dummy_probe(struct platform_device *pdev)
{
	struct iio_dummy *dummy;
	void *mem;
	int ret;

	dummy = devm_kzalloc(&pdev->dev, sizeof(*dummy), GFP_KERNEL);
	if (!dummy)
		return -ENOMEM;
	mem = iio_dummy_mem_alloc();
	if (!mem) {
		dev_err(&pdev->dev, "no %lu bytes of memory (alloc=%s)\n",
			size, alloc);
		return -ENOMEM;
	}

	spin_lock_init(&dummy->sig_lock);
	dummy->idev = (struct iio_device) {
		.name = "IIO dummy",
		.version = "1.0",
		.kernaddr = mem,
		.size = size,
		.read_offset = 0,
		.read_len = IIO_DUMMY_WINDOW,
		.write_offset = size - IIO_DUMMY_WINDOW,
		.write_len = IIO_DUMMY_WINDOW,
		.irq = strcmp(mode, "oneshot") ? IIO_IRQ_CYCLIC :
						 IIO_IRQ_ONESHOT,
		.freq = freq,
		.handler = iio_dummy_handler,
		.event_write = event_write ? iio_dummy_event_write : NULL,
	};
	platform_set_drvdata(pdev, dummy);

	ret = iio_register_device(&pdev->dev, &dummy->idev);
	if (ret < 0) {
		iio_dummy_mem_free(mem);
		return ret;
	}
	/* on failure the action has already run */
	return devm_add_action_or_reset(&pdev->dev, iio_dummy_teardown, dummy);
}

static struct platform_driver iio_dummy_driver = {
	.probe = iio_dummy_probe,
	.driver = {
		.name = "iio_user_dummy",
		.dev_groups = iio_dummy_groups,
	},
};

static void iio_dummy_del_devices(void)
{
	int i;

	for (i = IIO_DUMMY_MAX_DEVICES - 1; i >= 0; i--) {
		platform_device_unregister(iio_dummy_pdevs[i]);
		iio_dummy_pdevs[i] = NULL;
	}
}

static int __init iio_dummy_init(void)
{
	struct platform_device *pdev;
	unsigned int i;
	int ret;

	if (size < 2 * IIO_DUMMY_WINDOW || size > IIO_DUMMY_MAX_SIZE ||
	    !PAGE_ALIGNED(size)) {
		pr_err("size=%lu: must be a multiple of %lu from %u to %u\n",
		       size, PAGE_SIZE, 2 * IIO_DUMMY_WINDOW,
		       IIO_DUMMY_MAX_SIZE);
		return -EINVAL;
	}
	if (devices > IIO_DUMMY_MAX_DEVICES) {
		pr_err("devices=%u: at most %u\n", devices,
		       IIO_DUMMY_MAX_DEVICES);
		return -EINVAL;
	}
	if (strcmp(mode, "cyclic") && strcmp(mode, "oneshot")) {
		pr_err("mode=%s: must be cyclic or oneshot\n", mode);
		return -EINVAL;
	}
	if (strcmp(alloc, "vmalloc") && strcmp(alloc, "pages")) {
		pr_err("alloc=%s: must be vmalloc or pages\n", alloc);
		return -EINVAL;
	}

	ret = platform_driver_register(&iio_dummy_driver);
	if (ret)
		return ret;

	for (i = 0; i < devices; i++) {
		pdev = platform_device_register_simple("iio_user_dummy", i, NULL, 0);
		if (IS_ERR(pdev)) {
			ret = PTR_ERR(pdev);
			goto err_del_devices;
		}
		iio_dummy_pdevs[i] = pdev;
		if (!platform_get_drvdata(pdev)) {
			ret = -ENODEV;	/* probe failed; the log says why */
			goto err_del_devices;
		}
	}
	return 0;

err_del_devices:
	iio_dummy_del_devices();
	platform_driver_unregister(&iio_dummy_driver);
	return ret;
}

static void __exit iio_dummy_exit(void)
{
	iio_dummy_del_devices();
	platform_driver_unregister(&iio_dummy_driver);
}

module_init(iio_dummy_init);
module_exit(iio_dummy_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("Benedikt Spranger");
MODULE_DESCRIPTION("iio dummy stub: kernel memory and a timer event source");
