// SPDX-License-Identifier: GPL-2.0-only
/*
 * nvme.c - udrv-nvme, a user-space NVMe driver on libudrv(3)
 *
 * An example to copy: an NVMe driver with several I/O queue pairs, deep
 * queues, PRP lists, several commands per doorbell write and completions
 * by interrupt or by polling, from user space, with nothing in the kernel
 * but iio_pci_generic(4) or mainline vfio-pci: the library (udrv.h) opens
 * the controller on whichever of the two it is bound to, and the code
 * below is the same for both.
 *
 *   1. open the PCI function (bound to iio_pci_generic or vfio-pci)
 *   2. map BAR0, the controller's registers and doorbells
 *   3. one DMA buffer, carved into the queues, PRP lists and data
 *   4. reset the controller, give it the admin queues, enable it
 *   5. Identify Controller (model, serial, MDTS) and Namespace 1 (size)
 *   6. create N I/O queue pairs, queue i's completions on MSI-X vector i
 *   7. the work: the single-command tests (--write, --reads) or a perf
 *      run in the manner of spdk_nvme_perf (--workload)
 *   8. shut the controller down
 *
 * One thread drives every queue: it fills each SQ up to the depth, rings
 * each SQ doorbell once for all the commands it wrote, then takes
 * completions, by spinning on the CQs' phase bits (--poll) or by blocking
 * in poll(2) on the vectors' fds (udrv_event_fd); every completion it
 * takes frees a command slot, which is filled again at once, and one
 * doorbell write per queue and pass hands the controller all of them.
 *
 * usage: see usage() and examples/nvme.md.  Every failure is one line
 * "udrv-nvme: ..." on stderr and one of the exit statuses below; the
 * program never waits longer than --timeout for a completion or CAP.TO for
 * the controller.  SIGINT, SIGTERM and SIGHUP disable the controller and
 * exit 128 + the signal.
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
 * through registers; I/O queues are created with admin commands.  Data
 * is described by PRPs: PRP1 the first page, PRP2 the second page or, for
 * more than two, the bus address of a list of the others.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <poll.h>
#include <udrv.h>

#include "latency_hist.h"

#define PROG		"udrv-nvme"

/* Exit statuses (also in examples/nvme.md) */
enum {
	EXIT_OK = 0,
	EXIT_MISMATCH = 1,	/* data read back differs from what it must be */
	EXIT_USAGE = 2,		/* bad command line */
	EXIT_SETUP = 3,		/* open, identity, mapping, DMA buffer */
	EXIT_CONTROLLER = 4,	/* fatal status, reset/enable timeout, CAP */
	EXIT_COMMAND = 5,	/* a command completed with an error status */
	EXIT_TIMEOUT = 6,	/* no completion in time; CQ out of step */
	EXIT_GONE = 7,		/* device unbound or removed under us */
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
#define NVM_BAD_OPCODE	0x7f	/* no NVM command (--inject opcode) */

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

#define STATUS_SC(s)	((unsigned int)((s) >> 1) & 0xff)	/* status code */
#define STATUS_SCT(s)	((unsigned int)((s) >> 9) & 0x7)	/* status code type */
#define STATUS_DNR(s)	((unsigned int)((s) >> 15) & 1)	/* do not retry */

/* ---- sizes ---- */
#define PAGE		4096u
#define ADMIN_ENTRIES	64		/* admin SQ and CQ */
#define MAX_QUEUES	8		/* I/O queue pairs at most */
#define MAX_IO_BYTES	(128u * 1024)	/* one command's transfer at most */
#define SCRATCH_PAGES	3		/* --write/--reads: read, write, original */
#define DMA_LIMIT	(4u << 20)	/* iio(4), udrv_dma_alloc(3): 4 MiB at most */
#define VECTORS_MAX	8		/* udrv_vector_count() at most */
#define CSTS_CHECK_NS	10000000ull	/* fatal status and ages every 10 ms */

/* ---- the test image (tests/nvme/mkimage): 8-byte words ---- */
static uint64_t image_word(uint64_t byte_offset)
{
	uint64_t block = byte_offset / 512, word = byte_offset % 512 / 8;

	return 0x654d564e00000000ull | (block << 8 | word);	/* "NVMe" */
}

/* the word --workload verify writes at @byte_offset: seed 0 the image */
static uint64_t pattern_word(uint64_t seed, uint64_t byte_offset)
{
	return image_word(byte_offset) ^ (seed * 0x9e3779b97f4a7c15ull);
}

/* ---- state ---- */
struct vector {
	int nr;			/* MSI-X vector (0 also for INTx, MSI) */
	int fd;			/* udrv_event_fd(), -1 if not asked for */
	char name[16];		/* "vector N", for messages */
	unsigned long wakeups;	/* consumes that found new events */
};

/* one command in flight: its identifier is its index in the queue */
struct slot {
	bool busy;
	uint8_t opcode;
	bool injected;		/* an --inject command: its error is expected */
	uint64_t lba;
	uint64_t t0;		/* submitted at (ns) */
	size_t data;		/* offset of its data in the DMA buffer */
	size_t prp_list;	/* offset of its PRP list page (0: none) */
};

struct queue {
	const char *name;	/* "admin", "I/O" */
	uint16_t id;
	uint16_t entries;	/* of the SQ and of the CQ */
	struct sqe *sq;
	volatile struct cqe *cq;
	uint64_t sq_bus, cq_bus;
	uint16_t sq_tail, cq_head;
	uint16_t cq_rung;	/* the CQ head the controller was last told */
	uint16_t phase;		/* the phase bit a new entry carries */
	uint16_t unrung;	/* entries written since the last doorbell */
	volatile uint32_t *sq_db, *cq_db;
	struct vector *vec;	/* NULL: poll this queue */
	struct slot *slots;
	unsigned int nslots, inflight;
	unsigned long commands, doorbells, completions, errors;
};

static struct {
	const char *pci;
	struct udrv_device *ud;		/* the controller, through libudrv */
	volatile uint32_t *bar;		/* BAR0 mapping */
	size_t bar_len;
	struct udrv_dma *dma;		/* the DMA buffer */
	uint8_t *dma_cpu;		/* its mapping */
	uint64_t dma_bus;		/* where the controller finds it */
	size_t dma_used;		/* carved so far */
	uint64_t cap;
	bool intx;			/* unmask INTx after each wakeup */
	struct vector vec[VECTORS_MAX];
	unsigned int vectors;		/* opened */
	struct queue admin, io[MAX_QUEUES + 1];	/* io[nq]: --inject fatal */
	unsigned int nq;
	size_t ident, scratch;		/* offsets of the Identify, scratch pages */
	unsigned int timeout_ms;
	bool enabled;			/* CC.EN set by us: disable on exit */
} dev = { .timeout_ms = 5000 };

static uint64_t ns_blocks;
static uint32_t block_size;
static uint32_t mdts_bytes;		/* 0: no limit */

/* ---- errors ---- */
/*
 * The controller disabled (CC 0), if we enabled it: it stops fetching
 * our queues and writing into our buffer.  One store to BAR0, so that
 * on_signal() can call it (async-signal-safe).
 */
static void stop_device(void)
{
	if (!dev.enabled)
		return;
	dev.bar[REG_CC / 4] = 0;
	dev.enabled = false;
}

#define EXAMPLE_DEVICE	dev.ud
#include "example_exit.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/* ---- BAR0 ---- */
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

/* the registers and the doorbells of queues 0 .. @queues - 1 */
static void map_bar0(unsigned int queues)
{
	volatile void *p;
	size_t need;

	if (udrv_region_map(dev.ud, 0, &p, &dev.bar_len))
		die_udrv();
	dev.bar = p;
	dev.cap = ((volatile uint64_t *)p)[0];
	if (dev.cap == ~0ull)
		die(EXIT_CONTROLLER, "CAP reads all ones: the device does not answer");
	/* the stride says how much of the BAR the doorbells need */
	need = REG_DOORBELL + 2 * queues * (4u << CAP_DSTRD(dev.cap));
	if (need > dev.bar_len)
		die(EXIT_CONTROLLER, "BAR0 has no room for the doorbells of %u "
		    "queues: %zu bytes needed, it has %zu", queues, need,
		    dev.bar_len);
}

/* ---- the DMA buffer ---- */
static void *dma_cpu(size_t off)
{
	return dev.dma_cpu + off;
}

static uint64_t dma_bus(size_t off)
{
	return dev.dma_bus + off;
}

/* @bytes of the buffer, page-aligned: its offset */
static size_t carve(size_t bytes)
{
	size_t off = dev.dma_used;

	dev.dma_used += (bytes + PAGE - 1) / PAGE * PAGE;
	if (dev.dma_used > udrv_dma_size(dev.dma))
		die(EXIT_SETUP, "internal: the DMA buffer is too small");
	return off;
}

static size_t queue_bytes(unsigned int entries)
{
	return (entries * sizeof(struct sqe) + PAGE - 1) / PAGE * PAGE +
	       (entries * sizeof(struct cqe) + PAGE - 1) / PAGE * PAGE;
}

/*
 * The buffer bytes of one slot's data: whole pages, or for I/Os that
 * divide a page, just their size (they then share pages and never cross
 * one: PRP1 alone, with an offset, describes them).
 */
static size_t slot_bytes(unsigned int io_bytes)
{
	if (io_bytes < PAGE && PAGE % io_bytes == 0)
		return io_bytes;
	return (io_bytes + PAGE - 1) / PAGE * PAGE;
}

/* the bytes one I/O queue pair with @depth slots of @io_bytes needs */
static size_t io_queue_bytes(unsigned int depth, unsigned int io_bytes)
{
	size_t data = (depth * slot_bytes(io_bytes) + PAGE - 1) / PAGE * PAGE;

	return queue_bytes(depth + 1) + data +
	       (io_bytes > 2 * PAGE ? depth * PAGE : 0);
}

static void get_dma_buffer(size_t need)
{
	size_t want = 64 * 1024;

	if (need > DMA_LIMIT)
		die(EXIT_USAGE, "the queues and data need %zu bytes of DMA "
		    "buffer, more than the 4 MiB of one (fewer queues, a "
		    "smaller depth or size)", need);
	/* powers of two, so that a later run finds a buffer to reuse */
	while (want < need)
		want *= 2;
	if (udrv_dma_alloc(dev.ud, want, &dev.dma))
		die_udrv();
	dev.dma_cpu = udrv_dma_addr(dev.dma);
	dev.dma_bus = udrv_dma_bus_addr(dev.dma);
	if (dev.dma_bus % PAGE)
		die(EXIT_SETUP, "the DMA buffer is not page-aligned on the bus");
}

static void unmask_intx(struct vector *v);

/* ---- interrupts: which vectors ---- */
static struct vector *open_vector(int nr)
{
	struct vector *v = &dev.vec[nr];
	int fd;

	if (v->name[0])
		return v;
	v->nr = nr;
	snprintf(v->name, sizeof(v->name), "vector %d", nr);
	/* before the controller can interrupt: the events counted are those
	 * after this call (udrv_event_fd(3)) */
	fd = udrv_event_fd(dev.ud, nr);
	if (fd < 0)
		die_udrv();
	v->fd = fd;
	if ((unsigned int)nr + 1 > dev.vectors)
		dev.vectors = nr + 1;
	return v;
}

/*
 * MSI-X with V vectors (iio_pci_generic vectors=V): admin on vector 0, I/O
 * queue i on vector i, so N queues need N + 1 vectors.  One MSI-X vector,
 * MSI or INTx: everything on vector 0; INTx is masked by the stub's handler
 * and unmasked by us.
 */
static const char *setup_interrupts(bool poll_io, bool vectors_needed)
{
	static char what[512];
	const char *mode = udrv_device_irq_mode(dev.ud);
	unsigned int vectors = udrv_vector_count(dev.ud), i;
	char io[256];

	if (!vectors || !strcmp(mode, "none"))
		die(EXIT_SETUP, "%s has no interrupt (irq mode %s)", dev.pci,
		    mode);
	if (vectors > VECTORS_MAX)
		vectors = VECTORS_MAX;
	dev.intx = !strcmp(mode, "intx");

	dev.admin.vec = open_vector(0);
	/*
	 * INTx: a previous user may have left the line masked (an interrupt
	 * that came after its last wait); unmask it.  If it is still
	 * asserted, the event this raises is taken as one without a new
	 * entry.
	 */
	if (dev.intx)
		unmask_intx(dev.admin.vec);
	if (!strcmp(mode, "msix") && vectors >= 2 && vectors_needed &&
	    !poll_io && dev.nq + 1 > vectors)
		die(EXIT_USAGE, "%u queues with interrupts need %u MSI-X vectors; "
		    "%s has %u (iio_pci_generic vectors=)", dev.nq, dev.nq + 1,
		    dev.pci, vectors);
	for (i = 0; i < dev.nq; i++) {
		if (poll_io)
			dev.io[i].vec = NULL;
		else if (!strcmp(mode, "msix") && vectors > i + 1)
			dev.io[i].vec = open_vector((int)i + 1);
		else
			dev.io[i].vec = &dev.vec[0];
	}
	if (poll_io)
		snprintf(io, sizeof(io), "polled");
	else if (dev.nq == 1)
		snprintf(io, sizeof(io), "on vector %d", dev.io[0].vec->nr);
	else if (dev.io[1].vec == dev.io[0].vec)
		snprintf(io, sizeof(io), "%u queues on vector 0", dev.nq);
	else
		snprintf(io, sizeof(io), "%u queues on vectors 1 to %u", dev.nq,
			 dev.nq);
	snprintf(what, sizeof(what), "%s, %u vector%s; admin on vector 0, "
		 "I/O %s", mode, vectors, vectors == 1 ? "" : "s", io);
	return what;
}

/* ---- reset and enable ---- */
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

/* queue @id's rings at @sq_off (@entries SQEs, then the CQEs) */
static void init_queue(struct queue *q, const char *name, uint16_t id,
		       unsigned int entries, size_t off, unsigned int nslots)
{
	unsigned int stride = 4u << CAP_DSTRD(dev.cap);
	size_t sq_bytes = (entries * sizeof(struct sqe) + PAGE - 1) / PAGE * PAGE;

	q->name = name;
	q->id = id;
	q->entries = entries;
	q->sq = dma_cpu(off);
	q->cq = dma_cpu(off + sq_bytes);
	q->sq_bus = dma_bus(off);
	q->cq_bus = dma_bus(off + sq_bytes);
	q->sq_tail = q->cq_head = q->cq_rung = q->unrung = 0;
	q->phase = 1;		/* the controller's first pass writes 1 */
	memset(dma_cpu(off), 0, queue_bytes(entries));
	q->sq_db = dev.bar + (REG_DOORBELL + (2 * id) * stride) / 4;
	q->cq_db = dev.bar + (REG_DOORBELL + (2 * id + 1) * stride) / 4;
	q->nslots = nslots;
	q->slots = calloc(nslots, sizeof(*q->slots));
	if (!q->slots)
		die(EXIT_SETUP, "out of memory");
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
	if (CAP_MQES(cap) + 1 < ADMIN_ENTRIES)
		die(EXIT_CONTROLLER, "queues of %u entries at most",
		    CAP_MQES(cap) + 1);

	/* reset: a previous user may have left it running */
	if ((reg32(REG_CC) & CC_EN) || (reg32(REG_CSTS) & CSTS_RDY)) {
		set_reg32(REG_CC, 0);
		wait_csts(CSTS_RDY, 0, "the reset (CSTS.RDY 0)");
	}

	init_queue(&dev.admin, "admin", 0, ADMIN_ENTRIES,
		   carve(queue_bytes(ADMIN_ENTRIES)), 1);
	set_reg32(REG_AQA, (ADMIN_ENTRIES - 1) << 16 | (ADMIN_ENTRIES - 1));
	set_reg64(REG_ASQ, dev.admin.sq_bus);
	set_reg64(REG_ACQ, dev.admin.cq_bus);
	set_reg32(REG_CC, CC_IOCQES | CC_IOSQES | CC_AMS_RR | CC_MPS_4K |
		  CC_CSS_NVM | CC_EN);
	dev.enabled = true;
	wait_csts(CSTS_RDY | CSTS_CFS, CSTS_RDY, "the controller to be ready");
}

/* ---- commands and completions ---- */
/* write @cmd into @q's SQ as slot @cid; the doorbell is rung later */
static void submit(struct queue *q, struct sqe *cmd, uint16_t cid)
{
	cmd->cid = cid;
	q->sq[q->sq_tail] = *cmd;
	if (++q->sq_tail == q->entries)
		q->sq_tail = 0;
	q->unrung++;
	q->commands++;
	q->inflight++;
}

/* tell the controller of every entry written since the last time */
static void ring(struct queue *q)
{
	if (!q->unrung)
		return;
	/* the entries are in memory before the controller hears of them */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	*q->sq_db = q->sq_tail;
	q->unrung = 0;
	q->doorbells++;
}

/* the entry at @q's CQ head is new (has the current phase) */
static bool cq_ready(const struct queue *q)
{
	return (q->cq[q->cq_head].status & 1) == q->phase;
}

/* a completion taken: what to do with it */
typedef void complete_fn(struct queue *q, struct slot *s, const struct cqe *c,
			 uint64_t now);

/*
 * Tell the controller that the CQ entries taken since the last time are
 * free again: one CQ head doorbell write for all of them.
 */
static void ring_cq(struct queue *q)
{
	if (q->cq_head == q->cq_rung)
		return;
	*q->cq_db = q->cq_head;
	q->cq_rung = q->cq_head;
}

/*
 * Take every new entry of @q's CQ and hand each to @fn; the CQ head
 * doorbell is left to ring_cq().  Returns how many.
 */
static unsigned int reap(struct queue *q, complete_fn *fn)
{
	unsigned int n = 0;
	uint64_t now = 0;
	struct cqe c;

	while (cq_ready(q)) {
		/* the phase says the entry is complete: read the rest after it */
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		c = q->cq[q->cq_head];
		if (++q->cq_head == q->entries) {
			q->cq_head = 0;
			q->phase ^= 1;
		}
		if (!n)
			now = now_ns();
		n++;
		if (c.sq_id != q->id || c.cid >= q->nslots || !q->slots[c.cid].busy)
			die(EXIT_TIMEOUT, "%s CQ %u out of step: entry for command "
			    "%u of SQ %u, which is not in flight (wrong phase?)",
			    q->name, q->id, c.cid, c.sq_id);
		q->slots[c.cid].busy = false;
		q->inflight--;
		q->completions++;
		fn(q, &q->slots[c.cid], &c, now);
	}
	return n;
}

/* INTx only: the line was masked by the interrupt; unmask it */
static void unmask_intx(struct vector *v)
{
	if (udrv_event_unmask(dev.ud, v->nr))
		die_udrv();
}

/* fatal status or a vanished device: the end */
static void check_csts(const char *during)
{
	uint32_t csts = reg32(REG_CSTS);

	if (csts == ~0u)
		die(EXIT_GONE, "device gone: CSTS reads all ones");
	if (csts & CSTS_CFS)
		die(EXIT_CONTROLLER, "controller fatal status (CSTS 0x%x) %s",
		    csts, during);
}

/* the longest a command of @q has been in flight, and which */
static uint64_t oldest(struct queue *q, uint64_t now, struct slot **which)
{
	uint64_t age = 0;
	unsigned int i;

	for (i = 0; i < q->nslots; i++)
		if (q->slots[i].busy && now - q->slots[i].t0 > age) {
			age = now - q->slots[i].t0;
			*which = &q->slots[i];
		}
	return age;
}

__attribute__((noreturn))
static void completion_timeout(struct queue *q, const struct slot *s)
{
	check_csts("with commands in flight");
	if (q->vec && cq_ready(q))
		die(EXIT_TIMEOUT, "timeout: the completion of %s command 0x%02x "
		    "is in CQ %u but %s had no interrupt within %u ms",
		    q->name, s->opcode, q->id, q->vec->name, dev.timeout_ms);
	die(EXIT_TIMEOUT, "timeout: no completion of %s command 0x%02x "
	    "(queue %u) within %u ms (%s; CSTS 0x%x)", q->name, s->opcode,
	    q->id, dev.timeout_ms, q->vec ? "interrupt" : "polled",
	    reg32(REG_CSTS));
}

/*
 * Every 10 ms while waiting: fatal status, and no command older than
 * --timeout.
 */
static void watchdog(struct queue **qs, unsigned int n, const char *during)
{
	uint64_t now = now_ns();
	struct slot *s = NULL;
	unsigned int i;

	check_csts(during);
	for (i = 0; i < n; i++)
		if (oldest(qs[i], now, &s) > dev.timeout_ms * 1000000ull)
			completion_timeout(qs[i], s);
}

/*
 * Take the completions of the @n queues @qs (with commands in flight),
 * waiting for at least one: by spinning on the CQs of polled queues, by
 * blocking on the vectors of the others.  Returns how many were taken.
 */
static unsigned int take_completions(struct queue **qs, unsigned int n,
				     complete_fn *fn, const char *during)
{
	static uint64_t next_check;
	static unsigned long spins;
	unsigned int i, j, got = 0, nfds;
	struct pollfd fds[VECTORS_MAX];
	struct vector *vs[VECTORS_MAX];
	int64_t events;
	int ready;

	if (!next_check)
		next_check = now_ns() + CSTS_CHECK_NS;
	for (;;) {
		/* now and then, even while completions flow: fatal status,
		 * commands that take too long */
		if (++spins % 256 == 0 && now_ns() > next_check) {
			watchdog(qs, n, during);
			next_check = now_ns() + CSTS_CHECK_NS;
		}
		nfds = 0;
		for (i = 0; i < n; i++) {
			if (!qs[i]->vec) {
				got += reap(qs[i], fn);
				continue;
			}
			for (j = 0; j < nfds && vs[j] != qs[i]->vec; j++)
				;
			if (j == nfds) {
				vs[nfds] = qs[i]->vec;
				fds[nfds++] = (struct pollfd){
					.fd = qs[i]->vec->fd, .events = POLLIN
				};
			}
		}
		if (got)
			return got;
		/*
		 * Polling only: spin.  No PAUSE: under QEMU's TCG it leaves
		 * the translated code for the CPU loop on every iteration,
		 * which costs ~10 % of the latency here; on hardware a PAUSE
		 * would be kinder to an SMT sibling.
		 */
		if (!nfds)
			continue;
		/* interrupts: block on the vectors' fds, 10 ms at a time */
		ready = poll(fds, nfds, CSTS_CHECK_NS / 1000000);
		if (ready < 0 && errno != EINTR)
			die(EXIT_SETUP, "poll: %s", strerror(errno));
		if (ready <= 0 || now_ns() > next_check) {
			watchdog(qs, n, during);
			next_check = now_ns() + CSTS_CHECK_NS;
		}
		for (j = 0; ready > 0 && j < nfds; j++) {
			if (fds[j].revents & (POLLERR | POLLHUP | POLLNVAL))
				die(EXIT_GONE, "device gone: waiting on %s%s "
				    "(unbound?)", vs[j]->name,
				    nfds > 1 ? " and others" : "");
			if (!(fds[j].revents & POLLIN))
				continue;
			/* consume: the fd is quiet until the next event */
			events = udrv_event_consume(dev.ud, vs[j]->nr);
			if (events < 0)
				die_udrv();
			if (!events)
				continue;
			vs[j]->wakeups++;
			for (i = 0; i < n; i++)
				if (qs[i]->vec == vs[j])
					got += reap(qs[i], fn);
			/* INTx: the CQ doorbell deasserts the line; unmask */
			if (dev.intx) {
				for (i = 0; i < n; i++)
					if (qs[i]->vec == vs[j])
						ring_cq(qs[i]);
				unmask_intx(vs[j]);
			}
		}
		if (got)
			return got;
	}
}

/* ---- one command at a time (admin, --write, --reads) ---- */
static struct cqe last_cqe;

static void keep_cqe(struct queue *q, struct slot *s, const struct cqe *c,
		     uint64_t now)
{
	(void)q;
	(void)s;
	(void)now;
	last_cqe = *c;
}

/* submit @cmd on @q (slot 0), wait for it; an error status is fatal */
static struct cqe run(struct queue *q, struct sqe *cmd)
{
	struct slot *s = &q->slots[0];

	s->busy = true;
	s->opcode = cmd->opcode;
	s->t0 = now_ns();
	submit(q, cmd, 0);
	ring(q);
	while (q->inflight)
		take_completions(&q, 1, keep_cqe, "waiting for a command");
	ring_cq(q);
	if (last_cqe.status >> 1)
		die(EXIT_COMMAND, "%s command 0x%02x failed: status type %u "
		    "code 0x%02x%s", q->name, cmd->opcode,
		    STATUS_SCT(last_cqe.status), STATUS_SC(last_cqe.status),
		    STATUS_DNR(last_cqe.status) ? " (do not retry)" : "");
	return last_cqe;
}

/* ---- Identify ---- */
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
		.prp1 = dma_bus(dev.ident),	/* 4 KiB, one page */
		.cdw10 = cns,
	};

	memset(dma_cpu(dev.ident), 0, PAGE);
	run(&dev.admin, &cmd);
}

static void identify_all(void)
{
	const uint8_t *id = dma_cpu(dev.ident);
	char model[41], serial[21], fw[9];
	unsigned int lbaf;
	uint32_t nn;

	identify(0, CNS_CONTROLLER);
	ident_string(serial, id + 4, 20);	/* SN, bytes 4..23 */
	ident_string(model, id + 24, 40);	/* MN, bytes 24..63 */
	ident_string(fw, id + 64, 8);		/* FR, bytes 64..71 */
	memcpy(&nn, id + 516, 4);		/* NN: number of namespaces */
	/* MDTS, byte 77: 2^n minimum pages per command, 0: no limit */
	mdts_bytes = id[77] && id[77] < 20 ? PAGE << id[77] : 0;
	printf("model: %s\nserial: %s\nfirmware: %s\n", model, serial, fw);
	if (nn < 1)
		die(EXIT_CONTROLLER, "the controller has no namespace");

	identify(1, CNS_NAMESPACE);
	memcpy(&ns_blocks, id, 8);		/* NSZE, in logical blocks */
	lbaf = id[26] & 0xf;			/* FLBAS: the format in use */
	block_size = 1u << id[128 + 4 * lbaf + 2];	/* LBAF[n].LBADS */
	if (!ns_blocks)
		die(EXIT_CONTROLLER, "namespace 1 is not active (size 0)");
	if (block_size > PAGE || PAGE % block_size)
		die(EXIT_CONTROLLER, "blocks of %u bytes are not supported",
		    block_size);
	printf("namespace 1: %llu blocks of %u bytes (%llu bytes)\n",
	       (unsigned long long)ns_blocks, block_size,
	       (unsigned long long)ns_blocks * block_size);
}

/* ---- the I/O queue pairs ---- */
/*
 * Queues 1 .. nq, each of @depth + 1 entries (a full ring keeps one
 * empty) with @depth slots of @io_bytes; @fatal: one more pair whose SQ
 * the controller cannot read (--inject fatal); @no_irq: the CQs without
 * interrupts although we wait on their vectors (--inject timeout).
 */
static void create_io_queues(unsigned int depth, unsigned int io_bytes,
			     bool fatal, bool no_irq)
{
	size_t data, stride = slot_bytes(io_bytes);
	unsigned int i, k, total = dev.nq + fatal;
	struct sqe cmd;
	struct cqe c;

	/* how many I/O queues we use (0-based SQs, CQs) */
	cmd = (struct sqe){ .opcode = ADM_SET_FEATURES, .cdw10 = FEAT_NUM_QUEUES,
			    .cdw11 = (total - 1) << 16 | (total - 1) };
	c = run(&dev.admin, &cmd);
	if ((c.result & 0xffff) + 1 < total || (c.result >> 16) + 1 < total)
		die(EXIT_CONTROLLER, "%u I/O queues asked for, the controller "
		    "grants %u", total, (c.result & 0xffff) + 1);

	for (i = 0; i < total; i++) {
		struct queue *q = &dev.io[i];
		uint32_t iv = q->vec && !no_irq ? (uint32_t)q->vec->nr << 16 | 1u << 1 : 0;

		init_queue(q, "I/O", i + 1, depth + 1,
			   carve(queue_bytes(depth + 1)), depth);
		data = carve(depth * stride);
		for (k = 0; k < depth; k++) {
			q->slots[k].data = data + k * stride;
			q->slots[k].prp_list = io_bytes > 2 * PAGE ? carve(PAGE) : 0;
		}
		/* the CQ first: contiguous (PC), interrupts (IEN) on vector IV */
		cmd = (struct sqe){
			.opcode = ADM_CREATE_CQ,
			.prp1 = q->cq_bus,
			.cdw10 = (uint32_t)(q->entries - 1) << 16 | q->id,
			.cdw11 = iv | 1,
		};
		run(&dev.admin, &cmd);
		/*
		 * The SQ, feeding its CQ.  --inject fatal: the last one at a
		 * bus address nothing answers (an unassigned 16 TiB), which
		 * QEMU's controller answers with CSTS.CFS once it fetches.
		 */
		cmd = (struct sqe){
			.opcode = ADM_CREATE_SQ,
			.prp1 = i == dev.nq ? 0xfff00000000ull : q->sq_bus,
			.cdw10 = (uint32_t)(q->entries - 1) << 16 | q->id,
			.cdw11 = (uint32_t)q->id << 16 | 1,
		};
		run(&dev.admin, &cmd);
	}
}

/* ---- data commands ---- */
/* a read or write of @bytes at @lba from slot @s's data, its PRPs */
static struct sqe rw_command(uint8_t opcode, uint64_t lba, unsigned int bytes,
			     size_t data, size_t prp_list)
{
	unsigned int pages = (bytes + PAGE - 1) / PAGE, p;
	struct sqe cmd = {
		.opcode = opcode,
		.nsid = 1,
		.prp1 = dma_bus(data),
		.cdw10 = (uint32_t)lba,
		.cdw11 = (uint32_t)(lba >> 32),
		.cdw12 = bytes / block_size - 1,	/* blocks, 0-based */
	};

	if (pages == 2) {
		cmd.prp2 = dma_bus(data + PAGE);
	} else if (pages > 2) {
		/* PRP2 points to a list of the pages after the first */
		uint64_t *list = dma_cpu(prp_list);

		for (p = 1; p < pages; p++)
			list[p - 1] = dma_bus(data + (size_t)p * PAGE);
		cmd.prp2 = dma_bus(prp_list);
	}
	return cmd;
}

/* one read or write on queue 1 from @data; its latency in ns */
static uint64_t rw_sync(uint8_t opcode, uint64_t lba, unsigned int bytes,
			size_t data)
{
	struct queue *q = &dev.io[0];
	struct sqe cmd = rw_command(opcode, lba, bytes, data, 0);
	uint64_t t0 = now_ns();

	run(q, &cmd);
	return now_ns() - t0;
}

static unsigned long mismatches;

/* compare @len bytes at block @lba with pattern @seed (0: the image) */
static bool check_pattern(const uint8_t *p, uint64_t seed, uint64_t lba,
			  unsigned int len)
{
	uint64_t off = lba * block_size, w;
	unsigned int i;

	for (i = 0; i < len; i += 8) {
		memcpy(&w, p + i, 8);
		if (w != pattern_word(seed, off + i)) {
			if (!mismatches)
				fprintf(stderr, PROG ": mismatch at byte %llu: "
					"0x%016llx, want 0x%016llx\n",
					(unsigned long long)off + i,
					(unsigned long long)w,
					(unsigned long long)pattern_word(seed, off + i));
			mismatches++;
			return false;
		}
	}
	return true;
}

static void fill_pattern(uint8_t *p, uint64_t seed, uint64_t lba,
			 unsigned int len)
{
	uint64_t off = lba * block_size, w;
	unsigned int i;

	for (i = 0; i < len; i += 8) {
		w = pattern_word(seed, off + i);
		memcpy(p + i, &w, 8);
	}
}

/* write a test block at @lba, read it back, restore the original */
static void write_test(uint64_t lba, bool check)
{
	size_t got = dev.scratch, mine = got + PAGE, orig = got + 2 * PAGE;
	uint8_t *g = dma_cpu(got), *m = dma_cpu(mine), *o = dma_cpu(orig);
	unsigned int i;

	if (lba >= ns_blocks)
		die(EXIT_USAGE, "--write %llu: the namespace has %llu blocks",
		    (unsigned long long)lba, (unsigned long long)ns_blocks);
	rw_sync(NVM_READ, lba, block_size, orig);
	if (check)
		check_pattern(o, 0, lba, block_size);
	for (i = 0; i < block_size; i++)
		m[i] = (uint8_t)(i * 13 + lba + 0x5a);
	rw_sync(NVM_WRITE, lba, block_size, mine);
	memset(g, 0, block_size);
	rw_sync(NVM_READ, lba, block_size, got);
	if (memcmp(g, m, block_size))
		die(EXIT_MISMATCH, "block %llu read back differs from what was "
		    "written", (unsigned long long)lba);
	rw_sync(NVM_WRITE, lba, block_size, orig);
	memset(g, 0, block_size);
	rw_sync(NVM_READ, lba, block_size, got);
	if (memcmp(g, o, block_size))
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

#define LAT_SAMPLES	(1ul << 20)	/* --reads: latencies kept */

/* @n reads of 4 KiB, one at a time, cycling over the namespace; timed */
static void read_test(unsigned long n, bool check, const char *save)
{
	uint64_t units = ns_blocks * block_size / PAGE, *lat, t0, total;
	uint8_t *data = dma_cpu(dev.scratch);
	unsigned long i, nlat, p50, p99;
	int sfd = -1;

	if (!units)
		die(EXIT_CONTROLLER, "the namespace is smaller than 4 KiB");
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
		uint64_t unit = i % units, lba = unit * (PAGE / block_size);

		lat[i % nlat] = rw_sync(NVM_READ, lba, PAGE, dev.scratch);
		if (check)
			check_pattern(data, 0, lba, PAGE);
		if (sfd >= 0 && i < units &&
		    pwrite(sfd, data, PAGE, (off_t)(unit * PAGE)) != PAGE)
			die(EXIT_SETUP, "writing %s: %s", save, strerror(errno));
	}
	total = now_ns() - t0;
	if (sfd >= 0)
		close(sfd);
	qsort(lat, nlat, sizeof(*lat), cmp_u64);
	p50 = nlat / 2;
	p99 = nlat * 99 / 100;
	printf("reads: %lu x %u bytes, %s%lu mismatches\n", n, PAGE,
	       check ? "" : "not checked, ", mismatches);
	printf("rate: %.0f reads/s, latency median %.1f us, p99 %.1f us, "
	       "min %.1f us, max %.1f us (%s)\n", (double)n * 1e9 / (double)total,
	       (double)lat[p50] / 1e3, (double)lat[p99] / 1e3,
	       (double)lat[0] / 1e3, (double)lat[nlat - 1] / 1e3,
	       dev.io[0].vec ? "interrupt" : "polling");
	free(lat);
}

/* ---- perf: the workload of spdk_nvme_perf ---- */
enum workload { WL_READ, WL_WRITE, WL_RANDREAD, WL_RANDWRITE, WL_VERIFY };
static const char *const workload_names[] = {
	"read", "write", "randread", "randwrite", "verify",
};

enum inject { INJ_OPCODE = 1, INJ_LBA = 2, INJ_FATAL = 4, INJ_TIMEOUT = 8 };

/* the latencies of the successful commands */
static struct lat_hist latencies = { .min = ~0ull };

static struct {
	enum workload wl;
	unsigned int io_bytes, depth;
	uint64_t seed, units;		/* I/O-sized units of the namespace */
	uint64_t next_unit, rng;
	bool verify_reading, stop;
	uint64_t ios, errors, expected_errors;
} perf;

static uint64_t xorshift(void)
{
	perf.rng ^= perf.rng << 13;
	perf.rng ^= perf.rng >> 7;
	perf.rng ^= perf.rng << 17;
	return perf.rng;
}

/* the next command of slot @s of queue @q, written into the SQ */
static void perf_submit(struct queue *q, struct slot *s, uint64_t now)
{
	unsigned int bpu = perf.io_bytes / block_size;
	uint64_t unit;
	uint8_t opcode;
	struct sqe cmd;

	switch (perf.wl) {
	case WL_READ:
	case WL_WRITE:
		unit = perf.next_unit++ % perf.units;
		opcode = perf.wl == WL_READ ? NVM_READ : NVM_WRITE;
		break;
	case WL_RANDREAD:
	case WL_RANDWRITE:
		unit = xorshift() % perf.units;
		opcode = perf.wl == WL_RANDREAD ? NVM_READ : NVM_WRITE;
		break;
	default:	/* verify: every unit written once, then read once */
		unit = perf.next_unit++;
		opcode = perf.verify_reading ? NVM_READ : NVM_WRITE;
		if (opcode == NVM_WRITE)
			fill_pattern(dma_cpu(s->data), perf.seed, unit * bpu,
				     perf.io_bytes);
		break;
	}
	s->busy = true;
	s->injected = false;
	s->opcode = opcode;
	s->lba = unit * bpu;
	s->t0 = now;
	cmd = rw_command(opcode, s->lba, perf.io_bytes, s->data, s->prp_list);
	submit(q, &cmd, s - q->slots);
}

/* an --inject command in slot @s of @q: an unknown opcode, or a read
 * past the end of the namespace */
static void perf_submit_bad(struct queue *q, struct slot *s, int kind,
			    uint64_t now)
{
	struct sqe cmd = rw_command(NVM_READ, ns_blocks, block_size, s->data, 0);

	if (kind == INJ_OPCODE)
		cmd.opcode = NVM_BAD_OPCODE;
	s->busy = true;
	s->injected = true;
	s->opcode = cmd.opcode;
	s->lba = ns_blocks;
	s->t0 = now;
	submit(q, &cmd, s - q->slots);
}

/* whether the workload has more to submit */
static bool perf_more(void)
{
	if (perf.wl != WL_VERIFY)
		return !perf.stop;
	return perf.next_unit < perf.units;
}

static void perf_complete(struct queue *q, struct slot *s, const struct cqe *c,
			  uint64_t now)
{
	uint64_t lat = now - s->t0;

	if (c->status >> 1) {
		/* a failed command: its status, and the run goes on */
		fprintf(stderr, PROG ": command failed: queue %u, command "
			"0x%02x at block %llu: status type %u code 0x%02x%s\n",
			q->id, s->opcode, (unsigned long long)s->lba,
			STATUS_SCT(c->status), STATUS_SC(c->status),
			STATUS_DNR(c->status) ? " (do not retry)" : "");
		perf.errors++;
		q->errors++;
	} else if (s->injected) {
		die(EXIT_COMMAND, "the injected command 0x%02x at block %llu "
		    "succeeded", s->opcode, (unsigned long long)s->lba);
	} else {
		perf.ios++;
		lat_hist_add(&latencies, lat);
		if (perf.wl == WL_VERIFY && s->opcode == NVM_READ)
			check_pattern(dma_cpu(s->data), perf.seed, s->lba,
				      perf.io_bytes);
	}
	if (perf_more())
		perf_submit(q, s, now);
}

/* fill every free slot of the queues and ring each once */
static void perf_fill(struct queue **qs, unsigned int n)
{
	uint64_t now = now_ns();
	unsigned int i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < qs[i]->nslots && perf_more(); k++)
			if (!qs[i]->slots[k].busy)
				perf_submit(qs[i], &qs[i]->slots[k], now);
		ring(qs[i]);
	}
}

/* all queues' completions until none is in flight, submitting while
 * perf_more() and the clock allow */
static void perf_drive(struct queue **qs, unsigned int n, uint64_t end)
{
	unsigned int i, inflight;

	for (;;) {
		inflight = 0;
		for (i = 0; i < n; i++)
			inflight += qs[i]->inflight;
		if (!inflight)
			return;
		take_completions(qs, n, perf_complete, "during the run");
		/*
		 * The commands the completions made room for: one doorbell
		 * per SQ, and then one per CQ for the entries taken, so that
		 * the controller hears of the next commands first.
		 */
		for (i = 0; i < n; i++)
			ring(qs[i]);
		for (i = 0; i < n; i++)
			ring_cq(qs[i]);
		if (end && !perf.stop && now_ns() >= end)
			perf.stop = true;
	}
}

static void perf_run(enum workload wl, unsigned int depth, unsigned int io_bytes,
		     double secs, uint64_t seed, unsigned int injects)
{
	struct queue *qs[MAX_QUEUES + 1] = { &dev.io[0] };	/* nq >= 1 */
	unsigned long doorbells = 0, commands = 0;
	uint64_t t0, elapsed, bytes;
	unsigned int i;
	char what[64];

	perf.wl = wl;
	perf.depth = depth;
	perf.io_bytes = io_bytes;
	perf.seed = seed;
	perf.rng = 0x2545f4914f6cdd1dull ^ seed;
	perf.units = ns_blocks * block_size / io_bytes;
	if (!perf.units)
		die(EXIT_USAGE, "--size %u: the namespace has %llu bytes",
		    io_bytes, (unsigned long long)ns_blocks * block_size);
	for (i = 0; i < dev.nq; i++)
		qs[i] = &dev.io[i];
	if (wl == WL_VERIFY)
		snprintf(what, sizeof(what), "whole namespace, seed %llu",
			 (unsigned long long)seed);
	else
		snprintf(what, sizeof(what), "%.2f s", secs);
	printf("perf: %s, %u-byte I/Os, depth %u, %u queue%s, %s, %s\n",
	       workload_names[wl], io_bytes, depth, dev.nq,
	       dev.nq == 1 ? "" : "s", dev.io[0].vec ? "interrupt" : "polled",
	       what);

	t0 = now_ns();
	/* --inject: the bad commands go first, in queue 1's first slots */
	i = 0;
	if (injects & INJ_OPCODE)
		perf_submit_bad(qs[0], &qs[0]->slots[i++], INJ_OPCODE, t0);
	if ((injects & INJ_LBA) && i < qs[0]->nslots)
		perf_submit_bad(qs[0], &qs[0]->slots[i++], INJ_LBA, t0);
	perf.expected_errors = i;
	if (injects & INJ_FATAL) {
		/* the SQ the controller cannot fetch from: CSTS.CFS */
		struct queue *bad = &dev.io[dev.nq];
		struct sqe cmd = rw_command(NVM_READ, 0, block_size,
					    bad->slots[0].data, 0);

		bad->slots[0].busy = true;
		bad->slots[0].opcode = NVM_READ;
		bad->slots[0].t0 = t0;
		submit(bad, &cmd, 0);
		ring(bad);
		qs[dev.nq] = bad;
	}
	perf_fill(qs, dev.nq);
	perf_drive(qs, dev.nq + !!(injects & INJ_FATAL),
		   wl == WL_VERIFY ? 0 : t0 + (uint64_t)(secs * 1e9));
	if (wl == WL_VERIFY) {
		/* every unit written; now read each back */
		perf.verify_reading = true;
		perf.next_unit = 0;
		perf_fill(qs, dev.nq);
		perf_drive(qs, dev.nq, 0);
	}
	elapsed = now_ns() - t0;
	bytes = perf.ios * io_bytes;
	if (wl == WL_VERIFY)
		printf("verify: %llu x %u bytes written and read back, %lu "
		       "mismatches\n", (unsigned long long)perf.units, io_bytes,
		       mismatches);
	printf("ios: %llu, failed %llu\n", (unsigned long long)perf.ios,
	       (unsigned long long)perf.errors);
	printf("rate: %.0f IOPS, %.2f MiB/s\n",
	       (double)perf.ios * 1e9 / (double)elapsed,
	       (double)bytes * 1e9 / (double)elapsed / (1024 * 1024));
	if (perf.ios)
		lat_hist_print(&latencies);
	for (i = 0; i < dev.nq; i++) {
		printf("queue %u: %s, %lu commands, %lu SQ doorbells, %lu failed\n",
		       dev.io[i].id, dev.io[i].vec ? dev.io[i].vec->name : "polled",
		       dev.io[i].commands, dev.io[i].doorbells, dev.io[i].errors);
		commands += dev.io[i].commands;
		doorbells += dev.io[i].doorbells;
	}
	printf("doorbells: %lu SQ doorbell writes for %lu commands (%.2f per "
	       "write)\n", doorbells, commands,
	       doorbells ? (double)commands / (double)doorbells : 0.0);
}

/* ---- shutdown ---- */
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
		"usage: udrv-nvme [--poll] [--queues N] [--timeout MS]\n"
		"                [--reads N] [--check] [--write LBA] [--save FILE]\n"
		"                [--workload W [--depth N] [--size BYTES] [--time S]\n"
		"                 [--seed N] [--inject KIND]...] PCI_ADDR\n"
		"\n"
		"A user-space NVMe driver on libudrv: opens PCI_ADDR (e.g.\n"
		"0000:00:1a.0, bound to iio_pci_generic or vfio-pci), identifies\n"
		"the controller and namespace 1,\n"
		"creates I/O queue pairs (queue i on MSI-X vector i) and works.\n"
		"\n"
		"  --poll         take I/O completions by polling the CQs (no interrupt;\n"
		"                 admin completions still come on vector 0)\n"
		"  --queues N     I/O queue pairs, 1 to 8 (with interrupts: up to the\n"
		"                 MSI-X vectors - 1; default 1)\n"
		"  --timeout MS   the longest a command may take (default 5000)\n"
		"  --reads N      N reads of 4 KiB, one at a time, cycling over the\n"
		"                 namespace (default 0)\n"
		"  --check        compare the data with the test image (tests/nvme/mkimage)\n"
		"  --write LBA    write a block at LBA, read it back, restore the original\n"
		"  --save FILE    the data of the first pass of reads into FILE\n"
		"  --workload W   a perf run: read, write, randread, randwrite, or verify\n"
		"                 (write a pattern over the whole namespace, read it back)\n"
		"  --depth N      commands in flight per queue (default 1; < CAP.MQES + 1)\n"
		"  --size BYTES   bytes per command, blocks, up to 128 KiB and MDTS\n"
		"                 (default 4096)\n"
		"  --time S       run time in seconds (default 1; not for verify)\n"
		"  --seed N       verify's pattern and the random offsets (default 1;\n"
		"                 verify with 0 writes the test image itself)\n"
		"  --inject KIND  opcode: one command with an unknown opcode; lba: one\n"
		"                 read past the namespace (both: the status is printed,\n"
		"                 the run goes on, exit 5); fatal: a queue the controller\n"
		"                 cannot fetch from (CSTS.CFS, exit 4); timeout: the CQs\n"
		"                 without interrupts (exit 6)\n"
		"\n"
		"exit status: 0 ok, 1 data mismatch, 2 usage, 3 setup (binding, sysfs,\n"
		"DMA buffer), 4 controller (fatal status, reset timeout), 5 command\n"
		"error status, 6 completion timeout or wrong phase, 7 device gone\n");
}

static unsigned long number(const char *opt, const char *arg,
			    unsigned long min, unsigned long max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 0);
	if (errno || *end || !*arg || arg[0] == '-' || v < min || v > max)
		die(EXIT_USAGE, "%s needs a number from %lu to %lu, not \"%s\"",
		    opt, min, max, arg);
	return v;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "poll", no_argument, NULL, 'p' },
		{ "reads", required_argument, NULL, 'r' },
		{ "check", no_argument, NULL, 'c' },
		{ "write", required_argument, NULL, 'w' },
		{ "save", required_argument, NULL, 's' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "queues", required_argument, NULL, 'n' },
		{ "workload", required_argument, NULL, 'W' },
		{ "depth", required_argument, NULL, 'q' },
		{ "size", required_argument, NULL, 'o' },
		{ "time", required_argument, NULL, 't' },
		{ "seed", required_argument, NULL, 'S' },
		{ "inject", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long reads = 0;
	long long write_lba = -1;
	bool poll_io = false, check = false;
	const char *save = NULL, *irq;
	int c, wl = -1;
	unsigned int depth = 1, io_bytes = 4096, injects = 0, k;
	unsigned long io_commands = 0;
	double secs = 1;
	uint64_t seed = 1;
	size_t need;
	char *end;

	dev.nq = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
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
		case 'T':
			dev.timeout_ms = number("--timeout", optarg, 1, 600000);
			break;
		case 'n':
			dev.nq = number("--queues", optarg, 1, MAX_QUEUES);
			break;
		case 'W':
			for (k = 0; k < 5 && strcmp(optarg, workload_names[k]); k++)
				;
			if (k == 5)
				die(EXIT_USAGE, "--workload is read, write, randread, "
				    "randwrite or verify, not \"%s\"", optarg);
			wl = (int)k;
			break;
		case 'q':
			depth = number("--depth", optarg, 1, 65535);
			break;
		case 'o':
			io_bytes = number("--size", optarg, 512, MAX_IO_BYTES);
			break;
		case 't':
			errno = 0;
			secs = strtod(optarg, &end);
			if (errno || *end || !(secs > 0 && secs <= 3600))
				die(EXIT_USAGE, "--time needs seconds, more than 0 "
				    "and at most 3600, not \"%s\"", optarg);
			break;
		case 'S':
			seed = number("--seed", optarg, 0, ~0ul);
			break;
		case 'i':
			if (!strcmp(optarg, "opcode"))
				injects |= INJ_OPCODE;
			else if (!strcmp(optarg, "lba"))
				injects |= INJ_LBA;
			else if (!strcmp(optarg, "fatal"))
				injects |= INJ_FATAL;
			else if (!strcmp(optarg, "timeout"))
				injects |= INJ_TIMEOUT;
			else
				die(EXIT_USAGE, "--inject is opcode, lba, fatal or "
				    "timeout, not \"%s\"", optarg);
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
	if (wl < 0 && (injects || dev.nq > 1 || depth > 1))
		die(EXIT_USAGE, "--queues, --depth and --inject are for a "
		    "--workload run");
	if (wl >= 0 && (reads || write_lba >= 0))
		die(EXIT_USAGE, "--workload does not go with --reads or --write");
	if ((injects & INJ_TIMEOUT) && poll_io)
		die(EXIT_USAGE, "--inject timeout needs interrupts, not --poll");
	/* the injected commands take slots of queue 1; one is left for work */
	if (depth < 1u + !!(injects & INJ_OPCODE) + !!(injects & INJ_LBA))
		die(EXIT_USAGE, "--inject opcode or lba needs a --depth of at "
		    "least 2 (3 for both)");
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGBUS, on_sigbus);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	signal(SIGPIPE, SIG_IGN);	/* stdout gone (| head): finish anyway */

	/* 1. the controller: a PCI function of class 01 08 02 (mass
	 * storage, non-volatile memory, NVM Express), bound to
	 * iio_pci_generic or vfio-pci */
	{
		uint32_t class_code;

		if (udrv_device_open(dev.pci, &dev.ud))
			die_udrv();
		if (udrv_device_pci_id(dev.ud, NULL, NULL, &class_code))
			die_udrv();
		if (class_code != 0x010802)
			die(EXIT_SETUP, "%s is not an NVMe controller (class "
			    "0x%06x)", dev.pci, class_code);
	}
	/* 2. the registers; the doorbells of the queues */
	map_bar0(dev.nq + 2);
	if (depth > CAP_MQES(dev.cap))
		die(EXIT_USAGE, "--depth %u: queues hold %u entries at most "
		    "(CAP.MQES), one stays empty", depth, CAP_MQES(dev.cap) + 1);
	/* 3. the DMA buffer */
	need = queue_bytes(ADMIN_ENTRIES) + (1 + SCRATCH_PAGES) * PAGE +
	       (dev.nq + !!(injects & INJ_FATAL)) *
	       io_queue_bytes(wl >= 0 ? depth : 1, wl >= 0 ? io_bytes : PAGE);
	irq = setup_interrupts(poll_io, wl >= 0);
	get_dma_buffer(need);
	dev.ident = carve(PAGE);
	dev.scratch = carve(SCRATCH_PAGES * PAGE);
	enable_controller();			/* 4 */
	printf("controller: %s (%s), NVMe %u.%u, queues of %u entries at "
	       "most, doorbell stride %u\n", dev.pci, udrv_device_backend(dev.ud),
	       reg32(REG_VS) >> 16, reg32(REG_VS) >> 8 & 0xff,
	       CAP_MQES(dev.cap) + 1, 4u << CAP_DSTRD(dev.cap));
	identify_all();				/* 5 */
	if (io_bytes % block_size || (mdts_bytes && io_bytes > mdts_bytes))
		die(EXIT_USAGE, "--size %u: a multiple of the %u-byte block, at "
		    "most %u (MDTS)", io_bytes, block_size,
		    mdts_bytes && mdts_bytes < MAX_IO_BYTES ? mdts_bytes : MAX_IO_BYTES);
	if (injects & INJ_FATAL) {
		/* the extra pair: polled, with one slot */
		dev.io[dev.nq].vec = NULL;
	}
	create_io_queues(wl >= 0 ? depth : 1, wl >= 0 ? io_bytes : PAGE,
			 injects & INJ_FATAL, injects & INJ_TIMEOUT);
	printf("interrupts: %s\n", irq);
	if (write_lba >= 0)
		write_test(write_lba, check);	/* 7 */
	if (reads)
		read_test(reads, check, save);
	if (wl >= 0)
		perf_run(wl, depth, io_bytes, secs, seed, injects);
	for (k = 0; k < dev.nq; k++)
		io_commands += dev.io[k].commands;
	printf("commands: admin %lu, io %lu; wakeups:", dev.admin.commands,
	       io_commands);
	for (k = 0; k < dev.vectors; k++)
		printf("%s vector %u %lu", k ? "," : "", k, dev.vec[k].wakeups);
	printf("\n");
	shutdown_controller();			/* 8 */
	if (mismatches)
		die(EXIT_MISMATCH, "%lu blocks read differ from what they must be",
		    mismatches);
	if (perf.errors)
		die(EXIT_COMMAND, "%llu command%s failed (%llu injected)",
		    (unsigned long long)perf.errors, perf.errors == 1 ? "" : "s",
		    (unsigned long long)perf.expected_errors);
	udrv_device_close(dev.ud);
	return EXIT_OK;
}
