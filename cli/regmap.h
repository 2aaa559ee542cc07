/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * regmap.h - register maps (iio-regmap(5)): the text format parsed into
 * registers, their bit fields and the fields' named values; names looked
 * up case-insensitively
 */
#ifndef IIOCTL_REGMAP_H
#define IIOCTL_REGMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum regmap_access {
	ACCESS_RO,		/* read-only: poke refuses it */
	ACCESS_RW,
	ACCESS_WO,		/* write-only: never read */
	ACCESS_W1C,		/* write 1 to clear: a field is written alone */
};

struct regmap_value {
	char *name;
	uint64_t value;
	char *desc;		/* "" if none */
};

struct regmap_field {
	char *name;
	unsigned msb, lsb;	/* bits msb..lsb of the register */
	char *desc;
	struct regmap_value *values;
	size_t nvalues;
};

struct regmap_reg {
	char *name;
	uint64_t offset;	/* from the start of the region */
	unsigned width;		/* bytes: 1, 2, 4 or 8 */
	enum regmap_access access;
	bool has_reset;
	uint64_t reset;
	char *desc;
	struct regmap_field *fields;
	size_t nfields;
};

struct regmap {
	char *path;		/* the file it was read from */
	struct regmap_reg *regs;	/* in the file's order */
	size_t nregs;
};

/* The longest name of a register, field or value. */
#define REGMAP_NAME_MAX 63

/*
 * Parses len bytes of text into map (path is copied into it).  Returns
 * true, or false with the line number and a message (no file name) in
 * *err_line and err, and map empty.
 */
bool regmap_parse(const char *text, size_t len, const char *path,
		  struct regmap *map, unsigned *err_line, char *err,
		  size_t err_size);
void regmap_free(struct regmap *map);

/* Lookups by name, ignoring case; NULL if there is none. */
const struct regmap_reg *regmap_find_reg(const struct regmap *map,
					 const char *name);
const struct regmap_field *regmap_find_field(const struct regmap_reg *reg,
					     const char *name);
const struct regmap_value *regmap_find_value(const struct regmap_field *f,
					     const char *name);
/* The named value of a field's value v, or NULL. */
const struct regmap_value *regmap_value_name(const struct regmap_field *f,
					     uint64_t v);

/* The field's bits, not shifted: msb - lsb + 1 ones. */
uint64_t regmap_field_bits(const struct regmap_field *f);
/* "ro", "rw", "wo" or "w1c" */
const char *regmap_access_name(enum regmap_access access);

#endif
