// SPDX-License-Identifier: GPL-2.0-only
/*
 * iioctl - look at and drive iio devices from the command line
 *
 * usage: iioctl [--sysfs DIR] [--dev DIR] [--map FILE] [--maps DIRS]
 *               COMMAND [OPTIONS] [ARGS]
 *        iioctl -V | --version | -h | --help | help [COMMAND]
 *
 * Commands (iioctl COMMAND --help for each one's options):
 *   list [DEV...]      the devices: table, -n/--noheadings, -o/--output
 *                      COLUMNS (comma list, any case), -j/--json
 *   info DEV           everything about one device, node paths included
 *                      (-j/--json)
 *   config DEV         the PCI config space of DEV's parent, read-only:
 *                      command and status decoded, the capabilities;
 *                      -x hex of 64 bytes, -xxx 256, -xxxx 4096
 *   dump DEV           hexdump -C of the region or a window: -s OFFSET,
 *                      -n LENGTH, -w 1|2|4|8, --in/--out, --raw, --mmap;
 *                      dump, peek and poke take --dma K for DMA buffer K
 *                      dump --compare FILE: OFFSET FILE DEVICE for each
 *                      value that differs from raw bytes or a dump's text
 *                      (status 1 if any)
 *   peek DEV OFFSET    one value: -w W (default 4), -d decimal
 *   regs DEV [REG[.FIELD]]...  the registers of the device's map with
 *                      their values and fields; -j JSON, --names
 *   poke DEV OFFSET VALUE[:MASK]   one value: -w W (default 4), -m MASK
 *                      or :MASK (read-modify-write), --verify (read back)
 *   poke DEV OFFSET --from FILE|-   load bytes (-w W: in W-byte accesses)
 *   wait-value DEV OFFSET VALUE[:MASK]   poll (-i INTERVAL, default 10ms)
 *                      until (value & -m MASK) == VALUE, or --change; -t
 *                      TIMEOUT (status 3); prints the last value read
 *   watch DEV [OFFSET]...  poll (-i INTERVAL) the values at OFFSETs (or
 *                      every value of the node): a line per change,
 *                      --format "%t %r %o -> %n" by default; -n N changes,
 *                      -t TIMEOUT (both end with status 0)
 *   wait-events DEV    -n N (default 1, 0 = forever or for -t), -t TIMEOUT,
 *                      --format FMT, -q, --vector K (/dev/iioN_eventK)
 *   trigger DEV [VALUE]  write a 4-byte u32 (default 1) to the event
 *                      node; --raw [FILE|-] writes bytes as they are
 *   dma DEV            the DMA buffers (dmaK/: size, bus address, path);
 *                      -f K first frees one (dma_free), -r SIZE adds one
 *                      (dma_request), -j JSON
 *   batch [FILE|-]     one command a line, in one process: every line
 *                      is checked (options, numbers, device, ranges)
 *                      before any runs, so a bad line N writes nothing;
 *                      then they run in order, stopping at the first
 *                      failure ("iioctl: batch line N: ...", its status).
 *                      Words split at blanks, '...' and "..." quotes, \
 *                      escapes, # comments; nodes stay open across lines.
 *
 * Global options (before COMMAND):
 *   --sysfs DIR   the class folder (default /sys/class/iio, or $IIOCTL_SYSFS)
 *   --dev DIR     the node folder (default /dev, or $IIOCTL_DEV)
 *   --map FILE    the register map (iio-regmap(5)) of every DEV
 *   --maps DIRS   folders (a colon list) searched first for maps, instead
 *                 of $IIOCTL_MAPS
 *
 * Registers by name: where an OFFSET is taken (peek, poke, wait-value,
 * watch), REG or REG.FIELD of the device's register map, with the
 * register's width as the default width; poke REG.FIELD VALUE (or
 * REG.FIELD=VALUE) changes the field alone (read-modify-write), VALUE
 * may be one of the field's named values.  regs DEV [REG[.FIELD]]...
 * reads and decodes the map's registers (-j JSON, --names).  An unknown
 * name, a read of a write-only or a write of a read-only register: status
 * 2, nothing written.  A map that does not parse: "FILE:LINE: why", 2.
 *
 * DEV: iioN, N (decimal), a path to a node (/dev/iio0_in: the suffix
 * picks the window; a character device is identified by its minor), a
 * PCI address ([DDDD:]BB:DD.F, with /barN to pick a BAR), or a device's
 * exact name (a purely decimal DEV is always a number).  A name
 * two devices share is an error listing both; an unknown DEV is an error
 * listing the devices that exist.
 *
 * Numbers: decimal or 0x hex (either case); offsets and lengths also take
 * a K, M or G suffix (powers of 1024).  "0" is fine; a leading 0 followed
 * by digits ("010") is refused as ambiguous (octal is not accepted).  No
 * sign, no blanks.  Every number is checked for overflow and range (a
 * value must fit the width, an offset the window) before any node is
 * opened.
 *
 * Offsets are relative to the node used: the region, or the window's
 * start.  An access of width W (1, 2, 4, 8) must be aligned to W and is
 * exactly one device access: one pread/pwrite of W bytes, or one volatile
 * load/store of W bytes with --mmap.
 *
 * Output formats:
 *   peek      0x-prefixed hex padded to 2*W digits ("0x0000002a"), or -d
 *             decimal
 *   dump      hexdump -C: offset (8+ hex digits, relative to the node),
 *             16 bytes a line as values of width W (native-endian, so -w 1
 *             is byte for byte like hexdump -C), an ASCII column of the
 *             bytes, identical lines folded to "*", the end offset last.
 *             Without -w the bytes of I/O memory (a PCI device's mem
 *             region) are read in aligned accesses of at most 4 bytes,
 *             other regions in chunks (the kernel splits them into the
 *             widest aligned accesses); with -w every value is one access.
 *             -n 0 prints nothing.
 *   list -j   a JSON array of objects, one per device: "device" ("iio0"),
 *             "nr" (a number), "name", "version", "type", "size" and
 *             "physaddr" (hex strings "0x...": every address, offset,
 *             size and register value in JSON is one, exact above 2^53;
 *             counts are numbers), "in"/"out" ({"offset": "0x...",
 *             "length": "0x..."} or null),
 *             "irq" (a number, or "cyclic", "oneshot", "none"), "events",
 *             "listeners" (numbers), "dev" ("MAJ:MIN"), "parent"; -o picks
 *             the keys as it picks the columns.  info -j: one such object
 *             with every key and "nodes" (region, in, out, event paths).
 *   wait-events  one line per read, default "count=%c new=%n time=%t":
 *             %c total count, %n new since the previous read, %t
 *             CLOCK_MONOTONIC seconds.nanoseconds, %T CLOCK_REALTIME,
 *             %% a percent sign.
 *
 * wait-events counts the events from its start (the event attribute is
 * read before the event node is opened); -t is a deadline for all N
 * events.  trigger refuses a device whose irq is none before writing.
 *
 * Exit statuses:
 *   0    success
 *   1    a device or I/O error: a node cannot be opened, read or written,
 *        --verify read back another value, a stub refused a value,
 *        dump --compare found a difference
 *   2    usage error: unknown command or option, missing or extra
 *        argument, malformed or out-of-range number, offset or length
 *        past the end, unaligned offset, unsupported width, no such
 *        window, a write to the in window, missing or ambiguous device
 *   3    wait-events, wait-value: the timeout expired first
 *   4    the device went away (EIO on a node, POLLHUP on the event node)
 *   5    the device has no event source (irq none), or its stub has no
 *        event_write (EOPNOTSUPP)
 *   130  wait-events: interrupted by SIGINT (after printing what it got)
 * A bad input is reported in one line on stderr ("iioctl: ...", in batch
 * "iioctl: batch line N: ...") and nothing is written to the device.
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "device.h"
#include "regmap_search.h"

/*
 * The framework's version (kmod/iio_core.c), passed in by cli/cli.mk; a
 * build without it (a static analyser's) says so.
 */
#ifndef IIOCTL_VERSION
#define IIOCTL_VERSION "(version unknown: built without cli/cli.mk)"
#endif

static int do_help(int argc, const char **argv);

static const struct iioctl_cmd iioctl_cmd_help = {
	.name = "help",
	.run = do_help,
	.help = "show the commands, or COMMAND's options",
};

static const struct iioctl_cmd *const commands[] = {
	&iioctl_cmd_list, &iioctl_cmd_info, &iioctl_cmd_config,
	&iioctl_cmd_dump,
	&iioctl_cmd_peek, &iioctl_cmd_poke, &iioctl_cmd_regs,
	&iioctl_cmd_wait_value,
	&iioctl_cmd_watch, &iioctl_cmd_wait_events,
	&iioctl_cmd_trigger, &iioctl_cmd_dma, &iioctl_cmd_bind,
	&iioctl_cmd_unbind, &iioctl_cmd_batch,
	&iioctl_cmd_help,
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void print_usage(FILE *f)
{
	size_t i;

	fputs("usage: iioctl [--sysfs DIR] [--dev DIR] [--map FILE] [--maps DIRS]\n"
	      "              [-v] [-D] COMMAND [OPTIONS] [ARGS]\n"
	      "       iioctl -V | --version | -h | --help | help [COMMAND]\n\n"
	      "commands (iioctl COMMAND --help for each one's options):\n", f);
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-12s %s\n", commands[i]->name, commands[i]->help);
	fputs("\n"
	      "  --sysfs DIR  the class folder (default /sys/class/iio; $IIOCTL_SYSFS)\n"
	      "  --dev DIR    the node folder (default /dev; $IIOCTL_DEV)\n"
	      "  --map FILE   the register map of every DEV (iio-regmap(5))\n"
	      "  --maps DIRS  folders searched first for maps ($IIOCTL_MAPS)\n"
	      "  --verbose    (-v) print every device access on stderr\n"
	      "  --dry-run    (-D) check, print the accesses, touch nothing\n\n"
	      "DEV is iioN, N, a node path (/dev/iio0_in picks the in window), a\n"
	      "PCI address (0000:00:10.0, .../bar2) or an exact device name.\n"
	      "Numbers: decimal or 0x hex, K/M/G suffixes (powers of 1024) for\n"
	      "offsets and lengths; a leading 0 followed by digits is refused\n"
	      "(no octal).  OFFSET may be a register's name, REG or REG.FIELD,\n"
	      "when the device has a register map (iioctl regs DEV lists them).\n\n"
	      "exit status: 0 success, 1 device or I/O error, 2 usage error (bad\n"
	      "option, number, range, width, alignment or device), 3 timeout,\n"
	      "4 device went away, 5 no event source or no event_write,\n"
	      "130 interrupted (SIGINT)\n", f);
}

/* help: the commands; help COMMAND: that command's --help */
static int do_help(int argc, const char **argv)
{
	const char *help_argv[] = { NULL, "--help", NULL };

	if (argc > 2)
		die(IIOCTL_EUSAGE, "help takes at most one COMMAND");
	if (argc == 2 && argv[1][0] == '-')
		die(IIOCTL_EUSAGE, "help takes no options (iioctl help [COMMAND])");
	if (argc < 2 || !strcmp(argv[1], "help")) {
		if (!iioctl_dry_run)
			print_usage(stdout);
		return IIOCTL_OK;
	}
	if (iioctl_batch_line)
		die(IIOCTL_EUSAGE, "help COMMAND has no place in a batch");
	help_argv[0] = argv[1];
	return iioctl_run_command(2, help_argv);
}

int iioctl_run_command(int argc, const char **argv)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(argv[0], commands[i]->name))
			return commands[i]->run(argc, argv);
	die(IIOCTL_EUSAGE, "unknown command '%s' (see iioctl help)",
	    msg_word(argv[0]));
}

int main(int argc, const char **argv)
{
	/* static: popt's copies of the option values stay reachable */
	static const char *sysfs, *dev, *map, *maps;
	int help = 0, version = 0, verbose = 0, dry_run = 0, rc, status;
	const char **args;
	poptContext ctx;
	int nargs;
	const struct poptOption options[] = {
		{ "sysfs", 0, POPT_ARG_STRING, &sysfs, 0,
		  "the iio class folder (default /sys/class/iio)", "DIR" },
		{ "dev", 0, POPT_ARG_STRING, &dev, 0,
		  "the device node folder (default /dev)", "DIR" },
		{ "map", 0, POPT_ARG_STRING, &map, 0,
		  "the register map of every device (iio-regmap(5))", "FILE" },
		{ "maps", 0, POPT_ARG_STRING, &maps, 0,
		  "folders searched first for register maps", "DIRS" },
		{ "verbose", 'v', POPT_ARG_NONE, &verbose, 0,
		  "print every device access on stderr", NULL },
		{ "dry-run", 'D', POPT_ARG_NONE, &dry_run, 0,
		  "check, and print the accesses it would make, touching nothing",
		  NULL },
		{ "version", 'V', POPT_ARG_NONE, &version, 0,
		  "print the version", NULL },
		{ "help", 'h', POPT_ARG_NONE, &help, 0, "show the commands",
		  NULL },
		POPT_TABLEEND
	};

	sysfs = getenv("IIOCTL_SYSFS");
	dev = getenv("IIOCTL_DEV");
	ctx = poptGetContext("iioctl", argc, argv, options,
			     POPT_CONTEXT_POSIXMEHARDER);
	while ((rc = poptGetNextOpt(ctx)) > 0)
		;
	if (rc < -1)
		die(IIOCTL_EUSAGE, "%s: %s (see iioctl --help)",
		    poptBadOption(ctx, POPT_BADOPTION_NOALIAS),
		    poptStrerror(rc));
	args = poptGetArgs(ctx);
	if (version) {
		if (args && args[0])
			die(IIOCTL_EUSAGE, "--version takes no arguments ('%s')",
			    args[0]);
		printf("iioctl %s\n", IIOCTL_VERSION);
		poptFreeContext(ctx);
		return IIOCTL_OK;
	}
	if (help && args && args[0]) {
		/* iioctl --help COMMAND: help COMMAND */
		if (args[1])
			die(IIOCTL_EUSAGE, "--help takes at most one COMMAND");
		status = iioctl_run_command(2, (const char *[]){ "help",
							      args[0], NULL });
		flush_stdout();
		poptFreeContext(ctx);
		return status;
	}
	if (help) {
		print_usage(stdout);
		poptFreeContext(ctx);
		return IIOCTL_OK;
	}
	if (!args || !args[0])
		die(IIOCTL_EUSAGE, "missing command (see iioctl --help)");
	device_set_roots(sysfs && *sysfs ? sysfs : NULL,
			 dev && *dev ? dev : NULL);
	iioctl_verbose = verbose;
	iioctl_dry_run = iioctl_dry_run_asked = dry_run;
	if (map)
		regmap_set_file(map);
	if (maps)
		regmap_set_dirs(maps);
	for (nargs = 0; args[nargs]; nargs++)
		;
	status = iioctl_run_command(nargs, args);
	flush_stdout();
	poptFreeContext(ctx);
	return status;
}
