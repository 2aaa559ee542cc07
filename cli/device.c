// SPDX-License-Identifier: GPL-2.0-only
/*
 * device.c - enumeration of /sys/class/iio, DEV resolution, node paths
 * and the node cache
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "../kmod/iio_uapi.h"
#include "common.h"
#include "device.h"
#include "lookup.h"

static const char *sysfs_root = "/sys/class/iio";
static const char *dev_root = "/dev";

void device_set_roots(const char *sysfs, const char *dev)
{
	if (sysfs)
		sysfs_root = sysfs;
	if (dev)
		dev_root = dev;
}

const char *device_sysfs_root(void)
{
	return sysfs_root;
}

/* The attribute's first line, or false if it cannot be read. */
static bool read_attr(const char *dir, const char *attr, char *buf,
		      size_t size)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir,
			     attr) >= sizeof(path))
		return false;
	return !udrv_read_line(path, buf, size);
}

/*
 * A number attribute up to @max; false if it is absent, dies if it is not
 * a number or above @max.
 */
static bool read_num_attr_present(const struct iio_device_info *d,
				  const char *dir, const char *attr,
				  uint64_t max, uint64_t *v)
{
	char buf[64];

	if (!read_attr(dir, attr, buf, sizeof(buf)))
		return false;
	if (parse_u64(buf, 0, max, v))
		die(IIOCTL_EDEVICE, "%s: unexpected value '%s' in %s/%s",
		    d->label, buf, dir, attr);
	return true;
}

static uint64_t read_num_attr(const struct iio_device_info *d,
			      const char *dir, const char *attr, uint64_t max)
{
	uint64_t v;

	if (!read_num_attr_present(d, dir, attr, max, &v))
		die_perror(IIOCTL_EDEVICE, "%s: cannot read %s/%s", d->label,
			   dir, attr);
	return v;
}

/* The reserved attribute's "OFFSET LEN" lines (absent: none). */
static void read_reserved(struct iio_device_info *d, const char *dir)
{
	char path[PATH_MAX], buf[256], *line, *save = NULL;
	ssize_t n;
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/reserved",
			     dir) >= sizeof(path))
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *len = strchr(line, ' ');
		struct iio_reserved *r = &d->reserved[d->nreserved];

		if (len)
			*len++ = '\0';
		if (d->nreserved == DEVICE_RESERVED_MAX || !len ||
		    parse_u64(line, 0, UINT64_MAX, &r->offset) ||
		    parse_u64(len, 0, UINT64_MAX, &r->len))
			die(IIOCTL_EDEVICE, "%s: unexpected line '%s' in %s",
			    d->label, line, path);
		d->nreserved++;
	}
}

static void read_window(struct iio_device_info *d, const char *dir,
			const char *offset_attr, const char *len_attr,
			struct iio_window *w)
{
	w->present = read_num_attr_present(d, dir, len_attr, UINT64_MAX,
					   &w->len);
	if (w->present)
		w->offset = read_num_attr(d, dir, offset_attr, UINT64_MAX);
}

/* The last component of the symlink dir/name's target, or "". */
static void read_link_name(const char *dir, const char *name, char *buf,
			   size_t size)
{
	char path[PATH_MAX];

	buf[0] = '\0';
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir,
			     name) < sizeof(path))
		udrv_link_name(path, buf, size);
}

/* Fills d from sysfs; false if the device is not (or no longer) there. */
static bool read_device(unsigned nr, struct iio_device_info *d)
{
	char dir[PATH_MAX], probe[64];

	memset(d, 0, sizeof(*d));
	d->nr = nr;
	snprintf(d->label, sizeof(d->label), "iio%u", nr);
	snprintf(dir, sizeof(dir), "%s/%s", sysfs_root, d->label);
	if (!read_attr(dir, "name", d->name, sizeof(d->name)))
		return false;
	read_attr(dir, "version", d->version, sizeof(d->version));
	read_attr(dir, "type", d->type, sizeof(d->type));
	read_attr(dir, "irq", d->irq, sizeof(d->irq));
	read_attr(dir, "dev", d->dev, sizeof(d->dev));
	d->physaddr = read_num_attr(d, dir, "physaddr", UINT64_MAX);
	d->size = read_num_attr(d, dir, "size", UINT64_MAX);
	/* counts are the kernel's 32-bit ones (iio(4)): JSON numbers */
	d->events = read_num_attr(d, dir, "event", UINT32_MAX);
	d->listeners = read_num_attr(d, dir, "listener", UINT32_MAX);
	/*
	 * older frameworks (and the host fixture) have no vectors; at most
	 * IIO_MAX_VECTORS (iio(4)): more is no device of ours, and would
	 * have info print that many event nodes
	 */
	if (!read_num_attr_present(d, dir, "vectors", IIO_MAX_VECTORS,
				   &d->vectors))
		d->vectors = 1;
	/* every dmaK/: a freed buffer leaves a hole (dma1 without dma0) */
	for (unsigned k = 0; k < DEVICE_DMA_MAX; k++) {
		char size_attr[32];

		snprintf(size_attr, sizeof(size_attr), "dma%u/size", k);
		if (read_attr(dir, size_attr, probe, sizeof(probe)))
			d->dma_buffers++;
	}
	read_window(d, dir, "read_offset", "read_len", &d->in);
	read_window(d, dir, "write_offset", "write_len", &d->out);
	read_reserved(d, dir);
	read_link_name(dir, "device", d->parent, sizeof(d->parent));
	read_link_name(dir, "device/subsystem", d->subsystem,
		       sizeof(d->subsystem));
	return true;
}

/* N of "iioN" (decimal, no leading zero), or -1: libudrv's lookup.h. */
static long parse_label(const char *s)
{
	return udrv_iio_label_parse(s);
}

static int compare_nr(const void *a, const void *b)
{
	const struct iio_device_info *x = a, *y = b;

	return (x->nr > y->nr) - (x->nr < y->nr);
}

/* The class folder, open for next_device_nr(); dies if it cannot be read. */
static DIR *open_class_dir(void)
{
	DIR *dir = opendir(sysfs_root);

	if (!dir && errno == ENOENT && !strcmp(sysfs_root, "/sys/class/iio"))
		die(IIOCTL_EDEVICE, "no %s: iio.ko is not loaded (modprobe a stub, such as iio_edu, or iio; see iio(4))",
		    sysfs_root);
	if (!dir)
		die_perror(IIOCTL_EDEVICE, "cannot read %s", sysfs_root);
	return dir;
}

/* N of the class folder's next iioN entry, or -1 after the last. */
static long next_device_nr(DIR *dir)
{
	struct dirent *e;
	long nr;

	while ((e = readdir(dir)))
		if ((nr = parse_label(e->d_name)) >= 0)
			return nr;
	return -1;
}

static struct iio_device_info *devices;
static size_t ndevices;
static bool listed;

size_t device_list_fresh(const struct iio_device_info **devs)
{
	size_t cap = 0;
	DIR *dir;
	long nr;

	free(devices);
	devices = NULL;
	ndevices = 0;
	dir = open_class_dir();
	while ((nr = next_device_nr(dir)) >= 0) {
		if (ndevices == cap) {
			cap = cap ? 2 * cap : 8;
			devices = xrealloc(devices, cap * sizeof(*devices));
		}
		if (read_device((unsigned)nr, &devices[ndevices]))
			ndevices++;
	}
	closedir(dir);
	if (ndevices)
		qsort(devices, ndevices, sizeof(*devices), compare_nr);
	listed = true;
	*devs = devices;
	return ndevices;
}

size_t device_list(const struct iio_device_info **devs)
{
	if (!listed)
		return device_list_fresh(devs);
	*devs = devices;
	return ndevices;
}

const char *node_suffix(enum iio_node node)
{
	static const char *const suffixes[] = {
		[NODE_REGION] = "", [NODE_IN] = "_in", [NODE_OUT] = "_out",
		[NODE_EVENT] = "_event",
	};

	return node >= NODE_REGION && node <= NODE_EVENT ? suffixes[node] : "";
}

/*
 * "iioN[_suffix]" → N and the node; -1 if the name is not one (the event
 * nodes of vectors 1 and up are not DEVs).
 */
static long parse_node_name(const char *name, enum iio_node *node)
{
	enum udrv_iio_node kind;
	unsigned int vector;
	long nr = udrv_iio_node_parse(name, &kind, &vector);

	if (nr < 0 || vector)
		return -1;
	*node = (enum iio_node)kind;
	return nr;
}

static noreturn void die_no_device(const char *fmt, const char *arg)
{
	const struct iio_device_info *devs;
	char list[1024] = "";
	size_t n, i, len = 0;

	n = device_list(&devs);
	for (i = 0; i < n && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len,
					"%s%s '%s'", i ? ", " : "",
					devs[i].label, msg_word(devs[i].name));
	if (n)
		die(IIOCTL_EUSAGE, "%s %s (devices: %s)", fmt, msg_word(arg),
		    list);
	die(IIOCTL_EUSAGE, "%s %s (no devices under %s)", fmt, msg_word(arg),
	    sysfs_root);
}

/*
 * Devices read one by one, before (or without) the whole list: resolving
 * iioN, N or a node path reads that device alone, a name each device's
 * name alone.  Kept for the process, like the list, each in its own
 * allocation so that targets stay valid.
 */
struct device_entry {
	struct device_entry *next;
	struct iio_device_info info;
};
static struct device_entry *read_singly;

static const struct iio_device_info *find_nr(long nr)
{
	struct device_entry *e;
	size_t i;

	if (listed) {
		for (i = 0; i < ndevices; i++)
			if ((long)devices[i].nr == nr)
				return &devices[i];
		return NULL;
	}
	for (e = read_singly; e; e = e->next)
		if ((long)e->info.nr == nr)
			return &e->info;
	if (nr < 0 || nr > INT_MAX)
		return NULL;
	e = xmalloc(sizeof(*e));
	if (!read_device((unsigned)nr, &e->info)) {
		free(e);
		return NULL;
	}
	e->next = read_singly;
	read_singly = e;
	return &e->info;
}

/* The most devices of one name an ambiguity message lists */
#define NAMED_MAX 64

static int compare_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/*
 * The devices named name, by number (at most max of them): only the
 * name attributes are read unless the list is; returns how many there
 * are (it may exceed max).
 */
static size_t find_named(const char *name, long *nrs, size_t max)
{
	size_t i, n = 0;
	long found;

	if (listed) {
		for (i = 0; i < ndevices; i++)
			if (!strcmp(devices[i].name, name) && n++ < max)
				nrs[n - 1] = devices[i].nr;
		return n;
	}
	found = udrv_iio_find_named(sysfs_root, name, nrs, max);
	if (found < 0) {
		errno = (int)-found;
		die_perror(IIOCTL_EDEVICE, "cannot read %s", sysfs_root);
	}
	return (size_t)found;
}

int device_pci_bar(const struct iio_device_info *dev)
{
	char path[PATH_MAX];
	int bar, err;

	device_attr_path(dev, "device/resource", path, sizeof(path));
	err = udrv_pci_bar_holding(path, dev->physaddr, &bar, NULL);
	if (err) {
		errno = -err;
		die_perror(IIOCTL_EDEVICE, "cannot read %s", path);
	}
	return bar;
}

bool device_pci_id(const struct iio_device_info *dev, struct iio_pci_id *id)
{
	static const char *const attrs[] = { "vendor", "device", "class" };
	unsigned *fields[] = { &id->vendor, &id->device, &id->class };
	char dir[PATH_MAX], buf[64];
	uint64_t v;
	size_t i;

	if (strcmp(dev->subsystem, "pci"))
		return false;
	device_attr_path(dev, "device", dir, sizeof(dir));
	for (i = 0; i < 3; i++) {
		if (!read_attr(dir, attrs[i], buf, sizeof(buf)) ||
		    parse_u64(buf, 0, 0xffffff, &v))
			return false;
		*fields[i] = (unsigned)v;
	}
	return true;
}

/*
 * ADDR/barN names no iio device: say which BARs of ADDR hold one (or,
 * for a PCI device without iio devices, list the devices).
 */
static noreturn void die_no_bar(const char *arg, const char *addr, int bar)
{
	const struct iio_device_info *devs;
	char bars[512] = "";
	size_t n, i, len = 0;

	n = device_list(&devs);
	for (i = 0; i < n && len < sizeof(bars); i++)
		if (!strcmp(devs[i].subsystem, "pci") &&
		    !strcmp(devs[i].parent, addr))
			len += (size_t)snprintf(bars + len, sizeof(bars) - len,
						"%s%s in bar%d", len ? ", " : "",
						devs[i].label,
						device_pci_bar(&devs[i]));
	if (!len)
		die_no_device("no device at PCI address", arg);
	die(IIOCTL_EUSAGE, "no iio device in BAR %d of PCI device %s (its iio devices: %s)",
	    bar, addr, bars);
}

/* DEV as a PCI address: the iio device of that PCI device (and BAR). */
static void resolve_pci(const char *arg, const char *addr, int bar,
			struct iio_target *t)
{
	const struct iio_device_info *devs;
	char candidates[512] = "";
	size_t n, i, len = 0, matches = 0;

	n = device_list(&devs);
	for (i = 0; i < n; i++) {
		if (strcmp(devs[i].subsystem, "pci") ||
		    strcmp(devs[i].parent, addr))
			continue;
		if (bar >= 0 && device_pci_bar(&devs[i]) != bar)
			continue;
		t->dev = &devs[i];
		matches++;
		if (len < sizeof(candidates))
			len += (size_t)snprintf(candidates + len,
						sizeof(candidates) - len,
						"%s%s '%s'", matches > 1 ? ", " : "",
						devs[i].label, devs[i].name);
	}
	if (matches > 1)
		die(IIOCTL_EUSAGE, "PCI device %s has several iio devices: %s (pick one with %s/barN)",
		    arg, candidates, addr);
	if (!matches && bar >= 0)
		die_no_bar(arg, addr, bar);
	if (!matches)
		die_no_device("no device at PCI address", arg);
}

void device_resolve(const char *arg, struct iio_target *t)
{
	char pci_addr[UDRV_PCI_ADDR_LEN];
	int bar;
	long named[NAMED_MAX];
	char candidates[512] = "";
	size_t n, i, len = 0;
	const char *base;
	struct stat st;
	uint64_t num;
	long nr;

	memset(t, 0, sizeof(*t));
	t->node = NODE_NONE;
	if (!udrv_pci_address_parse(arg, pci_addr, &bar)) {
		resolve_pci(arg, pci_addr, bar, t);
		return;
	}
	if (strchr(arg, '/')) {
		if (strlen(arg) >= sizeof(t->path))
			die(IIOCTL_EUSAGE, "device path too long: %s",
			    msg_word(arg));
		copy_string(t->path, sizeof(t->path), arg);
		if (!stat(arg, &st) && S_ISCHR(st.st_mode)) {
			/* ours if the device's dev attribute has its major */
			char want[32];

			unsigned int index = minor(st.st_rdev) %
					     IIO_MINORS_PER_DEVICE;

			nr = (long)(minor(st.st_rdev) / IIO_MINORS_PER_DEVICE);
			t->node = (enum iio_node)index;
			t->dev = find_nr(nr);
			snprintf(want, sizeof(want), "%u:%u", major(st.st_rdev),
				 (unsigned)nr * IIO_MINORS_PER_DEVICE);
			/* the event nodes of vectors 1 and up are not DEVs */
			if (!t->dev || strcmp(t->dev->dev, want) ||
			    index > IIO_MINOR_EVENT)
				die(IIOCTL_EUSAGE, "%s is not an iio node",
				    msg_word(arg));
			return;
		} else {
			base = strrchr(arg, '/') + 1;
			nr = parse_node_name(base, &t->node);
			if (nr < 0)
				die(IIOCTL_EUSAGE,
				    "%s is not an iio node (iioN, iioN_in, iioN_out or iioN_event)",
				    msg_word(arg));
		}
		t->dev = find_nr(nr);
		if (!t->dev)
			die_no_device("no device for", arg);
		return;
	}
	nr = parse_label(arg);
	if (nr < 0 && arg[strspn(arg, "0123456789")] == '\0' &&
	    !parse_u64(arg, 0, INT_MAX, &num))
		nr = (long)num;
	if (nr >= 0) {
		t->dev = find_nr(nr);
		if (!t->dev)
			die_no_device("no device", arg);
		return;
	}
	n = find_named(arg, named, NAMED_MAX);
	if (n > 1) {
		if (n > NAMED_MAX)
			n = NAMED_MAX;
		qsort(named, n, sizeof(*named), compare_long);
		for (i = 0; i < n && len < sizeof(candidates); i++)
			len += (size_t)snprintf(candidates + len,
						sizeof(candidates) - len,
						"%siio%ld", i ? ", " : "",
						named[i]);
		die(IIOCTL_EUSAGE, "device name '%s' is ambiguous: %s",
		    msg_word(arg), candidates);
	}
	if (n)
		t->dev = find_nr(named[0]);
	if (!t->dev)
		die_no_device("no device named", arg);
}

void device_resolve_address(const char *arg, struct iio_target *t,
			    uint64_t *offset)
{
	const struct iio_device_info *devs;
	char *number = xstrdup(arg + 1), why[WHY_MAX];
	uint64_t addr;
	size_t n, i;
	bool ok;

	memset(t, 0, sizeof(*t));
	t->node = NODE_REGION;
	number[strcspn(number, ":")] = '\0';
	ok = parse_number(number, "physical address", 0, UINT64_MAX, &addr,
			  why);
	free(number);
	if (!ok)
		die(IIOCTL_EUSAGE, "%s", why);
	n = device_list(&devs);
	for (i = 0; i < n; i++) {
		const struct iio_device_info *d = &devs[i];

		if (strcmp(d->type, "mem") || !d->physaddr ||
		    addr < d->physaddr || addr - d->physaddr >= d->size)
			continue;
		t->dev = d;
		*offset = addr - d->physaddr;
		return;
	}
	die(IIOCTL_EUSAGE, "no region holds physical address 0x%llx (iioctl list shows each device's physaddr and size; or give DEV OFFSET)",
	    (unsigned long long)addr);
}

void device_attr_path(const struct iio_device_info *dev, const char *attr,
		      char *buf, size_t size)
{
	snprintf(buf, size, "%s/%s/%s", sysfs_root, dev->label, attr);
}

void dma_path(const struct iio_device_info *dev, unsigned k,
	      const char *file, char *buf, size_t size)
{
	char name[64];

	snprintf(name, sizeof(name), "dma%u/%s", k, file);
	device_attr_path(dev, name, buf, size);
}

bool device_dma_size(const struct iio_device_info *dev, unsigned k,
		     uint64_t *size)
{
	char dir[PATH_MAX], name[32];

	snprintf(name, sizeof(name), "dma%u", k);
	device_attr_path(dev, name, dir, sizeof(dir));
	return read_num_attr_present(dev, dir, "size", UINT64_MAX, size);
}

bool device_dma_bus_addr(const struct iio_device_info *dev, unsigned k,
			 uint64_t *bus_addr)
{
	char path[PATH_MAX], buf[64];
	int err;

	dma_path(dev, k, "bus_addr", path, sizeof(path));
	err = udrv_read_line(path, buf, sizeof(buf));
	if (err == -EACCES || err == -EPERM)
		return false;
	if (err) {
		errno = -err;
		die_perror(IIOCTL_EDEVICE, "%s: cannot read %s", dev->label,
			   path);
	}
	if (parse_u64(buf, 0, UINT64_MAX, bus_addr))
		die(IIOCTL_EDEVICE, "%s: unexpected value '%s' in %s",
		    dev->label, buf, path);
	return true;
}

void vector_event_path(const struct iio_device_info *dev, unsigned k,
		       char *buf, size_t size)
{
	if (!k)
		node_path(dev, NODE_EVENT, buf, size);
	else
		snprintf(buf, size, "%s/%s_event%u", dev_root, dev->label, k);
}

uint32_t device_vector_event_count(const struct iio_device_info *dev,
				   unsigned k)
{
	char dir[PATH_MAX], node[32];

	if (!k)
		return device_event_count(dev);
	snprintf(node, sizeof(node), "%s_event%u", dev->label, k);
	device_attr_path(dev, node, dir, sizeof(dir));
	return (uint32_t)read_num_attr(dev, dir, "event", UINT32_MAX);
}

uint32_t device_event_count(const struct iio_device_info *dev)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/%s", sysfs_root, dev->label);
	return (uint32_t)read_num_attr(dev, dir, "event", UINT32_MAX);
}

void target_event_path(const struct iio_target *t, char *buf, size_t size)
{
	if (t->node == NODE_EVENT)
		copy_string(buf, size, t->path);
	else
		node_path(t->dev, NODE_EVENT, buf, size);
}

bool device_has_events(const struct iio_device_info *dev)
{
	return strcmp(dev->irq, "none") != 0;
}

struct iio_window device_window(const struct iio_device_info *dev,
				enum iio_node node)
{
	switch (node) {
	case NODE_IN:
		return dev->in;
	case NODE_OUT:
		return dev->out;
	default:
		return (struct iio_window){ true, 0, dev->size };
	}
}

void node_path(const struct iio_device_info *dev, enum iio_node node,
	       char *buf, size_t size)
{
	snprintf(buf, size, "%s/%s%s", dev_root, dev->label,
		 node_suffix(node));
}

#define NODE_CACHE_SIZE 16

static struct {
	char *path;
	int flags;
	int fd;
} node_cache[NODE_CACHE_SIZE];
static unsigned node_cache_next;

int node_open(const char *path, int flags)
{
	unsigned i;
	int fd;

	for (i = 0; i < NODE_CACHE_SIZE; i++)
		if (node_cache[i].path && node_cache[i].flags == flags &&
		    !strcmp(node_cache[i].path, path))
			return node_cache[i].fd;
	fd = open(path, flags | O_CLOEXEC);
	if (fd < 0)
		return -1;
	i = node_cache_next++ % NODE_CACHE_SIZE;
	if (node_cache[i].path) {
		close(node_cache[i].fd);
		free(node_cache[i].path);
	}
	node_cache[i].path = xstrdup(path);
	node_cache[i].flags = flags;
	node_cache[i].fd = fd;
	return fd;
}
