/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * columns.h - the fields of a device, as table cells and as JSON, shared
 * by list and info
 */
#ifndef IIOCTL_COLUMNS_H
#define IIOCTL_COLUMNS_H

#include <stdio.h>

#include "device.h"

struct column {
	const char *name;		/* table heading, -o name */
	const char *key;		/* JSON key, info label */
	const char *help;
	/* text cell into buf; JSON value on f */
	void (*text)(const struct iio_device_info *d, char *buf, size_t size);
	void (*json)(FILE *f, const struct iio_device_info *d);
	int right;			/* right-aligned in the table */
	int listed;			/* in the default list */
};

/* The longest cell: a name of 255 bytes, each escaped as \xNN, and more */
#define COLUMN_TEXT_MAX 1400

extern const struct column columns[];
extern const size_t ncolumns;

/* The column named name (any case), or NULL. */
const struct column *column_find(const char *name);
/* "DEVICE, NR, NAME, ..." for error messages and help. */
const char *column_names(void);

#endif
