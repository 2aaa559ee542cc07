/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * udrv.h - libudrv, the library for PCI and industrial-I/O drivers written
 * in user space: one device API on the iio framework (/dev/iioN,
 * /sys/class/iio), on mainline vfio-pci, and on a simulated device for
 * host tests.  See udrv(3).
 *
 * Objects are opaque.  Every function that can fail returns a negative
 * errno (or NULL with errno set) and leaves a one-line message for
 * udrv_strerror(); the library never prints and never exits.  A
 * struct udrv_device and what belongs to it may be used by one thread at
 * a time; different devices in different threads need no locking.
 */
#ifndef UDRV_H
#define UDRV_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct udrv_device;
struct udrv_dma;
struct udrv_sim;

/* the version of this header; udrv_version() is the library's */
#define UDRV_VERSION_MAJOR	1
#define UDRV_VERSION_MINOR	1

/* the version of the library in use ("1.1") */
const char *udrv_version(void);

/* the message of this thread's last failure in the library ("" if none) */
const char *udrv_strerror(void);

/*
 * Devices.  @spec: a PCI address ("0000:00:04.0" or "00:04.0"), an iio
 * device ("iio3", "/dev/iio3", any of its nodes), the exact name of an iio
 * device ("IIO dummy"), or "sim:NAME" (a simulated device made with
 * udrv_sim_new()).  The backend follows from the driver the device is bound
 * to: an iio stub, vfio-pci, or the simulation.
 */
int udrv_device_open(const char *spec, struct udrv_device **devp);
void udrv_device_close(struct udrv_device *dev);

/* "iio", "vfio" or "sim" */
const char *udrv_device_backend(const struct udrv_device *dev);
/* the name: the PCI address for PCI devices, else the iio name */
const char *udrv_device_name(const struct udrv_device *dev);
/* PCI identity; -ENODEV for a device that is not a PCI function */
int udrv_device_pci_id(const struct udrv_device *dev, uint16_t *vendor,
		       uint16_t *device, uint32_t *class_code);
/* "intx", "msi", "msix", "cyclic", "oneshot" or "none" */
const char *udrv_device_irq_mode(const struct udrv_device *dev);
/*
 * What confines the device's DMA: iio(4)'s dma_iommu ("translated",
 * "unsafe-interrupts", "unsafe", "refused"), "iommu" for vfio, "sim",
 * or "none" for a device that does no DMA.
 */
const char *udrv_device_dma_policy(const struct udrv_device *dev);
/* 1 once the device is known to be gone (removed, unbound), else 0 */
int udrv_device_gone(const struct udrv_device *dev);

/* Regions: a PCI BAR (index 0-5), or region 0 of a device without PCI. */
#define UDRV_REGIONS_MAX	6
#define UDRV_REGION_MEM		0x1u	/* memory (else I/O ports) */
#define UDRV_REGION_MAPPABLE	0x2u	/* udrv_region_map() may work */
/* the region's size in bytes and UDRV_REGION_ flags; -ENOENT if absent */
int udrv_region_info(const struct udrv_device *dev, unsigned int region,
		     uint64_t *size, unsigned int *flags);
/*
 * One device access of exactly @width bytes (1, 2, 4 or 8) at @offset,
 * which must be a multiple of @width: -EINVAL otherwise or past the end,
 * -ENODEV once the device is gone.
 */
int udrv_read(struct udrv_device *dev, unsigned int region, uint64_t offset,
	      unsigned int width, uint64_t *value);
int udrv_write(struct udrv_device *dev, unsigned int region, uint64_t offset,
	       unsigned int width, uint64_t value);
/*
 * Map the whole region (shared, read-write, uncached for I/O memory);
 * *@addr and *@len (a multiple of the page size).  One mapping per region,
 * kept until udrv_device_close().  After the device goes away the mapping
 * reads all ones instead of raising SIGBUS (see udrv_region_map(3)).
 */
int udrv_region_map(struct udrv_device *dev, unsigned int region,
		    volatile void **addr, size_t *len);

/* Interrupts and events, one per vector. */
/* how many vectors the device has (0: no event source) */
int udrv_vector_count(const struct udrv_device *dev);
/*
 * A file descriptor for the caller's poll/epoll loop: POLLIN when the
 * vector has events not yet consumed by udrv_event_consume().  It belongs
 * to the device (closed by udrv_device_close()).
 */
int udrv_event_fd(struct udrv_device *dev, unsigned int vector);
/*
 * Consume the vector's new events without waiting: how many arrived since
 * the last consume (0: none).  -ENODEV once the device is gone.
 */
int64_t udrv_event_consume(struct udrv_device *dev, unsigned int vector);
/*
 * Wait up to @timeout_ms (-1: no limit) for the vector's next events and
 * consume them: their number (> 0), 0 on timeout, -EINTR, -ENODEV.
 */
int64_t udrv_event_wait(struct udrv_device *dev, unsigned int vector,
			int timeout_ms);
/*
 * Events the caller missed: beyond the first of each consume, the events
 * that arrived together (merged interrupts), since the device was opened.
 */
uint64_t udrv_event_merged(const struct udrv_device *dev,
			   unsigned int vector);
/* INTx: unmask the line after the device was serviced (vector 0 only) */
int udrv_event_unmask(struct udrv_device *dev, unsigned int vector);

/*
 * Register maps (iio-regmap(5)): the registers of a region by name, their
 * bit fields and the fields' named values.  A map is parsed from text or
 * loaded from a file; what it holds is read-only and lives until
 * udrv_regmap_free().  Names are looked up ignoring case; a lookup that
 * finds nothing returns NULL and is not a failure.  See udrv_regmap_parse(3).
 */
struct udrv_regmap;
struct udrv_reg;
struct udrv_field;
struct udrv_field_value;

/* the longest name of a register, field or value */
#define UDRV_REGMAP_NAME_MAX	63

enum udrv_reg_access {
	UDRV_REG_RO,		/* read-only */
	UDRV_REG_RW,
	UDRV_REG_WO,		/* write-only: never read */
	UDRV_REG_W1C,		/* write 1 to clear */
};

/*
 * What reading a register does besides reading it (read=clear or
 * read=pop in the map): UDRV_READ_PLAIN nothing, UDRV_READ_CLEARS clears
 * bits (read-to-clear status), UDRV_READ_POPS takes the next item of a
 * FIFO.  Tools read such a register only when asked to (since 1.1).
 */
enum udrv_reg_read {
	UDRV_READ_PLAIN,
	UDRV_READ_CLEARS,
	UDRV_READ_POPS,
};

/* -EINVAL with "PATH:LINE: why" for a map that does not parse */
int udrv_regmap_parse(const char *text, size_t len, const char *path,
		      struct udrv_regmap **mapp);
int udrv_regmap_load(const char *path, struct udrv_regmap **mapp);
void udrv_regmap_free(struct udrv_regmap *map);
const char *udrv_regmap_path(const struct udrv_regmap *map);
/* the registers in the file's order; NULL past the last */
size_t udrv_regmap_reg_count(const struct udrv_regmap *map);
const struct udrv_reg *udrv_regmap_reg_at(const struct udrv_regmap *map,
					  size_t index);
const struct udrv_reg *udrv_regmap_find_reg(const struct udrv_regmap *map,
					    const char *name);

const char *udrv_reg_name(const struct udrv_reg *reg);
/* the rest of the register's line ("" if none) */
const char *udrv_reg_desc(const struct udrv_reg *reg);
uint64_t udrv_reg_offset(const struct udrv_reg *reg);
/* bytes: 1, 2, 4 or 8 */
unsigned int udrv_reg_width(const struct udrv_reg *reg);
enum udrv_reg_access udrv_reg_access(const struct udrv_reg *reg);
/* "ro", "rw", "wo" or "w1c"; NULL for another number */
const char *udrv_reg_access_name(enum udrv_reg_access access);
/* what a read of it does besides reading (since 1.1) */
enum udrv_reg_read udrv_reg_read(const struct udrv_reg *reg);
/* "plain", "clear" or "pop" (as read= writes them); NULL for another number */
const char *udrv_reg_read_name(enum udrv_reg_read read);
/* the value after reset: 0, or -ENOENT if the map gives none */
int udrv_reg_reset(const struct udrv_reg *reg, uint64_t *value);
size_t udrv_reg_field_count(const struct udrv_reg *reg);
const struct udrv_field *udrv_reg_field_at(const struct udrv_reg *reg,
					   size_t index);
const struct udrv_field *udrv_reg_find_field(const struct udrv_reg *reg,
					     const char *name);

const char *udrv_field_name(const struct udrv_field *field);
const char *udrv_field_desc(const struct udrv_field *field);
/*
 * UDRV_REG_RW, or UDRV_REG_RO (read-only: not to be written) or
 * UDRV_REG_W1C (write 1 to clear: written 0 when another field is
 * changed) as the map marks it (since 1.1)
 */
enum udrv_reg_access udrv_field_access(const struct udrv_field *field);
/* bits msb down to lsb of the register */
unsigned int udrv_field_msb(const struct udrv_field *field);
unsigned int udrv_field_lsb(const struct udrv_field *field);
/* the field's bits in place: (register value & mask) >> lsb is its value */
uint64_t udrv_field_mask(const struct udrv_field *field);
size_t udrv_field_value_count(const struct udrv_field *field);
const struct udrv_field_value *
udrv_field_value_at(const struct udrv_field *field, size_t index);
const struct udrv_field_value *
udrv_field_find_value(const struct udrv_field *field, const char *name);
/* the value named for @number, or NULL */
const struct udrv_field_value *
udrv_field_value_for(const struct udrv_field *field, uint64_t number);
const char *udrv_field_value_name(const struct udrv_field_value *value);
const char *udrv_field_value_desc(const struct udrv_field_value *value);
/* the field's value, not shifted */
uint64_t udrv_field_value_number(const struct udrv_field_value *value);

/* DMA buffers: memory the device reaches at a bus address. */
int udrv_dma_alloc(struct udrv_device *dev, size_t size,
		   struct udrv_dma **dmap);
void udrv_dma_free(struct udrv_dma *dma);
void *udrv_dma_addr(const struct udrv_dma *dma);
uint64_t udrv_dma_bus_addr(const struct udrv_dma *dma);
size_t udrv_dma_size(const struct udrv_dma *dma);
/* buffers allocated on the device and not yet freed */
unsigned int udrv_dma_outstanding(const struct udrv_device *dev);

/*
 * The simulated backend, for host tests: memory-backed regions and
 * interrupts raised by the test.  udrv_sim_new() makes a device that
 * udrv_device_open("sim:NAME") opens; a write hook models the device's
 * registers (called after each udrv_write() has stored the value).
 */
typedef void (*udrv_sim_write_hook)(struct udrv_sim *sim,
				    unsigned int region, uint64_t offset,
				    unsigned int width, uint64_t value,
				    void *data);
int udrv_sim_new(const char *name, struct udrv_sim **simp);
void udrv_sim_free(struct udrv_sim *sim);
int udrv_sim_set_pci_id(struct udrv_sim *sim, uint16_t vendor,
			uint16_t device, uint32_t class_code);
int udrv_sim_add_region(struct udrv_sim *sim, unsigned int region,
			size_t size);
int udrv_sim_set_vectors(struct udrv_sim *sim, unsigned int vectors,
			 const char *irq_mode);
void udrv_sim_set_write_hook(struct udrv_sim *sim, udrv_sim_write_hook hook,
			     void *data);
/* the region's memory, as the device sees it */
void *udrv_sim_region(struct udrv_sim *sim, unsigned int region);
/* raise @count events on @vector */
int udrv_sim_raise(struct udrv_sim *sim, unsigned int vector,
		   unsigned int count);
/* the memory behind bus address @bus for @len bytes (DMA), or NULL */
void *udrv_sim_dma(struct udrv_sim *sim, uint64_t bus, size_t len);
/* the device goes away: open devices see -ENODEV, mappings all ones */
void udrv_sim_remove(struct udrv_sim *sim);
/* unmask requests seen on vector 0 so far */
unsigned int udrv_sim_unmasks(const struct udrv_sim *sim);

#ifdef __cplusplus
}
#endif

#endif /* UDRV_H */
