// SPDX-License-Identifier: GPL-2.0-only
/*
 * trigger.c - iioctl trigger DEV [VALUE]: the stub's event_write through
 * the event node; --raw bytes, or a struct iio_oneshot armed --in a
 * duration or --at a CLOCK_MONOTONIC time
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "device.h"
#include "region.h"

#include "../kmod/iio_uapi.h"

/* the event device takes at most IIO_EVENT_WRITE_MAX bytes */
#define MAX_RAW IIO_EVENT_WRITE_MAX

static int do_trigger(int argc, const char **argv)
{
	const struct iio_device_info *dev;
	const char *arg, *input = "-";
	unsigned char *bytes = NULL;
	char path[PATH_MAX];
	struct iio_oneshot oneshot = { 0 };
	const char *in = NULL, *at = NULL;
	struct iio_target t;
	uint32_t value = 1;
	const void *data = &value;
	int raw = 0, fd;
	uint64_t ns;
	size_t len;
	ssize_t n;
	poptContext ctx;
	const struct poptOption options[] = {
		{ "raw", 0, POPT_ARG_NONE, &raw, 0,
		  "write the bytes of FILE (default -, stdin) as they are",
		  NULL },
		{ "in", 0, POPT_ARG_STRING, &in, 0,
		  "arm a one-shot event DURATION from now (250ms, 2s)",
		  "DURATION" },
		{ "at", 0, POPT_ARG_STRING, &at, 0,
		  "arm a one-shot event at TIME, CLOCK_MONOTONIC seconds (as %t prints it)",
		  "TIME" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};

	ctx = parse_options(argc, argv, options,
			    "DEV [VALUE] | --raw DEV [FILE|-] | --in DURATION DEV | --at TIME DEV");
	if (!!raw + !!in + !!at > 1)
		die(IIOCTL_EUSAGE, "trigger: --raw, --in and --at exclude each other");
	device_resolve(need_arg(ctx, "DEV"), &t);
	dev = t.dev;
	arg = poptGetArg(ctx);
	if (arg && (in || at))
		die(IIOCTL_EUSAGE, "trigger: a VALUE has no place with --%s (the event comes from the timer)",
		    in ? "in" : "at");
	if (arg && raw)
		input = arg;
	else if (arg)
		value = (uint32_t)parse_u64_or_die(arg, "value", 0,
						   UINT32_MAX);
	if (in || at) {
		ns = parse_duration_or_die(in ? in : at, in ? "duration" : "time");
		if (ns > INT64_MAX)
			die(IIOCTL_EUSAGE, "invalid %s '%s': too large",
			    in ? "duration" : "time", in ? in : at);
		oneshot.time_ns = (int64_t)ns;
		oneshot.flags = at ? IIO_ONESHOT_ABS : 0;
		data = &oneshot;
	}
	no_more_args(ctx);
	if (!device_has_events(dev))
		die(IIOCTL_ENOEVENTS, "%s has no event source (irq none); nothing to trigger",
		    dev->label);
	if ((in || at) && strcmp(dev->irq, "oneshot"))
		die(IIOCTL_EUSAGE, "%s's event source is %s, not a one-shot timer: --%s arms only a device whose irq is oneshot",
		    dev->label, dev->irq, in ? "in" : "at");
	if (raw)
		check_stdin_free(input);
	if (iioctl_dry_run) {
		if (raw && strcmp(input, "-") && access(input, R_OK))
			die_perror(IIOCTL_EUSAGE, "cannot open %s", input);
		target_event_path(&t, path, sizeof(path));
		if (!region_planning())
			return IIOCTL_OK;
		if (raw)
			fprintf(stderr, "iioctl: %s: would write the bytes of %s to %s\n",
				dev->label, input, path);
		else if (in || at)
			fprintf(stderr, "iioctl: %s: would arm a one-shot event %s %s (write %zu bytes to %s)\n",
				dev->label, in ? "in" : "at", in ? in : at,
				sizeof(oneshot), path);
		else
			fprintf(stderr, "iioctl: %s: would write 4 bytes to %s: 0x%x\n",
				dev->label, path, value);
		return IIOCTL_OK;
	}
	if (raw) {
		bytes = load_input(input, MAX_RAW, &len);
		if (len > MAX_RAW)
			die(IIOCTL_EUSAGE, "%s holds more than %d bytes (the most the event device takes)",
			    input, MAX_RAW);
		data = bytes;
	} else if (in || at) {
		len = sizeof(oneshot);
	} else {
		len = sizeof(value);
	}
	target_event_path(&t, path, sizeof(path));
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		die_open(path, "");
	n = write(fd, data, len);
	if (n < 0 && errno == EOPNOTSUPP)
		die(IIOCTL_ENOEVENTS, "%s: stub has no event_write", dev->label);
	if (n < 0 && errno == EIO)
		die(IIOCTL_EGONE, "%s: the device went away (or lost its event source)",
		    dev->label);
	if (n < 0 && errno == EINVAL)
		die(IIOCTL_EDEVICE, "%s: the stub refused the %zu-byte write%s",
		    dev->label, len,
		    raw ? "" : in || at ? " (it does not let user space arm its one-shot timer)" :
		    " (value out of its range?)");
	if (n < 0)
		die_perror(IIOCTL_EDEVICE, "%s: write", path);
	if ((size_t)n != len)
		die(IIOCTL_EDEVICE, "%s: short write (%zd of %zu bytes)", path,
		    n, len);
	close(fd);
	free(bytes);
	return IIOCTL_OK;
}

const struct iioctl_cmd iioctl_cmd_trigger = {
	.name = "trigger",
	.run = do_trigger,
	.help = "inject an event: a 4-byte VALUE (default 1), --raw bytes, or a one-shot --in/--at",
};
