/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * regmap_search.h - the register map of a device: --map FILE, or found by
 * the device's name or PCI identity in the map folders (iio-regmap(5))
 */
#ifndef IIOCTL_REGMAP_SEARCH_H
#define IIOCTL_REGMAP_SEARCH_H

#include <limits.h>
#include <stddef.h>

#include "device.h"
#include "udrv.h"

#define REGMAP_FILE_NAME_MAX 300

/* --map FILE: the map of every device (no search). */
void regmap_set_file(const char *path);
/* --maps DIRS (a colon list): searched first, instead of $IIOCTL_MAPS. */
void regmap_set_dirs(const char *dirs);

/*
 * The folders searched, in order: --maps DIRS or $IIOCTL_MAPS,
 * $XDG_DATA_HOME/iioctl/maps (~/.local/share/iioctl/maps), PREFIX/share/
 * iioctl/maps for the program PREFIX/bin/iioctl, then DIR/iioctl/maps for each DIR of
 * $XDG_DATA_DIRS (/usr/local/share:/usr/share).
 */
size_t regmap_dirs(char dirs[][PATH_MAX], size_t max);
/*
 * A device's candidate file names, the first found wins: NAME.map (its
 * name), then for a PCI device pci-VVVV-DDDD-barN.map, pci-VVVV-DDDD.map,
 * pci-class-CCCCCC-barN.map, pci-class-CCCCCC.map.
 */
size_t regmap_candidates(const struct iio_device_info *dev,
			 char names[][REGMAP_FILE_NAME_MAX], size_t max);

/*
 * Where the device's map was looked for, for a message: "looked for
 * NAME.map, pci-...map in DIR, DIR, ...", cut to fit size.
 */
void regmap_searched(const struct iio_device_info *dev, char *buf,
		     size_t size);

/*
 * The device's map, searched for once per device and loaded once; NULL
 * if there is none.  A map that does not parse dies with "FILE:LINE: why"
 * (status 2), libudrv's message (udrv_regmap_parse(3)).
 */
const struct udrv_regmap *device_regmap(const struct iio_device_info *dev);
/* A map file, loaded once; dies (status 2) if unreadable or bad. */
const struct udrv_regmap *regmap_load_or_die(const char *path);

#endif
