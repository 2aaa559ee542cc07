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
/* write @size (text) to iio device @nr's dma_request: 0 or the errno */
int iio_dma_request(int nr, const char *size);
/* write @k (text) to iio device @nr's dma_free: 0 or the errno */
int iio_dma_free(int nr, const char *k);
/* /dev/iioN<suffix>, suffix "" "_in" "_out" "_event" (static buffer) */
const char *iio_node(int nr, const char *suffix);
/* number of the iio device whose parent device is named @parent, or -1 */
int iio_find_by_parent(const char *parent);
/* number of the @index-th (0, 1, ...) device named @name, or -1 */
int iio_find_by_name(const char *name, int index);
/* the same, failing the case if it does not exist */
int iio_must_find(const char *name, int index);
/* number of dummy @index (parent iio_user_dummy.<index>); fails the case if absent */
int dummy_nr(int index);
/* rmmod iio_user_dummy and insmod it with @params; fails the case on error */
void dummy_reload(const char *params);
/* /sys/devices/platform/iio_user_dummy.<index>/<attr> (static buffer) */
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

/* Test parameters, modules, drivers, memory and time. */
/* iio_test.NAME=N on the kernel command line (qemu/run --append), or @def */
unsigned long long test_param(const char *name, unsigned long long def);
/*
 * insmod MODDIR/@name.ko by finit_module(2) with the kernel command line's
 * @name.P=V (as qemu/init loads it at boot: iio.enable_unsafe_noiommu_mode
 * of the main boot, say), then @params: 0 or the errno
 */
int module_load(const char *name, const char *params);
/* insmod the test-only stub /lib/modules/test/@name.ko (tests/kmod/); loaded already is fine; fails the case on an error */
void test_module_load(const char *name);
/* rmmod @name by delete_module(2), retrying EBUSY/EAGAIN for ~5 s: 0 or errno */
int module_unload(const char *name);
/* a PCI device's driver: bind/unbind through /sys/bus/pci/drivers/@drv */
int pci_driver_bind(const char *drv, const char *pci);	/* 0 or errno */
int pci_driver_unbind(const char *drv, const char *pci);	/* 0 or errno */
/* the sum of active objects over every cache of /proc/slabinfo */
unsigned long long slab_active_objects(void);
/* a /proc/meminfo value in kB ("Slab", "SUnreclaim"), or 0 */
unsigned long long meminfo_kb(const char *key);
/* debugfs on /sys/kernel/debug (mounted here if it is not); FAIL otherwise */
void debugfs_mount(void);
/* write @value to /sys/kernel/debug/@attr; FAIL on an error */
void debugfs_knob(const char *attr, const char *value);
/* the iio device numbers in use, as a bit mask of iio0..iio63 (more: bit 63) */
unsigned long long iio_numbers(void);
/* whether the kernel is tainted TAINT_USER (/proc/sys/kernel/tainted) */
int kernel_tainted_user(void);
/* the interrupts of @irq taken so far, all CPUs (/proc/interrupts) */
unsigned long long irq_total(unsigned long long irq);
/* CLOCK_MONOTONIC in ms */
unsigned long long now_ms(void);

/* QEMU's monitor, waiting on a path or a sleeper, PCI stubs, uevents. */
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
/*
 * PCI function @pci bound to iio_pci_generic by driver_override (nothing
 * to do if it is already); unbound, and left to no driver again as
 * qemu/init leaves it ("none")
 */
void pci_generic_bind(const char *pci);
void pci_generic_unbind(const char *pci);
/*
 * PCI function @pci from its driver (if any) to mainline vfio-pci, its
 * modules loaded first from /lib/modules/vfio (qemu/mkinitramfs; a SKIP
 * where they were not packed); nothing if it is bound there already
 */
void vfio_bind(const char *pci);
/* a socket of the kernel's uevents: open it before what sends them */
int uevent_socket(void);
/*
 * Wait up to @ms on @sock for the ADD uevent of an iio device whose
 * parent device is @parent ("0000:00:1c.0"; it comes once every node can
 * be opened, see iio(4)): its number.  Fails the case on timeout.
 */
int wait_iio_added(int sock, const char *parent, unsigned int ms);

/* edu's DMA engine driven from user space, and a page it must not reach. */
#define EDU_DMA_SRC	0x80	/* edu's 8-byte DMA registers (QEMU's hw/misc/edu.c) */
#define EDU_DMA_DST	0x88
#define EDU_DMA_COUNT	0x90
#define EDU_DMA_CMD	0x98
#define EDU_DMA_RUN	0x1	/* the command's bits: start; running while set */
#define EDU_DMA_TO_RAM	0x2	/* from edu's memory to the bus address */
#define EDU_DMA_IRQ	0x4	/* interrupt when done */
#define EDU_DMA_BASE	0x40000	/* edu's own 4 KiB, as the DMA engine names it */
/*
 * QEMU 7.2's edu refuses a transfer that ends at the end of its 4 KiB
 * (its range check wants end < 0x41000; fixed in QEMU 8.2.1), so the
 * longest transfer is 4095 bytes.
 */
#define EDU_DMA_MAX	4095
#define EDU_DMA_BITS	28	/* edu drives 28 address bits */
/* the 4 KiB of register space of iio device @nr (an edu), mapped read-write */
volatile void *edu_map(int nr);
/* program edu's DMA engine at @regs: @count bytes @src -> @dst, command @cmd */
void edu_dma_start(volatile void *regs, uint64_t src, uint64_t dst,
		   uint64_t count, unsigned int cmd);
/* wait up to 5 s until edu's DMA engine at @regs is idle; fails the case otherwise */
void edu_dma_wait(volatile void *regs);
/* the PCI address of iio device @nr's parent ("0000:00:10.0"; static buffer) */
const char *iio_pci(int nr);
/*
 * A page of this process, locked in memory and filled with @fill, whose
 * physical address (/proc/self/pagemap, as root) is below @limit and
 * outside [@avoid, @avoid + @avoid_len): a device reaching that address
 * without an IOMMU writes this page.  Returns the page, its address in
 * *@phys; fails the case if none is found among 64 MiB of pages.
 */
void *canary_page(uint8_t fill, uint64_t limit, uint64_t avoid,
		  uint64_t avoid_len, uint64_t *phys);
/*
 * Announce to qemu/log-check (through /dev/kmsg) that the IOMMU will report
 * one DMA fault of PCI device @pci at bus address @addr: the boot's log
 * stays clean with it, and only it.
 */
void iommu_fault_expect(const char *pci, uint64_t addr);
/*
 * Announce to qemu/log-check that the kernel will print one WARNING in
 * @function (a function of ours, warning on a documented misuse).
 */
void warning_expect(const char *function);
/*
 * Wait up to @ms for the kernel's report of the IOMMU's fault of PCI
 * device @pci at bus address @addr (intel's DMAR: "Request device
 * [00:10.0] fault addr 0x..."): the number of such reports (kmsg_count()),
 * 0 if none came.
 */
unsigned int iommu_fault_wait(const char *pci, uint64_t addr, unsigned int ms);
/*
 * edu (iio device @nr, with its DMA buffer dma0) writes EDU_DMA_MAX bytes
 * of @pattern to the bus address of a canary page (canary_page(), filled
 * with @fill, below edu's EDU_DMA_BITS and outside dma0's bus addresses):
 * @pattern goes from dma0 into edu, then from edu to the canary's physical
 * address.  With @announce, the IOMMU fault of that write is announced
 * first (iommu_fault_expect()).  Returns the canary, its physical address
 * in *@phys.
 */
uint8_t *edu_dma_at_canary(int nr, const uint8_t *pattern, uint8_t fill,
			   int announce, uint64_t *phys);

/* The kernel log. */
/*
 * The number of messages in the kernel log (/dev/kmsg, all of this boot
 * that the ring still holds) whose text contains @text.
 */
unsigned int kmsg_count(const char *text);
/* The same, of messages that contain both @text and @also. */
unsigned int kmsg_count_with(const char *text, const char *also);
/*
 * The text of the next record of /dev/kmsg file @fd (O_NONBLOCK), read
 * into @rec of @size bytes: NULL when there is none yet; records the ring
 * overwrote are skipped
 */
char *kmsg_next(int fd, char *rec, size_t size);

/* PCI configuration space: the command register's bits the tests check. */
#define PCI_CMD_MASTER		0x4	/* PCI_COMMAND's Bus Master Enable */
#define PCI_CMD_INTX_DISABLE	0x400	/* and its Interrupt Disable */
/* @len (1, 2 or 4) bytes of PCI device @pci's config space at @off */
uint32_t pci_config(const char *pci, unsigned int off, size_t len);
/* PCI_COMMAND of PCI device @pci */
unsigned int pci_command(const char *pci);
#define PCI_STATUS_INTX		0x08	/* PCI_STATUS's Interrupt Status */
/*
 * Until @pci asserts INTx inside (PCI_STATUS's interrupt bit), 5 s of the
 * guest's clock at most, then that INTx is masked (PCI_COMMAND's Interrupt
 * Disable): the interrupt is pending in the device and kept off the line,
 * a state the tests check instead of waiting for nothing to happen.
 */
void pci_wait_intx_held_back(const char *pci);

#endif
