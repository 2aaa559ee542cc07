// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * test_regmap.c - libudrv's register maps (udrv_regmap_parse(3),
 * udrv_regmap_find_reg(3), udrv_reg_find_field(3)) on the host: every
 * accessor on a map that parses, and each way a map is refused, one case
 * each, with its errno and its whole "PATH:LINE: why" message (run by
 * lib/tests/run; see unit.h)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "udrv.h"
#include "unit.h"

#define EXPECT_STR(a, b) do { const char *a_ = (a), *b_ = (b); \
	if (!a_ || strcmp(a_, b_)) FAIL("%s is \"%s\", expected \"%s\"", #a, \
					a_ ? a_ : "(null)", b_); } while (0)

static const char edu[] =
	"# QEMU's edu\n"
	"register id 0x00 4 ro reset=0x010000ed identification\n"
	"  field major 31:24\n"
	"  field minor 23:16\n"
	"register status 0x20 4 rw\n"
	"\tfield busy 0 computing\n"
	"\tfield irq_fact 7 interrupt when done\n"
	"\t\tvalue off 0\n"
	"\t\tvalue on 1 raise it\n"
	"register wide 0x28 8 w1c\n"
	"  field all 63:0\n"
	"register raise 0x60 1 wo\n";

static struct udrv_regmap *parse(const char *text)
{
	struct udrv_regmap *map = (void *)1;

	EXPECT_EQ(udrv_regmap_parse(text, strlen(text), "edu.map", &map), 0);
	EXPECT(map != NULL);
	return map;
}

/* the registers in the file's order, with what their lines say */
static void registers(void)
{
	struct udrv_regmap *map = parse(edu);
	const struct udrv_reg *r;
	uint64_t v = 0;

	EXPECT_STR(udrv_regmap_path(map), "edu.map");
	EXPECT_EQ(udrv_regmap_reg_count(map), 4);
	r = udrv_regmap_reg_at(map, 0);
	EXPECT_STR(udrv_reg_name(r), "id");
	EXPECT_EQ(udrv_reg_offset(r), 0);
	EXPECT_EQ(udrv_reg_width(r), 4);
	EXPECT_EQ(udrv_reg_access(r), UDRV_REG_RO);
	EXPECT_EQ(udrv_reg_reset(r, &v), 0);
	EXPECT_EQ(v, 0x010000ed);
	EXPECT_STR(udrv_reg_desc(r), "identification");
	r = udrv_regmap_reg_at(map, 1);
	EXPECT_STR(udrv_reg_name(r), "status");
	EXPECT_EQ(udrv_reg_offset(r), 0x20);
	EXPECT_EQ(udrv_reg_access(r), UDRV_REG_RW);
	EXPECT_STR(udrv_reg_desc(r), "");
	v = 7;
	EXPECT_EQ(udrv_reg_reset(r, &v), -ENOENT);
	EXPECT_EQ(v, 7);
	EXPECT_STR(udrv_strerror(), "register status has no reset value");
	r = udrv_regmap_reg_at(map, 2);
	EXPECT_EQ(udrv_reg_width(r), 8);
	EXPECT_EQ(udrv_reg_access(r), UDRV_REG_W1C);
	r = udrv_regmap_reg_at(map, 3);
	EXPECT_STR(udrv_reg_name(r), "raise");
	EXPECT_EQ(udrv_reg_width(r), 1);
	EXPECT_EQ(udrv_reg_access(r), UDRV_REG_WO);
	EXPECT(udrv_regmap_reg_at(map, 4) == NULL);
	EXPECT(udrv_regmap_reg_at(map, (size_t)-1) == NULL);
	EXPECT_STR(udrv_reg_access_name(UDRV_REG_RO), "ro");
	EXPECT_STR(udrv_reg_access_name(UDRV_REG_RW), "rw");
	EXPECT_STR(udrv_reg_access_name(UDRV_REG_WO), "wo");
	EXPECT_STR(udrv_reg_access_name(UDRV_REG_W1C), "w1c");
	EXPECT(udrv_reg_access_name((enum udrv_reg_access)4) == NULL);
	udrv_regmap_free(map);
	udrv_regmap_free(NULL);
}

/* fields and values, their bits, masks and names */
static void fields_and_values(void)
{
	struct udrv_regmap *map = parse(edu);
	const struct udrv_reg *r = udrv_regmap_find_reg(map, "id");
	const struct udrv_field *f;
	const struct udrv_field_value *v;

	EXPECT_EQ(udrv_reg_field_count(r), 2);
	f = udrv_reg_field_at(r, 0);
	EXPECT_STR(udrv_field_name(f), "major");
	EXPECT_EQ(udrv_field_msb(f), 31);
	EXPECT_EQ(udrv_field_lsb(f), 24);
	EXPECT_EQ(udrv_field_mask(f), 0xff000000);
	EXPECT_EQ(udrv_field_value_count(f), 0);
	EXPECT(udrv_field_value_at(f, 0) == NULL);
	EXPECT(udrv_reg_field_at(r, 2) == NULL);
	r = udrv_regmap_find_reg(map, "status");
	f = udrv_reg_field_at(r, 0);
	EXPECT_STR(udrv_field_name(f), "busy");
	EXPECT_EQ(udrv_field_mask(f), 0x1);
	EXPECT_STR(udrv_field_desc(f), "computing");
	f = udrv_reg_find_field(r, "irq_fact");
	EXPECT_EQ(udrv_field_msb(f), 7);
	EXPECT_EQ(udrv_field_lsb(f), 7);
	EXPECT_EQ(udrv_field_mask(f), 0x80);
	EXPECT_STR(udrv_field_desc(f), "interrupt when done");
	EXPECT_EQ(udrv_field_value_count(f), 2);
	v = udrv_field_value_at(f, 1);
	EXPECT_STR(udrv_field_value_name(v), "on");
	EXPECT_EQ(udrv_field_value_number(v), 1);
	EXPECT_STR(udrv_field_value_desc(v), "raise it");
	v = udrv_field_value_at(f, 0);
	EXPECT_STR(udrv_field_value_name(v), "off");
	EXPECT_STR(udrv_field_value_desc(v), "");
	EXPECT(udrv_field_value_at(f, 2) == NULL);
	EXPECT(udrv_field_find_value(f, "ON") == udrv_field_value_at(f, 1));
	EXPECT(udrv_field_find_value(f, "of") == NULL);
	EXPECT(udrv_field_value_for(f, 0) == udrv_field_value_at(f, 0));
	EXPECT(udrv_field_value_for(f, 1) == udrv_field_value_at(f, 1));
	EXPECT(udrv_field_value_for(f, 2) == NULL);
	/* a field of all 64 bits */
	f = udrv_reg_find_field(udrv_regmap_find_reg(map, "wide"), "all");
	EXPECT(udrv_field_mask(f) == UINT64_MAX);
	udrv_regmap_free(map);
}

/* lookups ignore case; a miss is NULL and leaves the message alone */
static void lookups_ignore_case(void)
{
	struct udrv_regmap *map = parse(edu);
	const struct udrv_reg *r;

	udrv_regmap_free(NULL);
	EXPECT(udrv_regmap_find_reg(map, "STATUS") ==
	       udrv_regmap_reg_at(map, 1));
	EXPECT(udrv_regmap_find_reg(map, "Raise") ==
	       udrv_regmap_reg_at(map, 3));
	EXPECT(udrv_regmap_find_reg(map, "stat") == NULL);
	EXPECT(udrv_regmap_find_reg(map, "") == NULL);
	r = udrv_regmap_reg_at(map, 1);
	EXPECT(udrv_reg_find_field(r, "IRQ_Fact") == udrv_reg_field_at(r, 1));
	EXPECT(udrv_reg_find_field(r, "major") == NULL);
	EXPECT_STR(udrv_strerror(), "");
	udrv_regmap_free(map);
}

/* comments, blank lines, CRLF, tabs, trailing blanks, no last newline */
static void layout(void)
{
	static const char text[] =
		"# c\r\n\r\n\tregister\tr 0x10 4 rw   reset=5 the r  \r\n"
		"  field f 3:0\r\n   \n# register x 0 4 rw\nregister s 0x14 2 rw";
	struct udrv_regmap *map = parse(text);
	const struct udrv_reg *r = udrv_regmap_reg_at(map, 0);
	uint64_t v = 0;

	EXPECT_EQ(udrv_regmap_reg_count(map), 2);
	EXPECT_STR(udrv_reg_name(r), "r");
	EXPECT_EQ(udrv_reg_offset(r), 0x10);
	EXPECT_EQ(udrv_reg_reset(r, &v), 0);
	EXPECT_EQ(v, 5);
	EXPECT_STR(udrv_reg_desc(r), "the r");
	EXPECT_STR(udrv_field_name(udrv_reg_field_at(r, 0)), "f");
	EXPECT_STR(udrv_reg_name(udrv_regmap_reg_at(map, 1)), "s");
	EXPECT_EQ(udrv_reg_width(udrv_regmap_reg_at(map, 1)), 2);
	udrv_regmap_free(map);
	/* the longest name, widest reset, highest offset */
	map = parse("register "
		    "a23456789012345678901234567890123456789012345678901234567890123"
		    " 0xfffffffffffffff0 8 rw reset=0xffffffffffffffff\n"
		    "register b 0xfffffffffffffffe 1 ro\n");
	r = udrv_regmap_reg_at(map, 0);
	EXPECT_EQ(strlen(udrv_reg_name(r)), UDRV_REGMAP_NAME_MAX);
	EXPECT_EQ(udrv_reg_reset(r, &v), 0);
	EXPECT(v == UINT64_MAX);
	EXPECT(udrv_reg_offset(udrv_regmap_reg_at(map, 1)) == UINT64_MAX - 1);
	udrv_regmap_free(map);
}

/* a file: loaded and parsed, its path in the map and in every message */
static void load(void)
{
	char dir[] = "/tmp/udrv-regmap-XXXXXX", path[64], big[160];
	struct udrv_regmap *map = (void *)1;
	FILE *f;

	EXPECT(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/edu.map", dir);
	f = fopen(path, "w");
	EXPECT(f && fputs(edu, f) >= 0 && !fclose(f));
	EXPECT_EQ(udrv_regmap_load(path, &map), 0);
	EXPECT_STR(udrv_regmap_path(map), path);
	EXPECT_EQ(udrv_regmap_reg_count(map), 4);
	udrv_regmap_free(map);
	/* a bad one: the parse error with the file's path */
	f = fopen(path, "w");
	EXPECT(f && fputs("register r 0 4 rw\nregister R 4 4 rw\n", f) >= 0 &&
	       !fclose(f));
	map = (void *)1;
	EXPECT_EQ(udrv_regmap_load(path, &map), -EINVAL);
	EXPECT(map == NULL);
	snprintf(big, sizeof(big), "%s:2: register R is defined twice", path);
	EXPECT_STR(udrv_strerror(), big);
	/* 1 MiB is the limit: one byte more is refused */
	EXPECT_EQ(truncate(path, 1 << 20), 0);
	EXPECT_EQ(udrv_regmap_load(path, &map), -EINVAL);
	EXPECT(strstr(udrv_strerror(), ":2: register R is defined twice"));
	EXPECT_EQ(truncate(path, (1 << 20) + 1), 0);
	EXPECT_EQ(udrv_regmap_load(path, &map), -EFBIG);
	snprintf(big, sizeof(big), "%s: larger than 1 MiB: not a register map",
		 path);
	EXPECT_STR(udrv_strerror(), big);
	EXPECT(map == NULL);
	EXPECT_EQ(unlink(path), 0);
	map = (void *)1;
	EXPECT_EQ(udrv_regmap_load(path, &map), -ENOENT);
	EXPECT(map == NULL);
	snprintf(big, sizeof(big), "cannot open %s: No such file or directory",
		 path);
	EXPECT_STR(udrv_strerror(), big);
	/* a folder opens but does not read */
	EXPECT_EQ(udrv_regmap_load(dir, &map), -EISDIR);
	EXPECT(strstr(udrv_strerror(), "cannot read /tmp/udrv-regmap-"));
	EXPECT(map == NULL);
	EXPECT_EQ(rmdir(dir), 0);
}

static void bad_arguments(void)
{
	struct udrv_regmap *map = (void *)1;

	EXPECT_EQ(udrv_regmap_parse(NULL, 1, "x.map", &map), -EINVAL);
	EXPECT(map == NULL);
	EXPECT_STR(udrv_strerror(), "udrv_regmap_parse: no text");
	EXPECT_EQ(udrv_regmap_parse("register r 0 4 rw\n", 18, NULL, &map),
		  -EINVAL);
	EXPECT_STR(udrv_strerror(), "udrv_regmap_parse: no path");
	/* the length counts, not a NUL */
	EXPECT_EQ(udrv_regmap_parse("register r 0 4 rw\nregister", 17, "x.map",
				    &map), 0);
	EXPECT_EQ(udrv_regmap_reg_count(map), 1);
	udrv_regmap_free(map);
}

/* each way a map is refused: -EINVAL, "bad.map:LINE: why", no map */
static void refused(const char *text, size_t len, const char *message)
{
	struct udrv_regmap *map = (void *)1;

	EXPECT_EQ(udrv_regmap_parse(text, len, "bad.map", &map), -EINVAL);
	EXPECT(map == NULL);
	EXPECT_STR(udrv_strerror(), message);
}

#define BAD(name, line, why, text) \
	static void bad_##name(void) \
	{ refused(text, sizeof(text) - 1, "bad.map:" #line ": " why); }

BAD(empty, 1, "no registers", "")
BAD(comments_only, 2, "no registers", "# nothing\n\n")
BAD(keyword, 2, "unknown statement 'regster' (register, field or value)",
    "register r 0 4 rw\nregster s 4 4 rw\n")
BAD(no_name, 1, "register: missing name", "register\n")
BAD(bad_name, 1, "invalid register name 'a.b' (letters, digits and _, not starting with a digit)",
    "register a.b 0 4 rw\n")
BAD(digit_name, 2, "invalid field name '1x' (letters, digits and _, not starting with a digit)",
    "register r 0 4 rw\nfield 1x 0\n")
BAD(long_name, 1, "register name 'a2345678901234567890...' is longer than 63 characters",
    "register a234567890123456789012345678901234567890123456789012345678901234 0 4 rw\n")
BAD(twice, 2, "register R is defined twice",
    "register r 0 4 rw\nregister R 4 4 rw\n")
BAD(no_offset, 1, "missing offset", "register r\n")
BAD(offset, 1, "invalid offset '0x1g': not a number", "register r 0x1g 4 rw\n")
BAD(offset_negative, 1, "invalid offset '-4': negative", "register r -4 4 rw\n")
BAD(offset_octal, 1, "invalid offset '010': leading zero (octal is not accepted; write it in decimal or 0x hex)",
    "register r 010 4 rw\n")
BAD(offset_bare_0x, 1, "invalid offset '0x': no digits after 0x",
    "register r 0x 4 rw\n")
BAD(offset_overflow, 1, "invalid offset '0x10000000000000000': too large (at most 0xffffffffffffffff)",
    "register r 0x10000000000000000 4 rw\n")
BAD(offset_suffix, 1, "invalid offset '4K': not a number", "register r 4K 4 rw\n")
BAD(no_width, 1, "missing width", "register r 0\n")
BAD(width, 1, "invalid width 3 (use 1, 2, 4 or 8 bytes)", "register r 0 3 rw\n")
BAD(width_big, 1, "invalid width '16': too large (at most 0x8)",
    "register r 0 16 rw\n")
BAD(unaligned, 1, "offset 0x2 is not aligned to the width 4", "register r 2 4 rw\n")
BAD(past_end, 1, "offset 0xfffffffffffffff8: the register runs past the end of the address space",
    "register r 0xfffffffffffffff8 8 rw\n")
BAD(no_access, 1, "missing access (ro, rw, wo or w1c)", "register r 0 4\n")
BAD(access, 1, "invalid access 'r' (use ro, rw, wo or w1c)", "register r 0 4 r\n")
BAD(access_case, 1, "invalid access 'RW' (use ro, rw, wo or w1c)", "register r 0 4 RW\n")
BAD(reset, 1, "invalid reset value '0x100': too large (at most 0xff)",
    "register r 0 1 rw reset=0x100\n")
BAD(reset_16, 1, "invalid reset value '0x10000': too large (at most 0xffff)",
    "register r 0 2 rw reset=0x10000\n")
BAD(reset_32, 1, "invalid reset value '0x100000000': too large (at most 0xffffffff)",
    "register r 0 4 rw reset=0x100000000\n")
BAD(reset_empty, 1, "invalid reset value '': empty", "register r 0 4 rw reset=\n")
BAD(overlap, 3, "register s at 0x4 overlaps register q at 0x0",
    "register q 0 8 rw\n\nregister s 4 4 rw\n")
BAD(overlap_below, 2, "register s at 0x0 overlaps register q at 0x4",
    "register q 4 4 rw\nregister s 0 8 rw\n")
BAD(overlap_last_byte, 2, "register s at 0x1 overlaps register q at 0x0",
    "register q 0 2 rw\nregister s 1 1 rw\n")
BAD(orphan_field, 1, "field before any register", "field f 0\n")
BAD(field_no_name, 2, "field: missing name", "register r 0 4 rw\nfield\n")
BAD(field_twice, 3, "register r has two fields F",
    "register r 0 4 rw\nfield f 0\nfield F 1\n")
BAD(field_no_bits, 2, "missing bits (BIT or MSB:LSB)", "register r 0 4 rw\nfield f\n")
BAD(field_bit_big, 2, "invalid bit '64': too large (at most 0x3f)",
    "register r 0 8 rw\nfield f 64\n")
BAD(field_lsb_bad, 2, "invalid bit 'x': not a number",
    "register r 0 8 rw\nfield f 3:x\n")
BAD(field_lsb_missing, 2, "invalid bit '': empty", "register r 0 8 rw\nfield f 3:\n")
BAD(field_bits, 2, "bits 0:3: the first must be the higher (MSB:LSB)",
    "register r 0 4 rw\nfield f 0:3\n")
BAD(field_outside, 2, "bit 8 is outside the 1-byte register r",
    "register r 0 1 rw\nfield f 8\n")
BAD(field_overlap, 3, "field g overlaps field f of register r",
    "register r 0 4 rw\nfield f 3:0\nfield g 4:3\n")
BAD(field_overlap_inside, 3, "field g overlaps field f of register r",
    "register r 0 4 rw\nfield f 7:0\nfield g 4:3\n")
BAD(orphan_value, 1, "value before any field", "value v 0\n")
BAD(value_no_field, 2, "value before any field", "register r 0 4 rw\nvalue v 0\n")
BAD(value_bad_name, 3, "invalid value name 'v-1' (letters, digits and _, not starting with a digit)",
    "register r 0 4 rw\nfield f 0\nvalue v-1 0\n")
BAD(value_twice, 4, "field r.f has two values V",
    "register r 0 4 rw\nfield f 1:0\nvalue v 1\nvalue V 2\n")
BAD(value_missing, 3, "missing value", "register r 0 4 rw\nfield f 1:0\nvalue v\n")
BAD(value_big, 3, "invalid value '4': too large (at most 0x3)",
    "register r 0 4 rw\nfield f 1:0\nvalue v 4\n")
BAD(value_same, 4, "field r.f: value 0x1 is named twice (v, w)",
    "register r 0 4 rw\nfield f 1:0\nvalue v 1\nvalue w 1\n")
BAD(nul, 2, "a NUL byte (not a text file?)",
    "register r 0 4 rw\nregister \0s 4 4 rw\n")
BAD(crlf_line, 3, "missing width", "# c\r\nregister r 0 4 rw\r\nregister s 4\r\n")
BAD(read, 1, "invalid read 'clears' (use read=clear or read=pop)",
    "register r 0 4 ro read=clears\n")
BAD(read_plain, 1, "invalid read 'plain' (use read=clear or read=pop)",
    "register r 0 4 ro read=plain\n")
BAD(read_write_only, 1, "register r is write-only: read=pop means nothing",
    "register r 0 4 wo read=pop\n")
BAD(field_ro_in_ro, 2, "field f: ro inside the ro register r (only an rw register's fields may be ro or w1c)",
    "register r 0 4 ro\nfield f 0 ro\n")
BAD(field_w1c_in_w1c, 2, "field f: w1c inside the w1c register r (only an rw register's fields may be ro or w1c)",
    "register r 0 4 w1c\nfield f 0 w1c\n")

/* read=clear|pop and reset= in either order; a field's ro and w1c */
static void side_effects(void)
{
	static const char text[] =
		"register isr 0x10 4 rw read=clear reset=0x5 status\n"
		"\tfield rx 0 w1c a frame\n"
		"\tfield mode 7:4 ro\n"
		"\tfield rest 31:8 rom bits\n"
		"register rxq 0x14 4 ro reset=0 read=pop the FIFO\n"
		"register plain 0x18 4 rw read\n";
	struct udrv_regmap *map = parse(text);
	const struct udrv_reg *r = udrv_regmap_find_reg(map, "isr");
	uint64_t v = 0;

	EXPECT_EQ(udrv_reg_read(r), UDRV_READ_CLEARS);
	EXPECT_EQ(udrv_reg_reset(r, &v), 0);
	EXPECT_EQ(v, 5);
	EXPECT_STR(udrv_reg_desc(r), "status");
	EXPECT_EQ(udrv_field_access(udrv_reg_field_at(r, 0)), UDRV_REG_W1C);
	EXPECT_STR(udrv_field_desc(udrv_reg_field_at(r, 0)), "a frame");
	EXPECT_EQ(udrv_field_access(udrv_reg_field_at(r, 1)), UDRV_REG_RO);
	EXPECT_STR(udrv_field_desc(udrv_reg_field_at(r, 1)), "");
	/* "rom" is a word of the description, not the mark */
	EXPECT_EQ(udrv_field_access(udrv_reg_field_at(r, 2)), UDRV_REG_RW);
	EXPECT_STR(udrv_field_desc(udrv_reg_field_at(r, 2)), "rom bits");
	r = udrv_regmap_find_reg(map, "rxq");
	EXPECT_EQ(udrv_reg_read(r), UDRV_READ_POPS);
	EXPECT_EQ(udrv_reg_reset(r, &v), 0);
	EXPECT_EQ(v, 0);
	EXPECT_STR(udrv_reg_desc(r), "the FIFO");
	r = udrv_regmap_find_reg(map, "plain");
	EXPECT_EQ(udrv_reg_read(r), UDRV_READ_PLAIN);
	EXPECT_STR(udrv_reg_desc(r), "read");
	EXPECT_STR(udrv_reg_read_name(UDRV_READ_PLAIN), "plain");
	EXPECT_STR(udrv_reg_read_name(UDRV_READ_CLEARS), "clear");
	EXPECT_STR(udrv_reg_read_name(UDRV_READ_POPS), "pop");
	EXPECT(udrv_reg_read_name((enum udrv_reg_read)3) == NULL);
	udrv_regmap_free(map);
}

/*
 * The allocation-failure hook: this program is linked with --wrap for
 * malloc, calloc, realloc and strdup (lib/lib.mk), so every such call of
 * the library (and of this file) comes here.  Each is counted in allocs;
 * the fail_at-th (from 1; 0: none) returns NULL with errno ENOMEM.
 */
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);

static unsigned long allocs, fail_at;

static int alloc_fails(void)
{
	if (++allocs != fail_at)
		return 0;
	errno = ENOMEM;
	return 1;
}

void *__wrap_malloc(size_t n)
{
	return alloc_fails() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return alloc_fails() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
	return alloc_fails() ? NULL : __real_realloc(p, n);
}

char *__wrap_strdup(const char *s)
{
	return alloc_fails() ? NULL : __real_strdup(s);
}

/*
 * udrv_regmap_parse() or, with @dir, udrv_regmap_load() of @dir/edu.map
 * (edu's map written there) with the @n-th allocation failed (0: none);
 * its return value, and the allocations it made in @made
 */
static int parse_failing(const char *dir, unsigned long n,
			 struct udrv_regmap **map, unsigned long *made)
{
	char path[64];
	int ret;

	snprintf(path, sizeof(path), "%s/edu.map", dir ? dir : ".");
	*map = (void *)1;
	allocs = 0;
	fail_at = n;
	ret = dir ? udrv_regmap_load(path, map) :
		    udrv_regmap_parse(edu, strlen(edu), "edu.map", map);
	fail_at = 0;
	*made = allocs;
	return ret;
}

/*
 * Out of memory: each allocation a parse or a load makes, failed in turn,
 * fails the call with -ENOMEM and its message, no map, and nothing left
 * allocated (LeakSanitizer checks at the case's exit); the file's buffer
 * grows past its first 4096 bytes by realloc(), failed too.
 */
static void out_of_memory(void)
{
	char dir[] = "/tmp/udrv-regmap-XXXXXX", path[64];
	struct udrv_regmap *map;
	unsigned long n, total, made;
	const char *where;
	int pass, ret;
	FILE *f;

	EXPECT(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/edu.map", dir);
	f = fopen(path, "w");
	EXPECT(f && fputs(edu, f) >= 0);
	/* comments past 4096 bytes: the load's buffer grows once */
	for (n = 0; n < 100; n++)
		EXPECT(fputs("# a comment line of forty-odd bytes, no more\n",
			     f) >= 0);
	EXPECT(!fclose(f));
	for (pass = 0; pass < 2; pass++) {
		where = pass ? "udrv_regmap_load" : "udrv_regmap_parse";
		EXPECT_EQ(parse_failing(pass ? dir : NULL, 0, &map, &total), 0);
		EXPECT_EQ(udrv_regmap_reg_count(map), 4);
		udrv_regmap_free(map);
		/* a map, a path, a line, names and descriptions, ... */
		if (total < 20)
			FAIL("%s made %lu allocations, fewer than its map has "
			     "names", where, total);
		for (n = 1; n <= total; n++) {
			ret = parse_failing(pass ? dir : NULL, n, &map, &made);
			if (ret != -ENOMEM)
				FAIL("%s with allocation %lu of %lu failed "
				     "returned %d, want -ENOMEM (%d) (udrv: %s)",
				     where, n, total, ret, -ENOMEM,
				     udrv_strerror());
			if (map)
				FAIL("%s with allocation %lu failed left a map",
				     where, n);
			EXPECT_STR(udrv_strerror(),
				   "out of memory for a register map");
			/* it stopped at the failure, or cleaned up after it */
			EXPECT(made >= n && made <= total);
		}
	}
	EXPECT_EQ(unlink(path), 0);
	EXPECT_EQ(rmdir(dir), 0);
}

static const struct unit_case cases[] = {
	UNIT_CASE(registers),
	UNIT_CASE(fields_and_values),
	UNIT_CASE(lookups_ignore_case),
	UNIT_CASE(layout),
	UNIT_CASE(load),
	UNIT_CASE(bad_arguments),
	UNIT_CASE(bad_empty),
	UNIT_CASE(bad_comments_only),
	UNIT_CASE(bad_keyword),
	UNIT_CASE(bad_no_name),
	UNIT_CASE(bad_bad_name),
	UNIT_CASE(bad_digit_name),
	UNIT_CASE(bad_long_name),
	UNIT_CASE(bad_twice),
	UNIT_CASE(bad_no_offset),
	UNIT_CASE(bad_offset),
	UNIT_CASE(bad_offset_negative),
	UNIT_CASE(bad_offset_octal),
	UNIT_CASE(bad_offset_bare_0x),
	UNIT_CASE(bad_offset_overflow),
	UNIT_CASE(bad_offset_suffix),
	UNIT_CASE(bad_no_width),
	UNIT_CASE(bad_width),
	UNIT_CASE(bad_width_big),
	UNIT_CASE(bad_unaligned),
	UNIT_CASE(bad_past_end),
	UNIT_CASE(bad_no_access),
	UNIT_CASE(bad_access),
	UNIT_CASE(bad_access_case),
	UNIT_CASE(bad_reset),
	UNIT_CASE(bad_reset_16),
	UNIT_CASE(bad_reset_32),
	UNIT_CASE(bad_reset_empty),
	UNIT_CASE(bad_overlap),
	UNIT_CASE(bad_overlap_below),
	UNIT_CASE(bad_overlap_last_byte),
	UNIT_CASE(bad_orphan_field),
	UNIT_CASE(bad_field_no_name),
	UNIT_CASE(bad_field_twice),
	UNIT_CASE(bad_field_no_bits),
	UNIT_CASE(bad_field_bit_big),
	UNIT_CASE(bad_field_lsb_bad),
	UNIT_CASE(bad_field_lsb_missing),
	UNIT_CASE(bad_field_bits),
	UNIT_CASE(bad_field_outside),
	UNIT_CASE(bad_field_overlap),
	UNIT_CASE(bad_field_overlap_inside),
	UNIT_CASE(bad_orphan_value),
	UNIT_CASE(bad_value_no_field),
	UNIT_CASE(bad_value_bad_name),
	UNIT_CASE(bad_value_twice),
	UNIT_CASE(bad_value_missing),
	UNIT_CASE(bad_value_big),
	UNIT_CASE(bad_value_same),
	UNIT_CASE(bad_nul),
	UNIT_CASE(bad_crlf_line),
	UNIT_CASE(bad_read),
	UNIT_CASE(bad_read_plain),
	UNIT_CASE(bad_read_write_only),
	UNIT_CASE(bad_field_ro_in_ro),
	UNIT_CASE(bad_field_w1c_in_w1c),
	UNIT_CASE(side_effects),
	UNIT_CASE(out_of_memory),
};

int main(int argc, char **argv)
{
	return unit_main("regmap", cases, sizeof(cases) / sizeof(cases[0]),
			 argc, argv);
}
