// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Scenario 3 reads what the runtime kept of each attachment: libcni's
 * result cache (a file per attachment, kind "cniCacheV1", under
 * /var/lib/cni/results for runtimes and /var/lib/cni/multus/results for
 * Multus) holds the attachment's conflist (base64) and its final result.
 * No railgate in the chain and no supernet route in the result is the
 * IPAM that does not hand out the route.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include <json-c/json.h>

#include "tools/doctor/doctor.h"
#include "tools/doctor/jsonget.h"
#include "lib/addr.h"

#define CACHE_FILE_MAX (1 << 20)

static struct json_object *read_json(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = malloc(CACHE_FILE_MAX + 1);
	struct json_object *o = NULL;
	size_t n;

	if (f && buf) {
		n = fread(buf, 1, CACHE_FILE_MAX, f);
		buf[n] = '\0';
		o = json_tokener_parse(buf);
	}
	if (f)
		fclose(f);
	free(buf);
	return o;
}

static bool result_holds(struct json_object *result, uint32_t addr)
{
	struct json_object *ips = jget(result, "ips");

	for (size_t i = 0; json_object_is_type(ips, json_type_array) && i < json_object_array_length(ips); i++) {
		char text[40];
		uint32_t a;

		/* "10.0.1.150/24": the address before the prefix length */
		snprintf(text, sizeof(text), "%s", jget_str(json_object_array_get_idx(ips, i), "address"));
		text[strcspn(text, "/")] = '\0';
		if (!rg_ipv4_parse(text, &a) && a == addr)
			return true;
	}
	return false;
}

static bool routes_supernet(struct json_object *result, const struct rg_config *cfg)
{
	struct json_object *routes = jget(result, "routes");

	for (size_t i = 0; json_object_is_type(routes, json_type_array) && i < json_object_array_length(routes); i++) {
		struct rg_cidr c;

		if (rg_cidr_parse(jget_str(json_object_array_get_idx(routes, i), "dst"), &c, true))
			continue;
		for (size_t s = 0; s < cfg->n_supernets; s++)
			if (rg_cidr_covers(c, cfg->supernets[s]))
				return true;
	}
	return false;
}

/* The conflist bytes libcni cached (base64 in the JSON) name railgate? */
static bool chain_has_railgate(const char *b64)
{
	size_t len = strlen(b64);
	unsigned char *raw = malloc(len / 4 * 3 + 4);
	struct json_object *conf = NULL, *plugins;
	bool found = false;
	int n;

	if (!raw)
		return false;
	n = EVP_DecodeBlock(raw, (const unsigned char *)b64, (int)len);
	if (n > 0) {
		raw[n] = '\0';
		conf = json_tokener_parse((const char *)raw);
	}
	plugins = jget(conf, "plugins");
	for (size_t i = 0; json_object_is_type(plugins, json_type_array) && i < json_object_array_length(plugins); i++) {
		const char *type = jget_str(json_object_array_get_idx(plugins, i), "type");

		found |= !strcmp(type, "railgate") || !strcmp(type, "railgate-cni");
	}
	if (!plugins)    /* a single plugin config */
		found = !strcmp(jget_str(conf, "type"), "railgate") || !strcmp(jget_str(conf, "type"), "railgate-cni");
	json_object_put(conf);
	free(raw);
	return found;
}

static int lookup_dir(const char *dir, const char *ifname, uint32_t addr,
		      const struct rg_config *cfg, struct rg_cni_attachment *out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while (!found && (e = readdir(d))) {
		struct json_object *o, *result;

		if (e->d_name[0] == '.')
			continue;
		snprintf(out->path, sizeof(out->path), "%s/%s", dir, e->d_name);
		o = read_json(out->path);
		result = jget(o, "result");
		if (!strcmp(jget_str(o, "kind"), "cniCacheV1") && !strcmp(jget_str(o, "ifName"), ifname) &&
		    result_holds(result, addr)) {
			snprintf(out->network, sizeof(out->network), "%s", jget_str(o, "networkName"));
			out->has_railgate = chain_has_railgate(jget_str(o, "config"));
			out->result_routes_supernet = routes_supernet(result, cfg);
			found = 1;
		}
		json_object_put(o);
	}
	closedir(d);
	return found;
}

int rg_doctor_cni_lookup(const char *const *dirs, size_t n_dirs, const char *ifname,
			 uint32_t addr, const struct rg_config *cfg,
			 struct rg_cni_attachment *out)
{
	int ret = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; !ret && i < n_dirs; i++)
		ret = lookup_dir(dirs[i], ifname, addr, cfg, out);
	if (ret <= 0)
		memset(out, 0, sizeof(*out));
	return ret;
}
