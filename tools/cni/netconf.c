// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The network config on stdin: the spec's keys (cniVersion, name, type,
 * prevResult) and railgate's own (railConfig, supernets, gateway, frontend,
 * table, tableBase, rulePriority, onConflict).  Keys railgate does not know are accepted: Multus adds
 * deviceID, pciBusID, runtimeConfig and args.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cni/cni.h"
#include "lib/addr.h"

const char *const cni_supported_versions[] = { "0.3.1", "0.4.0", "1.0.0", CNI_LATEST, NULL };

bool cni_version_supported(const char *v)
{
	for (const char *const *s = cni_supported_versions; *s; s++)
		if (!strcmp(*s, v))
			return true;
	return false;
}

int cni_version_cmp(const char *a, const char *b)
{
	unsigned va[3] = { 0 }, vb[3] = { 0 };

	sscanf(a, "%u.%u.%u", &va[0], &va[1], &va[2]);
	sscanf(b, "%u.%u.%u", &vb[0], &vb[1], &vb[2]);
	for (int i = 0; i < 3; i++)
		if (va[i] != vb[i])
			return va[i] < vb[i] ? -1 : 1;
	return 0;
}

/* One JSON object and nothing after it but white space: a second document
 * or trailing bytes mean the runtime and railgate could read different
 * configs (json_tokener_parse stops at the first complete value). */
static int decode(const char *text, struct json_object **root, struct cni_error *e)
{
	struct json_tokener *tok;
	enum json_tokener_error jerr = json_tokener_success;
	size_t len = text ? strlen(text) : 0, end = 0;

	*root = NULL;
	if (!len)
		return cni_error_set(e, CNI_ERR_DECODE, "cannot decode the network config on stdin",
				     "not JSON: stdin is empty");
	tok = json_tokener_new();
	if (!tok)
		return cni_error_set(e, CNI_ERR_IO, "out of memory", "decoding stdin");
	*root = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!*root || jerr != json_tokener_success)
		return cni_error_set(e, CNI_ERR_DECODE, "cannot decode the network config on stdin",
				     "not JSON: %s", json_tokener_error_desc(
					     jerr == json_tokener_continue ? json_tokener_error_parse_eof : jerr));
	while (end < len && strchr(" \t\r\n", text[end]))
		end++;
	if (end < len) {
		json_object_put(*root);
		*root = NULL;
		return cni_error_set(e, CNI_ERR_DECODE, "cannot decode the network config on stdin",
				     "trailing data after the JSON object at byte %zu", end);
	}
	if (!json_object_is_type(*root, json_type_object)) {
		json_object_put(*root);
		*root = NULL;
		return cni_error_set(e, CNI_ERR_DECODE, "cannot decode the network config on stdin",
				     "the config must be a JSON object");
	}
	return 0;
}

/* A string key: 0 and *out set, 0 and *out NULL when absent, or error 7. */
static int get_string(struct json_object *o, const char *key, const char **out,
		      struct cni_error *e)
{
	struct json_object *v;

	*out = NULL;
	if (!json_object_object_get_ex(o, key, &v) || json_object_is_type(v, json_type_null))
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return cni_error_set(e, CNI_ERR_CONFIG, "invalid network config",
				     "\"%s\" must be a string", key);
	*out = json_object_get_string(v);
	return 0;
}

/* A list of CIDRs, host bits zero: supernets, frontend. */
static int get_cidrs(struct json_object *o, const char *key, struct rg_cidr *out,
		     size_t max, size_t *n, struct cni_error *e)
{
	struct json_object *arr;
	size_t len;

	*n = 0;
	if (!json_object_object_get_ex(o, key, &arr) || json_object_is_type(arr, json_type_null))
		return 0;
	if (!json_object_is_type(arr, json_type_array))
		return cni_error_set(e, CNI_ERR_CONFIG, "invalid network config",
				     "\"%s\" must be a list of CIDRs like [\"10.0.0.0/16\"]", key);
	len = json_object_array_length(arr);
	if (len > max)
		return cni_error_set(e, CNI_ERR_CONFIG, "invalid network config",
				     "\"%s\" has %zu entries, at most %zu", key, len, max);
	for (size_t i = 0; i < len; i++) {
		struct json_object *v = json_object_array_get_idx(arr, i);
		const char *s = json_object_get_string(v);

		if (!json_object_is_type(v, json_type_string) ||
		    rg_cidr_parse(s, &out[i], false))
			return cni_error_set(e, CNI_ERR_CONFIG, "invalid network config",
					     "%s[%zu]: \"%s\" is not a CIDR like 10.0.0.0/16 (host bits must be zero)",
					     key, i, s ? s : "");
	}
	*n = len;
	return 0;
}

static int parse_version(struct cni_netconf *nc, struct cni_error *e)
{
	const char *v;
	int ret = get_string(nc->root, "cniVersion", &v, e);

	if (ret)
		return ret;
	if (!v)
		return cni_error_set(e, CNI_ERR_CONFIG, "invalid network config",
				     "\"cniVersion\" is missing");
	snprintf(nc->cni_version, sizeof(nc->cni_version), "%s", v);
	if (!cni_version_supported(v))
		return cni_error_set(e, CNI_ERR_VERSION, "incompatible CNI version",
				     "the config asks for %s; railgate-cni speaks 0.3.1, 0.4.0, 1.0.0 and 1.1.0",
				     v);
	return 0;
}

static int parse_on_conflict(struct cni_netconf *nc, struct cni_error *e)
{
	const char *v;
	int ret = get_string(nc->root, "onConflict", &v, e);

	if (ret || !v)
		return ret;
	if (!strcmp(v, "error"))
		nc->on_conflict = RG_POD_CONFLICT_ERROR;
	else if (!strcmp(v, "warn"))
		nc->on_conflict = RG_POD_CONFLICT_WARN;
	else
		return cni_error_set(e, CNI_ERR_CONFIG, "invalid network config",
				     "onConflict is \"%s\"; it must be \"error\" or \"warn\"", v);
	return 0;
}

/* An unsigned integer key below limit: 0 and *has set when present, or
 * error 7. */
static int get_uint(struct json_object *o, const char *key, uint32_t limit, uint32_t *out,
		    bool *has, struct cni_error *e)
{
	struct json_object *v;
	int64_t n;

	*has = false;
	if (!json_object_object_get_ex(o, key, &v) || json_object_is_type(v, json_type_null))
		return 0;
	n = json_object_get_int64(v);
	if (!json_object_is_type(v, json_type_int) || n < 0 || n >= limit)
		return cni_error_set(e, CNI_ERR_CONFIG, "invalid network config",
				     "\"%s\" must be an integer from 0 to %u", key, limit - 1);
	*out = (uint32_t)n;
	*has = true;
	return 0;
}

/* tableBase and rulePriority (defaults 1000), and table (inline only). */
static int parse_numbering(struct cni_netconf *nc, struct cni_error *e)
{
	struct rg_pod_numbering *num = &nc->numbering;
	bool has;
	int ret;

	rg_pod_numbering_default(num);
	ret = get_uint(nc->root, "tableBase", 0x7fffffff, &num->table_base, &has, e);
	if (!ret)
		ret = get_uint(nc->root, "rulePriority", 32766, &num->rule_priority, &has, e);
	if (!ret)
		ret = get_uint(nc->root, "table", 0x7fffffff, &num->table, &num->has_table, e);
	if (ret)
		return ret;
	if (num->has_table && nc->rail_config)
		return cni_error_set(e, CNI_ERR_CONFIG, "invalid network config",
				     "\"table\" goes with inline supernets; with railConfig each rail's table is tableBase + the rail's index");
	return 0;
}

/* railConfig, or supernets with an optional gateway and frontend. */
static int parse_routes_source(struct cni_netconf *nc, struct cni_error *e)
{
	struct rg_pod_inline *in = &nc->inline_routes;
	const char *gw;
	int ret;

	ret = get_string(nc->root, "railConfig", &nc->rail_config, e);
	if (!ret)
		ret = get_cidrs(nc->root, "supernets", in->supernets, RG_POD_ROUTES_MAX,
				&in->n_supernets, e);
	if (!ret)
		ret = get_cidrs(nc->root, "frontend", in->frontend, RG_POD_ROUTES_MAX,
				&in->n_frontend, e);
	if (!ret)
		ret = get_string(nc->root, "gateway", &gw, e);
	if (ret)
		return ret;
	if (gw) {
		if (rg_ipv4_parse(gw, &in->gateway))
			return cni_error_set(e, CNI_ERR_CONFIG, "invalid network config",
					     "gateway \"%s\" is not an IPv4 address", gw);
		in->has_gateway = true;
	}
	if (nc->rail_config && (in->n_supernets || in->n_frontend || gw))
		return cni_error_set(e, CNI_ERR_CONFIG, "invalid network config",
				     "give railConfig, or supernets/gateway/frontend inline, not both");
	if (!nc->rail_config && !in->n_supernets)
		return cni_error_set(e, CNI_ERR_CONFIG, "invalid network config",
				     "railgate needs \"railConfig\" (a rail config file) or \"supernets\" (a list of CIDRs)");
	return 0;
}

static int parse_prev_result(struct cni_netconf *nc, enum cni_command cmd,
			     struct cni_error *e)
{
	struct json_object *pr;

	if (json_object_object_get_ex(nc->root, "prevResult", &pr) &&
	    !json_object_is_type(pr, json_type_null)) {
		if (!json_object_is_type(pr, json_type_object))
			return cni_error_set(e, CNI_ERR_CONFIG, "invalid network config",
					     "\"prevResult\" must be an object");
		nc->prev_result = pr;
	}
	if (!nc->prev_result && (cmd == CNI_CMD_ADD || cmd == CNI_CMD_CHECK))
		return cni_error_set(e, CNI_ERR_CONFIG, "railgate must be chained",
				     "no prevResult: put railgate after the plugin that creates the interface and its IPAM in the plugins list");
	return 0;
}

int cni_netconf_parse(const char *text, enum cni_command cmd,
		      struct cni_netconf *nc, struct cni_error *e)
{
	int ret;

	memset(nc, 0, sizeof(*nc));
	ret = decode(text, &nc->root, e);
	if (!ret)
		ret = parse_version(nc, e);
	if (!ret)
		ret = get_string(nc->root, "name", &nc->name, e);
	/* DEL and GC need nothing more: DEL removes what railgate marked,
	 * whatever the config says now, and must not fail on a config gone
	 * bad; a prevResult, when it is one, tells DEL the pod's addresses. */
	if (!ret && cmd == CNI_CMD_DEL) {
		struct json_object *pr;

		if (json_object_object_get_ex(nc->root, "prevResult", &pr) &&
		    json_object_is_type(pr, json_type_object))
			nc->prev_result = pr;
	}
	if (ret || cmd == CNI_CMD_DEL || cmd == CNI_CMD_GC)
		return ret;
	ret = parse_on_conflict(nc, e);
	if (!ret)
		ret = parse_routes_source(nc, e);
	if (!ret)
		ret = parse_numbering(nc, e);
	if (!ret)
		ret = parse_prev_result(nc, cmd, e);
	return ret;
}

void cni_netconf_free(struct cni_netconf *nc)
{
	if (nc->root)
		json_object_put(nc->root);
	memset(nc, 0, sizeof(*nc));
}
