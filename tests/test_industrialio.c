// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_industrialio.c - our modules beside mainline Industrial I/O
 * (industrialio.ko of the guest's kernel package): a character device
 * name of our own in /proc/devices ("iio_user"; mainline's is "iio"), and
 * our modules load, work and unload while it is loaded
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/iio_test.h"

/* qemu/mkinitramfs puts it here when the kernel ships it */
#define INDUSTRIALIO_KO	"/lib/modules/mainline/industrialio.ko"

/* the major of character device @name in /proc/devices, or -1 */
static int chrdev_major(const char *name)
{
	char line[128], dev[64];
	bool chars = false;
	int major, found = -1;
	FILE *f = fopen("/proc/devices", "r");

	if (!f)
		FAIL("/proc/devices: %s", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Character devices:", 18))
			chars = true;
		else if (!strncmp(line, "Block devices:", 14))
			chars = false;
		else if (chars && sscanf(line, "%d %63s", &major, dev) == 2 &&
			 !strcmp(dev, name)) {
			if (found >= 0)
				FAIL("two character devices named %s", name);
			found = major;
		}
	}
	fclose(f);
	return found;
}

/* the dummy's nodes are on the major named iio_user, and they work */
static void dummy_works(void)
{
	uint32_t before;
	struct stat st;
	uint64_t word;
	int nr, fd, efd;

	nr = dummy_nr(0);
	MUST(stat(iio_node(nr, "_event"), &st));
	EXPECT_EQ(major(st.st_rdev), chrdev_major("iio_user"));
	fd = MUST(open(iio_node(nr, ""), O_RDWR));
	word = 0x1122334455667788ull;
	EXPECT_EQ(pwrite(fd, &word, sizeof(word), 8), 8);
	word = 0;
	EXPECT_EQ(pread(fd, &word, sizeof(word), 8), 8);
	EXPECT_EQ(word, 0x1122334455667788ull);
	close(fd);
	efd = MUST(open(iio_node(nr, "_event"), O_RDONLY));
	before = read_num(iio_attr_path(nr, "event"));
	event_inject(nr, 2);
	EXPECT_EQ(event_read(efd), before + 2);
	close(efd);
}

/* every module of ours out, and in again (iio.ko first), as at boot */
static void reload_ours(void)
{
	EXPECT(shell("for m in /sys/module/iio_*; do rmmod ${m##*/} || exit 1; done") == 0);
	EXPECT_EQ(module_unload("iio"), 0);
	EXPECT_EQ(chrdev_major("iio_user"), -1);
	EXPECT_EQ(module_load("iio", ""), 0);
	/* the dummy first, as at boot (qemu/init): its device is iio0 */
	EXPECT(shell("for m in " MODDIR "/iio_user_dummy.ko " MODDIR
		     "/iio_[!u]*.ko; do insmod $m || exit 1; done") == 0);
	dummy_reload("freq=0");
}

static void chrdev_name_is_our_own(void)
{
	dummy_reload("freq=0");
	EXPECT(chrdev_major("iio_user") > 0);
	EXPECT_EQ(chrdev_major("iio"), -1);
	dummy_works();
}

/*
 * industrialio.ko in: two majors, "iio" (mainline's) and "iio_user"
 * (ours); ours reload and work beside it, and still work once it is gone.
 */
static void beside_industrialio(void)
{
	int fd, err;

	if (!path_exists(INDUSTRIALIO_KO)) {
		/* our own kernels (qemu/guest-kernel.config) have no IIO */
		EXPECT(!path_exists("/sys/module/industrialio"));
		check_skip("the kernel ships no industrialio.ko");
	}
	dummy_reload("freq=0");
	fd = MUST(open(INDUSTRIALIO_KO, O_RDONLY | O_CLOEXEC));
	err = syscall(__NR_finit_module, fd, "", 0) ? errno : 0;
	close(fd);
	if (err)
		FAIL("insmod %s: %s", INDUSTRIALIO_KO, strerror(err));
	EXPECT(chrdev_major("iio") > 0);
	EXPECT(chrdev_major("iio_user") > 0);
	EXPECT(chrdev_major("iio") != chrdev_major("iio_user"));
	EXPECT(path_exists("/sys/bus/iio"));		/* mainline's */
	EXPECT(path_exists("/sys/class/iio/version"));	/* ours */
	dummy_works();
	reload_ours();
	dummy_works();
	EXPECT(chrdev_major("iio") != chrdev_major("iio_user"));
	EXPECT_EQ(module_unload("industrialio"), 0);
	EXPECT_EQ(chrdev_major("iio"), -1);
	dummy_works();
	reload_ours();
	dummy_works();
}

static const struct check_case cases[] = {
	CASE(chrdev_name_is_our_own),
	CASE_T(beside_industrialio, 120),
};
CHECK_MAIN(cases)
