/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Reading foreign JSON (libnftables' ruleset, libcni's caches) without
 * trusting its shape: a missing key or a value of another type reads as
 * NULL or "", never as a crash. */
#ifndef RAILGATE_DOCTOR_JSONGET_H
#define RAILGATE_DOCTOR_JSONGET_H

#include <stdbool.h>
#include <json-c/json.h>

static inline struct json_object *jget(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

/* A key that is there, also with a null value ({"drop": null}). */
static inline bool jhas(struct json_object *o, const char *key)
{
	return o && json_object_object_get_ex(o, key, NULL);
}

static inline const char *jget_str(struct json_object *o, const char *key)
{
	struct json_object *v = jget(o, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
}

#endif
