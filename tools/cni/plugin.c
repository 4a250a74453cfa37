// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * railgate-cni: one invocation, from the network config's text and the
 * environment to the exit code and what goes on `out` (the result or the
 * error object, the way libcni reads it).  Apart from main.c (stdin) and
 * log.c (stderr) so that the fuzzer (tests/fuzz/fuzz_cni.c) runs it
 * in-process.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cni/cni.h"

/* The version to answer in: the config's when it is one we speak. */
static const char *answer_version(const char *text)
{
	static char version[16];
	struct json_object *root = text ? json_tokener_parse(text) : NULL, *v;
	const char *answer = CNI_LATEST;

	if (root && json_object_object_get_ex(root, "cniVersion", &v) &&
	    json_object_is_type(v, json_type_string) &&
	    cni_version_supported(json_object_get_string(v))) {
		snprintf(version, sizeof(version), "%s", json_object_get_string(v));
		answer = version;
	}
	json_object_put(root);
	return answer;
}

static int print_version(FILE *out, const char *version)
{
	struct json_object *o = json_object_new_object(), *list = json_object_new_array();

	for (const char *const *v = cni_supported_versions; *v; v++)
		json_object_array_add(list, json_object_new_string(*v));
	json_object_object_add(o, "cniVersion", json_object_new_string(version));
	json_object_object_add(o, "supportedVersions", list);
	fprintf(out, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	return 0;
}

static int run(const struct cni_env *env, const char *text, struct cni_error *e)
{
	struct cni_netconf nc;
	int ret;

	ret = cni_netconf_parse(text, env->command, &nc, e);
	if (ret)
		goto out;
	switch (env->command) {
	case CNI_CMD_ADD:
		ret = cni_cmd_add(env, &nc, e);
		break;
	case CNI_CMD_CHECK:
		ret = cni_cmd_check(env, &nc, e);
		break;
	case CNI_CMD_DEL:
		ret = cni_cmd_del(env, &nc, e);
		break;
	case CNI_CMD_STATUS:
		ret = cni_cmd_status(&nc, e);
		break;
	case CNI_CMD_GC:
		ret = cni_cmd_gc(&nc, e);
		break;
	case CNI_CMD_VERSION:
		break;    /* answered before the config is parsed */
	}
out:
	cni_netconf_free(&nc);
	return ret;
}

int cni_plugin(const char *text, size_t len, FILE *out)
{
	struct cni_error e = { 0 };
	struct cni_env env;
	const char *version = answer_version(text);

	/* The config goes on as a C string: a NUL would end it early and hide
	 * what follows from the trailing-data check. */
	if (strlen(text) != len) {
		cni_error_set(&e, CNI_ERR_DECODE, "cannot decode the network config on stdin",
			      "a NUL byte at byte %zu", strlen(text));
		return cni_print_error(out, &e, version);
	}
	if (cni_env_read(&env, &e))
		return cni_print_error(out, &e, version);
	if (env.command == CNI_CMD_VERSION)
		return print_version(out, version);
	if (run(&env, text, &e))
		return cni_print_error(out, &e, version);
	return 0;
}
