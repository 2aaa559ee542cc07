// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_register_api.c - iio_register_device(9)'s RETURN VALUE and Events
 * sections: every documented error of iio_register_device(),
 * iio_event_set_freq(), iio_event_arm() and iio_event_write_oneshot(),
 * and iio_event_add_vector()'s vectors, driven through the test-only stub
 * iio_test_api.ko (tests/kmod/, /lib/modules/test/ in the guest): each
 * action's name written to its "run" parameter, its return value read
 * back from "result".  Each bad argument comes with the nearest good one
 * (the boundary), so that an error is proved to come from that argument.
 * The held_* cases use a device the stub keeps registered (hold_vectors,
 * hold_io): overlapping windows and which of them map, a DMA size rounded
 * up to pages, a one-shot source without a handler, iio_event_add(),
 * open(2) while it is being unregistered, an unaligned I/O physaddr.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/iio_test.h"

#define API_PARAM	"/sys/module/iio_test_api/parameters/"
/* iio_register_device(9): "all 256 numbers" */
#define IIO_NUMBERS	256
#define ONESHOT_SIZE	16	/* sizeof(struct iio_oneshot), iio_uapi.h */

static void api_load(void)
{
	test_module_load("iio_test_api");
}

static void api_unload(void)
{
	EXPECT_EQ(module_unload("iio_test_api"), 0);
}

/* the numbers of the devices in /sys/class/iio: how many, the lowest free */
static int iio_devices(int *lowest_free)
{
	char used[IIO_NUMBERS] = { 0 };
	struct dirent *de;
	int n = 0, nr;
	DIR *dir;

	dir = opendir("/sys/class/iio");
	EXPECT(dir);
	while ((de = readdir(dir))) {
		if (sscanf(de->d_name, "iio%d", &nr) != 1)
			continue;
		EXPECT(nr >= 0 && nr < IIO_NUMBERS);
		used[nr] = 1;
		n++;
	}
	closedir(dir);
	if (lowest_free) {
		for (nr = 0; nr < IIO_NUMBERS && used[nr]; nr++)
			;
		*lowest_free = nr;
	}
	return n;
}

/* runs the stub's action @name; its return value */
static long api(const char *name)
{
	int err = write_text(API_PARAM "run", name);

	if (err)
		FAIL("run %s: errno %d (%s)", name, err, strerror(err));
	return (long)read_num(API_PARAM "result");
}

/*
 * @name must return @want (a negative errno, or 0), and leave no device
 * registered: the same devices before and after.
 */
static void expect_api(const char *name, long want)
{
	int before = iio_devices(NULL);
	long got = api(name);

	if (got != want)
		FAIL("%s returned %ld (%s), want %ld (%s)", name, got,
		     got < 0 ? strerror((int)-got) : "", want,
		     want < 0 ? strerror((int)-want) : "");
	EXPECT_EQ(iio_devices(NULL), before);
}

/* @name's registration must succeed, with the lowest free number */
static void expect_registers(const char *name)
{
	int lowest, before = iio_devices(&lowest);
	long got = api(name);

	if (got != lowest)
		FAIL("%s returned %ld (%s), want %d, the lowest free number",
		     name, got, got < 0 ? strerror((int)-got) : "", lowest);
	EXPECT_EQ(iio_devices(NULL), before);
}

/* the stub checks its own actions: an unknown one is refused */
static void unknown_action_refused(void)
{
	api_load();
	EXPECT_EQ(write_text(API_PARAM "run", "no_such_action"), EINVAL);
	api_unload();
}

static void register_valid_lowest_number(void)
{
	api_load();
	expect_registers("valid");
	api_unload();
}

/* no name, version or size */
static void register_einval_required_fields(void)
{
	api_load();
	expect_api("no_name", -EINVAL);
	expect_api("no_version", -EINVAL);
	expect_api("no_size", -EINVAL);
	api_unload();
}

/* both virtaddr and kernaddr; kernaddr not page-aligned; ports */
static void register_einval_region(void)
{
	api_load();
	expect_api("virtaddr_and_kernaddr", -EINVAL);
	expect_api("kernaddr_unaligned", -EINVAL);
	expect_registers("ports_at_limit");
	expect_api("ports_end_beyond_limit", -EINVAL);
	expect_api("ports_start_beyond_limit", -EINVAL);
	api_unload();
}

/* a window outside the region */
static void register_einval_windows(void)
{
	api_load();
	expect_registers("windows_whole_region");
	expect_api("read_window_past_end", -EINVAL);
	expect_api("read_window_outside", -EINVAL);
	expect_api("write_window_past_end", -EINVAL);
	expect_api("write_window_outside", -EINVAL);
	api_unload();
}

/* a real irq without handler; irq below IIO_IRQ_ONESHOT */
static void register_einval_irq(void)
{
	api_load();
	expect_registers("irq_with_handler");
	expect_api("irq_without_handler", -EINVAL);
	expect_api("irq_below_oneshot", -EINVAL);
	api_unload();
}

/* a cyclic freq above IIO_MAX_FREQ; the other modes ignore it */
static void register_einval_freq(void)
{
	api_load();
	expect_registers("cyclic_max_freq");
	expect_api("cyclic_freq_too_high", -EINVAL);
	expect_registers("oneshot_freq_ignored");
	api_unload();
}

/* more than IIO_MAX_VECTORS vectors */
static void register_einval_vectors(void)
{
	api_load();
	expect_registers("max_vectors");
	expect_api("too_many_vectors", -EINVAL);
	api_unload();
}

/* inconsistent DMA sizes: too large, after the first 0, without dma_dev */
static void register_einval_dma(void)
{
	api_load();
	expect_registers("dma_max_size");
	expect_api("dma_too_large", -EINVAL);
	expect_api("dma_size_after_end", -EINVAL);
	expect_api("dma_without_dev", -EINVAL);
	api_unload();
}

/*
 * ENOSPC when all 256 numbers are in use: the stub registers until a
 * registration fails; with the devices already there, exactly 256.
 */
static void register_enospc_at_256(void)
{
	int before = iio_devices(NULL);

	api_load();
	expect_api("fill", -ENOSPC);
	EXPECT_EQ(read_num(API_PARAM "count") + before, IIO_NUMBERS);
	/* every number free again */
	expect_registers("valid");
	api_unload();
}

/*
 * The interrupt is requested with IRQF_SHARED: a line another driver
 * holds unshared gives request_irq()'s EBUSY, one it shares works.
 */
static void register_ebusy_unshared_line(void)
{
	api_load();
	expect_api("irq_held_unshared", -EBUSY);
	expect_registers("irq_held_shared");
	api_unload();
}

/* IIO_THREADED: every driver on the line must use IRQF_ONESHOT */
static void register_threaded_needs_oneshot(void)
{
	api_load();
	expect_api("irq_threaded_beside_not_oneshot", -EBUSY);
	expect_registers("irq_threaded_beside_oneshot");
	api_unload();
}

/*
 * iio_event_set_freq(): 0 (the field follows: the stub reports ERANGE if
 * not); EINVAL if not cyclic or freq > IIO_MAX_FREQ; ENODEV if not
 * registered or being unregistered (revoked).
 */
static void set_freq_errors(void)
{
	api_load();
	expect_api("set_freq_cyclic", 0);
	expect_api("set_freq_max", 0);
	expect_api("set_freq_stop", 0);
	expect_api("set_freq_too_high", -EINVAL);
	expect_api("set_freq_oneshot", -EINVAL);
	expect_api("set_freq_no_source", -EINVAL);
	expect_api("set_freq_never_registered", -ENODEV);
	expect_api("set_freq_unregistered", -ENODEV);
	expect_api("set_freq_revoked", -ENODEV);
	api_unload();
}

/*
 * iio_event_arm(): 0 (a time in the past too); EINVAL if not one-shot or
 * a relative time is negative; ENODEV as above.
 */
static void arm_errors(void)
{
	api_load();
	expect_api("arm_relative", 0);
	expect_api("arm_absolute_past", 0);
	expect_api("arm_relative_negative", -EINVAL);
	expect_api("arm_cyclic", -EINVAL);
	expect_api("arm_no_source", -EINVAL);
	expect_api("arm_never_registered", -ENODEV);
	expect_api("arm_unregistered", -ENODEV);
	expect_api("arm_revoked", -ENODEV);
	api_unload();
}

/*
 * iio_event_write_oneshot(): count; EINVAL for a size other than 16,
 * unknown flags, a non-zero reserved, a negative relative time, a device
 * that is not one-shot; ENODEV as above.
 */
static void write_oneshot_errors(void)
{
	api_load();
	expect_api("write_oneshot_relative", ONESHOT_SIZE);
	expect_api("write_oneshot_absolute_past", ONESHOT_SIZE);
	expect_api("write_oneshot_short", -EINVAL);
	expect_api("write_oneshot_long", -EINVAL);
	expect_api("write_oneshot_unknown_flag", -EINVAL);
	expect_api("write_oneshot_reserved", -EINVAL);
	expect_api("write_oneshot_relative_negative", -EINVAL);
	expect_api("write_oneshot_cyclic", -EINVAL);
	expect_api("write_oneshot_unregistered", -ENODEV);
	api_unload();
}

/*
 * iio_unregister_device() (and iio_revoke_device()) of a device whose
 * registration failed, or a second time, does nothing (no oops, nothing
 * left registered).
 */
static void unregister_failed_or_twice_noop(void)
{
	api_load();
	expect_api("unregister_failed", -EINVAL);
	expect_api("unregister_twice", 0);
	expect_registers("valid");
	api_unload();
}

/* events for a device that is not registered do nothing (no oops) */
static void event_add_unregistered_noop(void)
{
	api_load();
	expect_api("add_unregistered", 0);
	api_unload();
}

/* @fd has an unseen event: poll() at once, no waiting */
static int event_pending(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return MUST(poll(&p, 1, 0)) == 1 && (p.revents & POLLIN);
}

/* the kernel log's warnings (WARNING: lines) in iio_event_add_vector() */
static unsigned int add_vector_warnings(void)
{
	return kmsg_count_with("WARNING: ", "iio_event_add_vector+0x");
}

/*
 * iio_event_add_vector(): an event on that vector's node only; a vector
 * the device does not have is a stub's bug: no event anywhere, and a
 * WARN_ON_ONCE (announced to qemu/log-check, which accepts exactly one).
 */
static void add_vector_events(void)
{
	int nr, fd0, fd1;
	unsigned int warned;

	api_load();
	nr = (int)api("hold_vectors");
	EXPECT(nr >= 0);
	EXPECT_EQ(read_num(API_PARAM "vector_dev"), nr);
	EXPECT(path_exists(iio_node(nr, "_event1")));
	EXPECT(!path_exists(iio_node(nr, "_event2")));
	fd0 = MUST(open(iio_node(nr, "_event"), O_RDONLY | O_NONBLOCK));
	fd1 = MUST(open(iio_node(nr, "_event1"), O_RDONLY | O_NONBLOCK));

	EXPECT_EQ(api("add_vector_1"), 0);
	EXPECT(!event_pending(fd0));
	EXPECT(event_pending(fd1));
	EXPECT_EQ(event_read(fd1), 1);
	EXPECT_EQ(api("add_vector_0"), 0);
	EXPECT(event_pending(fd0));
	EXPECT(!event_pending(fd1));
	EXPECT_EQ(event_read(fd0), 1);

	/*
	 * Once per boot: the first call warns (announced), later ones do
	 * not (a second run of this program in one boot sees no new one).
	 */
	warned = add_vector_warnings();
	EXPECT(warned <= 1);
	if (!warned)
		warning_expect("iio_event_add_vector");
	EXPECT_EQ(api("add_vector_2"), 0);
	EXPECT(!event_pending(fd0));
	EXPECT(!event_pending(fd1));
	EXPECT_EQ(add_vector_warnings(), 1);
	EXPECT_EQ(api("add_vector_2"), 0);
	EXPECT(!event_pending(fd0));
	EXPECT(!event_pending(fd1));
	EXPECT_EQ(add_vector_warnings(), 1);

	close(fd0);
	close(fd1);
	EXPECT_EQ(api("release"), 0);
	EXPECT_EQ((int)read_num(API_PARAM "vector_dev"), -1);
	EXPECT(!path_exists(iio_node(nr, "_event")));
	api_unload();
}

/* @fd gets an event within @ms of the guest's clock (poll, not a sleep) */
static int event_within(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return MUST(poll(&p, 1, ms)) == 1 && (p.revents & POLLIN);
}

/*
 * The held device's one-shot source has no handler: it waits to be armed
 * (no event in 200 ms of the guest's clock after registration, where a
 * source started at once would have fired), and its expiry is an event
 * without one.  iio_event_add() adds n events; 0 does nothing.
 */
static void held_events_without_handler(void)
{
	unsigned long long t0;
	int nr, fd;

	api_load();
	nr = (int)api("hold_vectors");
	EXPECT(nr >= 0);
	fd = MUST(open(iio_node(nr, "_event"), O_RDONLY | O_NONBLOCK));
	t0 = now_ms();
	msleep(200);
	EXPECT(now_ms() - t0 >= 200);
	EXPECT(!event_pending(fd));
	EXPECT_EQ(read_num(iio_attr_path(nr, "event")), 0);

	/* armed to fire now: the event comes (5 s of the guest's clock) */
	EXPECT_EQ(api("arm_held"), 0);
	EXPECT(event_within(fd, 5000));
	EXPECT_EQ(event_read(fd), 1);

	EXPECT_EQ(api("add_held_0"), 0);
	EXPECT(!event_pending(fd));
	EXPECT_EQ(read_num(iio_attr_path(nr, "event")), 1);
	EXPECT_EQ(api("add_held_3"), 0);
	EXPECT(event_pending(fd));
	EXPECT_EQ(event_read(fd), 4);
	EXPECT_EQ(read_num(iio_attr_path(nr, "event")), 4);
	close(fd);
	EXPECT_EQ(api("release"), 0);
	api_unload();
}

/*
 * open(2) while the device is being unregistered (revoked, its nodes
 * still there): ENODEV on every node, region and event alike.
 */
static void held_open_while_unregistering(void)
{
	int nr;

	api_load();
	nr = (int)api("hold_vectors");
	EXPECT(nr >= 0);
	EXPECT_EQ(api("revoke_held"), 0);
	EXPECT(path_exists(iio_node(nr, "")));
	EXPECT_ERRNO(open(iio_node(nr, ""), O_RDONLY), ENODEV);
	EXPECT_ERRNO(open(iio_node(nr, "_in"), O_RDONLY), ENODEV);
	EXPECT_ERRNO(open(iio_node(nr, "_event"), O_RDONLY), ENODEV);
	EXPECT_ERRNO(open(iio_node(nr, "_event1"), O_RDONLY), ENODEV);
	EXPECT_EQ(api("release"), 0);
	EXPECT(!path_exists(iio_node(nr, "")));
	api_unload();
}

/*
 * iio(4): for I/O memory, physaddr must be page-aligned too, else mmap(2)
 * is EINVAL: the stub's I/O memory device 8 bytes past a page boundary
 * reads and writes (its nodes open) but does not map.
 */
static void held_io_unaligned_physaddr_not_mapped(void)
{
	int nr, fd;

	api_load();
	nr = (int)api("hold_io");
	EXPECT(nr >= 0);
	EXPECT_STREQ(read_text(iio_attr_path(nr, "type")), "mem");
	EXPECT_EQ(read_num(iio_attr_path(nr, "physaddr")) & 0xfff, 8);
	fd = MUST(open(iio_node(nr, ""), O_RDWR));
	EXPECT_ERRNO(mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0), EINVAL);
	EXPECT_ERRNO(mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0),
		     EINVAL);
	close(fd);
	EXPECT_EQ(api("release"), 0);
	api_unload();
}

/* hold_vectors' out window (tests/kmod/iio_test_api.c) */
#define HELD_OUT_OFFSET	8
#define HELD_OUT_LEN	16

/*
 * Windows may overlap: the held device's out window (16 bytes at offset
 * 8) lies inside its in window (the whole page), and what is written
 * through out is read through in at out's offset.  Only windows at
 * page-aligned offsets can be mapped: in maps, out is EINVAL.
 */
static void held_windows_overlap(void)
{
	unsigned char buf[HELD_OUT_LEN], got[HELD_OUT_LEN];
	int nr, in, out;
	unsigned char *map;
	unsigned int i;

	api_load();
	nr = (int)api("hold_vectors");
	EXPECT(nr >= 0);
	EXPECT_EQ(read_num(iio_attr_path(nr, "write_offset")), HELD_OUT_OFFSET);
	in = MUST(open(iio_node(nr, "_in"), O_RDONLY));
	out = MUST(open(iio_node(nr, "_out"), O_RDWR));
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = 0xa0 + i;
	EXPECT_EQ(pwrite(out, buf, sizeof(buf), 0), sizeof(buf));
	EXPECT_EQ(pread(in, got, sizeof(got), HELD_OUT_OFFSET), sizeof(got));
	EXPECT(!memcmp(buf, got, sizeof(buf)));

	map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, in, 0);
	EXPECT(map != MAP_FAILED);
	EXPECT(!memcmp(map + HELD_OUT_OFFSET, buf, sizeof(buf)));
	MUST(munmap(map, 4096));
	EXPECT_ERRNO(mmap(NULL, 4096, PROT_READ, MAP_SHARED, out, 0), EINVAL);
	EXPECT_ERRNO(mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, out, 0),
		     EINVAL);
	close(in);
	close(out);
	EXPECT_EQ(api("release"), 0);
	api_unload();
}

/*
 * A stub's DMA buffer of 100 bytes is rounded up to a page: dma0's size
 * is 0x1000, and the whole page reads.
 */
static void held_dma_rounded_to_pages(void)
{
	char path[96];
	char page[4096];
	int nr, fd;

	api_load();
	nr = (int)api("hold_vectors");
	EXPECT(nr >= 0);
	snprintf(path, sizeof(path), "/sys/class/iio/iio%d/dma0/size", nr);
	EXPECT_STREQ(read_text(path), "0x1000");
	snprintf(path, sizeof(path), "/sys/class/iio/iio%d/dma0/buffer", nr);
	fd = MUST(open(path, O_RDONLY));
	EXPECT_EQ(pread(fd, page, sizeof(page), 0), sizeof(page));
	close(fd);
	EXPECT_EQ(api("release"), 0);
	api_unload();
}

/*
 * iio(4): a DMA buffer whose page attributes cannot be known (DMA
 * operations other than the kernel's direct and IOMMU ones: the stub's
 * own, with no mmap) cannot be mapped, ENODEV, while read and write work;
 * the same buffer of the kernel's direct DMA maps (held_dma_rounded_to_pages'
 * device, hold_vectors).
 */
static void held_dma_ops_mmap_enodev(void)
{
	char path[96], page[4096] = { 0x5a };
	const char *holds[] = { "hold_dma_ops", "hold_vectors" };
	int i, nr, fd;
	void *p;

	api_load();
	for (i = 0; i < 2; i++) {
		nr = (int)api(holds[i]);
		EXPECT(nr >= 0);
		snprintf(path, sizeof(path), "/sys/class/iio/iio%d/dma0/buffer",
			 nr);
		fd = MUST(open(path, O_RDWR));
		EXPECT_EQ(pwrite(fd, page, sizeof(page), 0), sizeof(page));
		EXPECT_EQ(pread(fd, page, sizeof(page), 0), sizeof(page));
		EXPECT_EQ(page[0], 0x5a);
		p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (i == 0) {
			EXPECT(p == MAP_FAILED);
			EXPECT_EQ(errno, ENODEV);
		} else {
			EXPECT(p != MAP_FAILED);
			EXPECT_EQ(((volatile char *)p)[0], 0x5a);
			munmap(p, 4096);
		}
		close(fd);
		EXPECT_EQ(api("release"), 0);
	}
	api_unload();
}

static const struct check_case cases[] = {
	CASE(unknown_action_refused),
	CASE(register_valid_lowest_number),
	CASE(register_einval_required_fields),
	CASE(register_einval_region),
	CASE(register_einval_windows),
	CASE(register_einval_irq),
	CASE(register_einval_freq),
	CASE(register_einval_vectors),
	CASE(register_einval_dma),
	CASE_T(register_enospc_at_256, 120),
	CASE(register_ebusy_unshared_line),
	CASE(register_threaded_needs_oneshot),
	CASE(set_freq_errors),
	CASE(arm_errors),
	CASE(write_oneshot_errors),
	CASE(unregister_failed_or_twice_noop),
	CASE(event_add_unregistered_noop),
	CASE(add_vector_events),
	CASE(held_events_without_handler),
	CASE(held_windows_overlap),
	CASE(held_dma_rounded_to_pages),
	CASE(held_dma_ops_mmap_enodev),
	CASE(held_open_while_unregistering),
	CASE(held_io_unaligned_physaddr_not_mapped),
};

CHECK_MAIN(cases)
