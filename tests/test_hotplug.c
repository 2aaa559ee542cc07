// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_hotplug.c - devices removed from the running machine (device_del
 * on QEMU's monitor, through qemu/run's ttyS4; the guest's ACPI PCI
 * hotplug, acpiphp, takes each device away) while they are in use: an edu
 * bound to iio_edu (e1c, 00:1c.0), one bound to iio_pci_generic with a
 * DMA buffer mapped (e1d, 00:1d.0), and a hot-added NVMe controller
 * (00:1b.0) under udrv-nvme (examples/nvme.c).  Blocked readers get EIO, pollers
 * POLLERR | POLLHUP, O_ASYNC owners POLL_HUP, mappings SIGBUS, no event
 * comes from the teardown, the device number comes back once the last
 * file is closed, and a new device added in the same slot binds and
 * works.  The removed edus are replaced and left as qemu/init leaves them
 * (no driver); the NVMe controller is removed again.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/iio_test.h"

#define EDU_ID		0x00
#define EDU_LIVENESS	0x04
#define EDU_FACTORIAL	0x08
#define EDU_STATUS	0x20
#define EDU_IRQ_STATUS	0x24
#define EDU_IRQ_ACK	0x64
#define EDU_DMA_SRC	0x80
#define EDU_ID_VALUE	0x010000ed

#define NVME_PCI	"0000:00:1b.0"	/* a free slot: MSI-X only */
#define NVME_ID		"hpnvme"
#define OUT		"/tmp/hotplug-nvme.out"
#define ERR		"/tmp/hotplug-nvme.err"
#define EXIT_GONE	7		/* udrv-nvme: device gone */

/* bounds of every wait, in ms */
#define GONE_MS		30000		/* device_del until sysfs lets go */
#define ADDED_MS	30000		/* device_add until iio_edu registered it */
#define CHILD_MS	30000		/* a user of the device until it ended */

static const char *pci_path(const char *pci, const char *file)
{
	static char path[160];

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s%s%s", pci,
		 *file ? "/" : "", file);
	return path;
}

/* the name of @pci's driver, "" if none (static buffer) */
static const char *driver_of(const char *pci)
{
	static char target[256];
	ssize_t n = readlink(pci_path(pci, "driver"), target,
			     sizeof(target) - 1);
	char *base;

	if (n < 0)
		return "";
	target[n] = 0;
	base = strrchr(target, '/');
	return base ? base + 1 : target;
}

/* bind @pci to @drv the way a user does (driver_override, bind) */
static void bind_to(const char *pci, const char *drv)
{
	EXPECT_EQ(write_text(pci_path(pci, "driver_override"), drv), 0);
	EXPECT_EQ(pci_driver_bind(drv, pci), 0);
}

/* unbind @pci from @drv and leave it to no driver, as qemu/init does */
static void leave_unbound(const char *pci, const char *drv)
{
	EXPECT_EQ(pci_driver_unbind(drv, pci), 0);
	EXPECT_EQ(write_text(pci_path(pci, "driver_override"), "none"), 0);
}

/*
 * device_add @args.  Right after the guest let go of a device in the same
 * slot QEMU may still hold it (acpiphp removes the device, then asks the
 * firmware to eject it): retried while QEMU says so, for ADDED_MS.
 */
static void device_add(const char *args)
{
	unsigned long long deadline = now_ms() + ADDED_MS;
	const char *reply;

	for (;;) {
		reply = qemu_monitor("device_add %s", args);
		if (!*reply)
			return;
		if ((!strstr(reply, "not available") &&
		     !strstr(reply, "Duplicate")) || now_ms() >= deadline)
			FAIL("device_add %s: %s", args, reply);
		msleep(20);
	}
}

/* device_del @id and wait until the guest has removed @pci */
static void device_del(const char *id, const char *pci)
{
	const char *reply = qemu_monitor("device_del %s", id);

	if (*reply)
		FAIL("device_del %s: %s", id, reply);
	if (wait_path(pci_path(pci, ""), 0, GONE_MS))
		FAIL("%s still there %d ms after device_del %s", pci, GONE_MS,
		     id);
}

/* wait up to @ms for @pid: its status, or -1 (then it is killed) */
static int wait_status(pid_t pid, unsigned int ms)
{
	unsigned long long deadline = now_ms() + ms;
	int status;

	while (waitpid(pid, &status, WNOHANG) != pid) {
		if (now_ms() >= deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -1;
		}
		msleep(10);
	}
	return status;
}

static volatile uint32_t *map_bar(int fd, size_t len)
{
	volatile uint32_t *p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	EXPECT(p != MAP_FAILED);
	return p;
}

/* wait up to 5 s for an event on @efd; it must be the count @expect */
static void wait_event(int efd, uint32_t expect)
{
	struct pollfd pfd = { .fd = efd, .events = POLLIN };

	if (poll(&pfd, 1, 5000) != 1)
		FAIL("no event within 5 s (want count %u)", expect);
	EXPECT_EQ(event_read(efd), expect);
}

/*
 * The edu registered as @nr works: registers by read/write and by mmap,
 * and the factorial unit's interrupt is one event.  @user_acks: the stub
 * leaves the interrupt to user space (iio_pci_generic), which acknowledges
 * it and, on INTx, unmasks the line.
 */
static void edu_works(int nr, const char *pci, bool user_acks)
{
	uint32_t v, before, one = 1;
	volatile uint32_t *regs;
	int fd, efd;

	fd = MUST(open(iio_node(nr, ""), O_RDWR));
	efd = MUST(open(iio_node(nr, "_event"), O_RDWR));
	regs = map_bar(fd, 4096);
	EXPECT_EQ(regs[EDU_ID / 4], EDU_ID_VALUE);
	v = 0x5a5a1234;
	EXPECT_EQ(pwrite(fd, &v, 4, EDU_LIVENESS), 4);
	EXPECT_EQ(regs[EDU_LIVENESS / 4], ~0x5a5a1234u);
	before = read_num(iio_attr_path(nr, "event"));
	regs[EDU_STATUS / 4] = 0x80;
	regs[EDU_FACTORIAL / 4] = 6;
	wait_event(efd, before + 1);
	EXPECT_EQ(pread(fd, &v, 4, EDU_FACTORIAL), 4);
	EXPECT_EQ(v, 720);
	if (user_acks) {
		regs[EDU_IRQ_ACK / 4] = regs[EDU_IRQ_STATUS / 4];
		if (!strcmp(read_text(pci_path(pci, "irq_mode")), "intx"))
			EXPECT_EQ(write(efd, &one, 4), 4);
	}
	EXPECT_EQ(regs[EDU_IRQ_STATUS / 4], 0);
	regs[EDU_STATUS / 4] = 0;
	EXPECT_EQ(read_num(iio_attr_path(nr, "event")), before + 1);
	munmap((void *)regs, 4096);
	close(efd);
	close(fd);
}

/*
 * The users of a device that is about to go, each a child that records
 * in shared memory how its end went ("" when as documented).
 */
enum user_kind {
	READER,		/* blocked in read() of the event node: EIO */
	POLLER,		/* in poll(): POLLERR | POLLHUP, and then EIO */
	ASYNC,		/* O_ASYNC owner: one signal, POLL_HUP */
	TOUCHER,	/* reads and writes registers through a mapping: SIGBUS */
	PREADER,	/* the same by pread/pwrite: EIO */
	DMA_TOUCHER,	/* reads and writes a mapped DMA buffer: SIGBUS */
	NKINDS
};

static const char *const kind_names[NKINDS] = {
	"blocked reader", "poller", "O_ASYNC owner", "mapping toucher",
	"pread/pwrite loop", "DMA buffer toucher",
};

#define DMA_BYTES	8192

struct user {
	volatile unsigned long long rounds;	/* register round trips */
	volatile uint32_t last_count;		/* the last event count seen */
	char why[200];				/* what went wrong */
};

static struct user *users;
/* not in *users: a child would write its fork()'s 0 there; 0: none */
static pid_t user_pids[NKINDS];

static struct user *shared_users(void)
{
	struct user *u = mmap(NULL, sizeof(*u) * NKINDS,
			      PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	EXPECT(u != MAP_FAILED);
	return u;
}

__attribute__((noreturn, format(printf, 2, 3)))
static void user_fail(struct user *u, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(u->why, sizeof(u->why), fmt, ap);
	va_end(ap);
	_exit(1);
}

/* pread or pwrite of @len bytes at @off: done, or _exit(0) on EIO */
static void access_or_eio(struct user *u, bool write, int fd, void *p,
			  size_t len, off_t off)
{
	ssize_t n = write ? pwrite(fd, p, len, off) : pread(fd, p, len, off);

	if (n == -1 && errno == EIO)
		_exit(0);
	if (n != (ssize_t)len)
		user_fail(u, "%s at 0x%llx returned %zd (errno %d), want %zu or EIO",
			  write ? "pwrite" : "pread", (long long)off, n, errno,
			  len);
}

/*
 * One round trip: the identification register and a register written
 * and read back, through @regs (the mapping: liveness, which answers the
 * inverse) or @fd (pread/pwrite: the DMA source address, which answers
 * what was written), so that the two loops do not share a register.  A
 * device in reset or gone would answer 0 or all ones.
 */
static void round_trip(struct user *u, volatile uint32_t *regs, int fd)
{
	uint32_t id, x = (uint32_t)u->rounds * 2654435761u, live;
	uint64_t src = 0x1000 + (x & 0xfff000), back;

	if (regs) {
		id = regs[EDU_ID / 4];
		regs[EDU_LIVENESS / 4] = x;
		live = regs[EDU_LIVENESS / 4];
		if (id != EDU_ID_VALUE || live != ~x)
			user_fail(u, "round %llu: id 0x%08x, liveness 0x%08x after writing 0x%08x",
				  u->rounds, id, live, x);
	} else {
		access_or_eio(u, false, fd, &id, 4, EDU_ID);
		access_or_eio(u, true, fd, &src, 8, EDU_DMA_SRC);
		access_or_eio(u, false, fd, &back, 8, EDU_DMA_SRC);
		if (id != EDU_ID_VALUE || back != src)
			user_fail(u, "round %llu: id 0x%08x, DMA source 0x%llx after writing 0x%llx",
				  u->rounds, id, (unsigned long long)back,
				  (unsigned long long)src);
	}
	u->rounds++;
}

/*
 * One round over the DMA buffer @w: round r finds word i = r ^ i (what
 * round r - 1 wrote; the parent wrote round 0's) and writes r + 1 ^ i.
 * Memory given back to the kernel under the mapping would not keep that.
 */
static void dma_round(struct user *u, volatile uint32_t *w)
{
	uint32_t r = (uint32_t)u->rounds, i;

	for (i = 0; i < DMA_BYTES / 4; i++) {
		if (w[i] != (r ^ i))
			user_fail(u, "round %u: word %u of the DMA buffer is 0x%08x, not 0x%08x",
				  r, i, w[i], r ^ i);
		w[i] = (r + 1) ^ i;
	}
	u->rounds++;
}

static void run_user(struct user *u, enum user_kind kind, int nr,
		     const char *dma_buffer, uint32_t count)
{
	struct pollfd pfd = { .events = POLLIN };
	volatile uint32_t *regs = NULL;
	siginfo_t si;
	sigset_t set;
	uint32_t c;
	ssize_t n;
	int fd;

	u->last_count = count;
	switch (kind) {
	case READER:
		fd = open(iio_node(nr, "_event"), O_RDONLY);
		if (fd < 0)
			user_fail(u, "open: errno %d", errno);
		n = read(fd, &c, 4);
		if (n == -1 && errno == EIO)
			_exit(0);
		if (n == 4)
			u->last_count = c;
		user_fail(u, "read returned %zd (errno %d, count %u), want EIO",
			  n, errno, n == 4 ? c : 0);
	case POLLER:
		fd = open(iio_node(nr, "_event"), O_RDONLY);
		if (fd < 0)
			user_fail(u, "open: errno %d", errno);
		pfd.fd = fd;
		/* longer than the removal and the parent's wait for us */
		if (poll(&pfd, 1, GONE_MS + CHILD_MS) != 1)
			user_fail(u, "poll: nothing within %d ms",
				  GONE_MS + CHILD_MS);
		if (pfd.revents != (POLLERR | POLLHUP)) {
			if (pfd.revents & POLLIN && read(fd, &c, 4) == 4)
				u->last_count = c;
			user_fail(u, "poll: revents 0x%x, want POLLERR | POLLHUP",
				  pfd.revents);
		}
		n = read(fd, &c, 4);
		if (n != -1 || errno != EIO)
			user_fail(u, "read after POLLHUP returned %zd (errno %d), want EIO",
				  n, errno);
		_exit(0);
	case ASYNC:
		sigemptyset(&set);
		sigaddset(&set, SIGRTMIN);
		sigprocmask(SIG_BLOCK, &set, NULL);
		fd = open(iio_node(nr, "_event"), O_RDONLY);
		if (fd < 0 || fcntl(fd, F_SETOWN, getpid()) ||
		    fcntl(fd, F_SETSIG, SIGRTMIN) ||
		    fcntl(fd, F_SETFL, O_ASYNC))
			user_fail(u, "O_ASYNC setup: errno %d", errno);
		if (sigwaitinfo(&set, &si) != SIGRTMIN)
			user_fail(u, "sigwaitinfo: errno %d", errno);
		if (si.si_code != POLL_HUP) {
			if (read(fd, &c, 4) == 4)
				u->last_count = c;
			user_fail(u, "signal with si_code %d, want POLL_HUP (%d)",
				  si.si_code, POLL_HUP);
		}
		_exit(0);
	case TOUCHER:
	case PREADER:
		fd = open(iio_node(nr, ""), O_RDWR);
		if (fd < 0)
			user_fail(u, "open: errno %d", errno);
		if (kind == TOUCHER) {
			regs = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				    MAP_SHARED, fd, 0);
			if (regs == MAP_FAILED)
				user_fail(u, "mmap: errno %d", errno);
		}
		for (;;)
			round_trip(u, regs, fd);
	case DMA_TOUCHER:
		fd = open(dma_buffer, O_RDWR);
		if (fd < 0)
			user_fail(u, "open %s: errno %d", dma_buffer, errno);
		regs = mmap(NULL, DMA_BYTES, PROT_READ | PROT_WRITE,
			    MAP_SHARED, fd, 0);
		if (regs == MAP_FAILED)
			user_fail(u, "mmap %s: errno %d", dma_buffer, errno);
		for (;;)
			dma_round(u, regs);
	case NKINDS:
		break;
	}
	_exit(2);
}

/*
 * A user of each kind (a DMA buffer toucher if @dma_buffer, the path of
 * a buffer file the parent filled for round 0), each started and waiting
 * or running.
 */
static void start_users(int nr, const char *dma_buffer)
{
	static const long blocked_in[NKINDS] = {
		[READER] = SYS_read, [POLLER] = SYS_poll,
		[ASYNC] = SYS_rt_sigtimedwait,
	};
	uint32_t count = read_num(iio_attr_path(nr, "event"));
	unsigned long long deadline;
	int k;

	users = shared_users();
	for (k = 0; k < NKINDS; k++) {
		user_pids[k] = 0;
		if (k == DMA_TOUCHER && !dma_buffer)
			continue;
		user_pids[k] = fork();
		if (user_pids[k] < 0)
			FAIL("fork: %s", strerror(errno));
		if (!user_pids[k])
			run_user(&users[k], k, nr, dma_buffer, count);
		if (blocked_in[k])
			wait_sleeping_in(user_pids[k], blocked_in[k], 10000);
	}
	deadline = now_ms() + 10000;
	while (users[TOUCHER].rounds < 100 || users[PREADER].rounds < 100 ||
	       (dma_buffer && users[DMA_TOUCHER].rounds < 100)) {
		if (now_ms() >= deadline)
			FAIL("the loops did not get going: %llu, %llu and %llu rounds (%s / %s / %s)",
			     users[TOUCHER].rounds, users[PREADER].rounds,
			     users[DMA_TOUCHER].rounds, users[TOUCHER].why,
			     users[PREADER].why, users[DMA_TOUCHER].why);
		msleep(10);
	}
}

/* each user ended as documented; no event came from the teardown */
static void check_users(uint32_t count)
{
	char dma_note[64];
	int k, status;

	snprintf(dma_note, sizeof(dma_note), ", %llu over the DMA buffer",
		 users[DMA_TOUCHER].rounds);
	for (k = 0; k < NKINDS; k++) {
		if (!user_pids[k])
			continue;
		status = wait_status(user_pids[k], CHILD_MS);
		if (status == -1)
			FAIL("%s still running %d ms after the removal",
			     kind_names[k], CHILD_MS);
		if (k == TOUCHER || k == DMA_TOUCHER) {
			if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGBUS)
				FAIL("%s: %s %d, want SIGBUS (%s)", kind_names[k],
				     WIFEXITED(status) ? "exit" : "signal",
				     WIFEXITED(status) ? WEXITSTATUS(status) :
							 WTERMSIG(status),
				     users[k].why);
		} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			FAIL("%s: %s %d: %s", kind_names[k],
			     WIFEXITED(status) ? "exit" : "signal",
			     WIFEXITED(status) ? WEXITSTATUS(status) :
						 WTERMSIG(status),
			     users[k].why[0] ? users[k].why : "?");
		}
		if (users[k].last_count != count)
			FAIL("%s saw event count %u, the count before the removal was %u",
			     kind_names[k], users[k].last_count, count);
	}
	check_note("rounds before the removal: %llu by mapping, %llu by pread/pwrite%s",
		   users[TOUCHER].rounds, users[PREADER].rounds,
		   user_pids[DMA_TOUCHER] ? dma_note : "");
	munmap(users, sizeof(*users) * NKINDS);
}

/* the parent's own files of the gone device */
static void check_files_of_gone(int fd, int efd, volatile uint32_t *regs)
{
	struct pollfd pfd = { .fd = efd, .events = POLLIN };
	uint32_t v;

	EXPECT_ERRNO(read(efd, &v, 4), EIO);
	EXPECT_EQ(poll(&pfd, 1, 0), 1);
	EXPECT_EQ(pfd.revents, POLLERR | POLLHUP);
	EXPECT_ERRNO(pread(fd, &v, 4, EDU_ID), EIO);
	EXPECT_ERRNO(pwrite(fd, &v, 4, EDU_LIVENESS), EIO);
	EXPECT_ERRNO(mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0), ENODEV);
	expect_sigbus(regs, 0);
	expect_sigbus(regs, 1);
}

/*
 * An edu (QEMU id @id at @pci, left unbound by qemu/init) bound to @drv
 * and removed while in use; a new edu in its slot binds to iio_edu (and,
 * for iio_pci_generic, is then moved there) and works, and once the old
 * files are closed the old number comes back.
 */
static void edu_removed_in_use(const char *id, const char *pci,
			       const char *drv)
{
	bool generic = !strcmp(drv, "iio_pci_generic");
	int nr, new_nr, again, fd, efd, bfd = -1, sock;
	volatile uint32_t *regs;
	char add[64], path[160];
	uint8_t *buf = NULL;
	uint32_t count;

	if (!path_exists(pci_path(pci, "")))
		FAIL("no %s (qemu/run's device %s)", pci, id);
	bind_to(pci, drv);
	nr = iio_find_by_parent(pci);
	if (nr < 0)
		FAIL("no iio device for %s after binding it to %s", pci, drv);
	edu_works(nr, pci, generic);

	fd = MUST(open(iio_node(nr, ""), O_RDWR));
	efd = MUST(open(iio_node(nr, "_event"), O_RDWR));
	regs = map_bar(fd, 4096);
	if (generic) {
		snprintf(path, sizeof(path), "%d", DMA_BYTES);
		EXPECT_EQ(iio_dma_request(nr, path), 0);
		snprintf(path, sizeof(path), "/sys/class/iio/iio%d/dma0/buffer",
			 nr);
		bfd = MUST(open(path, O_RDWR));
		buf = mmap(NULL, DMA_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED,
			   bfd, 0);
		EXPECT(buf != MAP_FAILED);
		for (uint32_t i = 0; i < DMA_BYTES / 4; i++)
			((uint32_t *)buf)[i] = i;	/* round 0 */
	}
	count = read_num(iio_attr_path(nr, "event"));
	start_users(nr, generic ? path : NULL);

	device_del(id, pci);
	EXPECT(!path_exists(iio_attr_path(nr, "")));
	check_users(count);
	check_files_of_gone(fd, efd, regs);
	if (generic) {
		expect_sigbus(buf, 0);
		expect_sigbus(buf + 4096, 1);
		EXPECT_ERRNO(pread(bfd, path, 1, 0), ENODEV);
	}

	/* a new edu in the slot, while the old files hold number nr */
	snprintf(add, sizeof(add), "edu,id=%s,addr=0x%.2s", id, pci + 8);
	sock = uevent_socket();
	device_add(add);
	new_nr = wait_iio_added(sock, pci, ADDED_MS);
	close(sock);
	EXPECT(new_nr != nr);
	EXPECT_STREQ(driver_of(pci), "iio_edu");
	edu_works(new_nr, pci, false);
	if (generic) {
		EXPECT_EQ(pci_driver_unbind("iio_edu", pci), 0);
		bind_to(pci, drv);
		new_nr = iio_find_by_parent(pci);
		EXPECT(new_nr >= 0 && new_nr != nr);
		edu_works(new_nr, pci, true);
	}

	/* the last close and unmap free nr: the next registration takes it */
	if (generic) {
		munmap(buf, DMA_BYTES);
		close(bfd);
	}
	munmap((void *)regs, 4096);
	close(efd);
	close(fd);
	EXPECT_EQ(pci_driver_unbind(drv, pci), 0);
	bind_to(pci, drv);
	again = iio_find_by_parent(pci);
	if (again != nr)
		FAIL("registered again as iio%d (iio%d before): iio%d, freed by the last close, is the lowest free number",
		     again, new_nr, nr);
	edu_works(again, pci, generic);
	leave_unbound(pci, drv);
}

static void monitor_answers(void)
{
	const char *reply = qemu_monitor("device_del no-such-device");

	if (!strstr(reply, "no-such-device") || !strstr(reply, "not found"))
		FAIL("device_del no-such-device: reply \"%s\"", reply);
	reply = qemu_monitor("info pci");
	if (!strstr(reply, "id \"e1c\"") || !strstr(reply, "id \"e1d\""))
		FAIL("info pci shows no e1c and e1d: \"%.300s\"", reply);
}

static void edu_removed_under_iio_edu(void)
{
	edu_removed_in_use("e1c", "0000:00:1c.0", "iio_edu");
}

static void edu_removed_under_iio_pci_generic(void)
{
	edu_removed_in_use("e1d", "0000:00:1d.0", "iio_pci_generic");
}

/*
 * An NVMe controller hot-added at NVME_PCI on a new drive (QEMU's null-co
 * driver: 1 MiB that reads as zeros; drive @k of this process), bound to
 * iio_pci_generic; its iio device.
 */
static int nvme_add_with(int k, const char *more)
{
	char args[160], drive_id[32];
	int sock, err, nr;
	const char *reply;

	snprintf(drive_id, sizeof(drive_id), "hp%d-%d", (int)getpid(), k);
	reply = qemu_monitor("drive_add 0 if=none,id=%s,driver=null-co,read-zeroes=on,size=1M",
			     drive_id);
	if (strcmp(reply, "OK"))
		FAIL("drive_add %s: %s", drive_id, reply);
	snprintf(args, sizeof(args), "nvme,id=" NVME_ID ",serial=iio-nvme-hp,drive=%s,addr=0x%.2s%s",
		 drive_id, NVME_PCI + 8, more);
	sock = uevent_socket();
	device_add(args);
	/*
	 * Its sysfs folder comes before the kernel lets drivers match it:
	 * driver_override set in between is what the kernel's own attach
	 * goes by; a bind meanwhile fails with ENODEV, and once the kernel
	 * has bound it with EBUSY.  Either way the ADD uevent says when it
	 * is registered.
	 */
	if (wait_path(pci_path(NVME_PCI, "driver_override"), 1, ADDED_MS))
		FAIL("no %s %d ms after device_add", NVME_PCI, ADDED_MS);
	EXPECT_EQ(write_text(pci_path(NVME_PCI, "driver_override"),
			     "iio_pci_generic"), 0);
	err = pci_driver_bind("iio_pci_generic", NVME_PCI);
	if (err && err != ENODEV && err != EBUSY)
		FAIL("binding %s: %s", NVME_PCI, strerror(err));
	nr = wait_iio_added(sock, NVME_PCI, ADDED_MS);
	close(sock);
	EXPECT_EQ(nr, iio_must_find(NVME_PCI " bar0", 0));
	return nr;
}

static int nvme_add(int k)
{
	return nvme_add_with(k, "");
}

/*
 * udrv-nvme reading (I/O completions on vector 1) and a reader blocked on
 * vector 2 when the controller is removed: the driver exits "device
 * gone" (7) with one line, the reader gets EIO; a new controller in the
 * slot takes the number back and works.
 */
static void nvme_removed_under_iio_nvme(void)
{
	unsigned long long deadline;
	int nr, again, efd, status;
	char vec1[160];
	const char *err;
	pid_t drv;

	pci_generic_reload("vectors=4");
	nr = nvme_add(1);
	snprintf(vec1, sizeof(vec1), "/sys/class/iio/iio%d/iio%d_event1/event",
		 nr, nr);
	efd = MUST(open(iio_node(nr, "_event2"), O_RDONLY));
	user_pids[READER] = fork();
	if (user_pids[READER] < 0)
		FAIL("fork: %s", strerror(errno));
	if (!user_pids[READER]) {
		uint32_t c;
		ssize_t n;

		n = read(efd, &c, 4);
		_exit(n == -1 && errno == EIO ? 0 : 1);
	}
	wait_sleeping_in(user_pids[READER], SYS_read, 10000);
	drv = fork();
	if (drv < 0)
		FAIL("fork: %s", strerror(errno));
	if (!drv) {
		execlp("sh", "sh", "-c", "exec udrv-nvme --reads 100000000 "
		       NVME_PCI " > " OUT " 2> " ERR, (char *)NULL);
		_exit(127);
	}
	/* until its reads complete on vector 1 */
	deadline = now_ms() + 60000;
	while (!path_exists(vec1) || read_num(vec1) < 100) {
		if (waitpid(drv, &status, WNOHANG) == drv)
			FAIL("udrv-nvme ended before the removal: status 0x%x: %s",
			     status, last_line(ERR, "(nothing)"));
		if (now_ms() >= deadline) {
			kill(drv, SIGKILL);
			FAIL("udrv-nvme: no 100 completions on vector 1 within 60 s: %s",
			     last_line(ERR, "(nothing)"));
		}
		msleep(10);
	}

	device_del(NVME_ID, NVME_PCI);
	status = wait_status(drv, CHILD_MS);
	if (status == -1)
		FAIL("udrv-nvme still running %d ms after the removal (killed): %s",
		     CHILD_MS, last_line(ERR, "(nothing)"));
	err = last_line(ERR, "(nothing)");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != EXIT_GONE)
		FAIL("udrv-nvme: %s %d, want exit %d: %s",
		     WIFEXITED(status) ? "exit" : "signal",
		     WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
		     EXIT_GONE, err);
	EXPECT(strstr(err, "udrv-nvme: device gone") == err);
	EXPECT_EQ(lines_in(ERR), 1);
	check_note("%s", err);
	status = wait_status(user_pids[READER], CHILD_MS);
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status))
		FAIL("the reader blocked on vector 2: status %d, want EIO (exit 0)",
		     status);
	close(efd);

	again = nvme_add(2);
	EXPECT_EQ(again, nr);
	status = shell("udrv-nvme --reads 20 " NVME_PCI " > " OUT " 2> " ERR);
	if (status)
		FAIL("udrv-nvme on the new controller: exit %d: %s", status,
		     last_line(ERR, "(nothing)"));
	EXPECT_EQ(shell("grep -qx 'reads: 20 x 4096 bytes, not checked, 0 mismatches' " OUT), 0);
	EXPECT_EQ(pci_driver_unbind("iio_pci_generic", NVME_PCI), 0);
	device_del(NVME_ID, NVME_PCI);
}

/*
 * iio_pci_generic(4): fewer MSI-X vectors are used if that is all the
 * device has.  A controller with 3 (QEMU's msix_qsize) under vectors=8:
 * vectors 0 to 2, /dev/iioN_event1 and _event2 and no _event3, and "3
 * MSI-X vectors" in the kernel log.
 */
static void fewer_msix_vectors_than_asked(void)
{
	unsigned int logged = kmsg_count_with(NVME_PCI, ": 3 MSI-X vectors");
	int nr;

	pci_generic_reload("vectors=8");
	nr = nvme_add_with(3, ",msix_qsize=3");
	EXPECT_EQ(read_num(iio_attr_path(nr, "vectors")), 3);
	EXPECT(path_exists(iio_node(nr, "_event2")));
	EXPECT(!path_exists(iio_node(nr, "_event3")));
	EXPECT_EQ(kmsg_count_with(NVME_PCI, ": 3 MSI-X vectors"), logged + 1);
	EXPECT_EQ(pci_driver_unbind("iio_pci_generic", NVME_PCI), 0);
	device_del(NVME_ID, NVME_PCI);
	pci_generic_reload("");
}

/*
 * The edus e1c and e1d back in their slots without a driver, no NVMe
 * controller in NVME_PCI and iio_pci_generic with its defaults, as the
 * other test programs expect the machine (also after a failed case).
 */
static void machine_as_booted(void)
{
	static const char *const edus[][2] = {
		{ "e1c", "0000:00:1c.0" }, { "e1d", "0000:00:1d.0" },
	};
	char add[64];
	unsigned int i;
	int sock;

	for (i = 0; i < 2; i++) {
		const char *id = edus[i][0], *pci = edus[i][1];

		if (!path_exists(pci_path(pci, ""))) {
			snprintf(add, sizeof(add), "edu,id=%s,addr=0x%.2s", id,
				 pci + 8);
			sock = uevent_socket();
			device_add(add);
			wait_iio_added(sock, pci, ADDED_MS);	/* iio_edu */
			close(sock);
		}
		if (*driver_of(pci))
			EXPECT_EQ(pci_driver_unbind(driver_of(pci), pci), 0);
		EXPECT_EQ(write_text(pci_path(pci, "driver_override"), "none"), 0);
		EXPECT_EQ(iio_find_by_parent(pci), -1);
	}
	if (path_exists(pci_path(NVME_PCI, "")))
		device_del(NVME_ID, NVME_PCI);
	pci_generic_reload("");
}

static const struct check_case cases[] = {
	CASE_T(monitor_answers, 60),
	CASE_T(edu_removed_under_iio_edu, 180),
	CASE_T(edu_removed_under_iio_pci_generic, 180),
	CASE_T(nvme_removed_under_iio_nvme, 240),
	CASE_T(fewer_msix_vectors_than_asked, 120),
	CASE_T(machine_as_booted, 120),
};
CHECK_MAIN(cases)
