// SPDX-License-Identifier: GPL-2.0-only
/* nic_test.c - see nic_test.h */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "iio_test.h"
#include "nic_test.h"

/* the kernel's e1000e on 00:0b.0 and eth0 up with its link */
void peer_up(void)
{
	char name[64], path[128];
	FILE *f;
	int i;

	if (!path_exists(NIC_MODULES "/order"))
		check_skip("no " NIC_MODULES ": not booted with qemu/run --nic");
	if (!path_exists(NIC_MODULES "/e1000e.ko"))
		check_skip("this kernel's e1000e.ko was not packed (the debug "
			   "kernels build none)");
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
			break;
		msleep(50);
	}
	if (i == 200)
		FAIL(PEER_IF " has no link after 10 s");
	/*
	 * The link watch sets operstate "up" (rfc2863_policy()) before it
	 * activates the transmit queues (dev_activate()), both under the
	 * RTNL lock; until then a frame the raw socket sends goes to the
	 * noop qdisc and is dropped with success (NET_XMIT_CN), an echo
	 * lost.  A second, idempotent "up" takes the RTNL lock after the
	 * link watch let go of it: the queues are active when it returns.
	 */
	if (shell("ip link set " PEER_IF " up"))
		FAIL("ip link set " PEER_IF " up failed");
}

/* ours on iio_pci_generic with vectors=3 (reloaded if it has others) */
void nic_bind(void)
{
	const char *param = "/sys/module/iio_pci_generic/parameters/vectors";

	if (path_exists("/sys/bus/pci/drivers/iio_pci_generic/" NIC))
		return;
	if (!path_exists(param) || strcmp(read_text(param), "3"))
		pci_generic_reload("vectors=3");
	pci_generic_bind(NIC);
	EXPECT_STREQ(read_text("/sys/bus/pci/devices/" NIC "/irq_mode"), "msix");
}

/* whether @s starts with @prefix */
int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* nic_reflect ARGS in the background, once it listens */
pid_t peer_start(const char *args)
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
	FAIL("nic_reflect did not start: %s", last_line(PEER_ERR, "(nothing)"));
}

/* wait up to @ms for @pid: its exit status, or -1 (then killed) */
int wait_exit(pid_t pid, unsigned int ms)
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

int driver(const char *args)
{
	return shell("udrv-e1000e %s " NIC " > " OUT " 2> " ERR, args);
}

/* udrv-e1000e ARGS in the background, once it has printed "run:" */
pid_t driver_start(const char *args)
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
unsigned int run_id(void)
{
	const char *at = strstr(line_of(OUT, "run: "), ", run 0x");

	if (!at)
		FAIL("no run id in \"run: %s\"", line_of(OUT, "run: "));
	return (unsigned int)strtoul(at + 8, NULL, 16);
}

/* tell tests/nic/pcap-check (through the kernel log) to find this run whole */
void announce_run(unsigned long long count, unsigned int lo, unsigned int hi,
		  const char *way)
{
	char line[160];
	int fd = MUST(open("/dev/kmsg", O_WRONLY));

	snprintf(line, sizeof(line), "nic-run: run 0x%08x count %llu size %u-%u%s\n",
		 run_id(), count, lo, hi, way);
	EXPECT(write(fd, line, strlen(line)) == (ssize_t)strlen(line));
	close(fd);
	/* in the log qemu/run keeps, where pcap-check looks (it skips, and
	 * so checks nothing, when no run is there) */
	line[strlen(line) - 1] = 0;
	EXPECT_EQ(kmsg_count(line), 1);
}

/* the bytes of the frames 0 .. @count - 1 of sizes @lo to @hi */
unsigned long long run_bytes(unsigned long long count, unsigned int lo,
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
void round_trip(const char *args, unsigned long long count, unsigned int lo,
		unsigned int hi)
{
	unsigned long long sent, back, bytes, other, tx, txb, rx, rxb, peer_other;
	unsigned long long peer_bytes;
	unsigned int missed, nobuf, crc, peer_run;
	char cmd[256], want[160];
	int status, peer_status;
	pid_t peer;

	peer_up();
	snprintf(cmd, sizeof(cmd), PEER_IF " %llu", count);
	peer = peer_start(cmd);
	snprintf(cmd, sizeof(cmd), "--count %llu --size %u-%u %s", count, lo, hi,
		 args);
	status = driver(cmd);
	peer_status = wait_exit(peer, 10000);
	if (status) {
		char err[512];

		/* last_line()'s buffer is one: the driver's line copied */
		snprintf(err, sizeof(err), "%s", last_line(ERR, "(nothing)"));
		FAIL("udrv-e1000e %s: exit %d: %s (peer: %s)", cmd, status, err,
		     last_line(PEER_ERR, "(nothing)"));
	}
	EXPECT_EQ(lines_in(ERR), 0);
	if (peer_status)
		FAIL("nic_reflect: exit %d: %s", peer_status, last_line(PEER_ERR, "(nothing)"));
	announce_run(count, lo, hi, "");
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
		   "%llu bytes, %llu other", &back, &peer_run, &peer_bytes,
		   &peer_other) != 4)
		FAIL("cannot parse the peer's \"%s\"", last_line(PEER_OUT, "(nothing)"));
	EXPECT_EQ(back, count);
	EXPECT_EQ(peer_bytes, bytes);
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


/* the device's counters line: frames and bytes each way, missed, CRC errors */
void counters(unsigned long long *tx, unsigned long long *txb,
		     unsigned long long *rx, unsigned long long *rxb)
{
	unsigned int missed, nobuf, crc;

	if (sscanf(line_of(OUT, "counters: "), "transmitted %llu frames %llu "
		   "bytes, received %llu frames %llu bytes, missed %u, no buffer "
		   "%u, CRC errors %u", tx, txb, rx, rxb, &missed, &nobuf,
		   &crc) != 7)
		FAIL("cannot parse \"counters: %s\"", line_of(OUT, "counters: "));
	EXPECT_EQ(missed, 0);
	EXPECT_EQ(crc, 0);
}

void from_kernel(const char *args, unsigned long long count, unsigned int lo,
		 unsigned int hi)
{
	unsigned long long got, bytes, other, credits, sent, sent_bytes, peer_credits;
	unsigned long long tx, txb, rx, rxb;
	unsigned int run = (unsigned int)(now_ms() * 2654435761u) | 1, got_run;
	char cmd[256], err[512];
	int status, peer_status;
	pid_t drv, peer;

	peer_up();
	snprintf(cmd, sizeof(cmd), "--receive-only --run %u --count %llu "
		 "--size %u-%u %s", run, count, lo, hi, args);
	drv = driver_start(cmd);
	snprintf(cmd, sizeof(cmd), "-S %u-%u -r %u -w 128 " PEER_IF " %llu",
		 lo, hi, run, count);
	peer = peer_start(cmd);
	/* the case's own time limit bounds it */
	status = wait_exit(drv, 3600 * 1000);
	peer_status = wait_exit(peer, 10000);
	if (status) {
		snprintf(err, sizeof(err), "%s", last_line(ERR, "(nothing)"));
		FAIL("udrv-e1000e %s: exit %d: %s (sender: %s)", cmd, status,
		     err, last_line(PEER_ERR, "(nothing)"));
	}
	EXPECT_EQ(lines_in(ERR), 0);
	if (peer_status)
		FAIL("nic_reflect -S: exit %d: %s", peer_status,
		     last_line(PEER_ERR, "(nothing)"));
	announce_run(count, lo, hi, " from the kernel");
	bytes = run_bytes(count, lo, hi);
	if (sscanf(line_of(OUT, "frames: "), "%llu received of run 0x%x, %llu "
		   "bytes, %llu other frames received, %llu credits sent", &got,
		   &got_run, &sent_bytes, &other, &credits) != 5)
		FAIL("cannot parse \"frames: %s\"", line_of(OUT, "frames: "));
	EXPECT_EQ(got, count);
	EXPECT_EQ(got_run, run);
	EXPECT_EQ(sent_bytes, bytes);
	/* the sender: every frame sent, the last credit said all were taken */
	if (sscanf(line_of(PEER_OUT, "sent "), "%llu frames of run 0x%x, %llu "
		   "bytes, %llu credits", &sent, &got_run, &sent_bytes,
		   &peer_credits) != 4)
		FAIL("cannot parse the sender's \"%s\"",
		     last_line(PEER_OUT, "(nothing)"));
	EXPECT_EQ(sent, count);
	EXPECT_EQ(got_run, run);
	EXPECT_EQ(sent_bytes, bytes);
	EXPECT(peer_credits >= 1 && peer_credits <= credits);
	/* the device: the frames and the kernel's own came in, the credits
	 * went out */
	counters(&tx, &txb, &rx, &rxb);
	EXPECT_EQ(rx, count + other);
	EXPECT(rxb >= bytes);
	EXPECT_EQ(tx, credits);
	EXPECT_EQ(txb, credits * FRAME_MIN);
	check_note("from the kernel %s: %s", args, line_of(OUT, "rate: "));
}

void to_kernel(const char *args, unsigned long long count, unsigned int lo,
	       unsigned int hi)
{
	unsigned long long sent, bytes, got, got_bytes, other, peer_other, lost;
	unsigned long long late;
	unsigned long long tx, txb, rx, rxb;
	unsigned int got_run;
	char cmd[256], err[512];
	int status, peer_status;
	pid_t peer;

	peer_up();
	snprintf(cmd, sizeof(cmd), "-n " PEER_IF " %llu 2000", count);
	peer = peer_start(cmd);
	snprintf(cmd, sizeof(cmd), "--transmit-only --count %llu --size %u-%u %s",
		 count, lo, hi, args);
	status = driver(cmd);
	peer_status = wait_exit(peer, 30000);
	if (status) {
		snprintf(err, sizeof(err), "%s", last_line(ERR, "(nothing)"));
		FAIL("udrv-e1000e %s: exit %d: %s (peer: %s)", cmd, status, err,
		     last_line(PEER_ERR, "(nothing)"));
	}
	EXPECT_EQ(lines_in(ERR), 0);
	if (peer_status)
		FAIL("nic_reflect -n: exit %d: %s", peer_status,
		     last_line(PEER_ERR, "(nothing)"));
	announce_run(count, lo, hi, " one way");
	bytes = run_bytes(count, lo, hi);
	if (sscanf(line_of(OUT, "frames: "), "%llu sent, %llu bytes, %llu other",
		   &sent, &got_bytes, &other) != 3)
		FAIL("cannot parse \"frames: %s\"", line_of(OUT, "frames: "));
	EXPECT_EQ(sent, count);
	EXPECT_EQ(got_bytes, bytes);
	/* the kernel's side: what it took came whole and once; with no flow
	 * control some may be dropped or come late (QEMU's queue); the pcap
	 * check has every frame the port sent, in order */
	if (sscanf(line_of(PEER_OUT, "took "), "%llu frames of run 0x%x, %llu "
		   "bytes, %llu other frames, %llu lost, %llu late", &got,
		   &got_run, &got_bytes, &peer_other, &lost, &late) != 6)
		FAIL("cannot parse the peer's \"%s\"",
		     last_line(PEER_OUT, "(nothing)"));
	EXPECT(got > 0);
	EXPECT_EQ(got + lost, count);
	EXPECT_EQ(got_run, run_id());
	EXPECT(got_bytes <= bytes);
	check_note("transmit-only %s: the kernel's side took %llu (%llu late), "
		   "%llu did not come", args, got, late, lost);
	counters(&tx, &txb, &rx, &rxb);
	EXPECT_EQ(tx, count);
	EXPECT_EQ(txb, bytes);
	EXPECT_EQ(rx, other);
	check_note("transmit-only %s: %s", args, line_of(OUT, "rate: "));
}
