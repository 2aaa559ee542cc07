// SPDX-License-Identifier: GPL-2.0-only
/*
 * dma.c - iioctl dma DEV: a device's DMA buffers (sysfs dmaK/), --free K
 * to free one user space added (dma_free) and --request SIZE to add one
 * where the stub allows it (dma_request)
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "device.h"
#include "lookup.h"

/*
 * Why the device has no DMA buffers when its DMA policy refuses them
 * (dma_iommu "refused", iio(4)), or NULL: what allows them.
 */
static const char *dma_refused_why(const struct iio_device_info *dev)
{
	char path[PATH_MAX], policy[32];

	device_attr_path(dev, "dma_iommu", path, sizeof(path));
	if (udrv_read_line(path, policy, sizeof(policy)) ||
	    strcmp(policy, "refused"))
		return NULL;
	return "dma_iommu is refused: no IOMMU confines the device's DMA (the kernel log says why); iio.enable_unsafe_noiommu_mode=1 allows it, unsafe (see iio(4), IOMMU)";
}

/*
 * Writes @text to @dev's sysfs attribute @attr: 0, or the kernel's errno
 * (errno set too); dies with @absent if the device has no such attribute.
 */
static int dma_attr_write(const struct iio_device_info *dev,
			  const char *attr, const char *text,
			  const char *absent)
{
	char path[PATH_MAX];
	int fd, err = 0;

	device_attr_path(dev, attr, path, sizeof(path));
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		die(IIOCTL_EUSAGE, "%s %s", dev->label, absent);
	if (fd < 0)
		die_open(path, " for writing");
	if (write(fd, text, strlen(text)) < 0)
		err = errno;
	close(fd);
	errno = err;
	return err;
}

/* ENODEV from dma_request or dma_free: the device is going away */
static noreturn void dma_gone(const struct iio_device_info *dev)
{
	die(IIOCTL_EGONE, "%s: the device went away (its buffers with it)",
	    dev->label);
}

/* Writes SIZE to dma_request; the kernel's errno explained. */
static void dma_request(const struct iio_device_info *dev, uint64_t size)
{
	char text[32];
	int err;

	snprintf(text, sizeof(text), "%llu", (unsigned long long)size);
	err = dma_attr_write(dev, "dma_request", text,
			     "does not take DMA buffer requests");
	if (!err)
		return;
	if (err == E2BIG)
		die(IIOCTL_EUSAGE, "%s: 0x%llx more bytes of DMA buffers are over the stub's limit",
		    dev->label, (unsigned long long)size);
	if (err == ENOSPC)
		die(IIOCTL_EUSAGE, "%s has all its DMA buffers already",
		    dev->label);
	if (err == EPERM && dma_refused_why(dev))
		die(IIOCTL_EDEVICE, "%s: DMA buffer refused: %s",
		    dev->label, dma_refused_why(dev));
	if (err == ENODEV)
		dma_gone(dev);
	errno = err;
	die_perror(errno_status(err), "%s: cannot add a DMA buffer of 0x%llx bytes",
		   dev->label, (unsigned long long)size);
}

/* Writes K to dma_free; the kernel's errno explained. */
static void dma_free(const struct iio_device_info *dev, unsigned k)
{
	char text[16];
	int err;

	snprintf(text, sizeof(text), "%u", k);
	err = dma_attr_write(dev, "dma_free", text,
			     "has no DMA buffers to free (it does no DMA)");
	if (!err)
		return;
	if (err == ENOENT)
		die(IIOCTL_EUSAGE, "%s has no DMA buffer %u ('iioctl dma %s' lists them)",
		    dev->label, k, dev->label);
	if (err == EPERM)
		die(IIOCTL_EUSAGE, "%s: dma%u is the stub's own buffer: it goes only with the device (unbind it)",
		    dev->label, k);
	if (err == ENODEV)
		dma_gone(dev);
	errno = err;
	die_perror(errno_status(err), "%s: cannot free DMA buffer %u",
		   dev->label, k);
}

static int do_dma(int argc, const char **argv)
{
	const struct iio_device_info *devs;
	const char *request_arg = NULL, *free_arg = NULL, *why;
	uint64_t request = 0, size, bus;
	unsigned free_k = 0, listed = 0;
	bool bus_known;
	char path[PATH_MAX];
	struct iio_target t;
	int json = 0;
	unsigned k;
	poptContext ctx;
	const struct poptOption options[] = {
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "print JSON", NULL },
		{ "free", 'f', POPT_ARG_STRING, &free_arg, 0,
		  "first free buffer K, one dma_request added (0 to 3)", "K" },
		{ "request", 'r', POPT_ARG_STRING, &request_arg, 0,
		  "first add a buffer of SIZE bytes (up to 4M; K, M suffixes)",
		  "SIZE" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};

	ctx = parse_options(argc, argv, options, "DEV");
	device_list_fresh(&devs);
	device_resolve(need_arg(ctx, "DEV"), &t);
	no_more_args(ctx);
	if (free_arg)
		free_k = (unsigned)parse_u64_or_die(free_arg, "DMA buffer", 0,
						    DEVICE_DMA_MAX - 1);
	if (request_arg) {
		request = parse_u64_or_die(request_arg, "size", NUM_SUFFIX,
					   4 << 20);
		if (!request)
			die(IIOCTL_EUSAGE, "invalid size '%s': must not be 0",
			    request_arg);
	}
	if (iioctl_dry_run)
		return IIOCTL_OK;
	if (free_arg)
		dma_free(t.dev, free_k);
	if (request_arg)
		dma_request(t.dev, request);

	if (json)
		putchar('[');
	else
		printf("%-6s %10s %18s  %s\n", "BUFFER", "SIZE", "BUS_ADDR",
		       "PATH");
	/* a freed buffer leaves its number free: dma0 may be gone, dma1 not */
	for (k = 0; k < DEVICE_DMA_MAX; k++) {
		if (!device_dma_size(t.dev, k, &size))
			continue;
		/* unreadable but by root (mode 0400): shown as unknown */
		bus_known = device_dma_bus_addr(t.dev, k, &bus);
		dma_path(t.dev, k, "buffer", path, sizeof(path));
		if (json) {
			printf("%s{\"buffer\": %u, \"size\": ",
			       listed ? ", " : "", k);
			json_hex(stdout, size);
			fputs(", \"bus_addr\": ", stdout);
			if (bus_known)
				json_hex(stdout, bus);
			else
				fputs("null", stdout);
			fputs(", \"path\": ", stdout);
			json_string(stdout, path);
			putchar('}');
		} else {
			char size_text[24], bus_text[24], name[8];

			snprintf(name, sizeof(name), "dma%u", k);
			snprintf(size_text, sizeof(size_text), "0x%llx",
				 (unsigned long long)size);
			if (bus_known)
				snprintf(bus_text, sizeof(bus_text), "0x%llx",
					 (unsigned long long)bus);
			else
				copy_string(bus_text, sizeof(bus_text), "-");
			printf("%-6s %10s %18s  ", name, size_text, bus_text);
			text_escape_print(stdout, path);
			putchar('\n');
		}
		listed++;
	}
	if (!listed && (why = dma_refused_why(t.dev))) {
		flush_stdout();
		fprintf(stderr, "iioctl: %s has no DMA buffers: %s\n",
			t.dev->label, why);
	}
	if (json)
		fputs("]\n", stdout);
	return IIOCTL_OK;
}

const struct iioctl_cmd iioctl_cmd_dma = {
	.name = "dma",
	.run = do_dma,
	.help = "a device's DMA buffers (-j JSON, -f K frees one, -r SIZE adds one)",
};
