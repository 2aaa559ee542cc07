// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * regmap.c - register maps in the iio-regmap(5) format
 * (udrv_regmap_parse(3)): one statement a line, "register", "field" (of
 * the register above) or "value" (of the field above), parsed into a
 * struct udrv_regmap; every mistake refused with its file and line in
 * the message (udrv_strerror(3)); names looked up ignoring case
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "internal.h"
#include "number.h"

/* the largest map file udrv_regmap_load() reads */
#define REGMAP_FILE_MAX		(1u << 20)

struct udrv_field_value {
	char *name;
	uint64_t number;
	char *desc;		/* "" if none */
};

struct udrv_field {
	char *name;
	unsigned int msb, lsb;	/* bits msb..lsb of the register */
	enum udrv_reg_access access;	/* rw (default), ro or w1c */
	char *desc;
	struct udrv_field_value *values;
	size_t nvalues;
};

struct udrv_reg {
	char *name;
	uint64_t offset;	/* from the start of the region */
	unsigned int width;	/* bytes: 1, 2, 4 or 8 */
	enum udrv_reg_access access;
	enum udrv_reg_read read;	/* what a read does besides reading */
	bool has_reset;
	uint64_t reset;
	char *desc;
	struct udrv_field *fields;
	size_t nfields;
};

struct udrv_regmap {
	char *path;		/* the file it was read from */
	struct udrv_reg *regs;	/* in the file's order */
	size_t nregs;
};

/* The parser's state: the map so far and the line being parsed. */
struct parser {
	struct udrv_regmap *map;
	const char *path;
	unsigned int line;
};

static const char *const access_names[] = { "ro", "rw", "wo", "w1c" };
/* read=NAME: enum udrv_reg_read's names ("plain" is the default) */
static const char *const read_names[] = { "plain", "clear", "pop" };

/* "PATH:LINE: why", -EINVAL */
__attribute__((format(printf, 2, 3)))
static int fail(struct parser *p, const char *fmt, ...)
{
	char why[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return udrv_fail(EINVAL, "%s:%u: %s", p->path, p->line, why);
}

static int no_memory(void)
{
	return udrv_fail(ENOMEM, "out of memory for a register map");
}

/* n items of size at the end of *array (n + 1 of them after) */
static int grow(void *array, size_t n, size_t size)
{
	void *bigger = realloc(*(void **)array, (n + 1) * size);

	if (!bigger)
		return no_memory();
	*(void **)array = bigger;
	return 0;
}

static uint64_t field_bits(const struct udrv_field *f)
{
	unsigned int n = f->msb - f->lsb + 1;

	return n >= 64 ? UINT64_MAX : (1ULL << n) - 1;
}

/*
 * A number as iioctl(1) reads them (number.h), whole and at most @max;
 * NULL, or why it is not one (as iioctl says it).
 */
static const char *parse_number(const char *s, uint64_t max, uint64_t *out)
{
	const char *why, *end;
	uint64_t v;

	why = udrv_number_parse(s, &v, &end);
	if (why)
		return why;
	if (*end)
		return "not a number";
	if (v > max)
		return "too large";
	*out = v;
	return NULL;
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
static char *rest(const char *s)
{
	return strdup(s + strspn(s, " \t"));
}

static int check_name(struct parser *p, const char *what, const char *name)
{
	const char *c;

	if (!name)
		return fail(p, "%s: missing name", what);
	if (strlen(name) > UDRV_REGMAP_NAME_MAX)
		return fail(p, "%s name '%.20s...' is longer than %d characters",
			    what, name, UDRV_REGMAP_NAME_MAX);
	for (c = name; *c; c++)
		if (!(*c == '_' || (*c >= 'a' && *c <= 'z') ||
		      (*c >= 'A' && *c <= 'Z') ||
		      (c > name && *c >= '0' && *c <= '9')))
			return fail(p, "invalid %s name '%.40s' (letters, digits and _, not starting with a digit)",
				    what, name);
	return 0;
}

static int number(struct parser *p, const char *what, const char *s,
		  uint64_t max, uint64_t *v)
{
	const char *why;

	if (!s)
		return fail(p, "missing %s", what);
	why = parse_number(s, max, v);
	if (why && !strcmp(why, "too large"))
		return fail(p, "invalid %s '%.40s': too large (at most 0x%llx)",
			    what, s, (unsigned long long)max);
	if (why)
		return fail(p, "invalid %s '%.40s': %s", what, s, why);
	return 0;
}

/* strdup()s of the name and the rest of the line, or -ENOMEM */
static int names(char **name, const char *word, char **desc, const char *s)
{
	*name = strdup(word);
	*desc = rest(s);
	if (*name && *desc)
		return 0;
	free(*name);
	free(*desc);
	return no_memory();
}

/* register NAME OFFSET WIDTH ACCESS [reset=VALUE] [DESCRIPTION] */
static int parse_register(struct parser *p, char *s)
{
	struct udrv_regmap *map = p->map;
	struct udrv_reg reg = { 0 };
	const char *name = next_word(&s), *w;
	bool has_read = false;
	uint64_t v = 0;
	size_t i;
	int ret;

	ret = check_name(p, "register", name);
	if (ret)
		return ret;
	if (udrv_regmap_find_reg(map, name))
		return fail(p, "register %s is defined twice", name);
	ret = number(p, "offset", next_word(&s), UINT64_MAX, &reg.offset);
	if (!ret)
		ret = number(p, "width", next_word(&s), 8, &v);
	if (ret)
		return ret;
	if (v != 1 && v != 2 && v != 4 && v != 8)
		return fail(p, "invalid width %llu (use 1, 2, 4 or 8 bytes)",
			    (unsigned long long)v);
	reg.width = (unsigned int)v;
	if (reg.offset % reg.width)
		return fail(p, "offset 0x%llx is not aligned to the width %u",
			    (unsigned long long)reg.offset, reg.width);
	if (reg.offset > UINT64_MAX - reg.width)
		return fail(p, "offset 0x%llx: the register runs past the end of the address space",
			    (unsigned long long)reg.offset);
	w = next_word(&s);
	if (!w)
		return fail(p, "missing access (ro, rw, wo or w1c)");
	for (i = 0; i < 4 && strcmp(w, access_names[i]); i++)
		;
	if (i == 4)
		return fail(p, "invalid access '%.40s' (use ro, rw, wo or w1c)",
			    w);
	reg.access = (enum udrv_reg_access)i;
	/* reset=VALUE and read=clear|pop, in either order, each once */
	for (;;) {
		s += strspn(s, " \t");
		if (!strncmp(s, "reset=", 6) && !reg.has_reset) {
			w = next_word(&s) + 6;
			ret = number(p, "reset value", w, reg.width == 8 ?
				     UINT64_MAX : (1ULL << 8 * reg.width) - 1,
				     &reg.reset);
			if (ret)
				return ret;
			reg.has_reset = true;
		} else if (!strncmp(s, "read=", 5) && !has_read) {
			w = next_word(&s) + 5;
			for (i = 1; i < 3 && strcmp(w, read_names[i]); i++)
				;
			if (i == 3)
				return fail(p, "invalid read '%.40s' (use read=clear or read=pop)",
					    w);
			if (reg.access == UDRV_REG_WO)
				return fail(p, "register %s is write-only: read=%s means nothing",
					    name, w);
			reg.read = (enum udrv_reg_read)i;
			has_read = true;
		} else {
			break;
		}
	}
	for (i = 0; i < map->nregs; i++) {
		const struct udrv_reg *o = &map->regs[i];

		if (reg.offset < o->offset + o->width &&
		    o->offset < reg.offset + reg.width)
			return fail(p, "register %s at 0x%llx overlaps register %s at 0x%llx",
				    name, (unsigned long long)reg.offset,
				    o->name, (unsigned long long)o->offset);
	}
	ret = grow(&map->regs, map->nregs, sizeof(reg));
	if (!ret)
		ret = names(&reg.name, name, &reg.desc, s);
	if (ret)
		return ret;
	map->regs[map->nregs++] = reg;
	return 0;
}

/* field NAME MSB[:LSB] [DESCRIPTION] */
static int parse_field(struct parser *p, char *s)
{
	struct udrv_reg *reg;
	struct udrv_field f = { 0 };
	const char *name = next_word(&s), *bits;
	char *colon;
	uint64_t msb = 0, lsb = 0;
	size_t i;
	int ret;

	if (!p->map->nregs)
		return fail(p, "field before any register");
	reg = &p->map->regs[p->map->nregs - 1];
	ret = check_name(p, "field", name);
	if (ret)
		return ret;
	if (udrv_reg_find_field(reg, name))
		return fail(p, "register %s has two fields %s", reg->name, name);
	bits = next_word(&s);
	if (!bits)
		return fail(p, "missing bits (BIT or MSB:LSB)");
	colon = strchr(bits, ':');
	if (colon)
		*colon = '\0';
	ret = number(p, "bit", bits, 63, &msb);
	if (!ret)
		ret = number(p, "bit", colon ? colon + 1 : bits, 63, &lsb);
	if (ret)
		return ret;
	if (msb < lsb)
		return fail(p, "bits %llu:%llu: the first must be the higher (MSB:LSB)",
			    (unsigned long long)msb, (unsigned long long)lsb);
	if (msb >= 8 * reg->width)
		return fail(p, "bit %llu is outside the %u-byte register %s",
			    (unsigned long long)msb, reg->width, reg->name);
	f.msb = (unsigned int)msb;
	f.lsb = (unsigned int)lsb;
	f.access = UDRV_REG_RW;
	/* an optional ro or w1c before the description */
	s += strspn(s, " \t");
	if ((!strncmp(s, "ro", 2) && strchr(" \t", s[2])) ||
	    (!strncmp(s, "w1c", 3) && strchr(" \t", s[3]))) {
		f.access = s[0] == 'r' ? UDRV_REG_RO : UDRV_REG_W1C;
		next_word(&s);
		if (reg->access == UDRV_REG_RO || reg->access == UDRV_REG_WO ||
		    reg->access == UDRV_REG_W1C)
			return fail(p, "field %s: %s inside the %s register %s (only an rw register's fields may be ro or w1c)",
				    name, access_names[f.access],
				    access_names[reg->access], reg->name);
	}
	for (i = 0; i < reg->nfields; i++) {
		const struct udrv_field *o = &reg->fields[i];

		if (f.lsb <= o->msb && o->lsb <= f.msb)
			return fail(p, "field %s overlaps field %s of register %s",
				    name, o->name, reg->name);
	}
	ret = grow(&reg->fields, reg->nfields, sizeof(f));
	if (!ret)
		ret = names(&f.name, name, &f.desc, s);
	if (ret)
		return ret;
	reg->fields[reg->nfields++] = f;
	return 0;
}

/* value NAME NUMBER [DESCRIPTION] */
static int parse_value(struct parser *p, char *s)
{
	struct udrv_reg *reg;
	struct udrv_field *f;
	struct udrv_field_value v = { 0 };
	const struct udrv_field_value *same;
	const char *name = next_word(&s);
	int ret;

	reg = p->map->nregs ? &p->map->regs[p->map->nregs - 1] : NULL;
	if (!reg || !reg->nfields)
		return fail(p, "value before any field");
	f = &reg->fields[reg->nfields - 1];
	ret = check_name(p, "value", name);
	if (ret)
		return ret;
	if (udrv_field_find_value(f, name))
		return fail(p, "field %s.%s has two values %s", reg->name,
			    f->name, name);
	ret = number(p, "value", next_word(&s), field_bits(f), &v.number);
	if (ret)
		return ret;
	same = udrv_field_value_for(f, v.number);
	if (same)
		return fail(p, "field %s.%s: value 0x%llx is named twice (%s, %s)",
			    reg->name, f->name, (unsigned long long)v.number,
			    same->name, name);
	ret = grow(&f->values, f->nvalues, sizeof(v));
	if (!ret)
		ret = names(&v.name, name, &v.desc, s);
	if (ret)
		return ret;
	f->values[f->nvalues++] = v;
	return 0;
}

static int parse_line(struct parser *p, char *s)
{
	const char *keyword = next_word(&s);

	if (!keyword || keyword[0] == '#')
		return 0;
	if (!strcmp(keyword, "register"))
		return parse_register(p, s);
	if (!strcmp(keyword, "field"))
		return parse_field(p, s);
	if (!strcmp(keyword, "value"))
		return parse_value(p, s);
	return fail(p, "unknown statement '%.40s' (register, field or value)",
		    keyword);
}

int udrv_regmap_parse(const char *text, size_t len, const char *path,
		      struct udrv_regmap **mapp)
{
	struct parser p = { .path = path };
	const char *line = text, *end = text + len, *nl;
	char *copy;
	size_t n;
	int ret = 0;

	*mapp = NULL;
	if (!path || (!text && len))
		return udrv_fail(EINVAL, "udrv_regmap_parse: no %s",
				 path ? "text" : "path");
	p.map = calloc(1, sizeof(*p.map));
	if (!p.map)
		return no_memory();
	p.map->path = strdup(path);
	if (!p.map->path)
		ret = no_memory();
	while (!ret && line < end) {
		nl = memchr(line, '\n', (size_t)(end - line));
		n = (size_t)((nl ? nl : end) - line);
		p.line++;
		if (memchr(line, '\0', n)) {
			ret = fail(&p, "a NUL byte (not a text file?)");
			break;
		}
		copy = malloc(n + 1);
		if (!copy) {
			ret = no_memory();
			break;
		}
		memcpy(copy, line, n);
		copy[n] = '\0';
		/* CRLF lines, trailing blanks */
		while (n && strchr(" \t\r", copy[n - 1]))
			copy[--n] = '\0';
		ret = parse_line(&p, copy);
		free(copy);
		line = nl ? nl + 1 : end;
	}
	if (!ret && !p.map->nregs) {
		p.line = p.line ? p.line : 1;
		ret = fail(&p, "no registers");
	}
	if (ret) {
		udrv_regmap_free(p.map);
		return ret;
	}
	*mapp = p.map;
	return 0;
}

int udrv_regmap_load(const char *path, struct udrv_regmap **mapp)
{
	size_t cap = 4096, n = 0;
	char *buf, *bigger;
	ssize_t got;
	int fd, ret, err;

	*mapp = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return udrv_fail(errno, "cannot open %s: %s", path,
				 strerror(errno));
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return no_memory();
	}
	for (;;) {
		if (n == cap) {
			if (n > REGMAP_FILE_MAX) {
				ret = udrv_fail(EFBIG, "%s: larger than 1 MiB: not a register map",
						path);
				goto out;
			}
			bigger = realloc(buf, cap *= 2);
			if (!bigger) {
				ret = no_memory();
				goto out;
			}
			buf = bigger;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			err = errno;
			ret = udrv_fail(err, "cannot read %s: %s", path,
					strerror(err));
			goto out;
		}
		if (!got)
			break;
		n += (size_t)got;
	}
	if (n > REGMAP_FILE_MAX)
		ret = udrv_fail(EFBIG, "%s: larger than 1 MiB: not a register map",
				path);
	else
		ret = udrv_regmap_parse(buf, n, path, mapp);
out:
	free(buf);
	close(fd);
	return ret;
}

void udrv_regmap_free(struct udrv_regmap *map)
{
	size_t i, j, k;

	if (!map)
		return;
	for (i = 0; i < map->nregs; i++) {
		struct udrv_reg *r = &map->regs[i];

		for (j = 0; j < r->nfields; j++) {
			struct udrv_field *f = &r->fields[j];

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
	free(map);
}

const char *udrv_regmap_path(const struct udrv_regmap *map)
{
	return map->path;
}

size_t udrv_regmap_reg_count(const struct udrv_regmap *map)
{
	return map->nregs;
}

const struct udrv_reg *udrv_regmap_reg_at(const struct udrv_regmap *map,
					  size_t index)
{
	return index < map->nregs ? &map->regs[index] : NULL;
}

const struct udrv_reg *udrv_regmap_find_reg(const struct udrv_regmap *map,
					    const char *name)
{
	size_t i;

	for (i = 0; i < map->nregs; i++)
		if (!strcasecmp(map->regs[i].name, name))
			return &map->regs[i];
	return NULL;
}

const char *udrv_reg_name(const struct udrv_reg *reg)
{
	return reg->name;
}

const char *udrv_reg_desc(const struct udrv_reg *reg)
{
	return reg->desc;
}

uint64_t udrv_reg_offset(const struct udrv_reg *reg)
{
	return reg->offset;
}

unsigned int udrv_reg_width(const struct udrv_reg *reg)
{
	return reg->width;
}

enum udrv_reg_access udrv_reg_access(const struct udrv_reg *reg)
{
	return reg->access;
}

const char *udrv_reg_access_name(enum udrv_reg_access access)
{
	return (unsigned int)access < 4 ? access_names[access] : NULL;
}

enum udrv_reg_read udrv_reg_read(const struct udrv_reg *reg)
{
	return reg->read;
}

const char *udrv_reg_read_name(enum udrv_reg_read read)
{
	return (unsigned int)read < 3 ? read_names[read] : NULL;
}

int udrv_reg_reset(const struct udrv_reg *reg, uint64_t *value)
{
	if (!reg->has_reset)
		return udrv_fail(ENOENT, "register %s has no reset value",
				 reg->name);
	*value = reg->reset;
	return 0;
}

size_t udrv_reg_field_count(const struct udrv_reg *reg)
{
	return reg->nfields;
}

const struct udrv_field *udrv_reg_field_at(const struct udrv_reg *reg,
					   size_t index)
{
	return index < reg->nfields ? &reg->fields[index] : NULL;
}

const struct udrv_field *udrv_reg_find_field(const struct udrv_reg *reg,
					     const char *name)
{
	size_t i;

	for (i = 0; i < reg->nfields; i++)
		if (!strcasecmp(reg->fields[i].name, name))
			return &reg->fields[i];
	return NULL;
}

const char *udrv_field_name(const struct udrv_field *field)
{
	return field->name;
}

const char *udrv_field_desc(const struct udrv_field *field)
{
	return field->desc;
}

enum udrv_reg_access udrv_field_access(const struct udrv_field *field)
{
	return field->access;
}

unsigned int udrv_field_msb(const struct udrv_field *field)
{
	return field->msb;
}

unsigned int udrv_field_lsb(const struct udrv_field *field)
{
	return field->lsb;
}

uint64_t udrv_field_mask(const struct udrv_field *field)
{
	return field_bits(field) << field->lsb;
}

size_t udrv_field_value_count(const struct udrv_field *field)
{
	return field->nvalues;
}

const struct udrv_field_value *
udrv_field_value_at(const struct udrv_field *field, size_t index)
{
	return index < field->nvalues ? &field->values[index] : NULL;
}

const struct udrv_field_value *
udrv_field_find_value(const struct udrv_field *field, const char *name)
{
	size_t i;

	for (i = 0; i < field->nvalues; i++)
		if (!strcasecmp(field->values[i].name, name))
			return &field->values[i];
	return NULL;
}

const struct udrv_field_value *
udrv_field_value_for(const struct udrv_field *field, uint64_t number)
{
	size_t i;

	for (i = 0; i < field->nvalues; i++)
		if (field->values[i].number == number)
			return &field->values[i];
	return NULL;
}

const char *udrv_field_value_name(const struct udrv_field_value *value)
{
	return value->name;
}

const char *udrv_field_value_desc(const struct udrv_field_value *value)
{
	return value->desc;
}

uint64_t udrv_field_value_number(const struct udrv_field_value *value)
{
	return value->number;
}
