/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * location.h - an OFFSET argument, or a register's name (REG, or
 * REG.FIELD for its bits) in the device's register map
 */
#ifndef IIOCTL_LOCATION_H
#define IIOCTL_LOCATION_H

#include <popt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "region.h"
#include "udrv.h"

struct location {
	uint64_t offset;		/* in the node used */
	unsigned width;			/* -w, the register's, or 4 */
	const struct udrv_reg *reg;	/* NULL: a number was given */
	const struct udrv_field *field;	/* REG.FIELD, or NULL */
	/*
	 * bits msb down to lsb of the value: REG.FIELD's, or an ad hoc
	 * field's (OFFSET:MSB:LSB, as rwmem takes it); false: all of them
	 */
	bool bits;
	unsigned msb, lsb;
};

/* how many bits a field has */
static inline unsigned field_nbits(const struct udrv_field *f)
{
	return udrv_field_msb(f) - udrv_field_lsb(f) + 1;
}

/* how many bits a location's value has: its field's, or the width's */
static inline unsigned location_nbits(const struct location *loc)
{
	return loc->bits ? loc->msb - loc->lsb + 1 : 8 * loc->width;
}

/*
 * arg: a number, or REG / REG.FIELD (any case) of the map of r's device
 * (offsets in the in or out window are the register's less the window's
 * start), or an ad hoc field OFFSET:MSB:LSB (bits MSB down to LSB of the
 * value at OFFSET), or @ADDR or @ADDR:MSB:LSB: a physical address in r
 * (region_select()).  The width is width's (-w, or 0 for none), else the
 * register's, else 4.  False, with why (WHY_MAX bytes, common.h) set, on
 * a bad number, a name with no map, an unknown register or field, a field
 * the width does not hold (or MSB below LSB), a register outside the node
 * or an address outside it.  Does not check the range.  The _or_die twin
 * dies with status 2 where this returns false.
 */
bool location_parse(const struct region *r, const char *arg, unsigned width,
		    struct location *loc, char *why);
void location_parse_or_die(const struct region *r, const char *arg,
			   unsigned width, struct location *loc);
/* The location's field: f, its bits (NULL: the whole value). */
void location_set_field(struct location *loc, const struct udrv_field *f);
/*
 * DEV and the first location of a command's arguments: selects r from DEV
 * (region_select()) and returns the first location word: DEV itself when
 * it is @ADDR (a physical address stands for DEV OFFSET), else the next
 * argument (missing: dies if need, else NULL).
 */
const char *location_select(struct region *r, poptContext ctx, bool need);
/* The bytes [*start, *start + *len) that the n locations cover. */
void location_span(const struct location *locs, size_t n, uint64_t *start,
		   uint64_t *len);
/* False (why set) if a named register is write-only (reading) or read-only. */
bool location_access(const struct location *loc, bool write, char *why);
void location_check_access(const struct location *loc, bool write);
/* False (why set) for poke --verify of a write-only register. */
bool location_verify(const struct location *loc, char *why);
/*
 * The bits a read-modify-write of the location writes 0 rather than as
 * read: the register's w1c fields but the location's own (iio-regmap(5)).
 */
uint64_t location_zero_bits(const struct location *loc);
/* "clear" or "pop" for a register whose read has side effects, else NULL */
const char *location_read_effect(const struct udrv_reg *reg);
/*
 * The registers of r's map whose read has side effects and that overlap
 * [offset, offset+len) of the node, by offset (at their offsets in the
 * node): their number, and in *out an array to free().
 */
size_t location_effects_in(const struct region *r, uint64_t offset,
			   uint64_t len, struct location **out);
/*
 * The one line dump, watch and regs print for the n registers they leave
 * out: "iioctl: LABEL: not reading isr (0x10, read=clear): its read has
 * side effects (--force reads it)".
 */
void location_say_skipped(const struct region *r, const struct location *l,
			  size_t n);
/*
 * VALUE[:MASK] and -m MASK (or NULL) for the location: for a field, the
 * field's bits (VALUE may be one of its named values), shifted into the
 * register; false (why set) if they do not fit.
 */
bool location_value_mask(const struct location *loc, const char *value_arg,
			 const char *mask_arg, uint64_t *value, uint64_t *mask,
			 char *why);
void location_value_mask_or_die(const struct location *loc,
				const char *value_arg, const char *mask_arg,
				uint64_t *value, uint64_t *mask);
/* What a value read at the location says: the field's bits, or all. */
uint64_t location_extract(const struct location *loc, uint64_t v);
/* The location's value as peek prints it: 0x and its digits, or decimal. */
void location_print(const struct location *loc, uint64_t v, bool decimal);
/*
 * The JSON keys of a value read at the location, without braces:
 * "node" (r's label: iio0, iio0_in, iio0_dma0), "offset", "width",
 * "register" and "field" (a name, or null), "value" (the field's bits
 * for a field; a hex string, common.h's json_hex()).  key names the
 * value ("value", "old", "new").
 */
void location_json(const struct region *r, const struct location *loc);
void location_json_value(const struct location *loc, const char *key,
			 uint64_t v);
/* peek -j's and wait-value -j's line: {location_json, "value"} */
void location_print_json(const struct region *r, const struct location *loc,
			 uint64_t v);
/* "status", "status.irq_fact" or "0x20", for messages and watch's %r */
void location_label(const struct location *loc, char *buf, size_t size);

#endif
