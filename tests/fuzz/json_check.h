/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * json_check.h - the JSON oracle of the fuzz harnesses: json_check()
 * says whether a text is one JSON value (RFC 8259, whitespace around it,
 * a final newline allowed), in valid UTF-8, and follows iioctl(1)'s rule
 * for numbers: every number an integer of at most 2^53 (a count; a larger
 * one would lose bits in jq), and every value of a key that holds an
 * address, offset, length, size or register value a string "0x..." of
 * lower-case hex digits without leading zeros, or null.
 */
#ifndef IIOCTL_JSON_CHECK_H
#define IIOCTL_JSON_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common.h"	/* utf8_sequence() */

struct json_in {
	const unsigned char *p, *end;
	const char *why;
	int depth;
};

/* The keys whose values iioctl(1) makes hex strings. */
static const char *const json_hex_keys[] = {
	"size", "physaddr", "offset", "length", "value", "header_type",
	"bus_addr",
};

static bool json_fail(struct json_in *in, const char *why)
{
	if (!in->why)
		in->why = why;
	return false;
}

static void json_ws(struct json_in *in)
{
	while (in->p < in->end && (*in->p == ' ' || *in->p == '\t' ||
				   *in->p == '\n' || *in->p == '\r'))
		in->p++;
}

static bool json_hex_digit(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

/* A string; its decoded text (ASCII escapes only) in buf if buf. */
static bool json_string_in(struct json_in *in, char *buf, size_t size)
{
	size_t n = 0, len, i;

	if (in->p >= in->end || *in->p != '"')
		return json_fail(in, "a string expected");
	in->p++;
	while (in->p < in->end && *in->p != '"') {
		unsigned char c = *in->p;

		if (c < 0x20)
			return json_fail(in, "a raw control character in a string");
		if (c == '\\') {
			if (in->end - in->p < 2)
				return json_fail(in, "an escape cut short");
			c = in->p[1];
			if (c == 'u') {
				if (in->end - in->p < 6)
					return json_fail(in, "a \\u escape cut short");
				for (i = 2; i < 6; i++)
					if (!json_hex_digit(in->p[i]))
						return json_fail(in, "a bad \\u escape");
				in->p += 6;
				c = '?';
			} else if (strchr("\"\\/bfnrt", c)) {
				in->p += 2;
			} else {
				return json_fail(in, "an unknown escape");
			}
			if (buf && n + 1 < size)
				buf[n++] = (char)c;
			continue;
		}
		/* utf8_sequence() reads up to 4 bytes: keep it inside */
		if (c >= 0x80) {
			unsigned char seq[5] = { 0 };

			len = (size_t)(in->end - in->p) < 4 ?
			      (size_t)(in->end - in->p) : 4;
			memcpy(seq, in->p, len);
			len = utf8_sequence(seq);
			if (!len)
				return json_fail(in, "invalid UTF-8 in a string");
		} else {
			len = 1;
		}
		for (i = 0; i < len; i++)
			if (buf && n + 1 < size)
				buf[n++] = (char)in->p[i];
		in->p += len;
	}
	if (in->p >= in->end)
		return json_fail(in, "an unterminated string");
	in->p++;
	if (buf)
		buf[n < size ? n : size - 1] = '\0';
	return true;
}

static bool json_number(struct json_in *in)
{
	uint64_t v = 0;
	bool big = false;

	if (in->p < in->end && *in->p == '-')
		in->p++;
	if (in->p >= in->end || *in->p < '0' || *in->p > '9')
		return json_fail(in, "a bad number");
	if (*in->p == '0' && in->p + 1 < in->end && in->p[1] >= '0' &&
	    in->p[1] <= '9')
		return json_fail(in, "a number with a leading zero");
	while (in->p < in->end && *in->p >= '0' && *in->p <= '9') {
		if (v > (UINT64_C(1) << 53) / 10)
			big = true;
		v = v * 10 + (uint64_t)(*in->p++ - '0');
	}
	if (in->p < in->end && (*in->p == '.' || *in->p == 'e' || *in->p == 'E'))
		return json_fail(in, "a number that is not an integer");
	if (big || v > (UINT64_C(1) << 53))
		return json_fail(in, "a number above 2^53 (a 64-bit value must be a \"0x...\" string)");
	return true;
}

static bool json_value(struct json_in *in, bool hex);

static bool json_is_hex_key(const char *key)
{
	size_t i;

	for (i = 0; i < sizeof(json_hex_keys) / sizeof(*json_hex_keys); i++)
		if (!strcmp(key, json_hex_keys[i]))
			return true;
	return false;
}

static bool json_container(struct json_in *in, unsigned char close)
{
	char key[64];
	bool first = true;

	if (++in->depth > 64)
		return json_fail(in, "nested too deep");
	in->p++;
	json_ws(in);
	if (in->p < in->end && *in->p == close) {
		in->p++;
		in->depth--;
		return true;
	}
	for (;;) {
		bool hex = false;

		if (!first) {
			json_ws(in);
			if (in->p < in->end && *in->p == close)
				break;
			if (in->p >= in->end || *in->p != ',')
				return json_fail(in, "',' expected");
			in->p++;
		}
		first = false;
		json_ws(in);
		if (close == '}') {
			if (!json_string_in(in, key, sizeof(key)))
				return false;
			hex = json_is_hex_key(key);
			json_ws(in);
			if (in->p >= in->end || *in->p != ':')
				return json_fail(in, "':' expected");
			in->p++;
		}
		if (!json_value(in, hex))
			return false;
	}
	in->p++;
	in->depth--;
	return true;
}

static bool json_literal(struct json_in *in, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(in->end - in->p) < n || memcmp(in->p, word, n))
		return json_fail(in, "an unknown word");
	in->p += n;
	return true;
}

/* A "0x..." string: lower-case hex digits, no leading zero. */
static bool json_hex_string(struct json_in *in)
{
	const unsigned char *s = in->p;
	char text[32];
	size_t i;

	if (!json_string_in(in, text, sizeof(text)))
		return false;
	if ((size_t)(in->p - s) > sizeof(text) || strncmp(text, "0x", 2) ||
	    !text[2] || (text[2] == '0' && text[3]))
		return json_fail(in, "an address, size or value that is not a \"0x...\" string without leading zeros");
	for (i = 2; text[i]; i++)
		if (!((text[i] >= '0' && text[i] <= '9') ||
		      (text[i] >= 'a' && text[i] <= 'f')))
			return json_fail(in, "a \"0x...\" string with a digit that is not lower-case hex");
	return true;
}

static bool json_value(struct json_in *in, bool hex)
{
	json_ws(in);
	if (in->p >= in->end)
		return json_fail(in, "a value expected");
	if (*in->p == 'n')
		return json_literal(in, "null");
	if (hex && *in->p != '{')	/* "in": {"offset", "length"} */
		return json_hex_string(in);
	switch (*in->p) {
	case '{':
		return json_container(in, '}');
	case '[':
		return json_container(in, ']');
	case '"':
		return json_string_in(in, NULL, 0);
	case 't':
		return json_literal(in, "true");
	case 'f':
		return json_literal(in, "false");
	default:
		return json_number(in);
	}
}

/* NULL if text is one valid JSON value by the rules above, else why not. */
static inline const char *json_check(const char *text, size_t len)
{
	struct json_in in = {
		.p = (const unsigned char *)text,
		.end = (const unsigned char *)text + len,
	};

	if (!json_value(&in, false))
		return in.why;
	json_ws(&in);
	if (in.p != in.end)
		return "text after the JSON value";
	return NULL;
}

#endif
