// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_lifetime.c - unregistering (rmmod of the stub) while the device is
 * in use: open files, blocked readers, pollers, mappings, racing opens.
 * Mainline UIO needed five use-after-free fixes here (a93e7b331568,
 * 57c5f4df0a5a, 8fd0e2a6df26, 092561f06702, 0c9ae0b86050); each path they
 * name has a case.  The guest boots with slub_debug=FZPU, and the harness
 * fails the run on any poison report, oops, BUG or WARNING.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/netlink.h>

#include "lib/iio_test.h"

static int nr;

static void setup(void)
{
	dummy_reload("freq=0");
	nr = dummy_nr(0);
}

static void remove_dummy(void)
{
	if (shell("rmmod iio_user_dummy"))
		FAIL("rmmod iio_user_dummy failed");
}

/* 57c5f4df0a5a, 092561f06702: a reader blocked in read() at unregister */
static void blocked_reader_gets_eio(void)
{
	pid_t pid;

	setup();
	pid = fork();
	if (!pid) {
		int fd = open(iio_node(nr, "_event"), O_RDONLY);
		uint32_t c;

		if (fd < 0)
			_exit(2);
		if (read(fd, &c, 4) != -1 || errno != EIO)
			_exit(1);
		_exit(0);
	}
	wait_sleeping_in(pid, SYS_read, 10000);
	remove_dummy();
	expect_child_ok(pid);
	dummy_reload("");
}

static void poller_wakes_with_error(void)
{
	pid_t pid, epid;

	setup();
	pid = fork();
	if (!pid) {
		int fd = open(iio_node(nr, "_event"), O_RDONLY);
		struct pollfd pfd = { .fd = fd, .events = POLLIN };

		if (poll(&pfd, 1, 10000) != 1)
			_exit(1);
		_exit(pfd.revents == (POLLERR | POLLHUP) ? 0 : 3);
	}
	epid = fork();
	if (!epid) {
		int fd = open(iio_node(nr, "_event"), O_RDONLY);
		struct epoll_event ev = { .events = EPOLLIN }, got;
		int ep = epoll_create1(0);

		if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev))
			_exit(2);
		if (epoll_wait(ep, &got, 1, 10000) != 1)
			_exit(1);
		_exit(got.events == (EPOLLERR | EPOLLHUP) ? 0 : 3);
	}
	wait_sleeping_in(pid, SYS_poll, 10000);
	wait_sleeping_in(epid, SYS_epoll_wait, 10000);
	remove_dummy();
	expect_child_ok(pid);
	expect_child_ok(epid);
	dummy_reload("");
}

static volatile sig_atomic_t sigio, sigio_code, sigio_fd;

static void on_sigio(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	sigio++;
	sigio_code = si->si_code;
	sigio_fd = si->si_fd;
}

/* a93e7b331568, 57c5f4df0a5a: every file operation after unregister */
static void calls_after_remove_fail(void)
{
	int fd, efd, afd, in;
	struct sigaction sa = { .sa_sigaction = on_sigio, .sa_flags = SA_SIGINFO };
	struct pollfd pfd;
	uint32_t c = 1;
	char buf[8];

	setup();
	MUST(sigaction(SIGIO, &sa, NULL));
	fd = MUST(open(iio_node(nr, ""), O_RDWR));
	in = MUST(open(iio_node(nr, "_in"), O_RDONLY));
	efd = MUST(open(iio_node(nr, "_event"), O_RDWR));
	afd = MUST(open(iio_node(nr, "_event"), O_RDONLY));
	MUST(fcntl(afd, F_SETOWN, getpid()));
	MUST(fcntl(afd, F_SETSIG, SIGIO));	/* with si_code and si_fd */
	MUST(fcntl(afd, F_SETFL, O_ASYNC));
	remove_dummy();

	/* the O_ASYNC file is told once, with POLL_HUP */
	EXPECT_EQ(sigio, 1);
	EXPECT_EQ(sigio_code, POLL_HUP);
	EXPECT_EQ(sigio_fd, afd);
	EXPECT_ERRNO(read(fd, buf, 8), EIO);
	EXPECT_ERRNO(pread(in, buf, 8, 0), EIO);
	EXPECT_ERRNO(write(fd, buf, 8), EIO);
	EXPECT_ERRNO(read(fd, buf, 0), EIO);	/* even with nothing to move */
	EXPECT_ERRNO(write(fd, buf, 0), EIO);
	EXPECT_ERRNO(lseek(fd, 0, SEEK_SET), EIO);
	EXPECT_ERRNO(mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0), ENODEV);
	EXPECT_ERRNO(read(efd, &c, 4), EIO);
	EXPECT_ERRNO(write(efd, &c, 4), EIO);
	pfd = (struct pollfd){ .fd = efd, .events = POLLIN };
	EXPECT_EQ(poll(&pfd, 1, 0), 1);
	EXPECT_EQ(pfd.revents, POLLERR | POLLHUP);
	MUST(fcntl(efd, F_SETFL, O_ASYNC));
	EXPECT(!path_exists(iio_node(nr, "")));
	EXPECT(!path_exists(iio_node(nr, "_event")));
	EXPECT(!path_exists(iio_attr_path(nr, "name")));
	MUST(close(fd));
	MUST(close(in));
	MUST(close(efd));
	MUST(close(afd));
	dummy_reload("");
}

/* user mappings are zapped: touching them raises SIGBUS */
static void mapping_faults_after_remove(void)
{
	volatile unsigned char *p, *in;
	int fd, fdi;

	setup();
	fd = MUST(open(iio_node(nr, ""), O_RDWR));
	fdi = MUST(open(iio_node(nr, "_in"), O_RDONLY));
	p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	in = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fdi, 0);
	EXPECT(p != MAP_FAILED && in != MAP_FAILED);
	p[0] = 1;
	EXPECT_EQ(in[0], 1);
	close(fd);	/* the mapping alone keeps the file */
	remove_dummy();

	expect_sigbus(p, 1);
	expect_sigbus(in + 100, 0);
	EXPECT_EQ(munmap((void *)p, 8192), 0);
	EXPECT_EQ(munmap((void *)in, 4096), 0);
	close(fdi);
	dummy_reload("");
}

/* 8fd0e2a6df26: the number is reused only after the last user is gone */
static void number_reused_after_last_close(void)
{
	int fd, old, again;

	setup();
	old = nr;
	fd = MUST(open(iio_node(old, "_event"), O_RDONLY));
	remove_dummy();
	dummy_reload("");
	again = dummy_nr(0);
	EXPECT(again != old);
	close(fd);
	dummy_reload("");
	EXPECT_EQ(dummy_nr(0), old);
}

/* a mapping alone (its file closed) holds the number too */
static void number_held_by_mapping(void)
{
	void *p;
	int fd, old;

	setup();
	old = nr;
	fd = MUST(open(iio_node(old, ""), O_RDWR));
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	EXPECT(p != MAP_FAILED);
	MUST(close(fd));
	remove_dummy();
	dummy_reload("");
	EXPECT(dummy_nr(0) != old);
	MUST(munmap(p, 4096));
	dummy_reload("");
	EXPECT_EQ(dummy_nr(0), old);
}

/* an attribute file open across the removal reads ENODEV */
static void sysfs_read_after_remove(void)
{
	char buf[64];
	int fd;

	setup();
	fd = MUST(open(iio_attr_path(nr, "name"), O_RDONLY));
	EXPECT(read(fd, buf, sizeof(buf)) > 0);
	remove_dummy();
	EXPECT_ERRNO(pread(fd, buf, sizeof(buf), 0), ENODEV);
	MUST(close(fd));
	dummy_reload("");
}

/*
 * At most 256 devices exist at once, counting the removed ones whose
 * numbers are still held by open files: with every number in use, a new
 * device fails to register (the dummy's insmod: ENODEV), and one number
 * given back is enough for the next.
 */
static void device_count_limit(void)
{
	static int held[300];
	int n_held = 0, i, err, live;
	char path[64];

	for (int per_load = 16; per_load >= 1; per_load = per_load > 1 ? 1 : 0) {
		char params[32];

		snprintf(params, sizeof(params), "devices=%d freq=0", per_load);
		for (;;) {
			module_unload("iio_user_dummy");
			err = module_load("iio_user_dummy", params);
			if (err)
				break;
			for (i = 0; i < per_load; i++) {
				if (n_held == 300)
					FAIL("more than 300 devices registered");
				held[n_held++] = MUST(open(iio_node(dummy_nr(i),
								   "_event"),
							   O_RDONLY));
			}
		}
		EXPECT_EQ(err, ENODEV);
	}
	for (live = 0, i = 0; i < 256; i++) {
		snprintf(path, sizeof(path), "/sys/class/iio/iio%d", i);
		live += path_exists(path);
	}
	check_note("%d numbers held by files of removed dummies, %d devices live",
		   n_held, live);
	EXPECT_EQ(n_held + live, 256);
	MUST(close(held[--n_held]));
	EXPECT_EQ(module_load("iio_user_dummy", "freq=0"), 0);
	EXPECT_EQ(module_unload("iio_user_dummy"), 0);
	while (n_held)
		MUST(close(held[--n_held]));
	dummy_reload("");
	EXPECT_EQ(dummy_nr(0), 0);
}

/* 0c9ae0b86050: open() racing with unregister */
static void open_races_unregister(void)
{
	pid_t pids[2];
	int i, round;

	setup();
	for (i = 0; i < 2; i++) {
		pids[i] = fork();
		if (!pids[i]) {
			char buf[64];
			int n;

			for (n = 0; n < 4000; n++) {
				const char *sfx = n % 2 ? "_event" : "";
				int fd = open(iio_node(nr, sfx),
					      O_RDWR | O_NONBLOCK);
				int s = open(iio_attr_path(nr, "name"), O_RDONLY);

				if (s >= 0) {
					if (read(s, buf, sizeof(buf)) < 0 &&
					    errno != ENODEV)
						_exit(4);
					close(s);
				}
				if (fd < 0) {
					if (errno != ENOENT && errno != ENODEV &&
					    errno != ENXIO)
						_exit(3);
					continue;
				}
				if (read(fd, buf, 4) < 0 && errno != EIO &&
				    errno != EAGAIN)
					_exit(5);
				close(fd);
			}
			_exit(0);
		}
	}
	for (round = 0; round < 15; round++) {
		dummy_reload("freq=1000");
		msleep(20);
	}
	for (i = 0; i < 2; i++)
		expect_child_ok(pids[i]);
	dummy_reload("");
}

/*
 * mmap() racing with unregister: every mapping ever made of a removed
 * device must fault, also one made while the device was going away.
 */
static void mmap_races_unregister(void)
{
	int fds[2], round, n = 0, i;
	char ready;
	pid_t pid;

	setup();
	MUST(pipe(fds));
	pid = fork();
	if (!pid) {
		static volatile unsigned char *maps[4096];
		char cmd;

		close(fds[1]);
		while (n < 4096) {
			int fd = open(iio_node(nr, ""), O_RDWR);
			volatile unsigned char *p;

			if (fd < 0) {
				struct pollfd pfd = { .fd = fds[0], .events = POLLIN };

				if (poll(&pfd, 1, 0) == 1)
					break;	/* the parent is done */
				continue;
			}
			p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
				 fd, 0);
			close(fd);
			if (p == MAP_FAILED)
				continue;
			maps[n++] = p;
		}
		if (read(fds[0], &cmd, 1) != 1)
			_exit(3);
		/* every device they belong to is gone now */
		for (i = 0; i < n; i++)
			expect_sigbus(maps[i], i % 2);
		_exit(0);
	}
	close(fds[0]);
	for (round = 0; round < 10; round++) {
		msleep(30);
		dummy_reload("freq=0");
	}
	remove_dummy();
	ready = 1;
	EXPECT_EQ(write(fds[1], &ready, 1), 1);
	expect_child_ok(pid);
	close(fds[1]);
	dummy_reload("");
}

/*
 * A long read() in progress when the region goes away.  The child tells
 * when its first whole 64 MiB read is done (no sleep standing for "it is
 * reading now"); from then on it reads again and again, each read long
 * under TCG, so the removal meets one of them.
 */
static void read_in_progress_at_remove(void)
{
	int fd, fds[2];
	char ready;
	pid_t pid;

	dummy_reload("size=0x4000000 freq=0");
	nr = dummy_nr(0);
	fd = MUST(open(iio_node(nr, ""), O_RDONLY));
	MUST(pipe(fds));
	pid = fork();
	if (!pid) {
		char *buf = malloc(0x4000000);
		ssize_t n;

		close(fds[0]);
		if (!buf || pread(fd, buf, 0x4000000, 0) != 0x4000000 ||
		    write(fds[1], "r", 1) != 1)
			_exit(2);
		do {
			n = pread(fd, buf, 0x4000000, 0);
		} while (n == 0x4000000);
		/* the bytes done before it went away, then EIO */
		if (n > 0)
			n = pread(fd, buf, 0x4000000, 0);
		_exit(n == -1 && errno == EIO ? 0 : 1);
	}
	close(fds[1]);
	close(fd);
	EXPECT_EQ(read(fds[0], &ready, 1), 1);
	close(fds[0]);
	remove_dummy();
	expect_child_ok(pid);
	dummy_reload("");
}

/*
 * iioctl dump blocked writing to a full pipe while the device goes away:
 * its next read of the region fails with EIO, which is exit status 4
 * (the device went away) and one line on stderr.
 */
static void iioctl_dump_exits_4_when_gone(void)
{
	char buf[65536], want[128];
	int fds[2], status;
	pid_t pid;

	dummy_reload("size=0x400000 freq=0");
	nr = dummy_nr(0);
	MUST(pipe(fds));
	pid = MUST(fork());
	if (!pid) {
		int err = open("/tmp/dump.err", O_WRONLY | O_CREAT | O_TRUNC, 0600);
		char dev[16];

		if (err < 0 || dup2(fds[1], 1) < 0 || dup2(err, 2) < 0)
			_exit(126);
		close(fds[0]);
		snprintf(dev, sizeof(dev), "iio%d", nr);
		execlp("iioctl", "iioctl", "dump", "--all", "--raw", dev,
		       (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	wait_sleeping_in(pid, SYS_write, 10000);	/* 1 MiB read, 64 KiB written */
	remove_dummy();
	while (MUST(read(fds[0], buf, sizeof(buf))) > 0)
		;
	close(fds[0]);
	MUST(waitpid(pid, &status, 0));
	EXPECT(WIFEXITED(status));
	EXPECT_EQ(WEXITSTATUS(status), 4);
	snprintf(want, sizeof(want),
		 "iioctl: iio%d: the device went away (read of 1048576 bytes at 0x100000: Input/output error)",
		 nr);
	EXPECT_STREQ(read_text("/tmp/dump.err"), want);
	dummy_reload("");
}

/* iio.ko stays while files are open; goes once the last one closes */
static void iio_module_reload(void)
{
	int fd;

	setup();
	fd = MUST(open(iio_node(nr, "_event"), O_RDONLY));
	EXPECT(shell("for m in /sys/module/iio_*; do rmmod ${m##*/}; done") == 0);
	EXPECT(shell("rmmod iio 2>/dev/null") != 0);
	close(fd);
	EXPECT(shell("rmmod iio") == 0);
	EXPECT(!path_exists("/sys/class/iio"));
	EXPECT_EQ(module_load("iio", ""), 0);	/* with its boot parameters */
	/* the dummy first, as at boot (qemu/init): its device is iio0 */
	EXPECT(shell("for m in " MODDIR "/iio_user_dummy.ko " MODDIR
		     "/iio_[!u]*.ko; do insmod $m || exit 1; done") == 0);
	EXPECT(path_exists("/sys/class/iio/version"));
	EXPECT(dummy_nr(0) >= 0);
}

/*
 * What udev does: open the node as soon as the ADD uevent of iioN comes.
 * The device must be findable by then (the RFC, and this framework until
 * it published the number before device_add(), gave ENODEV in between).
 * A child reloads the dummy 30 times, pausing after each load.
 */
static void open_on_add_uevent(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	char msg[4096];
	int sock, opened = 0;
	pid_t child;

	sock = MUST(socket(AF_NETLINK, SOCK_DGRAM, NETLINK_KOBJECT_UEVENT));
	MUST(bind(sock, (struct sockaddr *)&sa, sizeof(sa)));
	child = MUST(fork());
	if (!child) {
		for (int i = 0; i < 30; i++) {
			if (shell("rmmod iio_user_dummy && insmod " MODDIR
				  "/iio_user_dummy.ko freq=0"))
				_exit(1);
			msleep(150);
		}
		_exit(0);
	}
	while (opened < 30) {
		struct pollfd pfd = { .fd = sock, .events = POLLIN };
		ssize_t n;
		int fd;

		if (poll(&pfd, 1, 20000) != 1)
			FAIL("only %d ADD uevents of iio devices in 20 s", opened);
		n = MUST(recv(sock, msg, sizeof(msg) - 1, 0));
		msg[n] = 0;
		/* "add@/devices/platform/iio_user_dummy.0/iio/iio0" */
		if (strncmp(msg, "add@", 4) || !strstr(msg, "/iio/iio") ||
		    strstr(strstr(msg, "/iio/iio") + 8, "/"))
			continue;
		fd = open(iio_node(atoi(strrchr(msg, 'o') + 1), ""), O_RDONLY);
		if (fd < 0)
			FAIL("open on the ADD uevent %d (%s): errno %d (%s)",
			     opened, msg, errno, strerror(errno));
		close(fd);
		opened++;
	}
	expect_child_ok(child);
	close(sock);
}

static const struct check_case cases[] = {
	CASE(blocked_reader_gets_eio),
	CASE(poller_wakes_with_error),
	CASE(calls_after_remove_fail),
	CASE(mapping_faults_after_remove),
	CASE(number_reused_after_last_close),
	CASE(number_held_by_mapping),
	CASE(sysfs_read_after_remove),
	CASE_T(device_count_limit, 120),
	CASE_T(open_races_unregister, 120),
	CASE_T(read_in_progress_at_remove, 60),
	CASE_T(iioctl_dump_exits_4_when_gone, 60),
	CASE_T(mmap_races_unregister, 120),
	CASE_T(iio_module_reload, 90),
	CASE_T(open_on_add_uevent, 90),
};
CHECK_MAIN(cases)
