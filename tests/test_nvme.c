// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_nvme.c - the user-space NVMe driver (tests/nvme/iio_nvme) on QEMU's
 * nvme (00:1a.0, serial iio-nvme-0001 and the image of tests/nvme/mkimage,
 * see qemu/run), bound to iio_pci_generic with vectors=4: the Identify
 * strings are QEMU's, the blocks read equal the image, 1000 reads complete
 * on MSI-X vector 1 and on no other, polling takes no interrupt, and
 * unbinding under a blocked reader and a running driver gives EIO and a
 * clear error, and the controller works again after it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/iio_test.h"

#define NVME_PCI	"0000:00:1a.0"
#define NVME_SERIAL	"iio-nvme-0001"		/* qemu/run's serial= */
#define NVME_MODEL	"QEMU NVMe Ctrl"	/* fixed in QEMU */
#define IMG_BYTES	(1024 * 1024)		/* tests/nvme/mkimage's default */
#define VECTORS		4
#define DRV		"/sys/bus/pci/drivers/iio_pci_generic"
#define OUT		"/tmp/nvme.out"
#define ERR		"/tmp/nvme.err"

/* iio_nvme's exit statuses (tests/nvme/README.md) */
#define EXIT_SETUP	3
#define EXIT_GONE	7

/* the image's 8-byte word at @off (tests/nvme/mkimage) */
static uint64_t image_word(uint64_t off)
{
	return 0x654d564e00000000ull | (off / 512) << 8 | (off % 512 / 8);
}

/* iio_pci_generic with vectors=4 (reloaded if it has other parameters) */
static void generic_with_vectors(void)
{
	char want[8];

	snprintf(want, sizeof(want), "%d", VECTORS);
	if (path_exists("/sys/module/iio_pci_generic/parameters/vectors") &&
	    !strcmp(read_text("/sys/module/iio_pci_generic/parameters/vectors"),
		    want))
		return;
	if (shell("rmmod iio_pci_generic && insmod " MODDIR
		  "/iio_pci_generic.ko vectors=%d", VECTORS)) {
		shell("insmod " MODDIR "/iio_pci_generic.ko");
		FAIL("iio_pci_generic.ko vectors=%d: not loaded (no MSI-X support?)",
		     VECTORS);
	}
}

/* bind the controller as a user would; the iio device of BAR0 */
static int nvme_bind(void)
{
	if (path_exists(DRV "/" NVME_PCI))	/* left by a failed case */
		write_text(DRV "/unbind", NVME_PCI);
	generic_with_vectors();
	EXPECT_EQ(write_text("/sys/bus/pci/devices/" NVME_PCI "/driver_override",
			     "iio_pci_generic"), 0);
	EXPECT_EQ(write_text(DRV "/bind", NVME_PCI), 0);
	return iio_must_find(NVME_PCI " bar0", 0);
}

/* unbind and leave it to no driver, as qemu/init does */
static void nvme_unbind(void)
{
	EXPECT_EQ(write_text(DRV "/unbind", NVME_PCI), 0);
	EXPECT_EQ(write_text("/sys/bus/pci/devices/" NVME_PCI "/driver_override",
			     "none"), 0);
}

/* the driver's last stderr line, for failure messages */
static const char *driver_err(void)
{
	static char buf[512];
	FILE *f = fopen(ERR, "r");
	char line[512];

	buf[0] = 0;
	if (!f)
		return "(no stderr)";
	while (fgets(line, sizeof(line), f))
		snprintf(buf, sizeof(buf), "%s", line);
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return buf[0] ? buf : "(nothing on stderr)";
}

/* iio_nvme ARGS ADDR, stdout in OUT, stderr in ERR: its exit status */
static int driver(const char *args, const char *addr)
{
	return shell("iio_nvme %s %s > " OUT " 2> " ERR, args, addr);
}

static void driver_ok(const char *args)
{
	int status = driver(args, NVME_PCI);

	if (status)
		FAIL("iio_nvme %s: exit %d: %s", args, status, driver_err());
	EXPECT_STREQ(driver_err(), "(nothing on stderr)");
}

/* the rest of the first line of OUT that starts with @prefix */
static const char *out_line(const char *prefix)
{
	static char buf[512];
	FILE *f = fopen(OUT, "r");
	char line[512];

	if (!f)
		FAIL("no " OUT);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, prefix, strlen(prefix))) {
			fclose(f);
			line[strcspn(line, "\n")] = 0;
			snprintf(buf, sizeof(buf), "%s", line + strlen(prefix));
			return buf;
		}
	}
	fclose(f);
	FAIL("iio_nvme printed no \"%s\" line", prefix);
}

/*
 * Event counters of the device's vectors: each node opened before the
 * driver runs, so that without a sysfs count a non-blocking read of it
 * afterwards tells the total (the device is freshly bound: counts start
 * at 0; no unseen event since the open: none at all).
 */
static void open_vectors(int nr, int fds[VECTORS])
{
	char suffix[16];
	int k;

	for (k = 0; k < VECTORS; k++) {
		snprintf(suffix, sizeof(suffix), k ? "_event%d" : "_event", k);
		fds[k] = MUST(open(iio_node(nr, suffix), O_RDONLY | O_NONBLOCK));
	}
}

/* vector @k's events since the bind: its node's sysfs count, or a read */
static unsigned long long vector_count(int nr, int k, int fd)
{
	static const char *const files[] = { "count", "event" };
	char node[32], path[192];
	uint32_t count;
	int i;

	if (k)
		snprintf(node, sizeof(node), "iio%d_event%d", nr, k);
	else
		snprintf(node, sizeof(node), "iio%d_event", nr);
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "/sys/class/iio/iio%d/%s/%s", nr,
			 node, files[i]);
		if (path_exists(path))
			return read_num(path);
	}
	if (read(fd, &count, 4) != 4) {
		EXPECT(errno == EAGAIN);
		count = 0;
	}
	return count;
}

static void identify_strings_are_qemus(void)
{
	int nr = nvme_bind();

	EXPECT_STREQ(read_text("/sys/bus/pci/devices/" NVME_PCI "/irq_mode"),
		     "msix");
	EXPECT_EQ(read_num(iio_attr_path(nr, "vectors")), VECTORS);
	driver_ok("");
	EXPECT_STREQ(out_line("model: "), NVME_MODEL);
	EXPECT_STREQ(out_line("serial: "), NVME_SERIAL);
	EXPECT_STREQ(out_line("namespace 1: "),
		     "2048 blocks of 512 bytes (1048576 bytes)");
	check_note("%s", out_line("controller: "));
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
	driver_ok("--write 7 --check --reads 256 --save /tmp/nvme.img");
	EXPECT_STREQ(out_line("write: "), "block 7 written, read back, restored");
	EXPECT_STREQ(out_line("reads: "), "256 x 4096 bytes, 0 mismatches");
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

static void parse_commands(unsigned long *admin, unsigned long *io)
{
	if (sscanf(out_line("commands: "), "admin %lu, io %lu", admin, io) != 2)
		FAIL("cannot parse \"commands: %s\"", out_line("commands: "));
}

/* I/O completions on vector 1 only, admin ones on vector 0 only */
static void thousand_reads_on_vector_1(void)
{
	unsigned long admin, io;
	int nr = nvme_bind(), k, fds[VECTORS];

	open_vectors(nr, fds);
	for (k = 0; k < VECTORS; k++)
		EXPECT_EQ(vector_count(nr, k, fds[k]), 0);
	driver_ok("--reads 1000");
	parse_commands(&admin, &io);
	EXPECT_EQ(io, 1000);
	EXPECT_EQ(vector_count(nr, 1, fds[1]), io);
	EXPECT_EQ(vector_count(nr, 0, fds[0]), admin);
	for (k = 2; k < VECTORS; k++)
		EXPECT_EQ(vector_count(nr, k, fds[k]), 0);
	check_note("interrupt: %s", out_line("rate: "));
	nvme_unbind();
}

/* --poll: the I/O CQ has no interrupt; vector 1 stays silent */
static void polling_takes_no_interrupt(void)
{
	unsigned long admin, io;
	int nr = nvme_bind(), fds[VECTORS];

	open_vectors(nr, fds);
	driver_ok("--poll --reads 1000 --check");
	parse_commands(&admin, &io);
	EXPECT_EQ(io, 1000);
	EXPECT_STREQ(out_line("reads: "), "1000 x 4096 bytes, 0 mismatches");
	EXPECT_EQ(vector_count(nr, 0, fds[0]), admin);
	EXPECT_EQ(vector_count(nr, 1, fds[1]), 0);
	check_note("polling: %s", out_line("rate: "));
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
 * Unbind while a reader is blocked on vector 1 and the driver is reading:
 * the reader gets EIO, the driver exits "device gone" with one line, the
 * kernel log stays clean; bound again, the controller (left enabled, its
 * queues in freed memory) is reset by the driver and works.
 */
static void unbind_under_blocked_reader(void)
{
	int nr = nvme_bind(), efd, efd2, i, early, reader_status, drv_status;
	int reader2_status;
	pid_t reader, reader2, drv;

	efd = MUST(open(iio_node(nr, "_event1"), O_RDONLY));
	efd2 = MUST(open(iio_node(nr, "_event2"), O_RDONLY));
	reader = blocked_reader(efd);
	reader2 = blocked_reader(efd2);
	drv = fork();
	if (drv < 0)
		FAIL("fork: %s", strerror(errno));
	if (!drv) {
		execlp("sh", "sh", "-c", "exec iio_nvme --reads 1000000 "
		       NVME_PCI " > " OUT " 2> " ERR, (char *)NULL);
		_exit(127);
	}
	/* until it reads; whatever happens, unbind before judging it */
	for (i = 0; i < 100 && shell("grep -q '^interrupts:' " OUT " 2>/dev/null"); i++)
		msleep(100);
	msleep(300);
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
	if (early >= 0)
		FAIL("the driver ended before the unbind: exit %d: %s", early,
		     driver_err());
	EXPECT_EQ(reader_status, 0);		/* EIO */
	EXPECT_EQ(reader2_status, 0);
	if (drv_status != EXIT_GONE)
		FAIL("driver exit %d, want %d: %s", drv_status, EXIT_GONE,
		     driver_err());
	EXPECT(strstr(driver_err(), "iio_nvme: device gone") == driver_err());
	EXPECT_EQ(shell("[ $(wc -l < " ERR ") = 1 ]"), 0);
	check_note("%s", driver_err());

	nvme_bind();
	driver_ok("--reads 10 --check");
	EXPECT_STREQ(out_line("reads: "), "10 x 4096 bytes, 0 mismatches");
	nvme_unbind();
}

/* errors: one line, the documented status */
static void clear_errors(void)
{
	EXPECT_EQ(driver("", "0000:00:13.0"), EXIT_SETUP);
	EXPECT_STREQ(driver_err(),
		     "iio_nvme: 0000:00:13.0 is not an NVMe controller (class 0x00ff00)");
	EXPECT(!path_exists(DRV "/0000:00:13.0"));	/* not bound */
	EXPECT_EQ(driver("", "0000:00:1f.7"), EXIT_SETUP);
	EXPECT_STREQ(driver_err(), "iio_nvme: no PCI device 0000:00:1f.7");
	EXPECT_EQ(driver("--reads x", NVME_PCI), 2);
	EXPECT_STREQ(driver_err(), "iio_nvme: --reads needs a number, not \"x\"");
}

/* iio_pci_generic as the other tests expect it */
static void module_defaults_restored(void)
{
	if (path_exists(DRV "/" NVME_PCI))	/* left by a failed case */
		write_text(DRV "/unbind", NVME_PCI);
	EXPECT_EQ(write_text("/sys/bus/pci/devices/" NVME_PCI "/driver_override",
			     "none"), 0);
	if (shell("rmmod iio_pci_generic && insmod " MODDIR "/iio_pci_generic.ko"))
		FAIL("reloading iio_pci_generic.ko failed");
	EXPECT(!path_exists(DRV "/" NVME_PCI));
}

/* without vectors=: INTx, everything on vector 0, unmasked by the driver */
static void intx_without_vectors(void)
{
	EXPECT_EQ(write_text("/sys/bus/pci/devices/" NVME_PCI "/driver_override",
			     "iio_pci_generic"), 0);
	EXPECT_EQ(write_text(DRV "/bind", NVME_PCI), 0);
	EXPECT_STREQ(read_text("/sys/bus/pci/devices/" NVME_PCI "/irq_mode"),
		     "intx");
	driver_ok("--reads 200 --check");
	EXPECT_STREQ(out_line("reads: "), "200 x 4096 bytes, 0 mismatches");
	EXPECT(strstr(out_line("interrupts: "), "intx, 1 vector; ") ==
	       out_line("interrupts: "));
	check_note("INTx: %s", out_line("rate: "));
	nvme_unbind();
}

static const struct check_case cases[] = {
	CASE_T(identify_strings_are_qemus, 120),
	CASE_T(block_read_back_equals_file, 60),
	CASE_T(write_to_vector_1_is_eopnotsupp, 60),
	CASE_T(thousand_reads_on_vector_1, 120),
	CASE_T(polling_takes_no_interrupt, 120),
	CASE_T(unbind_under_blocked_reader, 90),
	CASE(clear_errors),
	CASE_T(module_defaults_restored, 120),
	CASE(intx_without_vectors),
};
CHECK_MAIN(cases)
