// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_udrv.c - libudrv (lib/udrv.h) on the iio backend, in the main boot
 * (no IOMMU, iio.enable_unsafe_noiommu_mode=1): every way to name a
 * device, the identity, regions of memory and of ports, exact-width reads
 * and writes, a mapping that reads all ones instead of killing the
 * process when the device is unbound under it, INTx that needs an unmask
 * (iio_pci_generic) and INTx that does not (iio_edu), the dummy's cyclic
 * events, DMA buffers given back, reused and refused, and examples/edu.c
 * (udrv-edu) on iio_edu and on iio_pci_generic.  The vfio backend is
 * tests/test_udrv_vfio.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/iio_test.h"
#include "lib/udrv_test.h"

#define EDU_STUB	"0000:00:10.0"	/* iio_edu's at boot */
#define EDU_GENERIC	"0000:00:13.0"	/* left for iio_pci_generic */
#define TESTDEV		"0000:00:19.0"	/* pci-testdev: a memory and a port BAR */


static unsigned long long pci_num(const char *pci, const char *attr)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", pci, attr);
	return read_num(path);
}

/* a PCI address in each form, iioN, a node path, a name: one device */
static void open_by_every_name(void)
{
	int nr = iio_find_by_parent(EDU_STUB), dummy = dummy_nr(0);
	char spec[64];
	const char *forms[5];
	struct udrv_device *dev;
	unsigned int i;
	uint64_t size;

	EXPECT(nr >= 0);
	forms[0] = EDU_STUB;
	forms[1] = EDU_STUB + 5;	/* "00:10.0" */
	snprintf(spec, sizeof(spec), "iio%d", nr);
	forms[2] = strdup(spec);
	forms[3] = strdup(iio_node(nr, ""));
	forms[4] = strdup(iio_node(nr, "_event"));
	for (i = 0; i < 5; i++) {
		dev = udrv_test_open(forms[i]);
		EXPECT_STREQ(udrv_device_name(dev), EDU_STUB);
		EXPECT_STREQ(udrv_device_backend(dev), "iio");
		udrv_device_close(dev);
	}
	/* the dummy, by its name and by number: region 0, no PCI */
	dev = udrv_test_open("IIO dummy");
	EXPECT_STREQ(udrv_device_name(dev), "IIO dummy");
	EXPECT_UDRV(udrv_device_pci_id(dev, NULL, NULL, NULL), -ENODEV);
	EXPECT_UDRV(udrv_region_info(dev, 0, &size, NULL), 0);
	EXPECT_EQ(size, read_num(iio_attr_path(dummy, "size")));
	EXPECT_UDRV(udrv_region_info(dev, 1, NULL, NULL), -ENOENT);
	udrv_device_close(dev);
	snprintf(spec, sizeof(spec), "iio%d", dummy);
	dev = udrv_test_open(spec);
	EXPECT_STREQ(udrv_device_name(dev), "IIO dummy");
	udrv_device_close(dev);
}

static void open_errors(void)
{
	struct udrv_device *dev;

	pci_generic_bind(EDU_GENERIC);
	pci_generic_unbind(EDU_GENERIC);
	EXPECT_UDRV(udrv_device_open(EDU_GENERIC, &dev), -ENODEV);
	EXPECT(strstr(udrv_strerror(), "has no driver: bind it to "
		      "iio_pci_generic"));
	EXPECT(dev == NULL);
	EXPECT_UDRV(udrv_device_open("0000:00:1f.6", &dev), -ENODEV);
	EXPECT(strstr(udrv_strerror(), "no PCI device 0000:00:1f.6"));
	EXPECT_UDRV(udrv_device_open("no such device", &dev), -ENOENT);
	EXPECT(strstr(udrv_strerror(), "no device \"no such device\""));
	EXPECT_UDRV(udrv_device_open("iio255", &dev), -ENOENT);
	/* uio_pci_generic's edu is neither ours nor vfio's */
	EXPECT_UDRV(udrv_device_open("0000:00:12.0", &dev), -ENODEV);
	EXPECT(strstr(udrv_strerror(), "bound to uio_pci_generic"));
	/* a name several iio devices have: the boot's edus under iio_edu */
	EXPECT_EQ(shell("[ $(grep -lx edu /sys/class/iio/*/name | wc -l) -ge 2 ]"), 0);
	EXPECT_UDRV(udrv_device_open("edu", &dev), -EINVAL);
	EXPECT(strstr(udrv_strerror(), "iio devices are named \"edu\""));
	EXPECT(dev == NULL);
}

/*
 * A PCI function whose driver is an iio stub that gave user space none of
 * its BARs (tests/kmod/iio_test_pci.c: one page of kernel memory, the
 * function its parent) is no device to open: ENODEV, naming the stub.
 */
static void stub_without_bar(void)
{
	char path[96], by_addr[160], by_nr[160];
	struct udrv_device *dev = (void *)1, *dev_nr = (void *)1;
	int nr, ret, ret_nr = 1;

	test_module_load("iio_test_pci");
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver_override",
		 EDU_GENERIC);
	EXPECT_EQ(write_text(path, "iio_test_pci"), 0);
	EXPECT_EQ(pci_driver_bind("iio_test_pci", EDU_GENERIC), 0);
	nr = iio_find_by_parent(EDU_GENERIC);
	/* what each open gives; checked once the function is free again */
	ret = udrv_device_open(EDU_GENERIC, &dev);
	snprintf(by_addr, sizeof(by_addr), "%s", udrv_strerror());
	if (!ret)
		udrv_device_close(dev);
	snprintf(path, sizeof(path), "iio%d", nr);	/* the same function */
	if (nr >= 0)
		ret_nr = udrv_device_open(path, &dev_nr);
	snprintf(by_nr, sizeof(by_nr), "%s", udrv_strerror());
	if (!ret_nr)
		udrv_device_close(dev_nr);
	EXPECT_EQ(pci_driver_unbind("iio_test_pci", EDU_GENERIC), 0);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver_override",
		 EDU_GENERIC);
	EXPECT_EQ(write_text(path, "none"), 0);
	EXPECT_EQ(module_unload("iio_test_pci"), 0);

	EXPECT(nr >= 0);
	EXPECT_EQ(ret, -ENODEV);
	EXPECT_STREQ(by_addr, EDU_GENERIC ": iio_test_pci gave no BAR to user "
		     "space");
	EXPECT(dev == NULL);
	EXPECT_EQ(ret_nr, -ENODEV);
	EXPECT_STREQ(by_nr, by_addr);
	EXPECT(dev_nr == NULL);
}

/*
 * One driver at a time: a second open, in this process or another, is
 * refused while the first is open (flock), and works once it is closed or
 * its process is gone.
 */
static void claim_is_exclusive(void)
{
	struct udrv_device *dev = udrv_test_open(EDU_STUB), *again;
	int status;
	pid_t pid;

	EXPECT_UDRV(udrv_device_open(EDU_STUB, &again), -EBUSY);
	EXPECT(strstr(udrv_strerror(), "in use by another driver"));
	pid = MUST(fork());
	if (!pid)
		_exit(udrv_device_open(EDU_STUB, &again) == -EBUSY ? 0 : 1);
	EXPECT_EQ(waitpid(pid, &status, 0), pid);
	EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	udrv_device_close(dev);
	/* a process that dies holding the device gives it back */
	pid = MUST(fork());
	if (!pid) {
		if (udrv_device_open(EDU_STUB, &again))
			_exit(1);
		_exit(0);
	}
	EXPECT_EQ(waitpid(pid, &status, 0), pid);
	EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	dev = udrv_test_open(EDU_STUB);
	udrv_device_close(dev);
}

static void identity(void)
{
	struct udrv_device *dev = udrv_test_open(EDU_STUB);
	uint16_t vendor, device;
	uint32_t class_code;

	EXPECT_UDRV(udrv_device_pci_id(dev, &vendor, &device, &class_code), 0);
	EXPECT_EQ(vendor, pci_num(EDU_STUB, "vendor"));
	EXPECT_EQ(device, pci_num(EDU_STUB, "device"));
	EXPECT_EQ(class_code, pci_num(EDU_STUB, "class"));
	EXPECT_EQ(vendor, 0x1234);
	EXPECT_STREQ(udrv_device_irq_mode(dev), "intx");
	EXPECT_STREQ(udrv_device_dma_policy(dev), "unsafe");
	EXPECT_EQ(udrv_vector_count(dev), 1);
	EXPECT_EQ(udrv_device_gone(dev), 0);
	udrv_device_close(dev);
}

/* pci-testdev: BAR0 memory, BAR1 I/O ports; the rest absent */
static void regions_by_bar(void)
{
	struct udrv_device *dev;
	unsigned int flags, i;
	uint64_t size, v;
	volatile void *p;

	pci_generic_bind(TESTDEV);
	dev = udrv_test_open(TESTDEV);
	EXPECT_UDRV(udrv_region_info(dev, 0, &size, &flags), 0);
	EXPECT_EQ(size, 4096);
	EXPECT_EQ(flags, UDRV_REGION_MEM | UDRV_REGION_MAPPABLE);
	EXPECT_UDRV(udrv_region_info(dev, 1, &size, &flags), 0);
	EXPECT_EQ(flags, 0);
	EXPECT_EQ(size, read_num(iio_attr_path(pci_bar_nr(TESTDEV, 1), "size")));
	for (i = 2; i < UDRV_REGIONS_MAX; i++)
		EXPECT_UDRV(udrv_region_info(dev, i, NULL, NULL), -ENOENT);
	/* a port region is read by port accesses, not mapped */
	EXPECT_UDRV(udrv_read(dev, 1, 0, 1, &v), 0);
	EXPECT_UDRV(udrv_region_map(dev, 1, &p, NULL), -ENODEV);
	udrv_device_close(dev);
	pci_generic_unbind(TESTDEV);
}

static void reads_and_writes(void)
{
	struct udrv_device *dev = udrv_test_open(EDU_STUB);
	uint64_t v;

	udrv_test_edu_registers(dev);
	/* the region's end, and past it */
	EXPECT_UDRV(udrv_read(dev, 0, (1 << 20) - 4, 4, &v), 0);
	EXPECT_UDRV(udrv_read(dev, 0, 1 << 20, 4, &v), -EINVAL);
	udrv_device_close(dev);
}

/*
 * The device unbound under a mapping: the touch reads ones and the
 * process lives on; every call then fails with ENODEV.
 */
static void mapping_survives_unbind(void)
{
	struct udrv_device *dev;
	volatile uint32_t *regs;
	volatile void *p;
	size_t len;
	uint64_t v;

	pci_generic_bind(EDU_GENERIC);
	dev = udrv_test_open(EDU_GENERIC);
	EXPECT_UDRV(udrv_region_map(dev, 0, &p, &len), 0);
	EXPECT_EQ(len, 1 << 20);
	regs = p;
	EXPECT_EQ(regs[EDU_ID / 4], 0x010000ed);
	pci_generic_unbind(EDU_GENERIC);
	EXPECT_EQ(regs[EDU_ID / 4], 0xffffffff);
	EXPECT_EQ(udrv_device_gone(dev), 1);
	EXPECT_UDRV(udrv_read(dev, 0, EDU_ID, 4, &v), -ENODEV);
	EXPECT_UDRV(udrv_event_wait(dev, 0, 0), -ENODEV);
	udrv_device_close(dev);
}

/* a call finds the device gone first: -ENODEV, and gone says so */
static void read_after_unbind(void)
{
	struct udrv_device *dev;
	uint64_t v;

	pci_generic_bind(EDU_GENERIC);
	dev = udrv_test_open(EDU_GENERIC);
	EXPECT_UDRV(udrv_read(dev, 0, EDU_ID, 4, &v), 0);
	pci_generic_unbind(EDU_GENERIC);
	EXPECT_UDRV(udrv_read(dev, 0, EDU_ID, 4, &v), -ENODEV);
	EXPECT(strstr(udrv_strerror(), "went away"));
	EXPECT_EQ(udrv_device_gone(dev), 1);
	udrv_device_close(dev);
}

/* one factorial interrupt: wait, acknowledge in the device, unmask */
static void factorial_irq(struct udrv_device *dev, uint32_t n, bool unmask)
{
	uint64_t v;

	EXPECT_UDRV(udrv_write(dev, 0, EDU_STATUS, 4, 0x80), 0);
	EXPECT_UDRV(udrv_write(dev, 0, EDU_FACTORIAL, 4, n), 0);
	EXPECT_UDRV(udrv_event_wait(dev, 0, 5000), 1);
	EXPECT_UDRV(udrv_read(dev, 0, EDU_IRQ_STATUS, 4, &v), 0);
	if (v)
		EXPECT_UDRV(udrv_write(dev, 0, EDU_IRQ_ACK, 4, v), 0);
	if (unmask)
		EXPECT_UDRV(udrv_event_unmask(dev, 0), 0);
}

/*
 * iio_pci_generic's INTx stays masked after each interrupt until the
 * driver unmasks it: without the unmask the next interrupt is not seen.
 */
static void intx_needs_unmask(void)
{
	struct udrv_device *dev;

	/* the module's defaults: INTx (a program before may have left
	 * vectors= or msi=1) */
	pci_generic_reload("");
	pci_generic_bind(EDU_GENERIC);
	dev = udrv_test_open(EDU_GENERIC);
	EXPECT_STREQ(udrv_device_irq_mode(dev), "intx");
	EXPECT(udrv_event_fd(dev, 0) >= 0);
	factorial_irq(dev, 5, true);
	factorial_irq(dev, 6, false);
	/* masked: the next interrupt stays pending in the device */
	EXPECT_UDRV(udrv_write(dev, 0, EDU_FACTORIAL, 4, 7), 0);
	EXPECT_UDRV(udrv_event_wait(dev, 0, 300), 0);
	EXPECT_UDRV(udrv_event_unmask(dev, 0), 0);
	EXPECT_UDRV(udrv_event_wait(dev, 0, 5000), 1);
	EXPECT_EQ(udrv_event_merged(dev, 0), 0);
	EXPECT_UDRV(udrv_write(dev, 0, EDU_IRQ_ACK, 4, 1), 0);
	udrv_device_close(dev);
	pci_generic_unbind(EDU_GENERIC);
}

/* the dummy's cyclic timer: events arrive without any unmask */
static void dummy_cyclic_events(void)
{
	struct udrv_device *dev = udrv_test_open("IIO dummy");
	int64_t n;

	EXPECT_STREQ(udrv_device_irq_mode(dev), "cyclic");
	EXPECT_EQ(udrv_vector_count(dev), 1);
	n = udrv_event_wait(dev, 0, 5000);
	EXPECT(n >= 1);
	EXPECT_UDRV(udrv_event_unmask(dev, 0), 0);
	EXPECT_UDRV(udrv_event_fd(dev, 1), -ENOENT);
	udrv_device_close(dev);
}

/* iio device @nr has buffer dmaK */
static int has_dma(int nr, int k)
{
	char name[16];

	snprintf(name, sizeof(name), "dma%d", k);
	return path_exists(iio_attr_path(nr, name));
}

/*
 * iio_pci_generic's buffers: two at once are two; a freed one that the
 * library requested goes back to the kernel (udrv_dma_alloc(3)): dmaK is
 * gone, its number is the next request's (a new buffer, zeroed) and its
 * bytes count no more against dma_max; more than 4 MiB is refused; the
 * dummy does no DMA.
 */
static void dma_buffers(void)
{
	struct udrv_device *dev, *dummy;
	struct udrv_dma *a, *b, *c;
	int nr, k;

	/* 0x4000 bytes of buffers at most (iio_pci_generic(4), dma_max) */
	pci_generic_reload("dma_max=0x4000");
	pci_generic_bind(EDU_GENERIC);
	nr = iio_find_by_parent(EDU_GENERIC);
	EXPECT(nr >= 0);
	for (k = 0; k < 4; k++)
		EXPECT(!has_dma(nr, k));
	dev = udrv_test_open(EDU_GENERIC);
	EXPECT_STREQ(udrv_device_dma_policy(dev), "unsafe");
	EXPECT_UDRV(udrv_dma_alloc(dev, 4096, &a), 0);
	EXPECT_UDRV(udrv_dma_alloc(dev, 8192, &b), 0);
	EXPECT_EQ(udrv_dma_outstanding(dev), 2);
	EXPECT_EQ(udrv_dma_size(a), 4096);
	EXPECT_EQ(udrv_dma_size(b), 8192);
	EXPECT(udrv_dma_bus_addr(a) != udrv_dma_bus_addr(b));
	EXPECT(has_dma(nr, 0) && has_dma(nr, 1));
	memset(udrv_dma_addr(a), 0x5a, 4096);
	udrv_dma_free(a);
	EXPECT_EQ(udrv_dma_outstanding(dev), 1);
	EXPECT(!has_dma(nr, 0));
	EXPECT(has_dma(nr, 1));
	/* dma0 again, a new buffer: zeroed, not the freed one's bytes */
	EXPECT_UDRV(udrv_dma_alloc(dev, 100, &c), 0);
	EXPECT(has_dma(nr, 0));
	EXPECT_EQ(udrv_dma_size(c), 4096);
	EXPECT_EQ(((unsigned char *)udrv_dma_addr(c))[0], 0);
	EXPECT_EQ(((unsigned char *)udrv_dma_addr(c))[4095], 0);
	udrv_dma_free(c);
	udrv_dma_free(b);
	EXPECT_EQ(udrv_dma_outstanding(dev), 0);
	for (k = 0; k < 4; k++)
		EXPECT(!has_dma(nr, k));
	/*
	 * Allocate and free in a loop: each whole dma_max is given back,
	 * else the second round finds it spent (E2BIG), or the small
	 * request reuses the large buffer and the large one then is past
	 * the limit.
	 */
	for (k = 0; k < 6; k++) {
		EXPECT_UDRV(udrv_dma_alloc(dev, 0x4000, &a), 0);
		EXPECT_EQ(udrv_dma_size(a), 0x4000);
		udrv_dma_free(a);
		EXPECT_UDRV(udrv_dma_alloc(dev, 4096, &a), 0);
		EXPECT_EQ(udrv_dma_size(a), 4096);
		EXPECT_UDRV(udrv_dma_alloc(dev, 0x3000, &b), 0);
		udrv_dma_free(b);
		udrv_dma_free(a);
		EXPECT(!has_dma(nr, 0) && !has_dma(nr, 1));
	}
	EXPECT_UDRV(udrv_dma_alloc(dev, (4 << 20) + 1, &a), -EINVAL);
	/* udrv_device_close() gives back what was not freed */
	EXPECT_UDRV(udrv_dma_alloc(dev, 4096, &a), 0);
	udrv_device_close(dev);
	EXPECT(!has_dma(nr, 0));
	pci_generic_unbind(EDU_GENERIC);
	pci_generic_reload("");

	dummy = udrv_test_open("IIO dummy");
	EXPECT_STREQ(udrv_device_dma_policy(dummy), "none");
	EXPECT_UDRV(udrv_dma_alloc(dummy, 4096, &a), -EOPNOTSUPP);
	udrv_device_close(dummy);
}

/*
 * A buffer the library did not request is only unmapped by
 * udrv_dma_free(): one another program added (dma_request written here)
 * stays with its bytes, and so does a stub's own (iio_edu's dma0).
 */
static void dma_buffers_not_ours(void)
{
	struct udrv_device *dev;
	struct udrv_dma *a;
	uint64_t bus;
	int nr;

	pci_generic_reload("");	/* no buffers, whatever a case left */
	pci_generic_bind(EDU_GENERIC);
	nr = iio_find_by_parent(EDU_GENERIC);
	EXPECT(nr >= 0);
	EXPECT_EQ(iio_dma_request(nr, "8192"), 0);
	dev = udrv_test_open(EDU_GENERIC);
	EXPECT_UDRV(udrv_dma_alloc(dev, 4096, &a), 0);
	EXPECT_EQ(udrv_dma_size(a), 8192);	/* the one that was there */
	bus = udrv_dma_bus_addr(a);
	memset(udrv_dma_addr(a), 0xa5, 8192);
	udrv_dma_free(a);
	EXPECT(has_dma(nr, 0));
	EXPECT_UDRV(udrv_dma_alloc(dev, 4096, &a), 0);
	EXPECT_EQ(udrv_dma_bus_addr(a), bus);
	EXPECT_EQ(((unsigned char *)udrv_dma_addr(a))[8191], 0xa5);
	udrv_device_close(dev);
	EXPECT(has_dma(nr, 0));
	EXPECT_EQ(iio_dma_free(nr, "0"), 0);	/* its owner frees it */
	pci_generic_unbind(EDU_GENERIC);

	nr = iio_find_by_parent(EDU_STUB);
	EXPECT(nr >= 0);
	dev = udrv_test_open(EDU_STUB);
	EXPECT_UDRV(udrv_dma_alloc(dev, 4096, &a), 0);
	EXPECT_EQ(udrv_dma_size(a), 64 << 10);
	bus = udrv_dma_bus_addr(a);
	udrv_dma_free(a);
	EXPECT(has_dma(nr, 0));
	EXPECT_UDRV(udrv_dma_alloc(dev, 4096, &a), 0);
	EXPECT_EQ(udrv_dma_bus_addr(a), bus);
	udrv_device_close(dev);
	EXPECT(has_dma(nr, 0));
}

/* udrv-edu @pci prints what @want (fnmatch(3)) matches, status 0 */
static void run_edu_example(const char *pci)
{
	static const char *const want =
		"*: edu 1.0 via iio, interrupts intx\n"
		"10! = 3628800\n"
		"DMA: \"a round trip through edu\" back from edu";
	char cmd[128];
	const char *out;
	int status;

	snprintf(cmd, sizeof(cmd), "udrv-edu %s > /tmp/udrv-edu.out 2>&1", pci);
	status = shell("%s", cmd);
	out = read_text("/tmp/udrv-edu.out");
	if (status || fnmatch(want, out, 0))
		FAIL("%s: status %d, printed \"%s\"", cmd, status, out);
}

/*
 * examples/edu.c on both stubs: identity, factorial by interrupt, DMA; on
 * iio_pci_generic after an earlier user left an interrupt pending (it is
 * the first event of the next open, with INTx masked after it).
 */
static void edu_example(void)
{
	struct udrv_device *dev;

	run_edu_example(EDU_STUB);
	/* edu drives 28 address bits (iio_pci_generic(4), dma_bits) */
	pci_generic_reload("dma_bits=28");
	pci_generic_bind(EDU_GENERIC);
	dev = udrv_test_open(EDU_GENERIC);
	EXPECT_UDRV(udrv_write(dev, 0, EDU_IRQ_RAISE, 4, 0x1), 0);
	udrv_device_close(dev);
	run_edu_example(EDU_GENERIC);
	pci_generic_unbind(EDU_GENERIC);
	pci_generic_reload("");
}

static const struct check_case cases[] = {
	CASE(open_by_every_name),
	CASE(open_errors),
	CASE(stub_without_bar),
	CASE(claim_is_exclusive),
	CASE(identity),
	CASE(regions_by_bar),
	CASE(reads_and_writes),
	CASE(mapping_survives_unbind),
	CASE(read_after_unbind),
	CASE(intx_needs_unmask),
	CASE(dummy_cyclic_events),
	CASE(dma_buffers),
	CASE(dma_buffers_not_ours),
	CASE(edu_example),
};

CHECK_MAIN(cases)
