/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * example_exit.h - how the example drivers (nvme.c, e1000e.c) end: a
 * failure as one line "PROG: ..." on stderr and a documented exit status
 * (die), a failed libudrv call (die_udrv), a SIGBUS on the DMA buffer's
 * mapping (on_sigbus), and SIGINT, SIGTERM, SIGHUP (on_signal), each
 * stopping the device's DMA into the program's buffer first.
 *
 * The includer defines, before including it:
 *   PROG            the program's name, the prefix of every message
 *   EXIT_SETUP      its status for a setup failure (the library's message)
 *   EXIT_GONE       its status for a device gone (unbound, removed)
 *   EXAMPLE_DEVICE  an expression: its struct udrv_device * (NULL before
 *                   udrv_device_open)
 *   stop_device()   a function that stops the device's DMA into the
 *                   program's buffer if it was started, idempotent and
 *                   async-signal-safe (on_signal() calls it: stores to
 *                   the registers, and only async-signal-safe calls such
 *                   as poll(); clang-tidy's bugprone-signal-handler, run
 *                   by tests/analyze, checks that)
 */
#ifndef EXAMPLE_EXIT_H
#define EXAMPLE_EXIT_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <udrv.h>

__attribute__((noreturn, format(printf, 2, 3)))
static void die(int status, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	/* stop the device's DMA into our buffer, best effort; a device
	 * that is gone is not touched */
	if (status != EXIT_GONE)
		stop_device();
	exit(status);
}

/* a failed libudrv call: its message; EXIT_GONE once the device is gone */
__attribute__((noreturn))
static void die_udrv(void)
{
	if (EXAMPLE_DEVICE && udrv_device_gone(EXAMPLE_DEVICE))
		die(EXIT_GONE, "device gone: %s", udrv_strerror());
	die(EXIT_SETUP, "%s", udrv_strerror());
}

/*
 * The library turns a SIGBUS on BAR0's mapping after the device went away
 * into reads of all ones; one on the DMA buffer's mapping (iio zaps it at
 * unbind) comes here, the handler the library found installed: the
 * device is gone.
 */
static void on_sigbus(int sig)
{
	static const char msg[] = PROG ": device gone: SIGBUS on the DMA "
				  "buffer's mapping (unbound?)\n";

	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(EXIT_GONE);
	_exit(EXIT_GONE);
}

/* Ctrl-C, kill: stop the device's DMA into our buffer, then go */
static void on_signal(int sig)
{
	static const char msg[] = PROG ": interrupted by a signal\n";

	stop_device();
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(128 + sig);
	_exit(128 + sig);
}

#endif
