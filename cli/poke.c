// SPDX-License-Identifier: GPL-2.0-only
/*
 * poke.c - iioctl poke DEV OFFSET|REG[.FIELD] VALUE: write one value, a
 * register or a field (read-modify-write), or --count N
 * of them (optionally under a mask, optionally read back), or load bytes
 * from a file
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

static int do_poke(int argc, const char **argv)
{
	const char *width_arg = NULL, *mask_arg = NULL, *from = NULL;
	const char *count_arg = NULL, *offset_arg, *value_arg = NULL;
	uint64_t offset, value, mask, count = 1, i;
	char name[160], *eq;
	struct location loc;
	unsigned width = 0;	/* -w's (0: none), then the location's */
	int verify = 0;
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
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE,
		  (void *)region_popt_options, 0, "Node options:", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};

	region_opts = (struct region_options){ 0 };
	ctx = parse_options(argc, argv, options,
			    "DEV OFFSET|REG[.FIELD] VALUE[:MASK] | DEV REG[.FIELD]=VALUE | DEV OFFSET --from FILE");
	if (width_arg)
		width = parse_width_or_die(width_arg);
	region_select(&r, need_arg(ctx, "DEV"));
	offset_arg = need_arg(ctx, "OFFSET");
	eq = strchr(offset_arg, '=');
	if (eq) {
		/* REG[.FIELD]=VALUE: the value in the same word */
		copy_string(name, sizeof(name), offset_arg);
		if ((size_t)(eq - offset_arg) < sizeof(name))
			name[eq - offset_arg] = '\0';
		value_arg = eq + 1;
		offset_arg = name;
	}
	location_parse_or_die(&r, offset_arg, width, &loc);
	offset = loc.offset;
	width = loc.width;
	if (eq && !loc.reg)
		die(IIOCTL_EUSAGE, "invalid offset '%s': OFFSET=VALUE takes a register name",
		    offset_arg);
	if (from) {
		if (eq)
			die(IIOCTL_EUSAGE, "REG=VALUE and --from conflict");
		if (mask_arg || count_arg)
			die(IIOCTL_EUSAGE, "--%s and --from conflict",
			    mask_arg ? "mask" : "count");
		no_more_args(ctx);
		region_check_writable(&r);
		return poke_from(&r, offset, from, width_arg ? width : 0,
				 verify);
	}
	if (!value_arg)
		value_arg = need_arg(ctx, "VALUE");
	location_value_mask_or_die(&loc, value_arg, mask_arg, &value, &mask);
	no_more_args(ctx);
	location_check_access(&loc, true);
	if (verify) {
		char why[WHY_MAX];

		if (!location_verify(&loc, why))
			die(IIOCTL_EUSAGE, "%s", why);
	}
	if (count_arg) {
		count = parse_u64_or_die(count_arg, "count", 0,
					 UINT64_MAX / width);
		if (!count)
			die(IIOCTL_EUSAGE, "invalid count '%s': must not be 0",
			    count_arg);
	}
	region_check_range(&r, offset, count * width, width);
	region_check_writable(&r);
	if (iioctl_dry_run) {
		region_plan_poke(&r, offset, width, value, mask,
				 location_zero_bits(&loc), count);
		return IIOCTL_OK;
	}
	region_open(&r, true, offset, count * width);
	for (i = 0; i < count; i++)
		region_poke(&r, offset + i * width, width, value, mask,
			    location_zero_bits(&loc), verify);
	region_close(&r);
	return IIOCTL_OK;
}

const struct iioctl_cmd iioctl_cmd_poke = {
	.name = "poke",
	.run = do_poke,
	.help = "write one value, register or field (-w, -m MASK, --verify, -c N fills) or bytes (--from FILE)",
};
