// SPDX-License-Identifier: GPL-2.0-only
/* iio_raw.c - see iio_raw.h */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "iio_raw.h"

#define PCI_DEVICES	"/sys/bus/pci/devices"
#define GENERIC_DRV	"/sys/bus/pci/drivers/iio_pci_generic"
#define IIO_CLASS	"/sys/class/iio"

static char message[512];

const char *iio_raw_error(void)
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

int iio_raw_pci_attr(const char *pci, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), PCI_DEVICES "/%s/%s", pci, attr);
	return read_file(path, buf, len);
}

int iio_raw_bind(const char *pci)
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

int iio_raw_find_bar(const char *pci, int bar)
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

int iio_raw_attr(int nr, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), IIO_CLASS "/iio%d/%s", nr, attr);
	return read_file(path, buf, len);
}

long long iio_raw_attr_num(int nr, const char *attr)
{
	char buf[64], *end;
	long long v;
	int err = iio_raw_attr(nr, attr, buf, sizeof(buf));

	if (err)
		return err;
	errno = 0;
	v = strtoll(buf, &end, 0);
	if (errno || end == buf || *end || v < 0)
		return fail(EINVAL, "iio%d/%s: \"%s\" is not a number", nr,
			    attr, buf);
	return v;
}

int iio_raw_map(int nr, size_t len, struct iio_raw_map *m)
{
	long page = sysconf(_SC_PAGESIZE);
	long long size = iio_raw_attr_num(nr, "size");
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

void iio_raw_unmap(struct iio_raw_map *m)
{
	if (m->p)
		munmap((void *)m->p, m->len);
	m->p = NULL;
}

int iio_raw_event_open(int nr, int vector, char *path, size_t len)
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
