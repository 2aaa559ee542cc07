// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_uevent.c - every node and DMA buffer announces itself: ADD and
 * REMOVE uevents with SUBSYSTEM and DEVTYPE (iio(4), UEVENTS AND
 * UDEV), the ADD of a node once it opens, and the udev rule of iio(4)
 * applied by a netlink listener, as udev would, giving group access to
 * one device's nodes and DMA buffers
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/iio_test.h"

#define RULE_GID	4242	/* the rule's group "iio" */
#define NOBODY		65534
#define NVME_PCI	"0000:00:1a.0"
#define UEVENT_MS	10000
#define MAX_EXPECTED	16

struct uevent {
	char action[16];
	char devpath[256];
	char subsystem[32];
	char devtype[32];
	char devname[64];
};

/* the next uevent on @sock within @ms: 0, or -1 on timeout */
static int next_uevent(int sock, unsigned int ms, struct uevent *ev)
{
	struct pollfd pfd = { .fd = sock, .events = POLLIN };
	char msg[4096];
	ssize_t n;

	if (poll(&pfd, 1, (int)ms) != 1)
		return -1;
	n = MUST(recv(sock, msg, sizeof(msg) - 1, 0));
	msg[n] = 0;
	memset(ev, 0, sizeof(*ev));
	for (char *p = msg; p < msg + n; p += strlen(p) + 1) {
		if (!strncmp(p, "ACTION=", 7))
			snprintf(ev->action, sizeof(ev->action), "%s", p + 7);
		else if (!strncmp(p, "DEVPATH=", 8))
			snprintf(ev->devpath, sizeof(ev->devpath), "%s", p + 8);
		else if (!strncmp(p, "SUBSYSTEM=", 10))
			snprintf(ev->subsystem, sizeof(ev->subsystem), "%s",
				 p + 10);
		else if (!strncmp(p, "DEVTYPE=", 8))
			snprintf(ev->devtype, sizeof(ev->devtype), "%s", p + 8);
		else if (!strncmp(p, "DEVNAME=", 8))
			snprintf(ev->devname, sizeof(ev->devname), "%s", p + 8);
	}
	return 0;
}

/* the last component of DEVPATH: the kernel's name of the device */
static const char *kernel_name(const struct uevent *ev)
{
	const char *slash = strrchr(ev->devpath, '/');

	return slash ? slash + 1 : ev->devpath;
}

/*
 * The rule of iio(4), as udev applies it on an ADD:
 *   SUBSYSTEM=="iio|iio_node", ENV{DEVTYPE}=="iio_user_*", KERNELS==PARENT,
 *     GROUP="iio", MODE="0660"
 *   SUBSYSTEM=="iio_dma", KERNELS==PARENT,
 *     RUN+="/bin/chgrp iio /sys%p/buffer",
 *     RUN+="/bin/chmod 0660 /sys%p/buffer"
 */
static void apply_rule(const struct uevent *ev, const char *parent)
{
	char want[80], path[300];

	snprintf(want, sizeof(want), "/%s/", parent);
	if (strcmp(ev->action, "add") || !strstr(ev->devpath, want))
		return;
	if ((!strcmp(ev->subsystem, "iio") ||
	     !strcmp(ev->subsystem, "iio_node")) &&
	    !strncmp(ev->devtype, "iio_user_", 9)) {
		snprintf(path, sizeof(path), "/dev/%s", ev->devname);
		MUST(chown(path, -1, RULE_GID));
		MUST(chmod(path, 0660));
	} else if (!strcmp(ev->subsystem, "iio_dma")) {
		snprintf(path, sizeof(path), "/sys%s/buffer", ev->devpath);
		MUST(chown(path, -1, RULE_GID));
		MUST(chmod(path, 0660));
	}
}

/* what a node or DMA buffer must be opened with on its ADD */
static void open_on_add(const struct uevent *ev)
{
	char path[300];
	int fd, flags = O_RDONLY;

	if (!strcmp(ev->subsystem, "iio_dma")) {
		snprintf(path, sizeof(path), "/sys%s/buffer", ev->devpath);
		flags = O_RDWR;
	} else {
		snprintf(path, sizeof(path), "/dev/%s", ev->devname);
		if (strstr(ev->devname, "_out"))
			flags = O_RDWR;
	}
	fd = open(path, flags);
	if (fd < 0)
		FAIL("open %s on its ADD uevent: %s", path, strerror(errno));
	close(fd);
}

struct expected {
	char name[32];
	const char *subsystem;
	const char *devtype;
	bool seen;
};

static struct expected expected[MAX_EXPECTED];
static int n_expected;

static void expect_device(const char *subsystem, const char *devtype,
			  const char *fmt, int nr, int k)
{
	struct expected *e = &expected[n_expected++];

	snprintf(e->name, sizeof(e->name), fmt, nr, k);
	e->subsystem = subsystem;
	e->devtype = devtype;
	e->seen = false;
}

/* iioN and its nodes (/dev/iioN_in, _out, _event, _eventK for K < vectors) */
static void expect_nodes(int nr, bool in, bool out, int vectors)
{
	n_expected = 0;
	expect_device("iio", "iio_user_device", "iio%d", nr, 0);
	if (in)
		expect_device("iio_node", "iio_user_node", "iio%d_in", nr, 0);
	if (out)
		expect_device("iio_node", "iio_user_node", "iio%d_out", nr, 0);
	expect_device("iio_node", "iio_user_node", "iio%d_event", nr, 0);
	for (int k = 1; k < vectors; k++)
		expect_device("iio_node", "iio_user_node", "iio%d_event%d", nr,
			      k);
}

static void expect_dma(int nr, int k)
{
	expect_device("iio_dma", "iio_user_dma", "iio%d_dma%d", nr, k);
}

/*
 * The REMOVE of @e comes after those it must follow (iio(4)): every DMA
 * buffer's before any node's, and everything before the class device's
 * (expected[0]).
 */
static void remove_in_order(const struct expected *e)
{
	for (int i = 0; i < n_expected; i++) {
		const struct expected *o = &expected[i];

		if (o == e || o->seen)
			continue;
		if (e == &expected[0] ||
		    (!strcmp(o->subsystem, "iio_dma") &&
		     strcmp(e->subsystem, "iio_dma")))
			FAIL("REMOVE of %s before that of %s", e->name, o->name);
	}
}

/*
 * The uevents of @action ("add", "remove") of every expected device, each
 * once, with its SUBSYSTEM and DEVTYPE (and DEVNAME for a node); on an ADD
 * the device opens at once and the rule for @parent is applied.
 */
static void wait_uevents(int sock, const char *action, const char *parent)
{
	unsigned long long deadline = now_ms() + UEVENT_MS;
	struct uevent ev;
	int seen = 0;

	for (int i = 0; i < n_expected; i++)
		seen += expected[i].seen;

	while (seen < n_expected) {
		unsigned long long now = now_ms();

		if (now >= deadline ||
		    next_uevent(sock, (unsigned int)(deadline - now), &ev)) {
			for (int i = 0; i < n_expected; i++)
				if (!expected[i].seen)
					FAIL("no %s uevent of %s within %d ms",
					     action, expected[i].name,
					     UEVENT_MS);
		}
		if (strcmp(ev.action, action))
			continue;
		for (int i = 0; i < n_expected; i++) {
			struct expected *e = &expected[i];

			if (strcmp(kernel_name(&ev), e->name))
				continue;
			if (e->seen)
				FAIL("two %s uevents of %s", action, e->name);
			EXPECT_STREQ(ev.subsystem, e->subsystem);
			EXPECT_STREQ(ev.devtype, e->devtype);
			if (strcmp(e->subsystem, "iio_dma"))
				EXPECT_STREQ(ev.devname, e->name);
			if (!strcmp(action, "add")) {
				/* the class device first, then its children */
				if (i && !expected[0].seen)
					FAIL("ADD of %s before that of %s",
					     e->name, expected[0].name);
				open_on_add(&ev);
				apply_rule(&ev, parent);
			} else {
				/* buffers', then nodes', the class device's last */
				remove_in_order(e);
			}
			e->seen = true;
			seen++;
		}
	}
}

/* a process of user nobody in the rule's group only opens @path */
static void expect_group_opens(const char *path, int flags)
{
	gid_t gid = RULE_GID;
	int status;
	pid_t pid = MUST(fork());

	if (!pid) {
		if (setgroups(1, &gid) || setgid(NOBODY) || setuid(NOBODY))
			_exit(255);
		_exit(open(path, flags) < 0 ? errno : 0);
	}
	MUST(waitpid(pid, &status, 0));
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		FAIL("user nobody in group %d cannot open %s: %s", RULE_GID,
		     path, WIFEXITED(status) && WEXITSTATUS(status) < 255 ?
		     strerror(WEXITSTATUS(status)) : "no such user");
}

/* ... and without the group cannot: the rule is what gives access */
static void expect_other_refused(const char *path, int flags)
{
	int status;
	pid_t pid = MUST(fork());

	if (!pid) {
		if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
			_exit(2);
		_exit(open(path, flags) < 0 && errno == EACCES ? 0 : 1);
	}
	MUST(waitpid(pid, &status, 0));
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		FAIL("user nobody not in group %d: open %s did not fail with EACCES",
		     RULE_GID, path);
}

/* the dummy's nodes (in, out, event) come and go with it */
static void dummy_nodes_add_and_remove(void)
{
	int sock, nr;

	dummy_reload("freq=0");
	nr = dummy_nr(0);
	sock = uevent_socket();
	EXPECT_EQ(module_unload("iio_user_dummy"), 0);
	expect_nodes(nr, true, true, 1);
	wait_uevents(sock, "remove", "iio_user_dummy.0");
	EXPECT_EQ(module_load("iio_user_dummy", "freq=0"), 0);
	expect_nodes(nr, true, true, 1);
	wait_uevents(sock, "add", "iio_user_dummy.0");
	close(sock);
	EXPECT_EQ(dummy_nr(0), nr);
	expect_group_opens(iio_node(nr, ""), O_RDONLY);
	expect_group_opens(iio_node(nr, "_in"), O_RDONLY);
	expect_group_opens(iio_node(nr, "_out"), O_RDWR);
	expect_group_opens(iio_node(nr, "_event"), O_RDONLY);
	expect_other_refused(iio_node(nr, "_event"), O_RDONLY);
}

/*
 * iio_edu's DMA buffer, allocated at registration, is announced after its
 * device; the edu at 00:10.0 is the first iio_edu binds.
 */
static void edu_dma_buffer_add_and_remove(void)
{
	char path[160];
	int sock, nr;

	nr = iio_find_by_parent("0000:00:10.0");
	if (nr < 0)
		FAIL("no iio device of the edu at 0000:00:10.0");
	sock = uevent_socket();
	EXPECT_EQ(module_unload("iio_edu"), 0);
	expect_nodes(nr, false, false, 1);
	expect_dma(nr, 0);
	wait_uevents(sock, "remove", "0000:00:10.0");
	EXPECT_EQ(module_load("iio_edu", ""), 0);
	/* its number may differ now: iioN's ADD says */
	nr = wait_iio_added(sock, "0000:00:10.0", UEVENT_MS);
	expect_nodes(nr, false, false, 1);
	expect_dma(nr, 0);
	expected[0].seen = true;
	wait_uevents(sock, "add", "0000:00:10.0");
	close(sock);
	/* the link of old still leads to it */
	snprintf(path, sizeof(path), "/sys/class/iio/iio%d/dma0/buffer", nr);
	expect_group_opens(path, O_RDWR);
	expect_other_refused(path, O_RDWR);
}

/*
 * The NVMe controller bound to iio_pci_generic: MSI-X vectors 1 to 3 have
 * event nodes of their own, and a DMA buffer user space asks for is
 * announced as it is added, and as it is freed (dma_free).
 */
static void msix_event_nodes_and_requested_dma(void)
{
	char path[160];
	int sock, nr;

	pci_generic_reload("vectors=4 dma_max=0x4000");
	EXPECT_EQ(write_text("/sys/bus/pci/devices/" NVME_PCI "/driver_override",
			     "iio_pci_generic"), 0);
	sock = uevent_socket();
	EXPECT_EQ(pci_driver_bind("iio_pci_generic", NVME_PCI), 0);
	nr = pci_bar_nr(NVME_PCI, 0);
	expect_nodes(nr, false, false, 4);
	wait_uevents(sock, "add", NVME_PCI);
	EXPECT_EQ(read_num(iio_attr_path(nr, "vectors")), 4);
	EXPECT_EQ(iio_dma_request(nr, "0x1000"), 0);
	n_expected = 0;
	expect_dma(nr, 0);
	wait_uevents(sock, "add", NVME_PCI);
	expect_group_opens(iio_node(nr, "_event3"), O_RDONLY);
	snprintf(path, sizeof(path), "/sys/class/iio/iio%d/dma0/buffer", nr);
	expect_group_opens(path, O_RDWR);
	/* freed (dma_free): its REMOVE; requested again: its ADD */
	EXPECT_EQ(iio_dma_free(nr, "0"), 0);
	n_expected = 0;
	expect_dma(nr, 0);
	wait_uevents(sock, "remove", NVME_PCI);
	EXPECT_EQ(iio_dma_request(nr, "0x1000"), 0);
	n_expected = 0;
	expect_dma(nr, 0);
	wait_uevents(sock, "add", NVME_PCI);

	EXPECT_EQ(pci_driver_unbind("iio_pci_generic", NVME_PCI), 0);
	expect_nodes(nr, false, false, 4);
	expect_dma(nr, 0);
	wait_uevents(sock, "remove", NVME_PCI);
	close(sock);
	EXPECT_EQ(write_text("/sys/bus/pci/devices/" NVME_PCI "/driver_override",
			     "none"), 0);
}

static const struct check_case cases[] = {
	CASE_T(dummy_nodes_add_and_remove, 60),
	CASE_T(edu_dma_buffer_add_and_remove, 60),
	CASE_T(msix_event_nodes_and_requested_dma, 60),
};
CHECK_MAIN(cases)
