// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_dev.c - libFuzzer harness of iioctl's DEV resolver (cli/device.c
 * device_resolve, and cli/region.c region_select with every combination
 * of --in and --out) against the host fixture (tests/host/fixture.sh:
 * iio0 the dummy, iio1 and iio2 "edu", iio3 "pci-testdev").  The input is
 * the DEV string (up to its first NUL).  A DEV either resolves to one of
 * the listed devices, consistently with its form, or is refused with
 * status 2; nothing else.
 */
#include "fuzz_common.h"
#include "region.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_use_fixture();
	return 0;
}

static void check_resolved(const char *s, const struct iio_target *t)
{
	const struct iio_device_info *devs, *listed = NULL;
	size_t n = device_list(&devs), i;

	/* one of the listed devices (read alone, or from the list) */
	for (i = 0; i < n; i++)
		if (devs[i].nr == t->dev->nr)
			listed = &devs[i];
	FUZZ_ASSERT(listed && !memcmp(listed, t->dev, sizeof(*listed)));
	FUZZ_ASSERT(t->node >= NODE_NONE && t->node <= NODE_EVENT);
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
	char *s = fuzz_string(data, size);
	static struct iio_target t;
	static struct region r;
	int status, in, out;

	status = FUZZ_CATCH_EXIT(device_resolve(s, &t));
	if (status == -1)
		check_resolved(s, &t);
	else
		FUZZ_ASSERT(status == IIOCTL_EUSAGE);

	for (in = 0; in <= 1; in++) {
		for (out = 0; out <= 1; out++) {
			region_opts = (struct region_options){
				.in = in, .out = out, .dma = NULL };
			status = FUZZ_CATCH_EXIT(region_select(&r, s));
			if (status != -1) {
				FUZZ_ASSERT(status == IIOCTL_EUSAGE);
				continue;
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
