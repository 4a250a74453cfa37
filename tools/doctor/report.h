/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * What `railgate doctor` found: one entry per check, each with the field
 * report's scenario it belongs to (docs/failure-scenarios.md; 0 for
 * railgate's own health), a status, the thing checked, the evidence and
 * the fix: a command that runs as is (or none) and the prose.  The checks
 * (node.c, pod.c, nft.c) only add entries; cmd_doctor prints them.
 */
#ifndef RAILGATE_DOCTOR_REPORT_H
#define RAILGATE_DOCTOR_REPORT_H

#include <stdarg.h>
#include <stddef.h>

struct json_object;

enum rg_check_status {
	RG_CHECK_PASS = 0,
	RG_CHECK_WARN,
	RG_CHECK_FAIL,
};

#define RG_CHECK_ID_LEN   48
#define RG_CHECK_TEXT_LEN 512

struct rg_check {
	char id[RG_CHECK_ID_LEN];       /* "node.attached", "pod.routes", ... */
	int  scenario;                  /* 1..6, or 0: railgate's own health (null in JSON) */
	enum rg_check_status status;
	char target[128];               /* the node, pod or interface checked */
	char summary[RG_CHECK_TEXT_LEN];
	char evidence[RG_CHECK_TEXT_LEN];
	char fix_command[RG_CHECK_TEXT_LEN]; /* "" = none (null in JSON) */
	char fix_text[RG_CHECK_TEXT_LEN];
};

struct rg_checks {
	struct rg_check *v;
	size_t n, cap;
};

/* Append an entry and return it (zeroed but for what is given), or NULL
 * when out of memory.  The text fields are filled with rg_check_set. */
struct rg_check *rg_checks_add(struct rg_checks *cs, const char *id, int scenario,
			       enum rg_check_status status, const char *target);
void rg_check_set(char *field, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rg_checks_free(struct rg_checks *cs);

size_t rg_checks_count(const struct rg_checks *cs, enum rg_check_status status);
/* The first entry with this id and target (or any target when NULL). */
const struct rg_check *rg_checks_find(const struct rg_checks *cs, const char *id,
				      const char *target);
const char *rg_check_status_name(enum rg_check_status s);

/* {"checks": [...], "failed": N, "warned": N} (docs/commands.md). */
struct json_object *rg_checks_json(const struct rg_checks *cs);

#endif
