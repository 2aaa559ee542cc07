// SPDX-License-Identifier: LGPL-2.1-or-later
/* sysfs.c - one-line attribute files: read as text or a number, written */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "lookup.h"
#include "number.h"

int udrv_read_text(const char *path, char *buf, size_t len)
{
	int err = udrv_read_line(path, buf, len);

	if (err)
		return udrv_fail(-err, "%s: %s", path, strerror(-err));
	return 0;
}

int udrv_write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return udrv_fail(errno, "%s: %s", path, strerror(errno));
	if (write(fd, text, strlen(text)) < 0)
		err = errno;
	close(fd);
	if (err)
		return udrv_fail(err, "writing \"%s\" to %s: %s", text, path,
				 strerror(err));
	return 0;
}

int udrv_read_number(const char *path, uint64_t *value)
{
	char buf[64] = "";
	const char *end;
	int err = udrv_read_text(path, buf, sizeof(buf));

	if (err)
		return err;
	/* sysfs writes decimal or 0x hex: a leading zero is no octal here */
	if (udrv_number_parse(buf, value, &end) || *end)
		return udrv_fail(EINVAL, "%s: \"%s\" is not a number", path,
				 buf);
	return 0;
}
