// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * libFuzzer: railgate-cni's two inputs, its environment and its stdin,
 * through cni_plugin() in-process.  An input is
 *
 *   NAME=VALUE lines (CNI_COMMAND, CNI_CONTAINERID, CNI_NETNS, CNI_IFNAME,
 *   CNI_ARGS, CNI_PATH), an empty line, then the network config's bytes.
 *
 * No namespace is ever touched: a CNI_NETNS that is given becomes a path
 * that does not exist, so ADD and CHECK stop at opening it and DEL finds
 * nothing to remove (a railConfig path is read only when it names a
 * regular file: tools/cni/commands.c).  Checked besides ASan and UBSan:
 * whatever happens, stdout holds one JSON object, and on failure it is a
 * spec error object (cniVersion, an integer code, a msg).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "tools/cni/cni.h"

#define NETNS_NOWHERE "/nonexistent/railgate-fuzz/netns"

#define require(cond) do { if (!(cond)) { \
	fprintf(stderr, "fuzz_cni: %s:%d: %s\n", __FILE__, __LINE__, #cond); abort(); } } while (0)

/* The plugin's log: nowhere (the runtime's stderr is no part of the answer). */
void cni_log(const char *fmt, ...)
{
	(void)fmt;
}

static const char *const env_names[] = {
	"CNI_COMMAND", "CNI_CONTAINERID", "CNI_NETNS", "CNI_IFNAME", "CNI_ARGS", "CNI_PATH",
};
#define N_ENV (sizeof(env_names) / sizeof(env_names[0]))

/* putenv() with a buffer per variable, rewritten in place: setenv() keeps
 * every distinct value it was ever given (glibc), millions of them here. */
static char env_buf[N_ENV][600];

static void put_env(size_t i, const char *value)
{
	snprintf(env_buf[i], sizeof(env_buf[i]), "%s=%s", env_names[i], value);
	putenv(env_buf[i]);
}

/* Sets the variables the input's head names, unsets the others; returns
 * where the network config starts. */
static size_t set_env(const char *in, size_t size)
{
	bool set[N_ENV] = { false };
	size_t pos = 0;

	while (pos < size && in[pos] != '\n') {
		const char *line = in + pos, *nl = memchr(line, '\n', size - pos);
		size_t len = nl ? (size_t)(nl - line) : size - pos;
		const char *eq = memchr(line, '=', len);

		for (size_t i = 0; eq && i < N_ENV; i++) {
			char value[512];
			size_t vlen = len - (size_t)(eq + 1 - line);

			if (strlen(env_names[i]) != (size_t)(eq - line) ||
			    memcmp(line, env_names[i], (size_t)(eq - line)) || vlen >= sizeof(value))
				continue;
			memcpy(value, eq + 1, vlen);
			value[vlen] = '\0';
			if (!strcmp(env_names[i], "CNI_NETNS") && vlen)
				snprintf(value, sizeof(value), "%s", NETNS_NOWHERE);
			put_env(i, value);
			set[i] = true;
		}
		pos += len + (nl ? 1 : 0);
	}
	for (size_t i = 0; i < N_ENV; i++)
		if (!set[i])
			unsetenv(env_names[i]);
	return pos < size ? pos + 1 : size;
}

static void check_answer(const char *out, size_t len, int ret)
{
	struct json_tokener *tok;
	struct json_object *o, *v;

	if (!ret && len == 0)
		return;          /* DEL, CHECK, GC: success says nothing */
	tok = json_tokener_new();
	require(tok);
	o = json_tokener_parse_ex(tok, out, (int)len);
	require(o && json_object_is_type(o, json_type_object));
	require(json_object_object_get_ex(o, "cniVersion", &v) &&
		json_object_is_type(v, json_type_string));
	if (ret) {
		require(json_object_object_get_ex(o, "code", &v) &&
			json_object_is_type(v, json_type_int) && json_object_get_int(v) > 0);
		require(json_object_object_get_ex(o, "msg", &v) &&
			json_object_is_type(v, json_type_string));
	}
	json_object_put(o);
	json_tokener_free(tok);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t start = set_env((const char *)data, size);
	char *text = malloc(size - start + 1), *out = NULL;
	size_t out_len = 0;
	FILE *f;
	int ret;

	require(text);
	memcpy(text, data + start, size - start);
	text[size - start] = '\0';
	f = open_memstream(&out, &out_len);
	require(f);
	ret = cni_plugin(text, size - start, f);
	require(fclose(f) == 0);
	require(ret == 0 || ret == 1);
	check_answer(out, out_len, ret);
	free(out);
	free(text);
	return 0;
}
