// SPDX-License-Identifier: GPL-2.0-only
/*
 * pci_ident.c - who a device's PCI parent is and how it is set up (list's
 * and info's identity columns), from PCI sysfs, iio's sysfs and pci.ids
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "lookup.h"
#include "pci_ident.h"

/* sysfs's resource flags (include/linux/ioport.h) */
#define RES_IO		0x100
#define RES_MEM		0x200
#define RES_PREFETCH	0x2000
#define RES_MEM_64	0x100000

/*
 * pci.ids ($IIOCTL_PCIIDS, else /usr/share/misc/pci.ids, else
 * /usr/share/hwdata/pci.ids, as lspci looks for it), read in one pass:
 * the vendor and device names from its vendor list, then the class,
 * subclass and prog-if names from its class list ("C cc  name", "\tss
 * name", "\t\tpp  name").  "" where the file or an entry is missing.
 */
struct pci_ids_names {
	char vendor[128], product[128];
	char class[96], subclass[96], prog_if[96];
};

static void pci_ids_read(const struct iio_pci_id *num,
			 struct pci_ids_names *n)
{
	static const char *const paths[] = {
		"/usr/share/misc/pci.ids", "/usr/share/hwdata/pci.ids",
	};
	const char *env = getenv("IIOCTL_PCIIDS");
	unsigned cc = num->class >> 16, sc = num->class >> 8 & 0xff;
	unsigned pi = num->class & 0xff, v;
	bool in_vendor = false, in_class = false, in_sub = false;
	char line[512];
	size_t i;
	FILE *f = NULL;

	memset(n, 0, sizeof(*n));
	if (env && *env)
		f = fopen(env, "re");
	for (i = 0; !f && !(env && *env) && i < 2; i++)
		f = fopen(paths[i], "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || !line[0])
			continue;
		if (line[0] == 'C' && line[1] == ' ') {
			if (in_class)
				break;		/* past the device's class */
			in_vendor = false;
			in_class = sscanf(line + 2, "%2x", &v) == 1 && v == cc &&
				   strlen(line) > 6;
			if (in_class)
				copy_string(n->class, sizeof(n->class), line + 6);
		} else if (line[0] != '\t') {
			in_vendor = sscanf(line, "%4x", &v) == 1 &&
				    v == num->vendor && strlen(line) > 6;
			if (in_vendor)
				copy_string(n->vendor, sizeof(n->vendor),
					    line + 6);
		} else if (in_vendor && line[1] != '\t') {
			if (sscanf(line + 1, "%4x", &v) == 1 &&
			    v == num->device && strlen(line) > 7)
				copy_string(n->product, sizeof(n->product),
					    line + 7);
		} else if (in_class && line[1] != '\t') {
			in_sub = sscanf(line + 1, "%2x", &v) == 1 && v == sc &&
				 strlen(line) > 5;
			if (in_sub)
				copy_string(n->subclass, sizeof(n->subclass),
					    line + 5);
		} else if (in_sub && sscanf(line + 2, "%2x", &v) == 1 &&
			   v == pi && strlen(line) > 6) {
			copy_string(n->prog_if, sizeof(n->prog_if), line + 6);
		}
	}
	fclose(f);
}

/*
 * pci_ids_read()'s names, the file read once for each device identity:
 * every identity column of every device asks (pci_ident()), list's one
 * after another, and pci.ids is a file of a megabyte and more.
 */
static void pci_ids_lookup(const struct iio_pci_id *num,
			   struct pci_ids_names *n)
{
	static struct {
		bool valid;
		unsigned vendor, device, class;
		char env[PATH_MAX];
		struct pci_ids_names names;
	} last;
	const char *env = getenv("IIOCTL_PCIIDS");

	if (!env)
		env = "";
	if (!last.valid || last.vendor != num->vendor ||
	    last.device != num->device || last.class != num->class ||
	    strcmp(last.env, env)) {
		pci_ids_read(num, &last.names);
		last.vendor = num->vendor;
		last.device = num->device;
		last.class = num->class;
		copy_string(last.env, sizeof(last.env), env);
		last.valid = true;
	}
	*n = last.names;
}

/* SYSFS/iioN/device/FILE: a file of the PCI parent */
static void parent_path(const struct iio_device_info *dev, const char *file,
			char *buf, size_t size)
{
	char attr[320];

	snprintf(attr, sizeof(attr), "device/%s", file);
	device_attr_path(dev, attr, buf, size);
}

/* "0:mem,64,pref 2:io": each BAR in use, with its flags. */
static void read_bars(const struct iio_device_info *dev, char *buf, size_t size)
{
	char path[PATH_MAX];
	unsigned long long start, end, flags;
	size_t len = 0;
	int bar;
	FILE *f;

	buf[0] = '\0';
	parent_path(dev, "resource", path, sizeof(path));
	f = fopen(path, "re");
	if (!f)
		return;
	for (bar = 0; bar < UDRV_PCI_BARS &&
	     fscanf(f, "%llx %llx %llx", &start, &end, &flags) == 3; bar++) {
		if (!end || !(flags & (RES_IO | RES_MEM)) || len >= size)
			continue;
		len += (size_t)snprintf(buf + len, size - len, "%s%d:%s%s%s",
					len ? " " : "", bar,
					flags & RES_IO ? "io" : "mem",
					flags & RES_MEM_64 ? ",64" : "",
					flags & RES_PREFETCH ? ",pref" : "");
	}
	fclose(f);
}

/*
 * msix:N or msi:N from msi_irqs/ (one file a vector, reading "msi" or
 * "msix"), else iio_pci_generic's irq_mode, else intx for a PCI irq
 * line, else none.
 */
static void read_irq_mode(const struct iio_device_info *dev, char *buf, size_t size)
{
	char path[PATH_MAX], kind[8] = "", line[16], file[280];
	unsigned n = 0;
	struct dirent *e;
	DIR *dir;

	parent_path(dev, "msi_irqs", path, sizeof(path));
	dir = opendir(path);
	while (dir && (e = readdir(dir))) {
		if (e->d_name[0] == '.')
			continue;
		n++;
		snprintf(file, sizeof(file), "msi_irqs/%s", e->d_name);
		parent_path(dev, file, path, sizeof(path));
		if (!kind[0] && !udrv_read_line(path, line, sizeof(line)))
			copy_string(kind, sizeof(kind), line);
	}
	if (dir)
		closedir(dir);
	if (n) {
		snprintf(buf, size, "%s:%u", kind[0] ? kind : "msi", n);
		return;
	}
	parent_path(dev, "irq_mode", path, sizeof(path));
	if (!udrv_read_line(path, line, sizeof(line)) &&
	    (!strcmp(line, "intx") || !strcmp(line, "none"))) {
		copy_string(buf, size, line);
		return;
	}
	parent_path(dev, "irq", path, sizeof(path));
	if (!udrv_read_line(path, line, sizeof(line)) && strcmp(line, "0") &&
	    line[0])
		copy_string(buf, size, "intx");
	else
		copy_string(buf, size, "none");
}

/* Bus mastering: bit 2 of the command register (config offset 4). */
static void read_master(const struct iio_device_info *dev, char *buf, size_t size)
{
	char path[PATH_MAX];
	unsigned char cmd[2];
	int fd;

	buf[0] = '\0';
	parent_path(dev, "config", path, sizeof(path));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (pread(fd, cmd, sizeof(cmd), 4) == (ssize_t)sizeof(cmd))
		copy_string(buf, size, cmd[0] & 4 ? "on" : "off");
	close(fd);
}

void pci_ident(const struct iio_device_info *dev, struct pci_ident *id)
{
	struct pci_ids_names names;
	struct iio_pci_id num;
	char path[PATH_MAX];

	memset(id, 0, sizeof(*id));
	device_attr_path(dev, "dma_iommu", path, sizeof(path));
	udrv_read_line(path, id->dma, sizeof(id->dma));
	if (!device_pci_id(dev, &num))
		return;
	id->pci = true;
	snprintf(id->id, sizeof(id->id), "%04x:%04x", num.vendor, num.device);
	snprintf(id->class, sizeof(id->class), "%06x", num.class);
	pci_ids_lookup(&num, &names);
	copy_string(id->vendor, sizeof(id->vendor), names.vendor);
	copy_string(id->product, sizeof(id->product), names.product);
	if (names.prog_if[0])
		snprintf(id->class_name, sizeof(id->class_name), "%s (%s)",
			 names.subclass[0] ? names.subclass : names.class,
			 names.prog_if);
	else
		copy_string(id->class_name, sizeof(id->class_name),
			    names.subclass[0] ? names.subclass : names.class);
	parent_path(dev, "driver", path, sizeof(path));
	udrv_link_name(path, id->driver, sizeof(id->driver));
	read_bars(dev, id->bars, sizeof(id->bars));
	read_irq_mode(dev, id->irq_mode, sizeof(id->irq_mode));
	read_master(dev, id->master, sizeof(id->master));
	parent_path(dev, "iommu_group", path, sizeof(path));
	udrv_link_name(path, id->iommu_group, sizeof(id->iommu_group));
}
