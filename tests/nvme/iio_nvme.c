// SPDX-License-Identifier: GPL-2.0-only
/*
 * iio_nvme.c - a user-space NVMe driver on iio_pci_generic(4)
 *
 * An example to copy: everything an NVMe driver does, from user space, with
 * nothing but iio_pci_generic in the kernel.
 *
 *   1. bind the PCI function to iio_pci_generic (driver_override + bind)
 *   2. map BAR0, the controller's registers and doorbells (/dev/iioN)
 *   3. ask for one DMA buffer (/sys/class/iio/iioN/dma_request) and carve
 *      it into 4 KiB pages: the queues, the Identify page, data pages
 *   4. reset the controller, give it the admin queues, enable it
 *   5. Identify Controller (model, serial) and Identify Namespace (size)
 *   6. create one I/O queue pair whose completions raise MSI-X vector 1
 *   7. optionally write a block, read it back and restore it
 *   8. read 4 KiB blocks, timing each command, checking the data
 *   9. shut the controller down
 *
 * Completions are taken by blocking on the vector's event node
 * (/dev/iioN_event for vector 0, /dev/iioN_event1 for vector 1), or, with
 * --poll, by spinning on the completion queue's phase bit (the I/O
 * completion queue is then created without an interrupt).
 *
 * usage: iio_nvme [--poll] [--reads N] [--check] [--write LBA]
 *                 [--save FILE] [--timeout MS] PCI_ADDR
 *
 * Every failure is one line "iio_nvme: ..." on stderr and one of the exit
 * statuses below; the program never waits longer than --timeout for the
 * controller.  SIGINT, SIGTERM and SIGHUP disable the controller and exit
 * 128 + the signal.  See tests/nvme/README.md.
 *
 * NVMe in one paragraph (NVM Express Base Specification 1.4, sections 3
 * and 4): the host puts 64-byte commands into a submission queue (SQ) in
 * its memory and writes the new tail index to the SQ's doorbell register;
 * the controller fetches them by DMA, executes them and writes 16-byte
 * completions into a completion queue (CQ) in host memory, each with a
 * phase bit that flips on every pass through the queue, so the host
 * recognises new entries without reading any register; it then raises the
 * CQ's interrupt vector.  The host consumes entries and writes the new head
 * index to the CQ's doorbell.  Queue 0 is the admin queue pair, set up
 * through registers; I/O queues are created with admin commands.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Exit statuses (also in tests/nvme/README.md) */
enum {
	EXIT_OK = 0,
	EXIT_MISMATCH = 1,	/* data read back differs from what it must be */
	EXIT_USAGE = 2,		/* bad command line */
	EXIT_SETUP = 3,		/* binding, sysfs, nodes, mmap, DMA buffer */
	EXIT_CONTROLLER = 4,	/* fatal status, reset/enable timeout, CAP */
	EXIT_COMMAND = 5,	/* a command completed with an error status */
	EXIT_TIMEOUT = 6,	/* no completion in time; CQ out of step */
	EXIT_GONE = 7,		/* device unbound under us (EIO, SIGBUS) */
};

/* ---- controller registers (offsets into BAR0) ---- */
#define REG_CAP		0x00	/* 64 bit: capabilities */
#define REG_VS		0x08	/* version */
#define REG_CC		0x14	/* controller configuration */
#define REG_CSTS	0x1c	/* controller status */
#define REG_AQA		0x24	/* admin queue attributes (sizes) */
#define REG_ASQ		0x28	/* 64 bit: admin SQ base */
#define REG_ACQ		0x30	/* 64 bit: admin CQ base */
#define REG_DOORBELL	0x1000	/* first doorbell */

#define CAP_MQES(c)	((unsigned int)((c) & 0xffff))	/* max entries - 1 */
#define CAP_TO(c)	((unsigned int)(((c) >> 24) & 0xff))	/* 500 ms units */
#define CAP_DSTRD(c)	((unsigned int)(((c) >> 32) & 0xf))	/* stride */
#define CAP_CSS_NVM(c)	(((c) >> 37) & 1)		/* NVM command set */
#define CAP_MPSMIN(c)	((unsigned int)(((c) >> 48) & 0xf))	/* 2^(12+x) */

#define CC_EN		(1u << 0)
#define CC_CSS_NVM	(0u << 4)
#define CC_MPS_4K	(0u << 7)	/* memory page size 2^(12+0) */
#define CC_AMS_RR	(0u << 11)	/* round-robin arbitration */
#define CC_SHN_NORMAL	(1u << 14)	/* shutdown notification */
#define CC_IOSQES	(6u << 16)	/* I/O SQ entry 2^6 = 64 bytes */
#define CC_IOCQES	(4u << 20)	/* I/O CQ entry 2^4 = 16 bytes */

#define CSTS_RDY	(1u << 0)
#define CSTS_CFS	(1u << 1)	/* controller fatal status */
#define CSTS_SHST(s)	(((s) >> 2) & 3)	/* 2: shutdown complete */

/* ---- commands ---- */
#define ADM_CREATE_SQ	0x01
#define ADM_CREATE_CQ	0x05
#define ADM_IDENTIFY	0x06
#define ADM_SET_FEATURES 0x09
#define NVM_WRITE	0x01
#define NVM_READ	0x02

#define CNS_NAMESPACE	0x00
#define CNS_CONTROLLER	0x01
#define FEAT_NUM_QUEUES	0x07

/* a submission queue entry: 64 bytes, little-endian (x86: native) */
struct sqe {
	uint8_t opcode;
	uint8_t flags;		/* FUSE, PSDT: 0 = PRPs */
	uint16_t cid;		/* command identifier, echoed in the CQE */
	uint32_t nsid;
	uint64_t rsvd;
	uint64_t mptr;
	uint64_t prp1;		/* data pointer: first page */
	uint64_t prp2;		/* second page, or a PRP list */
	uint32_t cdw10, cdw11, cdw12, cdw13, cdw14, cdw15;
};

/* a completion queue entry: 16 bytes */
struct cqe {
	uint32_t result;	/* command specific (DW0) */
	uint32_t rsvd;
	uint16_t sq_head;	/* how far the controller has fetched */
	uint16_t sq_id;
	uint16_t cid;
	uint16_t status;	/* bit 0: phase; 15:1 status field */
};

_Static_assert(sizeof(struct sqe) == 64, "SQ entry");
_Static_assert(sizeof(struct cqe) == 16, "CQ entry");

#define STATUS_SC(s)	(((s) >> 1) & 0xff)	/* status code */
#define STATUS_SCT(s)	(((s) >> 9) & 0x7)	/* status code type */
#define STATUS_DNR(s)	(((s) >> 15) & 1)	/* do not retry */

/* ---- the DMA buffer, in 4 KiB pages ---- */
#define PAGE		4096u
#define QDEPTH		64		/* entries of every queue */
#define PG_ASQ		0		/* admin SQ: 64 x 64 bytes */
#define PG_ACQ		1		/* admin CQ: 64 x 16 bytes */
#define PG_IOSQ		2
#define PG_IOCQ		3
#define PG_IDENT	4		/* Identify data */
#define PG_DATA		5		/* data pages, DATA_PAGES of them */
#define DATA_PAGES	3		/* the read, the write, the original */
#define DMA_BYTES	((PG_DATA + DATA_PAGES) * PAGE)
#define IO_BYTES	4096u		/* what one read transfers */
#define LAT_SAMPLES	(1ul << 20)	/* latencies kept for the statistics */

/* ---- the test image (tests/nvme/mkimage): 8-byte words ---- */
static uint64_t image_word(uint64_t byte_offset)
{
	uint64_t block = byte_offset / 512, word = byte_offset % 512 / 8;

	return 0x654d564e00000000ull | (block << 8 | word);	/* "NVMe" */
}

/* ---- state ---- */
struct vector {
	int nr;			/* MSI-X vector (0 also for INTx, MSI) */
	int fd;			/* its event node, -1 if not opened */
	char path[64];
	unsigned long wakeups;	/* reads of the node that returned */
};

struct queue {
	const char *name;	/* "admin", "I/O" */
	uint16_t id;
	struct sqe *sq;
	volatile struct cqe *cq;
	uint16_t sq_tail, cq_head;
	uint16_t phase;		/* the phase bit a new entry carries */
	uint16_t next_cid;
	volatile uint32_t *sq_db, *cq_db;
	struct vector *vec;	/* NULL: poll this queue */
	unsigned long commands;
};

static struct {
	const char *pci;
	int nr;				/* iio device of BAR0 */
	volatile uint32_t *bar;		/* BAR0 mapping */
	size_t bar_len;
	uint8_t *dma;			/* the DMA buffer mapping */
	uint64_t dma_bus;		/* its bus address */
	uint64_t cap;
	bool intx;			/* unmask INTx after each completion */
	struct vector vec[2];
	struct queue admin, io;
	unsigned int timeout_ms;
	bool enabled;			/* CC.EN set by us: disable on exit */
} dev = { .nr = -1, .timeout_ms = 5000 };

/* ---- errors ---- */
__attribute__((noreturn, format(printf, 2, 3)))
static void die(int status, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "iio_nvme: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	/* stop the controller's DMA into our buffer, best effort */
	if (dev.enabled && status != EXIT_GONE)
		dev.bar[REG_CC / 4] = 0;
	exit(status);
}

/* touching a mapping after unbind raises SIGBUS: that is "gone" too */
static void on_sigbus(int sig)
{
	static const char msg[] = "iio_nvme: device gone: SIGBUS on the BAR "
				  "or DMA buffer mapping (unbound?)\n";

	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(EXIT_GONE);
	_exit(EXIT_GONE);
}

/* Ctrl-C, kill: stop the controller's DMA into our buffer, then go */
static void on_signal(int sig)
{
	static const char msg[] = "iio_nvme: interrupted by a signal\n";

	if (dev.enabled)
		dev.bar[REG_CC / 4] = 0;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(128 + sig);
	_exit(128 + sig);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/* ---- sysfs ---- */
/* open the sysfs file named by @fmt and @ap with @flags */
static int sysfs_vopen(int flags, const char *fmt, va_list ap)
{
	char path[PATH_MAX];

	vsnprintf(path, sizeof(path), fmt, ap);
	return open(path, flags);
}

/* the text of a sysfs file, trailing newline cut; NULL (errno) if absent */
static char *sysfs_read(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	ssize_t n;
	int fd;

	va_start(ap, fmt);
	fd = sysfs_vopen(O_RDONLY, fmt, ap);
	va_end(ap);
	if (fd < 0)
		return NULL;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return NULL;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return buf;
}

static int sysfs_write(const char *text, const char *fmt, ...)
{
	va_list ap;
	int fd, err = 0;

	va_start(ap, fmt);
	fd = sysfs_vopen(O_WRONLY, fmt, ap);
	va_end(ap);
	if (fd < 0)
		return errno;
	if (write(fd, text, strlen(text)) < 0)
		err = errno;
	close(fd);
	return err;
}

/* ---- 1. binding ---- */
static void bind_device(void)
{
	char buf[256], link[PATH_MAX], target[PATH_MAX];
	ssize_t n;
	int err;

	if (!sysfs_read(buf, sizeof(buf), "/sys/bus/pci/devices/%s/class",
			dev.pci))
		die(EXIT_SETUP, "no PCI device %s", dev.pci);
	/* 01 08 02: mass storage, non-volatile memory, NVM Express */
	if (strcmp(buf, "0x010802"))
		die(EXIT_SETUP, "%s is not an NVMe controller (class %s)",
		    dev.pci, buf);

	snprintf(link, sizeof(link), "/sys/bus/pci/devices/%s/driver", dev.pci);
	n = readlink(link, target, sizeof(target) - 1);
	if (n >= 0) {
		target[n] = 0;
		if (strcmp(strrchr(target, '/') + 1, "iio_pci_generic"))
			die(EXIT_SETUP, "%s is bound to %s; unbind it first "
			    "(see iio_pci_generic(4))", dev.pci,
			    strrchr(target, '/') + 1);
		return;		/* already ours */
	}
	if (access("/sys/bus/pci/drivers/iio_pci_generic", F_OK))
		die(EXIT_SETUP, "iio_pci_generic is not loaded");
	err = sysfs_write("iio_pci_generic",
			  "/sys/bus/pci/devices/%s/driver_override", dev.pci);
	if (!err)
		err = sysfs_write(dev.pci, "/sys/bus/pci/drivers/iio_pci_generic/bind");
	if (err)
		die(EXIT_SETUP, "binding %s to iio_pci_generic: %s", dev.pci,
		    strerror(err));
}

/* the iio device of BAR0: /sys/bus/pci/devices/ADDR/iio/iioN, "ADDR bar0" */
static int find_bar0(void)
{
	char path[PATH_MAX], want[64], name[64];
	struct dirent *de;
	int nr = -1;
	DIR *dir;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/iio", dev.pci);
	snprintf(want, sizeof(want), "%s bar0", dev.pci);
	dir = opendir(path);
	if (!dir)
		die(EXIT_SETUP, "%s: %s", path, strerror(errno));
	while ((de = readdir(dir)))
		if (!strncmp(de->d_name, "iio", 3) &&
		    sysfs_read(name, sizeof(name), "%s/%s/name", path, de->d_name) &&
		    !strcmp(name, want))
			nr = atoi(de->d_name + 3);
	closedir(dir);
	if (nr < 0)
		die(EXIT_SETUP, "no iio device \"%s\"", want);
	return nr;
}

/* ---- 2. BAR0 ---- */
static uint32_t reg32(uint32_t off)
{
	return dev.bar[off / 4];
}

static void set_reg32(uint32_t off, uint32_t v)
{
	dev.bar[off / 4] = v;
}

/* 64-bit registers as two 32-bit halves, low first (allowed by the spec) */
static void set_reg64(uint32_t off, uint64_t v)
{
	dev.bar[off / 4] = (uint32_t)v;
	dev.bar[off / 4 + 1] = (uint32_t)(v >> 32);
}

static void map_bar0(void)
{
	char buf[64], node[32];
	size_t size, need;
	void *p;
	int fd;

	snprintf(node, sizeof(node), "/dev/iio%d", dev.nr);
	fd = open(node, O_RDWR);
	if (fd < 0)
		die(EXIT_SETUP, "%s: %s", node, strerror(errno));
	if (!sysfs_read(buf, sizeof(buf), "/sys/class/iio/iio%d/size", dev.nr))
		die(EXIT_SETUP, "iio%d/size: %s", dev.nr, strerror(errno));
	size = strtoul(buf, NULL, 0);
	/* CAP first, by pread (one 8-byte read): the doorbell stride says
	 * how much of the BAR to map */
	if (pread(fd, &dev.cap, 8, REG_CAP) != 8)
		die(errno == EIO ? EXIT_GONE : EXIT_SETUP, "reading CAP: %s",
		    strerror(errno));
	if (dev.cap == ~0ull)
		die(EXIT_CONTROLLER, "CAP reads all ones: the device does not answer");
	/* doorbells of queues 0 and 1: four registers */
	need = REG_DOORBELL + 4 * (4u << CAP_DSTRD(dev.cap));
	need = (need + PAGE - 1) / PAGE * PAGE;
	if (need > size)
		die(EXIT_CONTROLLER, "BAR0 of %zu bytes has no room for the doorbells", size);
	p = mmap(NULL, need, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die(EXIT_SETUP, "mmap %s: %s", node, strerror(errno));
	close(fd);	/* the mapping keeps the device */
	dev.bar = p;
	dev.bar_len = need;
}

/* ---- 3. the DMA buffer ---- */
static bool dma_exists(int k)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/class/iio/iio%d/dma%d", dev.nr, k);
	return access(path, F_OK) == 0;
}

/*
 * Buffers live until unbind, at most four per device: reuse one a previous
 * run made if it is large enough, else ask for one.  (One iio_nvme per
 * controller at a time.)
 */
static void get_dma_buffer(void)
{
	char buf[64], path[PATH_MAX], size[32];
	bool had[4];
	int k, use = -1, fd, err;
	void *p;

	for (k = 0; k < 4; k++) {
		had[k] = dma_exists(k);
		if (had[k] && use < 0 &&
		    sysfs_read(buf, sizeof(buf), "/sys/class/iio/iio%d/dma%d/size",
			       dev.nr, k) &&
		    strtoull(buf, NULL, 0) >= DMA_BYTES)
			use = k;
	}
	if (use < 0) {
		snprintf(size, sizeof(size), "%u", DMA_BYTES);
		snprintf(path, sizeof(path), "/sys/class/iio/iio%d/dma_request",
			 dev.nr);
		if (access(path, F_OK))
			die(EXIT_SETUP, "%s is missing: this iio_pci_generic "
			    "cannot add DMA buffers", path);
		err = sysfs_write(size, "%s", path);
		if (err)
			die(EXIT_SETUP, "asking for a DMA buffer of %s bytes: %s",
			    size, strerror(err));
		for (k = 0; k < 4 && use < 0; k++)
			if (!had[k] && dma_exists(k))
				use = k;
		if (use < 0)
			die(EXIT_SETUP, "dma_request made no new dmaK");
	}
	if (!sysfs_read(buf, sizeof(buf), "/sys/class/iio/iio%d/dma%d/bus_addr",
			dev.nr, use))
		die(EXIT_SETUP, "dma%d/bus_addr: %s", use, strerror(errno));
	dev.dma_bus = strtoull(buf, NULL, 0);
	if (dev.dma_bus % PAGE)
		die(EXIT_SETUP, "dma%d is not page-aligned on the bus", use);
	snprintf(path, sizeof(path), "/sys/class/iio/iio%d/dma%d/buffer", dev.nr, use);
	fd = open(path, O_RDWR);
	if (fd < 0)
		die(EXIT_SETUP, "%s: %s", path, strerror(errno));
	p = mmap(NULL, DMA_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die(EXIT_SETUP, "mmap %s: %s", path, strerror(errno));
	close(fd);
	dev.dma = p;
	memset(dev.dma, 0, DMA_BYTES);
}

static void *page_cpu(unsigned int pg)
{
	return dev.dma + (size_t)pg * PAGE;
}

static uint64_t page_bus(unsigned int pg)
{
	return dev.dma_bus + (uint64_t)pg * PAGE;
}

/* ---- interrupts: which vectors, which event nodes ---- */
static void open_vector(struct vector *v, int nr)
{
	v->nr = nr;
	if (nr)
		snprintf(v->path, sizeof(v->path), "/dev/iio%d_event%d", dev.nr, nr);
	else
		snprintf(v->path, sizeof(v->path), "/dev/iio%d_event", dev.nr);
	/* open before the controller can interrupt: a file sees the events
	 * after its open (iio(4)) */
	v->fd = open(v->path, O_RDWR);
	if (v->fd < 0)
		die(EXIT_SETUP, "%s: %s", v->path, strerror(errno));
}

/*
 * MSI-X with 2 or more vectors (iio_pci_generic vectors=N): admin on
 * vector 0, I/O on vector 1.  Otherwise (one MSI-X vector, or INTx) both on
 * vector 0; INTx is masked by the stub's handler and unmasked by us.
 */
static const char *setup_interrupts(bool poll_io)
{
	static char what[256];
	char mode[32] = "intx", buf[32], io[96];
	unsigned int vectors = 1;

	/* irq_mode and vectors are absent on an older iio_pci_generic */
	sysfs_read(mode, sizeof(mode), "/sys/bus/pci/devices/%s/irq_mode", dev.pci);
	if (sysfs_read(buf, sizeof(buf), "/sys/class/iio/iio%d/vectors", dev.nr))
		vectors = strtoul(buf, NULL, 0);
	if (sysfs_read(buf, sizeof(buf), "/sys/class/iio/iio%d/irq", dev.nr) &&
	    !strcmp(buf, "none"))
		strcpy(mode, "none");
	if (!strcmp(mode, "none"))
		die(EXIT_SETUP, "%s has no interrupt (irq_mode none)", dev.pci);
	dev.intx = !strcmp(mode, "intx");

	open_vector(&dev.vec[0], 0);
	dev.admin.vec = &dev.vec[0];
	if (poll_io) {
		dev.io.vec = NULL;
	} else if (!strcmp(mode, "msix") && vectors >= 2) {
		open_vector(&dev.vec[1], 1);
		dev.io.vec = &dev.vec[1];
	} else {
		dev.io.vec = &dev.vec[0];
	}
	if (dev.io.vec)
		snprintf(io, sizeof(io), "on vector %d (%s)", dev.io.vec->nr,
			 dev.io.vec->path);
	else
		snprintf(io, sizeof(io), "polled");
	snprintf(what, sizeof(what), "%s, %u vector%s; admin on vector 0 (%s), "
		 "I/O %s", mode, vectors, vectors == 1 ? "" : "s",
		 dev.vec[0].path, io);
	return what;
}

/* ---- 4. reset and enable ---- */
/* wait until (CSTS & mask) == want, for CAP.TO; fatal status ends it */
static void wait_csts(uint32_t mask, uint32_t want, const char *what)
{
	uint64_t deadline = now_ns() + (CAP_TO(dev.cap) + 1) * 500000000ull;
	uint32_t csts;

	for (;;) {
		csts = reg32(REG_CSTS);
		if (csts == ~0u)
			die(EXIT_GONE, "device gone: CSTS reads all ones");
		if ((csts & mask) == want)
			return;
		if ((csts & CSTS_CFS) && want != 0)
			die(EXIT_CONTROLLER, "controller fatal status (CSTS 0x%x) "
			    "while waiting for %s", csts, what);
		if (now_ns() > deadline)
			die(EXIT_CONTROLLER, "timeout: %s took more than CAP.TO "
			    "(%u ms; CSTS 0x%x)", what, (CAP_TO(dev.cap) + 1) * 500,
			    csts);
		usleep(1000);
	}
}

static void init_queue(struct queue *q, const char *name, uint16_t id,
		       unsigned int sq_pg, unsigned int cq_pg)
{
	unsigned int stride = 4u << CAP_DSTRD(dev.cap);

	q->name = name;
	q->id = id;
	q->sq = page_cpu(sq_pg);
	q->cq = page_cpu(cq_pg);
	q->sq_tail = q->cq_head = 0;
	q->phase = 1;		/* the controller's first pass writes 1 */
	memset(q->sq, 0, PAGE);
	memset((void *)q->cq, 0, PAGE);
	q->sq_db = dev.bar + (REG_DOORBELL + (2 * id) * stride) / 4;
	q->cq_db = dev.bar + (REG_DOORBELL + (2 * id + 1) * stride) / 4;
}

static void enable_controller(void)
{
	uint64_t cap = dev.cap;

	if (!CAP_CSS_NVM(cap))
		die(EXIT_CONTROLLER, "no NVM command set (CAP 0x%llx)",
		    (unsigned long long)cap);
	if (CAP_MPSMIN(cap) != 0)
		die(EXIT_CONTROLLER, "no 4 KiB memory pages (CAP.MPSMIN %u)",
		    CAP_MPSMIN(cap));
	if (CAP_MQES(cap) + 1 < QDEPTH)
		die(EXIT_CONTROLLER, "queues of %u entries at most",
		    CAP_MQES(cap) + 1);

	/* reset: a previous user may have left it running */
	if ((reg32(REG_CC) & CC_EN) || (reg32(REG_CSTS) & CSTS_RDY)) {
		set_reg32(REG_CC, 0);
		wait_csts(CSTS_RDY, 0, "the reset (CSTS.RDY 0)");
	}

	init_queue(&dev.admin, "admin", 0, PG_ASQ, PG_ACQ);
	set_reg32(REG_AQA, (QDEPTH - 1) << 16 | (QDEPTH - 1));	/* 0-based */
	set_reg64(REG_ASQ, page_bus(PG_ASQ));
	set_reg64(REG_ACQ, page_bus(PG_ACQ));
	set_reg32(REG_CC, CC_IOCQES | CC_IOSQES | CC_AMS_RR | CC_MPS_4K |
		  CC_CSS_NVM | CC_EN);
	dev.enabled = true;
	wait_csts(CSTS_RDY | CSTS_CFS, CSTS_RDY, "the controller to be ready");
}

/* ---- commands and completions ---- */
static void submit(struct queue *q, struct sqe *cmd)
{
	cmd->cid = q->next_cid++;
	q->sq[q->sq_tail] = *cmd;
	q->sq_tail = (q->sq_tail + 1) % QDEPTH;
	/* the entry is in memory before the controller hears of it */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	*q->sq_db = q->sq_tail;
	q->commands++;
}

/* the entry at the CQ's head is new (has the current phase); tries for
 * @us microseconds */
static bool cq_ready(struct queue *q, unsigned int us)
{
	uint64_t end = us ? now_ns() + us * 1000ull : 0;

	do {
		if ((q->cq[q->cq_head].status & 1) == q->phase)
			return true;
		__builtin_ia32_pause();
	} while (us && now_ns() < end);
	return false;
}

__attribute__((noreturn))
static void completion_timeout(struct queue *q, const struct sqe *cmd,
			       unsigned long wakeups)
{
	uint32_t csts = reg32(REG_CSTS);

	if (csts == ~0u)
		die(EXIT_GONE, "device gone: CSTS reads all ones");
	if (csts & CSTS_CFS)
		die(EXIT_CONTROLLER, "controller fatal status (CSTS 0x%x) during "
		    "%s command 0x%02x", csts, q->name, cmd->opcode);
	if (q->vec && cq_ready(q, 0))
		die(EXIT_TIMEOUT, "timeout: the completion of %s command 0x%02x "
		    "is in the CQ but %s had no interrupt within %u ms",
		    q->name, cmd->opcode, q->vec->path, dev.timeout_ms);
	if (wakeups)
		die(EXIT_TIMEOUT, "wrong phase: %lu interrupt%s on %s but entry "
		    "%u of the %s CQ still has phase %u (want %u) after %u ms "
		    "(command 0x%02x)", wakeups, wakeups == 1 ? "" : "s",
		    q->vec->path, q->cq_head, q->name, q->cq[q->cq_head].status & 1,
		    q->phase, dev.timeout_ms, cmd->opcode);
	die(EXIT_TIMEOUT, "timeout: no completion of %s command 0x%02x within "
	    "%u ms (%s; CSTS 0x%x)", q->name, cmd->opcode, dev.timeout_ms,
	    q->vec ? "no interrupt" : "polled", csts);
}

/* block until @v's event node has an unseen event; false: timed out */
static bool wait_vector(struct vector *v, uint64_t deadline)
{
	struct pollfd pfd = { .fd = v->fd, .events = POLLIN };
	uint64_t now = now_ns();
	uint32_t count;
	int ret;

	if (now >= deadline)
		return false;
	ret = poll(&pfd, 1, (int)((deadline - now + 999999) / 1000000));
	if (ret < 0 && errno == EINTR)
		return true;
	if (ret < 0)
		die(EXIT_SETUP, "poll %s: %s", v->path, strerror(errno));
	if (ret == 0)
		return false;
	if (read(v->fd, &count, sizeof(count)) != sizeof(count)) {
		if (errno == EIO)
			die(EXIT_GONE, "device gone: %s: %s (unbound?)", v->path,
			    strerror(errno));
		die(EXIT_SETUP, "read %s: %s", v->path, strerror(errno));
	}
	v->wakeups++;
	return true;
}

/*
 * INTx only: the stub's handler masked INTx when it counted the event;
 * writing a 32-bit 1 to the event node unmasks it (iio_pci_generic(4)).
 * Done after every wakeup: after the CQ head doorbell when a completion
 * was taken, else at once.
 */
static void unmask_intx(struct vector *v)
{
	uint32_t one = 1;

	if (write(v->fd, &one, sizeof(one)) != sizeof(one))
		die(errno == EIO ? EXIT_GONE : EXIT_SETUP,
		    "unmasking INTx through %s: %s", v->path, strerror(errno));
}

/*
 * Submit @cmd and wait for its completion: the next entry of the CQ whose
 * phase bit is the current one.  Returns it; an error status is fatal
 * unless @status_ok.
 */
static struct cqe run(struct queue *q, struct sqe *cmd, bool status_ok)
{
	uint64_t deadline;
	unsigned long wakeups = 0, spins = 0;
	struct cqe c;

	submit(q, cmd);
	deadline = now_ns() + dev.timeout_ms * 1000000ull;
	if (q->vec) {
		/*
		 * Interrupt: block on the vector's event node, then take the
		 * entry.  One event per completion: the next command is only
		 * submitted once this interrupt was handled, so no two of
		 * them can merge into one (as pending edge interrupts do).
		 */
		for (;;) {
			if (!wait_vector(q->vec, deadline))
				completion_timeout(q, cmd, wakeups);
			wakeups++;
			if (cq_ready(q, 1000))
				break;
			/* an event without a new entry: wait for the next
			 * (INTx: unmasked first, or it could not come) */
			if (dev.intx)
				unmask_intx(q->vec);
		}
	} else {
		/* polling: spin on the phase bit; now and then the clock
		 * and fatal status */
		while (!cq_ready(q, 0))
			if (++spins % 4096 == 0 &&
			    (now_ns() > deadline || (reg32(REG_CSTS) & CSTS_CFS)))
				completion_timeout(q, cmd, 0);
	}
	/* the phase says the entry is complete: read the rest after it */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	c = q->cq[q->cq_head];
	if (++q->cq_head == QDEPTH) {
		q->cq_head = 0;
		q->phase ^= 1;
	}
	*q->cq_db = q->cq_head;		/* the entry is free again */
	/* INTx: the doorbell deasserted the line; unmask it again */
	if (dev.intx && q->vec)
		unmask_intx(q->vec);
	if (c.cid != cmd->cid || c.sq_id != q->id)
		die(EXIT_TIMEOUT, "%s CQ out of step: entry for command %u of "
		    "SQ %u, want command %u of SQ %u (wrong phase?)", q->name,
		    c.cid, c.sq_id, cmd->cid, q->id);
	if ((c.status >> 1) && !status_ok)
		die(EXIT_COMMAND, "%s command 0x%02x failed: status type %u "
		    "code 0x%02x%s", q->name, cmd->opcode, STATUS_SCT(c.status),
		    STATUS_SC(c.status), STATUS_DNR(c.status) ? " (do not retry)" : "");
	return c;
}

/* ---- 5. Identify ---- */
/* an Identify string: space-padded ASCII, trailing spaces cut */
static void ident_string(char *out, const uint8_t *in, size_t len)
{
	memcpy(out, in, len);
	out[len] = 0;
	while (len && (out[len - 1] == ' ' || out[len - 1] == 0))
		out[--len] = 0;
}

static void identify(uint32_t nsid, uint32_t cns)
{
	struct sqe cmd = {
		.opcode = ADM_IDENTIFY,
		.nsid = nsid,
		.prp1 = page_bus(PG_IDENT),	/* 4 KiB, one page */
		.cdw10 = cns,
	};

	memset(page_cpu(PG_IDENT), 0, PAGE);
	run(&dev.admin, &cmd, false);
}

static uint64_t ns_blocks;
static uint32_t block_size;

static void identify_all(void)
{
	const uint8_t *id = page_cpu(PG_IDENT);
	char model[41], serial[21], fw[9];
	unsigned int lbaf;
	uint32_t nn;

	identify(0, CNS_CONTROLLER);
	ident_string(serial, id + 4, 20);	/* SN, bytes 4..23 */
	ident_string(model, id + 24, 40);	/* MN, bytes 24..63 */
	ident_string(fw, id + 64, 8);		/* FR, bytes 64..71 */
	memcpy(&nn, id + 516, 4);		/* NN: number of namespaces */
	printf("model: %s\nserial: %s\nfirmware: %s\n", model, serial, fw);
	if (nn < 1)
		die(EXIT_CONTROLLER, "the controller has no namespace");

	identify(1, CNS_NAMESPACE);
	memcpy(&ns_blocks, id, 8);		/* NSZE, in logical blocks */
	lbaf = id[26] & 0xf;			/* FLBAS: the format in use */
	block_size = 1u << id[128 + 4 * lbaf + 2];	/* LBAF[n].LBADS */
	if (!ns_blocks)
		die(EXIT_CONTROLLER, "namespace 1 is not active (size 0)");
	if (block_size > IO_BYTES || IO_BYTES % block_size)
		die(EXIT_CONTROLLER, "blocks of %u bytes are not supported",
		    block_size);
	printf("namespace 1: %llu blocks of %u bytes (%llu bytes)\n",
	       (unsigned long long)ns_blocks, block_size,
	       (unsigned long long)ns_blocks * block_size);
}

/* ---- 6. the I/O queue pair ---- */
static void create_io_queues(void)
{
	struct sqe cmd;
	struct cqe c;

	/* how many I/O queues we use: 1 SQ, 1 CQ (0-based) */
	cmd = (struct sqe){ .opcode = ADM_SET_FEATURES, .cdw10 = FEAT_NUM_QUEUES,
			    .cdw11 = 0 };
	c = run(&dev.admin, &cmd, false);
	if ((c.result & 0xffff) == 0xffff)
		die(EXIT_CONTROLLER, "no I/O queues granted (0x%x)", c.result);

	init_queue(&dev.io, "I/O", 1, PG_IOSQ, PG_IOCQ);
	/* the CQ first: contiguous (PC), interrupts (IEN) on vector IV */
	cmd = (struct sqe){
		.opcode = ADM_CREATE_CQ,
		.prp1 = page_bus(PG_IOCQ),
		.cdw10 = (QDEPTH - 1) << 16 | 1,
		.cdw11 = dev.io.vec ? (uint32_t)dev.io.vec->nr << 16 | 1u << 1 | 1 : 1,
	};
	run(&dev.admin, &cmd, false);
	/* the SQ, feeding CQ 1 */
	cmd = (struct sqe){
		.opcode = ADM_CREATE_SQ,
		.prp1 = page_bus(PG_IOSQ),
		.cdw10 = (QDEPTH - 1) << 16 | 1,
		.cdw11 = 1u << 16 | 1,
	};
	run(&dev.admin, &cmd, false);
}

/* ---- 7, 8. reads and writes ---- */
/* one read or write of @bytes at block @lba with data page @pg */
static uint64_t rw(uint8_t opcode, uint64_t lba, unsigned int bytes,
		   unsigned int pg)
{
	struct sqe cmd = {
		.opcode = opcode,
		.nsid = 1,
		.prp1 = page_bus(pg),	/* at most 4 KiB: one page, no PRP2 */
		.cdw10 = (uint32_t)lba,
		.cdw11 = (uint32_t)(lba >> 32),
		.cdw12 = bytes / block_size - 1,	/* blocks, 0-based */
	};
	uint64_t t0 = now_ns();

	run(&dev.io, &cmd, false);
	return now_ns() - t0;
}

static unsigned long mismatches;

/* compare @len bytes at block @lba with the test image */
static void check_image(const uint8_t *p, uint64_t lba, unsigned int len)
{
	uint64_t off = lba * block_size, w;
	unsigned int i;

	for (i = 0; i < len; i += 8) {
		memcpy(&w, p + i, 8);
		if (w != image_word(off + i)) {
			if (!mismatches)
				fprintf(stderr, "iio_nvme: mismatch at byte %llu: "
					"0x%016llx, want 0x%016llx\n",
					(unsigned long long)(off + i),
					(unsigned long long)w,
					(unsigned long long)image_word(off + i));
			mismatches++;
			return;
		}
	}
}

/* write a test block at @lba, read it back, restore the original */
static void write_test(uint64_t lba, bool check)
{
	uint8_t *got = page_cpu(PG_DATA), *mine = page_cpu(PG_DATA + 1);
	uint8_t *orig = page_cpu(PG_DATA + 2);
	unsigned int i;

	if (lba >= ns_blocks)
		die(EXIT_USAGE, "--write %llu: the namespace has %llu blocks",
		    (unsigned long long)lba, (unsigned long long)ns_blocks);
	rw(NVM_READ, lba, block_size, PG_DATA + 2);
	if (check)
		check_image(orig, lba, block_size);
	for (i = 0; i < block_size; i++)
		mine[i] = (uint8_t)(i * 13 + lba + 0x5a);
	rw(NVM_WRITE, lba, block_size, PG_DATA + 1);
	memset(got, 0, block_size);
	rw(NVM_READ, lba, block_size, PG_DATA);
	if (memcmp(got, mine, block_size))
		die(EXIT_MISMATCH, "block %llu read back differs from what was "
		    "written", (unsigned long long)lba);
	rw(NVM_WRITE, lba, block_size, PG_DATA + 2);
	memset(got, 0, block_size);
	rw(NVM_READ, lba, block_size, PG_DATA);
	if (memcmp(got, orig, block_size))
		die(EXIT_MISMATCH, "block %llu differs after restoring it",
		    (unsigned long long)lba);
	printf("write: block %llu written, read back, restored\n",
	       (unsigned long long)lba);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* @n reads of 4 KiB, cycling over the namespace; timed */
static void read_test(unsigned long n, bool check, const char *save)
{
	uint64_t units = ns_blocks * block_size / IO_BYTES, *lat, t0, total;
	uint8_t *data = page_cpu(PG_DATA);
	unsigned long i, nlat;
	int sfd = -1;

	if (!units)
		die(EXIT_CONTROLLER, "the namespace is smaller than 4 KiB");
	/* latency samples of the last LAT_SAMPLES reads at most */
	nlat = n < LAT_SAMPLES ? n : LAT_SAMPLES;
	lat = calloc(nlat, sizeof(*lat));
	if (!lat)
		die(EXIT_SETUP, "out of memory");
	if (save) {
		sfd = open(save, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (sfd < 0)
			die(EXIT_SETUP, "%s: %s", save, strerror(errno));
	}
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		uint64_t unit = i % units, lba = unit * (IO_BYTES / block_size);

		lat[i % nlat] = rw(NVM_READ, lba, IO_BYTES, PG_DATA);
		if (check)
			check_image(data, lba, IO_BYTES);
		if (sfd >= 0 && i < units &&
		    pwrite(sfd, data, IO_BYTES, unit * IO_BYTES) != IO_BYTES)
			die(EXIT_SETUP, "writing %s: %s", save, strerror(errno));
	}
	total = now_ns() - t0;
	if (sfd >= 0)
		close(sfd);
	qsort(lat, nlat, sizeof(*lat), cmp_u64);
	printf("reads: %lu x %u bytes, %s%lu mismatches\n", n, IO_BYTES,
	       check ? "" : "not checked, ", mismatches);
	printf("rate: %.0f reads/s, latency median %.1f us, p99 %.1f us, "
	       "min %.1f us, max %.1f us (%s)\n", n * 1e9 / total,
	       lat[nlat / 2] / 1e3, lat[nlat * 99 / 100] / 1e3, lat[0] / 1e3,
	       lat[nlat - 1] / 1e3, dev.io.vec ? "interrupt" : "polling");
	free(lat);
}

/* ---- 9. shutdown ---- */
static void shutdown_controller(void)
{
	uint64_t deadline = now_ns() + (CAP_TO(dev.cap) + 1) * 500000000ull;

	set_reg32(REG_CC, reg32(REG_CC) | CC_SHN_NORMAL);
	while (CSTS_SHST(reg32(REG_CSTS)) != 2) {
		if (now_ns() > deadline)
			die(EXIT_CONTROLLER, "timeout: shutdown not complete "
			    "(CSTS 0x%x)", reg32(REG_CSTS));
		usleep(1000);
	}
	set_reg32(REG_CC, 0);
	wait_csts(CSTS_RDY, 0, "the controller to stop (CSTS.RDY 0)");
	dev.enabled = false;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: iio_nvme [--poll] [--reads N] [--check] [--write LBA]\n"
		"                [--save FILE] [--timeout MS] PCI_ADDR\n"
		"\n"
		"A user-space NVMe driver on iio_pci_generic: binds PCI_ADDR\n"
		"(e.g. 0000:00:1a.0), identifies the controller and namespace 1,\n"
		"creates an I/O queue pair on MSI-X vector 1 and reads.\n"
		"\n"
		"  --poll        take I/O completions by polling the CQ (no interrupt;\n"
		"                admin completions still come on vector 0)\n"
		"  --reads N     N reads of 4 KiB, cycling over the namespace (default 0)\n"
		"  --check       compare the data with the test image (tests/nvme/mkimage)\n"
		"  --write LBA   write a block at LBA, read it back, restore the original\n"
		"  --save FILE   the data of the first pass of reads into FILE\n"
		"  --timeout MS  the longest wait for one completion (default 5000)\n"
		"\n"
		"exit status: 0 ok, 1 data mismatch, 2 usage, 3 setup (binding, sysfs,\n"
		"DMA buffer), 4 controller (fatal status, reset timeout), 5 command\n"
		"error status, 6 completion timeout or wrong phase, 7 device gone\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "poll", no_argument, NULL, 'p' },
		{ "reads", required_argument, NULL, 'r' },
		{ "check", no_argument, NULL, 'c' },
		{ "write", required_argument, NULL, 'w' },
		{ "save", required_argument, NULL, 's' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long reads = 0;
	long long write_lba = -1;
	bool poll_io = false, check = false;
	const char *save = NULL, *irq;
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "pr:cw:s:t:h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			poll_io = true;
			break;
		case 'r':
			errno = 0;
			reads = strtoul(optarg, &end, 0);
			if (errno || *end || optarg[0] == '-')
				die(EXIT_USAGE, "--reads needs a number, not \"%s\"", optarg);
			break;
		case 'c':
			check = true;
			break;
		case 'w':
			errno = 0;
			write_lba = strtoll(optarg, &end, 0);
			if (errno || *end || write_lba < 0)
				die(EXIT_USAGE, "--write needs a block number, not \"%s\"", optarg);
			break;
		case 's':
			save = optarg;
			break;
		case 't':
			errno = 0;
			dev.timeout_ms = strtoul(optarg, &end, 0);
			if (errno || *end || !dev.timeout_ms || dev.timeout_ms > 600000)
				die(EXIT_USAGE, "--timeout needs 1 to 600000 ms, not \"%s\"", optarg);
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return EXIT_USAGE;
	}
	dev.pci = argv[optind];
	if (strchr(dev.pci, '/') || strlen(dev.pci) > 32)
		die(EXIT_USAGE, "\"%s\" is not a PCI address", dev.pci);
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGBUS, on_sigbus);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	signal(SIGPIPE, SIG_IGN);	/* stdout gone (| head): finish anyway */

	bind_device();				/* 1 */
	dev.nr = find_bar0();
	map_bar0();				/* 2 */
	get_dma_buffer();			/* 3 */
	irq = setup_interrupts(poll_io);
	enable_controller();			/* 4 */
	printf("controller: %s iio%d, NVMe %u.%u, queues of %u entries, "
	       "doorbell stride %u\n", dev.pci, dev.nr, reg32(REG_VS) >> 16,
	       reg32(REG_VS) >> 8 & 0xff, QDEPTH, 4u << CAP_DSTRD(dev.cap));
	identify_all();				/* 5 */
	create_io_queues();			/* 6 */
	printf("interrupts: %s\n", irq);
	if (write_lba >= 0)
		write_test(write_lba, check);	/* 7 */
	if (reads)
		read_test(reads, check, save);	/* 8 */
	printf("commands: admin %lu, io %lu; wakeups: vector 0 %lu, "
	       "vector 1 %lu\n", dev.admin.commands, dev.io.commands,
	       dev.vec[0].wakeups, dev.vec[1].wakeups);
	shutdown_controller();			/* 9 */
	if (mismatches)
		die(EXIT_MISMATCH, "%lu of %lu reads differ from the test image",
		    mismatches, reads);
	return EXIT_OK;
}
