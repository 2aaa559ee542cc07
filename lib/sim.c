// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sim.c - the simulated backend: a device that a host test makes with
 * udrv_sim_new() and a driver opens as "sim:NAME".  Regions are memory
 * (a memfd each, so that a removal can take the driver's mappings away as
 * a real one does: ftruncate, then SIGBUS), vectors are eventfds the test
 * raises, DMA buffers are ordinary memory at bus addresses from 1 MiB up
 * that the test's model reaches through udrv_sim_dma().  One process, one
 * opener at a time per simulated device.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include "access.h"
#include "internal.h"
#include "sigbus.h"

#define SIM_BUS_BASE	0x100000ull

struct sim_region {
	int memfd;			/* -1: no region */
	size_t size;
	void *mem;			/* the model's view */
};

struct sim_dma {
	uint64_t bus;
	void *addr;
	size_t size;
};

struct udrv_sim {
	char name[64];
	struct udrv_sim *next;		/* the list of simulated devices */
	uint16_t vendor, device;
	uint32_t class_code;
	bool pci;
	struct sim_region region[UDRV_REGIONS_MAX];
	unsigned int vectors;
	char irq_mode[16];
	int eventfd[UDRV_VECTORS_MAX];
	udrv_sim_write_hook hook;
	void *hook_data;
	volatile int removed;
	unsigned int unmasks;
	struct udrv_device *opener;
	struct sim_dma dma[UDRV_DMA_MAX];
	uint64_t bus_next;
};

static struct udrv_sim *sims;
static pthread_mutex_t sims_lock = PTHREAD_MUTEX_INITIALIZER;

int udrv_sim_new(const char *name, struct udrv_sim **simp)
{
	struct udrv_sim *sim, *s;
	unsigned int i;

	*simp = NULL;
	if (!name || !*name || strlen(name) >= sizeof(sim->name))
		return udrv_fail(EINVAL, "a simulated device needs a name of 1 "
				 "to %zu characters", sizeof(sim->name) - 1);
	sim = calloc(1, sizeof(*sim));
	if (!sim)
		return udrv_fail(ENOMEM, "out of memory");
	snprintf(sim->name, sizeof(sim->name), "%s", name);
	snprintf(sim->irq_mode, sizeof(sim->irq_mode), "none");
	for (i = 0; i < UDRV_REGIONS_MAX; i++)
		sim->region[i].memfd = -1;
	for (i = 0; i < UDRV_VECTORS_MAX; i++)
		sim->eventfd[i] = -1;
	sim->bus_next = SIM_BUS_BASE;
	pthread_mutex_lock(&sims_lock);
	for (s = sims; s; s = s->next)
		if (!strcmp(s->name, name))
			break;
	if (!s) {
		sim->next = sims;
		sims = sim;
	}
	pthread_mutex_unlock(&sims_lock);
	if (s) {
		free(sim);
		return udrv_fail(EEXIST, "a simulated device \"%s\" exists",
				 name);
	}
	*simp = sim;
	return 0;
}

void udrv_sim_free(struct udrv_sim *sim)
{
	struct udrv_sim **p;
	unsigned int i;

	if (!sim)
		return;
	pthread_mutex_lock(&sims_lock);
	for (p = &sims; *p; p = &(*p)->next)
		if (*p == sim) {
			*p = sim->next;
			break;
		}
	pthread_mutex_unlock(&sims_lock);
	for (i = 0; i < UDRV_REGIONS_MAX; i++) {
		struct sim_region *r = &sim->region[i];

		if (r->memfd < 0)
			continue;
		munmap(r->mem, r->size);
		close(r->memfd);
	}
	for (i = 0; i < UDRV_VECTORS_MAX; i++)
		if (sim->eventfd[i] >= 0)
			close(sim->eventfd[i]);
	free(sim);
}

int udrv_sim_set_pci_id(struct udrv_sim *sim, uint16_t vendor,
			uint16_t device, uint32_t class_code)
{
	if (class_code > 0xffffff)
		return udrv_fail(EINVAL, "class code 0x%x: 24 bits at most",
				 class_code);
	sim->pci = true;
	sim->vendor = vendor;
	sim->device = device;
	sim->class_code = class_code;
	return 0;
}

int udrv_sim_add_region(struct udrv_sim *sim, unsigned int i, size_t size)
{
	struct sim_region *r;
	long page = sysconf(_SC_PAGESIZE);
	size_t n = (size + page - 1) / page * page;
	char name[80];

	if (i >= UDRV_REGIONS_MAX || sim->region[i].memfd >= 0 || !size)
		return udrv_fail(EINVAL, "region %u of %zu bytes: regions are "
				 "0 to %d, each once, not empty", i, size,
				 UDRV_REGIONS_MAX - 1);
	r = &sim->region[i];
	snprintf(name, sizeof(name), "udrv-sim-%s-%u", sim->name, i);
	r->memfd = memfd_create(name, MFD_CLOEXEC);
	if (r->memfd < 0)
		return udrv_fail(errno, "memfd_create: %s", strerror(errno));
	if (ftruncate(r->memfd, (off_t)n))
		goto fail;
	r->mem = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED, r->memfd,
		      0);
	if (r->mem == MAP_FAILED)
		goto fail;
	r->size = size;
	return 0;
fail:
	close(r->memfd);
	r->memfd = -1;
	return udrv_fail(errno, "region %u of %zu bytes: %s", i, size,
			 strerror(errno));
}

int udrv_sim_set_vectors(struct udrv_sim *sim, unsigned int vectors,
			 const char *irq_mode)
{
	static const char *const modes[] = {
		"intx", "msi", "msix", "cyclic", "oneshot",
	};
	unsigned int i, m;

	for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++)
		if (irq_mode && !strcmp(irq_mode, modes[m]))
			break;
	if (!vectors || vectors > UDRV_VECTORS_MAX || sim->vectors ||
	    m == sizeof(modes) / sizeof(modes[0]) ||
	    (vectors > 1 && strcmp(irq_mode, "msix")))
		return udrv_fail(EINVAL, "%u vectors of %s: 1 to %d, once, "
				 "several only with msix", vectors,
				 irq_mode ? irq_mode : "(null)",
				 UDRV_VECTORS_MAX);
	for (i = 0; i < vectors; i++) {
		sim->eventfd[i] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (sim->eventfd[i] < 0)
			return udrv_fail(errno, "eventfd: %s", strerror(errno));
	}
	sim->vectors = vectors;
	snprintf(sim->irq_mode, sizeof(sim->irq_mode), "%s", irq_mode);
	return 0;
}

void udrv_sim_set_write_hook(struct udrv_sim *sim, udrv_sim_write_hook hook,
			     void *data)
{
	sim->hook = hook;
	sim->hook_data = data;
}

void *udrv_sim_region(struct udrv_sim *sim, unsigned int i)
{
	return i < UDRV_REGIONS_MAX && sim->region[i].memfd >= 0 ?
	       sim->region[i].mem : NULL;
}

int udrv_sim_raise(struct udrv_sim *sim, unsigned int vector,
		   unsigned int count)
{
	uint64_t n = count;

	if (vector >= sim->vectors || !count)
		return udrv_fail(EINVAL, "raising %u events on vector %u of "
				 "%u", count, vector, sim->vectors);
	if (write(sim->eventfd[vector], &n, sizeof(n)) != sizeof(n))
		return udrv_fail(errno, "eventfd: %s", strerror(errno));
	return 0;
}

void *udrv_sim_dma(struct udrv_sim *sim, uint64_t bus, size_t len)
{
	unsigned int i;

	for (i = 0; i < UDRV_DMA_MAX; i++) {
		struct sim_dma *d = &sim->dma[i];

		if (d->addr && bus >= d->bus && bus - d->bus < d->size &&
		    d->size - (bus - d->bus) >= len)
			return (char *)d->addr + (bus - d->bus);
	}
	return NULL;
}

void udrv_sim_remove(struct udrv_sim *sim)
{
	unsigned int i;
	uint64_t one = 1;

	/* the flag alone makes every call fail; the rest is for mappings
	 * and waiters, best effort (the library never exits, udrv(3)) */
	sim->removed = 1;
	for (i = 0; i < UDRV_REGIONS_MAX; i++)
		if (sim->region[i].memfd >= 0 &&
		    ftruncate(sim->region[i].memfd, 0))
			continue;	/* a memfd of ours does not refuse */
	/* wake the waiters, who find the device gone */
	for (i = 0; i < sim->vectors; i++)
		if (write(sim->eventfd[i], &one, sizeof(one)) < 0)
			continue;	/* full: readable, so woken anyway */
}

unsigned int udrv_sim_unmasks(const struct udrv_sim *sim)
{
	return sim->unmasks;
}

static struct udrv_sim *priv(const struct udrv_device *dev)
{
	return dev->priv;
}

int udrv_sim_open(struct udrv_device *dev, const char *name)
{
	struct udrv_sim *sim;
	unsigned int i;

	dev->ops = &udrv_sim_ops;
	pthread_mutex_lock(&sims_lock);
	for (sim = sims; sim; sim = sim->next)
		if (!strcmp(sim->name, name))
			break;
	if (sim && !sim->opener)
		sim->opener = dev;
	pthread_mutex_unlock(&sims_lock);
	if (!sim)
		return udrv_fail(ENOENT, "no simulated device \"%s\" (made by "
				 "udrv_sim_new())", name);
	if (sim->opener != dev)
		return udrv_fail(EBUSY, "sim:%s is open already", name);
	if (sim->removed) {
		sim->opener = NULL;
		return udrv_fail(ENODEV, "sim:%s was removed", name);
	}
	dev->priv = sim;
	snprintf(dev->name, sizeof(dev->name), "sim:%s", name);
	dev->pci = sim->pci;
	dev->vendor = sim->vendor;
	dev->device = sim->device;
	dev->class_code = sim->class_code;
	snprintf(dev->irq_mode, sizeof(dev->irq_mode), "%s", sim->irq_mode);
	snprintf(dev->dma_policy, sizeof(dev->dma_policy), "sim");
	dev->vectors = sim->vectors;
	for (i = 0; i < UDRV_REGIONS_MAX; i++) {
		if (sim->region[i].memfd < 0)
			continue;
		dev->regions[i].present = true;
		dev->regions[i].size = sim->region[i].size;
		dev->regions[i].flags = UDRV_REGION_MEM | UDRV_REGION_MAPPABLE;
	}
	return 0;
}

static void sim_close(struct udrv_device *dev)
{
	struct udrv_sim *sim = priv(dev);

	if (sim)
		sim->opener = NULL;
}

static int sim_read(struct udrv_device *dev, unsigned int i,
		    uint64_t offset, unsigned int width, uint64_t *value)
{
	if (priv(dev)->removed)
		return udrv_device_lost(dev, "read");
	*value = udrv_load((const volatile char *)priv(dev)->region[i].mem +
			   offset, width);
	return 0;
}

static int sim_write(struct udrv_device *dev, unsigned int i,
		     uint64_t offset, unsigned int width, uint64_t value)
{
	struct udrv_sim *sim = priv(dev);

	if (sim->removed)
		return udrv_device_lost(dev, "write");
	udrv_store((volatile char *)sim->region[i].mem + offset, width, value);
	if (sim->hook)
		sim->hook(sim, i, offset, width, value, sim->hook_data);
	return 0;
}

static int sim_map(struct udrv_device *dev, unsigned int i, void **addr,
		   size_t *len)
{
	struct udrv_sim *sim = priv(dev);
	long page = sysconf(_SC_PAGESIZE);
	size_t n = (sim->region[i].size + page - 1) / page * page;
	void *m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED,
		       sim->region[i].memfd, 0);
	int err;

	if (m == MAP_FAILED)
		return udrv_fail(errno, "%s: mmap of region %u: %s", dev->name,
				 i, strerror(errno));
	err = udrv_sigbus_watch(m, n, -1, &sim->removed, &dev->gone);
	if (err) {
		munmap(m, n);
		return err;
	}
	*addr = m;
	*len = n;
	return 0;
}

static int sim_event_fd(struct udrv_device *dev, unsigned int v)
{
	int fd = dup(priv(dev)->eventfd[v]);

	if (fd < 0)
		return udrv_fail(errno, "dup: %s", strerror(errno));
	return fd;
}

static int64_t sim_event_consume(struct udrv_device *dev, unsigned int v)
{
	uint64_t n;

	if (priv(dev)->removed)
		return udrv_device_lost(dev, "reading an event");
	if (read(dev->vec[v].fd, &n, sizeof(n)) == sizeof(n))
		return (int64_t)n;
	if (errno == EAGAIN)
		return 0;
	return udrv_fail(errno, "%s: reading vector %u: %s", dev->name, v,
			 strerror(errno));
}

static int sim_event_unmask(struct udrv_device *dev, unsigned int v)
{
	(void)v;
	priv(dev)->unmasks++;
	return 0;
}

static int sim_dma_alloc(struct udrv_device *dev, struct udrv_dma *dma,
			 size_t size)
{
	struct udrv_sim *sim = priv(dev);
	long page = sysconf(_SC_PAGESIZE);
	size_t n = (size + page - 1) / page * page;
	unsigned int i;
	void *m;

	for (i = 0; i < UDRV_DMA_MAX && sim->dma[i].addr; i++)
		;
	if (i == UDRV_DMA_MAX)
		return udrv_fail(ENOSPC, "%s: %d DMA buffers at once at most",
				 dev->name, UDRV_DMA_MAX);
	m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (m == MAP_FAILED)
		return udrv_fail(errno, "a DMA buffer of %zu bytes: %s", n,
				 strerror(errno));
	sim->dma[i] = (struct sim_dma){ .bus = sim->bus_next, .addr = m,
					.size = n };
	sim->bus_next += n;
	dma->addr = m;
	dma->bus = sim->dma[i].bus;
	dma->size = n;
	dma->priv = i;
	return 0;
}

static void sim_dma_free(struct udrv_device *dev, struct udrv_dma *dma)
{
	struct sim_dma *d = &priv(dev)->dma[dma->priv];

	munmap(d->addr, d->size);
	*d = (struct sim_dma){ 0 };
}

const struct udrv_ops udrv_sim_ops = {
	.name = "sim",
	.close = sim_close,
	.read = sim_read,
	.write = sim_write,
	.map = sim_map,
	.event_fd = sim_event_fd,
	.event_consume = sim_event_consume,
	.event_unmask = sim_event_unmask,
	.dma_alloc = sim_dma_alloc,
	.dma_free = sim_dma_free,
};
