// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pci.c - what sysfs says about a PCI function, for the backends of PCI
 * devices (iio.c, vfio.c): its identity, its driver, its BARs
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "lookup.h"

int udrv_pci_attr_num(const char *addr, const char *attr, uint64_t *v)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), UDRV_PCI_DEVICES "/%s/%s", addr, attr);
	return udrv_read_number(path, v);
}

void udrv_pci_identify(struct udrv_device *dev, const char *addr)
{
	uint64_t v;

	snprintf(dev->name, sizeof(dev->name), "%s", addr);
	dev->pci = true;
	if (!udrv_pci_attr_num(addr, "vendor", &v))
		dev->vendor = (uint16_t)v;
	if (!udrv_pci_attr_num(addr, "device", &v))
		dev->device = (uint16_t)v;
	if (!udrv_pci_attr_num(addr, "class", &v))
		dev->class_code = (uint32_t)v;
}

void udrv_pci_driver(const char *addr, char *drv, size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), UDRV_PCI_DEVICES "/%s/driver", addr);
	udrv_link_name(path, drv, len);	/* "" if none */
}

int udrv_pci_bar(const char *addr, unsigned int bar, uint64_t *start,
		 uint64_t *flags)
{
	unsigned long long s = 0, e = 0, f = 0;
	char path[PATH_MAX];
	unsigned int i;
	FILE *file;

	snprintf(path, sizeof(path), UDRV_PCI_DEVICES "/%s/resource", addr);
	file = fopen(path, "re");
	if (!file)
		return -1;
	for (i = 0; i <= bar; i++)
		if (fscanf(file, "%llx %llx %llx", &s, &e, &f) != 3) {
			s = e = 0;
			break;
		}
	fclose(file);
	if (e <= s)
		return -1;
	*start = s;
	*flags = f;
	return 0;
}
