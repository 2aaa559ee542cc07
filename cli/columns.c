// SPDX-License-Identifier: GPL-2.0-only
/*
 * columns.c - each field of a device as a table cell and a JSON value
 */
#include <string.h>
#include <strings.h>

#include "columns.h"
#include "common.h"
#include "pci_ident.h"

static void json_u64(FILE *f, uint64_t v)
{
	fprintf(f, "%llu", (unsigned long long)v);
}

static void window_text(const struct iio_window *w, char *buf, size_t size)
{
	if (w->present)
		snprintf(buf, size, "0x%llx+0x%llx",
			 (unsigned long long)w->offset,
			 (unsigned long long)w->len);
	else
		snprintf(buf, size, "-");
}

static void window_json(FILE *f, const struct iio_window *w)
{
	if (!w->present) {
		fputs("null", f);
		return;
	}
	fputs("{\"offset\": ", f);
	json_hex(f, w->offset);
	fputs(", \"length\": ", f);
	json_hex(f, w->len);
	fputc('}', f);
}

#define STRING_COLUMN(field)						\
static void field##_text(const struct iio_device_info *d, char *buf,	\
			 size_t size)					\
{									\
	text_escape(d->field, buf, size);				\
}									\
static void field##_json(FILE *f, const struct iio_device_info *d)	\
{									\
	json_string(f, d->field);					\
}

/* a count: a JSON number */
#define NUMBER_COLUMN(field, fmt)					\
static void field##_text(const struct iio_device_info *d, char *buf,	\
			 size_t size)					\
{									\
	snprintf(buf, size, fmt, (unsigned long long)d->field);		\
}									\
static void field##_json(FILE *f, const struct iio_device_info *d)	\
{									\
	json_u64(f, d->field);						\
}

/* an address or a size: "0x..." in JSON too (common.h's json_hex()) */
#define HEX_COLUMN(field)						\
static void field##_text(const struct iio_device_info *d, char *buf,	\
			 size_t size)					\
{									\
	snprintf(buf, size, "0x%llx", (unsigned long long)d->field);	\
}									\
static void field##_json(FILE *f, const struct iio_device_info *d)	\
{									\
	json_hex(f, d->field);						\
}

#define WINDOW_COLUMN(field)						\
static void field##_text(const struct iio_device_info *d, char *buf,	\
			 size_t size)					\
{									\
	window_text(&d->field, buf, size);				\
}									\
static void field##_json(FILE *f, const struct iio_device_info *d)	\
{									\
	window_json(f, &d->field);					\
}

STRING_COLUMN(label)
NUMBER_COLUMN(nr, "%llu")
STRING_COLUMN(name)
STRING_COLUMN(version)
STRING_COLUMN(type)
HEX_COLUMN(size)
HEX_COLUMN(physaddr)
WINDOW_COLUMN(in)
WINDOW_COLUMN(out)
NUMBER_COLUMN(events, "%llu")
NUMBER_COLUMN(listeners, "%llu")
NUMBER_COLUMN(vectors, "%llu")
NUMBER_COLUMN(dma_buffers, "%llu")
STRING_COLUMN(dev)

static void irq_text(const struct iio_device_info *d, char *buf,
		     size_t size)
{
	text_escape(d->irq, buf, size);
}

static void irq_json_value(FILE *f, const struct iio_device_info *d)
{
	uint64_t v;

	/* a number for an interrupt line, else the keyword */
	if (!parse_u64(d->irq, 0, UINT64_MAX, &v))
		json_u64(f, v);
	else
		json_string(f, d->irq);
}

static void parent_text(const struct iio_device_info *d, char *buf,
			size_t size)
{
	char raw[sizeof(d->parent) + sizeof(d->subsystem) + 2];

	if (!d->parent[0])
		snprintf(raw, sizeof(raw), "-");
	else if (d->subsystem[0])
		snprintf(raw, sizeof(raw), "%s:%s", d->subsystem, d->parent);
	else
		snprintf(raw, sizeof(raw), "%s", d->parent);
	text_escape(raw, buf, size);
}

static void parent_json(FILE *f, const struct iio_device_info *d)
{
	char buf[sizeof(d->parent) + sizeof(d->subsystem) + 2];

	if (!d->parent[0]) {
		fputs("null", f);
		return;
	}
	if (d->subsystem[0])
		snprintf(buf, sizeof(buf), "%s:%s", d->subsystem, d->parent);
	else
		snprintf(buf, sizeof(buf), "%s", d->parent);
	json_string(f, buf);
}

/*
 * The identity of the PCI parent (pci_ident.h): a cell, "-" where there
 * is none (no PCI parent, no name in pci.ids, no driver...), and in JSON
 * a string or null.
 */
#define IDENT_COLUMN(field)						\
static void ident_##field##_text(const struct iio_device_info *d,	\
				 char *buf, size_t size)		\
{									\
	struct pci_ident id;						\
									\
	pci_ident(d, &id);						\
	copy_string(buf, size, id.field[0] ? id.field : "-");		\
}									\
static void ident_##field##_json(FILE *f,				\
				 const struct iio_device_info *d)	\
{									\
	struct pci_ident id;						\
									\
	pci_ident(d, &id);						\
	if (id.field[0])						\
		json_string(f, id.field);				\
	else								\
		fputs("null", f);					\
}

IDENT_COLUMN(id)
IDENT_COLUMN(vendor)
IDENT_COLUMN(product)
IDENT_COLUMN(class)
IDENT_COLUMN(class_name)
IDENT_COLUMN(driver)
IDENT_COLUMN(bars)
IDENT_COLUMN(irq_mode)
IDENT_COLUMN(master)
IDENT_COLUMN(dma)
IDENT_COLUMN(iommu_group)

const struct column columns[] = {
	{ "DEVICE", "device", "iioN", label_text, label_json, 0, 1 },
	{ "NR", "nr", "device number", nr_text, nr_json, 1, 0 },
	{ "NAME", "name", "device name", name_text, name_json, 0, 1 },
	{ "VERSION", "version", "stub version", version_text, version_json,
	  0, 1 },
	{ "TYPE", "type", "mem or port", type_text, type_json, 0, 1 },
	{ "SIZE", "size", "region size", size_text, size_json, 1, 1 },
	{ "PHYSADDR", "physaddr", "physical address", physaddr_text,
	  physaddr_json, 1, 1 },
	{ "IN", "in", "in window offset+length", in_text, in_json, 0, 1 },
	{ "OUT", "out", "out window offset+length", out_text, out_json, 0, 1 },
	{ "IRQ", "irq", "interrupt, cyclic, oneshot or none", irq_text,
	  irq_json_value, 0, 1 },
	{ "EVENTS", "events", "events so far", events_text, events_json, 1,
	  1 },
	{ "LISTENERS", "listeners", "open event files", listeners_text,
	  listeners_json, 1, 1 },
	{ "VECTORS", "vectors", "event vectors (nodes)", vectors_text,
	  vectors_json, 1, 0 },
	{ "DMA", "dma", "DMA buffers", dma_buffers_text, dma_buffers_json, 1,
	  0 },
	{ "DEV", "dev", "MAJ:MIN of the region node", dev_text, dev_json, 0,
	  0 },
	{ "PARENT", "parent", "bus:device of the parent", parent_text,
	  parent_json, 0, 0 },
	{ "ID", "id", "PCI vendor:device", ident_id_text, ident_id_json, 0,
	  0 },
	{ "VENDOR", "vendor", "PCI vendor's name (pci.ids)",
	  ident_vendor_text, ident_vendor_json, 0, 0 },
	{ "PRODUCT", "product", "PCI device's name (pci.ids)",
	  ident_product_text, ident_product_json, 0, 0 },
	{ "CLASS", "class", "PCI class code", ident_class_text,
	  ident_class_json, 0, 0 },
	{ "CLASSNAME", "class_name", "PCI class's name (pci.ids)",
	  ident_class_name_text, ident_class_name_json, 0, 0 },
	{ "DRIVER", "driver", "driver bound to the PCI device",
	  ident_driver_text, ident_driver_json, 0, 0 },
	{ "BARS", "bars", "BARs in use: N:mem|io,64,pref", ident_bars_text,
	  ident_bars_json, 0, 0 },
	{ "IRQMODE", "irq_mode", "msix:N, msi:N, intx or none",
	  ident_irq_mode_text, ident_irq_mode_json, 0, 0 },
	{ "MASTER", "bus_master", "PCI bus mastering: on or off",
	  ident_master_text, ident_master_json, 0, 0 },
	{ "DMAPOLICY", "dma_policy", "dma_iommu: translated, unsafe, refused...",
	  ident_dma_text, ident_dma_json, 0, 0 },
	{ "IOMMUGROUP", "iommu_group", "IOMMU group", ident_iommu_group_text,
	  ident_iommu_group_json, 0, 0 },
};
const size_t ncolumns = sizeof(columns) / sizeof(columns[0]);

const struct column *column_find(const char *name)
{
	size_t i;

	for (i = 0; i < ncolumns; i++)
		if (!strcasecmp(name, columns[i].name))
			return &columns[i];
	return NULL;
}

const char *column_names(void)
{
	static char buf[256];
	size_t i, len = 0;

	if (!buf[0])
		for (i = 0; i < ncolumns; i++)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len,
						"%s%s", i ? "," : "",
						columns[i].name);
	return buf;
}
