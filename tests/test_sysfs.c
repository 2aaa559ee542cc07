// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sysfs.c - /sys/class/iio, the device nodes and device numbering
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/iio_test.h"

static void class_version(void)
{
	EXPECT_STREQ(read_text("/sys/class/iio/version"), "1.0");
}

static void dummy_attributes(void)
{
	int nr;

	dummy_reload("");
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
	read_num(iio_attr_path(nr, "event"));
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
	EXPECT(shell("rmmod iio_dummy") == 0);
	EXPECT(shell("insmod " MODDIR "/iio_dummy.ko size=12345 2>/dev/null"));
	EXPECT(shell("insmod " MODDIR "/iio_dummy.ko size=4096 2>/dev/null"));
	EXPECT(shell("insmod " MODDIR "/iio_dummy.ko devices=17 2>/dev/null"));
	EXPECT(shell("insmod " MODDIR "/iio_dummy.ko mode=x 2>/dev/null"));
	EXPECT(shell("insmod " MODDIR "/iio_dummy.ko size=16Q 2>/dev/null"));
	EXPECT(shell("insmod " MODDIR "/iio_dummy.ko size=K 2>/dev/null"));
	EXPECT_EQ(iio_find_by_parent("iio_dummy.0"), -1);
	dummy_reload("");
}

/* size takes iioctl's suffixes: K, M, G (qemu/run --append iio_dummy.size=16M) */
static void size_with_suffix(void)
{
	dummy_reload("size=16K");
	EXPECT_EQ(read_num(iio_attr_path(dummy_nr(0), "size")), 0x4000);
	EXPECT_EQ(read_num("/sys/module/iio_dummy/parameters/size"), 16384);
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

/* /sys/class/iio holds one entry per device: iioN only */
static void one_class_entry_per_device(void)
{
	struct dirent *de;
	int devices = 0;
	DIR *dir;

	dummy_reload("devices=3");
	dir = opendir("/sys/class/iio");
	EXPECT(dir);
	while ((de = readdir(dir))) {
		char *end;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, "version"))
			continue;
		if (strncmp(de->d_name, "iio", 3))
			FAIL("unexpected entry %s", de->d_name);
		strtol(de->d_name + 3, &end, 10);
		if (*end)
			FAIL("unexpected entry %s", de->d_name);
		devices++;
	}
	closedir(dir);
	EXPECT(devices >= 3);
	EXPECT(!path_exists("/sys/class/iio/iio0_in"));
	dummy_reload("");
}

static void numbers_from_zero_and_reused(void)
{
	int a, b, c;

	EXPECT(shell("rmmod iio_dummy") == 0);
	/* every other stub too, so the dummy's numbers start at 0 */
	shell("for m in /sys/module/iio_*; do rmmod ${m##*/}; done 2>/dev/null");
	dummy_reload("devices=3");
	EXPECT_EQ(dummy_nr(0), 0);
	EXPECT_EQ(dummy_nr(1), 1);
	EXPECT_EQ(dummy_nr(2), 2);

	/* free the middle number: the next device gets it back */
	EXPECT_EQ(write_text("/sys/bus/platform/drivers/iio_dummy/unbind",
			     "iio_dummy.1"), 0);
	EXPECT(!path_exists("/sys/class/iio/iio1"));
	EXPECT(!path_exists("/dev/iio1"));
	EXPECT_EQ(write_text("/sys/bus/platform/drivers/iio_dummy/unbind",
			     "iio_dummy.0"), 0);
	EXPECT_EQ(write_text("/sys/bus/platform/drivers/iio_dummy/bind",
			     "iio_dummy.1"), 0);
	a = dummy_nr(1);
	EXPECT_EQ(a, 0);
	EXPECT_EQ(write_text("/sys/bus/platform/drivers/iio_dummy/bind",
			     "iio_dummy.0"), 0);
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
};
CHECK_MAIN(cases)
