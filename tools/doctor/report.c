// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "tools/doctor/report.h"

struct rg_check *rg_checks_add(struct rg_checks *cs, const char *id, int scenario,
			       enum rg_check_status status, const char *target)
{
	struct rg_check *c;

	if (cs->n == cs->cap) {
		size_t cap = cs->cap ? cs->cap * 2 : 16;
		struct rg_check *v = realloc(cs->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		cs->v = v;
		cs->cap = cap;
	}
	c = &cs->v[cs->n++];
	memset(c, 0, sizeof(*c));
	snprintf(c->id, sizeof(c->id), "%s", id);
	c->scenario = scenario;
	c->status = status;
	snprintf(c->target, sizeof(c->target), "%s", target);
	return c;
}

void rg_check_set(char *field, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(field, RG_CHECK_TEXT_LEN, fmt, ap);
	va_end(ap);
}

void rg_checks_free(struct rg_checks *cs)
{
	free(cs->v);
	memset(cs, 0, sizeof(*cs));
}

size_t rg_checks_count(const struct rg_checks *cs, enum rg_check_status status)
{
	size_t k = 0;

	for (size_t i = 0; i < cs->n; i++)
		k += cs->v[i].status == status;
	return k;
}

const struct rg_check *rg_checks_find(const struct rg_checks *cs, const char *id,
				      const char *target)
{
	for (size_t i = 0; i < cs->n; i++)
		if (!strcmp(cs->v[i].id, id) && (!target || !strcmp(cs->v[i].target, target)))
			return &cs->v[i];
	return NULL;
}

const char *rg_check_status_name(enum rg_check_status s)
{
	switch (s) {
	case RG_CHECK_PASS: return "pass";
	case RG_CHECK_WARN: return "warn";
	default:            return "fail";
	}
}

static struct json_object *str_or_null(const char *s)
{
	return s[0] ? json_object_new_string(s) : NULL;
}

struct json_object *rg_checks_json(const struct rg_checks *cs)
{
	struct json_object *o = json_object_new_object(), *arr = json_object_new_array();

	for (size_t i = 0; i < cs->n; i++) {
		const struct rg_check *c = &cs->v[i];
		struct json_object *x = json_object_new_object(), *fix = json_object_new_object();

		json_object_object_add(x, "id", json_object_new_string(c->id));
		json_object_object_add(x, "scenario", c->scenario ? json_object_new_int(c->scenario) : NULL);
		json_object_object_add(x, "status", json_object_new_string(rg_check_status_name(c->status)));
		json_object_object_add(x, "target", json_object_new_string(c->target));
		json_object_object_add(x, "summary", json_object_new_string(c->summary));
		json_object_object_add(x, "evidence", json_object_new_string(c->evidence));
		json_object_object_add(fix, "command", str_or_null(c->fix_command));
		json_object_object_add(fix, "text", str_or_null(c->fix_text));
		json_object_object_add(x, "fix", fix);
		json_object_array_add(arr, x);
	}
	json_object_object_add(o, "checks", arr);
	json_object_object_add(o, "failed", json_object_new_int((int)rg_checks_count(cs, RG_CHECK_FAIL)));
	json_object_object_add(o, "warned", json_object_new_int((int)rg_checks_count(cs, RG_CHECK_WARN)));
	return o;
}
