/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * number.h - numbers as iioctl(1), iio-regmap(5) and sysfs write them:
 * the one parser that libudrv (register maps, sysfs attributes) and
 * iioctl (every number on its command line and in a batch) share.
 *
 * Internal: in libudrv.a, which iioctl links, but never exported by
 * libudrv.so (lib/udrv.map's "local: *") and not part of udrv.h's API.
 * It keeps no state, prints nothing and sets no udrv_strerror() message.
 */
#ifndef UDRV_NUMBER_H
#define UDRV_NUMBER_H

#include <stdint.h>

/*
 * The number at the start of @s: decimal, or hex after "0x" or "0X"
 * (digits of either case); no sign, no octal (a leading zero followed by
 * a digit is refused: "010" is neither 8 nor 10 to every reader).  NULL
 * with its value in *@v and in *@end the first character after its
 * digits (the caller decides what may follow: nothing, a suffix); else
 * why @s does not start with one, in iioctl's words: "empty", "negative",
 * "no digits after 0x", "leading zero (...)", "not a number" or "too
 * large" (past 2^64 - 1).
 */
const char *udrv_number_parse(const char *s, uint64_t *v, const char **end);

#endif /* UDRV_NUMBER_H */
