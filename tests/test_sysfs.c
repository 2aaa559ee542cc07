// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sysfs.c - /sys/class/iio, the device nodes and device numbering
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/iio_test.h"

static void class_version(void)
{
	EXPECT_STREQ(read_text("/sys/class/iio/version"), "1.1");
}

/*
 * The dummy's attributes: each value, each file mode 0444 and one line
 * ending in a newline, hex in lower case without leading zeros; event
 * is the decimal count (3 injected events on a stopped timer), vectors 1,
 * no DMA attributes (the dummy does no DMA).
 */
static void dummy_attributes(void)
{
	static const char *const attrs[] = {
		"name", "version", "physaddr", "size", "read_offset",
		"read_len", "write_offset", "write_len", "type", "irq",
		"event", "listener", "vectors",
	};
	char raw[64];
	struct stat st;
	ssize_t n;
	int nr, fd, edu;

	dummy_reload("freq=0");
	nr = dummy_nr(0);
	EXPECT_STREQ(read_text(iio_attr_path(nr, "name")), "IIO dummy");
	EXPECT_STREQ(read_text(iio_attr_path(nr, "version")), "1.0");
	EXPECT_STREQ(read_text(iio_attr_path(nr, "physaddr")), "0x0");
	EXPECT_STREQ(read_text(iio_attr_path(nr, "size")), "0x2000");
	EXPECT_STREQ(read_text(iio_attr_path(nr, "read_offset")), "0x0");
	EXPECT_STREQ(read_text(iio_attr_path(nr, "read_len")), "0x1000");
	EXPECT_STREQ(read_text(iio_attr_path(nr, "write_offset")), "0x1000");
	EXPECT_STREQ(read_text(iio_attr_path(nr, "write_len")), "0x1000");
	EXPECT_STREQ(read_text(iio_attr_path(nr, "listener")), "0");
	EXPECT_STREQ(read_text(iio_attr_path(nr, "type")), "mem");
	EXPECT_STREQ(read_text(iio_attr_path(nr, "irq")), "cyclic");
	EXPECT_STREQ(read_text(iio_attr_path(nr, "event")), "0");
	event_inject(nr, 3);
	EXPECT_STREQ(read_text(iio_attr_path(nr, "event")), "3");
	EXPECT_STREQ(read_text(iio_attr_path(nr, "vectors")), "1");
	EXPECT(!path_exists(iio_attr_path(nr, "dma_request")));
	EXPECT(!path_exists(iio_attr_path(nr, "dma_iommu")));
	/* hex with letters: edu's BAR (0xfe...) */
	edu = iio_must_find("edu", 0);
	EXPECT_EQ(strspn(read_text(iio_attr_path(edu, "physaddr")),
			 "0x123456789abcdef"), 10);
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		const char *path = iio_attr_path(nr, attrs[i]);

		if (stat(path, &st))
			FAIL("stat %s: %s", path, strerror(errno));
		if ((st.st_mode & 07777) != 0444)
			FAIL("%s: mode %o, not 0444", path, st.st_mode & 07777);
		fd = MUST(open(path, O_RDONLY));
		n = read(fd, raw, sizeof(raw) - 1);
		close(fd);
		if (n < 2 || raw[n - 1] != '\n' || memchr(raw, '\n', n - 1))
			FAIL("%s: not one line ending in a newline", path);
		raw[n] = 0;
		if (!strncmp(raw, "0x", 2) &&
		    (strspn(raw + 2, "0123456789abcdef") != (size_t)n - 3 ||
		     (raw[2] == '0' && n > 4)))
			FAIL("%s: %s not lower-case hex without leading zeros",
			     path, raw);
	}
}

static void oneshot_irq_attribute(void)
{
	dummy_reload("mode=oneshot");
	EXPECT_STREQ(read_text(iio_attr_path(dummy_nr(0), "irq")), "oneshot");
	dummy_reload("");
}

static void size_parameter(void)
{
	int nr;

	dummy_reload("size=0x4000000");
	nr = dummy_nr(0);
	EXPECT_STREQ(read_text(iio_attr_path(nr, "size")), "0x4000000");
	EXPECT_STREQ(read_text(iio_attr_path(nr, "write_offset")), "0x3fff000");
	dummy_reload("");
}

static void bad_parameters_refused(void)
{
	EXPECT(shell("rmmod iio_user_dummy") == 0);
	EXPECT(shell("insmod " MODDIR "/iio_user_dummy.ko size=12345 2>/dev/null"));
	EXPECT(shell("insmod " MODDIR "/iio_user_dummy.ko size=4096 2>/dev/null"));
	EXPECT(shell("insmod " MODDIR "/iio_user_dummy.ko devices=17 2>/dev/null"));
	EXPECT(shell("insmod " MODDIR "/iio_user_dummy.ko mode=x 2>/dev/null"));
	EXPECT(shell("insmod " MODDIR "/iio_user_dummy.ko size=16Q 2>/dev/null"));
	EXPECT(shell("insmod " MODDIR "/iio_user_dummy.ko size=K 2>/dev/null"));
	EXPECT_EQ(iio_find_by_parent("iio_user_dummy.0"), -1);
	dummy_reload("");
}

/* size takes iioctl's suffixes: K, M, G (qemu/run --append iio_user_dummy.size=16M) */
static void size_with_suffix(void)
{
	dummy_reload("size=16K");
	EXPECT_EQ(read_num(iio_attr_path(dummy_nr(0), "size")), 0x4000);
	EXPECT_EQ(read_num("/sys/module/iio_user_dummy/parameters/size"), 16384);
	dummy_reload("size=1M");
	EXPECT_EQ(read_num(iio_attr_path(dummy_nr(0), "size")), 0x100000);
	dummy_reload("");
}

static void check_node(int nr, const char *suffix, int kind)
{
	const char *path = iio_node(nr, suffix);
	struct stat st;
	char sys[128];
	unsigned int maj, min;

	if (stat(path, &st))
		FAIL("stat %s: %s", path, strerror(errno));
	EXPECT(S_ISCHR(st.st_mode));
	EXPECT_EQ(minor(st.st_rdev), nr * IIO_MINORS_PER_DEVICE + kind);
	/* the same major as the class device */
	snprintf(sys, sizeof(sys), "%s", read_text(iio_attr_path(nr, "dev")));
	EXPECT_EQ(sscanf(sys, "%u:%u", &maj, &min), 2);
	EXPECT_EQ(major(st.st_rdev), maj);
}

static void device_nodes(void)
{
	int nr;

	dummy_reload("");
	nr = dummy_nr(0);
	check_node(nr, "", IIO_MINOR_REGION);
	check_node(nr, "_in", IIO_MINOR_IN);
	check_node(nr, "_out", IIO_MINOR_OUT);
	check_node(nr, "_event", IIO_MINOR_EVENT);
}

/*
 * The devices bound to the shipped stubs, counted on their buses: the
 * entries of each driver's folder that have a "driver" link inside (the
 * devices; not bind, unbind, uevent, module or new_id).
 */
static int stub_devices(void)
{
	static const char *const drivers[] = {
		"platform/drivers/iio_user_dummy", "pci/drivers/iio_edu",
		"pci/drivers/iio_pcitest", "pci/drivers/iio_pci_generic",
	};
	char path[512];
	struct dirent *de;
	int n = 0;
	size_t i;
	DIR *dir;

	for (i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++) {
		snprintf(path, sizeof(path), "/sys/bus/%s", drivers[i]);
		dir = opendir(path);
		if (!dir)
			continue;	/* that stub is not loaded */
		while ((de = readdir(dir))) {
			snprintf(path, sizeof(path), "/sys/bus/%s/%s/driver",
				 drivers[i], de->d_name);
			if (de->d_name[0] != '.' && path_exists(path))
				n++;
		}
		closedir(dir);
	}
	return n;
}

/*
 * /sys/class/iio holds one entry per device, iioN, and version: exactly
 * the numbers whose event nodes (always present, class iio_node) exist,
 * the three dummies among them, and nothing else.
 */
static void one_class_entry_per_device(void)
{
	bool in_class[256] = { false }, in_nodes[256] = { false };
	struct dirent *de;
	int devices = 0, nodes = 0, n;
	char *end;
	DIR *dir;

	dummy_reload("devices=3");
	dir = opendir("/sys/class/iio");
	EXPECT(dir);
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "version"))
			continue;
		if (strncmp(de->d_name, "iio", 3))
			FAIL("unexpected entry %s", de->d_name);
		n = strtol(de->d_name + 3, &end, 10);
		if (*end || n < 0 || n > 255 || end == de->d_name + 3)
			FAIL("unexpected entry %s", de->d_name);
		in_class[n] = true;
		devices++;
	}
	closedir(dir);
	dir = opendir("/sys/class/iio_node");
	EXPECT(dir);
	while ((de = readdir(dir))) {
		int len = 0;

		/* len stays 0 unless the whole "_event" matched */
		if (sscanf(de->d_name, "iio%d_event%n", &n, &len) == 1 &&
		    len && !de->d_name[len] && n >= 0 && n < 256) {
			in_nodes[n] = true;
			nodes++;
		}
	}
	closedir(dir);
	EXPECT_EQ(devices, nodes);
	for (n = 0; n < 256; n++)
		if (in_class[n] != in_nodes[n])
			FAIL("iio%d: %s in /sys/class/iio, %s event node", n,
			     in_class[n] ? "" : "not", in_nodes[n] ? "an" : "no");
	for (int i = 0; i < 3; i++)
		EXPECT(in_class[dummy_nr(i)]);
	/* the dummies, two edus, pci-testdev: each an iio device, no more */
	EXPECT(devices >= 3 + 3);
	EXPECT_EQ(devices, stub_devices());
	EXPECT(!path_exists("/sys/class/iio/iio0_in"));
	dummy_reload("");
}

/* a node made by hand at /dev/iio-test-node of minor @min of @nr's major */
static const char *hand_made(int nr, unsigned int min)
{
	static const char path[] = "/dev/iio-test-node";
	unsigned int maj, m;

	EXPECT_EQ(sscanf(read_text(iio_attr_path(nr, "dev")), "%u:%u", &maj, &m),
		  2);
	unlink(path);
	if (mknod(path, S_IFCHR | 0600, makedev(maj, min)))
		FAIL("mknod %s %u:%u: %s", path, maj, min, strerror(errno));
	return path;
}

/*
 * Nodes made by hand (iio(4), ERRORS): a window the device does not have
 * is ENODEV, a minor no device has (an unused one of a device, a vector
 * it lacks, a number nobody holds) ENXIO; a hand-made node of what
 * exists opens the same device as devtmpfs's.
 */
static void hand_made_nodes(void)
{
	unsigned char a[8], b[8];
	int edu = iio_must_find("edu", 0);
	int port = iio_must_find("pci-testdev", 0);
	int free_nr = 255;
	int fd, dev;

	EXPECT(!path_exists(iio_node(edu, "_out")));
	EXPECT_ERRNO(open(hand_made(edu, edu * 16 + IIO_MINOR_OUT), O_RDONLY),
		     ENODEV);
	EXPECT(!path_exists(iio_node(port, "_in")));
	EXPECT_ERRNO(open(hand_made(port, port * 16 + IIO_MINOR_IN), O_RDONLY),
		     ENODEV);
	EXPECT_EQ(read_num(iio_attr_path(edu, "vectors")), 1);
	EXPECT_ERRNO(open(hand_made(edu, edu * 16 + IIO_MINOR_EVENT + 1),
			  O_RDONLY), ENXIO);
	EXPECT_ERRNO(open(hand_made(edu, edu * 16 + 11), O_RDONLY), ENXIO);
	EXPECT_ERRNO(open(hand_made(edu, edu * 16 + 15), O_RDONLY), ENXIO);
	EXPECT(!path_exists(iio_attr_path(free_nr, "name")));
	EXPECT_ERRNO(open(hand_made(edu, free_nr * 16), O_RDONLY), ENXIO);

	fd = MUST(open(hand_made(edu, edu * 16 + IIO_MINOR_REGION), O_RDONLY));
	dev = MUST(open(iio_node(edu, ""), O_RDONLY));
	EXPECT_EQ(pread(fd, a, sizeof(a), 0), sizeof(a));
	EXPECT_EQ(pread(dev, b, sizeof(b), 0), sizeof(b));
	EXPECT(!memcmp(a, b, sizeof(a)));	/* edu's identification */
	close(fd);
	close(dev);
	unlink("/dev/iio-test-node");
}

static void numbers_from_zero_and_reused(void)
{
	int a, b, c;

	EXPECT(shell("rmmod iio_user_dummy") == 0);
	/* every other stub too, so the dummy's numbers start at 0 */
	shell("for m in /sys/module/iio_*; do rmmod ${m##*/}; done 2>/dev/null");
	dummy_reload("devices=3");
	EXPECT_EQ(dummy_nr(0), 0);
	EXPECT_EQ(dummy_nr(1), 1);
	EXPECT_EQ(dummy_nr(2), 2);

	/* free the middle number: the next device gets it back */
	EXPECT_EQ(write_text("/sys/bus/platform/drivers/iio_user_dummy/unbind",
			     "iio_user_dummy.1"), 0);
	EXPECT(!path_exists("/sys/class/iio/iio1"));
	EXPECT(!path_exists("/dev/iio1"));
	EXPECT_EQ(write_text("/sys/bus/platform/drivers/iio_user_dummy/unbind",
			     "iio_user_dummy.0"), 0);
	EXPECT_EQ(write_text("/sys/bus/platform/drivers/iio_user_dummy/bind",
			     "iio_user_dummy.1"), 0);
	a = dummy_nr(1);
	EXPECT_EQ(a, 0);
	EXPECT_EQ(write_text("/sys/bus/platform/drivers/iio_user_dummy/bind",
			     "iio_user_dummy.0"), 0);
	b = dummy_nr(0);
	EXPECT_EQ(b, 1);
	c = dummy_nr(2);
	EXPECT_EQ(c, 2);
	EXPECT(path_exists("/dev/iio1_event"));
	dummy_reload("");
	shell("for m in " MODDIR "/iio_*.ko; do insmod $m 2>/dev/null; done");
}

static void iio_pinned_by_stub(void)
{
	dummy_reload("");
	EXPECT(shell("rmmod iio 2>/dev/null") != 0);
	EXPECT(path_exists("/sys/class/iio/version"));
	EXPECT(path_exists(iio_node(dummy_nr(0), "")));
}

static const struct check_case cases[] = {
	CASE(class_version),
	CASE(dummy_attributes),
	CASE(oneshot_irq_attribute),
	CASE(size_parameter),
	CASE(bad_parameters_refused),
	CASE(size_with_suffix),
	CASE(device_nodes),
	CASE(one_class_entry_per_device),
	CASE_T(numbers_from_zero_and_reused, 90),
	CASE(iio_pinned_by_stub),
	CASE(hand_made_nodes),
};
CHECK_MAIN(cases)
