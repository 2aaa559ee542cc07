// SPDX-License-Identifier: GPL-2.0-only
/* iio_test.c - see iio_test.h */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "iio_test.h"

const char *iio_attr_path(int nr, const char *attr)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/class/iio/iio%d/%s", nr, attr);
	return path;
}

int iio_dma_request(int nr, const char *size)
{
	return write_text(iio_attr_path(nr, "dma_request"), size);
}

int iio_dma_free(int nr, const char *k)
{
	return write_text(iio_attr_path(nr, "dma_free"), k);
}

const char *iio_node(int nr, const char *suffix)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "/dev/iio%d%s", nr, suffix);
	return path;
}

int iio_find_by_parent(const char *parent)
{
	char link[PATH_MAX], target[PATH_MAX];
	struct dirent *de;
	int nr = -1;
	DIR *dir;

	dir = opendir("/sys/class/iio");
	if (!dir)
		return -1;
	while ((de = readdir(dir))) {
		ssize_t n;
		char *base;

		if (strncmp(de->d_name, "iio", 3))
			continue;
		snprintf(link, sizeof(link), "/sys/class/iio/%s/device",
			 de->d_name);
		n = readlink(link, target, sizeof(target) - 1);
		if (n < 0)
			continue;
		target[n] = 0;
		base = strrchr(target, '/');
		if (!strcmp(base ? base + 1 : target, parent)) {
			nr = atoi(de->d_name + 3);
			break;
		}
	}
	closedir(dir);
	return nr;
}

int iio_find_by_name(const char *name, int index)
{
	int nr, max = -1;
	struct dirent *de;
	DIR *dir;

	/* devices in number order, so "the first edu" is stable */
	dir = opendir("/sys/class/iio");
	if (!dir)
		return -1;
	while ((de = readdir(dir)))
		if (!strncmp(de->d_name, "iio", 3) && atoi(de->d_name + 3) > max)
			max = atoi(de->d_name + 3);
	closedir(dir);
	for (nr = 0; nr <= max; nr++) {
		char path[PATH_MAX], text[256] = "";
		FILE *f;

		snprintf(path, sizeof(path), "/sys/class/iio/iio%d/name", nr);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(text, sizeof(text), f))
			text[0] = 0;
		fclose(f);
		text[strcspn(text, "\n")] = 0;
		if (!strcmp(text, name) && index-- == 0)
			return nr;
	}
	return -1;
}

int iio_must_find(const char *name, int index)
{
	int nr = iio_find_by_name(name, index);

	if (nr < 0)
		FAIL("no iio device \"%s\" #%d", name, index);
	return nr;
}

int dummy_nr(int index)
{
	char parent[64];
	int nr;

	snprintf(parent, sizeof(parent), "iio_user_dummy.%d", index);
	nr = iio_find_by_parent(parent);
	if (nr < 0)
		FAIL("no iio device for %s", parent);
	return nr;
}

void dummy_reload(const char *params)
{
	if (shell("rmmod iio_user_dummy 2>/dev/null; insmod " MODDIR "/iio_user_dummy.ko %s",
		  params))
		FAIL("insmod iio_user_dummy.ko %s failed", params);
}

const char *dummy_attr(int index, const char *attr)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/devices/platform/iio_user_dummy.%d/%s",
		 index, attr);
	return path;
}

void event_inject(int nr, uint32_t n)
{
	int fd = MUST(open(iio_node(nr, "_event"), O_WRONLY));

	EXPECT_EQ(write(fd, &n, sizeof(n)), sizeof(n));
	close(fd);
}

uint32_t event_read(int fd)
{
	uint32_t count;

	EXPECT_EQ(read(fd, &count, sizeof(count)), sizeof(count));
	return count;
}

pid_t fork_blocked_reader(int efd)
{
	pid_t pid = fork();

	if (pid < 0)
		FAIL("fork: %s", strerror(errno));
	if (!pid) {
		uint32_t c;

		_exit(read(efd, &c, sizeof(c)) == -1 && errno == EIO ? 0 : 1);
	}
	return pid;
}

void expect_child_ok(pid_t pid)
{
	int status;

	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		FAIL("child: %s %d", WIFEXITED(status) ? "exit" : "signal",
		     WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
}

void expect_sigbus(volatile void *p, int write)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		FAIL("fork: %s", strerror(errno));
	if (!pid) {
		if (write)
			*(volatile uint8_t *)p = 2;
		else
			(void)*(volatile uint8_t *)p;
		_exit(0);
	}
	waitpid(pid, &status, 0);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGBUS)
		FAIL("touching the mapping: %s %d, want SIGBUS",
		     WIFEXITED(status) ? "exit" : "signal",
		     WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
}

/* Test parameters, modules, drivers, memory and time. */

unsigned long long test_param(const char *name, unsigned long long def)
{
	char key[64], text[4096];
	const char *p;
	size_t klen;
	ssize_t n;
	int fd;

	fd = open("/proc/cmdline", O_RDONLY);
	if (fd < 0)
		return def;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return def;
	text[n] = 0;
	snprintf(key, sizeof(key), "iio_test.%s=", name);
	klen = strlen(key);
	for (p = text; (p = strstr(p, key)); p += klen)
		if (p == text || p[-1] == ' ')
			return strtoull(p + klen, NULL, 0);
	return def;
}

/* "P=V ..." of every @name.P=V of the kernel command line, as qemu/init */
static void boot_params(const char *name, char *out, size_t size)
{
	char text[4096], prefix[64];
	size_t plen, len = 0;
	ssize_t n;
	int fd;

	out[0] = 0;
	fd = open("/proc/cmdline", O_RDONLY);
	if (fd < 0)
		return;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return;
	text[n] = 0;
	snprintf(prefix, sizeof(prefix), "%s.", name);
	plen = strlen(prefix);
	for (char *tok = strtok(text, " \n"); tok; tok = strtok(NULL, " \n"))
		if (!strncmp(tok, prefix, plen) && strchr(tok, '=') &&
		    len + strlen(tok) + 1 < size)
			len += snprintf(out + len, size - len, "%s ",
					tok + plen);
}

int module_load(const char *name, const char *params)
{
	char path[PATH_MAX], args[4096];
	int fd, err = 0;
	size_t len;

	snprintf(path, sizeof(path), MODDIR "/%s.ko", name);
	boot_params(name, args, sizeof(args));
	len = strlen(args);
	snprintf(args + len, sizeof(args) - len, "%s", params ? params : "");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (syscall(SYS_finit_module, fd, args, 0))
		err = errno;
	close(fd);
	return err;
}

void test_module_load(const char *name)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "/lib/modules/test/%s.ko", name);
	fd = MUST(open(path, O_RDONLY | O_CLOEXEC));
	if (syscall(SYS_finit_module, fd, "", 0) && errno != EEXIST)
		FAIL("finit_module(%s): errno %d (%s)", path, errno,
		     strerror(errno));
	close(fd);
}

int module_unload(const char *name)
{
	int i;

	for (i = 0; i < 500; i++) {
		if (!syscall(SYS_delete_module, name, O_NONBLOCK))
			return 0;
		if (errno != EBUSY && errno != EAGAIN)
			return errno;
		msleep(10);
	}
	return errno;
}

static int pci_driver_write(const char *drv, const char *what,
			    const char *pci)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/bus/pci/drivers/%s/%s", drv, what);
	return write_text(path, pci);
}

int pci_driver_bind(const char *drv, const char *pci)
{
	return pci_driver_write(drv, "bind", pci);
}

int pci_driver_unbind(const char *drv, const char *pci)
{
	return pci_driver_write(drv, "unbind", pci);
}

unsigned long long slab_active_objects(void)
{
	unsigned long long total = 0, active;
	char line[512], name[128];
	FILE *f = fopen("/proc/slabinfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#' && sscanf(line, "%127s %llu", name, &active) == 2)
			total += active;
	fclose(f);
	return total;
}

void debugfs_mount(void)
{
	if (mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL) &&
	    errno != EBUSY)
		FAIL("mount debugfs: %s", strerror(errno));
}

void debugfs_knob(const char *attr, const char *value)
{
	char path[256];
	int err;

	snprintf(path, sizeof(path), "/sys/kernel/debug/%s", attr);
	err = write_text(path, value);
	if (err)
		FAIL("write %s to %s: %s", value, path, strerror(err));
}

unsigned long long meminfo_kb(const char *key)
{
	unsigned long long v = 0, kb;
	char line[256], name[64];
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63[^:]: %llu", name, &kb) == 2 &&
		    !strcmp(name, key))
			v = kb;
	fclose(f);
	return v;
}

unsigned long long iio_numbers(void)
{
	unsigned long long mask = 0;
	struct dirent *de;
	DIR *dir;
	int nr;

	dir = opendir("/sys/class/iio");
	if (!dir)
		return 0;
	while ((de = readdir(dir))) {
		if (strncmp(de->d_name, "iio", 3) || de->d_name[3] < '0' ||
		    de->d_name[3] > '9')
			continue;
		nr = atoi(de->d_name + 3);
		mask |= 1ULL << (nr < 63 ? nr : 63);
	}
	closedir(dir);
	return mask;
}

int kernel_tainted_user(void)
{
	return !!(read_num("/proc/sys/kernel/tainted") & (1ULL << 6));
}

unsigned long long irq_total(unsigned long long irq)
{
	unsigned long long total = 0, n;
	char line[1024], *p, *end;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		FAIL("/proc/interrupts: %s", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (strtoull(line, &p, 10) != irq || p == line || *p != ':')
			continue;
		for (p++;; p = end) {
			n = strtoull(p, &end, 10);
			if (end == p)
				break;
			total += n;
		}
		break;
	}
	fclose(f);
	return total;
}

unsigned long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* QEMU's monitor, and waiting for a path or a sleeping process. */

#define MONITOR_TTY	"/dev/ttyS4"

/*
 * qemu/run answers a command line C with "monitor> C", the reply's lines
 * each after "monitor: ", and "monitor< C".  Lines before "monitor> C"
 * (the answer to an earlier writer's command that nobody read) are
 * skipped.
 */
const char *qemu_monitor(const char *fmt, ...)
{
	static char reply[4096];
	char cmd[512], line[1024], begin[600], end[600];
	unsigned long long deadline;
	struct termios tio;
	size_t len = 0, rlen = 0;
	int fd, in = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (strchr(cmd, '\n'))
		FAIL("monitor command \"%s\" has a newline", cmd);
	snprintf(begin, sizeof(begin), "monitor> %s", cmd);
	snprintf(end, sizeof(end), "monitor< %s", cmd);
	fd = open(MONITOR_TTY, O_RDWR | O_NOCTTY);
	if (fd < 0)
		FAIL("open " MONITOR_TTY ": %s (not booted by qemu/run?)",
		     strerror(errno));
	if (tcgetattr(fd, &tio))
		FAIL("tcgetattr " MONITOR_TTY ": %s", strerror(errno));
	cfmakeraw(&tio);
	if (tcsetattr(fd, TCSANOW, &tio))
		FAIL("tcsetattr " MONITOR_TTY ": %s", strerror(errno));
	tcflush(fd, TCIFLUSH);
	snprintf(line, sizeof(line), "%s\n", cmd);
	if (write(fd, line, strlen(line)) != (ssize_t)strlen(line))
		FAIL("write " MONITOR_TTY ": %s", strerror(errno));
	reply[0] = 0;
	deadline = now_ms() + 30000;
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		unsigned long long now = now_ms();
		char c;

		if (now >= deadline || poll(&pfd, 1, (int)(deadline - now)) != 1)
			FAIL("no answer from the monitor to \"%s\" within 30 s",
			     cmd);
		if (read(fd, &c, 1) != 1)
			FAIL("read " MONITOR_TTY ": %s", strerror(errno));
		if (c != '\n') {
			if (len < sizeof(line) - 1)
				line[len++] = c;
			continue;
		}
		line[len] = 0;
		len = 0;
		if (!strcmp(line, begin)) {
			in = 1;
			rlen = 0;
			reply[0] = 0;
		} else if (in && !strcmp(line, end)) {
			break;
		} else if (in && !strncmp(line, "monitor: ", 9)) {
			rlen += snprintf(reply + rlen, sizeof(reply) - rlen,
					 "%s%s", rlen ? "\n" : "", line + 9);
			if (rlen >= sizeof(reply))
				rlen = sizeof(reply) - 1;
		}
	}
	close(fd);
	return reply;
}

int wait_path(const char *path, int present, unsigned int ms)
{
	unsigned long long deadline = now_ms() + ms;

	while (!path_exists(path) == !!present) {
		if (now_ms() >= deadline)
			return -1;
		msleep(10);
	}
	return 0;
}

void wait_sleeping_in(pid_t pid, long nr, unsigned int ms)
{
	unsigned long long deadline = now_ms() + ms;
	char path[64], text[512], state = '?';
	long got = -2;

	for (;;) {
		FILE *f;
		char *p;

		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		f = fopen(path, "r");
		if (!f)
			FAIL("process %d ended (waiting for it to block)", (int)pid);
		p = fgets(text, sizeof(text), f) ? strrchr(text, ')') : NULL;
		fclose(f);
		state = p && p[1] == ' ' ? p[2] : '?';
		snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
		f = fopen(path, "r");
		if (!f || fscanf(f, "%ld", &got) != 1)
			got = -2;	/* "running" has no number */
		if (f)
			fclose(f);
		if (state == 'Z')
			FAIL("process %d ended (waiting for it to block)", (int)pid);
		if (state == 'S' && got == nr)
			return;
		if (now_ms() >= deadline)
			FAIL("process %d not asleep in syscall %ld within %u ms (state %c, syscall %ld)",
			     (int)pid, nr, ms, state, got);
		msleep(10);
	}
}

/* uevents, as a netlink listener sees them. */
int uevent_socket(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int sock = MUST(socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC,
			       NETLINK_KOBJECT_UEVENT));

	MUST(bind(sock, (struct sockaddr *)&sa, sizeof(sa)));
	return sock;
}

int wait_iio_added(int sock, const char *parent, unsigned int ms)
{
	unsigned long long deadline = now_ms() + ms;
	char msg[4096], want[128];
	const char *p;

	/* "add@/devices/pci0000:00/0000:00:1c.0/iio/iio5" */
	snprintf(want, sizeof(want), "/%s/iio/iio", parent);
	for (;;) {
		struct pollfd pfd = { .fd = sock, .events = POLLIN };
		unsigned long long now = now_ms();
		ssize_t n;

		if (now >= deadline ||
		    poll(&pfd, 1, (int)(deadline - now)) != 1)
			FAIL("no ADD uevent of an iio device of %s within %u ms",
			     parent, ms);
		n = MUST(recv(sock, msg, sizeof(msg) - 1, 0));
		msg[n] = 0;
		p = strstr(msg, want);
		if (!strncmp(msg, "add@", 4) && p &&
		    !strchr(p + strlen(want), '/'))
			return atoi(p + strlen(want));
	}
}

int pci_bar_nr(const char *pci, int bar)
{
	char name[64];

	snprintf(name, sizeof(name), "%s bar%d", pci, bar);
	return iio_must_find(name, 0);
}

void pci_generic_reload(const char *params)
{
	int err = module_unload("iio_pci_generic");

	if (err && err != ENOENT)
		FAIL("rmmod iio_pci_generic: %s", strerror(err));
	err = module_load("iio_pci_generic", params);
	if (err)
		FAIL("insmod iio_pci_generic.ko %s: %s", params, strerror(err));
}

#define PCI_GENERIC_DRV "/sys/bus/pci/drivers/iio_pci_generic"

void pci_generic_bind(const char *pci)
{
	char path[128];

	snprintf(path, sizeof(path), PCI_GENERIC_DRV "/%s", pci);
	if (path_exists(path))
		return;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver_override",
		 pci);
	EXPECT_EQ(write_text(path, "iio_pci_generic"), 0);
	EXPECT_EQ(write_text(PCI_GENERIC_DRV "/bind", pci), 0);
}

void pci_generic_unbind(const char *pci)
{
	char path[128];

	EXPECT_EQ(write_text(PCI_GENERIC_DRV "/unbind", pci), 0);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver_override",
		 pci);
	EXPECT_EQ(write_text(path, "none"), 0);
}

/* edu's DMA engine and a page it must not reach. */

volatile void *edu_map(int nr)
{
	int fd = MUST(open(iio_node(nr, ""), O_RDWR));
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	EXPECT(p != MAP_FAILED);
	close(fd);	/* the mapping keeps the file, and bus mastering on */
	return p;
}

static void edu_reg64(volatile void *regs, unsigned int off, uint64_t val)
{
	*(volatile uint64_t *)((volatile char *)regs + off) = val;
}

void edu_dma_start(volatile void *regs, uint64_t src, uint64_t dst,
		   uint64_t count, unsigned int cmd)
{
	edu_reg64(regs, EDU_DMA_SRC, src);
	edu_reg64(regs, EDU_DMA_DST, dst);
	edu_reg64(regs, EDU_DMA_COUNT, count);
	edu_reg64(regs, EDU_DMA_CMD, cmd | EDU_DMA_RUN);
}

void edu_dma_wait(volatile void *regs)
{
	volatile uint32_t *cmd = (volatile uint32_t *)((volatile char *)regs +
						       EDU_DMA_CMD);
	unsigned long long end = now_ms() + 5000;

	while (*cmd & EDU_DMA_RUN)
		if (now_ms() > end)
			FAIL("edu's DMA still running after 5 s");
}

const char *iio_pci(int nr)
{
	static char link[PATH_MAX];
	ssize_t n;

	n = readlink(iio_attr_path(nr, "device"), link, sizeof(link) - 1);
	EXPECT(n > 0);
	link[n] = 0;
	return strrchr(link, '/') + 1;
}

/* the pagemap entry of @p: bit 63 present, bits 0-54 the frame (0 unless root) */
static uint64_t pagemap_pfn(int fd, const volatile void *p)
{
	uint64_t entry;

	EXPECT_EQ(pread(fd, &entry, 8, (uintptr_t)p / 4096 * 8), 8);
	if (!(entry >> 63) || !(entry & ((1ULL << 55) - 1)))
		FAIL("pagemap: no frame number for %p (entry 0x%llx; not root?)",
		     (const void *)p, (unsigned long long)entry);
	return entry & ((1ULL << 55) - 1);
}

#define CANARY_CHUNK	256	/* pages mapped at a time */
#define CANARY_CHUNKS	64

void *canary_page(uint8_t fill, uint64_t limit, uint64_t avoid,
		  uint64_t avoid_len, uint64_t *phys)
{
	uint8_t *chunks[CANARY_CHUNKS], *page = NULL;
	uint64_t pfn;
	int fd, c, i, n = 0;

	fd = MUST(open("/proc/self/pagemap", O_RDONLY));
	for (c = 0; c < CANARY_CHUNKS && !page; c++) {
		chunks[n] = mmap(NULL, CANARY_CHUNK * 4096UL,
				 PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		EXPECT(chunks[n] != MAP_FAILED);
		MUST(mlock(chunks[n], CANARY_CHUNK * 4096UL));
		memset(chunks[n], fill, CANARY_CHUNK * 4096UL);
		for (i = 0; i < CANARY_CHUNK; i++) {
			uint8_t *p = chunks[n] + i * 4096UL;

			pfn = pagemap_pfn(fd, p);
			if (pfn * 4096 + 4096 <= limit &&
			    (pfn * 4096 + 4096 <= avoid ||
			     pfn * 4096 >= avoid + avoid_len)) {
				page = p;
				*phys = pfn * 4096;
				break;
			}
		}
		n++;
	}
	close(fd);
	if (!page)
		FAIL("no page below 0x%llx among %d MiB",
		     (unsigned long long)limit, CANARY_CHUNKS * CANARY_CHUNK / 256);
	/* the others go back; the chosen page stays mapped and locked */
	for (c = 0; c < n; c++) {
		uint8_t *start = chunks[c], *end = start + CANARY_CHUNK * 4096UL;

		if (page < start || page >= end) {
			munmap(start, CANARY_CHUNK * 4096UL);
			continue;
		}
		if (page > start)
			munmap(start, page - start);
		if (page + 4096 < end)
			munmap(page + 4096, end - page - 4096);
	}
	return page;
}

#define FAULT_MARKER	"iio-test: expect an IOMMU fault: device %s address 0x%llx"

/* one line to the kernel log, for qemu/log-check */
static void kmsg_line(const char *line)
{
	int fd = MUST(open("/dev/kmsg", O_WRONLY));
	size_t len = strlen(line);

	EXPECT_EQ(write(fd, line, len), len);
	close(fd);
}

void iommu_fault_expect(const char *pci, uint64_t addr)
{
	char line[128];

	snprintf(line, sizeof(line), FAULT_MARKER, pci,
		 (unsigned long long)addr);
	kmsg_line(line);
}

void warning_expect(const char *function)
{
	char line[128];

	snprintf(line, sizeof(line), "iio-test: expect a kernel warning in %s",
		 function);
	kmsg_line(line);
}

unsigned int iommu_fault_wait(const char *pci, uint64_t addr, unsigned int ms)
{
	unsigned long long end = now_ms() + ms;
	unsigned int n;
	char report[128], report_short[128];

	/*
	 * DMAR names a device of segment 0 as bus:dev.fn up to 6.12 at
	 * least, with its segment (0000:bus:dev.fn) in Debian's 7.3
	 */
	snprintf(report, sizeof(report), "Request device [%s] fault addr 0x%llx ",
		 pci, (unsigned long long)addr);
	snprintf(report_short, sizeof(report_short),
		 "Request device [%s] fault addr 0x%llx ",
		 strncmp(pci, "0000:", 5) ? pci : pci + 5,
		 (unsigned long long)addr);
	while (!(n = kmsg_count(report) + kmsg_count(report_short)) &&
	       now_ms() < end)
		msleep(50);
	return n;
}

uint8_t *edu_dma_at_canary(int nr, const uint8_t *pattern, uint8_t fill,
			   int announce, uint64_t *phys)
{
	volatile void *regs = edu_map(nr);
	uint64_t bus = read_num(iio_attr_path(nr, "dma0/bus_addr"));
	uint64_t size = read_num(iio_attr_path(nr, "dma0/size"));
	uint8_t *buf, *canary;
	int bfd;

	bfd = MUST(open(iio_attr_path(nr, "dma0/buffer"), O_RDWR));
	buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, bfd, 0);
	EXPECT(buf != MAP_FAILED);
	close(bfd);
	memcpy(buf, pattern, EDU_DMA_MAX);
	edu_dma_start(regs, bus, EDU_DMA_BASE, EDU_DMA_MAX, 0);
	edu_dma_wait(regs);
	munmap(buf, 4096);

	canary = canary_page(fill, 1ULL << EDU_DMA_BITS, bus, size, phys);
	if (announce)
		iommu_fault_expect(iio_pci(nr), *phys);
	edu_dma_start(regs, EDU_DMA_BASE, *phys, EDU_DMA_MAX, EDU_DMA_TO_RAM);
	edu_dma_wait(regs);
	munmap((void *)regs, 4096);
	return canary;
}

/* The kernel log. */
unsigned int kmsg_count(const char *text)
{
	return kmsg_count_with(text, NULL);
}

char *kmsg_next(int fd, char *rec, size_t size)
{
	for (;;) {
		ssize_t len = read(fd, rec, size - 1);
		char *msg, *end;

		if (len < 0 && errno == EPIPE)	/* overwritten: the next one */
			continue;
		if (len < 0 && errno == EAGAIN)
			return NULL;
		if (len < 0)
			FAIL("read /dev/kmsg: %s", strerror(errno));
		rec[len] = 0;
		/* "PRI,SEQ,TIME,FLAGS;TEXT\n" then " KEY=VALUE\n" lines */
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		end = strchr(++msg, '\n');
		if (end)
			*end = 0;
		return msg;
	}
}

unsigned int kmsg_count_with(const char *text, const char *also)
{
	unsigned int n = 0;
	char rec[8192];
	const char *msg;
	int fd;

	fd = MUST(open("/dev/kmsg", O_RDONLY | O_NONBLOCK));
	while ((msg = kmsg_next(fd, rec, sizeof(rec))))
		if (strstr(msg, text) && (!also || strstr(msg, also)))
			n++;
	close(fd);
	return n;
}

/* PCI configuration space. */
uint32_t pci_config(const char *pci, unsigned int off, size_t len)
{
	char path[PATH_MAX];
	uint32_t val = 0;
	int fd;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/config", pci);
	fd = MUST(open(path, O_RDONLY));
	EXPECT_EQ(pread(fd, &val, len, off), (ssize_t)len);
	close(fd);
	return val;
}

unsigned int pci_command(const char *pci)
{
	return pci_config(pci, 4, 2);
}

void pci_wait_intx_held_back(const char *pci)
{
	unsigned long long deadline = now_ms() + 5000;

	while (!(pci_config(pci, 6, 2) & PCI_STATUS_INTX)) {
		if (now_ms() > deadline)
			FAIL("%s: no INTx pending within 5 s", pci);
		msleep(1);
	}
	if (!(pci_command(pci) & PCI_CMD_INTX_DISABLE))
		FAIL("%s: INTx pending and not masked", pci);
}

/* vfio-pci: Debian's modules, loaded in the order of their file "order" */
#define VFIO_DRV	"/sys/bus/pci/drivers/vfio-pci"
#define VFIO_MODULES	"/lib/modules/vfio"

static void vfio_load(void)
{
	char name[128], path[256];
	FILE *f;

	if (path_exists(VFIO_DRV))
		return;
	f = fopen(VFIO_MODULES "/order", "r");
	if (!f)
		check_skip("no %s/order: this kernel's vfio modules were not "
			   "packed (the debug kernel has none)", VFIO_MODULES);
	while (fscanf(f, "%127s", name) == 1) {
		snprintf(path, sizeof(path), "insmod " VFIO_MODULES "/%s", name);
		EXPECT_EQ(shell("%s", path), 0);
	}
	fclose(f);
	EXPECT(path_exists(VFIO_DRV));
}

void vfio_bind(const char *pci)
{
	char path[128];

	vfio_load();
	snprintf(path, sizeof(path), VFIO_DRV "/%s", pci);
	if (path_exists(path))
		return;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver", pci);
	if (path_exists(path)) {
		snprintf(path, sizeof(path),
			 "/sys/bus/pci/devices/%s/driver/unbind", pci);
		EXPECT_EQ(write_text(path, pci), 0);
	}
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver_override",
		 pci);
	EXPECT_EQ(write_text(path, "vfio-pci"), 0);
	EXPECT_EQ(write_text(VFIO_DRV "/bind", pci), 0);
}
