// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * railgate-cni: an error as the runtime receives it (errors.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include <json-c/json.h>

#include "tools/cni/errors.h"
#include "tools/cni/log.h"

int cni_error_set(struct cni_error *e, int code, const char *msg, const char *details_fmt, ...)
{
	va_list ap;

	e->code = code;
	snprintf(e->msg, sizeof(e->msg), "%s", msg);
	va_start(ap, details_fmt);
	vsnprintf(e->details, sizeof(e->details), details_fmt, ap);
	va_end(ap);
	return code;
}

int cni_print_error(FILE *out, const struct cni_error *e, const char *version)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "cniVersion", json_object_new_string(version));
	json_object_object_add(o, "code", json_object_new_int(e->code));
	json_object_object_add(o, "msg", json_object_new_string(e->msg));
	json_object_object_add(o, "details", json_object_new_string(e->details));
	fprintf(out, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	cni_log("error %d: %s: %s", e->code, e->msg, e->details);
	return 1;
}
