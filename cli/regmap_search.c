// SPDX-License-Identifier: GPL-2.0-only
/*
 * regmap_search.c - which register map describes a device: --map FILE,
 * or the first of the device's candidate file names found in the map
 * folders (iio-regmap(5), FILES); each file loaded once
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "device.h"
#include "regmap_search.h"

static const char *map_file;		/* --map FILE */
static const char *map_dirs;		/* --maps DIRS or $IIOCTL_MAPS */

void regmap_set_file(const char *path)
{
	map_file = path;
}

void regmap_set_dirs(const char *dirs)
{
	map_dirs = dirs;
}

/* The loaded maps, by path: two devices of a kind share one. */
#define MAX_MAPS 16
static struct udrv_regmap *maps[MAX_MAPS];
static size_t nmaps;

/*
 * The file is read here, not by udrv_regmap_load(): load_input() takes "-"
 * (standard input) and says "cannot open FILE: why" as iioctl's other
 * inputs do.
 */
const struct udrv_regmap *regmap_load_or_die(const char *path)
{
	unsigned char *text;
	size_t len, i;

	for (i = 0; i < nmaps; i++)
		if (!strcmp(udrv_regmap_path(maps[i]), path))
			return maps[i];
	if (nmaps == MAX_MAPS)
		die(IIOCTL_EUSAGE, "more than %d register maps", MAX_MAPS);
	text = load_input(path, 1 << 20, &len);
	if (len > 1 << 20)
		die(IIOCTL_EUSAGE, "%s: larger than 1 MiB: not a register map",
		    path);
	if (udrv_regmap_parse((const char *)text, len, path, &maps[nmaps]) < 0)
		die(IIOCTL_EUSAGE, "%s", udrv_strerror());
	free(text);
	return maps[nmaps++];
}

/* Appends "DIR/iioctl/maps" for each DIR of the colon list (empty: none). */
static size_t add_data_dirs(char dirs[][PATH_MAX], size_t n, size_t max,
			    const char *list, const char *sub)
{
	const char *p = list, *colon;
	size_t len;

	while (p && *p && n < max) {
		colon = strchr(p, ':');
		len = colon ? (size_t)(colon - p) : strlen(p);
		if (len && len < PATH_MAX - 20)
			snprintf(dirs[n++], PATH_MAX, "%.*s%s", (int)len, p,
				 sub);
		p = colon ? colon + 1 : NULL;
	}
	return n;
}

size_t regmap_dirs(char dirs[][PATH_MAX], size_t max)
{
	const char *env = getenv("IIOCTL_MAPS"), *home = getenv("HOME");
	const char *data_home = getenv("XDG_DATA_HOME");
	const char *data_dirs = getenv("XDG_DATA_DIRS");
	char exe[PATH_MAX - 64], *slash;
	ssize_t len;
	size_t n = 0;

	n = add_data_dirs(dirs, n, max, map_dirs ? map_dirs : env, "");
	if (data_home && *data_home)
		n = add_data_dirs(dirs, n, max, data_home, "/iioctl/maps");
	else if (home && *home && n < max && strlen(home) < PATH_MAX - 40)
		snprintf(dirs[n++], PATH_MAX, "%s/.local/share/iioctl/maps",
			 home);
	/* beside the program: PREFIX/bin/iioctl, PREFIX/share/iioctl/maps */
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0 && n < max) {
		exe[len] = '\0';
		slash = strrchr(exe, '/');		/* PREFIX/bin */
		if (slash)
			*slash = '\0';
		slash = strrchr(exe, '/');		/* PREFIX */
		if (slash) {
			*slash = '\0';
			snprintf(dirs[n++], PATH_MAX, "%s/share/iioctl/maps",
				 exe);
		}
	}
	n = add_data_dirs(dirs, n, max,
			  data_dirs && *data_dirs ? data_dirs :
			  "/usr/local/share:/usr/share", "/iioctl/maps");
	return n;
}

size_t regmap_candidates(const struct iio_device_info *dev,
			 char names[][REGMAP_FILE_NAME_MAX], size_t max)
{
	struct iio_pci_id id;
	size_t n = 0;
	int bar;

	if (n < max && dev->name[0] && dev->name[0] != '.' &&
	    !strchr(dev->name, '/') && strlen(dev->name) < REGMAP_FILE_NAME_MAX - 4)
		snprintf(names[n++], REGMAP_FILE_NAME_MAX, "%s.map", dev->name);
	if (!device_pci_id(dev, &id))
		return n;
	bar = device_pci_bar(dev);
	if (bar >= 0 && n < max)
		snprintf(names[n++], REGMAP_FILE_NAME_MAX,
			 "pci-%04x-%04x-bar%d.map", id.vendor, id.device,
			 bar);
	if (n < max)
		snprintf(names[n++], REGMAP_FILE_NAME_MAX, "pci-%04x-%04x.map",
			 id.vendor, id.device);
	if (bar >= 0 && n < max)
		snprintf(names[n++], REGMAP_FILE_NAME_MAX,
			 "pci-class-%06x-bar%d.map", id.class, bar);
	if (n < max)
		snprintf(names[n++], REGMAP_FILE_NAME_MAX, "pci-class-%06x.map",
			 id.class);
	return n;
}

/* The map found for each device number (NULL: none), once per process */
#define MAX_SEARCHED 64
static struct {
	unsigned nr;
	const struct udrv_regmap *map;
} searched[MAX_SEARCHED];
static size_t nsearched;

static const struct udrv_regmap *search_map(const struct iio_device_info *dev)
{
	char dirs[16][PATH_MAX], names[8][REGMAP_FILE_NAME_MAX];
	char path[PATH_MAX + REGMAP_FILE_NAME_MAX];
	size_t ndirs, nnames, i, j;

	ndirs = regmap_dirs(dirs, 16);
	nnames = regmap_candidates(dev, names, 8);
	for (i = 0; i < nnames; i++) {
		for (j = 0; j < ndirs; j++) {
			snprintf(path, sizeof(path), "%s/%s", dirs[j],
				 names[i]);
			if (!access(path, F_OK))
				return regmap_load_or_die(path);
		}
	}
	return NULL;
}

void regmap_searched(const struct iio_device_info *dev, char *buf,
		     size_t size)
{
	char dirs[16][PATH_MAX], names[8][REGMAP_FILE_NAME_MAX];
	size_t ndirs, nnames, i, len;

	ndirs = regmap_dirs(dirs, 16);
	nnames = regmap_candidates(dev, names, 8);
	len = (size_t)snprintf(buf, size, "looked for");
	for (i = 0; i < nnames && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s %s",
					i ? "," : "", msg_word(names[i]));
	for (i = 0; i < ndirs && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s %s",
					i ? "," : " in", msg_word(dirs[i]));
}

const struct udrv_regmap *device_regmap(const struct iio_device_info *dev)
{
	const struct udrv_regmap *map;
	size_t i;

	if (map_file)
		return regmap_load_or_die(map_file);
	for (i = 0; i < nsearched; i++)
		if (searched[i].nr == dev->nr)
			return searched[i].map;
	map = search_map(dev);
	if (nsearched < MAX_SEARCHED)
		searched[nsearched++] = (typeof(searched[0])){ dev->nr, map };
	return map;
}
