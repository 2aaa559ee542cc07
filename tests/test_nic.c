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
 * a transmit ring the device stopped taking (6), the device unbound under
 * the run, interrupt-driven and polled (7), and the usage and setup errors.
 *
 * iio_test.nic_frames=N on the kernel command line sets the frames of
 * the two long runs (default 20000 each; the 1,000,000 takes
 * about 15 minutes each at this machine's TCG speed, see examples/e1000e.md).
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

#include "../examples/e1000e_frame.h"
#include "lib/iio_test.h"

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

/* the kernel's e1000e on 00:0b.0 and eth0 up with its link */
static void peer_up(void)
{
	char name[64], path[128];
	FILE *f;
	int i;

	if (!path_exists(NIC_MODULES "/order"))
		check_skip("no " NIC_MODULES ": not booted with qemu/run --nic");
	if (!path_exists("/sys/bus/pci/drivers/e1000e")) {
		f = fopen(NIC_MODULES "/order", "r");
		if (!f)
			FAIL("%s/order: %s", NIC_MODULES, strerror(errno));
		while (fscanf(f, "%63s", name) == 1) {
			snprintf(path, sizeof(path), NIC_MODULES "/%s", name);
			if (shell("insmod %s", path))
				FAIL("insmod %s failed", path);
		}
		fclose(f);
	}
	EXPECT(path_exists("/sys/bus/pci/drivers/e1000e/" PEER_PCI));
	/* ours is left alone by the kernel's driver (qemu/init: none) */
	EXPECT(!path_exists("/sys/bus/pci/drivers/e1000e/" NIC));
	if (shell("ip link set " PEER_IF " up"))
		FAIL("ip link set " PEER_IF " up failed");
	for (i = 0; i < 200; i++) {
		if (!strcmp(read_text("/sys/class/net/" PEER_IF "/operstate"), "up"))
			return;
		msleep(50);
	}
	FAIL(PEER_IF " has no link after 10 s");
}

/* ours on iio_pci_generic with vectors=3 (reloaded if it has others) */
static void nic_bind(void)
{
	const char *param = "/sys/module/iio_pci_generic/parameters/vectors";

	if (path_exists("/sys/bus/pci/drivers/iio_pci_generic/" NIC))
		return;
	if (!path_exists(param) || strcmp(read_text(param), "3"))
		pci_generic_reload("vectors=3");
	pci_generic_bind(NIC);
	EXPECT_STREQ(read_text("/sys/bus/pci/devices/" NIC "/irq_mode"), "msix");
}

/* the rest of the first line of @file starting with @prefix (static) */
static const char *line_of(const char *file, const char *prefix)
{
	static char buf[512];
	char line[512];
	FILE *f = fopen(file, "r");

	if (!f)
		FAIL("no %s", file);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, prefix, strlen(prefix))) {
			fclose(f);
			line[strcspn(line, "\n")] = 0;
			snprintf(buf, sizeof(buf), "%s", line + strlen(prefix));
			return buf;
		}
	}
	fclose(f);
	FAIL("%s has no line \"%s...\"", file, prefix);
}

/* the last line of @file (static), for messages */
static const char *last_line(const char *file)
{
	static char buf[512];
	char line[512];
	FILE *f = fopen(file, "r");

	buf[0] = 0;
	if (!f)
		return "(none)";
	while (fgets(line, sizeof(line), f))
		snprintf(buf, sizeof(buf), "%s", line);
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return buf[0] ? buf : "(nothing)";
}

/* whether @s starts with @prefix */
static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static int lines_in(const char *file)
{
	char line[512];
	FILE *f = fopen(file, "r");
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n++;
	fclose(f);
	return n;
}

/* nic_reflect ARGS in the background, once it listens */
static pid_t peer_start(const char *args)
{
	char cmd[256];
	pid_t pid;
	int i;

	snprintf(cmd, sizeof(cmd), "exec /tests/helpers/nic_reflect %s > "
		 PEER_OUT " 2> " PEER_ERR, args);
	unlink(PEER_OUT);
	pid = fork();
	if (pid < 0)
		FAIL("fork: %s", strerror(errno));
	if (!pid) {
		execlp("sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	for (i = 0; i < 200; i++) {
		if (!shell("grep -q '^ready' " PEER_OUT " 2>/dev/null"))
			return pid;
		msleep(50);
	}
	kill(pid, SIGKILL);
	FAIL("nic_reflect did not start: %s", last_line(PEER_ERR));
}

/* wait up to @ms for @pid: its exit status, or -1 (then killed) */
static int wait_exit(pid_t pid, unsigned int ms)
{
	unsigned int i;
	int status;

	for (i = 0; i <= ms / 20; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) :
						   128 + WTERMSIG(status);
		msleep(20);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

static int driver(const char *args)
{
	return shell("udrv-e1000e %s " NIC " > " OUT " 2> " ERR, args);
}

/* udrv-e1000e ARGS in the background, once it has printed "run:" */
static pid_t driver_start(const char *args)
{
	char cmd[256];
	pid_t pid;
	int i;

	unlink(OUT);
	snprintf(cmd, sizeof(cmd), "exec udrv-e1000e %s " NIC " > " OUT
		 " 2> " ERR, args);
	pid = fork();
	if (pid < 0)
		FAIL("fork: %s", strerror(errno));
	if (!pid) {
		execlp("sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	for (i = 0; i < 500 && shell("grep -q '^run:' " OUT " 2>/dev/null"); i++)
		msleep(20);
	return pid;
}

/* the run id of the driver's "run:" line */
static unsigned int run_id(void)
{
	const char *at = strstr(line_of(OUT, "run: "), ", run 0x");

	if (!at)
		FAIL("no run id in \"run: %s\"", line_of(OUT, "run: "));
	return (unsigned int)strtoul(at + 8, NULL, 16);
}

/* tell tests/nic/pcap-check (through the kernel log) to find this run whole */
static void announce_run(unsigned long long count, unsigned int lo,
			 unsigned int hi)
{
	char line[128];
	int fd = MUST(open("/dev/kmsg", O_WRONLY));

	snprintf(line, sizeof(line), "nic-run: run 0x%08x count %llu size %u-%u\n",
		 run_id(), count, lo, hi);
	EXPECT(write(fd, line, strlen(line)) == (ssize_t)strlen(line));
	close(fd);
}

/* the bytes of the frames 0 .. @count - 1 of sizes @lo to @hi */
static unsigned long long run_bytes(unsigned long long count, unsigned int lo,
				    unsigned int hi)
{
	unsigned long long k, sum = 0;

	for (k = 0; k < count; k++)
		sum += lo + k % (hi - lo + 1);
	return sum;
}

/*
 * @count frames of @lo to @hi bytes with @args, reflected by the peer:
 * both ends saw every frame in order and whole, the device's counters
 * agree, the run is announced for the pcap check.
 */
static void round_trip(const char *args, unsigned long long count,
		       unsigned int lo, unsigned int hi)
{
	unsigned long long sent, back, bytes, other, tx, txb, rx, rxb, peer_other;
	unsigned int missed, nobuf, crc, peer_run;
	char cmd[256], want[160];
	int status, peer_status;
	pid_t peer;

	peer_up();
	nic_bind();
	snprintf(cmd, sizeof(cmd), PEER_IF " %llu", count);
	peer = peer_start(cmd);
	snprintf(cmd, sizeof(cmd), "--count %llu --size %u-%u %s", count, lo, hi,
		 args);
	status = driver(cmd);
	peer_status = wait_exit(peer, 10000);
	if (status)
		FAIL("udrv-e1000e %s: exit %d: %s (peer: %s)", cmd, status,
		     last_line(ERR), last_line(PEER_ERR));
	EXPECT_EQ(lines_in(ERR), 0);
	if (peer_status)
		FAIL("nic_reflect: exit %d: %s", peer_status, last_line(PEER_ERR));
	announce_run(count, lo, hi);
	bytes = run_bytes(count, lo, hi);
	if (sscanf(line_of(OUT, "frames: "), "%llu sent, %llu back, %*u bytes "
		   "each way, %llu other", &sent, &back, &other) != 3)
		FAIL("cannot parse \"frames: %s\"", line_of(OUT, "frames: "));
	EXPECT_EQ(sent, count);
	EXPECT_EQ(back, count);
	snprintf(want, sizeof(want), "%llu sent, %llu back, %llu bytes each way",
		 count, count, bytes);
	EXPECT(starts(line_of(OUT, "frames: "), want));
	/* the peer reflected the same run, every frame checked there too */
	if (sscanf(line_of(PEER_OUT, "reflected "), "%llu frames of run 0x%x, "
		   "%*u bytes, %llu other", &back, &peer_run, &peer_other) != 3)
		FAIL("cannot parse the peer's \"%s\"", last_line(PEER_OUT));
	EXPECT_EQ(back, count);
	EXPECT_EQ(peer_run, run_id());
	/* the device's counters: every frame sent went out once; what came
	 * in is the echoes and the kernel's own frames the driver counted */
	if (sscanf(line_of(OUT, "counters: "), "transmitted %llu frames %llu "
		   "bytes, received %llu frames %llu bytes, missed %u, no buffer "
		   "%u, CRC errors %u", &tx, &txb, &rx, &rxb, &missed, &nobuf,
		   &crc) != 7)
		FAIL("cannot parse \"counters: %s\"", line_of(OUT, "counters: "));
	EXPECT_EQ(tx, count);
	EXPECT_EQ(txb, bytes);
	EXPECT_EQ(rx, count + other);
	EXPECT(rxb >= bytes);
	EXPECT_EQ(missed, 0);
	EXPECT_EQ(crc, 0);
	check_note("%s: %s", args[0] ? args : "interrupt", line_of(OUT, "rate: "));
	check_note("%s", line_of(OUT, "doorbells: "));
}

/* by MSI-X: receive completions on vector 0, link on 2, none missed */
static void every_size_by_interrupt(void)
{
	unsigned long rx_wake;

	/* each size from 60 to 1514 twice */
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
	round_trip("--poll", 1455, FRAME_MIN, FRAME_MAX);
	EXPECT(starts(line_of(OUT, "interrupts: "), "polled"));
	EXPECT_STREQ(line_of(OUT, "wakeups: "), "vector 0 0, vector 1 0, vector 2 0");
}

/* the long runs: iio_test.nic_frames each (default 20000) */
static void many_frames_by_interrupt(void)
{
	round_trip("--window 128", test_param("nic_frames", 20000), FRAME_MIN,
		   FRAME_MAX);
}

static void many_frames_polled(void)
{
	round_trip("--poll --window 128", test_param("nic_frames", 20000),
		   FRAME_MIN, FRAME_MAX);
}

/* --batch 1: one doorbell per frame; --batch 32 --window 64: fewer */
static void doorbell_batching(void)
{
	unsigned long writes, frames;

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
	if (!strstr(last_line(ERR), message))
		FAIL("udrv-e1000e said \"%s\", not \"%s\"", last_line(ERR), message);
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
	EXPECT_STREQ(last_line(ERR), "udrv-e1000e: frame 0 not back within "
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
	EXPECT(starts(last_line(ERR), "udrv-e1000e: link down: no link within "
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
	EXPECT(starts(last_line(ERR), "udrv-e1000e: link down during the run "
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
	EXPECT(starts(last_line(ERR), "udrv-e1000e: ring stall: the device "
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
	EXPECT(starts(last_line(ERR), "udrv-e1000e: device gone"));
	EXPECT_EQ(lines_in(ERR), 1);
	check_note("%s", last_line(ERR));
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
	EXPECT_STREQ(last_line(ERR), "udrv-e1000e: --size needs a number from "
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
	EXPECT_STREQ(last_line(ERR), "udrv-e1000e: 0000:00:13.0 is not an Intel "
		     "82574L (8086:10d3): 1234:11e8");
	pci_generic_unbind("0000:00:13.0");
	/* INTx (no vectors=): the driver says what it needs */
	pci_generic_reload("");
	pci_generic_bind(NIC);
	EXPECT_EQ(driver("--count 1"), EXIT_SETUP);
	EXPECT_STREQ(last_line(ERR), "udrv-e1000e: " NIC ": interrupt mode intx "
		     "with 1 vector: the driver needs MSI-X with 3 vectors "
		     "(iio_pci_generic vectors=3) or --poll");
	pci_generic_unbind(NIC);
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
	CASE_T(many_frames_by_interrupt, 1800),
	CASE_T(many_frames_polled, 1800),
	CASE(usage_and_setup_errors),
};
CHECK_MAIN(cases)
