// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lookup.c - finding iio devices and PCI functions in sysfs, for lib/iio.c
 * and iioctl alike (lookup.h says why it is internal)
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "lookup.h"

int udrv_pci_address_parse(const char *s, char addr[UDRV_PCI_ADDR_LEN],
			   int *bar)
{
	static const char shape[] = "xxxx:xx:xx.d";
	const char *p = s;
	size_t i = 0;

	if (strlen(s) >= 7 && s[2] == ':') {
		memcpy(addr, "0000:", 5);	/* the domain left out */
		i = 5;
	}
	for (; shape[i]; i++, p++) {
		if (shape[i] == 'x' ? !isxdigit((unsigned char)*p) :
		    shape[i] == 'd' ? *p < '0' || *p > '7' : *p != shape[i])
			return -EINVAL;
		addr[i] = (char)tolower((unsigned char)*p);
	}
	addr[i] = '\0';
	if (bar)
		*bar = -1;
	if (!*p)
		return 0;
	if (!bar || strncasecmp(p, "/bar", 4) || p[4] < '0' || p[4] > '5' ||
	    p[5])
		return -EINVAL;
	*bar = p[4] - '0';
	return 0;
}

int udrv_pci_bar_holding(const char *resource, uint64_t physaddr, int *bar,
			 uint64_t *start)
{
	unsigned long long s, e, flags;
	FILE *f = fopen(resource, "re");
	int i;

	if (!f)
		return -errno;
	*bar = -1;
	for (i = 0; i < UDRV_PCI_BARS &&
	     fscanf(f, "%llx %llx %llx", &s, &e, &flags) == 3; i++) {
		if ((s || e) && physaddr >= s && physaddr <= e) {
			if (start)
				*start = s;
			*bar = i;
			break;
		}
	}
	fclose(f);
	return 0;
}

int udrv_read_line(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;
	ssize_t n;

	buf[0] = '\0';
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	err = errno;
	close(fd);
	if (n < 0)
		return -err;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int udrv_link_name(const char *path, char *buf, size_t size)
{
	char target[PATH_MAX];
	const char *base;
	ssize_t n;

	buf[0] = '\0';
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strlen(base) >= size)
		return -ENAMETOOLONG;
	memcpy(buf, base, strlen(base) + 1);
	return 0;
}

/* N of the decimal @s (no sign, no leading zero, at most @max), else -1 */
static long parse_decimal(const char *s, long max)
{
	long n = 0;

	if (*s < '0' || *s > '9' || (*s == '0' && s[1]))
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || n > max / 10 ||
		    n * 10 > max - (*s - '0'))
			return -1;
		n = n * 10 + (*s - '0');
	}
	return n;
}

long udrv_iio_label_parse(const char *s)
{
	if (strncmp(s, "iio", 3))
		return -1;
	return parse_decimal(s + 3, INT_MAX);
}

long udrv_iio_node_parse(const char *name, enum udrv_iio_node *node,
			 unsigned int *vector)
{
	static const struct {
		const char *suffix;
		enum udrv_iio_node node;
	} suffixes[] = {
		{ "_in", UDRV_IIO_NODE_IN },
		{ "_out", UDRV_IIO_NODE_OUT },
		{ "_event", UDRV_IIO_NODE_EVENT },
	};
	const char *us = strchr(name, '_');
	char label[32];
	long nr, k = 0;
	size_t i;

	if (!us) {
		*node = UDRV_IIO_NODE_REGION;
		*vector = 0;
		return udrv_iio_label_parse(name);
	}
	if ((size_t)(us - name) >= sizeof(label))
		return -1;
	memcpy(label, name, (size_t)(us - name));
	label[us - name] = '\0';
	nr = udrv_iio_label_parse(label);
	if (nr < 0)
		return -1;
	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		size_t len = strlen(suffixes[i].suffix);

		if (strncmp(us, suffixes[i].suffix, len))
			continue;
		if (us[len]) {
			/* iioN_eventK: vectors 1 to 7 (iio(4)) */
			if (suffixes[i].node != UDRV_IIO_NODE_EVENT)
				continue;
			k = parse_decimal(us + len, 7);
			if (k < 1)
				return -1;
		}
		*node = suffixes[i].node;
		*vector = (unsigned int)k;
		return nr;
	}
	return -1;
}

long udrv_iio_find_named(const char *class_dir, const char *name, long *nrs,
			 size_t max)
{
	char path[PATH_MAX], buf[256];
	DIR *d = opendir(class_dir);
	struct dirent *e;
	size_t n = 0;
	long nr;

	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		nr = udrv_iio_label_parse(e->d_name);
		if (nr < 0)
			continue;
		snprintf(path, sizeof(path), "%s/iio%ld/name", class_dir, nr);
		if (!udrv_read_line(path, buf, sizeof(buf)) &&
		    !strcmp(buf, name) && n++ < max)
			nrs[n - 1] = nr;
	}
	closedir(d);
	return (long)n;
}
