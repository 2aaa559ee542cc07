/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nic_test.h - helpers of the guest tests that run the user-space network
 * driver (udrv-e1000e, examples/e1000e.c) on qemu/run --nic's pair:
 * test_nic, and test_nic_iommu under the IOMMU.  Our port 00:0a.0, the
 * kernel's e1000e on 00:0b.0 (eth0) with tests/helpers/nic_reflect as the
 * peer; the driver's output in OUT and ERR, the peer's in PEER_OUT and
 * PEER_ERR.
 */
#ifndef NIC_TEST_H
#define NIC_TEST_H

#include <sys/types.h>

#include "../../examples/e1000e_frame.h"

#define NIC		"0000:00:0a.0"		/* ours: qemu/run --nic */
#define PEER_PCI	"0000:00:0b.0"		/* the kernel's e1000e */
#define PEER_IF		"eth0"
#define NIC_MODULES	"/lib/modules/net"
#define VECTORS		3
#define OUT		"/tmp/nic.out"
#define ERR		"/tmp/nic.err"
#define PEER_OUT	"/tmp/peer.out"
#define PEER_ERR	"/tmp/peer.err"

/* udrv-e1000e's exit statuses (examples/e1000e.md) */
#define EXIT_BAD_FRAME	1
#define EXIT_USAGE	2
#define EXIT_SETUP	3
#define EXIT_LINK	4
#define EXIT_LOST	5
#define EXIT_STALL	6
#define EXIT_GONE	7

/* the kernel's e1000e on 00:0b.0 and eth0 up with its link (the modules
 * loaded from NIC_MODULES if they are not); a SKIP without qemu/run --nic */
void peer_up(void);
/* ours on iio_pci_generic with vectors=3 (reloaded if it has others) */
void nic_bind(void);
/* whether @s starts with @prefix */
int starts(const char *s, const char *prefix);
/* nic_reflect ARGS in the background, once it listens */
pid_t peer_start(const char *args);
/* wait up to @ms for @pid: its exit status, or -1 (then killed) */
int wait_exit(pid_t pid, unsigned int ms);
/* udrv-e1000e ARGS NIC, output in OUT and ERR: its exit status */
int driver(const char *args);
/* udrv-e1000e ARGS in the background, once it has printed "run:" */
pid_t driver_start(const char *args);
/* the run id of the driver's "run:" line */
unsigned int run_id(void);
/* tell tests/nic/pcap-check (through the kernel log) to find this run whole */
void announce_run(unsigned long long count, unsigned int lo, unsigned int hi,
		  const char *way);
/* the device's "counters:" line of OUT: frames and bytes each way; it
 * fails the case unless it parses and says none missed, no CRC error */
void counters(unsigned long long *tx, unsigned long long *txb,
	      unsigned long long *rx, unsigned long long *rxb);
/* the bytes of the frames 0 .. @count - 1 of sizes @lo to @hi */
unsigned long long run_bytes(unsigned long long count, unsigned int lo,
			     unsigned int hi);
/*
 * @count frames of @lo to @hi bytes with @args on our port (bound by the
 * caller), reflected by the peer: both ends saw every frame in order and
 * whole, the device's counters agree, the run is announced for the pcap
 * check.
 */
void round_trip(const char *args, unsigned long long count, unsigned int lo,
		unsigned int hi);
/*
 * @count frames of @lo to @hi bytes from the kernel's side (nic_reflect
 * -S on eth0's raw socket, at most 128 ahead of the receiver's credits)
 * to udrv-e1000e --receive-only @args: the driver took every frame in
 * order and whole, the sender saw the credit for the last, the device's
 * counters agree; announced for the pcap check (" from the kernel").
 */
void from_kernel(const char *args, unsigned long long count, unsigned int lo,
		 unsigned int hi);
/*
 * udrv-e1000e --transmit-only @args: @count frames to the kernel's side,
 * where nic_reflect -n checks every one it takes (no echoes; with no flow
 * control it may drop some, counted); the device's counters agree;
 * announced for the pcap check (" one way"), which has them all.
 */
void to_kernel(const char *args, unsigned long long count, unsigned int lo,
	       unsigned int hi);

#endif
