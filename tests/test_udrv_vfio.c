// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_udrv_vfio.c - libudrv on mainline vfio-pci, in a boot of its own
 * with intel-iommu (tests/run: own_boots): Debian's vfio, vfio_iommu_type1
 * and vfio-pci (qemu/mkinitramfs puts them in /lib/modules/vfio), an edu
 * bound to vfio-pci, and the same calls as tests/test_udrv.c makes on the
 * iio backend: identity, regions, exact-width reads and writes, a mapping,
 * MSI, DMA at I/O virtual addresses, examples/edu.c (udrv-edu), the
 * refusal of a group that is not viable, and examples/nvme.c (udrv-nvme)
 * on QEMU's NVMe controller: Identify, verified reads and writes,
 * completions on MSI-X vectors and by polling.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/iio_test.h"
#include "lib/nvme_test.h"
#include "lib/udrv_test.h"

#define EDU		"0000:00:13.0"	/* no driver at boot */
#define EDU_SHARED	"0000:00:14.0"	/* shares its group with 00:14.1 */
/* the edu on vfio-pci, opened (each case binds it: they run apart) */
static struct udrv_device *vfio_edu(void)
{
	vfio_bind(EDU);
	return udrv_test_open(EDU);
}

static void identity_and_regions(void)
{
	struct udrv_device *dev;
	unsigned int flags, i;
	uint16_t vendor, device;
	uint64_t size;

	dev = vfio_edu();
	EXPECT_STREQ(udrv_device_backend(dev), "vfio");
	EXPECT_STREQ(udrv_device_name(dev), EDU);
	EXPECT_UDRV(udrv_device_pci_id(dev, &vendor, &device, NULL), 0);
	EXPECT_EQ(vendor, 0x1234);
	EXPECT_EQ(device, 0x11e8);
	EXPECT_STREQ(udrv_device_irq_mode(dev), "msi");
	EXPECT_EQ(udrv_vector_count(dev), 1);
	EXPECT_STREQ(udrv_device_dma_policy(dev), "iommu");
	EXPECT_UDRV(udrv_region_info(dev, 0, &size, &flags), 0);
	EXPECT_EQ(size, 1 << 20);
	EXPECT_EQ(flags, UDRV_REGION_MEM | UDRV_REGION_MAPPABLE);
	for (i = 1; i < UDRV_REGIONS_MAX; i++)
		EXPECT_UDRV(udrv_region_info(dev, i, NULL, NULL), -ENOENT);
	/* vfio enabled bus mastering for the MSI and the DMA to come */
	EXPECT(pci_command(EDU) & 0x4);
	udrv_device_close(dev);
}

static void reads_writes_and_map(void)
{
	struct udrv_device *dev = vfio_edu();
	volatile uint32_t *regs;
	volatile void *p;

	udrv_test_edu_registers(dev);
	EXPECT_UDRV(udrv_region_map(dev, 0, &p, NULL), 0);
	regs = p;
	EXPECT_EQ(regs[EDU_ID / 4], 0x010000ed);
	regs[EDU_LIVENESS / 4] = 1;
	EXPECT_EQ(regs[EDU_LIVENESS / 4], 0xfffffffe);
	udrv_device_close(dev);
}

/* MSI through an eventfd: one factorial, one event, nothing to unmask */
static void msi_event(void)
{
	struct udrv_device *dev = vfio_edu();
	uint64_t v;

	EXPECT(udrv_event_fd(dev, 0) >= 0);
	EXPECT_UDRV(udrv_event_consume(dev, 0), 0);
	EXPECT_UDRV(udrv_write(dev, 0, EDU_STATUS, 4, 0x80), 0);
	EXPECT_UDRV(udrv_write(dev, 0, EDU_FACTORIAL, 4, 5), 0);
	EXPECT_UDRV(udrv_event_wait(dev, 0, 5000), 1);
	EXPECT_UDRV(udrv_read(dev, 0, EDU_FACTORIAL, 4, &v), 0);
	EXPECT_EQ(v, 120);
	EXPECT_UDRV(udrv_event_unmask(dev, 0), 0);
	EXPECT_UDRV(udrv_event_wait(dev, 0, 200), 0);
	udrv_device_close(dev);
}

/*
 * Buffers at I/O virtual addresses from 1 MiB, one after the other; a
 * freed buffer's addresses are the next allocation's, so allocating and
 * freeing in a loop beside a buffer held stays at the lowest (below
 * edu's 28-bit DMA mask).
 */
static void dma_at_iovas(void)
{
	struct udrv_device *dev = vfio_edu();
	struct udrv_dma *a, *b, *c;
	int i;

	EXPECT_UDRV(udrv_dma_alloc(dev, 100, &a), 0);
	EXPECT_UDRV(udrv_dma_alloc(dev, 8192, &b), 0);
	EXPECT_EQ(udrv_dma_bus_addr(a), 0x100000);
	EXPECT_EQ(udrv_dma_size(a), 4096);
	EXPECT_EQ(udrv_dma_bus_addr(b), 0x101000);
	EXPECT_EQ(udrv_dma_outstanding(dev), 2);
	udrv_dma_free(a);
	EXPECT_EQ(udrv_dma_outstanding(dev), 1);
	for (i = 0; i < 100; i++) {
		EXPECT_UDRV(udrv_dma_alloc(dev, 4096, &a), 0);
		EXPECT_EQ(udrv_dma_bus_addr(a), 0x100000);
		udrv_dma_free(a);
	}
	/* a hole too small is skipped, and filled by what fits */
	EXPECT_UDRV(udrv_dma_alloc(dev, 8192, &c), 0);
	EXPECT_EQ(udrv_dma_bus_addr(c), 0x103000);
	EXPECT_UDRV(udrv_dma_alloc(dev, 4096, &a), 0);
	EXPECT_EQ(udrv_dma_bus_addr(a), 0x100000);
	udrv_dma_free(a);
	udrv_dma_free(c);
	EXPECT_UDRV(udrv_dma_alloc(dev, 0, &a), -EINVAL);
	/* vfio's limit: 1 GiB; past it nothing is mapped or counted */
	EXPECT_UDRV(udrv_dma_alloc(dev, (1ul << 30) + 1, &a), -EINVAL);
	EXPECT(a == NULL);
	EXPECT_EQ(udrv_dma_outstanding(dev), 1);
	udrv_device_close(dev);
}

/* examples/edu.c, unchanged, on vfio-pci */
static void edu_example(void)
{
	static const char *const want =
		EDU ": edu 1.0 via vfio, interrupts msi\n"
		"10! = 3628800\n"
		"DMA: \"a round trip through edu\" back from edu";
	const char *out;
	int status;

	vfio_bind(EDU);
	status = shell("udrv-edu " EDU " > /tmp/udrv-edu.out 2>&1");
	out = read_text("/tmp/udrv-edu.out");
	if (status || fnmatch(want, out, 0))
		FAIL("udrv-edu: status %d, printed \"%s\"", status, out);
}

/*
 * Another device of the group is bound to a host driver (iio_edu): the
 * group is not viable, and the message says what to do.
 */
static void group_not_viable(void)
{
	struct udrv_device *dev;

	vfio_bind(EDU_SHARED);
	EXPECT_UDRV(udrv_device_open(EDU_SHARED, &dev), -EBUSY);
	EXPECT(strstr(udrv_strerror(), "not viable: bind every device of "
		      "the group to vfio-pci or to no driver"));
	EXPECT(dev == NULL);
}

/*
 * The child of open_without_iommu_group(): in a mount namespace of its
 * own, the function's sysfs folder @real is covered by a tmpfs holding
 * only its driver link (vfio-pci), vendor, device and class, and no
 * iommu_group link; udrv_device_open() must fail with ENODEV and say so.
 * Returns the exit status: 0, or the step that went wrong.
 */
static int open_in_folder_without_group(const char *real)
{
	static const char * const attrs[] = { "vendor", "device", "class" };
	const char *fake = "/tmp/udrv-no-group";
	struct udrv_device *dev = NULL;
	char path[PATH_MAX + 16], *text;
	unsigned int i;
	int err;
	FILE *f;

	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    (mkdir(fake, 0700) && errno != EEXIST) ||
	    mount("tmpfs", fake, "tmpfs", 0, NULL))
		return 2;
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", real, attrs[i]);
		text = read_text(path);
		snprintf(path, sizeof(path), "%s/%s", fake, attrs[i]);
		f = fopen(path, "w");
		if (!f || fprintf(f, "%s\n", text) < 0 || fclose(f))
			return 3;
	}
	snprintf(path, sizeof(path), "%s/driver", fake);
	if (symlink("/sys/bus/pci/drivers/vfio-pci", path) ||
	    mount(fake, real, NULL, MS_BIND, NULL))
		return 4;
	if (!access("/sys/bus/pci/devices/" EDU "/iommu_group", F_OK))
		return 5;
	err = udrv_device_open(EDU, &dev);
	if (err != -ENODEV || dev ||
	    !strstr(udrv_strerror(), EDU " has no IOMMU group")) {
		fprintf(stderr, "udrv_device_open: %d (%s), want -ENODEV\n",
			err, udrv_strerror());
		return 6;
	}
	return 0;
}

/*
 * udrv_device_open(3): a vfio device without an IOMMU group is ENODEV.
 * vfio-pci binds only a device in a group (a no-IOMMU one included), so
 * the child hides the group link of an edu bound to vfio-pci from itself
 * (open_in_folder_without_group()); the same open outside its namespace
 * then succeeds: the missing link is the only difference.
 */
static void open_without_iommu_group(void)
{
	char real[PATH_MAX];
	int status;
	pid_t pid;

	vfio_bind(EDU);
	EXPECT(realpath("/sys/bus/pci/devices/" EDU, real) != NULL);
	pid = MUST(fork());
	if (!pid)
		_exit(open_in_folder_without_group(real));
	EXPECT_EQ(waitpid(pid, &status, 0), pid);
	EXPECT(WIFEXITED(status));
	EXPECT_EQ(WEXITSTATUS(status), 0);
	udrv_device_close(udrv_test_open(EDU));
}

/* the driver's "wakeups: vector 0 N, vector 1 M" line: vector @k's count */
static unsigned long wakeups(unsigned int k)
{
	const char *line = strstr(nvme_out_line("commands: "), "wakeups:");
	char key[32];
	const char *at;

	snprintf(key, sizeof(key), " vector %u ", k);
	at = line ? strstr(line, key) : NULL;
	if (!at)
		FAIL("no wakeups of vector %u in \"%s\"", k,
		     nvme_out_line("commands: "));
	return strtoul(at + strlen(key), NULL, 10);
}

/*
 * examples/nvme.c, unchanged, on vfio-pci: Identify, 1,000 4 KiB reads
 * checked against the test image (one in flight: each completion is one
 * MSI-X interrupt on vector 1), a block written, read back and restored,
 * then four verify passes at depth 32 on two queues (1,024 writes and
 * 1,024 reads, each compared; the last, seed 0, writes the image back).
 */
static void nvme_example_verified_io(void)
{
	unsigned long admin, io;
	char args[96];
	int seed;

	vfio_bind(NVME_PCI);
	nvme_driver_ok("--reads 1000 --check --write 7");
	EXPECT(!strncmp(nvme_out_line("controller: "), NVME_PCI " (vfio), NVMe ",
			strlen(NVME_PCI " (vfio), NVMe ")));
	EXPECT_STREQ(nvme_out_line("model: "), "QEMU NVMe Ctrl");
	EXPECT_STREQ(nvme_out_line("serial: "), "iio-nvme-0001");
	EXPECT(!strncmp(nvme_out_line("interrupts: "), "msix, 8 vectors; ",
			strlen("msix, 8 vectors; ")));
	EXPECT_STREQ(nvme_out_line("write: "), "block 7 written, read back, restored");
	EXPECT_STREQ(nvme_out_line("reads: "), "1000 x 4096 bytes, 0 mismatches");
	nvme_parse_commands(&admin, &io);
	EXPECT_EQ(wakeups(1), io);
	check_note("%s", nvme_out_line("rate: "));
	for (seed = 3; seed >= 0; seed--) {
		snprintf(args, sizeof(args), "--workload verify --depth 32 "
			 "--queues 2 --seed %d", seed);
		nvme_driver_ok(args);
		EXPECT_STREQ(nvme_out_line("verify: "),
			     "256 x 4096 bytes written and read back, 0 mismatches");
		EXPECT(wakeups(1) > 0 && wakeups(2) > 0);
	}
	nvme_driver_ok("--reads 256 --check");
	EXPECT_STREQ(nvme_out_line("reads: "), "256 x 4096 bytes, 0 mismatches");
}

/* polled completions on vfio: no interrupt on the I/O queues' vectors */
static void nvme_example_polled(void)
{
	vfio_bind(NVME_PCI);
	nvme_driver_ok("--poll --workload randread --depth 32 --queues 3 --time 0.5");
	EXPECT(strstr(nvme_out_line("ios: "), ", failed 0") != NULL);
	EXPECT(!strncmp(nvme_out_line("queue 1: "), "polled, ", 8));
	EXPECT(!strstr(nvme_out_line("commands: "), "vector 1"));
	check_note("%s", nvme_out_line("rate: "));
}

static const struct check_case cases[] = {
	CASE(identity_and_regions),
	CASE(reads_writes_and_map),
	CASE(msi_event),
	CASE(dma_at_iovas),
	CASE(edu_example),
	CASE(group_not_viable),
	CASE(open_without_iommu_group),
	CASE_T(nvme_example_verified_io, 180),
	CASE_T(nvme_example_polled, 60),
};

CHECK_MAIN(cases)
