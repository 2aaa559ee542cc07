// SPDX-License-Identifier: GPL-2.0-only
/*
 * irq_rtt.c - interrupt round trip on QEMU's edu, ours against mainline UIO
 *
 * usage: irq_rtt MODE DEV ROUNDS OUTFILE
 *        irq_rtt stats OUTFILE
 *
 * One round: take t0, store 1 to edu's raise register (0x60) through the
 * mapping, block in read() on the event node until the interrupt is
 * reported (t1), then do whatever user space must do before the next
 * interrupt can come (t2):
 *   edu	iio_edu: nothing (the stub acknowledges in its handler)
 *		DEV = N of /dev/iioN
 *   intx	iio_pci_generic INTx: acknowledge the device (0x64), write a
 *		u32 1 to the event node (the stub unmasks INTx)
 *   msi	iio_pci_generic MSI: acknowledge the device (0x64)
 *   uio	uio_pci_generic: acknowledge the device (0x64), then clear
 *		PCI_COMMAND_INTX_DISABLE with a 2-byte pwrite at offset 4
 *		of the device's sysfs config file; DEV = PCI address
 *		(0000:00:12.0), the uio node is found under its uio/ folder
 *   udrv	through libudrv, on whatever DEV (a PCI address) is bound to
 *		(iio_pci_generic or vfio-pci): the raise and acknowledge
 *		through udrv_region_map()'s mapping, udrv_event_wait() for
 *		the interrupt, udrv_event_unmask() after it (nothing with
 *		MSI); every wait must return 1 event
 * round = t2 - t0, raise-to-read = t1 - t0.  Every read must return the
 * previous count + 1 (else the round is counted as lost).
 *
 * Each run appends ROUNDS pairs of uint32 nanoseconds (round, r2r) to
 * OUTFILE and prints "median_ns p99_ns r2r_median_ns lost".  stats prints
 * the pooled "n median p99 r2r_median r2r_p99 min" of a file.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "now_ns.h"
#include "../tests/lib/iio_raw.h"
#include "udrv.h"

#define EDU_IRQ_STATUS	0x24
#define EDU_IRQ_RAISE	0x60
#define EDU_IRQ_ACK	0x64
#define PCI_COMMAND	4
#define PCI_COMMAND_INTX_DISABLE 0x400
#define WARMUP		100

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("irq_rtt: ", stderr);
	vfprintf(stderr, fmt, ap);
	if (errno)
		fprintf(stderr, ": %s", strerror(errno));
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static void on_alarm(int sig)
{
	(void)sig;
	static const char msg[] = "irq_rtt: no interrupt within 5 s\n";

	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(3);
	_exit(3);
}

static volatile uint32_t *map_regs(const char *path)
{
	int fd = open(path, O_RDWR | O_SYNC);
	void *p;

	if (fd < 0)
		die("open %s", path);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap %s", path);
	close(fd);
	return p;
}

/*
 * @arr (from malloc, or NULL) resized to @n elements of @size bytes, or
 * die: the caller's pointer is only replaced by a successful realloc().
 * The first block comes from malloc(), not realloc(NULL, ...) (the same
 * thing): GCC 12's -fanalyzer takes two NULLs given to realloc() for one
 * pointer freed twice (tests/analyze's fanalyzer, a false double free).
 */
static void *grow(void *arr, size_t n, size_t size)
{
	void *p;

	if (n > SIZE_MAX / size) {
		errno = ENOMEM;
		die("out of memory");
	}
	p = arr ? realloc(arr, n * size) : malloc(n * size);
	if (!p)
		die("out of memory");
	return p;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static uint32_t pct(const uint32_t *sorted, size_t n, double p)
{
	size_t i = (size_t)(p * (double)(n - 1) + 0.5);

	return sorted[i < n ? i : n - 1];
}

static int stats(const char *file)
{
	FILE *f = fopen(file, "rb");
	uint32_t *rt = NULL, *rr = NULL, pair[2];
	size_t n = 0, cap = 0;

	if (!f)
		die("open %s", file);
	while (fread(pair, sizeof(pair), 1, f) == 1) {
		if (n == cap) {
			cap = cap ? 2 * cap : 4096;
			rt = grow(rt, cap, sizeof(*rt));
			rr = grow(rr, cap, sizeof(*rr));
		}
		rt[n] = pair[0];
		rr[n++] = pair[1];
	}
	fclose(f);
	if (!n) {
		errno = 0;
		die("%s: no samples", file);
	}
	qsort(rt, n, sizeof(*rt), cmp_u32);
	qsort(rr, n, sizeof(*rr), cmp_u32);
	printf("%zu %u %u %u %u %u\n", n, pct(rt, n, 0.5), pct(rt, n, 0.99),
	       pct(rr, n, 0.5), pct(rr, n, 0.99), rt[0]);
	free(rt);
	free(rr);
	return 0;
}

/* /dev/uioN of a PCI device bound to uio_pci_generic */
static void uio_node(const char *pci, char *path, size_t len)
{
	char dir[256];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "/sys/bus/pci/devices/%.64s/uio", pci);
	d = opendir(dir);
	if (!d)
		die("opendir %s", dir);
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "uio", 3)) {
			snprintf(path, len, "/dev/%.32s", de->d_name);
			closedir(d);
			return;
		}
	errno = 0;
	die("%s: no uio device", dir);
}

int main(int argc, char **argv)
{
	enum { EDU, INTX, MSI, UIO, UDRV } mode;
	struct udrv_device *udev = NULL;
	char path[256], evpath[256];
	volatile uint32_t *regs;
	uint32_t *rt, *rr, count, last, one = 1;
	uint16_t cmd = 0;
	int efd, cfg = -1, rounds, i, lost = 0;
	uint64_t t0, t1, t2;
	FILE *out;

	if (argc == 3 && !strcmp(argv[1], "stats"))
		return stats(argv[2]);
	if (argc != 5) {
		fprintf(stderr, "usage: irq_rtt edu|intx|msi|uio|udrv DEV ROUNDS OUTFILE\n"
			"       irq_rtt stats OUTFILE\n");
		return 2;
	}
	if (!strcmp(argv[1], "edu"))
		mode = EDU;
	else if (!strcmp(argv[1], "intx"))
		mode = INTX;
	else if (!strcmp(argv[1], "msi"))
		mode = MSI;
	else if (!strcmp(argv[1], "uio"))
		mode = UIO;
	else if (!strcmp(argv[1], "udrv"))
		mode = UDRV;
	else
		die("unknown mode %s", argv[1]);
	rounds = atoi(argv[3]);
	if (rounds < 1)
		die("bad ROUNDS");

	if (mode == UDRV) {
		volatile void *p;

		if (udrv_device_open(argv[2], &udev) ||
		    udrv_region_map(udev, 0, &p, NULL) ||
		    udrv_event_fd(udev, 0) < 0) {
			errno = 0;
			die("%s", udrv_strerror());
		}
		regs = p;
		efd = -1;
		snprintf(evpath, sizeof(evpath), "%s vector 0", argv[2]);
	} else if (mode == UIO) {
		uio_node(argv[2], evpath, sizeof(evpath));
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%.64s/resource0",
			 argv[2]);
		regs = map_regs(path);
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%.64s/config",
			 argv[2]);
		cfg = open(path, O_RDWR);
		if (cfg < 0 || pread(cfg, &cmd, 2, PCI_COMMAND) != 2)
			die("%s", path);
		cmd &= (uint16_t)~PCI_COMMAND_INTX_DISABLE;
		efd = open(evpath, O_RDWR);
		if (efd < 0)
			die("open %s", evpath);
	} else {
		struct iio_raw_map m;
		int nr = atoi(argv[2]);

		if (iio_raw_map(nr, 4096, &m) < 0 ||
		    (efd = iio_raw_event_open(nr, 0, evpath,
						  sizeof(evpath))) < 0) {
			errno = 0;
			die("%s", iio_raw_error());
		}
		regs = m.p;
	}

	/* a clean start: nothing pending, INTx unmasked */
	regs[EDU_IRQ_ACK / 4] = regs[EDU_IRQ_STATUS / 4];
	if (mode == UIO && pwrite(cfg, &cmd, 2, PCI_COMMAND) != 2)
		die("unmask");
	if (mode == INTX && write(efd, &one, 4) != 4)
		die("unmask");
	if (mode == UDRV && (udrv_event_consume(udev, 0) < 0 ||
			     udrv_event_unmask(udev, 0))) {
		errno = 0;
		die("%s", udrv_strerror());
	}

	rt = calloc((size_t)rounds, sizeof(*rt));
	rr = calloc((size_t)rounds, sizeof(*rr));
	if (!rt || !rr)
		die("out of memory");
	signal(SIGALRM, on_alarm);
	last = 0;
	for (i = -WARMUP; i < rounds; i++) {
		alarm(5);
		t0 = now_ns();
		regs[EDU_IRQ_RAISE / 4] = 1;
		if (mode == UDRV) {
			int64_t n = udrv_event_wait(udev, 0, 5000);

			if (n < 0) {
				errno = 0;
				die("%s", udrv_strerror());
			}
			count = last + (uint32_t)n;
		} else if (read(efd, &count, 4) != 4) {
			die("read %s", evpath);
		}
		t1 = now_ns();
		switch (mode) {
		case EDU:
			break;
		case INTX:
			regs[EDU_IRQ_ACK / 4] = 1;
			if (write(efd, &one, 4) != 4)
				die("unmask");
			break;
		case MSI:
			regs[EDU_IRQ_ACK / 4] = 1;
			break;
		case UIO:
			regs[EDU_IRQ_ACK / 4] = 1;
			if (pwrite(cfg, &cmd, 2, PCI_COMMAND) != 2)
				die("unmask");
			break;
		case UDRV:
			regs[EDU_IRQ_ACK / 4] = 1;
			if (udrv_event_unmask(udev, 0)) {
				errno = 0;
				die("%s", udrv_strerror());
			}
			break;
		}
		t2 = now_ns();
		if (i > -WARMUP && count != last + 1)
			lost++;
		last = count;
		if (i >= 0) {
			rt[i] = (uint32_t)(t2 - t0);
			rr[i] = (uint32_t)(t1 - t0);
		}
	}
	alarm(0);
	udrv_device_close(udev);

	out = fopen(argv[4], "ab");
	if (!out)
		die("open %s", argv[4]);
	for (i = 0; i < rounds; i++) {
		uint32_t pair[2] = { rt[i], rr[i] };

		fwrite(pair, sizeof(pair), 1, out);
	}
	if (fclose(out))
		die("write %s", argv[4]);
	qsort(rt, (size_t)rounds, sizeof(*rt), cmp_u32);
	qsort(rr, (size_t)rounds, sizeof(*rr), cmp_u32);
	printf("%u %u %u %d\n", pct(rt, (size_t)rounds, 0.5),
	       pct(rt, (size_t)rounds, 0.99), pct(rr, (size_t)rounds, 0.5),
	       lost);
	return lost ? 1 : 0;
}
