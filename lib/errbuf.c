// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <stdarg.h>
#include <stdio.h>

#include "lib/errbuf.h"

static void vset_err(char *err, size_t n, const char *fmt, va_list ap)
{
	if (err && n)
		vsnprintf(err, n, fmt, ap);
}

void rg_set_err(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset_err(err, n, fmt, ap);
	va_end(ap);
}

int rg_err(char *err, size_t n, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset_err(err, n, fmt, ap);
	va_end(ap);
	return rc;
}
