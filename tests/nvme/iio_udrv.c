// SPDX-License-Identifier: GPL-2.0-only
/* iio_udrv.c - see iio_udrv.h */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "iio_udrv.h"

#define PCI_DEVICES	"/sys/bus/pci/devices"
#define GENERIC_DRV	"/sys/bus/pci/drivers/iio_pci_generic"
#define IIO_CLASS	"/sys/class/iio"

static char message[512];

const char *iio_udrv_error(void)
{
	return message;
}

/* set the message from @fmt; returns -@err for the caller's return */
__attribute__((format(printf, 2, 3)))
static int fail(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	return -err;
}

/* the text of file @path into @buf, newline cut: 0 or -errno */
static int read_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0)
		return fail(errno, "%s: %s", path, strerror(errno));
	n = read(fd, buf, len - 1);
	err = errno;
	close(fd);
	if (n < 0)
		return fail(err, "reading %s: %s", path, strerror(err));
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* write @text to file @path: 0 or -errno */
static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return fail(errno, "%s: %s", path, strerror(errno));
	if (write(fd, text, strlen(text)) < 0)
		err = errno;
	close(fd);
	if (err)
		return fail(err, "writing \"%s\" to %s: %s", text, path,
			    strerror(err));
	return 0;
}

int iio_udrv_pci_attr(const char *pci, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), PCI_DEVICES "/%s/%s", pci, attr);
	return read_file(path, buf, len);
}

int iio_udrv_bind(const char *pci)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *drv;
	ssize_t n;
	int err;

	snprintf(path, sizeof(path), PCI_DEVICES "/%s", pci);
	if (strchr(pci, '/') || access(path, F_OK))
		return fail(ENODEV, "no PCI device %s", pci);
	snprintf(path, sizeof(path), PCI_DEVICES "/%s/driver", pci);
	n = readlink(path, target, sizeof(target) - 1);
	if (n >= 0) {
		target[n] = 0;
		drv = strrchr(target, '/') + 1;
		if (strcmp(drv, "iio_pci_generic"))
			return fail(EBUSY, "%s is bound to %s; unbind it first "
				    "(see iio_pci_generic(4))", pci, drv);
		return 0;
	}
	if (access(GENERIC_DRV, F_OK))
		return fail(ENOENT, "iio_pci_generic is not loaded");
	snprintf(path, sizeof(path), PCI_DEVICES "/%s/driver_override", pci);
	err = write_file(path, "iio_pci_generic");
	if (!err)
		err = write_file(GENERIC_DRV "/bind", pci);
	if (err)
		return fail(-err, "binding %s to iio_pci_generic: %s", pci,
			    strerror(-err));
	return 0;
}

int iio_udrv_find_bar(const char *pci, int bar)
{
	char path[PATH_MAX], file[PATH_MAX + 300], want[64], name[64];
	struct dirent *de;
	int nr = -1;
	DIR *dir;

	snprintf(path, sizeof(path), PCI_DEVICES "/%s/iio", pci);
	snprintf(want, sizeof(want), "%s bar%d", pci, bar);
	dir = opendir(path);
	if (!dir)
		return fail(ENOENT, "no iio device \"%s\" (%s: %s)", want, path,
			    strerror(errno));
	while ((de = readdir(dir))) {
		if (strncmp(de->d_name, "iio", 3))
			continue;
		snprintf(file, sizeof(file), "%s/%s/name", path, de->d_name);
		if (!read_file(file, name, sizeof(name)) && !strcmp(name, want))
			nr = atoi(de->d_name + 3);
	}
	closedir(dir);
	if (nr < 0)
		return fail(ENOENT, "no iio device \"%s\"", want);
	return nr;
}

int iio_udrv_attr(int nr, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), IIO_CLASS "/iio%d/%s", nr, attr);
	return read_file(path, buf, len);
}

long long iio_udrv_attr_num(int nr, const char *attr)
{
	char buf[64], *end;
	long long v;
	int err = iio_udrv_attr(nr, attr, buf, sizeof(buf));

	if (err)
		return err;
	errno = 0;
	v = strtoll(buf, &end, 0);
	if (errno || end == buf || *end || v < 0)
		return fail(EINVAL, "iio%d/%s: \"%s\" is not a number", nr,
			    attr, buf);
	return v;
}

int iio_udrv_map(int nr, size_t len, struct iio_udrv_map *m)
{
	long page = sysconf(_SC_PAGESIZE);
	long long size = iio_udrv_attr_num(nr, "size");
	char node[32];
	void *p;
	int fd, err;

	if (size < 0)
		return (int)size;
	if (!len)
		len = size;
	len = (len + page - 1) / page * page;
	if (len > (size_t)size)
		return fail(EINVAL, "iio%d: %zu bytes asked for, the region has "
			    "%lld", nr, len, size);
	snprintf(node, sizeof(node), "/dev/iio%d", nr);
	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return fail(errno, "%s: %s", node, strerror(errno));
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	err = errno;
	close(fd);	/* the mapping keeps the device */
	if (p == MAP_FAILED)
		return fail(err, "mmap %s: %s", node, strerror(err));
	m->p = p;
	m->len = len;
	m->size = size;
	return 0;
}

void iio_udrv_unmap(struct iio_udrv_map *m)
{
	if (m->p)
		munmap((void *)m->p, m->len);
	m->p = NULL;
}

/* the size of dma@k of iio device @nr, 0 if it does not exist */
static long long dma_size(int nr, int k)
{
	char attr[32];
	long long size;

	snprintf(attr, sizeof(attr), "dma%d/size", k);
	size = iio_udrv_attr_num(nr, attr);
	return size < 0 ? 0 : size;
}

int iio_udrv_dma(int nr, size_t len, struct iio_udrv_dma *d)
{
	long long had[IIO_UDRV_DMA_MAX], bus;
	char path[PATH_MAX], text[32];
	int k, use = -1, fd, err;
	void *p;

	for (k = 0; k < IIO_UDRV_DMA_MAX; k++) {
		had[k] = dma_size(nr, k);
		if (use < 0 && had[k] >= (long long)len)
			use = k;
	}
	if (use < 0) {
		snprintf(path, sizeof(path), IIO_CLASS "/iio%d/dma_request", nr);
		if (access(path, F_OK))
			return fail(EOPNOTSUPP, "iio%d has no dma_request: its "
				    "stub does not let user space add DMA "
				    "buffers", nr);
		snprintf(text, sizeof(text), "%zu", len);
		err = write_file(path, text);
		if (err == -EPERM)
			return fail(EPERM, "dma_request of iio%d: no IOMMU "
				    "translates its DMA; boot with an IOMMU or "
				    "opt in with iio.enable_unsafe_noiommu_mode=1 "
				    "(unsafe, see iio(4))", nr);
		if (err == -ENOSPC)
			return fail(ENOSPC, "dma_request of iio%d: all %d "
				    "buffers exist and none has %zu bytes; "
				    "unbind and bind again to free them", nr,
				    IIO_UDRV_DMA_MAX, len);
		if (err == -E2BIG)
			return fail(E2BIG, "dma_request of iio%d for %zu "
				    "bytes: past iio_pci_generic's dma_max "
				    "with the buffers it has", nr, len);
		if (err)
			return fail(-err, "dma_request of iio%d for %zu bytes: "
				    "%s", nr, len, strerror(-err));
		for (k = 0; k < IIO_UDRV_DMA_MAX && use < 0; k++)
			if (!had[k] && dma_size(nr, k) >= (long long)len)
				use = k;
		if (use < 0)
			return fail(EIO, "dma_request of iio%d made no new "
				    "buffer", nr);
	}
	snprintf(text, sizeof(text), "dma%d/bus_addr", use);
	bus = iio_udrv_attr_num(nr, text);
	if (bus < 0)
		return (int)bus;
	d->k = use;
	d->bus = (uint64_t)bus;
	d->size = dma_size(nr, use);
	snprintf(path, sizeof(path), IIO_CLASS "/iio%d/dma%d/buffer", nr, use);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return fail(errno, "%s: %s", path, strerror(errno));
	p = mmap(NULL, d->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	err = errno;
	close(fd);
	if (p == MAP_FAILED)
		return fail(err, "mmap %s: %s", path, strerror(err));
	d->cpu = p;
	return 0;
}

void iio_udrv_dma_unmap(struct iio_udrv_dma *d)
{
	if (d->cpu)
		munmap(d->cpu, d->size);
	d->cpu = NULL;
}

int iio_udrv_event_open(int nr, int vector, char *path, size_t len)
{
	char node[64];
	int fd;

	if (vector)
		snprintf(node, sizeof(node), "/dev/iio%d_event%d", nr, vector);
	else
		snprintf(node, sizeof(node), "/dev/iio%d_event", nr);
	if (path)
		snprintf(path, len, "%s", node);
	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return fail(errno, "%s: %s", node, strerror(errno));
	return fd;
}

long iio_udrv_event_wait(const int *fds, int n, int timeout_ms,
			 uint32_t *counts)
{
	struct pollfd pfd[32];
	uint32_t count;
	long mask = 0;
	int i, ret;

	if (n < 1 || n > 32)
		return fail(EINVAL, "waiting on %d event nodes", n);
	for (i = 0; i < n; i++)
		pfd[i] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
	ret = poll(pfd, n, timeout_ms);
	if (ret < 0 && errno == EINTR)
		return 0;
	if (ret < 0)
		return fail(errno, "poll of event nodes: %s", strerror(errno));
	for (i = 0; i < n && ret; i++) {
		if (pfd[i].revents & (POLLERR | POLLHUP | POLLNVAL))
			return fail(EIO, "event node (fd %d): POLLERR: the "
				    "device went away", fds[i]);
		if (!(pfd[i].revents & POLLIN))
			continue;
		if (read(fds[i], &count, sizeof(count)) != sizeof(count)) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			return fail(errno, "reading event node (fd %d): %s",
				    fds[i], strerror(errno));
		}
		if (counts)
			counts[i] = count;
		mask |= 1l << i;
	}
	return mask;
}
