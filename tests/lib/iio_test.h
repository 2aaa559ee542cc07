/* SPDX-License-Identifier: GPL-2.0-only */
/* iio_test.h - helpers of the guest tests for iio devices and stubs */
#ifndef IIO_TEST_H
#define IIO_TEST_H

#include <stdint.h>
#include <sys/types.h>

#include "../../kmod/iio_uapi.h"
#include "check.h"

#define MODDIR "/lib/modules/iio"

/* /sys/class/iio/iioN/<attr> (static buffer, one at a time) */
const char *iio_attr_path(int nr, const char *attr);
/* /dev/iioN<suffix>, suffix "" "_in" "_out" "_event" (static buffer) */
const char *iio_node(int nr, const char *suffix);
/* number of the iio device whose parent device is named @parent, or -1 */
int iio_find_by_parent(const char *parent);
/* number of the @index-th (0, 1, ...) device named @name, or -1 */
int iio_find_by_name(const char *name, int index);
/* the same, failing the case if it does not exist */
int iio_must_find(const char *name, int index);
/* number of dummy @index (parent iio_dummy.<index>); fails the case if absent */
int dummy_nr(int index);
/* rmmod iio_dummy and insmod it with @params; fails the case on error */
void dummy_reload(const char *params);
/* /sys/devices/platform/iio_dummy.<index>/<attr> (static buffer) */
const char *dummy_attr(int index, const char *attr);
/* write a 32-bit N to the event device: inject N events */
void event_inject(int nr, uint32_t n);
/* the count read() returns */
uint32_t event_read(int fd);
/* a child blocked in read() of @efd; it exits 0 when the read fails with EIO */
pid_t fork_blocked_reader(int efd);
/* the child @pid must exit with status 0 */
void expect_child_ok(pid_t pid);
/* a child reading (or with @write, writing) @p must be killed by SIGBUS */
void expect_sigbus(volatile void *p, int write);

/*
 * Added for test_stress, test_fuzz_syscalls and test_perm (issue 10).
 */
/* iio_test.NAME=N on the kernel command line (qemu/run --append), or @def */
unsigned long long test_param(const char *name, unsigned long long def);
/*
 * insmod MODDIR/@name.ko by finit_module(2) with the kernel command line's
 * @name.P=V (as qemu/init loads it at boot: iio.enable_unsafe_noiommu_mode
 * of the main boot, say), then @params: 0 or the errno
 */
int module_load(const char *name, const char *params);
/* rmmod @name by delete_module(2), retrying EBUSY/EAGAIN for ~5 s: 0 or errno */
int module_unload(const char *name);
/* a PCI device's driver: bind/unbind through /sys/bus/pci/drivers/@drv */
int pci_driver_bind(const char *drv, const char *pci);	/* 0 or errno */
int pci_driver_unbind(const char *drv, const char *pci);	/* 0 or errno */
/* the sum of active objects over every cache of /proc/slabinfo */
unsigned long long slab_active_objects(void);
/* a /proc/meminfo value in kB ("Slab", "SUnreclaim"), or 0 */
unsigned long long meminfo_kb(const char *key);
/* the iio device numbers in use, as a bit mask of iio0..iio63 (more: bit 63) */
unsigned long long iio_numbers(void);
/* CLOCK_MONOTONIC in ms */
unsigned long long now_ms(void);

/*
 * Added for test_hotplug (issue 18).
 */
/*
 * Run one command on QEMU's human monitor through the port qemu/run
 * forwards to it (/dev/ttyS4, see qemu/run): "device_add edu,id=x,
 * addr=0x1c", "device_del x".  Returns the monitor's reply, one line per
 * line ("" when it printed nothing, as device_add and device_del do when
 * all went well; static buffer); fails the case if no answer comes within
 * 30 s.
 */
const char *qemu_monitor(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
/* wait up to @ms for @path to exist (@present) or not: 0, or -1 on timeout */
int wait_path(const char *path, int present, unsigned int ms);
/*
 * Wait up to @ms until process @pid sleeps in system call @nr (SYS_read,
 * SYS_poll: /proc/PID/stat says S and /proc/PID/syscall names @nr);
 * fails the case otherwise, or if it ended.
 */
void wait_sleeping_in(pid_t pid, long nr, unsigned int ms);
/* the iio device of BAR @bar of PCI device @pci ("ADDR barN"); fails the case if absent */
int pci_bar_nr(const char *pci, int bar);
/* rmmod iio_pci_generic (if loaded) and insmod it with @params; fails the case on error */
void pci_generic_reload(const char *params);
/* a socket of the kernel's uevents: open it before what sends them */
int uevent_socket(void);
/*
 * Wait up to @ms on @sock for the ADD uevent of an iio device whose
 * parent device is @parent ("0000:00:1c.0"; it comes once every node can
 * be opened, see iio(4)): its number.  Fails the case on timeout.
 */
int wait_iio_added(int sock, const char *parent, unsigned int ms);

/*
 * Added for test_noiommu (issue 19).
 */
/*
 * The number of messages in the kernel log (/dev/kmsg, all of this boot
 * that the ring still holds) whose text contains @text.
 */
unsigned int kmsg_count(const char *text);

#endif
