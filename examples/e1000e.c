// SPDX-License-Identifier: GPL-2.0-only
/*
 * e1000e.c - udrv-e1000e, a user-space network driver for the Intel 82574L
 * (QEMU's -device e1000e) on libudrv(3)
 *
 * An example to copy, after examples/nvme.c: a NIC driver with descriptor
 * rings in a DMA buffer, tail-doorbell batching, interrupts per queue
 * (MSI-X: receive, transmit and link each on a vector of their own) or
 * pure polling, and statistics from the device's counters, from user
 * space, with nothing in the kernel but iio_pci_generic(4) or mainline
 * vfio-pci: everything goes through the library (udrv.h), which opens
 * the function on whichever of the two it is bound to.
 *
 *   1. open the PCI function (bound to iio_pci_generic or vfio-pci), an
 *      82574L (8086:10d3)
 *   2. map BAR0, the registers
 *   3. one DMA buffer: the receive and transmit descriptor rings and a
 *      2 KiB frame buffer per descriptor
 *   4. reset (82574L datasheet 14.5: master disable, interrupts off,
 *      CTRL.RST, EEPROM auto-read done), clear the statistics
 *   5. link up (14.7, 14.8: CTRL.SLU, the PHY's auto-negotiation
 *      restarted over MDIC, wait for STATUS.LU)
 *   6. the rings (14.6: RDBA/RDLEN/RDH/RDT, TDBA/TDLEN/TDH/TDT, RCTL,
 *      TCTL), interrupts (IVAR, EIAC, IMS) or none
 *   7. the run: COUNT frames sent to the peer, each taken back from it
 *   8. the counters, the device stopped
 *
 * The run: frames of the layout of e1000e_frame.h, sequence numbers 0 to
 * COUNT - 1, go out through the transmit ring; the peer on the other side
 * of the wire (the tests: the kernel's e1000e on QEMU's other port and
 * tests/helpers/nic_reflect on a raw socket) sends each one back as its
 * echo, which must arrive in order and be what was sent.  At most
 * --window frames are out without their echo (flow control: nothing is
 * dropped for lack of room at the peer), and the transmit tail register
 * (the doorbell) is written once per --batch frames.
 *
 * usage: see usage() and examples/e1000e.md.  Every failure is one line
 * "udrv-e1000e: ..." on stderr and one of the exit statuses below.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <udrv.h>

#include "e1000e_frame.h"

#define PROG		"udrv-e1000e"

/* Exit statuses (also in examples/e1000e.md) */
enum {
	EXIT_OK = 0,
	EXIT_BAD_FRAME = 1,	/* an echo corrupted, out of order, unexpected */
	EXIT_USAGE = 2,
	EXIT_SETUP = 3,		/* open, identity, mapping, DMA, interrupts */
	EXIT_LINK = 4,		/* link not up, or lost during the run */
	EXIT_LOST = 5,		/* a frame not back within --timeout */
	EXIT_STALL = 6,		/* the device stopped taking descriptors */
	EXIT_GONE = 7,		/* device unbound or removed under us */
};

/* ---- registers (82574L datasheet, chapter 10; offsets into BAR0) ---- */
#define CTRL		0x0000
#define STATUS		0x0008
#define EECD		0x0010
#define CTRL_EXT	0x0018
#define MDIC		0x0020
#define ICR		0x00c0	/* interrupt cause, read to clear */
#define ITR		0x00c4
#define IMS		0x00d0	/* interrupt mask set */
#define IMC		0x00d8	/* interrupt mask clear */
#define EIAC		0x00dc	/* MSI-X: causes auto-cleared on notify */
#define IVAR		0x00e4	/* MSI-X: cause -> vector */
#define RCTL		0x0100
#define TCTL		0x0400
#define TIPG		0x0410
#define RDBAL		0x2800
#define RDBAH		0x2804
#define RDLEN		0x2808
#define RDH		0x2810
#define RDT		0x2818	/* the receive doorbell */
#define RDTR		0x2820
#define RADV		0x282c
#define TDBAL		0x3800
#define TDBAH		0x3804
#define TDLEN		0x3808
#define TDH		0x3810
#define TDT		0x3818	/* the transmit doorbell */
#define TIDV		0x3820
#define TADV		0x382c
#define TARC0		0x3840
#define RFCTL		0x5008
#define MTA		0x5200	/* 128 registers */
#define RAL0		0x5400
#define RAH0		0x5404
/* statistics, cleared when read (datasheet 10.2.6) */
#define CRCERRS		0x4000
#define MPC		0x4010	/* missed packets */
#define GPRC		0x4074	/* good packets received */
#define GPTC		0x4080	/* good packets transmitted */
#define GORCL		0x4088	/* good octets received, low then high */
#define GOTCL		0x4090
#define RNBC		0x40a0	/* receive: no buffers */
#define TPR		0x40d0
#define TPT		0x40d4

#define CTRL_GIO_MASTER_DISABLE	(1u << 2)
#define CTRL_ASDE	(1u << 5)
#define CTRL_SLU	(1u << 6)	/* set link up */
#define CTRL_FRCSPD	(1u << 11)
#define CTRL_FRCDPX	(1u << 12)
#define CTRL_RST	(1u << 26)
#define STATUS_FD	(1u << 0)
#define STATUS_LU	(1u << 1)
#define STATUS_SPEED(s)	(((s) >> 6) & 3)
#define STATUS_GIO_MASTER_ENABLE (1u << 19)
#define EECD_AUTO_RD	(1u << 9)
#define CTRL_EXT_PBA_CLR (1u << 31)
#define MDIC_PHY1	(1u << 21)	/* PHY address 1 */
#define MDIC_OP_WRITE	(1u << 26)
#define MDIC_OP_READ	(2u << 26)
#define MDIC_READY	(1u << 28)
#define MDIC_ERROR	(1u << 30)
#define PHY_CTRL	0
#define PHY_CTRL_AUTONEG_EN	(1u << 12)
#define PHY_CTRL_RESTART_AN	(1u << 9)
#define RCTL_EN		(1u << 1)
#define RCTL_UPE	(1u << 3)	/* unicast promiscuous */
#define RCTL_MPE	(1u << 4)	/* multicast promiscuous */
#define RCTL_BAM	(1u << 15)	/* broadcasts */
#define RCTL_SECRC	(1u << 26)	/* strip the FCS */
#define TCTL_EN		(1u << 1)
#define TCTL_PSP	(1u << 3)	/* pad short packets */
#define TCTL_CT		(0x0fu << 4)
#define TCTL_COLD	(0x3fu << 12)	/* full duplex */
#define TARC_ENABLE	(1u << 10)
#define RAH_AV		(1u << 31)
#define ICR_LSC		(1u << 2)	/* link status change */
#define ICR_RXQ0	(1u << 20)
#define ICR_TXQ0	(1u << 22)
#define ICR_OTHER	(1u << 24)
#define IVAR_VALID	8u
#define IVAR_RXQ0(v)	((IVAR_VALID | (v)) << 0)
#define IVAR_TXQ0(v)	((IVAR_VALID | (v)) << 8)
#define IVAR_OTHER(v)	((IVAR_VALID | (v)) << 16)

/* legacy descriptors (datasheet 7.1.4, 7.2.10): 16 bytes each */
struct rx_desc {
	uint64_t addr;
	uint16_t length;
	uint16_t csum;
	uint8_t status;
	uint8_t errors;
	uint16_t special;
};

struct tx_desc {
	uint64_t addr;
	uint16_t length;
	uint8_t cso;
	uint8_t cmd;
	uint8_t status;
	uint8_t css;
	uint16_t special;
};

_Static_assert(sizeof(struct rx_desc) == 16, "RX descriptor");
_Static_assert(sizeof(struct tx_desc) == 16, "TX descriptor");

#define RXD_DD		0x01	/* descriptor done */
#define RXD_EOP		0x02
#define TXD_EOP		0x01
#define TXD_IFCS	0x02	/* insert the FCS */
#define TXD_RS		0x08	/* report status: write DD back */
#define TXD_DD		0x01

/* ---- sizes ---- */
#define RING		256u		/* descriptors per ring */
#define BUF		2048u		/* bytes per frame buffer (RCTL.BSIZE) */
#define PAGE		4096u
#define CHECK_NS	10000000ull	/* link, device, ages every 10 ms */
#define VEC_RX		0		/* MSI-X vectors */
#define VEC_TX		1
#define VEC_LINK	2
#define VECTORS		3

static const uint8_t broadcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

static struct {
	const char *pci;
	struct udrv_device *ud;
	volatile uint32_t *bar;
	struct udrv_dma *dma;
	uint8_t *cpu;			/* the DMA buffer's mapping */
	uint64_t bus;			/* and its bus address */
	volatile struct rx_desc *rx;
	volatile struct tx_desc *tx;
	size_t rx_bufs, tx_bufs;	/* offsets of the frame buffers */
	unsigned int rx_next;		/* next RX descriptor to look at */
	unsigned int tx_tail, tx_clean;	/* next to fill, oldest in flight */
	unsigned int tx_unrung;		/* filled since the last doorbell */
	unsigned int rx_taken;		/* taken since the last RDT write */
	uint8_t mac[6];
	bool poll;
	int fd[VECTORS];		/* udrv_event_fd(), -1 if not used */
	unsigned long wakeups[VECTORS];
	bool running;			/* rings enabled: stop them on exit */
	unsigned int timeout_ms;
} nic = { .timeout_ms = 5000, .fd = { -1, -1, -1 } };

/* what a run does: round trips, or one way */
enum mode { ROUND_TRIP, TRANSMIT_ONLY, RECEIVE_ONLY };

/* the run */
static struct {
	enum mode mode;
	uint64_t count, sent, back, other, bytes_sent;
	uint64_t credited;		/* receive-only: taken as of the last credit */
	unsigned long credits;
	bool run_known;			/* receive-only: --run, or the first frame's */
	unsigned int min, max, batch, window;
	uint32_t run;
	uint64_t t_progress;		/* when the last echo came */
	uint64_t t_first;		/* receive-only: when the first frame came */
	uint64_t t_last;		/* --unchecked: when the last one came */
	unsigned long tx_doorbells, rx_doorbells;
	bool prebuilt;			/* --prebuilt: the ring's frames resent */
	bool unchecked;			/* --unchecked: frames counted, no more */
	bool ended;			/* --unchecked: none came for --timeout */
} run = { .count = 1000, .min = 60, .max = 60, .batch = 32, .window = 64 };

/* ---- errors ---- */
/*
 * Interrupts masked, then 20 ms before the caller closes the device (its
 * MSI-X is disabled then): an MSI-X interrupt arms the vector's throttling
 * timer (EITR, at most 65535 x 256 ns, 16.8 ms), and QEMU 7.2's e1000e
 * aborts ("e1000e_intrmgr_on_msix_throttling_timer: Assertion
 * `msix_enabled(...)' failed", removed in QEMU 8.0) if that timer fires
 * after MSI-X went off: it did once in a CI run, after a run on vfio-pci.
 * Real 82574Ls have no such timer to outlive; the wait costs one run 20 ms.
 * The wait is poll() with no fds: on_signal() calls this, and poll() is
 * async-signal-safe (POSIX.1-2017, 2.4.3), nanosleep() is not listed.
 */
static void stop_device(void)
{
	if (!nic.running)
		return;
	nic.bar[IMC / 4] = ~0u;	/* running: it is mapped */
	nic.bar[RCTL / 4] = 0;
	nic.bar[TCTL / 4] = 0;
	nic.running = false;
	(void)poll(NULL, 0, 20);
}

#define EXAMPLE_DEVICE	nic.ud
#include "example_exit.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/* ---- BAR0 ---- */
/*
 * The mapping is set before the first access; the check (one compare
 * beside a trapped MMIO access) tells the static analyzers so, which
 * cannot tell a store through BAR0 from one to nic.bar itself.
 */
static volatile uint32_t *regs(void)
{
	if (!nic.bar)
		abort();
	return nic.bar;
}

static uint32_t rd(uint32_t off)
{
	return regs()[off / 4];
}

static void wr(uint32_t off, uint32_t v)
{
	regs()[off / 4] = v;
}

/* STATUS, with the device's disappearance (all ones) ending the run */
static uint32_t status_reg(void)
{
	uint32_t s = rd(STATUS);

	if (s == ~0u)
		die(EXIT_GONE, "device gone: STATUS reads all ones");
	return s;
}

/* a PHY register written over MDIC (datasheet 10.2.2.8) */
static void phy_write(unsigned int reg, uint16_t value)
{
	uint64_t deadline = now_ns() + 100000000ull;
	uint32_t m;

	wr(MDIC, value | reg << 16 | MDIC_PHY1 | MDIC_OP_WRITE);
	while (!((m = rd(MDIC)) & MDIC_READY)) {
		if (m == ~0u)
			die(EXIT_GONE, "device gone: MDIC reads all ones");
		if (now_ns() > deadline)
			die(EXIT_SETUP, "MDIC: the PHY write did not complete");
		usleep(100);
	}
	if (m & MDIC_ERROR)
		die(EXIT_SETUP, "MDIC: the PHY refused register %u", reg);
}

/* ---- 4. reset ---- */
static void reset(void)
{
	uint64_t deadline;
	unsigned int i;

	/* stop DMA: master disable, then wait for it to take effect */
	wr(CTRL, rd(CTRL) | CTRL_GIO_MASTER_DISABLE);
	deadline = now_ns() + 100000000ull;
	while (status_reg() & STATUS_GIO_MASTER_ENABLE) {
		if (now_ns() > deadline)
			break;	/* the datasheet: reset anyway */
		usleep(100);
	}
	wr(IMC, ~0u);
	wr(RCTL, 0);
	wr(TCTL, TCTL_PSP);
	(void)rd(STATUS);		/* flush the writes */
	usleep(10000);
	wr(CTRL, rd(CTRL) | CTRL_RST);
	usleep(1000);
	deadline = now_ns() + 100000000ull;
	while (rd(CTRL) & CTRL_RST) {	/* self-clearing */
		if (rd(CTRL) == ~0u)
			die(EXIT_GONE, "device gone: CTRL reads all ones");
		if (now_ns() > deadline)
			die(EXIT_SETUP, "the reset (CTRL.RST) did not complete");
		usleep(100);
	}
	/* the EEPROM's contents (MAC address) are loaded */
	deadline = now_ns() + 100000000ull;
	while (!(rd(EECD) & EECD_AUTO_RD)) {
		if (now_ns() > deadline)
			die(EXIT_SETUP, "EEPROM auto-read not done after reset");
		usleep(100);
	}
	wr(IMC, ~0u);
	(void)rd(ICR);
	/* read-to-clear statistics: a previous user's counts go */
	for (i = CRCERRS; i <= 0x4124; i += 4)
		(void)rd(i);
}

/* ---- 5. link ---- */
static const char *speed_name(uint32_t status)
{
	static const char *const names[] = { "10", "100", "1000", "1000" };

	return names[STATUS_SPEED(status)];
}

static uint64_t link_up(void)
{
	uint64_t t0 = now_ns(), deadline = t0 + nic.timeout_ms * 1000000ull;
	uint32_t ctrl = rd(CTRL);

	/* the MAC follows the PHY's resolved speed and duplex */
	ctrl &= ~(CTRL_FRCSPD | CTRL_FRCDPX | CTRL_GIO_MASTER_DISABLE);
	wr(CTRL, ctrl | CTRL_SLU | CTRL_ASDE);
	/* auto-negotiation, restarted */
	phy_write(PHY_CTRL, PHY_CTRL_AUTONEG_EN | PHY_CTRL_RESTART_AN);
	while (!(status_reg() & STATUS_LU)) {
		if (now_ns() > deadline)
			die(EXIT_LINK, "link down: no link within %u ms "
			    "(STATUS 0x%08x)", nic.timeout_ms, rd(STATUS));
		usleep(1000);
	}
	return (now_ns() - t0) / 1000000;
}

/* ---- 3. and 6. the rings ---- */
static void setup_dma(void)
{
	size_t need = 2 * RING * sizeof(struct rx_desc) + 2 * RING * BUF,
	       want = 64 * 1024;
	unsigned int i;

	while (want < need)
		want *= 2;
	if (udrv_dma_alloc(nic.ud, want, &nic.dma))
		die_udrv();
	nic.cpu = udrv_dma_addr(nic.dma);
	nic.bus = udrv_dma_bus_addr(nic.dma);
	if (!nic.cpu)
		die(EXIT_SETUP, "the DMA buffer has no mapping");
	if (nic.bus % PAGE)
		die(EXIT_SETUP, "the DMA buffer is not page-aligned on the bus");
	memset(nic.cpu, 0, need);
	nic.rx = (volatile struct rx_desc *)nic.cpu;
	nic.tx = (volatile struct tx_desc *)(nic.cpu + RING * 16);
	nic.rx_bufs = 2 * RING * 16;
	nic.tx_bufs = nic.rx_bufs + RING * BUF;
	for (i = 0; i < RING; i++) {
		nic.rx[i].addr = nic.bus + nic.rx_bufs + (size_t)i * BUF;
		nic.tx[i].addr = nic.bus + nic.tx_bufs + (size_t)i * BUF;
	}
}

static void setup_rings(void)
{
	uint64_t rx_bus = nic.bus, tx_bus = nic.bus + RING * 16;
	unsigned int i;

	/* receive: every descriptor but one the device's (RDT = RDH - 1) */
	wr(RDBAL, (uint32_t)rx_bus);
	wr(RDBAH, (uint32_t)(rx_bus >> 32));
	wr(RDLEN, RING * 16);
	wr(RDH, 0);
	wr(RDT, RING - 1);
	wr(RDTR, 0);			/* no receive interrupt delay */
	wr(RADV, 0);
	wr(RFCTL, 0);			/* legacy descriptors */
	for (i = 0; i < 128; i++)
		wr(MTA + 4 * i, 0);
	nic.rx_next = 0;
	/* transmit: empty */
	wr(TDBAL, (uint32_t)tx_bus);
	wr(TDBAH, (uint32_t)(tx_bus >> 32));
	wr(TDLEN, RING * 16);
	wr(TDH, 0);
	wr(TDT, 0);
	wr(TIDV, 0);
	wr(TADV, 0);
	wr(TARC0, rd(TARC0) | TARC_ENABLE);
	wr(TIPG, 8 | 8 << 10 | 6 << 20);	/* IPGT, IPGR1, IPGR2 (copper) */
	nic.tx_tail = nic.tx_clean = 0;
	nic.running = true;
	/* 2 KiB buffers (BSIZE 0), FCS stripped, every frame (promiscuous:
	 * the peer's echoes carry our MAC, but a test sees everything) */
	wr(RCTL, RCTL_EN | RCTL_UPE | RCTL_MPE | RCTL_BAM | RCTL_SECRC);
	wr(TCTL, TCTL_EN | TCTL_PSP | TCTL_CT | TCTL_COLD);
}

/*
 * Interrupts: with MSI-X and 3 vectors or more (iio_pci_generic
 * vectors=3, vfio-pci's 5) receive on vector 0, transmit on 1, link
 * (the "other" cause) on 2.  Each cause auto-clears (EIAC) and, with
 * CTRL_EXT.IAME clear, masks itself when it fires: the driver takes
 * what the ring holds and sets its IMS bit again (a frame that came
 * in between fires at once then).  --poll: no interrupt at all.
 */
static const char *setup_interrupts(void)
{
	static char what[160];
	const char *mode = udrv_device_irq_mode(nic.ud);
	int v;

	wr(ITR, 0);
	if (nic.poll) {
		wr(IMC, ~0u);
		snprintf(what, sizeof(what), "polled (%s unused)", mode);
		return what;
	}
	if (strcmp(mode, "msix") || udrv_vector_count(nic.ud) < VECTORS)
		die(EXIT_SETUP, "%s: interrupt mode %s with %d vector%s: the "
		    "driver needs MSI-X with %d vectors (iio_pci_generic "
		    "vectors=%d) or --poll", nic.pci, mode,
		    udrv_vector_count(nic.ud),
		    udrv_vector_count(nic.ud) == 1 ? "" : "s", VECTORS, VECTORS);
	/* the fds before the device can interrupt (udrv_event_fd(3)) */
	for (v = 0; v < VECTORS; v++) {
		nic.fd[v] = udrv_event_fd(nic.ud, v);
		if (nic.fd[v] < 0)
			die_udrv();
	}
	wr(IVAR, IVAR_RXQ0(VEC_RX) | IVAR_TXQ0(VEC_TX) | IVAR_OTHER(VEC_LINK));
	wr(CTRL_EXT, rd(CTRL_EXT) | CTRL_EXT_PBA_CLR);
	wr(EIAC, ICR_RXQ0 | ICR_TXQ0 | ICR_OTHER);
	wr(ICR, ~0u);
	wr(IMS, ICR_RXQ0 | ICR_TXQ0 | ICR_OTHER | ICR_LSC);
	snprintf(what, sizeof(what), "msix, %d vectors; receive on vector %d, "
		 "transmit on vector %d, link on vector %d",
		 udrv_vector_count(nic.ud), VEC_RX, VEC_TX, VEC_LINK);
	return what;
}

/* ---- 7. the run ---- */
static unsigned int frame_size(uint64_t seq)
{
	return run.min + (unsigned int)(seq % (run.max - run.min + 1));
}

static unsigned int tx_free(void)
{
	return RING - 1 - (nic.tx_tail - nic.tx_clean + RING) % RING;
}

/* the transmit descriptors the device wrote back (DD) are free again;
 * transmit-only: each is a frame done.  Whether any was. */
static bool tx_reclaim(void)
{
	bool any = false;

	while (nic.tx_clean != nic.tx_tail && (nic.tx[nic.tx_clean].status & TXD_DD)) {
		nic.tx[nic.tx_clean].status = 0;
		nic.tx_clean = (nic.tx_clean + 1) % RING;
		any = true;
		if (run.mode == TRANSMIT_ONLY)
			run.back++;
	}
	if (any && run.mode == TRANSMIT_ONLY)
		run.t_progress = now_ns();
	return any;
}

/* tell the device of every frame filled since the last time */
static void tx_ring(void)
{
	if (!nic.tx_unrung)
		return;
	/* descriptors and frames in memory before the device hears of them */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	wr(TDT, nic.tx_tail);
	nic.tx_unrung = 0;
	run.tx_doorbells++;
}

/* the frame buffer of transmit descriptor @i */
static uint8_t *tx_buf(unsigned int i)
{
	return nic.cpu + nic.tx_bufs + (size_t)i * BUF;
}

/* the next transmit descriptor: its buffer's @size bytes, as they are
 * (not yet rung) */
static void tx_desc(unsigned int size)
{
	unsigned int i = nic.tx_tail;

	nic.tx[i].length = size;
	nic.tx[i].cso = 0;
	nic.tx[i].css = 0;
	nic.tx[i].special = 0;
	nic.tx[i].status = 0;
	nic.tx[i].cmd = TXD_EOP | TXD_IFCS | TXD_RS;
	nic.tx_tail = (i + 1) % RING;
	nic.tx_unrung++;
}

/* a frame of @kind, @size bytes and number @seq into the next transmit
 * descriptor (not yet rung) */
static void tx_fill(uint8_t kind, unsigned int size, uint64_t seq)
{
	frame_fill(tx_buf(nic.tx_tail), broadcast, nic.mac, kind, size,
		   run.run, seq);
	tx_desc(size);
}

/*
 * --prebuilt: frame i of the run (i = 0 to RING - 1) built once into
 * the buffer of transmit descriptor i.  Transmit-only sends nothing but
 * these (no credits), so frame k of the run always goes out through
 * descriptor k % RING: it is resent as built, frame k % RING, with that
 * frame's sequence number, size, CRC and payload.
 */
static void tx_prebuild(void)
{
	unsigned int i;

	for (i = 0; i < RING; i++)
		frame_fill(tx_buf(i), broadcast, nic.mac, FRAME_KIND_SENT,
			   frame_size(i), run.run, i);
}

/* frame @seq into the next transmit descriptor: built, or (--prebuilt)
 * the descriptor's own frame as it is */
static void tx_put(uint64_t seq)
{
	unsigned int size;

	if (run.prebuilt) {
		size = frame_size(nic.tx_tail);
		tx_desc(size);
	} else {
		size = frame_size(seq);
		tx_fill(FRAME_KIND_SENT, size, seq);
	}
	run.bytes_sent += size;
	if (nic.tx_unrung == run.batch)
		tx_ring();
}

/*
 * The checks every frame taken from the peer passes, @what ("frame" or
 * "echo") naming it in the message: intact (CRC, payload, @kind), the
 * one due (run.back), of the size sent.  Dies with EXIT_BAD_FRAME, else
 * returns its sequence number.
 */
static uint64_t check_frame(const uint8_t *f, unsigned int len, uint8_t kind,
			    const char *what)
{
	uint64_t seq = frame_get64(f + FRAME_OFF_SEQ);
	const char *why = frame_fault(f, len, kind);

	if (why)
		die(EXIT_BAD_FRAME, "bad frame: %s %llu of %u bytes: %s", what,
		    (unsigned long long)seq, len, why);
	if (seq != run.back)
		die(EXIT_BAD_FRAME, "bad frame: %s %llu came when %llu was due "
		    "(%s)", what, (unsigned long long)seq,
		    (unsigned long long)run.back,
		    seq < run.back ? "duplicate" : "out of order or lost");
	if (len != frame_size(seq))
		die(EXIT_BAD_FRAME, "bad frame: %s %llu has %u bytes, %u were "
		    "sent", what, (unsigned long long)seq, len, frame_size(seq));
	return seq;
}

/*
 * Receive-only: frame @f of @len bytes from the peer's sender, checked
 * like an echo (kind 1, in order from 0, size, CRC, payload); the run id
 * is the first frame's unless --run gave one.
 */
static void rx_sent_frame(const uint8_t *f, unsigned int len)
{
	if (!frame_is_ours(f, len) || f[FRAME_OFF_KIND] == FRAME_KIND_CREDIT ||
	    (run.run_known && frame_get32(f + FRAME_OFF_RUN) != run.run)) {
		run.other++;	/* the kernel's own frames, another run's */
		return;
	}
	run.run = frame_get32(f + FRAME_OFF_RUN);
	run.run_known = true;
	if (!run.back)
		run.t_first = now_ns();
	check_frame(f, len, FRAME_KIND_SENT, "frame");
	run.back++;
	run.bytes_sent += len;
	run.t_progress = now_ns();
}

/*
 * --unchecked (receive-only): a frame of the size --size gives (any
 * frame k of the sizes MIN to MAX) counted, its content not looked at;
 * others (the kernel's own IPv6 frames, any after the --count-th) are
 * "other".  A sender without flow control (pktgen) loses what QEMU's
 * queue cannot hold, so the run ends at --count frames or when none came
 * for --timeout.
 */
static void rx_counted_frame(unsigned int len)
{
	if (len < run.min || len > run.max || run.back == run.count) {
		run.other++;
		return;
	}
	run.t_last = now_ns();
	if (!run.back)
		run.t_first = run.t_last;
	run.back++;
	run.bytes_sent += len;
	run.t_progress = run.t_last;
}

/*
 * Receive-only: tell the sender how many frames were taken (a credit
 * frame, kind 3, its sequence number the count), so that it keeps at
 * most --window frames on the wire: QEMU queues at most 10,000 frames
 * for a port that cannot take them and drops the rest.
 */
static void tx_credit(void)
{
	if (!tx_free())
		tx_reclaim();
	if (!tx_free())
		return;		/* the next rx_take() tries again */
	tx_fill(FRAME_KIND_CREDIT, FRAME_MIN, run.back);
	tx_ring();
	run.credited = run.back;
	run.credits++;
}

/* an echo (or another frame) of @len bytes at @f: checked */
static void rx_frame(const uint8_t *f, unsigned int len)
{
	uint64_t seq;

	if (run.unchecked) {
		rx_counted_frame(len);
		return;
	}
	if (run.mode == RECEIVE_ONLY) {
		rx_sent_frame(f, len);
		return;
	}
	if (!frame_is_ours(f, len) || frame_get32(f + FRAME_OFF_RUN) != run.run ||
	    run.mode == TRANSMIT_ONLY) {
		run.other++;	/* the peer's own traffic, an old run's */
		return;
	}
	seq = check_frame(f, len, FRAME_KIND_ECHO, "echo");
	if (memcmp(f, nic.mac, 6))
		die(EXIT_BAD_FRAME, "bad frame: echo %llu is not addressed to "
		    "us", (unsigned long long)seq);
	run.back++;
	run.t_progress = now_ns();
}

/* every frame the device has written: checked, the descriptors given back */
static unsigned int rx_take(void)
{
	unsigned int n = 0, i;
	volatile struct rx_desc *d;

	for (;;) {
		i = nic.rx_next;
		d = &nic.rx[i];
		if (!(d->status & RXD_DD))
			break;
		/* DD says the descriptor is complete: read the rest after it */
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (!(d->status & RXD_EOP) || d->errors)
			die(EXIT_BAD_FRAME, "bad frame: receive descriptor %u: "
			    "status 0x%02x errors 0x%02x (a frame over %u bytes?)",
			    i, d->status, d->errors, BUF);
		rx_frame(nic.cpu + nic.rx_bufs + (size_t)i * BUF, d->length);
		d->status = 0;
		nic.rx_next = (i + 1) % RING;
		nic.rx_taken++;
		n++;
	}
	/* give them back: one tail write for all */
	if (nic.rx_taken) {
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		wr(RDT, (nic.rx_next + RING - 1) % RING);
		nic.rx_taken = 0;
		run.rx_doorbells++;
	}
	if (run.mode == RECEIVE_ONLY && !run.unchecked &&
	    run.back != run.credited &&
	    (run.back - run.credited >= (run.window + 1) / 2 ||
	     run.back == run.count))
		tx_credit();
	return n;
}

/* STATUS @s must have the link up */
static void link_check(uint32_t s)
{
	if (!(s & STATUS_LU))
		die(EXIT_LINK, "link down during the run (STATUS 0x%08x), %llu "
		    "of %llu frames back", s, (unsigned long long)run.back,
		    (unsigned long long)run.count);
}

/* every 10 ms: the device there, the link up, nothing stuck */
static void watchdog(void)
{
	uint64_t now = now_ns(), age = (now - run.t_progress) / 1000000;

	link_check(status_reg());
	if (age < nic.timeout_ms)
		return;
	tx_reclaim();
	if (nic.tx_clean != nic.tx_tail)
		die(EXIT_STALL, "ring stall: the device took no transmit "
		    "descriptor for %llu ms (TDH %u, TDT %u, %u waiting)",
		    (unsigned long long)age, rd(TDH), rd(TDT),
		    (nic.tx_tail - nic.tx_clean + RING) % RING);
	if (run.mode == TRANSMIT_ONLY)
		return;		/* all sent: the loop ends */
	if (run.unchecked && run.back) {
		run.ended = true;	/* the sender is done: the loop ends */
		return;
	}
	if (run.mode == RECEIVE_ONLY)
		die(EXIT_LOST, "frame %llu not received within %u ms: %llu "
		    "received (lost, or no peer sending)",
		    (unsigned long long)run.back, nic.timeout_ms,
		    (unsigned long long)run.back);
	die(EXIT_LOST, "frame %llu not back within %u ms: %llu sent, %llu "
	    "back (lost, or no peer answering)", (unsigned long long)run.back,
	    nic.timeout_ms, (unsigned long long)run.sent,
	    (unsigned long long)run.back);
}

/*
 * Interrupts: wait for the receive vector (and transmit's when its ring
 * is full, link's always) until the oldest frame out is --timeout old,
 * no longer: nothing else wakes the driver, so a lost interrupt shows.
 */
static void wait_irq(bool tx_full)
{
	uint64_t now = now_ns(), due = run.t_progress + nic.timeout_ms * 1000000ull;
	struct pollfd fds[VECTORS];
	int v, ready, ms;
	int64_t events;

	ms = due > now ? (int)((due - now + 999999) / 1000000) : 0;
	for (v = 0; v < VECTORS; v++)
		fds[v] = (struct pollfd){
			.fd = v == VEC_TX && !tx_full ? -1 : nic.fd[v],
			.events = POLLIN,
		};
	ready = poll(fds, VECTORS, ms);
	if (ready < 0 && errno != EINTR)
		die(EXIT_SETUP, "poll: %s", strerror(errno));
	if (!ready && (nic.rx[nic.rx_next].status & RXD_DD))
		die(EXIT_LOST, "lost interrupt: echo %llu is in the receive ring "
		    "but vector %d had no interrupt within %u ms",
		    (unsigned long long)run.back, VEC_RX, nic.timeout_ms);
	if (!ready)
		watchdog();	/* the oldest frame is due */
	for (v = 0; ready > 0 && v < VECTORS; v++) {
		if (fds[v].revents & (POLLERR | POLLHUP | POLLNVAL))
			die(EXIT_GONE, "device gone: waiting on vector %d "
			    "(unbound?)", v);
		if (!(fds[v].revents & POLLIN))
			continue;
		events = udrv_event_consume(nic.ud, v);
		if (events < 0)
			die_udrv();
		if (!events)
			continue;
		nic.wakeups[v]++;
		switch (v) {
		case VEC_RX:
			rx_take();
			wr(IMS, ICR_RXQ0);	/* armed again */
			break;
		case VEC_TX:
			tx_reclaim();
			wr(IMS, ICR_TXQ0);
			break;
		default:
			/* the causes behind "other" (LSC) stay in ICR until
			 * cleared, and would fire again at every IMS write */
			wr(ICR, ICR_OTHER | ICR_LSC);
			link_check(status_reg());
			wr(IMS, ICR_OTHER | ICR_LSC);
			break;
		}
	}
}

/* round trip: every echo back; transmit-only: every frame sent (DD
 * written back); receive-only: --count frames taken */
static bool run_done(void)
{
	return run.back >= run.count || run.ended;
}

static void run_frames(void)
{
	uint64_t next_check = now_ns() + CHECK_NS;
	unsigned long spins = 0;
	bool progress;

	run.t_progress = now_ns();
	while (!run_done()) {
		progress = false;
		/* as many frames as the window and the ring allow */
		if ((!tx_free() || run.mode == TRANSMIT_ONLY) && tx_reclaim() &&
		    run.mode == TRANSMIT_ONLY)
			progress = true;
		while (run.mode != RECEIVE_ONLY && run.sent < run.count &&
		       (run.sent - run.back < run.window ||
			run.mode == TRANSMIT_ONLY) && tx_free()) {
			tx_put(run.sent++);
			progress = true;
		}
		/* a batch cut short by the window or the ring goes now */
		tx_ring();
		if (rx_take())
			progress = true;
		/* polled, or busy: every 10 ms; waiting: after each wakeup */
		if ((++spins % 64 == 0 || !progress) && now_ns() > next_check) {
			watchdog();
			next_check = now_ns() + CHECK_NS;
		}
		if (progress || nic.poll)
			continue;
		wait_irq(!tx_free() || (run.mode == TRANSMIT_ONLY &&
					run.sent == run.count));
		if (now_ns() > next_check) {
			watchdog();
			next_check = now_ns() + CHECK_NS;
		}
	}
	tx_reclaim();
}

/* ---- 8. counters ---- */
static uint64_t counter64(uint32_t low)
{
	uint64_t lo = rd(low);		/* the low half first: the high */

	return lo | (uint64_t)rd(low + 4) << 32;	/* clears both */
}

static void print_counters(void)
{
	uint64_t gptc = rd(GPTC), gprc = rd(GPRC), gotc = counter64(GOTCL),
		 gorc = counter64(GORCL);
	uint32_t mpc = rd(MPC), rnbc = rd(RNBC), crc = rd(CRCERRS);

	printf("counters: transmitted %llu frames %llu bytes, received %llu "
	       "frames %llu bytes, missed %u, no buffer %u, CRC errors %u\n",
	       (unsigned long long)gptc, (unsigned long long)gotc,
	       (unsigned long long)gprc, (unsigned long long)gorc, mpc, rnbc,
	       crc);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: udrv-e1000e [--count N] [--size BYTES|MIN-MAX] [--batch N]\n"
		"                   [--window N] [--poll] [--timeout MS] [--run ID]\n"
		"                   [--transmit-only [--prebuilt]|--receive-only [--unchecked]]\n"
		"                   PCI_ADDR\n"
		"\n"
		"A user-space driver for the Intel 82574L (QEMU's e1000e) on libudrv:\n"
		"opens PCI_ADDR (bound to iio_pci_generic or vfio-pci), resets it,\n"
		"brings the link up, sends N frames with sequence numbers and CRCs\n"
		"and takes each back from the peer that echoes them.\n"
		"\n"
		"  --count N      frames to send, each to come back (default 1000)\n"
		"  --size S       frame bytes without FCS, 60 to 1514 (default 60);\n"
		"                 MIN-MAX: frame k has MIN + k %% (MAX - MIN + 1)\n"
		"  --batch N      frames per transmit doorbell, 1 to %u (default 32)\n"
		"  --window N     frames out without their echo, 1 to %u (default 64)\n"
		"  --poll         no interrupts: spin on the rings\n"
		"  --transmit-only  send N frames, no echoes awaited\n"
		"  --prebuilt     with --transmit-only: the ring's %u frames built\n"
		"                 once and resent (frame k is frame k %% %u as built)\n"
		"  --receive-only   take N frames from the peer's sender (in order\n"
		"                 from 0), a credit frame back every WINDOW/2\n"
		"  --unchecked    with --receive-only: count frames of the --size\n"
		"                 sizes, check nothing, send no credits; the run ends\n"
		"                 at N or when none came for --timeout\n"
		"  --timeout MS   the longest wait for the link, a frame or the\n"
		"                 device (default 5000)\n"
		"  --run ID       the run id in the frames (default: from the clock)\n"
		"\n"
		"exit status: 0 ok, 1 bad frame, 2 usage, 3 setup, 4 link down,\n"
		"5 frame not back in time, 6 ring stall, 7 device gone\n",
		RING - 1, RING - 1, RING, RING);
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

static void parse_size(const char *arg)
{
	char lo[32];
	const char *dash = strchr(arg, '-');

	if (!dash) {
		run.min = run.max = number("--size", arg, FRAME_MIN, FRAME_MAX);
		return;
	}
	if ((size_t)(dash - arg) >= sizeof(lo))
		die(EXIT_USAGE, "--size needs BYTES or MIN-MAX, not \"%s\"", arg);
	memcpy(lo, arg, dash - arg);
	lo[dash - arg] = 0;
	run.min = number("--size", lo, FRAME_MIN, FRAME_MAX);
	run.max = number("--size", dash + 1, FRAME_MIN, FRAME_MAX);
	if (run.min > run.max)
		die(EXIT_USAGE, "--size %s: MIN is larger than MAX", arg);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "size", required_argument, NULL, 's' },
		{ "batch", required_argument, NULL, 'b' },
		{ "window", required_argument, NULL, 'w' },
		{ "poll", no_argument, NULL, 'p' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "run", required_argument, NULL, 'r' },
		{ "transmit-only", no_argument, NULL, 't' },
		{ "receive-only", no_argument, NULL, 'R' },
		{ "prebuilt", no_argument, NULL, 'P' },
		{ "unchecked", no_argument, NULL, 'U' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool run_given = false;
	uint16_t vendor, device;
	uint64_t t0, elapsed, link_ms;
	const char *irq;
	uint32_t ral, rah, s;
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			run.count = number("--count", optarg, 1, 1ul << 40);
			break;
		case 's':
			parse_size(optarg);
			break;
		case 'b':
			run.batch = number("--batch", optarg, 1, RING - 1);
			break;
		case 'w':
			run.window = number("--window", optarg, 1, RING - 1);
			break;
		case 'p':
			nic.poll = true;
			break;
		case 'T':
			nic.timeout_ms = number("--timeout", optarg, 1, 600000);
			break;
		case 'r':
			run.run = number("--run", optarg, 1, 0xffffffffu);
			run_given = true;
			break;
		case 't':
		case 'R':
			if (run.mode != ROUND_TRIP)
				die(EXIT_USAGE, "--transmit-only and "
				    "--receive-only: one or the other");
			run.mode = c == 't' ? TRANSMIT_ONLY : RECEIVE_ONLY;
			break;
		case 'P':
			run.prebuilt = true;
			break;
		case 'U':
			run.unchecked = true;
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
	/* the receivers check sequence numbers, which --prebuilt repeats */
	if (run.prebuilt && run.mode != TRANSMIT_ONLY)
		die(EXIT_USAGE, "--prebuilt resends the ring's %u frames, so "
		    "their sequence numbers repeat: only with --transmit-only",
		    RING);
	if (run.unchecked && run.mode != RECEIVE_ONLY)
		die(EXIT_USAGE, "--unchecked counts the frames taken: only "
		    "with --receive-only");
	nic.pci = argv[optind];
	if (strchr(nic.pci, '/') || strlen(nic.pci) > 32)
		die(EXIT_USAGE, "\"%s\" is not a PCI address", nic.pci);
	run.run_known = run_given;
	if (!run_given)
		run.run = (uint32_t)(now_ns() ^ (uint64_t)getpid() << 16) | 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGBUS, on_sigbus);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	signal(SIGPIPE, SIG_IGN);

	/* 1. an 82574L bound to iio_pci_generic or vfio-pci */
	if (udrv_device_open(nic.pci, &nic.ud))
		die_udrv();
	if (udrv_device_pci_id(nic.ud, &vendor, &device, NULL))
		die_udrv();
	if (vendor != 0x8086 || device != 0x10d3)
		die(EXIT_SETUP, "%s is not an Intel 82574L (8086:10d3): %04x:%04x",
		    nic.pci, vendor, device);
	/* 2. BAR0 */
	{
		volatile void *p;
		size_t len;

		if (udrv_region_map(nic.ud, 0, &p, &len))
			die_udrv();
		if (!p || len < 0x10000)
			die(EXIT_SETUP, "BAR0 of %zu bytes: too small", len);
		nic.bar = p;
	}
	/* 3. - 6. */
	reset();
	ral = rd(RAL0);
	rah = rd(RAH0);
	if (!(rah & RAH_AV))
		die(EXIT_SETUP, "no MAC address in receive address 0 (RAH0 "
		    "0x%08x)", rah);
	memcpy(nic.mac, &ral, 4);
	nic.mac[4] = (uint8_t)rah;
	nic.mac[5] = (uint8_t)(rah >> 8);
	irq = setup_interrupts();
	setup_dma();
	link_ms = link_up();
	s = status_reg();
	printf("nic: %s (%s), 82574L, MAC %02x:%02x:%02x:%02x:%02x:%02x, link up "
	       "at %s Mb/s %s duplex after %llu ms\n", nic.pci,
	       udrv_device_backend(nic.ud), nic.mac[0], nic.mac[1], nic.mac[2],
	       nic.mac[3], nic.mac[4], nic.mac[5], speed_name(s),
	       s & STATUS_FD ? "full" : "half", (unsigned long long)link_ms);
	printf("interrupts: %s\n", irq);
	setup_rings();
	if (run.prebuilt)
		tx_prebuild();
	printf("run: %llu frames of %u to %u bytes, batch %u, window %u, run "
	       "0x%08x%s%s\n", (unsigned long long)run.count, run.min, run.max,
	       run.batch, run.window, run.run,
	       run.mode == TRANSMIT_ONLY ? ", transmit only" :
	       run.unchecked ? ", receive only, unchecked" :
	       run.mode == RECEIVE_ONLY ? run_given ? ", receive only" :
	       ", receive only (the run of the first frame)" : "",
	       run.prebuilt ? ", prebuilt" : "");

	/* 7. */
	t0 = now_ns();
	run_frames();
	/* receive-only: the rate of the frames, not of waiting for the first */
	if (run.mode == RECEIVE_ONLY && run.t_first)
		t0 = run.t_first;
	elapsed = now_ns() - t0;
	/* --unchecked: to the last frame, not to the --timeout after it */
	if (run.unchecked && run.t_last > t0)
		elapsed = run.t_last - t0;
	if (!elapsed)
		elapsed = 1;

	/* 8. */
	if (run.mode == ROUND_TRIP)
		printf("frames: %llu sent, %llu back, %llu bytes each way, %llu "
		       "other frames received\n", (unsigned long long)run.sent,
		       (unsigned long long)run.back,
		       (unsigned long long)run.bytes_sent,
		       (unsigned long long)run.other);
	else if (run.mode == TRANSMIT_ONLY)
		printf("frames: %llu sent, %llu bytes, %llu other frames "
		       "received\n", (unsigned long long)run.sent,
		       (unsigned long long)run.bytes_sent,
		       (unsigned long long)run.other);
	else if (run.unchecked)
		printf("frames: %llu received of %llu, unchecked, %llu bytes, "
		       "%llu other frames received\n",
		       (unsigned long long)run.back,
		       (unsigned long long)run.count,
		       (unsigned long long)run.bytes_sent,
		       (unsigned long long)run.other);
	else
		printf("frames: %llu received of run 0x%08x, %llu bytes, %llu "
		       "other frames received, %lu credits sent\n",
		       (unsigned long long)run.back, run.run,
		       (unsigned long long)run.bytes_sent,
		       (unsigned long long)run.other, run.credits);
	printf("rate: %.0f frames/s %s, %.2f Mb/s (%.3f s)\n",
	       (double)run.back * 1e9 / (double)elapsed,
	       run.mode == ROUND_TRIP ? "each way" : "one way",
	       (double)run.bytes_sent * 8e3 / (double)elapsed,
	       (double)elapsed / 1e9);
	printf("doorbells: %lu transmit tail writes for %llu frames (%.2f per "
	       "write), %lu receive tail writes\n", run.tx_doorbells,
	       (unsigned long long)run.sent,
	       run.tx_doorbells ? (double)run.sent / (double)run.tx_doorbells : 0.0,
	       run.rx_doorbells);
	printf("wakeups: vector 0 %lu, vector 1 %lu, vector 2 %lu\n",
	       nic.wakeups[0], nic.wakeups[1], nic.wakeups[2]);
	print_counters();
	stop_device();
	udrv_device_close(nic.ud);
	return EXIT_OK;
}
