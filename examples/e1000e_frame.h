/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * e1000e_frame.h - the test frames of udrv-e1000e (examples/e1000e.c),
 * shared with its peer in the tests (tests/helpers/nic_reflect.c), which
 * reflects them through the kernel's e1000e; tests/nic/pcap-check reads
 * the same layout from QEMU's record (examples/e1000e.md, "Frames").
 *
 * A frame of SIZE bytes (60 to 1514, without the FCS the device adds):
 *
 *   0  destination MAC      6  source MAC      12  EtherType 0x88b5 (big
 *   endian; IEEE 802's "local experimental" type), then little endian:
 *   14  u32 magic 0x31564452 ("RDV1")
 *   18  u8  kind: 1 sent by udrv-e1000e, 2 its echo sent back by the peer
 *   19  u8  0
 *   20  u16 SIZE
 *   22  u32 run: the sender's run id (frames of another run are foreign)
 *   26  u64 sequence number: 0, 1, 2 ... in the order sent
 *   34  u32 CRC-32 (IEEE 802.3's, zlib's crc32()) of the whole frame with
 *           these four bytes zero
 *   38  payload: byte i of the frame is frame_payload_byte(seq, i)
 *
 * The echo is the frame as received, with its MACs swapped, kind 2 and
 * the CRC computed again; everything else (size, run, sequence number,
 * payload) is the sender's, so the sender checks the echo against what
 * it sent.
 */
#ifndef E1000E_FRAME_H
#define E1000E_FRAME_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define FRAME_ETHERTYPE		0x88b5
#define FRAME_MAGIC		0x31564452u
#define FRAME_KIND_SENT		1
#define FRAME_KIND_ECHO		2
#define FRAME_KIND_CREDIT	3	/* receiver to sender: SEQ frames taken */
#define FRAME_HEADER		38	/* bytes before the payload */
#define FRAME_MIN		60	/* Ethernet's minimum, without FCS */
#define FRAME_MAX		1514	/* and maximum, without VLAN tag */

#define FRAME_OFF_KIND		18
#define FRAME_OFF_SIZE		20
#define FRAME_OFF_RUN		22
#define FRAME_OFF_SEQ		26
#define FRAME_OFF_CRC		34

/*
 * CRC-32 of IEEE 802.3 (reflected 0xedb88320), eight bytes a step
 * ("slicing by 8": table k holds the CRC of a byte followed by k zero
 * bytes): @crc is the running value (start with 0), returned updated with
 * @len bytes.  Under TCG every guest instruction is emulated, and a byte
 * a step made the two ends' CRCs a large part of a frame's time.
 */
static inline uint32_t frame_crc32(uint32_t crc, const uint8_t *p, size_t len)
{
	static uint32_t table[8][256];
	static int ready;
	unsigned int i, k;
	uint32_t c, lo, hi;

	if (!ready) {
		for (i = 0; i < 256; i++) {
			c = i;
			for (k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			table[0][i] = c;
		}
		for (k = 1; k < 8; k++)
			for (i = 0; i < 256; i++)
				table[k][i] = (table[k - 1][i] >> 8) ^
					      table[0][table[k - 1][i] & 0xff];
		ready = 1;
	}
	crc = ~crc;
	for (; len >= 8; len -= 8, p += 8) {
		memcpy(&lo, p, 4);	/* x86: little endian */
		memcpy(&hi, p + 4, 4);
		lo ^= crc;
		crc = table[7][lo & 0xff] ^ table[6][(lo >> 8) & 0xff] ^
		      table[5][(lo >> 16) & 0xff] ^ table[4][lo >> 24] ^
		      table[3][hi & 0xff] ^ table[2][(hi >> 8) & 0xff] ^
		      table[1][(hi >> 16) & 0xff] ^ table[0][hi >> 24];
	}
	while (len--)
		crc = table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

/* the CRC of frame @f of @len bytes, with its CRC field taken as zero */
static inline uint32_t frame_crc_of(const uint8_t *f, size_t len)
{
	static const uint8_t zero[4];
	uint32_t crc;

	crc = frame_crc32(0, f, FRAME_OFF_CRC);
	crc = frame_crc32(crc, zero, 4);
	return frame_crc32(crc, f + FRAME_HEADER, len - FRAME_HEADER);
}

/* byte @i (>= FRAME_HEADER) of the payload of frame @seq */
static inline uint8_t frame_payload_byte(uint64_t seq, size_t i)
{
	return (uint8_t)(seq ^ (seq >> 8) ^ (seq >> 16) ^ (seq >> 24)) +
	       (uint8_t)(i * 0x3b);
}

/*
 * The eight payload bytes of frame @seq from byte @i on, as one word
 * (little endian): frame_payload_byte(seq, i + j) in byte j, each byte
 * summed on its own (no carry into the next), so that the payload is
 * written and compared a word at a time
 */
static inline uint64_t frame_payload_word(uint64_t seq, size_t i)
{
	const uint64_t high = 0x8080808080808080ull;
	/* byte j: j * 0x3b, for j = 0 to 7 */
	const uint64_t steps = 0x9d6227ecb1763b00ull;
	uint64_t first = frame_payload_byte(seq, i) * 0x0101010101010101ull;

	return ((first & ~high) + (steps & ~high)) ^ ((first ^ steps) & high);
}

static inline uint16_t frame_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t frame_get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);	/* x86: little endian */
	return v;
}

static inline uint64_t frame_get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* the header of frame @f: MACs, type, fields; CRC and payload apart */
static inline void frame_header(uint8_t *f, const uint8_t dst[6],
				const uint8_t src[6], uint8_t kind,
				uint16_t size, uint32_t run, uint64_t seq)
{
	uint32_t magic = FRAME_MAGIC;

	memcpy(f, dst, 6);
	memcpy(f + 6, src, 6);
	f[12] = FRAME_ETHERTYPE >> 8;
	f[13] = FRAME_ETHERTYPE & 0xff;
	memcpy(f + 14, &magic, 4);
	f[FRAME_OFF_KIND] = kind;
	f[19] = 0;
	f[FRAME_OFF_SIZE] = (uint8_t)size;
	f[FRAME_OFF_SIZE + 1] = (uint8_t)(size >> 8);
	memcpy(f + FRAME_OFF_RUN, &run, 4);
	memcpy(f + FRAME_OFF_SEQ, &seq, 8);
}

/* set frame @f's CRC field for its @len bytes */
static inline void frame_seal(uint8_t *f, size_t len)
{
	uint32_t crc = frame_crc_of(f, len);

	memcpy(f + FRAME_OFF_CRC, &crc, 4);
}

/* a whole frame: header, payload, CRC */
static inline void frame_fill(uint8_t *f, const uint8_t dst[6],
			      const uint8_t src[6], uint8_t kind,
			      uint16_t size, uint32_t run, uint64_t seq)
{
	uint64_t w;
	size_t i;

	frame_header(f, dst, src, kind, size, run, seq);
	for (i = FRAME_HEADER; i + 8 <= size; i += 8) {
		w = frame_payload_word(seq, i);
		memcpy(f + i, &w, 8);
	}
	for (; i < size; i++)
		f[i] = frame_payload_byte(seq, i);
	frame_seal(f, size);
}

/* whether @f of @len bytes is a test frame at all (type and magic) */
static inline int frame_is_ours(const uint8_t *f, size_t len)
{
	return len >= FRAME_HEADER && f[12] == FRAME_ETHERTYPE >> 8 &&
	       f[13] == (FRAME_ETHERTYPE & 0xff) &&
	       frame_get32(f + 14) == FRAME_MAGIC;
}

/*
 * What is wrong with test frame @f of @len bytes (frame_is_ours()), of
 * kind @kind: NULL if nothing (its size field, CRC and payload agree),
 * else why.  The caller checks run and sequence number.
 */
static inline const char *frame_fault(const uint8_t *f, size_t len,
				      uint8_t kind)
{
	uint64_t seq = frame_get64(f + FRAME_OFF_SEQ);
	size_t i;

	if (f[FRAME_OFF_KIND] != kind)
		return "wrong kind";
	if (frame_get16(f + FRAME_OFF_SIZE) != len)
		return "size field differs from the length received";
	if (frame_get32(f + FRAME_OFF_CRC) != frame_crc_of(f, len))
		return "CRC mismatch";
	for (i = FRAME_HEADER; i + 8 <= len; i += 8)
		if (frame_get64(f + i) != frame_payload_word(seq, i))
			return "payload differs";
	for (; i < len; i++)
		if (f[i] != frame_payload_byte(seq, i))
			return "payload differs";
	return NULL;
}

#endif
