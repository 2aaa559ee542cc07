// SPDX-License-Identifier: GPL-2.0-only
/*
 * location.c - OFFSET arguments that may be register names: REG or
 * REG.FIELD of the device's register map, with the register's width and
 * the field's bits
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "location.h"
#include "regmap_search.h"

static bool is_name(const char *s)
{
	return (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
	       *s == '_';
}

/* The map of r's device for name arg, or NULL with why set. */
static const struct udrv_regmap *map_for_name(const struct region *r,
					 const char *arg, char *why)
{
	const struct udrv_regmap *map;

	if (r->node == NODE_DMA) {
		snprintf(why, WHY_MAX, "invalid offset '%s': a DMA buffer has no registers",
			 msg_word(arg));
		return NULL;
	}
	map = device_regmap(r->dev);
	if (!map) {
		char searched[WHY_MAX / 2];

		regmap_searched(r->dev, searched, sizeof(searched));
		snprintf(why, WHY_MAX, "invalid offset '%s': not a number, and %s has no register map (%s; see iio-regmap(5))",
			 msg_word(arg), r->dev->label, searched);
	}
	return map;
}

/*
 * ":MSB:LSB" after an offset (spec, at the ':'), for the width: sets the
 * location's bits.  arg is the whole word, for messages.
 */
static bool parse_bits(const char *arg, const char *spec,
		       struct location *loc, char *why)
{
	const char *colon = strchr(spec + 1, ':');
	uint64_t msb, lsb;
	char *text;
	bool ok;

	if (!colon || strchr(colon + 1, ':')) {
		snprintf(why, WHY_MAX, "invalid field '%s': not OFFSET:MSB:LSB (as 0x10:7:4, bits 7 down to 4)",
			 msg_word(arg));
		return false;
	}
	text = xstrdup(spec + 1);
	text[colon - spec - 1] = '\0';
	ok = parse_number(text, "MSB", 0, 63, &msb, why) &&
	     parse_number(colon + 1, "LSB", 0, 63, &lsb, why);
	free(text);
	if (!ok)
		return false;
	if (msb < lsb) {
		snprintf(why, WHY_MAX, "invalid field '%s': MSB %llu is below LSB %llu (the high bit comes first: %llu:%llu)",
			 msg_word(arg), (unsigned long long)msb,
			 (unsigned long long)lsb, (unsigned long long)lsb,
			 (unsigned long long)msb);
		return false;
	}
	if (msb >= 8 * loc->width) {
		unsigned w = msb < 16 ? 2 : msb < 32 ? 4 : 8;

		snprintf(why, WHY_MAX, "invalid field '%s': bit %llu is past width %u (-w %u holds it)",
			 msg_word(arg), (unsigned long long)msb, loc->width,
			 w);
		return false;
	}
	loc->bits = true;
	loc->msb = (unsigned)msb;
	loc->lsb = (unsigned)lsb;
	return true;
}

/* @ADDR[:MSB:LSB]: a physical address in r's node */
static bool parse_address(const struct region *r, const char *arg,
			  struct location *loc, char *why)
{
	uint64_t start = r->dev->physaddr + r->window_offset, addr;
	char *number = xstrdup(arg + 1);
	const char *colon = strchr(arg, ':');
	bool ok;

	number[strcspn(number, ":")] = '\0';
	ok = parse_number(number, "physical address", 0, UINT64_MAX, &addr,
			  why);
	free(number);
	if (!ok)
		return false;
	if (r->node == NODE_DMA || strcmp(r->dev->type, "mem") ||
	    !r->dev->physaddr || addr < start || addr - start >= r->size) {
		snprintf(why, WHY_MAX, "physical address 0x%llx is not in %s (one device a command: give each its own)",
			 (unsigned long long)addr, r->label);
		return false;
	}
	loc->offset = addr - start;
	return !colon || parse_bits(arg, colon, loc, why);
}

bool location_parse(const struct region *r, const char *arg, unsigned width,
		    struct location *loc, char *why)
{
	char name[2 * UDRV_REGMAP_NAME_MAX + 2];
	const struct udrv_regmap *map;
	const char *dot, *colon;
	struct iio_window w;

	memset(loc, 0, sizeof(*loc));
	loc->width = width ? width : 4;
	if (arg[0] == '@')
		return parse_address(r, arg, loc, why);
	colon = strchr(arg, ':');
	if (!is_name(arg) && colon) {
		char *number = xstrdup(arg);
		bool ok;

		number[colon - arg] = '\0';
		ok = parse_number(number, "offset", NUM_SUFFIX, UINT64_MAX,
				  &loc->offset, why);
		free(number);
		return ok && parse_bits(arg, colon, loc, why);
	}
	if (!is_name(arg))
		return parse_number(arg, "offset", NUM_SUFFIX, UINT64_MAX,
				    &loc->offset, why);
	map = map_for_name(r, arg, why);
	if (!map)
		return false;
	if (strlen(arg) >= sizeof(name)) {
		snprintf(why, WHY_MAX, "no register '%.*s...' in %s",
			 UDRV_REGMAP_NAME_MAX, arg, udrv_regmap_path(map));
		return false;
	}
	copy_string(name, sizeof(name), arg);
	dot = strchr(arg, '.');
	if (dot)
		name[dot - arg] = '\0';
	loc->reg = udrv_regmap_find_reg(map, name);
	if (!loc->reg) {
		snprintf(why, WHY_MAX, "no register '%s' in %s (iioctl regs %s lists them)",
			 msg_word(name), udrv_regmap_path(map), r->dev->label);
		return false;
	}
	if (dot) {
		loc->field = udrv_reg_find_field(loc->reg, dot + 1);
		if (!loc->field) {
			snprintf(why, WHY_MAX, "register %s has no field '%s' (iioctl regs %s %s lists them)",
				 udrv_reg_name(loc->reg), msg_word(dot + 1),
				 r->dev->label,
				 udrv_reg_name(loc->reg));
			return false;
		}
	}
	if (!width)
		loc->width = udrv_reg_width(loc->reg);
	if (loc->field && udrv_field_msb(loc->field) >= 8 * loc->width) {
		snprintf(why, WHY_MAX, "field %s.%s (bits %u:%u) does not fit width %u",
			 udrv_reg_name(loc->reg), udrv_field_name(loc->field),
			 udrv_field_msb(loc->field), udrv_field_lsb(loc->field),
			 loc->width);
		return false;
	}
	if (loc->field)
		location_set_field(loc, loc->field);
	loc->offset = udrv_reg_offset(loc->reg);
	if (r->node == NODE_IN || r->node == NODE_OUT) {
		w = device_window(r->dev, r->node);
		if (loc->offset < w.offset || loc->offset - w.offset >= w.len) {
			snprintf(why, WHY_MAX, "register %s (0x%llx) is outside %s",
				 udrv_reg_name(loc->reg),
				 (unsigned long long)loc->offset,
				 r->label);
			return false;
		}
		loc->offset -= w.offset;
	}
	return true;
}

void location_set_field(struct location *loc, const struct udrv_field *f)
{
	loc->field = f;
	loc->bits = f != NULL;
	loc->msb = f ? udrv_field_msb(f) : 0;
	loc->lsb = f ? udrv_field_lsb(f) : 0;
}

const char *location_select(struct region *r, poptContext ctx, bool need)
{
	const char *dev_arg = need_arg(ctx, "DEV");

	region_select(r, dev_arg);
	if (dev_arg[0] == '@')
		return dev_arg;
	return need ? need_arg(ctx, "OFFSET") : poptGetArg(ctx);
}

void location_span(const struct location *locs, size_t n, uint64_t *start,
		   uint64_t *len)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (locs[i].offset < lo)
			lo = locs[i].offset;
		if (locs[i].offset + locs[i].width > hi)
			hi = locs[i].offset + locs[i].width;
	}
	*start = n ? lo : 0;
	*len = n ? hi - lo : 0;
}

void location_parse_or_die(const struct region *r, const char *arg,
			   unsigned width, struct location *loc)
{
	char why[WHY_MAX];

	if (!location_parse(r, arg, width, loc, why))
		die(IIOCTL_EUSAGE, "%s", why);
}

bool location_access(const struct location *loc, bool write, char *why)
{
	const struct udrv_reg *reg = loc->reg;
	enum udrv_reg_access access;

	if (!reg)
		return true;
	access = udrv_reg_access(reg);
	if (write && access == UDRV_REG_RO)
		snprintf(why, WHY_MAX, "register %s is read-only",
			 udrv_reg_name(reg));
	else if (!write && access == UDRV_REG_WO)
		snprintf(why, WHY_MAX, "register %s is write-only",
			 udrv_reg_name(reg));
	else if (write && loc->field && access == UDRV_REG_WO)
		snprintf(why, WHY_MAX, "register %s is write-only: its field %s cannot be changed alone (write the register)",
			 udrv_reg_name(reg), udrv_field_name(loc->field));
	else if (write && loc->field &&
		 udrv_field_access(loc->field) == UDRV_REG_RO)
		snprintf(why, WHY_MAX, "field %s.%s is read-only",
			 udrv_reg_name(reg), udrv_field_name(loc->field));
	else
		return true;
	return false;
}

bool location_verify(const struct location *loc, char *why)
{
	if (!loc->reg || udrv_reg_access(loc->reg) != UDRV_REG_WO)
		return true;
	snprintf(why, WHY_MAX, "register %s is write-only: --verify cannot read it back",
		 udrv_reg_name(loc->reg));
	return false;
}

uint64_t location_zero_bits(const struct location *loc)
{
	uint64_t zero = 0;
	size_t i;

	if (!loc->reg)
		return 0;
	for (i = 0; i < udrv_reg_field_count(loc->reg); i++) {
		const struct udrv_field *f = udrv_reg_field_at(loc->reg, i);

		if (f != loc->field && udrv_field_access(f) == UDRV_REG_W1C)
			zero |= udrv_field_mask(f);
	}
	return zero & width_bits(loc->width);
}

const char *location_read_effect(const struct udrv_reg *reg)
{
	return reg && udrv_reg_read(reg) != UDRV_READ_PLAIN ?
	       udrv_reg_read_name(udrv_reg_read(reg)) : NULL;
}

size_t location_effects_in(const struct region *r, uint64_t offset,
			   uint64_t len, struct location **out)
{
	const struct udrv_regmap *map;
	struct iio_window w = { 0 };
	struct location *locs = NULL;
	size_t n = 0, i;

	*out = NULL;
	if (r->node == NODE_DMA || !len)
		return 0;
	map = device_regmap(r->dev);
	if (!map)
		return 0;
	if (r->node == NODE_IN || r->node == NODE_OUT)
		w = device_window(r->dev, r->node);
	for (i = 0; i < udrv_regmap_reg_count(map); i++) {
		const struct udrv_reg *reg = udrv_regmap_reg_at(map, i);
		uint64_t start = udrv_reg_offset(reg);

		if (!location_read_effect(reg))
			continue;
		if (w.present) {
			if (start < w.offset || start - w.offset >= w.len)
				continue;
			start -= w.offset;
		}
		if (start >= offset + len ||
		    start + udrv_reg_width(reg) <= offset)
			continue;
		locs = xrealloc(locs, (n + 1) * sizeof(*locs));
		locs[n++] = (struct location){ .offset = start,
					       .width = udrv_reg_width(reg),
					       .reg = reg };
	}
	/* by offset (maps are short: an insertion sort) */
	for (i = 1; i < n; i++) {
		struct location l = locs[i];
		size_t j = i;

		for (; j && locs[j - 1].offset > l.offset; j--)
			locs[j] = locs[j - 1];
		locs[j] = l;
	}
	*out = locs;
	return n;
}

void location_say_skipped(const struct region *r, const struct location *l,
			  size_t n)
{
	size_t i;

	if (!n)
		return;
	fprintf(stderr, "iioctl: %s: not reading ", r->label);
	for (i = 0; i < n; i++)
		fprintf(stderr, "%s%s (0x%llx, read=%s)",
			i == 0 ? "" : i + 1 == n ? " nor " : ", ",
			udrv_reg_name(l[i].reg), (unsigned long long)l[i].offset,
			location_read_effect(l[i].reg));
	fprintf(stderr, ": %s side effects (--force reads %s)\n",
		n == 1 ? "its read has" : "their reads have",
		n == 1 ? "it" : "them");
}

void location_check_access(const struct location *loc, bool write)
{
	char why[WHY_MAX];

	if (!location_access(loc, write, why))
		die(IIOCTL_EUSAGE, "%s", why);
}

/* the largest value of the location's bits */
static uint64_t field_max(const struct location *loc)
{
	unsigned n = location_nbits(loc);

	return n >= 64 ? UINT64_MAX : (1ULL << n) - 1;
}

bool location_value_mask(const struct location *loc, const char *value_arg,
			 const char *mask_arg, uint64_t *value, uint64_t *mask,
			 char *why)
{
	const struct udrv_field *f = loc->field;
	const struct udrv_field_value *named;
	char buf[32];

	if (!loc->bits)
		return parse_value_mask(value_arg, mask_arg,
					width_bits(loc->width), value, mask,
					why);
	if (!f) {	/* OFFSET:MSB:LSB: numbers only */
		if (!parse_value_mask(value_arg, mask_arg, field_max(loc),
				      value, mask, why))
			return false;
		*value <<= loc->lsb;
		*mask <<= loc->lsb;
		return true;
	}
	named = is_name(value_arg) ? udrv_field_find_value(f, value_arg) :
				      NULL;
	if (is_name(value_arg) && !named) {
		snprintf(why, WHY_MAX, "field %s.%s has no value '%s'%s",
			 udrv_reg_name(loc->reg), udrv_field_name(f),
			 msg_word(value_arg),
			 udrv_field_value_count(f) ?
			 " (iioctl regs lists them)" : "");
		return false;
	}
	if (named) {
		snprintf(buf, sizeof(buf), "0x%llx",
			 (unsigned long long)udrv_field_value_number(named));
		value_arg = buf;
	}
	if (!parse_value_mask(value_arg, mask_arg,
			      udrv_field_mask(f) >> udrv_field_lsb(f),
			      value, mask, why))
		return false;
	*value <<= udrv_field_lsb(f);
	*mask <<= udrv_field_lsb(f);
	/* w1c: the other bits are written 0, which clears nothing */
	if (udrv_reg_access(loc->reg) == UDRV_REG_W1C)
		*mask = width_bits(loc->width);
	return true;
}

void location_value_mask_or_die(const struct location *loc,
				const char *value_arg, const char *mask_arg,
				uint64_t *value, uint64_t *mask)
{
	char why[WHY_MAX];

	if (!location_value_mask(loc, value_arg, mask_arg, value, mask, why))
		die(IIOCTL_EUSAGE, "%s", why);
}

uint64_t location_extract(const struct location *loc, uint64_t v)
{
	if (!loc->bits)
		return v;
	return (v >> loc->lsb) & field_max(loc);
}

void location_print(const struct location *loc, uint64_t v, bool decimal)
{
	unsigned bits;

	if (!loc->bits) {
		print_value(v, loc->width, decimal);
		return;
	}
	bits = location_nbits(loc);
	if (decimal)
		printf("%llu\n", (unsigned long long)location_extract(loc, v));
	else
		printf("0x%0*llx\n", (int)((bits + 3) / 4),
		       (unsigned long long)location_extract(loc, v));
}

void location_json(const struct region *r, const struct location *loc)
{
	fputs("\"node\": ", stdout);
	json_string(stdout, r->label);
	fputs(", \"offset\": ", stdout);
	json_hex(stdout, loc->offset);
	printf(", \"width\": %u, \"register\": ", loc->width);
	if (loc->reg)
		json_string(stdout, udrv_reg_name(loc->reg));
	else
		fputs("null", stdout);
	fputs(", \"field\": ", stdout);
	if (loc->field)
		json_string(stdout, udrv_field_name(loc->field));
	else if (loc->bits)
		printf("\"%u:%u\"", loc->msb, loc->lsb);
	else
		fputs("null", stdout);
}

void location_json_value(const struct location *loc, const char *key,
			 uint64_t v)
{
	printf(", \"%s\": ", key);
	json_hex(stdout, location_extract(loc, v));
}

void location_print_json(const struct region *r, const struct location *loc,
			 uint64_t v)
{
	putchar('{');
	location_json(r, loc);
	location_json_value(loc, "value", v);
	puts("}");
}

void location_label(const struct location *loc, char *buf, size_t size)
{
	if (loc->field)
		snprintf(buf, size, "%s.%s", udrv_reg_name(loc->reg),
			 udrv_field_name(loc->field));
	else if (loc->reg)
		snprintf(buf, size, "%s", udrv_reg_name(loc->reg));
	else if (loc->bits)
		snprintf(buf, size, "0x%llx:%u:%u",
			 (unsigned long long)loc->offset, loc->msb, loc->lsb);
	else
		snprintf(buf, size, "0x%llx", (unsigned long long)loc->offset);
}
