// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <stdarg.h>
#include <stdio.h>

#include "lib/errbuf.h"

static void vset_err(char *err, size_t err_len, const char *fmt, va_list ap)
{
	if (err && err_len)
		vsnprintf(err, err_len, fmt, ap);
}

void rg_set_err(char *err, size_t err_len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset_err(err, err_len, fmt, ap);
	va_end(ap);
}

int rg_err(char *err, size_t err_len, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset_err(err, err_len, fmt, ap);
	va_end(ap);
	return rc;
}
