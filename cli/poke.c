// SPDX-License-Identifier: GPL-2.0-only
/*
 * poke.c - iioctl poke DEV LOC VALUE: write a value, a register or a
 * field (read-modify-write), several (LOC=VALUE words, or memtool mw's
 * LOC V1 V2 ...), or --count N of one (optionally under a mask,
 * optionally read back), or load bytes from a file
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "location.h"
#include "region.h"

static int poke_from(struct region *r, uint64_t offset, const char *path,
		     unsigned width, int verify)
{
	unsigned char *buf, *back;
	size_t len, i;

	region_check_range(r, offset, 0, width);
	check_stdin_free(path);
	if (iioctl_dry_run) {
		/* batch: stdin may be the batch itself; check files only */
		if (strcmp(path, "-") && access(path, R_OK))
			die_perror(IIOCTL_EUSAGE, "cannot open %s", path);
		if (region_planning())
			fprintf(stderr, "iioctl: %s: would write the bytes of %s at 0x%llx\n",
				r->label, path, (unsigned long long)offset);
		return IIOCTL_OK;
	}
	buf = load_input(path, r->size - offset, &len);
	if (len > r->size - offset)
		die(IIOCTL_EUSAGE, "%s holds more than the 0x%llx bytes from 0x%llx to the end of %s",
		    path, (unsigned long long)(r->size - offset),
		    (unsigned long long)offset, r->label);
	region_check_range(r, offset, len, width);
	region_open(r, true, offset, len);
	region_write_values(r, offset, buf, len, width);
	if (verify) {
		back = xmalloc(len);
		region_read_values(r, offset, back, len, width);
		for (i = 0; i < len && back[i] == buf[i]; i++)
			;
		if (i < len)
			die(IIOCTL_EDEVICE, "%s: verify failed: read back 0x%02x at 0x%llx after writing 0x%02x",
			    r->label, back[i],
			    (unsigned long long)offset + i, buf[i]);
		free(back);
	}
	region_close(r);
	free(buf);
	return IIOCTL_OK;
}

/* One write of a poke: a value under a mask at a location. */
struct poke_op {
	struct location loc;
	uint64_t value, mask;
};

/*
 * A read-modify-write (a mask, a field) or --verify reads the location
 * first or after: refused without --force where the map marks a register
 * there whose read has side effects (iio-regmap(5) read=clear, read=pop).
 */
static void check_read_effects(const struct region *r,
			       const struct poke_op *op, bool verify)
{
	struct location *l;
	char what[160];

	if (op->mask == width_bits(op->loc.width) && !verify)
		return;
	if (!location_effects_in(r, op->loc.offset, op->loc.width, &l))
		return;
	location_label(&op->loc, what, sizeof(what));
	die(IIOCTL_EUSAGE, "%s: poking %s reads %s (0x%llx, read=%s) %s, and its read has side effects (--force reads it)",
	    r->label, what, udrv_reg_name(l[0].reg),
	    (unsigned long long)l[0].offset, location_read_effect(l[0].reg),
	    op->mask != width_bits(op->loc.width) ?
	    "first (read-modify-write)" : "back (--verify)");
}

/*
 * The writes of the arguments after DEV, first the word first: LOC=VALUE
 * words (every one), or LOC VALUE[:MASK] [VALUE...] (memtool mw: the
 * values at consecutive places of the width from LOC, an offset: one
 * VALUE for a register or a field).  Every one is
 * parsed and checked here, before any access.
 */
/* the writes and their places, reachable from here when a check dies */
static struct poke_op *ops;
static struct location *locs;

static size_t parse_ops(struct region *r, poptContext ctx, const char *first,
			unsigned width, const char *mask_arg, bool many_ok)
{
	const char *word = first, *value_arg;
	bool assign = strchr(first, '=') != NULL;
	struct location loc;
	size_t n = 0;
	char *lhs;

	if (!assign) {
		location_parse_or_die(r, first, width, &loc);
		word = need_arg(ctx, "VALUE");
	}
	do {
		ops = xrealloc(ops, (n + 1) * sizeof(*ops));
		if (assign) {
			value_arg = strchr(word, '=');
			if (!value_arg)
				die(IIOCTL_EUSAGE, "poke: '%s' is not LOC=VALUE: after one, every word is one (REG=VALUE REG.FIELD=VALUE ...)",
				    msg_word(word));
			lhs = xstrdup(word);
			lhs[value_arg - word] = '\0';
			location_parse_or_die(r, lhs, width, &ops[n].loc);
			free(lhs);
			value_arg++;
		} else {
			ops[n].loc = loc;
			value_arg = word;
			if (n) {
				/* the next value of the width (op 0's
				 * range check holds off a wrap) */
				if (loc.bits)
					die(IIOCTL_EUSAGE, "poke: several values for the field %s: a field takes one (LOC=VALUE words write several)",
					    msg_word(first));
				/*
				 * the next offsets are not the register: they
				 * would go unchecked by the map (its width,
				 * access, fields)
				 */
				if (loc.reg)
					die(IIOCTL_EUSAGE, "poke: several values for the register %s: a register takes one (REG=VALUE words write several, each checked)",
					    msg_word(first));
				ops[n].loc.offset = loc.offset + n * loc.width;
				ops[n].loc.reg = NULL;
			}
		}
		location_value_mask_or_die(&ops[n].loc, value_arg, mask_arg,
					   &ops[n].value, &ops[n].mask);
		n++;
	} while ((word = poptGetArg(ctx)));
	if (n > 1 && !many_ok)
		die(IIOCTL_EUSAGE, "--count writes one VALUE: it conflicts with %zu of them",
		    n);
	return n;
}

static int do_poke(int argc, const char **argv)
{
	const char *width_arg = NULL, *mask_arg = NULL, *from = NULL;
	const char *count_arg = NULL, *first;
	uint64_t count = 1, start, len, i;
	struct location loc;
	unsigned width = 0;	/* -w's (0: none) */
	int verify = 0, force = 0;
	size_t n, k;
	struct region r;
	poptContext ctx;
	const struct poptOption options[] = {
		{ "width", 'w', POPT_ARG_STRING, &width_arg, 0,
		  "access width in bytes: 1, 2, 4 or 8 (default: the register's, or 4)",
		  "W" },
		{ "mask", 'm', POPT_ARG_STRING, &mask_arg, 0,
		  "change only these bits (read-modify-write)", "MASK" },
		{ "verify", 0, POPT_ARG_NONE, &verify, 0,
		  "read the value back and fail (status 1) if it differs",
		  NULL },
		{ "from", 0, POPT_ARG_STRING, &from, 0,
		  "write the bytes of FILE (- for stdin) at OFFSET", "FILE" },
		{ "count", 'c', POPT_ARG_STRING, &count_arg, 0,
		  "fill: write VALUE to N values of W bytes from OFFSET", "N" },
		{ "force", 0, POPT_ARG_NONE, &force, 0,
		  "read a register whose read has side effects (read-modify-write, --verify)",
		  NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE,
		  (void *)region_popt_options, 0, "Node options:", NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE,
		  (void *)region_value_popt_options, 0, NULL, NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};

	region_opts = (struct region_options){ 0 };
	ctx = parse_options(argc, argv, options,
			    "DEV LOC VALUE[:MASK] [VALUE...] | DEV LOC=VALUE... | DEV OFFSET --from FILE\n(LOC: OFFSET, REG[.FIELD], OFFSET:MSB:LSB; @ADDR[:MSB:LSB] for DEV LOC)");
	if (width_arg)
		width = parse_width_or_die(width_arg);
	first = location_select(&r, ctx, true);
	if (from) {
		if (strchr(first, '='))
			die(IIOCTL_EUSAGE, "LOC=VALUE and --from conflict");
		if (mask_arg || count_arg || region_opts.be)
			die(IIOCTL_EUSAGE, "--%s and --from conflict",
			    mask_arg ? "mask" : count_arg ? "count" : "be");
		location_parse_or_die(&r, first, width, &loc);
		if (loc.bits)
			die(IIOCTL_EUSAGE, "--from writes bytes: it takes an offset, not the field %s",
			    msg_word(first));
		no_more_args(ctx);
		region_check_writable(&r);
		return poke_from(&r, loc.offset, from,
				 width_arg ? loc.width : 0, verify);
	}
	ops = NULL;
	n = parse_ops(&r, ctx, first, width, mask_arg, !count_arg);
	if (count_arg) {
		count = parse_u64_or_die(count_arg, "count", 0,
					 UINT64_MAX / ops[0].loc.width);
		if (!count)
			die(IIOCTL_EUSAGE, "invalid count '%s': must not be 0",
			    count_arg);
	}
	locs = xmalloc(n * sizeof(*locs));
	for (k = 0; k < n; k++) {
		struct poke_op *op = &ops[k];

		location_check_access(&op->loc, true);
		if (verify) {
			char why[WHY_MAX];

			if (!location_verify(&op->loc, why))
				die(IIOCTL_EUSAGE, "%s", why);
		}
		region_check_range(&r, op->loc.offset,
				   count * op->loc.width, op->loc.width);
		if (!force)
			check_read_effects(&r, op, verify);
		locs[k] = op->loc;
	}
	region_check_writable(&r);
	if (iioctl_dry_run) {
		for (k = 0; k < n; k++)
			region_plan_poke(&r, ops[k].loc.offset,
					 ops[k].loc.width, ops[k].value,
					 ops[k].mask,
					 location_zero_bits(&ops[k].loc),
					 count);
		free(locs);
		free(ops);
		return IIOCTL_OK;
	}
	/* in the order given; the first access that fails ends it */
	location_span(locs, n, &start, &len);
	region_open(&r, true, start, len + (count - 1) * ops[0].loc.width);
	for (k = 0; k < n; k++)
		for (i = 0; i < count; i++)
			region_poke(&r, ops[k].loc.offset +
				    i * ops[k].loc.width,
				    ops[k].loc.width, ops[k].value,
				    ops[k].mask,
				    location_zero_bits(&ops[k].loc), verify);
	region_close(&r);
	free(locs);
	free(ops);
	return IIOCTL_OK;
}

const struct iioctl_cmd iioctl_cmd_poke = {
	.name = "poke",
	.run = do_poke,
	.help = "write values, registers or fields (LOC=VALUE..., LOC V1 V2...; -w, -m MASK, --verify, -c N fills) or bytes (--from FILE)",
};
