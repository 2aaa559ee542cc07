// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_units.c - host unit tests of iioctl's parsing and formatting
 * helpers (cli/common.c), and of the NIC example's test frames
 * (examples/e1000e_frame.h: the CRC and payload a word at a time against
 * their byte-at-a-time definitions), under ASan and UBSan; one PASS/FAIL
 * line per case, like the guest's test programs
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "../../examples/e1000e_frame.h"

static int failed_checks;
static const char *case_name;
static char first_failure[256];

#define CHECK(cond)							\
	do {								\
		if (!(cond) && !failed_checks++)			\
			snprintf(first_failure, sizeof(first_failure),	\
				 "line %d: %s", __LINE__, #cond);	\
	} while (0)

/* parse_u64 accepts s as want */
static int ok(const char *s, unsigned flags, uint64_t max, uint64_t want)
{
	uint64_t v = 0xdeadbeef;

	return !parse_u64(s, flags, max, &v) && v == want;
}

/* parse_u64 refuses s, and leaves the output alone */
static int bad(const char *s, unsigned flags, uint64_t max)
{
	uint64_t v = 0xdeadbeef;

	return parse_u64(s, flags, max, &v) && v == 0xdeadbeef;
}

static void numbers_decimal_and_hex(void)
{
	CHECK(ok("0", 0, UINT64_MAX, 0));
	CHECK(ok("42", 0, UINT64_MAX, 42));
	CHECK(ok("0x2a", 0, UINT64_MAX, 42));
	CHECK(ok("0X2A", 0, UINT64_MAX, 42));
	CHECK(ok("0xdeadBEEF", 0, UINT64_MAX, 0xdeadbeef));
	CHECK(ok("0x0", 0, UINT64_MAX, 0));
	CHECK(ok("0x00ff", 0, UINT64_MAX, 0xff));	/* hex may pad */
	CHECK(ok("18446744073709551615", 0, UINT64_MAX, UINT64_MAX));
	CHECK(ok("0xffffffffffffffff", 0, UINT64_MAX, UINT64_MAX));
}

static void numbers_refused(void)
{
	CHECK(bad("", 0, UINT64_MAX));
	CHECK(bad("-1", 0, UINT64_MAX));
	CHECK(bad("+1", 0, UINT64_MAX));
	CHECK(bad(" 1", 0, UINT64_MAX));
	CHECK(bad("1 ", 0, UINT64_MAX));
	CHECK(bad("0x", 0, UINT64_MAX));
	CHECK(bad("0xg", 0, UINT64_MAX));
	CHECK(bad("12a", 0, UINT64_MAX));
	CHECK(bad("1.5", 0, UINT64_MAX));
	CHECK(bad("010", 0, UINT64_MAX));	/* ambiguous: octal? */
	CHECK(bad("00", 0, UINT64_MAX));
	CHECK(bad("x10", 0, UINT64_MAX));
	CHECK(bad("4K", 0, UINT64_MAX));	/* no suffix without the flag */
	CHECK(!strcmp(parse_u64("010", 0, 9, &(uint64_t){ 0 }),
		      "leading zero (octal is not accepted; write it in decimal or 0x hex)"));
	CHECK(!strcmp(parse_u64("-3", 0, 9, &(uint64_t){ 0 }), "negative"));
}

static void numbers_overflow_and_range(void)
{
	CHECK(bad("18446744073709551616", 0, UINT64_MAX));
	CHECK(bad("99999999999999999999999", 0, UINT64_MAX));
	CHECK(bad("0x10000000000000000", 0, UINT64_MAX));
	CHECK(ok("255", 0, 255, 255));
	CHECK(bad("256", 0, 255));
	CHECK(bad("0x100", 0, 0xff));
	CHECK(!strcmp(parse_u64("256", 0, 255, &(uint64_t){ 0 }), "too large"));
}

static void numbers_suffixes(void)
{
	CHECK(ok("4K", NUM_SUFFIX, UINT64_MAX, 4096));
	CHECK(ok("4k", NUM_SUFFIX, UINT64_MAX, 4096));
	CHECK(ok("1M", NUM_SUFFIX, UINT64_MAX, 1 << 20));
	CHECK(ok("2G", NUM_SUFFIX, UINT64_MAX, 2ULL << 30));
	CHECK(ok("0x10K", NUM_SUFFIX, UINT64_MAX, 16 << 10));
	CHECK(ok("0K", NUM_SUFFIX, UINT64_MAX, 0));
	CHECK(ok("17179869183G", NUM_SUFFIX, UINT64_MAX,
		 17179869183ULL << 30));
	CHECK(bad("17179869184G", NUM_SUFFIX, UINT64_MAX));	/* 2^64 */
	CHECK(bad("K", NUM_SUFFIX, UINT64_MAX));
	CHECK(bad("4KB", NUM_SUFFIX, UINT64_MAX));
	CHECK(bad("4KiB", NUM_SUFFIX, UINT64_MAX));
	CHECK(bad("4T", NUM_SUFFIX, UINT64_MAX));
	CHECK(bad("4 K", NUM_SUFFIX, UINT64_MAX));
	CHECK(bad("0xK", NUM_SUFFIX, UINT64_MAX));
	CHECK(bad("8K", NUM_SUFFIX, 8191));	/* range after the suffix */
}

static int dur(const char *s, uint64_t want)
{
	uint64_t ns = 1;

	return !parse_duration(s, &ns) && ns == want;
}

static int dur_bad(const char *s)
{
	uint64_t ns = 1;

	return parse_duration(s, &ns) && ns == 1;
}

static void durations(void)
{
	CHECK(dur("0", 0));
	CHECK(dur("2", 2000000000));
	CHECK(dur("0.5", 500000000));
	CHECK(dur("2s", 2000000000));
	CHECK(dur("250ms", 250000000));
	CHECK(dur("1.5ms", 1500000));
	CHECK(dur("10us", 10000));
	CHECK(dur("7ns", 7));
	CHECK(dur("1m", 60000000000));
	CHECK(dur("0.000000001", 1));
	CHECK(dur("0.0000000019", 1));	/* finer than 1 ns is cut */
	CHECK(dur_bad(""));
	CHECK(dur_bad("-1"));
	CHECK(dur(".5", 500000000));	/* as 0.5 */
	CHECK(dur(".25s", 250000000));
	CHECK(dur_bad("."));
	CHECK(dur_bad(".s"));
	CHECK(dur_bad("1."));
	CHECK(dur_bad("1h"));
	CHECK(dur_bad("ms"));
	CHECK(dur_bad("1 s"));
	CHECK(dur_bad("99999999999999999999"));
	CHECK(dur_bad("9999999999999m"));
}

static int dur_text(uint64_t ns, const char *want)
{
	char buf[32];

	return !strcmp(format_duration(ns, buf, sizeof(buf)), want);
}

static void duration_texts(void)
{
	CHECK(dur_text(0, "0s"));
	CHECK(dur_text(1000000000, "1s"));
	CHECK(dur_text(60000000000, "60s"));
	CHECK(dur_text(1500000000, "1500ms"));
	CHECK(dur_text(250000000, "250ms"));
	CHECK(dur_text(10000, "10us"));
	CHECK(dur_text(7, "7ns"));
}

static char *json_of(const char *s)
{
	static char buf[256];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	json_string(f, s);
	fclose(f);
	return buf;
}

static void json_strings(void)
{
	CHECK(!strcmp(json_of("IIO dummy"), "\"IIO dummy\""));
	CHECK(!strcmp(json_of("a\"b\\c"), "\"a\\\"b\\\\c\""));
	CHECK(!strcmp(json_of("t\tn\n"), "\"t\\u0009n\\u000a\""));
	CHECK(!strcmp(json_of(""), "\"\""));
}

static void string_copy(void)
{
	char buf[4];

	copy_string(buf, sizeof(buf), "abcdef");
	CHECK(!strcmp(buf, "abc"));
	copy_string(buf, sizeof(buf), "ab");
	CHECK(!strcmp(buf, "ab"));
}

/* IEEE 802.3's CRC-32 a bit at a time: the definition */
static uint32_t crc_bitwise(const uint8_t *p, size_t len)
{
	uint32_t crc = ~0u;
	int k;

	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = crc & 1 ? 0xedb88320u ^ (crc >> 1) : crc >> 1;
	}
	return ~crc;
}

static void frame_crc(void)
{
	static uint8_t buf[1600];
	uint32_t seed = 1, crc;
	size_t len, i, cut;

	CHECK(frame_crc32(0, (const uint8_t *)"123456789", 9) == 0xcbf43926u);
	for (i = 0; i < sizeof(buf); i++) {
		seed = seed * 1103515245u + 12345u;
		buf[i] = (uint8_t)(seed >> 16);
	}
	for (len = 0; len <= sizeof(buf); len += len < 80 ? 1 : 37) {
		/* every alignment and every tail of the 8-byte steps */
		for (i = 0; i < 8 && i <= len; i++)
			CHECK(frame_crc32(0, buf + i, len - i) ==
			      crc_bitwise(buf + i, len - i));
		for (cut = 0; cut <= len; cut += 13) {
			crc = frame_crc32(0, buf, cut);
			CHECK(frame_crc32(crc, buf + cut, len - cut) ==
			      crc_bitwise(buf, len));
		}
	}
}

static void frame_payload(void)
{
	static const uint8_t to[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t from[6] = { 0x52, 0x54, 0, 0, 0x0a, 0 };
	static uint8_t f[FRAME_MAX + 1], g[FRAME_MAX];
	/* payload bases 0, 1, 0x7f, 0x80, 0xff and more: each byte's carry */
	static const uint64_t seqs[] = { 0, 1, 0x7f, 0x80, 0xff, 0x1234,
					 999999, 0xfedcba9876ull };
	unsigned int size, s;
	size_t i;

	for (s = 0; s < sizeof(seqs) / sizeof(seqs[0]); s++) {
		for (size = FRAME_MIN; size <= FRAME_MAX; size++) {
			memset(f, 0xa5, sizeof(f));
			frame_fill(f, to, from, FRAME_KIND_SENT, (uint16_t)size,
				   0x1234, seqs[s]);
			for (i = FRAME_HEADER; i < size; i++)
				CHECK(f[i] == frame_payload_byte(seqs[s], i));
			CHECK(f[size] == 0xa5);
			memcpy(g, f, size);
			memset(g + FRAME_OFF_CRC, 0, 4);
			CHECK(frame_get32(f + FRAME_OFF_CRC) ==
			      crc_bitwise(g, size));
			CHECK(!frame_fault(f, size, FRAME_KIND_SENT));
		}
	}
	/* a byte changed anywhere in the payload: caught, resealed or not */
	frame_fill(f, to, from, FRAME_KIND_SENT, FRAME_MAX, 0, 0x80);
	for (i = FRAME_HEADER; i < FRAME_MAX; i++) {
		f[i] ^= 0x01;
		CHECK(frame_fault(f, FRAME_MAX, FRAME_KIND_SENT) &&
		      !strcmp(frame_fault(f, FRAME_MAX, FRAME_KIND_SENT),
			      "CRC mismatch"));
		frame_seal(f, FRAME_MAX);
		CHECK(frame_fault(f, FRAME_MAX, FRAME_KIND_SENT) &&
		      !strcmp(frame_fault(f, FRAME_MAX, FRAME_KIND_SENT),
			      "payload differs"));
		f[i] ^= 0x01;
		frame_seal(f, FRAME_MAX);
	}
	CHECK(!frame_fault(f, FRAME_MAX, FRAME_KIND_SENT));
}

static const struct {
	const char *name;
	void (*fn)(void);
} cases[] = {
	{ "numbers_decimal_and_hex", numbers_decimal_and_hex },
	{ "numbers_refused", numbers_refused },
	{ "numbers_overflow_and_range", numbers_overflow_and_range },
	{ "numbers_suffixes", numbers_suffixes },
	{ "durations", durations },
	{ "duration-texts", duration_texts },
	{ "json_strings", json_strings },
	{ "string_copy", string_copy },
	{ "frame_crc", frame_crc },
	{ "frame_payload", frame_payload },
};

int main(void)
{
	size_t i;
	int failures = 0;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		failed_checks = 0;
		case_name = cases[i].name;
		cases[i].fn();
		if (failed_checks) {
			printf("FAIL host/units/%s: %s\n", case_name,
			       first_failure);
			failures++;
		} else {
			printf("PASS host/units/%s\n", case_name);
		}
	}
	return failures ? 1 : 0;
}
