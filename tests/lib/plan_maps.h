/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * A plan (loader/plan/plan.h) as the map contents it writes, in JSON: the
 * rails table by id, the generation's egress and ICMP settings, every
 * representor entry as rg_representor_of makes it, the route list and the
 * FIB image maps/fib compiles from it (zones, counts and a sha256 of the
 * tables), plus the lines the plan logged and the error it failed with.
 * The recorder (tests/tools/record_facts/) writes the golden files of
 * tests/unit/facts/ with it and test_plan_facts compares against them, so
 * both spell a plan the same way by construction.
 */
#ifndef RAILGATE_TESTS_PLAN_MAPS_H
#define RAILGATE_TESTS_PLAN_MAPS_H

#include <stddef.h>

#include "lib/log.h"
#include "loader/plan/plan.h"

/* The lines a plan logs, caught in order ("info: ...", "warn: ..."). */
struct plan_log {
	char   **lines;
	size_t   n;
};

/* A logger that appends to lines (free with plan_log_free). */
struct rg_log plan_log_catcher(struct plan_log *lines);
void plan_log_free(struct plan_log *lines);

/*
 * The JSON text (malloc'd, ends in a newline) of the outcome of one plan:
 * ret 0 and plan, or ret < 0 and err (plan unused).  NULL on ENOMEM or
 * when the routes do not compile.
 */
char *plan_maps_json(int ret, const char *err, const struct rg_plan *plan,
		     const struct plan_log *lines);

/* The rail ids of an earlier outcome's text (its "rails"), for a reload's
 * prev; 0, or -EINVAL when the text has none. */
int plan_maps_rail_ids(const char *json, struct rg_rail_ids *ids);

/* text (len bytes, malloc'd, as rg_file_read gives it) with a NUL after
 * it, for the JSON parser; NULL (text freed) when out of memory. */
char *nul_terminated(char *text, size_t len);

#endif
