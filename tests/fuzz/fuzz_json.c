// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_json.c - libFuzzer harness of iioctl's JSON output: the input is
 * what sysfs says of one device (its lines, in order: name, version,
 * type, physaddr, size, irq, event, listener, read_offset, read_len,
 * write_offset, write_len, vectors, dma_iommu, its PCI parent's vendor,
 * device, class and irq, its dev, its parent's resource (BARs); a line
 * missing keeps a valid value),
 * written to a class folder of the harness's own, and the oracle is
 * iioctl(1)'s JSON section, written from the page: every -j output of a
 * command that ends with status 0 (list -j with every column, info -j,
 * list -H -j) is one valid JSON value, UTF-8, and "an address,
 * an offset, a length, a size and a register's or field's value is a
 * string of 0x and lower-case hex digits without leading zeros": no JSON
 * number above 2^53 (a 64-bit value printed as a number), and each such
 * key ("size", "physaddr", "offset", "length", "value", "header_type")
 * a hex string or null.  Another status must be one of the page's.
 *
 * Run with detect_leaks=0: a command that dies mid-way leaves what it
 * allocated to exit(), which here returns to the harness.
 */
#include <errno.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "columns.h"
#include "fuzz_common.h"
#include "json_check.h"

static char root[64];		/* the harness's fixture */

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	FUZZ_ASSERT(f);
	fputs(text, f);
	fputc('\n', f);
	fclose(f);
}

static void make_dir(const char *path)
{
	FUZZ_ASSERT(!mkdir(path, 0755) || errno == EEXIST);
}

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* The fixture goes with the process. */
static void remove_root(void)
{
	nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char *const dirs[] = {
		"sys", "dev", "sys/iio0", "pci", "pci/0000:00:10.0", "bus",
		"bus/pci",
	};
	char path[512], dev[512], target[512];
	size_t i;

	(void)argc;
	(void)argv;
	snprintf(root, sizeof(root), "/tmp/fuzz-json-XXXXXX");
	FUZZ_ASSERT(mkdtemp(root));
	atexit(remove_root);
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		make_dir(path);
	}
	snprintf(path, sizeof(path), "%s/pci/0000:00:10.0/subsystem", root);
	snprintf(target, sizeof(target), "%s/bus/pci", root);
	FUZZ_ASSERT(!symlink(target, path));
	snprintf(path, sizeof(path), "%s/sys/iio0/device", root);
	snprintf(target, sizeof(target), "%s/pci/0000:00:10.0", root);
	FUZZ_ASSERT(!symlink(target, path));
	snprintf(path, sizeof(path), "%s/sys", root);
	snprintf(dev, sizeof(dev), "%s/dev", root);
	device_set_roots(xstrdup(path), xstrdup(dev));
	/* the names pci.ids gives are not the input: no file, no cost */
	setenv("IIOCTL_PCIIDS", "/nonexistent/pci.ids", 1);
	return 0;
}

/* The attributes, in the order of the input's lines, and their defaults. */
static const struct {
	const char *file;	/* under sys/iio0, or pci/... for "../" */
	const char *init;
} attrs[] = {
	{ "name", "edu" }, { "version", "1.0" }, { "type", "mem" },
	{ "physaddr", "0xfea00000" }, { "size", "0x100000" }, { "irq", "11" },
	{ "event", "0" }, { "listener", "0" }, { "read_offset", "0x0" },
	{ "read_len", "0x1000" }, { "write_offset", "0x1000" },
	{ "write_len", "0x1000" }, { "vectors", "1" },
	{ "dma_iommu", "unsafe" }, { "../vendor", "0x1234" },
	{ "../device", "0x11e8" }, { "../class", "0x00ff00" },
	{ "../irq", "11" }, { "dev", "250:0" },
	{ "../resource", "0x00000000fea00000 0x00000000feafffff 0x0000000000040200" },
};
#define NATTRS (sizeof(attrs) / sizeof(attrs[0]))

static void write_attrs(char *text)
{
	char dir[512], *line = text, *next;
	size_t i;

	for (i = 0; i < NATTRS; i++) {
		const char *value = attrs[i].init, *file = attrs[i].file;

		if (line) {
			next = strchr(line, '\n');
			if (next)
				*next++ = '\0';
			value = line;
			line = next;
		}
		if (!strncmp(file, "../", 3))
			snprintf(dir, sizeof(dir), "%s/pci/0000:00:10.0", root);
		else
			snprintf(dir, sizeof(dir), "%s/sys/iio0", root);
		write_file(dir, file + (file[0] == '.' ? 3 : 0), value);
	}
}

/* Runs argv with stdout into memory; checks its JSON if it ends with 0. */
static void run_json(int argc, const char **argv)
{
	FILE *saved = stdout;
	char *out = NULL;
	size_t len = 0;
	int status, rc = -1;
	const char *why;

	stdout = open_memstream(&out, &len);
	FUZZ_ASSERT(stdout);
	status = FUZZ_CATCH_EXIT(rc = iioctl_run_command(argc, argv));
	fclose(stdout);
	stdout = saved;
	if (status == -1)
		status = rc;
	fuzz_check_status(status);
	if (!status) {
		why = json_check(out, len);
		if (why) {
			fprintf(stderr, "fuzz: %s -j: %s in:\n%.*s\n", argv[0], why,
				(int)len, out);
			abort();
		}
	}
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size), cols[1024] = "";
	size_t i, n = 0;

	write_attrs(text);
	for (i = 0; i < ncolumns; i++)
		n += (size_t)snprintf(cols + n, sizeof(cols) - n, "%s%s",
				      i ? "," : "", columns[i].name);
	run_json(4, (const char *[]){ "list", "-j", "-o", cols, NULL });
	run_json(3, (const char *[]){ "info", "-j", "iio0", NULL });
	run_json(3, (const char *[]){ "list", "-H", "-j", NULL });
	free(text);
	return 0;
}
