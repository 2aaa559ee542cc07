// SPDX-License-Identifier: GPL-2.0-only
/*
 * config.c - iioctl config DEV: the PCI configuration space of a device's
 * PCI parent, read-only: the command and status registers decoded, the
 * capability lists (standard and extended) and, with -x, a hex dump as
 * lspci -x (64 bytes), -xxx (256) and -xxxx (4096) print it; or, with
 * -j, the same view (without the dump) as one JSON object
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "device.h"

#define CONFIG_MAX	4096
#define CONFIG_STD	256
#define CONFIG_USER	64	/* what the kernel gives a user other than root */

/* The -x options given (lspci's: 1 or 2 → 64 bytes, 3 → 256, 4 → 4096). */
static int hex_level;

static void count_x(poptContext ctx, enum poptCallbackReason reason,
		    const struct poptOption *opt, const char *arg,
		    const void *data)
{
	(void)ctx;
	(void)arg;
	(void)data;
	if (reason == POPT_CALLBACK_REASON_OPTION && opt->shortName == 'x')
		hex_level++;
}

static unsigned get16(const unsigned char *c, size_t off)
{
	return c[off] | (unsigned)c[off + 1] << 8;
}

static uint32_t get32(const unsigned char *c, size_t off)
{
	return get16(c, off) | (uint32_t)get16(c, off + 2) << 16;
}

struct bit_name {
	unsigned bit;
	const char *name;
};

/* lspci -vv's words for the command and status bits */
static const struct bit_name command_bits[] = {
	{ 0, "I/O" }, { 1, "Mem" }, { 2, "BusMaster" }, { 3, "SpecCycle" },
	{ 4, "MemWINV" }, { 5, "VGASnoop" }, { 6, "ParErr" },
	{ 7, "Stepping" }, { 8, "SERR" }, { 9, "FastB2B" }, { 10, "DisINTx" },
};

static const struct bit_name status_bits[] = {
	{ 4, "Cap" }, { 5, "66MHz" }, { 6, "UDF" }, { 7, "FastB2B" },
	{ 8, "ParErr" }, { 11, ">TAbort" }, { 12, "<TAbort" },
	{ 13, "<MAbort" }, { 14, ">SERR" }, { 15, "<PERR" }, { 3, "INTx" },
};

static const char *const devsel[] = {
	"fast", "medium", "slow", "??",
};

static void print_bits(const char *label, unsigned v,
		       const struct bit_name *bits, size_t n)
{
	size_t i;

	printf("%s 0x%04x", label, v);
	for (i = 0; i < n; i++) {
		printf(" %s%c", bits[i].name, v >> bits[i].bit & 1 ? '+' : '-');
		/* DEVSEL timing after ParErr, as lspci puts it */
		if (bits == status_bits && bits[i].bit == 8)
			printf(" DEVSEL=%s", devsel[v >> 9 & 3]);
	}
	putchar('\n');
}

/* {"value": "0x...", "NAME": true|false, ...[, "DEVSEL": "fast"]} */
static void json_bits(unsigned v, const struct bit_name *bits, size_t n)
{
	size_t i;

	fputs("{\"value\": ", stdout);
	json_hex(stdout, v);
	for (i = 0; i < n; i++) {
		fputs(", ", stdout);
		json_string(stdout, bits[i].name);
		fputs(v >> bits[i].bit & 1 ? ": true" : ": false", stdout);
		if (bits == status_bits && bits[i].bit == 8)
			printf(", \"DEVSEL\": \"%s\"", devsel[v >> 9 & 3]);
	}
	putchar('}');
}

static const char *const std_caps[] = {
	[0x01] = "Power Management", [0x02] = "AGP",
	[0x03] = "Vital Product Data", [0x04] = "Slot ID", [0x05] = "MSI",
	[0x06] = "CompactPCI hot-swap", [0x07] = "PCI-X",
	[0x08] = "HyperTransport", [0x09] = "Vendor Specific",
	[0x0a] = "Debug port", [0x0b] = "CompactPCI central resource control",
	[0x0c] = "PCI Hot-plug", [0x0d] = "Subsystem vendor",
	[0x0e] = "AGP 8x", [0x0f] = "Secure device", [0x10] = "Express",
	[0x11] = "MSI-X", [0x12] = "SATA HBA", [0x13] = "Advanced Features",
	[0x14] = "Enhanced Allocation", [0x15] = "Flattening Portal Bridge",
};

static const char *const ext_caps[] = {
	[0x01] = "Advanced Error Reporting", [0x02] = "Virtual Channel",
	[0x03] = "Device Serial Number", [0x04] = "Power Budgeting",
	[0x05] = "Root Complex Link", [0x06] = "Root Complex Internal Link",
	[0x07] = "Root Complex Event Collector",
	[0x08] = "Multi-Function VC", [0x09] = "Virtual Channel (MFVC)",
	[0x0a] = "Root Complex Register Block", [0x0b] = "Vendor Specific",
	[0x0c] = "Config Access Correlation",
	[0x0d] = "Access Control Services",
	[0x0e] = "Alternative Routing-ID Interpretation",
	[0x0f] = "Address Translation Service",
	[0x10] = "Single Root I/O Virtualization",
	[0x11] = "Multi-Root I/O Virtualization", [0x12] = "Multicast",
	[0x13] = "Page Request", [0x15] = "Resizable BAR",
	[0x16] = "Dynamic Power Allocation", [0x17] = "TPH Requester",
	[0x18] = "Latency Tolerance Reporting",
	[0x19] = "Secondary PCI Express",
	[0x1b] = "Process Address Space ID",
	[0x1d] = "Downstream Port Containment",
	[0x1e] = "L1 PM Substates", [0x1f] = "Precision Time Measurement",
	[0x23] = "Designated Vendor-Specific",
	[0x25] = "Data Link Feature", [0x26] = "Physical Layer 16.0 GT/s",
	[0x27] = "Lane Margining at the Receiver",
	[0x2a] = "Physical Layer 32.0 GT/s",
};

static const char *cap_name(const char *const *names, size_t n, unsigned id)
{
	return id < n && names[id] ? names[id] : "Unknown";
}

/* One capability as the walk finds it. */
struct cap {
	unsigned offset, id, version;
	bool extended;
	bool past;		/* its offset is past what could be read */
};

#define CAPS_MAX (48 + (CONFIG_MAX - CONFIG_STD) / 4)

/*
 * The standard list (from 0x34 while status says Cap+), then the
 * extended one (from 0x100), into caps; returns how many.  A pointer
 * past what could be read ends the walk with an entry marked past; a
 * loop is cut after as many entries as the space holds.
 */
static size_t walk_caps(const unsigned char *c, size_t len, struct cap *caps)
{
	unsigned ptr, n;
	size_t ncaps = 0;
	uint32_t hdr;

	if (!(get16(c, 0x06) & 0x10))
		return 0;
	ptr = c[0x34] & 0xfc;
	for (n = 0; ptr && n < 48; n++) {
		if (ptr + 2 > len) {
			caps[ncaps++] = (struct cap){ .offset = ptr, .past = true };
			return ncaps;
		}
		caps[ncaps++] = (struct cap){ .offset = ptr, .id = c[ptr] };
		ptr = c[ptr + 1] & 0xfc;
	}
	if (len <= CONFIG_STD)
		return ncaps;
	ptr = CONFIG_STD;
	for (n = 0; n < (CONFIG_MAX - CONFIG_STD) / 4; n++) {
		hdr = get32(c, ptr);
		if (!hdr || hdr == 0xffffffff)
			return ncaps;
		caps[ncaps++] = (struct cap){
			.offset = ptr, .id = hdr & 0xffff,
			.version = hdr >> 16 & 0xf, .extended = true,
		};
		ptr = hdr >> 20 & 0xffc;
		if (ptr < CONFIG_STD || ptr + 4 > len)
			return ncaps;
	}
	return ncaps;
}

static const char *cap_label(const struct cap *cap)
{
	if (cap->extended)
		return cap_name(ext_caps, sizeof(ext_caps) / sizeof(*ext_caps),
				cap->id);
	return cap_name(std_caps, sizeof(std_caps) / sizeof(*std_caps),
			cap->id);
}

/* Each entry "[OFF] NAME (ID)", extended ones with their version. */
static void print_caps(const unsigned char *c, size_t len)
{
	struct cap caps[CAPS_MAX];
	size_t i, n = walk_caps(c, len, caps);

	if (!(get16(c, 0x06) & 0x10)) {
		printf("Capabilities: none\n");
		return;
	}
	printf("Capabilities:\n");
	for (i = 0; i < n; i++) {
		if (caps[i].past)
			printf("  [%02x] (past the %zu bytes read)\n",
			       caps[i].offset, len);
		else if (caps[i].extended)
			printf("  [%03x] %s (0x%04x) v%u\n", caps[i].offset,
			       cap_label(&caps[i]), caps[i].id, caps[i].version);
		else
			printf("  [%02x] %s (0x%02x)\n", caps[i].offset,
			       cap_label(&caps[i]), caps[i].id);
	}
}

/*
 * [{"offset": "0x40", "id": "0x5", "name": "MSI", "extended": false},
 * ...], extended ones with "version"; one past what could be read as
 * {"offset": ..., "id": null, "name": null, "past_end": true}.
 */
static void json_caps(const unsigned char *c, size_t len)
{
	struct cap caps[CAPS_MAX];
	size_t i, n = walk_caps(c, len, caps);

	putchar('[');
	for (i = 0; i < n; i++) {
		fputs(i ? ", {\"offset\": " : "{\"offset\": ", stdout);
		json_hex(stdout, caps[i].offset);
		if (caps[i].past) {
			fputs(", \"id\": null, \"name\": null, \"past_end\": true}",
			      stdout);
			continue;
		}
		fputs(", \"id\": ", stdout);
		json_hex(stdout, caps[i].id);
		fputs(", \"name\": ", stdout);
		json_string(stdout, cap_label(&caps[i]));
		printf(", \"extended\": %s", caps[i].extended ? "true" : "false");
		if (caps[i].extended)
			printf(", \"version\": %u", caps[i].version);
		putchar('}');
	}
	putchar(']');
}

/*
 * config -j: {"device", "address" (the PCI parent's), "id", "class" (as
 * list -j's), "header_type", "command" and "status" (json_bits()),
 * "capabilities" (json_caps()), "bytes_read" (a count)}
 */
static void json_config(const struct iio_device_info *d,
			const unsigned char *c, size_t len)
{
	fputs("{\"device\": ", stdout);
	json_string(stdout, d->label);
	fputs(", \"address\": ", stdout);
	json_string(stdout, d->parent);
	printf(", \"id\": \"%04x:%04x\", \"class\": \"%06x\", \"header_type\": ",
	       get16(c, 0), get16(c, 2), (unsigned)(get32(c, 8) >> 8));
	json_hex(stdout, c[0x0e]);
	fputs(", \"command\": ", stdout);
	json_bits(get16(c, 4), command_bits,
		  sizeof(command_bits) / sizeof(*command_bits));
	fputs(", \"status\": ", stdout);
	json_bits(get16(c, 6), status_bits,
		  sizeof(status_bits) / sizeof(*status_bits));
	fputs(", \"capabilities\": ", stdout);
	json_caps(c, len);
	printf(", \"bytes_read\": %zu}\n", len);
}

/* lspci -x's dump: "OFF: b0 b1 ... b15", 16 bytes a line. */
static void print_hex(const unsigned char *c, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (!(i % 16))
			printf(len > CONFIG_STD ? "%03zx:" : "%02zx:", i);
		printf(" %02x", c[i]);
		if (i % 16 == 15 || i + 1 == len)
			putchar('\n');
	}
}

static int do_config(int argc, const char **argv)
{
	unsigned char c[CONFIG_MAX];
	const struct iio_device_info *d;
	char path[PATH_MAX];
	struct iio_target t;
	size_t len = 0, want;
	ssize_t got;
	int fd, json = 0;
	poptContext ctx;
	const struct poptOption options[] = {
		{ NULL, 0, POPT_ARG_CALLBACK, (void *)count_x, 0, NULL, NULL },
		{ "hex", 'x', POPT_ARG_NONE, NULL, 0,
		  "hex dump: -x the first 64 bytes, -xxx 256, -xxxx 4096 (as "
		  "lspci; each --hex counts as one x)", NULL },
		{ "json", 'j', POPT_ARG_NONE, &json, 0,
		  "print one JSON object (no hex dump)", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};

	hex_level = 0;
	ctx = parse_options(argc, argv, options, "DEV");
	device_list_fresh(&d);
	device_resolve(need_arg(ctx, "DEV"), &t);
	no_more_args(ctx);
	if (json && hex_level)
		die(IIOCTL_EUSAGE, "config: -j and -x cannot be combined (JSON has no hex dump)");
	d = t.dev;
	if (strcmp(d->subsystem, "pci"))
		die(IIOCTL_EUSAGE, "%s is not a PCI device's (its parent is %s%s%s): it has no config space",
		    d->label, d->subsystem, d->subsystem[0] ? ":" : "",
		    d->parent[0] ? d->parent : "none");
	if (iioctl_dry_run)
		return IIOCTL_OK;
	device_attr_path(d, "device/config", path, sizeof(path));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die_open(path, "reading");
	while (len < sizeof(c)) {
		got = pread(fd, c + len, sizeof(c) - len, (off_t)len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int err = errno;

			close(fd);
			errno = err;
			die_perror(errno_status(err), "cannot read %s", path);
		}
		if (!got)
			break;
		len += (size_t)got;
	}
	close(fd);
	if (len < CONFIG_USER)
		die(IIOCTL_EDEVICE, "%s: %zu bytes, not a PCI config space",
		    path, len);
	if (json) {
		json_config(d, c, len);
		goto out;
	}
	want = hex_level >= 4 ? CONFIG_MAX : hex_level == 3 ? CONFIG_STD :
	       CONFIG_USER;
	printf("%s: PCI %s, %04x:%04x, class %06x, header type 0x%02x\n",
	       d->label, d->parent, get16(c, 0), get16(c, 2),
	       (unsigned)(get32(c, 8) >> 8), c[0x0e]);
	print_bits("Command:", get16(c, 4), command_bits,
		   sizeof(command_bits) / sizeof(*command_bits));
	print_bits("Status: ", get16(c, 6), status_bits,
		   sizeof(status_bits) / sizeof(*status_bits));
	print_caps(c, len);
	if (hex_level)
		print_hex(c, want < len ? want : len);
out:
	flush_stdout();
	/* non-root reads of sysfs's config stop after the first 64 bytes */
	if (len == CONFIG_USER && (hex_level >= 3 || get16(c, 6) & 0x10))
		fprintf(stderr, "iioctl: %s: only the first %d bytes of config space could be read: the kernel gives the rest to root only\n",
			path, CONFIG_USER);
	return IIOCTL_OK;
}

const struct iioctl_cmd iioctl_cmd_config = {
	.name = "config",
	.run = do_config,
	.help = "PCI config space of the parent, read-only (-x, -xxx, -xxxx hex, -j)",
};
