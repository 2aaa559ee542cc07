// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_perm.c - the nodes are root's alone by default (mode 0600, owner
 * and group root), and iioctl run by another user (nobody, 65534) says so
 * in one line and exits 1; sysfs stays readable, so list works for them.
 * A user in a group given a device's region node and DMA buffer, as
 * iio(4)'s udev rule gives them, reaches the buffer with iioctl --dma
 * and lists it, its bus address (root's alone) shown as unknown.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/iio_test.h"

#define IIOCTL "/usr/bin/iioctl"
#define NOBODY 65534
/* the group iio(4)'s udev rule gives the nodes ("groupadd --system iio") */
#define IIO_GROUP 990

/* every /dev/iio* node: a character device, 0600, root:root */
static void nodes_are_root_only(void)
{
	struct dirent *de;
	int nodes = 0;
	DIR *dir = opendir("/dev");

	EXPECT(dir);
	while ((de = readdir(dir))) {
		char path[300];
		struct stat st;

		if (strncmp(de->d_name, "iio", 3) || de->d_name[3] < '0' ||
		    de->d_name[3] > '9')
			continue;
		snprintf(path, sizeof(path), "/dev/%s", de->d_name);
		MUST(stat(path, &st));
		if (!S_ISCHR(st.st_mode) || (st.st_mode & 07777) != 0600 ||
		    st.st_uid || st.st_gid)
			FAIL("%s: mode %o, owner %u:%u; want a 0600 root:root character device",
			     path, st.st_mode, st.st_uid, st.st_gid);
		nodes++;
	}
	closedir(dir);
	EXPECT(nodes >= 4);
}

/*
 * runs iioctl ARGS as nobody, in the supplementary group @group (0:
 * none); its status, stdout and stderr
 */
static int run_as(gid_t group, char *out, size_t outsize, char *err,
		  size_t errsize, const char *const *args)
{
	int po[2], pe[2], status;
	ssize_t n, len;
	pid_t pid;

	MUST(pipe(po));
	MUST(pipe(pe));
	pid = fork();
	if (pid < 0)
		FAIL("fork: %s", strerror(errno));
	if (!pid) {
		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]);
		close(pe[0]);
		if (setgroups(group ? 1 : 0, &group) || setgid(NOBODY) ||
		    setuid(NOBODY))
			_exit(126);
		execv(IIOCTL, (char *const *)args);
		fprintf(stderr, "exec %s: %s\n", IIOCTL, strerror(errno));
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	for (len = 0; (n = read(po[0], out + len, outsize - 1 - len)) > 0;)
		len += n;
	out[len] = 0;
	for (len = 0; (n = read(pe[0], err + len, errsize - 1 - len)) > 0;)
		len += n;
	err[len] = 0;
	close(po[0]);
	close(pe[0]);
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status))
		FAIL("iioctl %s: signal %d", args[1], WTERMSIG(status));
	return WEXITSTATUS(status);
}

static int run_as_nobody(char *out, size_t outsize, char *err,
			 size_t errsize, const char *const *args)
{
	return run_as(0, out, outsize, err, errsize, args);
}

/*
 * The initramfs root is the mode of the folder it was built in (0700,
 * qemu/mkinitramfs's mktemp): let nobody reach /usr/bin/iioctl.
 */
static void let_nobody_exec(void)
{
	static const char *const dirs[] = { "/", "/usr", "/usr/bin", "/tmp" };
	struct stat st;
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!stat(dirs[i], &st) && !(st.st_mode & 01))
			chmod(dirs[i], (st.st_mode & 07777) | 0755);
}

static void expect_denied(const char *const *args, const char *node)
{
	char out[4096], err[4096], want[256];
	int status = run_as_nobody(out, sizeof(out), err, sizeof(err), args);

	snprintf(want, sizeof(want),
		 "iioctl: %s: permission denied (the iio nodes are root-only; see iio(4) for a udev rule)\n",
		 node);
	if (status != 1 || strcmp(err, want) || out[0])
		FAIL("iioctl %s %s as nobody: status %d, stderr \"%s\", stdout \"%s\"; want 1, \"%s\"",
		     args[1], args[2], status, err, out, want);
}

static void iioctl_as_nobody_is_refused(void)
{
	static const char *const peek[] = { "iioctl", "peek", "0", "0", NULL };
	static const char *const poke[] = { "iioctl", "poke", "0", "0x40", "1", NULL };
	static const char *const dump[] = { "iioctl", "dump", "iio0", "-n", "16", NULL };
	static const char *const wait[] = { "iioctl", "wait-events", "0", "-t", "1s", NULL };
	static const char *const trig[] = { "iioctl", "trigger", "0", NULL };
	static const char *const batch[] = { "iioctl", "batch", "/tmp/perm-batch", NULL };

	let_nobody_exec();
	expect_denied(peek, "/dev/iio0");
	expect_denied(poke, "/dev/iio0");
	expect_denied(dump, "/dev/iio0");
	expect_denied(wait, "/dev/iio0_event");
	expect_denied(trig, "/dev/iio0_event");
	{
		int fd = MUST(open("/tmp/perm-batch",
				   O_WRONLY | O_CREAT | O_TRUNC, 0644));

		EXPECT_EQ(write(fd, "peek 0 0x10\n", 12), 12);
		close(fd);
	}
	{
		char out[4096], err[4096];
		const char *want = "iioctl: batch line 1: /dev/iio0: permission denied (the iio nodes are root-only; see iio(4) for a udev rule)\n";
		int status = run_as_nobody(out, sizeof(out), err, sizeof(err),
					   batch);

		if (status != 1 || strcmp(err, want))
			FAIL("batch as nobody: status %d, stderr \"%s\"", status,
			     err);
	}
	unlink("/tmp/perm-batch");
}

/* sysfs is world-readable: listing needs no node */
static void list_works_as_nobody(void)
{
	static const char *const list[] = { "iioctl", "list", "-n", "-o", "device", NULL };
	char out[4096], err[4096];
	int status;

	let_nobody_exec();
	status = run_as_nobody(out, sizeof(out), err, sizeof(err), list);

	EXPECT_EQ(status, 0);
	EXPECT_STREQ(err, "");
	EXPECT(!strncmp(out, "iio0\n", 5));
}

/*
 * The first device with a DMA buffer (edu's dma0 under the opt-in of
 * tests/run's main boot): its label in @label; skips the case if none.
 */
static void find_dma_device(char *label, size_t size)
{
	struct dirent *de;
	DIR *dir = opendir("/sys/class/iio");
	char path[300];

	EXPECT(dir);
	while ((de = readdir(dir))) {
		if (strncmp(de->d_name, "iio", 3) || de->d_name[3] < '0' ||
		    de->d_name[3] > '9')
			continue;
		snprintf(path, sizeof(path), "/sys/class/iio/%s/dma0/buffer",
			 de->d_name);
		if (!access(path, F_OK)) {
			snprintf(label, size, "%s", de->d_name);
			closedir(dir);
			return;
		}
	}
	closedir(dir);
	check_skip("no device with a DMA buffer (the boot lacks iio.enable_unsafe_noiommu_mode=1)");
}

/* chgrp IIO_GROUP, chmod 0660, as iio(4)'s udev rule does */
static void give_to_group(const char *path)
{
	MUST(chown(path, 0, IIO_GROUP));
	MUST(chmod(path, 0660));
}

static void take_back(const char *path)
{
	MUST(chown(path, 0, 0));
	MUST(chmod(path, 0600));
}

/*
 * A user in the iio group reaches DMA buffer 0 with --dma (dump, peek,
 * poke read the buffer's size, not its root-only bus_addr) and lists it
 * with dma, the bus address "-" (null in JSON): no permission error.
 */
static void dma_buffer_as_iio_group(void)
{
	char label[300], node[320], buffer[360], bus[360], out[4096], err[4096];
	char want[1024];
	const char *poke[] = { "iioctl", "poke", "--dma", "0", label, "0x10",
			       "0x600dcafe", NULL };
	const char *peek[] = { "iioctl", "peek", "--dma", "0", label, "0x10",
			       NULL };
	const char *dump[] = { "iioctl", "dump", "--dma", "0", label, "-s",
			       "0x10", "-n", "4", NULL };
	const char *mmap_peek[] = { "iioctl", "peek", "--mmap", "--dma", "0",
				    label, "0x10", NULL };
	const char *dma[] = { "iioctl", "dma", label, NULL };
	const char *dma_json[] = { "iioctl", "dma", "-j", label, NULL };
	struct stat st;
	int status;

	find_dma_device(label, sizeof(label));
	let_nobody_exec();
	snprintf(node, sizeof(node), "/dev/%s", label);
	snprintf(buffer, sizeof(buffer), "/sys/class/iio/%s/dma0/buffer",
		 label);
	snprintf(bus, sizeof(bus), "/sys/class/iio/%s/dma0/bus_addr", label);
	/* what the kernel keeps to root: bus_addr, mode 0400 */
	MUST(stat(bus, &st));
	EXPECT_EQ(st.st_mode & 0777, 0400);
	give_to_group(node);
	give_to_group(buffer);

	status = run_as(IIO_GROUP, out, sizeof(out), err, sizeof(err), poke);
	if (status || err[0])
		FAIL("poke --dma as the iio group: status %d, stderr \"%s\"",
		     status, err);
	status = run_as(IIO_GROUP, out, sizeof(out), err, sizeof(err), peek);
	if (status || err[0] || strcmp(out, "0x600dcafe\n"))
		FAIL("peek --dma as the iio group: status %d, stdout \"%s\", stderr \"%s\"",
		     status, out, err);
	status = run_as(IIO_GROUP, out, sizeof(out), err, sizeof(err),
			mmap_peek);
	if (status || err[0] || strcmp(out, "0x600dcafe\n"))
		FAIL("peek --mmap --dma as the iio group: status %d, stdout \"%s\", stderr \"%s\"",
		     status, out, err);
	status = run_as(IIO_GROUP, out, sizeof(out), err, sizeof(err), dump);
	if (status || err[0] ||
	    strcmp(out, "00000010  fe ca 0d 60                                       |...`|\n00000014\n"))
		FAIL("dump --dma as the iio group: status %d, stdout \"%s\", stderr \"%s\"",
		     status, out, err);
	status = run_as(IIO_GROUP, out, sizeof(out), err, sizeof(err), dma);
	snprintf(want, sizeof(want),
		 "BUFFER       SIZE           BUS_ADDR  PATH\ndma0      0x10000                  -  %s\n",
		 buffer);
	if (status || err[0] || strcmp(out, want))
		FAIL("dma as the iio group: status %d, stdout \"%s\", stderr \"%s\"; want \"%s\"",
		     status, out, err, want);
	status = run_as(IIO_GROUP, out, sizeof(out), err, sizeof(err),
			dma_json);
	snprintf(want, sizeof(want),
		 "[{\"buffer\": 0, \"size\": \"0x10000\", \"bus_addr\": null, \"path\": \"%s\"}]\n",
		 buffer);
	if (status || err[0] || strcmp(out, want))
		FAIL("dma -j as the iio group: status %d, stdout \"%s\", stderr \"%s\"; want \"%s\"",
		     status, out, err, want);
	/* root still sees the bus address */
	EXPECT_EQ(shell(IIOCTL " dma %s | grep -q '^dma0 .* 0x[0-9a-f]*  /sys'",
			label), 0);
	take_back(buffer);
	take_back(node);
}

/* root is not affected: the same commands work */
static void root_still_works(void)
{
	EXPECT_EQ(shell(IIOCTL " peek 0 0 > /dev/null"), 0);
}

static const struct check_case cases[] = {
	CASE(nodes_are_root_only),
	CASE(iioctl_as_nobody_is_refused),
	CASE(list_works_as_nobody),
	CASE(dma_buffer_as_iio_group),
	CASE(root_still_works),
};

CHECK_MAIN(cases)
