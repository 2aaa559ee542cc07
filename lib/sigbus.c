// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sigbus.c - mappings that outlive their device (sigbus.h): the backends'
 * region mappings and iioctl's --mmap ones.  When a device goes away its
 * mappings are zapped and the next touch raises SIGBUS; the handler
 * (installed with the first mapping, process-wide, as a signal
 * disposition must be) finds the mapping that faulted, asks whether its
 * device is really gone (a 0-byte pread of the region's node fails with
 * EIO then, see iio(4) LIFETIME; a simulated device has a flag) and, if
 * so, puts anonymous memory filled with ones in its place, as a vanished
 * PCI device reads, and sets the mapping's lost flag: the faulting access
 * is retried and reads ones, and the library's calls fail with -ENODEV
 * from then on (its device's gone flag), iioctl ends with status 4.  A
 * SIGBUS for anything else (a page the kernel keeps, such as the MSI-X
 * table, or memory that is not ours) goes to the handler that was there
 * before, or kills the process as it would have without us.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"
#include "sigbus.h"

#define SIGBUS_MAPS_MAX	64

struct sigbus_map {
	_Atomic uintptr_t start;	/* 0: a free slot */
	size_t len;
	int probe_fd;			/* pread of 0 bytes: EIO once gone */
	const volatile int *gone;	/* or a flag that says so */
	volatile bool *lost;		/* set when it is gone */
};

static struct sigbus_map maps[SIGBUS_MAPS_MAX];
static pthread_mutex_t maps_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sigaction previous;
static bool installed;

static bool device_is_gone(const struct sigbus_map *m)
{
	char c;

	if (m->gone && *m->gone)
		return true;
	return m->probe_fd >= 0 && pread(m->probe_fd, &c, 0, 0) < 0 &&
	       (errno == EIO || errno == ENODEV);
}

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	uintptr_t a = (uintptr_t)si->si_addr;
	int saved = errno, i;

	for (i = 0; i < SIGBUS_MAPS_MAX; i++) {
		struct sigbus_map *m = &maps[i];
		uintptr_t start = atomic_load(&m->start);
		void *p;

		if (!start || a < start || a - start >= m->len)
			continue;
		if (!device_is_gone(m))
			break;
		p = mmap((void *)start, m->len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		if (p == MAP_FAILED)
			break;
		memset(p, 0xff, m->len);
		*m->lost = true;
		errno = saved;
		return;
	}
	errno = saved;
	/* not ours: the previous disposition decides, as without us */
	if (previous.sa_flags & SA_SIGINFO) {
		previous.sa_sigaction(sig, si, uc);
	} else if (previous.sa_handler != SIG_IGN &&
		   previous.sa_handler != SIG_DFL) {
		previous.sa_handler(sig);
	} else {
		/* the access is retried and kills the process */
		signal(SIGBUS, SIG_DFL);
	}
}

int udrv_sigbus_watch(void *addr, size_t len, int probe_fd,
		      const volatile int *gone, volatile bool *lost)
{
	struct sigaction sa = {
		.sa_sigaction = on_sigbus,
		.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER,
	};
	int i, err = 0;

	pthread_mutex_lock(&maps_lock);
	if (!installed) {
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGBUS, &sa, &previous)) {
			err = udrv_fail(errno, "installing the SIGBUS handler: %s",
					strerror(errno));
			goto out;
		}
		installed = true;
	}
	for (i = 0; i < SIGBUS_MAPS_MAX; i++) {
		struct sigbus_map *m = &maps[i];

		if (atomic_load(&m->start))
			continue;
		m->len = len;
		m->probe_fd = probe_fd;
		m->gone = gone;
		m->lost = lost;
		atomic_store(&m->start, (uintptr_t)addr);
		goto out;
	}
	err = udrv_fail(ENOSPC, "more than %d region mappings at once",
			SIGBUS_MAPS_MAX);
out:
	pthread_mutex_unlock(&maps_lock);
	return err;
}

void udrv_sigbus_unwatch(void *addr)
{
	int i;

	pthread_mutex_lock(&maps_lock);
	for (i = 0; i < SIGBUS_MAPS_MAX; i++)
		if (atomic_load(&maps[i].start) == (uintptr_t)addr)
			atomic_store(&maps[i].start, 0);
	pthread_mutex_unlock(&maps_lock);
}
