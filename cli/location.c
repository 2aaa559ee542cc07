// SPDX-License-Identifier: GPL-2.0-only
/*
 * location.c - OFFSET arguments that may be register names: REG or
 * REG.FIELD of the device's register map, with the register's width and
 * the field's bits
 */
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "location.h"
#include "regmap_search.h"

static bool is_name(const char *s)
{
	return (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
	       *s == '_';
}

/* The map of r's device for name arg; dies if it has none. */
static const struct regmap *map_or_die(const struct region *r,
				       const char *arg)
{
	const struct regmap *map;

	if (r->node == NODE_DMA)
		die(IIOCTL_EUSAGE, "invalid offset '%s': a DMA buffer has no registers",
		    arg);
	map = device_regmap(r->dev);
	if (!map)
		die(IIOCTL_EUSAGE, "invalid offset '%s': not a number, and %s has no register map (see iio-regmap(5))",
		    arg, r->dev->label);
	return map;
}

void location_parse_or_die(const struct region *r, const char *arg,
			   const char *width_arg, struct location *loc)
{
	char name[2 * REGMAP_NAME_MAX + 2];
	const struct regmap *map;
	const char *dot;
	struct iio_window w;

	memset(loc, 0, sizeof(*loc));
	loc->width = width_arg ? parse_width_or_die(width_arg) : 4;
	if (!is_name(arg)) {
		loc->offset = parse_u64_or_die(arg, "offset", NUM_SUFFIX,
					       UINT64_MAX);
		return;
	}
	map = map_or_die(r, arg);
	if (strlen(arg) >= sizeof(name))
		die(IIOCTL_EUSAGE, "no register '%.*s...' in %s", REGMAP_NAME_MAX,
		    arg, map->path);
	copy_string(name, sizeof(name), arg);
	dot = strchr(arg, '.');
	if (dot)
		name[dot - arg] = '\0';
	loc->reg = regmap_find_reg(map, name);
	if (!loc->reg)
		die(IIOCTL_EUSAGE, "no register '%s' in %s (iioctl regs %s lists them)",
		    name, map->path, r->dev->label);
	if (dot) {
		loc->field = regmap_find_field(loc->reg, dot + 1);
		if (!loc->field)
			die(IIOCTL_EUSAGE, "register %s has no field '%s' (iioctl regs %s %s lists them)",
			    loc->reg->name, dot + 1, r->dev->label,
			    loc->reg->name);
	}
	if (!width_arg)
		loc->width = loc->reg->width;
	if (loc->field && loc->field->msb >= 8 * loc->width)
		die(IIOCTL_EUSAGE, "field %s.%s (bits %u:%u) does not fit width %u",
		    loc->reg->name, loc->field->name, loc->field->msb,
		    loc->field->lsb, loc->width);
	loc->offset = loc->reg->offset;
	if (r->node == NODE_IN || r->node == NODE_OUT) {
		w = device_window(r->dev, r->node);
		if (loc->offset < w.offset || loc->offset - w.offset >= w.len)
			die(IIOCTL_EUSAGE, "register %s (0x%llx) is outside %s",
			    loc->reg->name, (unsigned long long)loc->offset,
			    r->label);
		loc->offset -= w.offset;
	}
}

void location_check_access(const struct location *loc, bool write)
{
	if (!loc->reg)
		return;
	if (write && loc->reg->access == ACCESS_RO)
		die(IIOCTL_EUSAGE, "register %s is read-only", loc->reg->name);
	if (!write && loc->reg->access == ACCESS_WO)
		die(IIOCTL_EUSAGE, "register %s is write-only", loc->reg->name);
	if (write && loc->field && loc->reg->access == ACCESS_WO)
		die(IIOCTL_EUSAGE, "register %s is write-only: its field %s cannot be changed alone (write the register)",
		    loc->reg->name, loc->field->name);
}

void location_value_mask_or_die(const struct location *loc,
				const char *value_arg, const char *mask_arg,
				uint64_t *value, uint64_t *mask)
{
	const struct regmap_field *f = loc->field;
	const struct regmap_value *named;
	char buf[32];

	if (!f) {
		parse_value_mask_or_die(value_arg, mask_arg,
					width_bits(loc->width), value, mask);
		return;
	}
	named = is_name(value_arg) ? regmap_find_value(f, value_arg) : NULL;
	if (is_name(value_arg) && !named)
		die(IIOCTL_EUSAGE, "field %s.%s has no value '%s'%s",
		    loc->reg->name, f->name, value_arg,
		    f->nvalues ? " (iioctl regs lists them)" : "");
	if (named) {
		snprintf(buf, sizeof(buf), "0x%llx",
			 (unsigned long long)named->value);
		value_arg = buf;
	}
	parse_value_mask_or_die(value_arg, mask_arg, regmap_field_bits(f),
				value, mask);
	*value <<= f->lsb;
	*mask <<= f->lsb;
	/* w1c: the other bits are written 0, which clears nothing */
	if (loc->reg->access == ACCESS_W1C)
		*mask = width_bits(loc->width);
}

uint64_t location_extract(const struct location *loc, uint64_t v)
{
	if (!loc->field)
		return v;
	return v >> loc->field->lsb & regmap_field_bits(loc->field);
}

void location_print(const struct location *loc, uint64_t v, bool decimal)
{
	unsigned bits;

	if (!loc->field) {
		print_value(v, loc->width, decimal);
		return;
	}
	bits = loc->field->msb - loc->field->lsb + 1;
	if (decimal)
		printf("%llu\n", (unsigned long long)location_extract(loc, v));
	else
		printf("0x%0*llx\n", (int)((bits + 3) / 4),
		       (unsigned long long)location_extract(loc, v));
}

void location_label(const struct location *loc, char *buf, size_t size)
{
	if (loc->field)
		snprintf(buf, size, "%s.%s", loc->reg->name, loc->field->name);
	else if (loc->reg)
		snprintf(buf, size, "%s", loc->reg->name);
	else
		snprintf(buf, size, "0x%llx", (unsigned long long)loc->offset);
}
