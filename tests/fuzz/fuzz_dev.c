// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_dev.c - libFuzzer harness of iioctl's DEV resolver (cli/device.c
 * device_resolve, and cli/region.c region_select with every combination
 * of --in and --out) against the host fixture (tests/host/fixture.sh:
 * iio0 the dummy, iio1 and iio2 "edu", iio3 "pci-testdev").  The input is
 * the DEV string (up to its first NUL).  A DEV either resolves to one of
 * the listed devices, consistently with its form, or is refused with
 * status 2; nothing else.  The forms are those of iioctl(1)'s DEV
 * section, written here from the page, not from cli/device.c: iioN, N, a
 * path (a '/'), a PCI address ([DOMAIN:]BUS:SLOT.FUNCTION in hex, then
 * /barN; the fixture's PCI parents are 0000:00:10.0, 0000:00:11.0 and
 * 0000:00:18.0, each with its region in BAR0), or an exact name; and
 * for region_select, @ADDR[:...] in place of DEV OFFSET (iioctl(1)
 * DESCRIPTION): the region of the one device whose I/O memory holds the
 * physical address (type mem, physaddr not 0: the fixture's edu at
 * 0xfea00000 and 0xfeb00000, 1 MiB each), never with --in or --out.  A
 * new form in the page needs its case here and a seed in corpus/dev.
 */
#include <ctype.h>
#include <strings.h>

#include "fuzz_common.h"
#include "region.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_use_fixture();
	return 0;
}

/*
 * Whether s is a PCI address: the address with its domain (0000 when left
 * out) in lower case in addr, the BAR of /barN in *bar (-1 without).
 * "/bar" is taken in either case, as cli/device.c does.
 */
static int pci_form(const char *s, char addr[13], int *bar)
{
	const char *slash = strchr(s, '/');
	size_t len = slash ? (size_t)(slash - s) : strlen(s), i;

	if (len == 7) {
		memcpy(addr, "0000:", 5);
		memcpy(addr + 5, s, 7);
	} else if (len == 12) {
		memcpy(addr, s, 12);
	} else {
		return 0;
	}
	addr[12] = '\0';
	for (i = 0; i < 12; i++) {
		unsigned char c = (unsigned char)addr[i];

		if (i == 4 || i == 7) {
			if (c != ':')
				return 0;
		} else if (i == 10) {
			if (c != '.')
				return 0;
		} else if (i == 11) {
			if (c < '0' || c > '7')
				return 0;
		} else if (!isxdigit(c)) {
			return 0;
		} else {
			addr[i] = (char)tolower(c);
		}
	}
	*bar = -1;
	if (!slash)
		return 1;
	if (strncasecmp(slash, "/bar", 4) || slash[4] < '0' || slash[4] > '5' ||
	    slash[5])
		return 0;
	*bar = slash[4] - '0';
	return 1;
}

/* dev is at PCI address addr (and its region in BAR bar, unless -1) */
static int at_pci(const struct iio_device_info *dev, const char *addr, int bar)
{
	struct iio_pci_id id;

	if (strcmp(dev->subsystem, "pci") || strcmp(dev->parent, addr))
		return 0;
	return bar < 0 || (device_pci_id(dev, &id) && device_pci_bar(dev) == bar);
}

/* How many listed devices a PCI address names: exactly one resolves. */
static size_t pci_matches(const char *addr, int bar)
{
	const struct iio_device_info *devs;
	size_t n = device_list(&devs), i, m = 0;

	for (i = 0; i < n; i++)
		m += (size_t)at_pci(&devs[i], addr, bar);
	return m;
}

/*
 * Whether s is @ADDR[:...] with ADDR a number as NUMBERS says (decimal
 * without a leading 0, or 0x hex), in *addr.
 */
static int at_form(const char *s, uint64_t *addr)
{
	char digits[32];
	size_t len;

	if (s[0] != '@')
		return 0;
	len = strcspn(s + 1, ":");
	if (!len || len >= sizeof(digits))
		return 0;
	memcpy(digits, s + 1, len);
	digits[len] = '\0';
	if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
		if (!digits[2] || strspn(digits + 2, "0123456789abcdefABCDEF") !=
		    strlen(digits + 2) || strlen(digits + 2) > 16)
			return 0;
		*addr = strtoull(digits + 2, NULL, 16);
		return 1;
	}
	if (strspn(digits, "0123456789") != len ||
	    (digits[0] == '0' && len > 1) || len > 19)
		return 0;
	*addr = strtoull(digits, NULL, 10);
	return 1;
}

/* The device whose I/O memory holds physical address addr, or NULL. */
static const struct iio_device_info *holder(uint64_t addr)
{
	const struct iio_device_info *devs;
	size_t n = device_list(&devs), i;

	for (i = 0; i < n; i++)
		if (!strcmp(devs[i].type, "mem") && devs[i].physaddr &&
		    addr >= devs[i].physaddr &&
		    addr - devs[i].physaddr < devs[i].size)
			return &devs[i];
	return NULL;
}

static void check_resolved(const char *s, const struct iio_target *t)
{
	const struct iio_device_info *devs, *listed = NULL;
	size_t n = device_list(&devs), i;
	char addr[13];
	int bar;

	/* one of the listed devices (read alone, or from the list) */
	for (i = 0; i < n; i++)
		if (devs[i].nr == t->dev->nr)
			listed = &devs[i];
	FUZZ_ASSERT(listed && !memcmp(listed, t->dev, sizeof(*listed)));
	FUZZ_ASSERT(t->node >= NODE_NONE && t->node <= NODE_EVENT);
	if (pci_form(s, addr, &bar)) {
		/* the one device at that address (and BAR), no node */
		FUZZ_ASSERT(at_pci(t->dev, addr, bar));
		FUZZ_ASSERT(pci_matches(addr, bar) == 1);
		FUZZ_ASSERT(t->node == NODE_NONE && !t->path[0]);
		return;
	}
	if (strchr(s, '/')) {
		FUZZ_ASSERT(!strcmp(t->path, s));
		FUZZ_ASSERT(t->node != NODE_NONE);
		return;
	}
	FUZZ_ASSERT(t->node == NODE_NONE && !t->path[0]);
	/* a number, iioN, or the exact name */
	if (strcmp(t->dev->name, s)) {
		char label[32];

		snprintf(label, sizeof(label), "%u", t->dev->nr);
		FUZZ_ASSERT(!strcmp(s, label) || !strcmp(s, t->dev->label));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size), addr[13];
	static struct iio_target t;
	static struct region r;
	int status, in, out, bar;
	uint64_t addr_at;

	status = FUZZ_CATCH_EXIT(device_resolve(s, &t));
	if (status == -1) {
		check_resolved(s, &t);
	} else {
		FUZZ_ASSERT(status == IIOCTL_EUSAGE);
		/* a PCI address is refused only if not exactly one device */
		FUZZ_ASSERT(!pci_form(s, addr, &bar) ||
			    pci_matches(addr, bar) != 1);
	}

	for (in = 0; in <= 1; in++) {
		for (out = 0; out <= 1; out++) {
			region_opts = (struct region_options){
				.in = in, .out = out, .dma = NULL };
			status = FUZZ_CATCH_EXIT(region_select(&r, s));
			if (status != -1) {
				FUZZ_ASSERT(status == IIOCTL_EUSAGE);
				/* @ADDR that a region holds: refused only
				 * with a window */
				FUZZ_ASSERT(!at_form(s, &addr_at) ||
					    !holder(addr_at) || in || out);
				continue;
			}
			if (s[0] == '@') {
				FUZZ_ASSERT(at_form(s, &addr_at));
				FUZZ_ASSERT(!in && !out);
				FUZZ_ASSERT(r.node == NODE_REGION);
				FUZZ_ASSERT(holder(addr_at) &&
					    holder(addr_at)->nr == r.dev->nr);
			}
			FUZZ_ASSERT(!(in && out));
			FUZZ_ASSERT(r.node == NODE_REGION || r.node == NODE_IN ||
				    r.node == NODE_OUT);
			FUZZ_ASSERT(r.node != NODE_IN || r.dev->in.present);
			FUZZ_ASSERT(r.node != NODE_OUT || r.dev->out.present);
			FUZZ_ASSERT(strlen(r.path) < sizeof(r.path));
		}
	}
	free(s);
	return 0;
}
