// SPDX-License-Identifier: LGPL-2.1-or-later
/* error.c - each thread's message of its last failure (udrv_strerror(3)) */
#include <stdarg.h>
#include <stdio.h>

#include "internal.h"

static _Thread_local char message[512];

const char *udrv_strerror(void)
{
	return message;
}

int udrv_fail(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	return -err;
}
