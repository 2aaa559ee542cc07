// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * test_udrv.c - libudrv's host unit tests, every call on the simulated
 * backend (built with the library's sources under ASan+UBSan; run by
 * lib/tests/run; see unit.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "udrv.h"
#include "unit.h"

/* a simulated device: region 0 of 4 KiB, region 2 of 256 bytes */
static struct udrv_sim *make_sim(const char *name, unsigned int vectors,
				 const char *mode)
{
	struct udrv_sim *sim;

	EXPECT_EQ(udrv_sim_new(name, &sim), 0);
	EXPECT_EQ(udrv_sim_set_pci_id(sim, 0x1234, 0x11e8, 0xff0000), 0);
	EXPECT_EQ(udrv_sim_add_region(sim, 0, 4096), 0);
	EXPECT_EQ(udrv_sim_add_region(sim, 2, 256), 0);
	if (vectors)
		EXPECT_EQ(udrv_sim_set_vectors(sim, vectors, mode), 0);
	return sim;
}

static struct udrv_device *open_dev(const char *spec)
{
	struct udrv_device *dev;

	EXPECT_EQ(udrv_device_open(spec, &dev), 0);
	EXPECT(dev != NULL);
	return dev;
}

static void version_and_message(void)
{
	struct udrv_device *dev = (void *)1;

	EXPECT(!strcmp(udrv_version(), "1.1"));
	EXPECT(!strcmp(udrv_strerror(), ""));
	EXPECT_EQ(udrv_device_open("", &dev), -EINVAL);
	EXPECT(dev == NULL);
	EXPECT(strstr(udrv_strerror(), "no device given"));
	EXPECT_EQ(udrv_device_open("sim:none", &dev), -ENOENT);
	EXPECT(strstr(udrv_strerror(), "no simulated device \"none\""));
}

static void *fail_in_thread(void *arg)
{
	struct udrv_device *dev;

	(void)arg;
	if (udrv_device_open("sim:other-thread", &dev) != -ENOENT)
		return "open did not fail";
	return strstr(udrv_strerror(), "other-thread") ? NULL : "no message";
}

/* each thread has its own message */
static void message_per_thread(void)
{
	struct udrv_device *dev;
	pthread_t t;
	void *why;

	EXPECT_EQ(udrv_device_open("sim:main-thread", &dev), -ENOENT);
	EXPECT_EQ(pthread_create(&t, NULL, fail_in_thread, NULL), 0);
	EXPECT_EQ(pthread_join(t, &why), 0);
	if (why)
		FAIL("%s", (char *)why);
	EXPECT(strstr(udrv_strerror(), "main-thread"));
}

static void identity(void)
{
	struct udrv_sim *sim = make_sim("edu", 1, "msi"), *plain;
	struct udrv_device *dev = open_dev("sim:edu"), *other;
	uint16_t vendor, device;
	uint32_t class_code;

	EXPECT(!strcmp(udrv_device_backend(dev), "sim"));
	EXPECT(!strcmp(udrv_device_name(dev), "sim:edu"));
	EXPECT_EQ(udrv_device_pci_id(dev, &vendor, &device, &class_code), 0);
	EXPECT_EQ(vendor, 0x1234);
	EXPECT_EQ(device, 0x11e8);
	EXPECT_EQ(class_code, 0xff0000);
	EXPECT(!strcmp(udrv_device_irq_mode(dev), "msi"));
	EXPECT(!strcmp(udrv_device_dma_policy(dev), "sim"));
	EXPECT_EQ(udrv_device_gone(dev), 0);
	/* one opener at a time */
	EXPECT_EQ(udrv_device_open("sim:edu", &other), -EBUSY);
	udrv_device_close(dev);
	other = open_dev("sim:edu");
	udrv_device_close(other);
	udrv_sim_free(sim);

	EXPECT_EQ(udrv_sim_new("plain", &plain), 0);
	EXPECT_EQ(udrv_sim_new("plain", &sim), -EEXIST);
	EXPECT_EQ(udrv_sim_add_region(plain, 0, 64), 0);
	dev = open_dev("sim:plain");
	EXPECT_EQ(udrv_device_pci_id(dev, &vendor, NULL, NULL), -ENODEV);
	EXPECT(!strcmp(udrv_device_irq_mode(dev), "none"));
	EXPECT_EQ(udrv_vector_count(dev), 0);
	udrv_device_close(dev);
	udrv_sim_free(plain);
}

static void regions(void)
{
	struct udrv_sim *sim = make_sim("regions", 0, NULL);
	struct udrv_device *dev = open_dev("sim:regions");
	unsigned char *mem = udrv_sim_region(sim, 0);
	unsigned int flags;
	uint64_t size, v;

	EXPECT_EQ(udrv_region_info(dev, 0, &size, &flags), 0);
	EXPECT_EQ(size, 4096);
	EXPECT_EQ(flags, UDRV_REGION_MEM | UDRV_REGION_MAPPABLE);
	EXPECT_EQ(udrv_region_info(dev, 2, &size, NULL), 0);
	EXPECT_EQ(size, 256);
	EXPECT_EQ(udrv_region_info(dev, 1, &size, &flags), -ENOENT);
	EXPECT_EQ(udrv_region_info(dev, UDRV_REGIONS_MAX, NULL, NULL),
		  -ENOENT);
	EXPECT(udrv_sim_region(sim, 1) == NULL);

	/* each width lands where it should, little-endian */
	EXPECT_EQ(udrv_write(dev, 0, 8, 8, 0x1122334455667788ull), 0);
	EXPECT_EQ(mem[8], 0x88);
	EXPECT_EQ(mem[15], 0x11);
	EXPECT_EQ(udrv_read(dev, 0, 8, 4, &v), 0);
	EXPECT_EQ(v, 0x55667788);
	EXPECT_EQ(udrv_read(dev, 0, 12, 2, &v), 0);
	EXPECT_EQ(v, 0x3344);
	EXPECT_EQ(udrv_read(dev, 0, 15, 1, &v), 0);
	EXPECT_EQ(v, 0x11);
	EXPECT_EQ(udrv_write(dev, 2, 254, 2, 0xbeef), 0);
	EXPECT_EQ(udrv_read(dev, 2, 248, 8, &v), 0);
	EXPECT_EQ(v >> 48, 0xbeef);

	/* bad accesses change nothing */
	EXPECT_EQ(udrv_read(dev, 0, 2, 4, &v), -EINVAL);
	EXPECT(strstr(udrv_strerror(), "not a multiple of the width"));
	EXPECT_EQ(udrv_write(dev, 0, 0, 3, 0), -EINVAL);
	EXPECT_EQ(udrv_write(dev, 2, 256, 1, 0), -EINVAL);
	EXPECT(strstr(udrv_strerror(), "past the end of region 2"));
	EXPECT_EQ(udrv_write(dev, 2, 252, 8, 0), -EINVAL);
	EXPECT_EQ(udrv_write(dev, 0, 0, 1, 0x100), -EINVAL);
	EXPECT(strstr(udrv_strerror(), "wider than 1 bytes"));
	EXPECT_EQ(udrv_write(dev, 1, 0, 4, 0), -ENOENT);
	EXPECT_EQ(mem[0], 0);
	udrv_device_close(dev);
	udrv_sim_free(sim);
}

struct hook_log {
	unsigned int calls, region, width;
	uint64_t offset, value;
};

static void log_write(struct udrv_sim *sim, unsigned int region,
		      uint64_t offset, unsigned int width, uint64_t value,
		      void *data)
{
	struct hook_log *log = data;

	(void)sim;
	log->calls++;
	log->region = region;
	log->offset = offset;
	log->width = width;
	log->value = value;
}

/* the model sees each write after it is stored, and only valid ones */
static void write_hook(void)
{
	struct udrv_sim *sim = make_sim("hook", 0, NULL);
	struct udrv_device *dev = open_dev("sim:hook");
	struct hook_log log = { 0 };

	udrv_sim_set_write_hook(sim, log_write, &log);
	EXPECT_EQ(udrv_write(dev, 2, 0x10, 4, 0xcafe), 0);
	EXPECT_EQ(log.calls, 1);
	EXPECT_EQ(log.region, 2);
	EXPECT_EQ(log.offset, 0x10);
	EXPECT_EQ(log.width, 4);
	EXPECT_EQ(log.value, 0xcafe);
	EXPECT_EQ(udrv_write(dev, 2, 0x11, 4, 1), -EINVAL);
	EXPECT_EQ(log.calls, 1);
	udrv_device_close(dev);
	udrv_sim_free(sim);
}

static void map(void)
{
	struct udrv_sim *sim = make_sim("map", 0, NULL);
	struct udrv_device *dev = open_dev("sim:map");
	volatile uint32_t *p, *again;
	volatile void *addr;
	size_t len;
	uint64_t v;

	EXPECT_EQ(udrv_region_map(dev, 0, &addr, &len), 0);
	EXPECT_EQ(len, 4096);
	p = addr;
	p[4] = 0xabcd;
	EXPECT_EQ(udrv_read(dev, 0, 16, 4, &v), 0);
	EXPECT_EQ(v, 0xabcd);
	EXPECT_EQ(udrv_write(dev, 0, 20, 4, 0x5a5a), 0);
	EXPECT_EQ(p[5], 0x5a5a);
	EXPECT_EQ(udrv_region_map(dev, 0, &addr, NULL), 0);
	again = addr;
	EXPECT(again == p);
	/* a sub-page region maps a whole page */
	EXPECT_EQ(udrv_region_map(dev, 2, &addr, &len), 0);
	EXPECT_EQ(len, (size_t)sysconf(_SC_PAGESIZE));
	EXPECT_EQ(udrv_region_map(dev, 1, &addr, &len), -ENOENT);
	udrv_device_close(dev);
	udrv_sim_free(sim);
}

/*
 * A removal: the mapping reads all ones instead of killing the process,
 * and every call says -ENODEV.
 */
static void removal(void)
{
	struct udrv_sim *sim = make_sim("removal", 2, "msix");
	struct udrv_device *dev = open_dev("sim:removal");
	volatile uint32_t *p;
	volatile void *addr;
	struct udrv_dma *dma;
	uint64_t v;

	EXPECT_EQ(udrv_region_map(dev, 0, &addr, NULL), 0);
	p = addr;
	p[1] = 7;
	EXPECT(udrv_event_fd(dev, 1) >= 0);
	udrv_sim_remove(sim);
	EXPECT_EQ(p[1], 0xffffffff);
	EXPECT_EQ(udrv_device_gone(dev), 1);
	p[1] = 0;	/* a store goes nowhere, and does not kill us either */
	EXPECT_EQ(udrv_read(dev, 0, 0, 4, &v), -ENODEV);
	EXPECT(strstr(udrv_strerror(), "went away"));
	EXPECT_EQ(udrv_write(dev, 2, 0, 4, 0), -ENODEV);
	EXPECT_EQ(udrv_event_wait(dev, 1, -1), -ENODEV);
	EXPECT_EQ(udrv_event_consume(dev, 0), -ENODEV);
	EXPECT_EQ(udrv_dma_alloc(dev, 4096, &dma), -ENODEV);
	EXPECT_EQ(udrv_region_map(dev, 2, &addr, NULL), -ENODEV);
	udrv_device_close(dev);
	EXPECT_EQ(udrv_device_open("sim:removal", &dev), -ENODEV);
	udrv_sim_free(sim);
}

/* a removal noticed by a call first: the mapping still reads ones */
static void removal_seen_by_read(void)
{
	struct udrv_sim *sim = make_sim("removal-read", 0, NULL);
	struct udrv_device *dev = open_dev("sim:removal-read");
	volatile uint8_t *p;
	volatile void *addr;
	uint64_t v;

	EXPECT_EQ(udrv_region_map(dev, 2, &addr, NULL), 0);
	p = addr;
	udrv_sim_remove(sim);
	EXPECT_EQ(udrv_read(dev, 2, 0, 1, &v), -ENODEV);
	EXPECT_EQ(p[255], 0xff);
	udrv_device_close(dev);
	udrv_sim_free(sim);
}

static int sigbus_seen;

static void count_sigbus(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	sigbus_seen++;
	/* make the faulting page readable: the access is retried */
	mmap((void *)((uintptr_t)si->si_addr & ~4095ul), 4096,
	     PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
	     -1, 0);
}

/* a mapping of a memfd that is then truncated: its touch is a SIGBUS */
static volatile char *foreign_mapping(void)
{
	int fd = memfd_create("foreign", 0);
	volatile char *p;

	EXPECT(fd >= 0);
	EXPECT_EQ(ftruncate(fd, 4096), 0);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	EXPECT(p != MAP_FAILED);
	EXPECT_EQ(ftruncate(fd, 0), 0);
	close(fd);
	return p;
}

/*
 * A SIGBUS that is not ours goes to the handler that was there before;
 * with none, it kills the process as it would without the library; and
 * a SIGBUS in a mapping of a device that is still there (a page the kernel
 * keeps) is not turned into ones.
 */
static void sigbus_not_ours(void)
{
	struct sigaction sa = {
		.sa_sigaction = count_sigbus, .sa_flags = SA_SIGINFO,
	};
	struct udrv_sim *sim = make_sim("sigbus", 0, NULL);
	struct udrv_device *dev;
	volatile void *addr;
	volatile char *p;
	pid_t pid;
	int status;

	/* no handler before ours: the foreign fault kills a child */
	pid = fork();
	EXPECT(pid >= 0);
	if (!pid) {
		dev = open_dev("sim:sigbus");
		EXPECT_EQ(udrv_region_map(dev, 0, &addr, NULL), 0);
		p = foreign_mapping();
		p[0] = 1;
		_exit(0);
	}
	EXPECT_EQ(waitpid(pid, &status, 0), pid);
	EXPECT(WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS);

	/* a region page that faults while the device is there: not ours */
	pid = fork();
	EXPECT(pid >= 0);
	if (!pid) {
		volatile char *r;

		dev = open_dev("sim:sigbus");
		EXPECT_EQ(udrv_region_map(dev, 0, &addr, NULL), 0);
		r = (volatile char *)addr;
		/* the region's memory taken away, the device not removed */
		{
			char link[64], target[256];
			int fd;
			ssize_t n;

			for (fd = 3; fd < 64; fd++) {
				snprintf(link, sizeof(link),
					 "/proc/self/fd/%d", fd);
				n = readlink(link, target, sizeof(target) - 1);
				if (n < 0)
					continue;
				target[n] = 0;
				if (strstr(target, "udrv-sim-sigbus-0"))
					EXPECT_EQ(ftruncate(fd, 0), 0);
			}
		}
		r[0] = 1;
		_exit(0);
	}
	EXPECT_EQ(waitpid(pid, &status, 0), pid);
	EXPECT(WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS);

	/* a handler installed before ours still gets its own faults */
	sigemptyset(&sa.sa_mask);
	EXPECT_EQ(sigaction(SIGBUS, &sa, NULL), 0);
	dev = open_dev("sim:sigbus");
	EXPECT_EQ(udrv_region_map(dev, 0, &addr, NULL), 0);
	p = foreign_mapping();
	p[0] = 1;
	EXPECT_EQ(sigbus_seen, 1);
	EXPECT_EQ(udrv_device_gone(dev), 0);
	udrv_device_close(dev);
	udrv_sim_free(sim);
}

static void events(void)
{
	struct udrv_sim *sim = make_sim("events", 3, "msix");
	struct udrv_device *dev = open_dev("sim:events");
	struct pollfd pfd = { .events = POLLIN };

	EXPECT_EQ(udrv_vector_count(dev), 3);
	pfd.fd = udrv_event_fd(dev, 2);
	EXPECT(pfd.fd >= 0);
	EXPECT_EQ(udrv_event_fd(dev, 2), pfd.fd);
	EXPECT_EQ(udrv_event_fd(dev, 3), -ENOENT);
	EXPECT(strstr(udrv_strerror(), "has no vector 3 (it has 3)"));
	EXPECT_EQ(poll(&pfd, 1, 0), 0);
	EXPECT_EQ(udrv_event_consume(dev, 2), 0);
	EXPECT_EQ(udrv_sim_raise(sim, 2, 3), 0);
	EXPECT_EQ(poll(&pfd, 1, 0), 1);
	EXPECT_EQ(udrv_event_consume(dev, 2), 3);
	EXPECT_EQ(poll(&pfd, 1, 0), 0);
	EXPECT_EQ(udrv_event_merged(dev, 2), 2);
	EXPECT_EQ(udrv_sim_raise(sim, 2, 1), 0);
	EXPECT_EQ(udrv_event_wait(dev, 2, 0), 1);
	EXPECT_EQ(udrv_event_merged(dev, 2), 2);
	/* vectors are apart */
	EXPECT_EQ(udrv_sim_raise(sim, 0, 1), 0);
	EXPECT_EQ(udrv_event_wait(dev, 1, 10), 0);
	EXPECT_EQ(udrv_event_wait(dev, 0, 10), 1);
	EXPECT_EQ(udrv_event_merged(dev, 0), 0);
	EXPECT_EQ(udrv_event_merged(dev, 7), 0);
	/* MSI-X needs no unmask: nothing reaches the device */
	EXPECT_EQ(udrv_event_unmask(dev, 0), 0);
	EXPECT_EQ(udrv_sim_unmasks(sim), 0);
	EXPECT_EQ(udrv_sim_raise(sim, 3, 1), -EINVAL);
	udrv_device_close(dev);
	udrv_sim_free(sim);
}

struct raiser {
	struct udrv_sim *sim;
	int pipe;
};

static void *raise_later(void *arg)
{
	struct raiser *r = arg;
	char c;

	/* after the waiter says it is about to wait */
	if (read(r->pipe, &c, 1) != 1)
		return "pipe";
	usleep(20000);
	return udrv_sim_raise(r->sim, 0, 1) ? "raise" : NULL;
}

/* a wait without a limit returns when the event comes */
static void wait_blocks_until_event(void)
{
	struct udrv_sim *sim = make_sim("wait", 1, "intx");
	struct udrv_device *dev = open_dev("sim:wait");
	int fds[2];
	struct raiser r = { .sim = sim };
	pthread_t t;
	void *why;

	EXPECT_EQ(pipe(fds), 0);
	r.pipe = fds[0];
	EXPECT(udrv_event_fd(dev, 0) >= 0);
	EXPECT_EQ(pthread_create(&t, NULL, raise_later, &r), 0);
	EXPECT_EQ(write(fds[1], "", 1), 1);
	EXPECT_EQ(udrv_event_wait(dev, 0, -1), 1);
	EXPECT_EQ(pthread_join(t, &why), 0);
	if (why)
		FAIL("%s", (char *)why);
	/* INTx: the unmask reaches the device, on vector 0 only */
	EXPECT_EQ(udrv_event_unmask(dev, 0), 0);
	EXPECT_EQ(udrv_sim_unmasks(sim), 1);
	EXPECT_EQ(udrv_event_unmask(dev, 1), -ENOENT);
	EXPECT_EQ(udrv_sim_unmasks(sim), 1);
	close(fds[0]);
	close(fds[1]);
	udrv_device_close(dev);
	udrv_sim_free(sim);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/*
 * A signal with a handler (installed without SA_RESTART) interrupts a
 * wait without a limit: -EINTR, with the message; nothing is consumed, so
 * the event that comes afterwards is still there for the next call.
 */
static void wait_interrupted_by_signal(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct udrv_sim *sim = make_sim("intr", 1, "msi");
	struct udrv_device *dev = open_dev("sim:intr");
	struct itimerval it = { .it_value = { .tv_usec = 50000 } };

	sigemptyset(&sa.sa_mask);
	EXPECT_EQ(sigaction(SIGALRM, &sa, NULL), 0);
	EXPECT(udrv_event_fd(dev, 0) >= 0);
	EXPECT_EQ(setitimer(ITIMER_REAL, &it, NULL), 0);
	EXPECT_EQ(udrv_event_wait(dev, 0, -1), -EINTR);
	EXPECT(strstr(udrv_strerror(), "waiting on vector 0") != NULL);
	EXPECT_EQ(udrv_sim_raise(sim, 0, 1), 0);
	EXPECT_EQ(udrv_event_wait(dev, 0, 0), 1);
	udrv_device_close(dev);
	udrv_sim_free(sim);
}

static void dma(void)
{
	struct udrv_sim *sim = make_sim("dma", 0, NULL);
	struct udrv_device *dev = open_dev("sim:dma");
	struct udrv_dma *a, *b, *c;
	long page = sysconf(_SC_PAGESIZE);

	EXPECT_EQ(udrv_dma_outstanding(dev), 0);
	EXPECT_EQ(udrv_dma_alloc(dev, 100, &a), 0);
	EXPECT_EQ(udrv_dma_size(a), page);
	EXPECT(udrv_dma_bus_addr(a) >= 0x100000);
	EXPECT_EQ(udrv_dma_alloc(dev, page + 1, &b), 0);
	EXPECT_EQ(udrv_dma_size(b), 2 * page);
	EXPECT(udrv_dma_bus_addr(b) >= udrv_dma_bus_addr(a) + page ||
	       udrv_dma_bus_addr(b) + 2 * page <= udrv_dma_bus_addr(a));
	EXPECT_EQ(udrv_dma_outstanding(dev), 2);
	/* what the driver writes, the device reads at the bus address */
	memcpy(udrv_dma_addr(b), "hello", 6);
	EXPECT(!strcmp(udrv_sim_dma(sim, udrv_dma_bus_addr(b), 6), "hello"));
	EXPECT(udrv_sim_dma(sim, udrv_dma_bus_addr(b) + 2 * page - 1, 2) ==
	       NULL);
	EXPECT_EQ(udrv_dma_alloc(dev, 0, &c), -EINVAL);
	EXPECT(c == NULL);
	udrv_dma_free(a);
	EXPECT_EQ(udrv_dma_outstanding(dev), 1);
	udrv_dma_free(NULL);
	/* close frees what is left (ASan would report the leak) */
	udrv_device_close(dev);
	udrv_sim_free(sim);
}

static void sim_argument_errors(void)
{
	struct udrv_sim *sim;

	EXPECT_EQ(udrv_sim_new("", &sim), -EINVAL);
	EXPECT(sim == NULL);
	EXPECT_EQ(udrv_sim_new("args", &sim), 0);
	EXPECT_EQ(udrv_sim_add_region(sim, 6, 64), -EINVAL);
	EXPECT_EQ(udrv_sim_add_region(sim, 0, 0), -EINVAL);
	EXPECT_EQ(udrv_sim_add_region(sim, 0, 64), 0);
	EXPECT_EQ(udrv_sim_add_region(sim, 0, 64), -EINVAL);
	EXPECT_EQ(udrv_sim_set_vectors(sim, 2, "msi"), -EINVAL);
	EXPECT_EQ(udrv_sim_set_vectors(sim, 9, "msix"), -EINVAL);
	EXPECT_EQ(udrv_sim_set_vectors(sim, 1, "edge"), -EINVAL);
	EXPECT_EQ(udrv_sim_set_vectors(sim, 1, NULL), -EINVAL);
	EXPECT_EQ(udrv_sim_set_vectors(sim, 8, "msix"), 0);
	EXPECT_EQ(udrv_sim_set_vectors(sim, 1, "msix"), -EINVAL);
	EXPECT_EQ(udrv_sim_set_pci_id(sim, 1, 2, 0x1000000), -EINVAL);
	udrv_sim_free(sim);
	udrv_sim_free(NULL);
}

static const struct unit_case cases[] = {
	UNIT_CASE(version_and_message),
	UNIT_CASE(message_per_thread),
	UNIT_CASE(identity),
	UNIT_CASE(regions),
	UNIT_CASE(write_hook),
	UNIT_CASE(map),
	UNIT_CASE(removal),
	UNIT_CASE(removal_seen_by_read),
	UNIT_CASE(sigbus_not_ours),
	UNIT_CASE(events),
	UNIT_CASE(wait_blocks_until_event),
	UNIT_CASE(wait_interrupted_by_signal),
	UNIT_CASE(dma),
	UNIT_CASE(sim_argument_errors),
};

int main(int argc, char **argv)
{
	return unit_main("udrv", cases, sizeof(cases) / sizeof(cases[0]),
			 argc, argv);
}
