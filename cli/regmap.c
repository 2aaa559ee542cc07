// SPDX-License-Identifier: GPL-2.0-only
/*
 * regmap.c - the register map format (iio-regmap(5)): one statement a
 * line, "register", "field" (of the register above) or "value" (of the
 * field above); parsed into a struct regmap, every mistake refused with
 * its line number
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common.h"
#include "regmap.h"

/* The parser's state: the map so far and where the error goes. */
struct parser {
	struct regmap *map;
	unsigned line;
	char *err;
	size_t err_size;
};

static bool fail(struct parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static bool fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->err, p->err_size, fmt, ap);
	va_end(ap);
	return false;
}

const char *regmap_access_name(enum regmap_access access)
{
	static const char *const names[] = { "ro", "rw", "wo", "w1c" };

	return names[access];
}

uint64_t regmap_field_bits(const struct regmap_field *f)
{
	unsigned n = f->msb - f->lsb + 1;

	return n >= 64 ? UINT64_MAX : (1ULL << n) - 1;
}

/* The next blank-separated word of *s (NUL-terminated in place), or NULL. */
static char *next_word(char **s)
{
	char *p = *s, *w;

	p += strspn(p, " \t");
	if (!*p)
		return NULL;
	w = p;
	p += strcspn(p, " \t");
	if (*p)
		*p++ = '\0';
	*s = p;
	return w;
}

/* What is left of the line, without leading blanks: the description. */
static char *rest(char *s)
{
	return xstrdup(s + strspn(s, " \t"));
}

static bool check_name(struct parser *p, const char *what, const char *name)
{
	const char *c;

	if (!name)
		return fail(p, "%s: missing name", what);
	if (strlen(name) > REGMAP_NAME_MAX)
		return fail(p, "%s name '%.20s...' is longer than %d characters",
			    what, name, REGMAP_NAME_MAX);
	for (c = name; *c; c++)
		if (!(*c == '_' || (*c >= 'a' && *c <= 'z') ||
		      (*c >= 'A' && *c <= 'Z') ||
		      (c > name && *c >= '0' && *c <= '9')))
			return fail(p, "invalid %s name '%.40s' (letters, digits and _, not starting with a digit)",
				    what, name);
	return true;
}

static bool number(struct parser *p, const char *what, const char *s,
		   uint64_t max, uint64_t *v)
{
	const char *why;

	if (!s)
		return fail(p, "missing %s", what);
	why = parse_u64(s, 0, max, v);
	if (why && !strcmp(why, "too large"))
		return fail(p, "invalid %s '%.40s': too large (at most 0x%llx)",
			    what, s, (unsigned long long)max);
	if (why)
		return fail(p, "invalid %s '%.40s': %s", what, s, why);
	return true;
}

/* register NAME OFFSET WIDTH ACCESS [reset=VALUE] [DESCRIPTION] */
static bool parse_register(struct parser *p, char *s)
{
	static const char *const accesses[] = { "ro", "rw", "wo", "w1c" };
	struct regmap *map = p->map;
	struct regmap_reg reg = { 0 };
	const char *name = next_word(&s), *w;
	uint64_t v = 0;
	size_t i;

	if (!check_name(p, "register", name))
		return false;
	if (regmap_find_reg(map, name))
		return fail(p, "register %s is defined twice", name);
	if (!number(p, "offset", next_word(&s), UINT64_MAX, &reg.offset) ||
	    !number(p, "width", next_word(&s), 8, &v))
		return false;
	if (v != 1 && v != 2 && v != 4 && v != 8)
		return fail(p, "invalid width %llu (use 1, 2, 4 or 8 bytes)",
			    (unsigned long long)v);
	reg.width = (unsigned)v;
	if (reg.offset % reg.width)
		return fail(p, "offset 0x%llx is not aligned to the width %u",
			    (unsigned long long)reg.offset, reg.width);
	if (reg.offset > UINT64_MAX - reg.width)
		return fail(p, "offset 0x%llx: the register runs past the end of the address space",
			    (unsigned long long)reg.offset);
	w = next_word(&s);
	if (!w)
		return fail(p, "missing access (ro, rw, wo or w1c)");
	for (i = 0; i < 4 && strcmp(w, accesses[i]); i++)
		;
	if (i == 4)
		return fail(p, "invalid access '%.40s' (use ro, rw, wo or w1c)",
			    w);
	reg.access = (enum regmap_access)i;
	s += strspn(s, " \t");
	if (!strncmp(s, "reset=", 6)) {
		w = next_word(&s) + 6;
		if (!number(p, "reset value", w, width_bits(reg.width),
			    &reg.reset))
			return false;
		reg.has_reset = true;
	}
	for (i = 0; i < map->nregs; i++) {
		const struct regmap_reg *o = &map->regs[i];

		if (reg.offset < o->offset + o->width &&
		    o->offset < reg.offset + reg.width)
			return fail(p, "register %s at 0x%llx overlaps register %s at 0x%llx",
				    name, (unsigned long long)reg.offset,
				    o->name, (unsigned long long)o->offset);
	}
	reg.name = xstrdup(name);
	reg.desc = rest(s);
	map->regs = xrealloc(map->regs, (map->nregs + 1) * sizeof(reg));
	map->regs[map->nregs++] = reg;
	return true;
}

/* field NAME MSB[:LSB] [DESCRIPTION] */
static bool parse_field(struct parser *p, char *s)
{
	struct regmap_reg *reg;
	struct regmap_field f = { 0 };
	const char *name = next_word(&s), *bits;
	char *colon;
	uint64_t msb = 0, lsb = 0;
	size_t i;

	if (!p->map->nregs)
		return fail(p, "field before any register");
	reg = &p->map->regs[p->map->nregs - 1];
	if (!check_name(p, "field", name))
		return false;
	if (regmap_find_field(reg, name))
		return fail(p, "register %s has two fields %s", reg->name, name);
	bits = next_word(&s);
	if (!bits)
		return fail(p, "missing bits (BIT or MSB:LSB)");
	colon = strchr(bits, ':');
	if (colon)
		*colon = '\0';
	if (!number(p, "bit", bits, 63, &msb) ||
	    !number(p, "bit", colon ? colon + 1 : bits, 63, &lsb))
		return false;
	if (msb < lsb)
		return fail(p, "bits %llu:%llu: the first must be the higher (MSB:LSB)",
			    (unsigned long long)msb, (unsigned long long)lsb);
	if (msb >= 8 * reg->width)
		return fail(p, "bit %llu is outside the %u-byte register %s",
			    (unsigned long long)msb, reg->width, reg->name);
	f.msb = (unsigned)msb;
	f.lsb = (unsigned)lsb;
	for (i = 0; i < reg->nfields; i++) {
		const struct regmap_field *o = &reg->fields[i];

		if (f.lsb <= o->msb && o->lsb <= f.msb)
			return fail(p, "field %s overlaps field %s of register %s",
				    name, o->name, reg->name);
	}
	f.name = xstrdup(name);
	f.desc = rest(s);
	reg->fields = xrealloc(reg->fields, (reg->nfields + 1) * sizeof(f));
	reg->fields[reg->nfields++] = f;
	return true;
}

/* value NAME NUMBER [DESCRIPTION] */
static bool parse_value(struct parser *p, char *s)
{
	struct regmap_reg *reg;
	struct regmap_field *f;
	struct regmap_value v = { 0 };
	const char *name = next_word(&s);

	reg = p->map->nregs ? &p->map->regs[p->map->nregs - 1] : NULL;
	if (!reg || !reg->nfields)
		return fail(p, "value before any field");
	f = &reg->fields[reg->nfields - 1];
	if (!check_name(p, "value", name))
		return false;
	if (regmap_find_value(f, name))
		return fail(p, "field %s.%s has two values %s", reg->name,
			    f->name, name);
	if (!number(p, "value", next_word(&s), regmap_field_bits(f),
		    &v.value))
		return false;
	if (regmap_value_name(f, v.value))
		return fail(p, "field %s.%s: value 0x%llx is named twice (%s, %s)",
			    reg->name, f->name, (unsigned long long)v.value,
			    regmap_value_name(f, v.value)->name, name);
	v.name = xstrdup(name);
	v.desc = rest(s);
	f->values = xrealloc(f->values, (f->nvalues + 1) * sizeof(v));
	f->values[f->nvalues++] = v;
	return true;
}

static bool parse_line(struct parser *p, char *s)
{
	const char *keyword = next_word(&s);

	if (!keyword || keyword[0] == '#')
		return true;
	if (!strcmp(keyword, "register"))
		return parse_register(p, s);
	if (!strcmp(keyword, "field"))
		return parse_field(p, s);
	if (!strcmp(keyword, "value"))
		return parse_value(p, s);
	return fail(p, "unknown statement '%.40s' (register, field or value)",
		    keyword);
}

bool regmap_parse(const char *text, size_t len, const char *path,
		  struct regmap *map, unsigned *err_line, char *err,
		  size_t err_size)
{
	struct parser p = { .map = map, .err = err, .err_size = err_size };
	const char *line = text, *end = text + len, *nl;
	char *copy;
	size_t n;
	bool ok = true;

	memset(map, 0, sizeof(*map));
	map->path = xstrdup(path);
	while (ok && line < end) {
		nl = memchr(line, '\n', (size_t)(end - line));
		n = (size_t)((nl ? nl : end) - line);
		p.line++;
		if (memchr(line, '\0', n)) {
			ok = fail(&p, "a NUL byte (not a text file?)");
			break;
		}
		copy = xmalloc(n + 1);
		memcpy(copy, line, n);
		copy[n] = '\0';
		/* CRLF lines, trailing blanks */
		while (n && strchr(" \t\r", copy[n - 1]))
			copy[--n] = '\0';
		ok = parse_line(&p, copy);
		free(copy);
		line = nl ? nl + 1 : end;
	}
	if (ok && !map->nregs) {
		p.line = p.line ? p.line : 1;
		ok = fail(&p, "no registers");
	}
	if (!ok) {
		*err_line = p.line;
		regmap_free(map);
	}
	return ok;
}

void regmap_free(struct regmap *map)
{
	size_t i, j, k;

	for (i = 0; i < map->nregs; i++) {
		struct regmap_reg *r = &map->regs[i];

		for (j = 0; j < r->nfields; j++) {
			struct regmap_field *f = &r->fields[j];

			for (k = 0; k < f->nvalues; k++) {
				free(f->values[k].name);
				free(f->values[k].desc);
			}
			free(f->values);
			free(f->name);
			free(f->desc);
		}
		free(r->fields);
		free(r->name);
		free(r->desc);
	}
	free(map->regs);
	free(map->path);
	memset(map, 0, sizeof(*map));
}

const struct regmap_reg *regmap_find_reg(const struct regmap *map,
					 const char *name)
{
	size_t i;

	for (i = 0; i < map->nregs; i++)
		if (!strcasecmp(map->regs[i].name, name))
			return &map->regs[i];
	return NULL;
}

const struct regmap_field *regmap_find_field(const struct regmap_reg *reg,
					     const char *name)
{
	size_t i;

	for (i = 0; i < reg->nfields; i++)
		if (!strcasecmp(reg->fields[i].name, name))
			return &reg->fields[i];
	return NULL;
}

const struct regmap_value *regmap_find_value(const struct regmap_field *f,
					     const char *name)
{
	size_t i;

	for (i = 0; i < f->nvalues; i++)
		if (!strcasecmp(f->values[i].name, name))
			return &f->values[i];
	return NULL;
}

const struct regmap_value *regmap_value_name(const struct regmap_field *f,
					     uint64_t v)
{
	size_t i;

	for (i = 0; i < f->nvalues; i++)
		if (f->values[i].value == v)
			return &f->values[i];
	return NULL;
}
