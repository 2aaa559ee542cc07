/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * region.h - access to a region node (the whole region or a window) by
 * pread/pwrite or through a mapping, one access per value
 */
#ifndef IIOCTL_REGION_H
#define IIOCTL_REGION_H

#include <stdbool.h>
#include <stddef.h>
#include <popt.h>
#include <stdint.h>

#include "device.h"

struct region {
	const struct iio_device_info *dev;
	enum iio_node node;		/* NODE_REGION, _IN, _OUT or _DMA */
	uint64_t size;			/* of the window */
	uint64_t window_offset;		/* its start in the region */
	char path[PATH_MAX];
	char label[32];			/* "iio0", "iio0_in", ... */
	int fd;
	bool use_mmap;
	/*
	 * --be: the registers are big-endian; a value is byte-swapped (its
	 * width's bytes) as it is read and before it is written
	 */
	bool big_endian;
	/*
	 * Transfers without a width (width 0) in accesses of at most this
	 * many bytes (each a pread/pwrite or a load/store of its own); 0:
	 * pread/pwrite in chunks, the kernel picks the accesses.
	 */
	unsigned max_access;
	/*
	 * maps [map_start, map_start+map_len); an access to a page that holds
	 * a part the kernel keeps (dev->reserved) is a pread/pwrite instead
	 */
	unsigned char *map;
	uint64_t map_start, map_len;
	/*
	 * The device went away under the mapping: libudrv's SIGBUS handler
	 * (lib/sigbus.h) put ones in its place and set this.
	 */
	volatile bool lost;
};

/* The common options of the region commands (dump, peek, poke). */
struct region_options {
	int in, out, mmap;
	int be;				/* --be (region_value_popt_options) */
	const char *dma;		/* --dma K, or NULL */
};
/*
 * popt entries for --in, --out, --dma and --mmap; include with
 * POPT_ARG_INCLUDE_TABLE.
 */
extern struct region_options region_opts;
extern const struct poptOption region_popt_options[];
/* --be, for the commands that read and write values (not dump's bytes) */
extern const struct poptOption region_value_popt_options[];

/*
 * Resolve DEV and pick the node (its path's suffix, --in, --out or --dma
 * K: the DMA buffer's sysfs file); dies with status 2 if the window or
 * buffer does not exist or the choices conflict.  DEV may be @ADDR (a
 * physical address, in place of DEV OFFSET): the region of the device
 * that holds it (device_resolve_address()); location_parse() takes the
 * same word for the offset.
 */
void region_select(struct region *r, const char *dev_arg);
/*
 * Whether [offset, offset+len) fits the window and, for width w (0: any),
 * offset and len are aligned: true, or false with why (WHY_MAX bytes,
 * common.h) set; the check_ twin dies with status 2 instead.
 */
bool region_range(const struct region *r, uint64_t offset, uint64_t len,
		  unsigned width, char *why);
void region_check_range(const struct region *r, uint64_t offset,
			uint64_t len, unsigned width);
/*
 * Whether the region is I/O memory: a mem region (or window) of a PCI
 * device, whose registers may answer only 4-byte accesses.
 */
bool region_is_io_memory(const struct region *r);
/* Refuse writes to the read-only in window (status 2). */
void region_check_writable(const struct region *r);
/*
 * Open the node (and map [offset, offset+len) with --mmap: an access to
 * the mapping after the device went away dies with status 4, as a
 * pread/pwrite's EIO does, not of SIGBUS).
 */
void region_open(struct region *r, bool write, uint64_t offset,
		 uint64_t len);
/* Unmap (the node stays open in the node cache). */
void region_close(struct region *r);

/*
 * One access of width bytes: a pread/pwrite or a volatile load/store; the
 * value is the CPU's (byte-swapped from and to the device's with --be;
 * -v shows the device's).
 */
uint64_t region_read_value(struct region *r, uint64_t offset, unsigned width);
void region_write_value(struct region *r, uint64_t offset, unsigned width,
			uint64_t value);
/*
 * len bytes at offset: with width 0 in the widest aligned accesses, else
 * one access of width bytes per value (len a multiple of width).
 */
void region_read_values(struct region *r, uint64_t offset, void *buf,
			size_t len, unsigned width);
void region_write_values(struct region *r, uint64_t offset, const void *buf,
			 size_t len, unsigned width);

/*
 * poke: value at offset, under mask (read-modify-write when the mask is
 * not all of the width: the bits of zero, a register's w1c fields, are
 * written 0, not as read), read back with verify (dies with status 1 if
 * it differs).  With -v every access is printed on stderr as it happens.
 */
void region_poke(struct region *r, uint64_t offset, unsigned width,
		 uint64_t value, uint64_t mask, uint64_t zero, bool verify);
/*
 * --dry-run (the global one, iioctl_dry_run_asked): whether the commands
 * print what they would do; the region_plan_ lines on stderr, "iioctl:
 * LABEL: would read ..." and "would write ...", nothing touched.
 */
bool region_planning(void);
void region_plan_read(const struct region *r, uint64_t offset, uint64_t len,
		      unsigned width);
void region_plan_poke(const struct region *r, uint64_t offset,
		      unsigned width, uint64_t value, uint64_t mask,
		      uint64_t zero, uint64_t count);
/* peek's output: "0x" and 2*width hex digits, or decimal; a newline. */
void print_value(uint64_t v, unsigned width, bool decimal);

#endif
