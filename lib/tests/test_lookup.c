// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * test_lookup.c - the device lookup libudrv's iio backend and iioctl share
 * (lib/lookup.h, internal to the library): PCI addresses, the BAR that
 * holds a region, attribute lines, link names, iio labels and node names,
 * devices by name; each form
 * taken and each near miss refused, against resource files and class
 * folders made here (run by lib/tests/run; see unit.h)
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lookup.h"
#include "unit.h"

#define EXPECT_STR(a, b) do { const char *a_ = (a), *b_ = (b); \
	if (strcmp(a_, b_)) FAIL("%s is \"%s\", expected \"%s\"", #a, a_, \
				 b_); } while (0)

/* @s parses: to @want, with BAR @want_bar (-1 none) */
static void pci_ok(const char *s, const char *want, int want_bar)
{
	char addr[UDRV_PCI_ADDR_LEN];
	int bar = 99;

	if (udrv_pci_address_parse(s, addr, &bar))
		FAIL("\"%s\" refused", s);
	EXPECT_STR(addr, want);
	if (bar != want_bar)
		FAIL("\"%s\": BAR %d, expected %d", s, bar, want_bar);
}

static void pci_refused(const char *s)
{
	char addr[UDRV_PCI_ADDR_LEN];
	int bar;

	if (udrv_pci_address_parse(s, addr, &bar) != -EINVAL)
		FAIL("\"%s\" taken as a PCI address", s);
}

static void pci_address_forms(void)
{
	pci_ok("0000:00:04.0", "0000:00:04.0", -1);
	pci_ok("00:04.0", "0000:00:04.0", -1);
	pci_ok("ABCD:Ef:1F.7", "abcd:ef:1f.7", -1);
	pci_ok("0000:00:10.0/bar2", "0000:00:10.0", 2);
	pci_ok("00:10.0/BAR0", "0000:00:10.0", 0);
	pci_ok("00:10.0/bAr5", "0000:00:10.0", 5);
}

static void pci_address_refused(void)
{
	static const char *const bad[] = {
		"", "00:04", "0:00:04.0", "000:00:04.0", "00000:00:04.0",
		"0000:00:04.8", "0000:00:04.", "0000:0:04.0", "0000:00:4.0",
		"0000-00:04.0", "0000:00-04.0", "0000:00:04,0", "g000:00:04.0",
		"+000:00:04.0", " 00:04.0", "00:04.0 ", "0000:00:04.0x",
		"0000:00:04.0/bar6", "0000:00:04.0/bar", "0000:00:04.0/bar10",
		"0000:00:04.0/bar-1", "0000:00:04.0/", "0000:00:04.0/bus0",
		"iio0", "/dev/iio0",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		pci_refused(bad[i]);
}

/* without a place for N, /barN is not taken (libudrv's own specs) */
static void pci_address_bar_not_asked(void)
{
	char addr[UDRV_PCI_ADDR_LEN];

	EXPECT_EQ(udrv_pci_address_parse("00:04.0", addr, NULL), 0);
	EXPECT_STR(addr, "0000:00:04.0");
	EXPECT_EQ(udrv_pci_address_parse("00:04.0/bar0", addr, NULL), -EINVAL);
}

/* a scratch folder, removed by the case's process at exit */
static char scratch[64];

static void rm_scratch(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
	if (system(cmd))
		return;
}

static const char *make_scratch(void)
{
	snprintf(scratch, sizeof(scratch), "/tmp/udrv-lookup-XXXXXX");
	if (!mkdtemp(scratch))
		FAIL("mkdtemp: %s", strerror(errno));
	atexit(rm_scratch);
	return scratch;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f))
		FAIL("writing %s: %s", path, strerror(errno));
}

/* BAR 0 empty, 1 memory, 2 ports, 3 to 5 empty, then the ROM */
static const char resource[] =
	"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
	"0x00000000fea00000 0x00000000feafffff 0x0000000000040200\n"
	"0x000000000000c000 0x000000000000c0ff 0x0000000000040101\n"
	"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
	"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
	"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
	"0x00000000feb00000 0x00000000feb3ffff 0x0000000000046200\n";

static void expect_bar(const char *path, uint64_t physaddr, int want,
		       uint64_t want_start)
{
	uint64_t start = 0x1234;
	int bar = 99;

	EXPECT_EQ(udrv_pci_bar_holding(path, physaddr, &bar, &start), 0);
	if (bar != want)
		FAIL("0x%llx: BAR %d, expected %d", (unsigned long long)physaddr,
		     bar, want);
	if (want >= 0 && start != want_start)
		FAIL("0x%llx: start 0x%llx, expected 0x%llx",
		     (unsigned long long)physaddr, (unsigned long long)start,
		     (unsigned long long)want_start);
}

static void bar_holding(void)
{
	char path[128];
	int bar = 99;

	snprintf(path, sizeof(path), "%s/resource", make_scratch());
	write_file(path, resource);
	expect_bar(path, 0xfea00000, 1, 0xfea00000);
	expect_bar(path, 0xfea10000, 1, 0xfea00000);	/* inside */
	expect_bar(path, 0xfeafffff, 1, 0xfea00000);	/* the last byte */
	expect_bar(path, 0xfe9fffff, -1, 0);
	expect_bar(path, 0xc000, 2, 0xc000);
	expect_bar(path, 0xc0ff, 2, 0xc000);
	expect_bar(path, 0xc100, -1, 0);
	expect_bar(path, 0, -1, 0);		/* empty BARs hold nothing */
	expect_bar(path, 0xfeb00000, -1, 0);	/* the ROM is no BAR */
	EXPECT_EQ(udrv_pci_bar_holding(path, 0xfea00000, &bar, NULL), 0);
	EXPECT_EQ(bar, 1);
}

/* a short file (no BARs past its end) and one that cannot be opened */
static void bar_holding_short_or_missing(void)
{
	char path[128];
	int bar = 99;

	snprintf(path, sizeof(path), "%s/resource", make_scratch());
	write_file(path, "0x0 0x0 0x0\n0xc000 0xc0ff 0x40101\n");
	expect_bar(path, 0xc010, 1, 0xc000);
	expect_bar(path, 0xfea00000, -1, 0);
	write_file(path, "");
	expect_bar(path, 0xc010, -1, 0);
	snprintf(path, sizeof(path), "%s/none", scratch);
	EXPECT_EQ(udrv_pci_bar_holding(path, 0xc010, &bar, NULL), -ENOENT);
}

static void expect_line(const char *path, size_t size, const char *want)
{
	char buf[16];

	memset(buf, 'x', sizeof(buf));
	EXPECT_EQ(udrv_read_line(path, buf, size), 0);
	EXPECT_STR(buf, want);
}

/* the first line, without its newline; "" and -errno on failure */
static void read_line(void)
{
	char path[128], buf[16];

	snprintf(path, sizeof(path), "%s/attr", make_scratch());
	write_file(path, "0xfea00000\nsecond\n");
	expect_line(path, sizeof(buf), "0xfea00000");
	write_file(path, "edu");
	expect_line(path, sizeof(buf), "edu");
	write_file(path, "\n");
	expect_line(path, sizeof(buf), "");
	write_file(path, "");
	expect_line(path, sizeof(buf), "");
	write_file(path, "0123456789abcdef\n");
	expect_line(path, 8, "0123456");	/* cut to the buffer */
	memset(buf, 'x', sizeof(buf));
	EXPECT_EQ(udrv_read_line(scratch, buf, sizeof(buf)), -EISDIR);
	EXPECT_STR(buf, "");
	snprintf(path, sizeof(path), "%s/none", scratch);
	memset(buf, 'x', sizeof(buf));
	EXPECT_EQ(udrv_read_line(path, buf, sizeof(buf)), -ENOENT);
	EXPECT_STR(buf, "");
}

static void iio_labels(void)
{
	static const char *const bad[] = {
		"iio", "iio01", "iio00", "iio-1", "iio+1", "iio1x", "IIO1",
		"iio 1", "iio0x1", "iio2147483648", "iio99999999999999999999",
		"io1", "", "iio1_in", "/dev/iio1",
	};
	size_t i;

	EXPECT_EQ(udrv_iio_label_parse("iio0"), 0);
	EXPECT_EQ(udrv_iio_label_parse("iio7"), 7);
	EXPECT_EQ(udrv_iio_label_parse("iio10"), 10);
	EXPECT_EQ(udrv_iio_label_parse("iio2147483647"), INT_MAX);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (udrv_iio_label_parse(bad[i]) != -1)
			FAIL("\"%s\" taken as a label", bad[i]);
}

static void expect_node(const char *name, long nr, enum udrv_iio_node want,
			unsigned int want_vector)
{
	enum udrv_iio_node node = (enum udrv_iio_node)99;
	unsigned int vector = 99;
	long got = udrv_iio_node_parse(name, &node, &vector);

	if (got != nr || node != want || vector != want_vector)
		FAIL("\"%s\": %ld, node %d, vector %u; expected %ld, %d, %u",
		     name, got, (int)node, vector, nr, (int)want, want_vector);
}

static void iio_node_names(void)
{
	expect_node("iio3", 3, UDRV_IIO_NODE_REGION, 0);
	expect_node("iio3_in", 3, UDRV_IIO_NODE_IN, 0);
	expect_node("iio12_out", 12, UDRV_IIO_NODE_OUT, 0);
	expect_node("iio0_event", 0, UDRV_IIO_NODE_EVENT, 0);
	expect_node("iio0_event1", 0, UDRV_IIO_NODE_EVENT, 1);
	expect_node("iio5_event7", 5, UDRV_IIO_NODE_EVENT, 7);
}

static void iio_node_names_refused(void)
{
	static const char *const bad[] = {
		"iio3_", "iio3_foo", "iio3_In", "iio3_in1", "iio3_out0",
		"iio3_event0", "iio3_event8", "iio3_event01", "iio3_eventx",
		"iio3_event1_in", "iio3_out_in", "iio03_in", "iio_in",
		"iio3in", "iio3_ev", "_in", "", "iio3/", "dev/iio3",
		"iio3_event10",
	};
	enum udrv_iio_node node;
	unsigned int vector;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (udrv_iio_node_parse(bad[i], &node, &vector) != -1)
			FAIL("\"%s\" taken as a node", bad[i]);
}

/* a class folder: iioN/name files, and what is not a device */
static void make_device(const char *class_dir, const char *entry,
			const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", class_dir, entry);
	if (mkdir(path, 0755))
		FAIL("mkdir %s: %s", path, strerror(errno));
	if (!name)
		return;
	snprintf(path, sizeof(path), "%s/%s/name", class_dir, entry);
	write_file(path, name);
}

static int compare_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static void find_named(void)
{
	const char *dir = make_scratch();
	long nrs[4] = { -7, -7, -7, -7 };
	char path[128];

	make_device(dir, "iio0", "edu\n");
	make_device(dir, "iio1", "IIO dummy\n");
	make_device(dir, "iio12", "edu");		/* no newline */
	make_device(dir, "iio01", "edu\n");		/* no device's label */
	make_device(dir, "edu", "edu\n");
	make_device(dir, "iio3", NULL);			/* no name: gone */
	make_device(dir, "iio4", "edu2\n");
	make_device(dir, "iio5", "Edu\n");
	snprintf(path, sizeof(path), "%s/version", dir);
	write_file(path, "1.0\n");

	EXPECT_EQ(udrv_iio_find_named(dir, "edu", nrs, 4), 2);
	qsort(nrs, 2, sizeof(nrs[0]), compare_long);
	EXPECT_EQ(nrs[0], 0);
	EXPECT_EQ(nrs[1], 12);
	EXPECT_EQ(nrs[2], -7);
	EXPECT_EQ(udrv_iio_find_named(dir, "IIO dummy", nrs, 4), 1);
	EXPECT_EQ(nrs[0], 1);
	EXPECT_EQ(udrv_iio_find_named(dir, "ed", nrs, 4), 0);
	EXPECT_EQ(udrv_iio_find_named(dir, "", nrs, 4), 0);
	EXPECT_EQ(udrv_iio_find_named(dir, "1.0", nrs, 4), 0);
}

/* more devices of the name than @max: all counted, @max stored */
static void find_named_past_max(void)
{
	const char *dir = make_scratch();
	long nrs[2] = { -7, -7 };
	char path[128];

	make_device(dir, "iio0", "edu\n");
	make_device(dir, "iio1", "edu\n");
	make_device(dir, "iio2", "edu\n");
	EXPECT_EQ(udrv_iio_find_named(dir, "edu", nrs, 1), 3);
	EXPECT_EQ(nrs[0] >= 0 && nrs[0] <= 2, 1);
	EXPECT_EQ(nrs[1], -7);
	EXPECT_EQ(udrv_iio_find_named(dir, "edu", nrs, 0), 3);
	snprintf(path, sizeof(path), "%s/none", dir);
	EXPECT_EQ(udrv_iio_find_named(path, "edu", nrs, 1), -ENOENT);
}

/* a sysfs link's last component: a parent, a driver, a group */
static void link_name(void)
{
	const char *dir = make_scratch();
	char path[PATH_MAX], file[PATH_MAX], name[16] = "x";

	snprintf(path, sizeof(path), "%s/device", dir);
	if (symlink("../../../devices/pci0000:00/0000:00:04.0", path))
		FAIL("symlink: %s", strerror(errno));
	EXPECT_EQ(udrv_link_name(path, name, sizeof(name)), 0);
	EXPECT_STR(name, "0000:00:04.0");
	/* a target without a folder is its own name */
	snprintf(path, sizeof(path), "%s/group", dir);
	if (symlink("7", path))
		FAIL("symlink: %s", strerror(errno));
	EXPECT_EQ(udrv_link_name(path, name, sizeof(name)), 0);
	EXPECT_STR(name, "7");
	/* too long for the buffer: refused, not cut */
	snprintf(path, sizeof(path), "%s/device", dir);
	EXPECT_EQ(udrv_link_name(path, name, 12), -ENAMETOOLONG);
	EXPECT_STR(name, "");
	/* a file, and nothing */
	snprintf(file, sizeof(file), "%s/file", dir);
	write_file(file, "0000:00:04.0\n");
	strcpy(name, "x");
	EXPECT_EQ(udrv_link_name(file, name, sizeof(name)), -EINVAL);
	EXPECT_STR(name, "");
	snprintf(path, sizeof(path), "%s/none", dir);
	EXPECT_EQ(udrv_link_name(path, name, sizeof(name)), -ENOENT);
}

static const struct unit_case cases[] = {
	UNIT_CASE(pci_address_forms),
	UNIT_CASE(pci_address_refused),
	UNIT_CASE(pci_address_bar_not_asked),
	UNIT_CASE(bar_holding),
	UNIT_CASE(bar_holding_short_or_missing),
	UNIT_CASE(read_line),
	UNIT_CASE(iio_labels),
	UNIT_CASE(iio_node_names),
	UNIT_CASE(iio_node_names_refused),
	UNIT_CASE(find_named),
	UNIT_CASE(find_named_past_max),
	UNIT_CASE(link_name),
};

int main(int argc, char **argv)
{
	return unit_main("lookup", cases, sizeof(cases) / sizeof(cases[0]),
			 argc, argv);
}
