// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_nic.c - the user-space network driver (udrv-e1000e, examples/e1000e.c)
 * on qemu/run --nic's pair, in a boot of its own (tests/run: own_boots):
 * 00:0a.0 bound to iio_pci_generic with vectors=3 for our driver, 00:0b.0
 * to the kernel's e1000e (eth0), and on eth0 the peer that sends every
 * frame back, tests/helpers/nic_reflect on a raw packet socket.  Frames
 * of 60 to 1514 bytes go from our driver through the wire to the kernel's
 * driver and back, none lost, reordered or corrupted (checked by both
 * ends here, and by tests/nic/pcap-check against QEMU's record of the
 * wire after the boot: each run whose frames must all be there is
 * announced in the kernel log), by MSI-X interrupts per queue and polled,
 * with the device's counters agreeing; then each documented failure:
 * a corrupted, lost or reordered echo (exit 1), no link (4), no peer (5),
 * the kernel's side sending to the driver (--receive-only, credited; its
 * frames checked the same way, a corrupted one exit 1, none at all 5),
 * --transmit-only to the kernel's side, and with --prebuilt (the ring's
 * frames resent: frame k on the wire is frame k mod 256, pcap-checked),
 * --receive-only --unchecked (counted, no credits) from a sender that
 * gets none,
 * a transmit ring the device stopped taking (6), the device unbound under
 * the run, interrupt-driven and polled (7), the usage and setup errors,
 * and last the port hot-unplugged under a run (device_del, 7).
 *
 * iio_test.nic_frames=N on the kernel command line (tests/run: NIC_FRAMES=N)
 * sets the frames of the four long runs (round trips and from the kernel,
 * by interrupt and polled): default 20,000 (7 to 9 s each); 1,000,000 took 200 s by interrupt and 168 s polled, at a load of
 * 11 on the shared 2-core host (examples/e1000e.md, "Measured").
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/iio_test.h"
#include "lib/nic_test.h"

/* by MSI-X: receive completions on vector 0, link on 2, none missed */
static void every_size_by_interrupt(void)
{
	unsigned long rx_wake;

	/* each size from 60 to 1514 twice */
	nic_bind();
	round_trip("", 2910, FRAME_MIN, FRAME_MAX);
	EXPECT_STREQ(line_of(OUT, "interrupts: "), "msix, 3 vectors; receive "
		     "on vector 0, transmit on vector 1, link on vector 2");
	if (sscanf(line_of(OUT, "wakeups: "), "vector 0 %lu", &rx_wake) != 1)
		FAIL("cannot parse \"wakeups: %s\"", line_of(OUT, "wakeups: "));
	EXPECT(rx_wake > 0);
	EXPECT(strstr(line_of(OUT, "nic: "), "link up at 1000 Mb/s full duplex"));
}

static void every_size_polled(void)
{
	nic_bind();
	round_trip("--poll", 1455, FRAME_MIN, FRAME_MAX);
	EXPECT(starts(line_of(OUT, "interrupts: "), "polled"));
	EXPECT_STREQ(line_of(OUT, "wakeups: "), "vector 0 0, vector 1 0, vector 2 0");
}

/* the long runs: iio_test.nic_frames each (default 20000) */
static void many_frames_by_interrupt(void)
{
	nic_bind();
	round_trip("--window 128", test_param("nic_frames", 20000), FRAME_MIN,
		   FRAME_MAX);
}

static void many_frames_polled(void)
{
	nic_bind();
	round_trip("--poll --window 128", test_param("nic_frames", 20000),
		   FRAME_MIN, FRAME_MAX);
}

/* the long runs the other way: the kernel sends (a raw socket on eth0,
 * tests/helpers/nic_reflect -S), our driver takes them, --receive-only */
static void many_frames_from_kernel_by_interrupt(void)
{
	nic_bind();
	from_kernel("", test_param("nic_frames", 20000), FRAME_MIN, FRAME_MAX);
	EXPECT(strstr(line_of(OUT, "run: "), ", receive only"));
}

static void many_frames_from_kernel_polled(void)
{
	nic_bind();
	from_kernel("--poll", test_param("nic_frames", 20000), FRAME_MIN,
		    FRAME_MAX);
}

/* --transmit-only: every size once to the kernel's side, which checks
 * each; no echo awaited, the run ends when the device sent the last */
static void transmit_only(void)
{
	nic_bind();
	to_kernel("", 1455, FRAME_MIN, FRAME_MAX);
	EXPECT(strstr(line_of(OUT, "run: "), ", transmit only"));
	EXPECT(strstr(line_of(OUT, "rate: "), " frames/s one way, "));
	to_kernel("--poll --batch 1", 300, 60, 60);
	EXPECT(starts(line_of(OUT, "doorbells: "), "300 transmit tail writes "
			"for 300 frames (1.00 per write)"));
}

/*
 * --transmit-only --prebuilt: the ring's 256 frames built once and
 * resent, so frame k on the wire is frame k % 256 as built (sequence
 * number, size, CRC, payload): the run is announced " prebuilt", and
 * tests/nic/pcap-check finds each of its 1000 frames so in QEMU's
 * record; the device's counters have them all.  Refused (usage, before
 * the device is touched) with a receiver that checks sequence numbers.
 */
static void transmit_only_prebuilt(void)
{
	unsigned long long sent, bytes, other, tx, txb, rx, rxb, want = 0, k;

	peer_up();
	nic_bind();
	EXPECT_EQ(driver("--transmit-only --prebuilt --count 1000 --size 60-1514"),
		  0);
	EXPECT_EQ(lines_in(ERR), 0);
	EXPECT(strstr(line_of(OUT, "run: "), ", transmit only, prebuilt"));
	announce_run(1000, 60, 1514, " prebuilt");
	for (k = 0; k < 1000; k++)
		want += 60 + k % 256;	/* frame k % 256's size */
	if (sscanf(line_of(OUT, "frames: "), "%llu sent, %llu bytes, %llu other",
		   &sent, &bytes, &other) != 3)
		FAIL("cannot parse \"frames: %s\"", line_of(OUT, "frames: "));
	EXPECT_EQ(sent, 1000);
	EXPECT_EQ(bytes, want);
	counters(&tx, &txb, &rx, &rxb);
	EXPECT_EQ(tx, 1000);
	EXPECT_EQ(txb, want);
	check_note("transmit-only --prebuilt: %s", line_of(OUT, "rate: "));
	EXPECT_EQ(driver("--prebuilt --count 10"), EXIT_USAGE);
	EXPECT_STREQ(last_line(ERR, "(nothing)"), "udrv-e1000e: --prebuilt "
		     "resends the ring's 256 frames, so their sequence numbers "
		     "repeat: only with --transmit-only");
	EXPECT_EQ(lines_in(ERR), 1);
	EXPECT_EQ(driver("--receive-only --prebuilt"), EXIT_USAGE);
	EXPECT_EQ(lines_in(ERR), 1);
	EXPECT_EQ(driver("--transmit-only --unchecked"), EXIT_USAGE);
	EXPECT_STREQ(last_line(ERR, "(nothing)"), "udrv-e1000e: --unchecked "
		     "counts the frames taken: only with --receive-only");
}

/* @count frames of @size bytes of run @run sent from eth0 to our port
 * (nic_reflect -S, a window of all of them: it awaits only the credit
 * for the last, which nobody sends), its exit awaited */
static void kernel_sends(unsigned int count, unsigned int size, unsigned int run)
{
	char cmd[160];
	pid_t peer;

	snprintf(cmd, sizeof(cmd), "-S %u -r %u -w %u " PEER_IF " %u 1000",
		 size, run, count, count);
	peer = peer_start(cmd);
	/* 3: no credit for the last within 1 s, as nobody credits */
	EXPECT_EQ(wait_exit(peer, 10000), 3);
}

/* the "frames:" line of an --unchecked run: received, --count, bytes */
static void unchecked_frames(unsigned long long *got, unsigned long long *count,
			     unsigned long long *bytes)
{
	unsigned long long other;

	if (sscanf(line_of(OUT, "frames: "), "%llu received of %llu, unchecked, "
		   "%llu bytes, %llu other", got, count, bytes, &other) != 4)
		FAIL("cannot parse \"frames: %s\"", line_of(OUT, "frames: "));
}

/*
 * --receive-only --unchecked: frames of the --size sizes counted, not
 * checked, no credits sent (the sender, with a window of all of them,
 * waits for a credit in vain); the run ends at --count, or when none
 * came for --timeout (a sender without flow control loses frames).
 */
static void receive_only_unchecked(void)
{
	unsigned long long got, count, bytes, tx, txb, rx, rxb;
	pid_t drv;

	peer_up();
	nic_bind();
	drv = driver_start("--receive-only --unchecked --count 200 "
			   "--size 1000 --timeout 1000");
	kernel_sends(200, 1000, 15);
	EXPECT_EQ(wait_exit(drv, 10000), 0);
	EXPECT(strstr(line_of(OUT, "run: "), ", receive only, unchecked"));
	unchecked_frames(&got, &count, &bytes);
	EXPECT_EQ(got, 200);
	EXPECT_EQ(count, 200);
	EXPECT_EQ(bytes, 200 * 1000);
	counters(&tx, &txb, &rx, &rxb);
	EXPECT_EQ(tx, 0);	/* no credits */
	/* fewer than --count: ends when none came for --timeout */
	drv = driver_start("--receive-only --unchecked --count 300 "
			   "--size 1000 --timeout 1000");
	kernel_sends(150, 1000, 17);
	EXPECT_EQ(wait_exit(drv, 10000), 0);
	unchecked_frames(&got, &count, &bytes);
	EXPECT_EQ(got, 150);
	EXPECT_EQ(count, 300);
	/* none at all: exit 5 as for a checked run */
	EXPECT_EQ(driver("--receive-only --unchecked --count 10 "
			 "--timeout 500"), EXIT_LOST);
	EXPECT_EQ(lines_in(ERR), 1);
}

/* --receive-only and no sender: exit 5, one line */
static void receive_only_no_sender_exit_5(void)
{
	peer_up();
	nic_bind();
	EXPECT_EQ(driver("--receive-only --count 10 --timeout 1000"), EXIT_LOST);
	EXPECT_STREQ(last_line(ERR, "(nothing)"), "udrv-e1000e: frame 0 not "
		     "received within 1000 ms: 0 received (lost, or no peer "
		     "sending)");
	EXPECT_EQ(lines_in(ERR), 1);
	EXPECT_EQ(driver("--receive-only --transmit-only"), EXIT_USAGE);
	EXPECT_STREQ(last_line(ERR, "(nothing)"), "udrv-e1000e: --transmit-only "
		     "and --receive-only: one or the other");
}

/* --receive-only: a frame the kernel's side sent corrupted, exit 1 */
static void receive_only_corrupted_frame_exit_1(void)
{
	pid_t drv, peer;
	int status;

	peer_up();
	nic_bind();
	drv = driver_start("--receive-only --run 0x3301 --count 200 "
			   "--size 60-1514");
	peer = peer_start("-S 60-1514 -r 0x3301 -c 57 " PEER_IF " 200 3000");
	status = wait_exit(drv, 10000);
	wait_exit(peer, 5000);
	EXPECT_EQ(status, EXIT_BAD_FRAME);
	EXPECT_STREQ(last_line(ERR, "(nothing)"), "udrv-e1000e: bad frame: "
		     "frame 57 of 117 bytes: CRC mismatch");
	EXPECT_EQ(lines_in(ERR), 1);
}

/* --batch 1: one doorbell per frame; --batch 32 --window 64: fewer */
static void doorbell_batching(void)
{
	unsigned long writes, frames;

	nic_bind();
	round_trip("--batch 1 --window 1", 300, 60, 60);
	EXPECT(starts(line_of(OUT, "doorbells: "), "300 transmit tail writes "
			"for 300 frames (1.00 per write)"));
	round_trip("--poll --batch 32 --window 128", 3200, 1514, 1514);
	if (sscanf(line_of(OUT, "doorbells: "), "%lu transmit tail writes for %lu",
		   &writes, &frames) != 2)
		FAIL("cannot parse \"doorbells: %s\"", line_of(OUT, "doorbells: "));
	EXPECT_EQ(frames, 3200);
	/* the first 128 go in 4 writes of 32; later writes carry at least 1 */
	EXPECT(writes <= 3200 - 4 * 31);
	EXPECT(writes >= 100);
}

/* a fault of the peer's making: the driver's exit status and one line */
static void bad_echo(const char *fault, const char *args, const char *message)
{
	char cmd[128];
	pid_t peer;
	int status;

	peer_up();
	nic_bind();
	snprintf(cmd, sizeof(cmd), "%s " PEER_IF " 200 3000", fault);
	peer = peer_start(cmd);
	status = driver(args);
	wait_exit(peer, 5000);
	EXPECT_EQ(status, EXIT_BAD_FRAME);
	EXPECT_EQ(lines_in(ERR), 1);
	if (!strstr(last_line(ERR, "(nothing)"), message))
		FAIL("udrv-e1000e said \"%s\", not \"%s\"", last_line(ERR, "(nothing)"), message);
}

static void corrupted_echo_exit_1(void)
{
	bad_echo("-c 57", "--count 200 --size 60-1514",
		 "udrv-e1000e: bad frame: echo 57 of 117 bytes: CRC mismatch");
}

static void lost_echo_exit_1(void)
{
	bad_echo("-d 10", "--count 200 --poll",
		 "udrv-e1000e: bad frame: echo 11 came when 10 was due (out of "
		 "order or lost)");
}

static void reordered_echo_exit_1(void)
{
	bad_echo("-s 20", "--count 200",
		 "udrv-e1000e: bad frame: echo 21 came when 20 was due");
}

/* no peer: the first frame does not come back within --timeout */
static void no_peer_exit_5(void)
{
	unsigned long long t0;

	peer_up();
	nic_bind();
	t0 = now_ms();
	EXPECT_EQ(driver("--count 10 --timeout 1000"), EXIT_LOST);
	EXPECT(now_ms() - t0 < 8000);
	EXPECT_STREQ(last_line(ERR, "(nothing)"), "udrv-e1000e: frame 0 not back within "
		     "1000 ms: 10 sent, 0 back (lost, or no peer answering)");
	EXPECT_EQ(lines_in(ERR), 1);
}

/* the link off (QEMU's monitor): no link after reset, exit 4; lost in
 * the middle of a run, exit 4 too */
static void link_down_exit_4(void)
{
	pid_t drv, peer;
	int status;

	peer_up();
	nic_bind();
	EXPECT_STREQ(qemu_monitor("set_link nic0 off"), "");
	EXPECT_EQ(driver("--count 10 --timeout 1500"), EXIT_LINK);
	EXPECT(starts(last_line(ERR, "(nothing)"), "udrv-e1000e: link down: no link within "
			"1500 ms (STATUS 0x"));
	EXPECT_EQ(lines_in(ERR), 1);
	EXPECT_STREQ(qemu_monitor("set_link nic0 on"), "");
	peer = peer_start(PEER_IF " 100000000 5000");
	drv = driver_start("--count 100000000");
	msleep(300);
	EXPECT_STREQ(qemu_monitor("set_link nic0 off"), "");
	status = wait_exit(drv, 10000);
	kill(peer, SIGKILL);
	wait_exit(peer, 1000);
	EXPECT_STREQ(qemu_monitor("set_link nic0 on"), "");
	EXPECT_EQ(status, EXIT_LINK);
	EXPECT(starts(last_line(ERR, "(nothing)"), "udrv-e1000e: link down during the run "
			"(STATUS 0x"));
	EXPECT_EQ(lines_in(ERR), 1);
}

/*
 * Another program clears TCTL.EN under the run (iioctl, which takes no
 * claim): the device takes no more transmit descriptors, exit 6.
 */
static void stopped_transmitter_exit_6(void)
{
	pid_t drv, peer;
	int status;

	peer_up();
	nic_bind();
	peer = peer_start(PEER_IF " 100000000 5000");
	drv = driver_start("--count 100000000 --timeout 1000");
	msleep(300);
	EXPECT_EQ(shell("iioctl poke " NIC "/bar0 0x400 0 -w 4"), 0);
	status = wait_exit(drv, 10000);
	kill(peer, SIGKILL);
	wait_exit(peer, 1000);
	EXPECT_EQ(status, EXIT_STALL);
	EXPECT(starts(last_line(ERR, "(nothing)"), "udrv-e1000e: ring stall: the device "
			"took no transmit descriptor for "));
	EXPECT_EQ(lines_in(ERR), 1);
}

/* unbound mid-stream: exit 7, one line; bound again, it works */
static void unbind_under_run(const char *args, bool poll)
{
	pid_t drv, peer;
	int status;

	peer_up();
	nic_bind();
	peer = peer_start(PEER_IF " 100000000 5000");
	drv = driver_start(args);
	msleep(300);
	pci_generic_unbind(NIC);
	status = wait_exit(drv, 10000);
	kill(peer, SIGKILL);
	wait_exit(peer, 1000);
	EXPECT_EQ(status, EXIT_GONE);
	EXPECT(starts(last_line(ERR, "(nothing)"), "udrv-e1000e: device gone"));
	EXPECT_EQ(lines_in(ERR), 1);
	check_note("%s", last_line(ERR, "(nothing)"));
	nic_bind();
	round_trip(poll ? "--poll" : "", 100, 60, 1514);
}

static void unbind_mid_stream_interrupt(void)
{
	unbind_under_run("--count 100000000", false);
}

static void unbind_mid_stream_polled(void)
{
	unbind_under_run("--poll --count 100000000", true);
}

/* usage and setup: one line each, the documented status */
static void usage_and_setup_errors(void)
{
	EXPECT_EQ(driver("--size 59"), EXIT_USAGE);
	EXPECT_STREQ(last_line(ERR, "(nothing)"), "udrv-e1000e: --size needs a number from "
		     "60 to 1514, not \"59\"");
	EXPECT_EQ(driver("--size 1000-100"), EXIT_USAGE);
	EXPECT_EQ(driver("--batch 256"), EXIT_USAGE);
	EXPECT_EQ(driver("--window 0"), EXIT_USAGE);
	/* no driver: the program binds nothing itself */
	if (path_exists("/sys/bus/pci/drivers/iio_pci_generic/" NIC))
		pci_generic_unbind(NIC);
	EXPECT_EQ(driver(""), EXIT_SETUP);
	EXPECT_EQ(lines_in(ERR), 1);
	EXPECT(!path_exists("/sys/bus/pci/drivers/iio_pci_generic/" NIC));
	/* bound, but not an 82574L */
	pci_generic_bind("0000:00:13.0");
	EXPECT_EQ(shell("udrv-e1000e 0000:00:13.0 > " OUT " 2> " ERR), EXIT_SETUP);
	EXPECT_STREQ(last_line(ERR, "(nothing)"), "udrv-e1000e: 0000:00:13.0 is not an Intel "
		     "82574L (8086:10d3): 1234:11e8");
	pci_generic_unbind("0000:00:13.0");
	/* INTx (no vectors=): the driver says what it needs */
	pci_generic_reload("");
	pci_generic_bind(NIC);
	EXPECT_EQ(driver("--count 1"), EXIT_SETUP);
	EXPECT_STREQ(last_line(ERR, "(nothing)"), "udrv-e1000e: " NIC ": interrupt mode intx "
		     "with 1 vector: the driver needs MSI-X with 3 vectors "
		     "(iio_pci_generic vectors=3) or --poll");
	pci_generic_unbind(NIC);
}

/*
 * The port hot-unplugged under a run (QEMU's device_del, ACPI ejection):
 * exit 7, one line, the kernel log clean.  Last: the port is gone for
 * the rest of the boot.
 */
static void device_del_mid_stream(void)
{
	pid_t drv, peer;
	int status;

	peer_up();
	nic_bind();
	peer = peer_start(PEER_IF " 100000000 5000");
	drv = driver_start("--count 100000000");
	msleep(300);
	EXPECT_STREQ(qemu_monitor("device_del nic0"), "");
	EXPECT_EQ(wait_path("/sys/bus/pci/devices/" NIC, 0, 20000), 0);
	status = wait_exit(drv, 10000);
	kill(peer, SIGKILL);
	wait_exit(peer, 1000);
	EXPECT_EQ(status, EXIT_GONE);
	EXPECT(starts(last_line(ERR, "(nothing)"), "udrv-e1000e: device gone"));
	EXPECT_EQ(lines_in(ERR), 1);
	check_note("%s", last_line(ERR, "(nothing)"));
}

static const struct check_case cases[] = {
	CASE_T(every_size_by_interrupt, 120),
	CASE_T(every_size_polled, 120),
	CASE_T(doorbell_batching, 120),
	CASE_T(corrupted_echo_exit_1, 60),
	CASE_T(lost_echo_exit_1, 60),
	CASE_T(reordered_echo_exit_1, 60),
	CASE_T(no_peer_exit_5, 60),
	CASE_T(link_down_exit_4, 60),
	CASE_T(stopped_transmitter_exit_6, 60),
	CASE_T(unbind_mid_stream_interrupt, 60),
	CASE_T(unbind_mid_stream_polled, 60),
	CASE_T(many_frames_by_interrupt, 900),
	CASE_T(many_frames_polled, 900),
	CASE_T(many_frames_from_kernel_by_interrupt, 900),
	CASE_T(many_frames_from_kernel_polled, 900),
	CASE_T(transmit_only, 120),
	CASE_T(transmit_only_prebuilt, 60),
	CASE_T(receive_only_unchecked, 60),
	CASE_T(receive_only_no_sender_exit_5, 60),
	CASE_T(receive_only_corrupted_frame_exit_1, 60),
	CASE(usage_and_setup_errors),
	CASE_T(device_del_mid_stream, 60),
};
CHECK_MAIN(cases)
