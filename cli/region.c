// SPDX-License-Identifier: GPL-2.0-only
/*
 * region.c - one-access-per-value I/O on a region node or a window, by
 * pread/pwrite or by volatile loads and stores through a mapping
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "access.h"
#include "common.h"
#include "sigbus.h"
#include "udrv.h"
#include "region.h"

struct region_options region_opts;

const struct poptOption region_popt_options[] = {
	{ "in", 0, POPT_ARG_NONE, &region_opts.in, 0,
	  "use the in window (/dev/iioN_in)", NULL },
	{ "out", 0, POPT_ARG_NONE, &region_opts.out, 0,
	  "use the out window (/dev/iioN_out)", NULL },
	{ "dma", 0, POPT_ARG_STRING, &region_opts.dma, 0,
	  "use DMA buffer K (/sys/class/iio/iioN/dmaK/buffer)", "K" },
	{ "mmap", 0, POPT_ARG_NONE, &region_opts.mmap, 0,
	  "access through mmap() instead of pread()/pwrite()", NULL },
	POPT_TABLEEND
};

const struct poptOption region_value_popt_options[] = {
	{ "be", 0, POPT_ARG_NONE, &region_opts.be, 0,
	  "big-endian registers: swap the bytes of each value", NULL },
	POPT_TABLEEND
};

static const char *node_word(enum iio_node node)
{
	return node == NODE_IN ? "in window" :
	       node == NODE_OUT ? "out window" : "region";
}

/* A fresh region of @dev: not open, not mapped; path and label to fill. */
static void region_init(struct region *r, const struct iio_device_info *dev,
			enum iio_node node, uint64_t size)
{
	memset(r, 0, sizeof(*r));
	r->dev = dev;
	r->node = node;
	r->size = size;
	r->fd = -1;
	r->use_mmap = region_opts.mmap;
	r->big_endian = region_opts.be;
}

/*
 * The buffers dev has, for a message: "dma0, dma2" (freed buffers leave
 * holes in the numbers), or "none".
 */
static void dma_buffer_names(const struct iio_device_info *dev, char *buf,
			     size_t size)
{
	uint64_t dma_size;
	size_t len = 0;
	unsigned k;

	buf[0] = '\0';
	for (k = 0; k < DEVICE_DMA_MAX; k++)
		if (device_dma_size(dev, k, &dma_size) && len < size)
			len += (size_t)snprintf(buf + len, size - len, "%sdma%u",
						len ? ", " : "", k);
	if (!len)
		copy_string(buf, size, "none");
}

/* --dma K: the DMA buffer K of DEV, through its sysfs file */
static void region_select_dma(struct region *r, const char *dev_arg)
{
	struct iio_target t;
	uint64_t size;
	unsigned k;

	k = (unsigned)parse_u64_or_die(region_opts.dma, "DMA buffer", 0,
				       DEVICE_DMA_MAX - 1);
	if (region_opts.in || region_opts.out)
		die(IIOCTL_EUSAGE, "--dma conflicts with --%s",
		    region_opts.in ? "in" : "out");
	device_resolve(dev_arg, &t);
	if (t.node != NODE_NONE && t.node != NODE_REGION)
		die(IIOCTL_EUSAGE, "%s is a node of its own; --dma takes a device",
		    t.path);
	/* the size alone: bus_addr is root's, the buffer the group's too */
	if (!device_dma_size(t.dev, k, &size)) {
		char names[DEVICE_DMA_MAX * 8];

		dma_buffer_names(t.dev, names, sizeof(names));
		die(IIOCTL_EUSAGE, "%s has no DMA buffer %u (it has %s)",
		    t.dev->label, k, names);
	}
	region_init(r, t.dev, NODE_DMA, size);
	dma_path(t.dev, k, "buffer", r->path, sizeof(r->path));
	snprintf(r->label, sizeof(r->label), "%s_dma%u", t.dev->label, k);
}

void region_select(struct region *r, const char *dev_arg)
{
	enum iio_node node = NODE_REGION;
	struct iio_target t;
	struct iio_window w;

	if (region_opts.dma && dev_arg[0] == '@')
		die(IIOCTL_EUSAGE, "--dma and %s conflict: a DMA buffer has no physical address (give DEV OFFSET)",
		    msg_word(dev_arg));
	if (region_opts.dma) {
		region_select_dma(r, dev_arg);
		return;
	}

	if (region_opts.in && region_opts.out)
		die(IIOCTL_EUSAGE, "--in and --out conflict");
	if (region_opts.in)
		node = NODE_IN;
	else if (region_opts.out)
		node = NODE_OUT;
	if (dev_arg[0] == '@') {
		uint64_t offset;

		if (region_opts.in || region_opts.out)
			die(IIOCTL_EUSAGE, "--%s and %s conflict: a physical address is in the region (give DEV OFFSET for a window)",
			    region_opts.in ? "in" : "out", msg_word(dev_arg));
		device_resolve_address(dev_arg, &t, &offset);
		t.node = NODE_NONE;	/* the region, at the usual path */
	} else {
		device_resolve(dev_arg, &t);
	}
	if (t.node == NODE_EVENT)
		die(IIOCTL_EUSAGE, "%s is an event node, not a region", t.path);
	if (t.node != NODE_NONE) {
		if ((region_opts.in || region_opts.out) && t.node != node)
			die(IIOCTL_EUSAGE, "%s is the %s; it conflicts with --%s",
			    t.path, node_word(t.node),
			    region_opts.in ? "in" : "out");
		node = t.node;
	}
	w = device_window(t.dev, node);
	if (!w.present)
		die(IIOCTL_EUSAGE, "%s has no %s", t.dev->label,
		    node_word(node));
	if (region_opts.mmap && !strcmp(t.dev->type, "port"))
		die(IIOCTL_EUSAGE, "%s: --mmap: a port region cannot be mapped",
		    t.dev->label);
	region_init(r, t.dev, node, w.len);
	r->window_offset = w.offset;
	if (t.path[0])
		copy_string(r->path, sizeof(r->path), t.path);
	else
		node_path(t.dev, node, r->path, sizeof(r->path));
	snprintf(r->label, sizeof(r->label), "%s%s", t.dev->label,
		 node_suffix(node));
}

bool region_range(const struct region *r, uint64_t offset, uint64_t len,
		  unsigned width, char *why)
{
	if (offset > r->size || (offset == r->size && len))
		snprintf(why, WHY_MAX, "offset 0x%llx is past the end of %s (size 0x%llx)",
			 (unsigned long long)offset, r->label,
			 (unsigned long long)r->size);
	else if (width && offset % width)
		snprintf(why, WHY_MAX, "offset 0x%llx is not aligned to width %u",
			 (unsigned long long)offset, width);
	else if (width && len % width)
		snprintf(why, WHY_MAX, "length 0x%llx is not a multiple of width %u",
			 (unsigned long long)len, width);
	else if (len > r->size - offset)
		snprintf(why, WHY_MAX, "0x%llx bytes at 0x%llx run past the end of %s (size 0x%llx)",
			 (unsigned long long)len, (unsigned long long)offset,
			 r->label, (unsigned long long)r->size);
	else
		return true;
	return false;
}

void region_check_range(const struct region *r, uint64_t offset,
			uint64_t len, unsigned width)
{
	char why[WHY_MAX];

	if (!region_range(r, offset, len, width, why))
		die(IIOCTL_EUSAGE, "%s", why);
}

void region_check_writable(const struct region *r)
{
	if (r->node == NODE_IN)
		die(IIOCTL_EUSAGE, "%s is read-only (the in window); write through the region or the out window",
		    r->label);
}

void region_open(struct region *r, bool write, uint64_t offset,
		 uint64_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	void *map;

	r->fd = node_open(r->path, write ? O_RDWR : O_RDONLY);
	if (r->fd < 0)
		die_open(r->path, write ? " for writing" : "");
	if (!r->use_mmap || !len)
		return;
	r->map_start = offset - offset % (uint64_t)page;
	r->map_len = offset + len - r->map_start;
	map = mmap(NULL, r->map_len, PROT_READ | (write ? PROT_WRITE : 0),
		   MAP_SHARED, r->fd, (off_t)r->map_start);
	if (map == MAP_FAILED)
		die_perror(errno_status(errno),
			   "%s: cannot map 0x%llx bytes at 0x%llx", r->label,
			   (unsigned long long)r->map_len,
			   (unsigned long long)r->map_start);
	r->map = map;
	r->lost = false;
	if (udrv_sigbus_watch(map, r->map_len, r->fd, NULL, &r->lost))
		die(IIOCTL_EDEVICE, "%s: %s", r->label, udrv_strerror());
}

void region_close(struct region *r)
{
	if (r->map) {
		udrv_sigbus_unwatch(r->map);
		munmap(r->map, r->map_len);
	}
	r->map = NULL;
}

/* " (phys 0x...)" for the node's offset, "" for a DMA buffer */
static void phys_text(const struct region *r, uint64_t offset, char *buf,
		      size_t size)
{
	uint64_t phys = r->dev->physaddr + r->window_offset + offset;

	if (r->node == NODE_DMA || !r->dev->physaddr)
		buf[0] = '\0';
	else
		snprintf(buf, size, " (phys 0x%llx)",
			 (unsigned long long)phys);
}

/* -v: one line on stderr per device access, as it happens */
static void log_access(const struct region *r, bool write, uint64_t offset,
		       unsigned width, uint64_t value)
{
	char phys[48];

	if (!iioctl_verbose)
		return;
	phys_text(r, offset, phys, sizeof(phys));
	fprintf(stderr, "iioctl: %s: %s %u at 0x%llx%s: 0x%0*llx\n",
		r->label, write ? "write" : "read ", width,
		(unsigned long long)offset, phys, (int)(2 * width),
		(unsigned long long)value);
}

/* A value of width bytes as the device holds it (--be), or as it is. */
static uint64_t device_order(const struct region *r, uint64_t v,
			     unsigned width)
{
	if (!r->big_endian)
		return v;
	switch (width) {
	case 2: return __builtin_bswap16((uint16_t)v);
	case 4: return __builtin_bswap32((uint32_t)v);
	case 8: return __builtin_bswap64(v);
	}
	return v;
}

bool region_planning(void)
{
	return iioctl_dry_run && iioctl_dry_run_asked;
}

void region_plan_read(const struct region *r, uint64_t offset, uint64_t len,
		      unsigned width)
{
	char phys[48];

	if (!region_planning() || !len)
		return;
	phys_text(r, offset, phys, sizeof(phys));
	if (width && len == width)
		fprintf(stderr, "iioctl: %s: would read %u at 0x%llx%s\n",
			r->label, width, (unsigned long long)offset, phys);
	else
		fprintf(stderr, "iioctl: %s: would read 0x%llx bytes at 0x%llx%s%s%.0u%s\n",
			r->label, (unsigned long long)len,
			(unsigned long long)offset, phys,
			width ? ", one access of " : "", width,
			width ? " bytes a value" : "");
}

void region_plan_poke(const struct region *r, uint64_t offset,
		      unsigned width, uint64_t value, uint64_t mask,
		      uint64_t zero, uint64_t count)
{
	int digits = (int)(2 * width);
	char phys[48];
	uint64_t i;

	if (!region_planning())
		return;
	for (i = 0; i < count; i++) {
		uint64_t at = offset + i * width;
		uint64_t keep = device_order(r, ~mask & ~zero &
					     width_bits(width), width);
		uint64_t v = device_order(r, value, width);

		phys_text(r, at, phys, sizeof(phys));
		if (mask == width_bits(width))
			fprintf(stderr, "iioctl: %s: would write %u at 0x%llx%s: 0x%0*llx\n",
				r->label, width, (unsigned long long)at,
				phys, digits, (unsigned long long)v);
		else
			fprintf(stderr, "iioctl: %s: would read %u at 0x%llx%s and write (old & 0x%0*llx) | 0x%0*llx\n",
				r->label, width, (unsigned long long)at,
				phys, digits, (unsigned long long)keep,
				digits, (unsigned long long)v);
	}
}

static volatile void *map_at(struct region *r, uint64_t offset)
{
	return r->map + (offset - r->map_start);
}

/*
 * Whether [offset, offset+len) of the window is on a page that holds a
 * part of the region the kernel keeps: the kernel never maps those pages
 * (iio(4): touching them raises SIGBUS), so such an access goes by
 * pread/pwrite, whose read shows the part and whose write fails with
 * EPERM, exactly as without --mmap.
 */
static bool kernel_page(const struct region *r, uint64_t offset, size_t len)
{
	uint64_t page, start, end;
	unsigned i;

	if (r->node == NODE_DMA || !r->dev->nreserved)
		return false;
	page = (uint64_t)sysconf(_SC_PAGESIZE);
	start = (r->window_offset + offset) / page * page;
	end = r->window_offset + offset + len;
	for (i = 0; i < r->dev->nreserved; i++) {
		const struct iio_reserved *k = &r->dev->reserved[i];

		if (k->offset < end && start < k->offset + k->len)
			return true;
	}
	return false;
}

/* After accesses through the mapping: the device is still there. */
static void check_mapping(const struct region *r)
{
	if (r->lost)
		die(IIOCTL_EGONE, "%s: the device went away", r->label);
}

bool region_is_io_memory(const struct region *r)
{
	return r->node != NODE_DMA && !strcmp(r->dev->type, "mem") &&
	       !strcmp(r->dev->subsystem, "pci");
}

/*
 * The width of the widest aligned access at offset for len bytes, at
 * most max (8 when max is 0).
 */
static unsigned widest(uint64_t offset, size_t len, unsigned max)
{
	unsigned w;

	for (w = max ? max : 8; w > 1; w /= 2)
		if (len >= w && !(offset % w))
			break;
	return w;
}

/* A pread/pwrite of len bytes at offset that returned n (not len): die. */
static noreturn void transfer_failed(const struct region *r, bool write,
				     uint64_t offset, size_t len, ssize_t n)
{
	if (n < 0 && errno == EIO)	/* every node's, once it is gone */
		die(IIOCTL_EGONE, "%s: the device went away (%s of %zu bytes at 0x%llx: %s)",
		    r->label, write ? "write" : "read", len,
		    (unsigned long long)offset, strerror(EIO));
	if (n < 0)
		die_perror(errno_status(errno), "%s: %s of %zu bytes at 0x%llx",
			   r->label, write ? "write" : "read", len,
			   (unsigned long long)offset);
	die(IIOCTL_EDEVICE, "%s: unexpected end at 0x%llx", r->label,
	    (unsigned long long)offset + (unsigned long long)(n > 0 ? n : 0));
}

static void transfer(struct region *r, bool write, uint64_t offset,
		     void *buf, size_t len)
{
	unsigned char *p = buf;
	ssize_t n;

	while (len) {
		if (r->map && !kernel_page(r, offset,
					   widest(offset, len, r->max_access))) {
			unsigned w = widest(offset, len, r->max_access);
			uint64_t v;

			v = 0;
			if (write) {
				memcpy(&v, p, w);
				udrv_store(map_at(r, offset), w, v);
			} else {
				v = udrv_load(map_at(r, offset), w);
				memcpy(p, &v, w);
			}
			check_mapping(r);
			log_access(r, write, offset, w, v);
			n = (ssize_t)w;
		} else {
			/* one pread/pwrite per access with max_access or on a
			 * page the kernel keeps */
			size_t chunk = r->max_access || r->map ||
				       iioctl_verbose ?
				widest(offset, len, r->max_access) : len;

			n = write ? pwrite(r->fd, p, chunk, (off_t)offset) :
				    pread(r->fd, p, chunk, (off_t)offset);
			if (iioctl_verbose && n == (ssize_t)chunk) {
				uint64_t v = 0;

				memcpy(&v, p, chunk);	/* little-endian */
				log_access(r, write, offset, (unsigned)chunk,
					   v);
			}
		}
		if (n <= 0)
			transfer_failed(r, write, offset, len, n);
		p += n;
		offset += (uint64_t)n;
		len -= (size_t)n;
	}
}

/* A native-endian value of width bytes: exactly one device access. */
uint64_t region_read_value(struct region *r, uint64_t offset, unsigned width)
{
	uint64_t v;
	ssize_t n;

	if (r->map && !kernel_page(r, offset, width)) {
		v = udrv_load(map_at(r, offset), width);
		check_mapping(r);
		log_access(r, false, offset, width, v);
		return device_order(r, v, width);
	}
	n = udrv_pread_value(r->fd, offset, width, &v);
	if (n != (ssize_t)width)
		transfer_failed(r, false, offset, width, n);
	log_access(r, false, offset, width, v);
	return device_order(r, v, width);
}

void region_write_value(struct region *r, uint64_t offset, unsigned width,
			uint64_t value)
{
	ssize_t n;

	value = device_order(r, value, width);
	if (r->map && !kernel_page(r, offset, width)) {
		udrv_store(map_at(r, offset), width, value);
		check_mapping(r);
		log_access(r, true, offset, width, value);
		return;
	}
	n = udrv_pwrite_value(r->fd, offset, width, value);
	if (n != (ssize_t)width)
		transfer_failed(r, true, offset, width, n);
	log_access(r, true, offset, width, value);
}

void region_read_values(struct region *r, uint64_t offset, void *buf,
			size_t len, unsigned width)
{
	unsigned char *p = buf;
	uint64_t v;
	size_t i;

	if (!width) {
		transfer(r, false, offset, buf, len);
		return;
	}
	for (i = 0; i < len; i += width) {
		v = region_read_value(r, offset + i, width);
		memcpy(p + i, &v, width);	/* little-endian: low bytes */
	}
}

void region_write_values(struct region *r, uint64_t offset, const void *buf,
			 size_t len, unsigned width)
{
	const unsigned char *p = buf;
	uint64_t v;
	size_t i;

	if (!width) {
		transfer(r, true, offset, (void *)buf, len);
		return;
	}
	for (i = 0; i < len; i += width) {
		v = 0;
		memcpy(&v, p + i, width);	/* little-endian: low bytes */
		region_write_value(r, offset + i, width, v);
	}
}

void region_poke(struct region *r, uint64_t offset, unsigned width,
		 uint64_t value, uint64_t mask, uint64_t zero, bool verify)
{
	uint64_t all = width_bits(width);
	uint64_t back;

	if (mask != all)
		value |= region_read_value(r, offset, width) & ~mask & ~zero;
	region_write_value(r, offset, width, value);
	if (!verify)
		return;
	back = region_read_value(r, offset, width);
	if ((back & ~zero) != (value & ~zero))
		die(IIOCTL_EDEVICE, "%s: verify failed: read back 0x%0*llx at 0x%llx after writing 0x%0*llx",
		    r->label, (int)(2 * width), (unsigned long long)back,
		    (unsigned long long)offset, (int)(2 * width),
		    (unsigned long long)value);
}

void print_value(uint64_t v, unsigned width, bool decimal)
{
	if (decimal)
		printf("%llu\n", (unsigned long long)v);
	else
		printf("0x%0*llx\n", (int)(2 * width), (unsigned long long)v);
}
