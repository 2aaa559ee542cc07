// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_nvme.c - the user-space NVMe driver (udrv-nvme (examples/nvme.c)) on QEMU's
 * nvme (00:1a.0, serial iio-nvme-0001 and the image of tests/nvme/mkimage,
 * see qemu/run), bound to iio_pci_generic with vectors=4: the Identify
 * strings are QEMU's, the blocks read equal the image, 1000 reads complete
 * on MSI-X vector 1 and on no other, polling takes no interrupt, and
 * unbinding under a blocked reader and a running driver gives EIO and a
 * clear error, and the controller works again after it.  At depth: a
 * verify of the whole namespace at depth 32 on two queues (interrupts on
 * vectors 1 and 2, several commands per doorbell, the data compared by
 * the test too), PRP lists for 128 KiB commands, the limits of depth and
 * queues, failed commands reported while the run goes on, a fatal
 * controller status and a lost interrupt ending the run with their exit
 * statuses, and unbinding under a perf run, interrupt-driven and polled.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/iio_test.h"
#include "lib/nvme_test.h"

#define NVME_SERIAL	"iio-nvme-0001"		/* qemu/run's serial= */
#define NVME_MODEL	"QEMU NVMe Ctrl"	/* fixed in QEMU */
#define IMG_BYTES	(1024 * 1024)		/* tests/nvme/mkimage's default */

/* the image's 8-byte word at @off (tests/nvme/mkimage) */
static uint64_t image_word(uint64_t off)
{
	return 0x654d564e00000000ull | (off / 512) << 8 | (off % 512 / 8);
}

static void identify_strings_are_qemus(void)
{
	int nr = nvme_bind();

	EXPECT_STREQ(read_text("/sys/bus/pci/devices/" NVME_PCI "/irq_mode"),
		     "msix");
	EXPECT_EQ(read_num(iio_attr_path(nr, "vectors")), NVME_VECTORS);
	nvme_driver_ok("");
	EXPECT_STREQ(nvme_out_line("model: "), NVME_MODEL);
	EXPECT_STREQ(nvme_out_line("serial: "), NVME_SERIAL);
	EXPECT_STREQ(nvme_out_line("namespace 1: "),
		     "2048 blocks of 512 bytes (1048576 bytes)");
	check_note("%s", nvme_out_line("controller: "));
	nvme_unbind();
}

/*
 * Only vector 0 takes writes: the others fail with EOPNOTSUPP (over 64
 * bytes: EINVAL first).
 */
static void write_to_vector_1_is_eopnotsupp(void)
{
	static char big[65];
	uint32_t one = 1;
	int nr = nvme_bind(), fd;

	fd = MUST(open(iio_node(nr, "_event1"), O_RDWR));
	EXPECT_ERRNO(write(fd, &one, 4), EOPNOTSUPP);
	EXPECT_ERRNO(write(fd, big, sizeof(big)), EINVAL);
	MUST(close(fd));
	nvme_unbind();
}

/* a block written, read back and restored; every block read = the image */
static void block_read_back_equals_file(void)
{
	static uint8_t got[IMG_BYTES];
	uint64_t off, w;
	int fd;

	nvme_bind();
	nvme_driver_ok("--write 7 --check --reads 256 --save /tmp/nvme.img");
	EXPECT_STREQ(nvme_out_line("write: "), "block 7 written, read back, restored");
	EXPECT_STREQ(nvme_out_line("reads: "), "256 x 4096 bytes, 0 mismatches");
	/* the test's own comparison of what was read with the image */
	fd = MUST(open("/tmp/nvme.img", O_RDONLY));
	EXPECT_EQ(read(fd, got, sizeof(got)), IMG_BYTES);
	close(fd);
	for (off = 0; off < IMG_BYTES; off += 8) {
		memcpy(&w, got + off, 8);
		if (w != image_word(off))
			FAIL("byte %llu read 0x%016llx, the image has 0x%016llx",
			     (unsigned long long)off, (unsigned long long)w,
			     (unsigned long long)image_word(off));
	}
	unlink("/tmp/nvme.img");
	nvme_unbind();
}

/* I/O completions on vector 1 only, admin ones on vector 0 only */
static void thousand_reads_on_vector_1(void)
{
	unsigned long admin, io;
	int nr = nvme_bind(), k, fds[NVME_VECTORS];

	nvme_open_vectors(nr, fds);
	for (k = 0; k < NVME_VECTORS; k++)
		EXPECT_EQ(nvme_vector_count(nr, k, fds[k]), 0);
	nvme_driver_ok("--reads 1000");
	nvme_parse_commands(&admin, &io);
	EXPECT_EQ(io, 1000);
	EXPECT_EQ(nvme_vector_count(nr, 1, fds[1]), io);
	EXPECT_EQ(nvme_vector_count(nr, 0, fds[0]), admin);
	for (k = 2; k < NVME_VECTORS; k++)
		EXPECT_EQ(nvme_vector_count(nr, k, fds[k]), 0);
	check_note("interrupt: %s", nvme_out_line("rate: "));
	nvme_unbind();
}

/* --poll: the I/O CQ has no interrupt; vector 1 stays silent */
static void polling_takes_no_interrupt(void)
{
	unsigned long admin, io;
	int nr = nvme_bind(), fds[NVME_VECTORS];

	nvme_open_vectors(nr, fds);
	nvme_driver_ok("--poll --reads 1000 --check");
	nvme_parse_commands(&admin, &io);
	EXPECT_EQ(io, 1000);
	EXPECT_STREQ(nvme_out_line("reads: "), "1000 x 4096 bytes, 0 mismatches");
	EXPECT_EQ(nvme_vector_count(nr, 0, fds[0]), admin);
	EXPECT_EQ(nvme_vector_count(nr, 1, fds[1]), 0);
	check_note("polling: %s", nvme_out_line("rate: "));
	nvme_unbind();
}

/*
 * A child reading @efd until a read fails: exits 0 if that is EIO.  On
 * vector 1 it sees the driver's completions until the unbind, on vector 2
 * it is blocked from the start.
 */
static pid_t blocked_reader(int efd)
{
	pid_t pid = fork();
	uint32_t c;

	if (pid < 0)
		FAIL("fork: %s", strerror(errno));
	if (!pid) {
		while (read(efd, &c, sizeof(c)) == sizeof(c))
			;
		_exit(errno == EIO ? 0 : 1);
	}
	return pid;
}

/* wait up to @ms for @pid; its status, or -1 if it is still running */
static int wait_exit(pid_t pid, unsigned int ms)
{
	unsigned int i;
	int status;

	for (i = 0; i <= ms / 50; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) :
						   128 + WTERMSIG(status);
		msleep(50);
	}
	return -1;
}

/*
 * Start udrv-nvme ARGS on the controller in the background (its output in
 * NVME_OUT and NVME_ERR) and return once it printed a line starting with
 * @started (or after 10 s, whatever happens: the caller unbinds before
 * judging it), and 300 ms more, well into its commands.
 */
static pid_t start_driver(const char *args, const char *started)
{
	char cmd[256];
	pid_t drv;
	int i;

	snprintf(cmd, sizeof(cmd), "exec udrv-nvme %s " NVME_PCI " > "
		 NVME_OUT " 2> " NVME_ERR, args);
	drv = fork();
	if (drv < 0)
		FAIL("fork: %s", strerror(errno));
	if (!drv) {
		execlp("sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	snprintf(cmd, sizeof(cmd), "grep -q '^%s' " NVME_OUT " 2>/dev/null",
		 started);
	for (i = 0; i < 100 && shell(cmd); i++)
		msleep(100);
	msleep(300);
	return drv;
}

/*
 * The driver unbound under it (@early: its exit status if it had already
 * ended before the unbind, else -1; @status: its exit status after)
 * exited "device gone" with one line; bound again, the controller (left
 * enabled, its queues in freed memory) is reset by the driver and works.
 */
static void expect_gone_then_works(int early, int status)
{
	if (early >= 0)
		FAIL("the driver ended before the unbind: exit %d: %s", early,
		     nvme_driver_err());
	if (status != EXIT_GONE)
		FAIL("driver exit %d, want %d: %s", status, EXIT_GONE,
		     nvme_driver_err());
	EXPECT(strstr(nvme_driver_err(), "udrv-nvme: device gone") == nvme_driver_err());
	EXPECT_EQ(shell("[ $(wc -l < " NVME_ERR ") = 1 ]"), 0);
	check_note("%s", nvme_driver_err());
	nvme_bind();
	nvme_driver_ok("--reads 10 --check");
	EXPECT_STREQ(nvme_out_line("reads: "), "10 x 4096 bytes, 0 mismatches");
	nvme_unbind();
}

/*
 * Unbind while a reader is blocked on vector 1 and the driver is reading:
 * the reader gets EIO, the driver exits "device gone" with one line, the
 * kernel log stays clean; bound again, the controller (left enabled, its
 * queues in freed memory) is reset by the driver and works.
 */
static void unbind_under_blocked_reader(void)
{
	int nr = nvme_bind(), efd, efd2, early, reader_status, drv_status;
	int reader2_status;
	pid_t reader, reader2, drv;

	efd = MUST(open(iio_node(nr, "_event1"), O_RDONLY));
	efd2 = MUST(open(iio_node(nr, "_event2"), O_RDONLY));
	reader = blocked_reader(efd);
	reader2 = blocked_reader(efd2);
	drv = start_driver("--reads 1000000", "interrupts:");
	early = wait_exit(drv, 0);
	nvme_unbind();
	reader_status = wait_exit(reader, 5000);
	reader2_status = wait_exit(reader2, 5000);
	drv_status = early >= 0 ? early : wait_exit(drv, 10000);
	if (reader_status < 0 || reader2_status < 0 || drv_status < 0) {
		kill(reader, SIGKILL);
		kill(reader2, SIGKILL);
		kill(drv, SIGKILL);
	}
	close(efd);
	close(efd2);
	EXPECT_EQ(reader_status, 0);		/* EIO */
	EXPECT_EQ(reader2_status, 0);
	expect_gone_then_works(early, drv_status);
}

/* the rate and latency lines of a perf run of @what, as a note */
static void note_rate(const char *what)
{
	char rate[256];

	snprintf(rate, sizeof(rate), "%s", nvme_out_line("rate: "));
	check_note("%s: %s; %s", what, rate, nvme_out_line("latency: "));
}

/* the numbers of the line "doorbells: X SQ doorbell writes for Y commands" */
static void parse_doorbells(unsigned long *writes, unsigned long *commands)
{
	if (sscanf(nvme_out_line("doorbells: "), "%lu SQ doorbell writes for %lu",
		   writes, commands) != 2)
		FAIL("cannot parse \"doorbells: %s\"", nvme_out_line("doorbells: "));
}

/* the 4 KiB blocks in @file (--save) must hold verify's pattern @seed */
static void expect_pattern_in(const char *file, uint64_t seed)
{
	static uint8_t got[IMG_BYTES];
	uint64_t off, w, want;
	int fd;

	fd = MUST(open(file, O_RDONLY));
	EXPECT_EQ(read(fd, got, sizeof(got)), IMG_BYTES);
	close(fd);
	unlink(file);
	for (off = 0; off < IMG_BYTES; off += 8) {
		memcpy(&w, got + off, 8);
		want = image_word(off) ^ (seed * 0x9e3779b97f4a7c15ull);
		if (w != want)
			FAIL("byte %llu read 0x%016llx, pattern %llu has 0x%016llx",
			     (unsigned long long)off, (unsigned long long)w,
			     (unsigned long long)seed, (unsigned long long)want);
	}
}

/*
 * verify: the pattern written over the whole namespace at depth 32 on
 * queues 1 and 2 and read back; each queue's interrupts on its own
 * vector; the first 32 commands of each queue and phase under one
 * doorbell write; the disk then holds the pattern, as the test computes
 * it; the test image written back the same way.
 */
static void verify_depth_32_two_queues(void)
{
	unsigned long admin, io, writes, commands;
	int nr = nvme_bind(), fds[NVME_VECTORS];

	nvme_open_vectors(nr, fds);
	nvme_driver_ok("--workload verify --depth 32 --queues 2 --seed 7");
	EXPECT_STREQ(nvme_out_line("perf: "), "verify, 4096-byte I/Os, depth 32, "
		     "2 queues, interrupt, whole namespace, seed 7");
	EXPECT_STREQ(nvme_out_line("verify: "),
		     "256 x 4096 bytes written and read back, 0 mismatches");
	EXPECT_STREQ(nvme_out_line("ios: "), "512, failed 0");
	nvme_parse_commands(&admin, &io);
	EXPECT_EQ(io, 512);
	parse_doorbells(&writes, &commands);
	EXPECT_EQ(commands, 512);
	/* 2 queues x 2 phases: 32 commands in one write each at least */
	EXPECT(writes <= commands - 4 * 31);
	EXPECT(nvme_vector_count(nr, 1, fds[1]) > 0);
	EXPECT(nvme_vector_count(nr, 2, fds[2]) > 0);
	EXPECT_EQ(nvme_vector_count(nr, 3, fds[3]), 0);
	note_rate("verify");
	/* what is on the disk now, read one block at a time */
	nvme_driver_ok("--reads 256 --save /tmp/nvme.pat");
	expect_pattern_in("/tmp/nvme.pat", 7);
	/* the image back: verify of seed 0, polled */
	nvme_driver_ok("--poll --workload verify --depth 32 --queues 2 --seed 0");
	EXPECT_STREQ(nvme_out_line("verify: "),
		     "256 x 4096 bytes written and read back, 0 mismatches");
	nvme_driver_ok("--reads 256 --check");
	EXPECT_STREQ(nvme_out_line("reads: "), "256 x 4096 bytes, 0 mismatches");
	nvme_unbind();
}

/*
 * 128 KiB commands (PRP2 a list of 31 pages) and 8 KiB ones (PRP2 the
 * second page): what they write is where single 4 KiB reads find it.
 */
static void prp_lists_128k(void)
{
	nvme_bind();
	nvme_driver_ok("--workload verify --depth 4 --queues 2 --size 131072 --seed 9");
	EXPECT_STREQ(nvme_out_line("verify: "),
		     "8 x 131072 bytes written and read back, 0 mismatches");
	nvme_driver_ok("--reads 256 --save /tmp/nvme.pat");
	expect_pattern_in("/tmp/nvme.pat", 9);
	nvme_driver_ok("--workload verify --depth 8 --size 8192 --seed 11");
	nvme_driver_ok("--reads 256 --save /tmp/nvme.pat");
	expect_pattern_in("/tmp/nvme.pat", 11);
	nvme_driver_ok("--workload verify --depth 4 --size 131072 --seed 0");
	nvme_driver_ok("--reads 256 --check");
	EXPECT_STREQ(nvme_out_line("reads: "), "256 x 4096 bytes, 0 mismatches");
	nvme_unbind();
}

/* a perf run of each workload, polled and not: IOPS and latencies */
static void perf_workloads(void)
{
	static const char *const runs[] = {
		"--workload randread --depth 32 --queues 3 --time 0.5",
		"--poll --workload randread --depth 32 --queues 3 --time 0.5",
		"--workload read --depth 8 --size 65536 --time 0.5",
		"--poll --workload randwrite --depth 16 --queues 2 --time 0.5",
		"--workload write --depth 1 --time 0.5",
	};
	unsigned long ios, failed;
	size_t i;

	nvme_bind();
	for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		nvme_driver_ok(runs[i]);
		if (sscanf(nvme_out_line("ios: "), "%lu, failed %lu", &ios,
			   &failed) != 2)
			FAIL("cannot parse \"ios: %s\"", nvme_out_line("ios: "));
		EXPECT(ios > 0);
		EXPECT_EQ(failed, 0);
		EXPECT(strstr(nvme_out_line("latency: "), "p50 ") != NULL);
		note_rate(runs[i]);
	}
	/* the writes changed the disk: the image back */
	nvme_driver_ok("--workload verify --depth 32 --size 16384 --seed 0");
	nvme_driver_ok("--reads 256 --check");
	EXPECT_STREQ(nvme_out_line("reads: "), "256 x 4096 bytes, 0 mismatches");
	nvme_unbind();
}

/* limits: CAP.MQES, the vectors, the block size, MDTS; usage errors */
static void depth_queues_size_limits(void)
{
	nvme_bind();
	EXPECT_EQ(nvme_driver("--workload read --depth 2048", NVME_PCI), 2);
	EXPECT_STREQ(nvme_driver_err(), "udrv-nvme: --depth 2048: queues hold "
		     "2048 entries at most (CAP.MQES), one stays empty");
	EXPECT_EQ(nvme_driver("--workload read --queues 4", NVME_PCI), 2);
	EXPECT_STREQ(nvme_driver_err(), "udrv-nvme: 4 queues with interrupts "
		     "need 5 MSI-X vectors; " NVME_PCI " has 4 (iio_pci_generic "
		     "vectors=)");
	EXPECT_EQ(nvme_driver("--workload read --size 1000", NVME_PCI), 2);
	EXPECT_STREQ(nvme_driver_err(), "udrv-nvme: --size 1000: a multiple of "
		     "the 512-byte block, at most 131072 (MDTS)");
	EXPECT_EQ(nvme_driver("--workload read --size 262144", NVME_PCI), 2);
	EXPECT_EQ(nvme_driver("--workload scan", NVME_PCI), 2);
	EXPECT_STREQ(nvme_driver_err(), "udrv-nvme: --workload is read, write, "
		     "randread, randwrite or verify, not \"scan\"");
	EXPECT_EQ(nvme_driver("--depth 4 --reads 1", NVME_PCI), 2);
	/* 2047 in flight on 4 queues polled: past the buffer's 4 MiB */
	EXPECT_EQ(nvme_driver("--poll --workload read --depth 2047 --queues 4 "
			      "--size 8192", NVME_PCI), 2);
	/* the deepest queue the controller allows works (512-byte I/Os:
	 * eight slots share a page) */
	nvme_driver_ok("--poll --workload randread --depth 2047 --size 512 --time 0.3");
	EXPECT_STREQ(nvme_out_line("perf: "), "randread, 512-byte I/Os, depth 2047, "
		     "1 queue, polled, 0.30 s");
	nvme_unbind();
}

/*
 * An unknown opcode and a read past the namespace: each failure printed
 * with its status (type 0, codes 0x01 and 0x80), the run goes on to its
 * end and its statistics, exit 5.
 */
static void failed_commands_run_goes_on(void)
{
	unsigned long ios, failed;

	nvme_bind();
	EXPECT_EQ(nvme_driver("--workload randread --depth 4 --queues 2 "
			      "--inject opcode --inject lba --time 0.5",
			      NVME_PCI), EXIT_COMMAND);
	EXPECT_EQ(shell("grep -qx 'udrv-nvme: command failed: queue 1, command "
			"0x7f at block 2048: status type 0 code 0x01 (do not "
			"retry)' " NVME_ERR), 0);
	EXPECT_EQ(shell("grep -qx 'udrv-nvme: command failed: queue 1, command "
			"0x02 at block 2048: status type 0 code 0x80 (do not "
			"retry)' " NVME_ERR), 0);
	EXPECT_STREQ(nvme_driver_err(), "udrv-nvme: 2 commands failed (2 injected)");
	EXPECT_EQ(shell("[ $(wc -l < " NVME_ERR ") = 3 ]"), 0);
	if (sscanf(nvme_out_line("ios: "), "%lu, failed %lu", &ios, &failed) != 2)
		FAIL("cannot parse \"ios: %s\"", nvme_out_line("ios: "));
	EXPECT(ios > 10);
	EXPECT_EQ(failed, 2);
	EXPECT(strstr(nvme_out_line("queue 1: "), ", 2 failed") != NULL);
	EXPECT(strstr(nvme_out_line("queue 2: "), ", 0 failed") != NULL);
	nvme_unbind();
}

/* the bounded run of @args must end with @status within @ms */
static void driver_ends(const char *args, int status, unsigned int ms)
{
	unsigned long long t0 = now_ms();

	EXPECT_EQ(nvme_driver(args, NVME_PCI), status);
	if (now_ms() - t0 > ms)
		FAIL("udrv-nvme %s took %llu ms, more than %u", args,
		     now_ms() - t0, ms);
}

/*
 * A queue whose SQ the controller cannot fetch: CSTS.CFS, noticed within
 * the run (not at its end), exit 4; the next run resets the controller
 * and works.
 */
static void fatal_status_ends_run(void)
{
	nvme_bind();
	driver_ends("--workload randread --depth 8 --queues 2 --inject fatal "
		    "--time 30", EXIT_CONTROLLER, 10000);
	EXPECT_STREQ(nvme_driver_err(), "udrv-nvme: controller fatal status "
		     "(CSTS 0x2) during the run");
	EXPECT_EQ(shell("[ $(wc -l < " NVME_ERR ") = 1 ]"), 0);
	nvme_driver_ok("--reads 10 --check");
	EXPECT_STREQ(nvme_out_line("reads: "), "10 x 4096 bytes, 0 mismatches");
	nvme_unbind();
}

/*
 * The I/O CQs without interrupts while the driver waits on their
 * vectors: --timeout later it ends, exit 6, saying the completion is
 * there but no interrupt came.
 */
static void lost_interrupt_times_out(void)
{
	nvme_bind();
	driver_ends("--workload randread --depth 4 --inject timeout "
		    "--timeout 1000 --time 30", EXIT_TIMEOUT, 8000);
	EXPECT(!strncmp(nvme_driver_err(), "udrv-nvme: timeout: the completion of "
			"I/O command 0x02 is in CQ 1 but /dev/iio", 66));
	nvme_unbind();
}

/*
 * Unbind under a perf run of @args (deep, several queues): it ends with
 * "device gone", exit 7, one line; bound again, the controller works.
 */
static void unbind_under_run(const char *args)
{
	int early, status;
	pid_t drv;

	nvme_bind();
	drv = start_driver(args, "perf:");
	early = wait_exit(drv, 0);
	nvme_unbind();
	status = early >= 0 ? early : wait_exit(drv, 10000);
	if (status < 0)
		kill(drv, SIGKILL);
	expect_gone_then_works(early, status);
}

static void unbind_under_interrupt_run(void)
{
	unbind_under_run("--workload randread --depth 32 --queues 3 --time 60");
}

static void unbind_under_polled_run(void)
{
	unbind_under_run("--poll --workload randread --depth 32 --queues 3 --time 60");
}

/* errors: one line, the documented status */
static void clear_errors(void)
{
	/* a device with no driver: the driver binds nothing itself */
	EXPECT_EQ(nvme_driver("", "0000:00:13.0"), EXIT_SETUP);
	EXPECT_STREQ(nvme_driver_err(),
		     "udrv-nvme: 0000:00:13.0 has no driver: bind it to "
		     "iio_pci_generic (see iio_pci_generic(4)) or vfio-pci");
	EXPECT(!path_exists(NVME_DRV "/0000:00:13.0"));	/* not bound */
	EXPECT_EQ(nvme_driver("", NVME_PCI), EXIT_SETUP);
	EXPECT(!path_exists(NVME_DRV "/" NVME_PCI));
	/* bound, but no NVMe controller: refused before any access */
	pci_generic_bind("0000:00:13.0");
	EXPECT_EQ(nvme_driver("", "0000:00:13.0"), EXIT_SETUP);
	EXPECT_STREQ(nvme_driver_err(),
		     "udrv-nvme: 0000:00:13.0 is not an NVMe controller (class 0x00ff00)");
	pci_generic_unbind("0000:00:13.0");
	EXPECT_EQ(nvme_driver("", "0000:00:1f.7"), EXIT_SETUP);
	EXPECT_STREQ(nvme_driver_err(), "udrv-nvme: no PCI device 0000:00:1f.7");
	EXPECT_EQ(nvme_driver("--reads x", NVME_PCI), 2);
	EXPECT_STREQ(nvme_driver_err(), "udrv-nvme: --reads needs a number, not \"x\"");
}

/* iio_pci_generic as the other tests expect it */
static void module_defaults_restored(void)
{
	if (path_exists(NVME_DRV "/" NVME_PCI))	/* left by a failed case */
		write_text(NVME_DRV "/unbind", NVME_PCI);
	EXPECT_EQ(write_text("/sys/bus/pci/devices/" NVME_PCI "/driver_override",
			     "none"), 0);
	if (shell("rmmod iio_pci_generic && insmod " MODDIR "/iio_pci_generic.ko"))
		FAIL("reloading iio_pci_generic.ko failed");
	EXPECT(!path_exists(NVME_DRV "/" NVME_PCI));
}

/*
 * without vectors=: INTx, everything on vector 0, unmasked by the driver,
 * also with two queues at depth
 */
static void intx_without_vectors(void)
{
	EXPECT_EQ(write_text("/sys/bus/pci/devices/" NVME_PCI "/driver_override",
			     "iio_pci_generic"), 0);
	EXPECT_EQ(write_text(NVME_DRV "/bind", NVME_PCI), 0);
	EXPECT_STREQ(read_text("/sys/bus/pci/devices/" NVME_PCI "/irq_mode"),
		     "intx");
	nvme_driver_ok("--reads 200 --check");
	EXPECT_STREQ(nvme_out_line("reads: "), "200 x 4096 bytes, 0 mismatches");
	EXPECT(strstr(nvme_out_line("interrupts: "), "intx, 1 vector; ") ==
	       nvme_out_line("interrupts: "));
	check_note("INTx: %s", nvme_out_line("rate: "));
	/* two queues at depth sharing the line, unmasked after each wakeup */
	nvme_driver_ok("--workload verify --depth 8 --queues 2 --seed 0");
	EXPECT(strstr(nvme_out_line("interrupts: "), "I/O 2 queues on vector 0") != NULL);
	EXPECT_STREQ(nvme_out_line("verify: "),
		     "256 x 4096 bytes written and read back, 0 mismatches");
	nvme_unbind();
}

/* vector @k's listener count, from its node's own sysfs folder */
static unsigned long long vector_listeners(int nr, int k)
{
	char path[192];

	if (k)
		snprintf(path, sizeof(path),
			 "/sys/class/iio/iio%d/iio%d_event%d/listener", nr, nr, k);
	else
		snprintf(path, sizeof(path),
			 "/sys/class/iio/iio%d/iio%d_event/listener", nr, nr);
	return read_num(path);
}

/*
 * Each vector's node counts its own listeners (iio(4): the node's folder
 * has event and listener for that vector alone): files open for reading
 * on vector 1 count there, not on vector 0 (the device's listener
 * attribute is vector 0's) nor on vector 2; a write-only one nowhere.
 */
static void vector_listeners_apart(void)
{
	int nr = nvme_bind(), a, b, w;

	EXPECT_EQ(vector_listeners(nr, 1), 0);
	a = MUST(open(iio_node(nr, "_event1"), O_RDONLY));
	b = MUST(open(iio_node(nr, "_event1"), O_RDWR));
	w = MUST(open(iio_node(nr, "_event2"), O_WRONLY));
	EXPECT_EQ(vector_listeners(nr, 1), 2);
	EXPECT_EQ(vector_listeners(nr, 0), 0);
	EXPECT_EQ(vector_listeners(nr, 2), 0);
	EXPECT_EQ(read_num(iio_attr_path(nr, "listener")), 0);
	close(a);
	EXPECT_EQ(vector_listeners(nr, 1), 1);
	close(b);
	close(w);
	EXPECT_EQ(vector_listeners(nr, 1), 0);
	a = MUST(open(iio_node(nr, "_event"), O_RDONLY));
	EXPECT_EQ(vector_listeners(nr, 0), 1);
	EXPECT_EQ(read_num(iio_attr_path(nr, "listener")), 1);
	EXPECT_EQ(vector_listeners(nr, 1), 0);
	close(a);
	nvme_unbind();
}

static const struct check_case cases[] = {
	CASE_T(identify_strings_are_qemus, 120),
	CASE_T(block_read_back_equals_file, 60),
	CASE_T(write_to_vector_1_is_eopnotsupp, 60),
	CASE_T(thousand_reads_on_vector_1, 120),
	CASE_T(polling_takes_no_interrupt, 120),
	CASE_T(unbind_under_blocked_reader, 90),
	CASE_T(verify_depth_32_two_queues, 60),
	CASE_T(prp_lists_128k, 60),
	CASE_T(perf_workloads, 60),
	CASE_T(depth_queues_size_limits, 60),
	CASE_T(failed_commands_run_goes_on, 60),
	CASE_T(fatal_status_ends_run, 60),
	CASE_T(lost_interrupt_times_out, 60),
	CASE_T(unbind_under_interrupt_run, 60),
	CASE_T(unbind_under_polled_run, 60),
	CASE(clear_errors),
	CASE_T(vector_listeners_apart, 60),
	/* last: they leave iio_pci_generic with its defaults for the
	 * programs after this one */
	CASE_T(module_defaults_restored, 120),
	CASE(intx_without_vectors),
};
CHECK_MAIN(cases)
