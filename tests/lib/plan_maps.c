// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* A plan as map contents, in JSON: see plan_maps.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/digest.h"
#include "lib/addr.h"
#include "lib/mac.h"
#include "maps/fib.h"
#include "maps/map_set.h"
#include "tests/lib/plan_maps.h"

static void catch_line(const struct rg_log *log, enum rg_log_level level, const char *event,
		       const char *msg)
{
	struct plan_log *c = log->ctx;
	char **lines = realloc(c->lines, (c->n + 1) * sizeof(*lines));

	if (!lines)
		return;
	c->lines = lines;
	if (asprintf(&c->lines[c->n], "%s: %s", rg_log_level_name(level), msg) >= 0)
		c->n++;
}

struct rg_log plan_log_catcher(struct plan_log *lines)
{
	struct rg_log log;

	memset(lines, 0, sizeof(*lines));
	rg_log_init(&log, NULL, RG_LOG_PLAIN);
	log.print = catch_line;
	log.ctx = lines;
	return log;
}

void plan_log_free(struct plan_log *lines)
{
	for (size_t i = 0; i < lines->n; i++)
		free(lines->lines[i]);
	free(lines->lines);
	memset(lines, 0, sizeof(*lines));
}

static void put(json_object *o, const char *key, json_object *v)
{
	json_object_object_add(o, key, v);
}

static json_object *ip_json(uint32_t ip)
{
	char buf[RG_IP_STR_LEN];

	return json_object_new_string(rg_ip_str(ip, buf));
}

static json_object *mac_json(const uint8_t mac[6])
{
	char buf[RG_MAC_STR_LEN];

	return json_object_new_string(rg_mac_str(mac, buf));
}

static json_object *hex_json(uint32_t v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "0x%08x", v);
	return json_object_new_string(buf);
}

static json_object *rails_json(const struct rg_plan *plan)
{
	json_object *list = json_object_new_array();

	for (int i = 0; i < RG_MAX_RAILS; i++) {
		const struct rg_rail *r = &plan->rails[i];
		json_object *o;

		if (!r->flags && !r->name[0])
			continue;
		o = json_object_new_object();
		put(o, "id", json_object_new_int(i));
		put(o, "name", json_object_new_string(r->name));
		put(o, "subnet", ip_json(r->subnet));
		put(o, "mask", ip_json(r->mask));
		put(o, "vlan", json_object_new_int(r->vlan));
		put(o, "flags", json_object_new_int(r->flags));
		put(o, "mtu", json_object_new_int64(r->mtu));
		json_object_array_add(list, o);
	}
	return list;
}

static json_object *egress_json(const struct rg_egress *e)
{
	json_object *o = json_object_new_object();

	put(o, "uplink_ifindex", json_object_new_int64(e->uplink_ifindex));
	put(o, "flags", json_object_new_int64(e->flags));
	put(o, "gateway_mac", mac_json(e->gateway_mac));
	put(o, "uplink_mac", mac_json(e->uplink_mac));
	put(o, "gateway_ip", ip_json(e->gateway_ip));
	put(o, "uplink_mtu", json_object_new_int64(e->uplink_mtu));
	return o;
}

static json_object *icmp_json(const struct rg_icmp_conf *c)
{
	json_object *o = json_object_new_object();

	put(o, "source", ip_json(c->source));
	put(o, "cpu_rate", json_object_new_int64(c->cpu_rate));
	put(o, "cpu_burst", json_object_new_int64(c->cpu_burst));
	return o;
}

/* Each entry as the representor map holds it (rg_representor_of). */
static json_object *reps_json(const struct rg_plan *plan)
{
	json_object *list = json_object_new_array();

	for (size_t i = 0; i < plan->n_reps; i++) {
		const struct rg_plan_rep *pr = &plan->reps[i];
		struct rg_representor e = rg_representor_of(pr->rail_id, &plan->rails[pr->rail_id],
							    pr->mode);
		json_object *o = json_object_new_object();

		put(o, "ifindex", json_object_new_int(pr->ifindex));
		put(o, "name", json_object_new_string(pr->name));
		put(o, "rail_id", json_object_new_int(e.rail_id));
		put(o, "mode", json_object_new_string(rg_attach_mode_name(e.mode)));
		put(o, "subnet", ip_json(e.subnet));
		put(o, "mask", ip_json(e.mask));
		put(o, "vlan", json_object_new_int(e.vlan));
		put(o, "flags", json_object_new_int(e.flags));
		json_object_array_add(list, o);
	}
	return list;
}

static json_object *routes_json(const struct rg_plan *plan)
{
	json_object *list = json_object_new_array();

	for (size_t i = 0; i < plan->n_routes; i++) {
		char cidr[RG_CIDR_STR_LEN];
		json_object *o = json_object_new_object();

		put(o, "prefix", json_object_new_string(rg_cidr_str(plan->routes[i].addr,
								    plan->routes[i].len, cidr)));
		put(o, "entry", hex_json(plan->routes[i].entry));
		json_object_array_add(list, o);
	}
	return list;
}

/* A sha256 over the used tables of the image, in the order they are written. */
static json_object *fib_digest(const struct rg_fib_image *img)
{
	size_t t24 = img->tbl24_used * sizeof(uint32_t);
	size_t t8 = (size_t)img->tbl8_groups_used * RG_TBL8_GROUP_SIZE * sizeof(uint32_t);
	size_t lpm = img->lpm_count * sizeof(*img->lpm);
	uint8_t *buf = malloc(t24 + t8 + lpm + 1), d[RG_SHA256_LEN];
	char hex[2 * RG_SHA256_LEN + 1] = "";

	if (buf) {
		memcpy(buf, img->tbl24, t24);
		memcpy(buf + t24, img->tbl8, t8);
		for (size_t i = 0; i < img->lpm_count; i++) {
			/* field by field: the struct's padding is not content */
			struct rg_fib_lpm_entry e = { 0 };

			memset(&e, 0, sizeof(e));
			e.addr = img->lpm[i].addr;
			e.len = img->lpm[i].len;
			e.entry = img->lpm[i].entry;
			memcpy(buf + t24 + t8 + i * sizeof(e), &e, sizeof(e));
		}
		if (!rg_sha256(buf, t24 + t8 + lpm, d))
			rg_digest_hex(d, hex);
	}
	free(buf);
	return json_object_new_string(hex);
}

static json_object *fib_json(const struct rg_plan *plan)
{
	struct rg_fib_image img;
	json_object *o, *zones;
	char err[256];

	if (rg_fib_compile(plan->routes, plan->n_routes, &img, err, sizeof(err)))
		return NULL;
	o = json_object_new_object();
	zones = json_object_new_array();
	for (uint32_t i = 0; i < img.zones.count; i++) {
		const struct rg_zone *z = &img.zones.zones[i];
		json_object *zo = json_object_new_object();

		put(zo, "net", ip_json(z->net));
		put(zo, "mask", ip_json(z->mask));
		put(zo, "base", json_object_new_int64(z->base));
		put(zo, "span", json_object_new_int64(z->span));
		json_object_array_add(zones, zo);
	}
	put(o, "zones", zones);
	put(o, "use_lpm", json_object_new_int64(img.zones.use_lpm));
	put(o, "tbl24_used", json_object_new_int64(img.tbl24_used));
	put(o, "tbl8_groups_used", json_object_new_int64(img.tbl8_groups_used));
	put(o, "lpm_count", json_object_new_int64((int64_t)img.lpm_count));
	put(o, "sha256", fib_digest(&img));
	rg_fib_image_free(&img);
	return o;
}

static json_object *log_json(const struct plan_log *lines)
{
	json_object *list = json_object_new_array();

	for (size_t i = 0; lines && i < lines->n; i++)
		json_object_array_add(list, json_object_new_string(lines->lines[i]));
	return list;
}

static json_object *outcome_json(int ret, const char *err, const struct rg_plan *plan)
{
	json_object *o = json_object_new_object();
	json_object *e;

	if (ret) {
		e = json_object_new_object();
		put(e, "ret", json_object_new_int(ret));
		put(e, "msg", json_object_new_string(err));
		put(o, "error", e);
		return o;
	}
	put(o, "error", NULL);
	put(o, "rails", rails_json(plan));
	put(o, "egress", egress_json(&plan->egress));
	put(o, "icmp", icmp_json(&plan->icmp));
	put(o, "representors", reps_json(plan));
	put(o, "routes", routes_json(plan));
	e = fib_json(plan);
	if (!e) {
		json_object_put(o);
		return NULL;
	}
	put(o, "fib", e);
	return o;
}

char *plan_maps_json(int ret, const char *err, const struct rg_plan *plan,
		     const struct plan_log *lines)
{
	json_object *o = outcome_json(ret, err, plan);
	const char *s;
	char *text = NULL;

	if (!o)
		return NULL;
	put(o, "log", log_json(lines));
	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
					   JSON_C_TO_STRING_NOSLASHESCAPE);
	if (s && asprintf(&text, "%s\n", s) < 0)
		text = NULL;
	json_object_put(o);
	return text;
}

int plan_maps_rail_ids(const char *json, struct rg_rail_ids *ids)
{
	json_object *top = json_tokener_parse(json), *rails = NULL;
	int ret = -EINVAL;

	memset(ids, 0, sizeof(*ids));
	if (top && json_object_object_get_ex(top, "rails", &rails) &&
	    json_object_is_type(rails, json_type_array)) {
		ret = 0;
		for (size_t i = 0; i < json_object_array_length(rails); i++) {
			json_object *r = json_object_array_get_idx(rails, i), *id, *name;

			if (!json_object_object_get_ex(r, "id", &id) ||
			    !json_object_object_get_ex(r, "name", &name) ||
			    json_object_get_int(id) < 0 || json_object_get_int(id) >= RG_MAX_RAILS) {
				ret = -EINVAL;
				break;
			}
			snprintf(ids->names[json_object_get_int(id)], RG_RAIL_NAME_LEN, "%s",
				 json_object_get_string(name));
		}
	}
	json_object_put(top);
	return ret;
}

char *nul_terminated(char *text, size_t len)
{
	char *t = realloc(text, len + 1);

	if (!t) {
		free(text);
		return NULL;
	}
	t[len] = '\0';
	return t;
}
