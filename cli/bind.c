// SPDX-License-Identifier: GPL-2.0-only
/*
 * bind.c - iioctl bind ADDR and iioctl unbind ADDR: give a PCI function to
 * an iio stub (driver_override, then the stub's bind file, as driverctl
 * and dpdk-devbind do) and take it back, reporting the iio devices that
 * result
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "device.h"
#include "lookup.h"

#define DEFAULT_STUB "iio_pci_generic"

/* The PCI bus folder: $IIOCTL_PCI (the tests' fixtures) or the system's. */
static const char *pci_root(void)
{
	const char *env = getenv("IIOCTL_PCI");

	return env && *env ? env : "/sys/bus/pci";
}

/* @path = the printf of @fmt, at most PATH_MAX; dies if it is longer */
static void make_path(char path[PATH_MAX], const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void make_path(char path[PATH_MAX], const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(path, PATH_MAX, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= PATH_MAX)
		die(IIOCTL_EUSAGE, "a path of more than %d bytes", PATH_MAX - 1);
}

/* ADDR checked and made canonical; dies (status 2) unless it is one. */
static void pci_function_or_die(const char *arg, char addr[UDRV_PCI_ADDR_LEN],
				char dir[PATH_MAX])
{
	if (udrv_pci_address_parse(arg, addr, NULL))
		die(IIOCTL_EUSAGE, "'%s' is not a PCI address (DOMAIN:BUS:SLOT.FUNCTION, e.g. 0000:00:13.0)",
		    arg);
	make_path(dir, "%s/devices/%s", pci_root(), addr);
	if (access(dir, F_OK))
		die(IIOCTL_EUSAGE, "no PCI function %s (lspci lists them)",
		    addr);
}

/*
 * Writes @text to the sysfs file @path: 0 or -errno.  With --dry-run it
 * only says so (and in a batch's check, nothing); with -v it says it did.
 */
static int write_attr(const char *path, const char *text)
{
	size_t len = strlen(text);
	ssize_t n;
	int fd;

	if (iioctl_dry_run) {
		if (iioctl_dry_run_asked)
			fprintf(stderr, "iioctl: would write '%s' to %s\n",
				*text == '\n' ? "\\n" : text, path);
		return 0;
	}
	if (iioctl_verbose)
		fprintf(stderr, "iioctl: write '%s' to %s\n",
			*text == '\n' ? "\\n" : text, path);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, text, len);
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	return (size_t)n == len ? 0 : -EIO;
}

/*
 * Unbinds the PCI function @addr (its sysfs folder @dir) from @driver
 * through the driver's unbind file; dies (status 1) if the write fails.
 */
static void unbind_or_die(const char *addr, const char *dir,
			  const char *driver)
{
	char path[PATH_MAX];
	int err;

	make_path(path, "%s/driver/unbind", dir);
	err = write_attr(path, addr);
	if (err)
		die(IIOCTL_EDEVICE, "%s: unbinding it from %s failed: %s%s",
		    addr, driver, strerror(-err),
		    err == -EACCES ? " (unbinding needs root)" : "");
}

/* "iio4 iio5": the iio devices whose parent is @addr, fresh; "none" */
static void print_iio_devices(const char *addr)
{
	const struct iio_device_info *devs;
	size_t n = device_list_fresh(&devs), i;
	int any = 0;

	for (i = 0; i < n; i++)
		if (!strcmp(devs[i].parent, addr)) {
			printf("%s%s", any ? " " : "", devs[i].label);
			any = 1;
		}
	printf("%s\n", any ? "" : "no iio device");
}

static int do_bind(int argc, const char **argv)
{
	char addr[UDRV_PCI_ADDR_LEN], dir[PATH_MAX], path[PATH_MAX];
	char driver[256];
	const char *stub = DEFAULT_STUB;
	int force = 0, err;
	poptContext ctx;
	const struct poptOption options[] = {
		{ "driver", 'd', POPT_ARG_STRING, &stub, 0,
		  "the stub to bind (default " DEFAULT_STUB ")", "STUB" },
		{ "force", 0, POPT_ARG_NONE, &force, 0,
		  "unbind it from the driver it has first", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};

	ctx = parse_options(argc, argv, options, "ADDR");
	pci_function_or_die(need_arg(ctx, "ADDR"), addr, dir);
	no_more_args(ctx);
	if (!*stub || strchr(stub, '/'))
		die(IIOCTL_EUSAGE, "invalid driver '%s'", stub);
	make_path(path, "%s/drivers/%s", pci_root(), stub);
	if (access(path, F_OK))
		die(IIOCTL_EDEVICE, "%s is not loaded (modprobe %s, or insmod %s.ko)",
		    stub, stub, stub);
	make_path(path, "%s/driver", dir);
	udrv_link_name(path, driver, sizeof(driver));
	if (!strcmp(driver, stub)) {
		if (iioctl_dry_run)
			return IIOCTL_OK;
		printf("%s: already bound to %s: ", addr, stub);
		print_iio_devices(addr);
		return IIOCTL_OK;
	}
	if (*driver && !force)
		die(IIOCTL_EUSAGE, "%s is bound to %s (--force unbinds it first)",
		    addr, driver);
	if (*driver)
		unbind_or_die(addr, dir, driver);
	make_path(path, "%s/driver_override", dir);
	err = write_attr(path, stub);
	if (err)
		die(IIOCTL_EDEVICE, "%s: writing driver_override failed: %s%s",
		    addr, strerror(-err),
		    err == -EACCES ? " (binding needs root)" : "");
	make_path(path, "%s/drivers/%s/bind", pci_root(), stub);
	err = write_attr(path, addr);
	if (err) {
		char override[PATH_MAX];

		/* leave no override behind a bind that did not happen */
		make_path(override, "%s/driver_override", dir);
		write_attr(override, "\n");
		die(IIOCTL_EDEVICE, "%s: %s refused it: %s (the kernel log says why: dmesg)",
		    addr, stub, strerror(-err));
	}
	if (iioctl_dry_run)
		return IIOCTL_OK;
	printf("%s: bound to %s: ", addr, stub);
	print_iio_devices(addr);
	return IIOCTL_OK;
}

static int do_unbind(int argc, const char **argv)
{
	char addr[UDRV_PCI_ADDR_LEN], dir[PATH_MAX], path[PATH_MAX];
	char driver[256];
	int force = 0, err;
	poptContext ctx;
	const struct poptOption options[] = {
		{ "force", 0, POPT_ARG_NONE, &force, 0,
		  "unbind it from a driver that is not an iio stub too", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};

	ctx = parse_options(argc, argv, options, "ADDR");
	pci_function_or_die(need_arg(ctx, "ADDR"), addr, dir);
	no_more_args(ctx);
	make_path(path, "%s/driver", dir);
	udrv_link_name(path, driver, sizeof(driver));
	if (!*driver) {
		if (!iioctl_dry_run)
			printf("%s: not bound\n", addr);
		return IIOCTL_OK;
	}
	if (strncmp(driver, "iio_", 4) && !force)
		die(IIOCTL_EUSAGE, "%s is bound to %s, not an iio stub (--force unbinds it anyway)",
		    addr, driver);
	unbind_or_die(addr, dir, driver);
	make_path(path, "%s/driver_override", dir);
	err = write_attr(path, "\n");
	if (err)
		die(IIOCTL_EDEVICE, "%s: clearing driver_override failed: %s",
		    addr, strerror(-err));
	if (!iioctl_dry_run)
		printf("%s: unbound from %s\n", addr, driver);
	return IIOCTL_OK;
}

const struct iioctl_cmd iioctl_cmd_bind = {
	.name = "bind",
	.run = do_bind,
	.help = "give a PCI function to an iio stub (-d STUB, default iio_pci_generic)",
};

const struct iioctl_cmd iioctl_cmd_unbind = {
	.name = "unbind",
	.run = do_unbind,
	.help = "take a PCI function from its iio stub",
};
