/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Where a config's mistakes are and what they say: a position in the YAML
 * source and the list of "FILE:LINE:COL: message" lines every caller prints.
 */
#ifndef RAILGATE_CONFIG_DIAGS_H
#define RAILGATE_CONFIG_DIAGS_H

#include <stddef.h>

/* Position of a node in the YAML source (1-based). */
struct rg_pos {
	unsigned line;
	unsigned col;
};

/* Errors reported, at most (a bound of docs/config.md, "Limits", with the
 * others in config.h): the earliest in the file; the rest are counted. */
enum { RG_CONFIG_MAX_ERRORS = 20 };

/* One error per entry, already formatted "FILE:LINE:COL: message". */
struct rg_diags {
	char   **msgs;
	size_t   count;
	size_t   left_out;           /* errors past RG_CONFIG_MAX_ERRORS: one line in msgs says how many */
};

/* How many errors there were: the lines in msgs, or more when some were left out. */
static inline size_t rg_diags_errors(const struct rg_diags *d)
{
	return d->left_out ? d->count - 1 + d->left_out : d->count;
}

void rg_diags_add(struct rg_diags *d, const char *file, struct rg_pos pos,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void rg_diags_free(struct rg_diags *d);

/* Append a formatted message (taking ownership; NULL is dropped). */
void rg_diags_push(struct rg_diags *d, char *msg);

#endif /* RAILGATE_CONFIG_DIAGS_H */
