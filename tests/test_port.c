// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_port.c - a port region (iio_pcitest on QEMU's pci-testdev): port
 * I/O through the framework, no windows, no event source
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/iio_test.h"

/* QEMU's pci-testdev header (docs/specs/pci-testdev.rst) */
#define HDR_TEST	0
#define HDR_WIDTH	1
#define HDR_OFFSET	4
#define HDR_DATA	8
#define HDR_COUNT	12
#define HDR_NAME	16
#define PORTIO_TESTS	3	/* portio tests are numbers 3..5 */

static int nr, fd;

static void setup(void)
{
	nr = iio_must_find("pci-testdev", 0);
	fd = MUST(open(iio_node(nr, ""), O_RDWR));
}

static void select_test(uint8_t test)
{
	EXPECT_EQ(pwrite(fd, &test, 1, HDR_TEST), 1);
}

static void port_attributes(void)
{
	char sys[256], line[256];
	unsigned long long start;
	FILE *f;

	setup();
	EXPECT_STREQ(read_text(iio_attr_path(nr, "type")), "port");
	EXPECT_STREQ(read_text(iio_attr_path(nr, "irq")), "none");
	EXPECT_STREQ(read_text(iio_attr_path(nr, "size")), "0x100");
	EXPECT(!path_exists(iio_attr_path(nr, "read_offset")));
	EXPECT(!path_exists(iio_attr_path(nr, "read_len")));
	EXPECT(!path_exists(iio_attr_path(nr, "write_offset")));
	EXPECT(!path_exists(iio_attr_path(nr, "write_len")));
	EXPECT(!path_exists(iio_node(nr, "_in")));
	EXPECT(!path_exists(iio_node(nr, "_out")));
	EXPECT(path_exists(iio_node(nr, "_event")));
	/* physaddr is the start of the PCI device's I/O BAR (resource line 2) */
	snprintf(sys, sizeof(sys), "%s/device/resource",
		 iio_attr_path(nr, "."));
	f = fopen(sys, "r");
	EXPECT(f);
	EXPECT(fgets(line, sizeof(line), f) && fgets(line, sizeof(line), f));
	fclose(f);
	start = strtoull(line, NULL, 16);
	EXPECT_EQ(read_num(iio_attr_path(nr, "physaddr")), start);
}

static void byte_word_long_reads(void)
{
	char name[32] = "";
	uint64_t q;
	uint32_t l;
	uint16_t w;
	uint8_t b;

	setup();
	select_test(0);
	EXPECT_EQ(pread(fd, &b, 1, HDR_TEST), 1);
	EXPECT_EQ(b, PORTIO_TESTS + 0);
	EXPECT_EQ(pread(fd, &b, 1, HDR_WIDTH), 1);
	EXPECT_EQ(b, 1);
	EXPECT_EQ(pread(fd, &l, 4, HDR_OFFSET), 4);	/* inl */
	EXPECT_EQ(l, 128 + PORTIO_TESTS + 0);
	EXPECT_EQ(pread(fd, &w, 2, HDR_OFFSET), 2);	/* inw */
	EXPECT_EQ(w, 128 + PORTIO_TESTS + 0);
	EXPECT_EQ(pread(fd, &b, 1, HDR_DATA), 1);
	EXPECT_EQ(b, 0xfa);
	EXPECT_EQ(pread(fd, &q, 8, HDR_NAME), 8);	/* two inl */
	EXPECT(!memcmp(&q, "portio-n", 8));
	EXPECT_EQ(pread(fd, name, 18, HDR_NAME), 18);
	EXPECT_STREQ(name, "portio-no-eventfd");

	select_test(1);
	memset(name, 0, sizeof(name));
	EXPECT_EQ(pread(fd, name, 24, HDR_NAME), 24);
	EXPECT_STREQ(name, "portio-wildcard-eventfd");
	EXPECT_EQ(pread(fd, &b, 1, HDR_DATA), 1);
	EXPECT_EQ(b, 0xce);
}

/*
 * Every split of a read (1, 2, 4 and 8-byte accesses, 8 as two inl, at
 * any alignment) gives the bytes a byte-at-a-time read gives: the name
 * of test 0 (24 bytes at HDR_NAME) read at every offset and length.
 */
static void every_split_reads_the_same_bytes(void)
{
	char bytes[24], got[24];
	unsigned int off, len, i;

	setup();
	select_test(0);
	for (i = 0; i < sizeof(bytes); i++)
		EXPECT_EQ(pread(fd, &bytes[i], 1, HDR_NAME + i), 1);
	EXPECT(!memcmp(bytes, "portio-no-eventfd", 18));
	for (off = 0; off < sizeof(bytes); off++) {
		for (len = 1; off + len <= sizeof(bytes); len++) {
			memset(got, 0, sizeof(got));
			EXPECT_EQ(pread(fd, got, len, HDR_NAME + off), len);
			if (memcmp(got, bytes + off, len))
				FAIL("%u bytes at name + %u differ", len, off);
		}
	}
}

/* test 0 (no eventfd) counts the byte writes of its data at its offset */
static void writes_reach_the_ports(void)
{
	uint8_t b = 0x12;
	uint32_t count;

	setup();
	select_test(0);
	EXPECT_EQ(pread(fd, &count, 4, HDR_COUNT), 4);
	EXPECT_EQ(count, 0);
	EXPECT_EQ(pwrite(fd, &b, 1, 128 + PORTIO_TESTS), 1);
	EXPECT_EQ(pread(fd, &count, 4, HDR_COUNT), 4);
	EXPECT_EQ(count, 0);
	b = 0xfa;
	EXPECT_EQ(pwrite(fd, &b, 1, 128 + PORTIO_TESTS), 1);
	EXPECT_EQ(pwrite(fd, &b, 1, 128 + PORTIO_TESTS), 1);
	EXPECT_EQ(pread(fd, &count, 4, HDR_COUNT), 4);
	EXPECT_EQ(count, 2);
	/* selecting a test again resets its count */
	select_test(0);
	EXPECT_EQ(pread(fd, &count, 4, HDR_COUNT), 4);
	EXPECT_EQ(count, 0);
}

static void bounds_and_seek(void)
{
	uint8_t buf[16] = { 0 };

	setup();
	EXPECT_EQ(lseek(fd, 0, SEEK_END), 0x100);
	EXPECT_EQ(pread(fd, buf, sizeof(buf), 0x100), 0);
	EXPECT_EQ(pread(fd, buf, sizeof(buf), 0xf8), 8);
	EXPECT_ERRNO(pwrite(fd, buf, 1, 0x100), ENOSPC);
	EXPECT_ERRNO(lseek(fd, 0x101, SEEK_SET), EINVAL);
}

static void mmap_of_ports_fails(void)
{
	setup();
	EXPECT_ERRNO(mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0), ENODEV);
}

static void event_device_without_source(void)
{
	struct pollfd pfd;
	uint32_t c = 1;
	int efd;

	setup();
	efd = MUST(open(iio_node(nr, "_event"), O_RDWR));
	EXPECT_ERRNO(read(efd, &c, 4), EIO);
	EXPECT_ERRNO(write(efd, &c, 4), EIO);
	pfd = (struct pollfd){ .fd = efd, .events = POLLIN };
	EXPECT_EQ(poll(&pfd, 1, 1000), 1);
	EXPECT_EQ(pfd.revents, POLLERR);
	EXPECT_STREQ(read_text(iio_attr_path(nr, "listener")), "1");
	close(efd);
}

/*
 * iio_pcitest(4): "If BAR1 is not an I/O BAR the probe fails (ENODEV,
 * "BAR1 is not an I/O BAR" in the kernel log)": the second edu (BAR0
 * memory, no BAR1) bound to iio_pcitest by driver_override; then back to
 * iio_edu, as it was.
 */
static void probe_refuses_bar1_not_io(void)
{
	const char *edu = "0000:00:11.0";
	const char *override = "/sys/bus/pci/devices/0000:00:11.0/driver_override";
	unsigned int before = kmsg_count("BAR1 is not an I/O BAR");
	int unbound, overridden, err, cleared, rebound;

	unbound = pci_driver_unbind("iio_edu", edu);
	overridden = write_text(override, "iio_pcitest");
	err = pci_driver_bind("iio_pcitest", edu);
	/* edu back to iio_edu before the checks: the next programs need it */
	if (!err)
		pci_driver_unbind("iio_pcitest", edu);
	cleared = write_text(override, "\n");
	rebound = pci_driver_bind("iio_edu", edu);
	EXPECT_EQ(unbound, 0);
	EXPECT_EQ(overridden, 0);
	EXPECT_EQ(err, ENODEV);
	EXPECT_EQ(kmsg_count("BAR1 is not an I/O BAR"), before + 1);
	EXPECT_EQ(cleared, 0);
	EXPECT_EQ(rebound, 0);
	EXPECT(iio_find_by_name("edu", 1) >= 0);
}

static const struct check_case cases[] = {
	CASE(port_attributes),
	CASE(byte_word_long_reads),
	CASE(every_split_reads_the_same_bytes),
	CASE(writes_reach_the_ports),
	CASE(bounds_and_seek),
	CASE(mmap_of_ports_fails),
	CASE(event_device_without_source),
	CASE(probe_refuses_bar1_not_io),
};
CHECK_MAIN(cases)
