// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The list of a config's mistakes (loader/config/diags.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "loader/config/diags.h"

void rg_diags_push(struct rg_diags *d, char *msg)
{
	char **grown;

	if (!msg)
		return;
	grown = realloc(d->msgs, (d->count + 1) * sizeof(*d->msgs));
	if (!grown) {
		free(msg);
		return;
	}
	d->msgs = grown;
	d->msgs[d->count++] = msg;
}

void rg_diags_add(struct rg_diags *d, const char *file, struct rg_pos pos,
		  const char *fmt, ...)
{
	char *text, *msg;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (asprintf(&msg, "%s:%u:%u: %s", file, pos.line, pos.col, text) < 0)
		msg = NULL;
	free(text);
	rg_diags_push(d, msg);
}

void rg_diags_free(struct rg_diags *d)
{
	size_t i;

	for (i = 0; i < d->count; i++)
		free(d->msgs[i]);
	free(d->msgs);
	d->msgs = NULL;
	d->count = 0;
	d->left_out = 0;
}
