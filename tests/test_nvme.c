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
		       NVME_PCI " > " NVME_OUT " 2> " NVME_ERR, (char *)NULL);
		_exit(127);
	}
	/* until it reads; whatever happens, unbind before judging it */
	for (i = 0; i < 100 && shell("grep -q '^interrupts:' " NVME_OUT " 2>/dev/null"); i++)
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
		     nvme_driver_err());
	EXPECT_EQ(reader_status, 0);		/* EIO */
	EXPECT_EQ(reader2_status, 0);
	if (drv_status != EXIT_GONE)
		FAIL("driver exit %d, want %d: %s", drv_status, EXIT_GONE,
		     nvme_driver_err());
	EXPECT(strstr(nvme_driver_err(), "iio_nvme: device gone") == nvme_driver_err());
	EXPECT_EQ(shell("[ $(wc -l < " NVME_ERR ") = 1 ]"), 0);
	check_note("%s", nvme_driver_err());

	nvme_bind();
	nvme_driver_ok("--reads 10 --check");
	EXPECT_STREQ(nvme_out_line("reads: "), "10 x 4096 bytes, 0 mismatches");
	nvme_unbind();
}

/* errors: one line, the documented status */
static void clear_errors(void)
{
	EXPECT_EQ(nvme_driver("", "0000:00:13.0"), EXIT_SETUP);
	EXPECT_STREQ(nvme_driver_err(),
		     "iio_nvme: 0000:00:13.0 is not an NVMe controller (class 0x00ff00)");
	EXPECT(!path_exists(NVME_DRV "/0000:00:13.0"));	/* not bound */
	EXPECT_EQ(nvme_driver("", "0000:00:1f.7"), EXIT_SETUP);
	EXPECT_STREQ(nvme_driver_err(), "iio_nvme: no PCI device 0000:00:1f.7");
	EXPECT_EQ(nvme_driver("--reads x", NVME_PCI), 2);
	EXPECT_STREQ(nvme_driver_err(), "iio_nvme: --reads needs a number, not \"x\"");
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

/* without vectors=: INTx, everything on vector 0, unmasked by the driver */
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
