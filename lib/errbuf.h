/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Library code never prints: it leaves a human message in the caller's
 * buffer and returns -errno.  This is the one formatter they share. */
#ifndef RAILGATE_ERRBUF_H
#define RAILGATE_ERRBUF_H

#include <stddef.h>

/* Format into err (ignored when err is NULL or n is 0). */
void rg_set_err(char *err, size_t err_len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The same, returning rc (a -errno): `return rg_err(err, n, -ENOENT, "...")`. */
int rg_err(char *err, size_t err_len, int rc, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
