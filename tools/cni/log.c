// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * railgate-cni: the log (log.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "tools/cni/log.h"

void cni_log(const char *fmt, ...)
{
	va_list ap;

	fputs("railgate-cni: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
