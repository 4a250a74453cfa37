// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Facts <-> JSON: see facts_json.h and docs/testing.md. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/errbuf.h"
#include "lib/addr.h"
#include "lib/mac.h"
#include "loader/config/config.h"
#include "loader/kernel/facts_json.h"

/* ---- writing ------------------------------------------------------------------- */

static void put(json_object *o, const char *key, json_object *v)
{
	json_object_object_add(o, key, v);
}

static json_object *ip_json(uint32_t ip)
{
	char buf[RG_IP_STR_LEN];

	return json_object_new_string(rg_ip_str(ip, buf));
}

static json_object *mac_json(const uint8_t mac[RG_MAC_LEN])
{
	char buf[RG_MAC_STR_LEN];

	return json_object_new_string(rg_mac_str(mac, buf));
}

static json_object *link_json(const struct rg_link_info *l)
{
	json_object *o = json_object_new_object();

	put(o, "ifindex", json_object_new_int(l->ifindex));
	put(o, "name", json_object_new_string(l->name));
	put(o, "mac", mac_json(l->mac));
	put(o, "mtu", json_object_new_int64(l->mtu));
	put(o, "up", json_object_new_boolean(l->up));
	put(o, "oper_up", json_object_new_boolean(l->oper_up));
	put(o, "kind", json_object_new_string(l->kind));
	put(o, "xdp_features", l->xdp_features_known ?
	    json_object_new_int64((int64_t)l->xdp_features) : NULL);
	return o;
}

static json_object *links_json(const struct rg_node_facts *f)
{
	json_object *o = json_object_new_object(), *list = json_object_new_array();

	for (size_t i = 0; i < f->links.n; i++)
		json_object_array_add(list, link_json(&f->links.links[i]));
	put(o, "ret", json_object_new_int(f->links_ret));
	put(o, "list", list);
	return o;
}

static json_object *route_oif_json(const struct rg_route_oif_fact *a)
{
	json_object *o;

	if (!a->asked)
		return NULL;
	o = json_object_new_object();
	put(o, "dst", ip_json(a->dst));
	put(o, "ret", json_object_new_int(a->ret));
	put(o, "ifindex", json_object_new_int(a->ifindex));
	return o;
}

static json_object *route_src_json(const struct rg_route_src_fact *a)
{
	json_object *o;

	if (!a->asked)
		return NULL;
	o = json_object_new_object();
	put(o, "dst", ip_json(a->dst));
	put(o, "ret", json_object_new_int(a->ret));
	put(o, "src", ip_json(a->src));
	return o;
}

static json_object *neigh_json(const struct rg_neigh_fact *a)
{
	json_object *o;

	if (!a->asked)
		return NULL;
	o = json_object_new_object();
	put(o, "ifindex", json_object_new_int(a->ifindex));
	put(o, "ip", ip_json(a->ip));
	put(o, "ret", json_object_new_int(a->ret));
	put(o, "mac", mac_json(a->mac));
	put(o, "why", json_object_new_string(a->why));
	return o;
}

static json_object *netdev_json(const struct rg_netdev *d)
{
	json_object *o = json_object_new_object();

	put(o, "name", json_object_new_string(d->name));
	put(o, "switch_id", json_object_new_string(d->switch_id));
	put(o, "port_name", json_object_new_string(d->port_name));
	put(o, "pci", json_object_new_string(d->pci));
	put(o, "numvfs", d->has_numvfs ? json_object_new_int(d->numvfs) : NULL);
	return o;
}

static json_object *sysfs_json(const struct rg_sysfs_fact *a)
{
	json_object *o, *list;

	if (!a->asked)
		return NULL;
	o = json_object_new_object();
	list = json_object_new_array();
	for (size_t i = 0; i < a->netdevs.n; i++)
		json_object_array_add(list, netdev_json(&a->netdevs.all[i]));
	put(o, "root", json_object_new_string(a->root));
	put(o, "ret", json_object_new_int(a->ret));
	put(o, "why", json_object_new_string(a->why));
	put(o, "netdevs", list);
	return o;
}

int rg_facts_to_json(const struct rg_node_facts *f, char **text)
{
	json_object *o = json_object_new_object();
	const char *s;

	put(o, "format", json_object_new_string(RG_FACTS_FORMAT));
	put(o, "links", links_json(f));
	put(o, "route_oif", route_oif_json(&f->route_oif));
	put(o, "route_src", route_src_json(&f->route_src));
	put(o, "gateway", neigh_json(&f->gateway));
	put(o, "sysfs", sysfs_json(&f->sysfs));
	put(o, "kernel_has_tcx", json_object_new_boolean(f->kernel_has_tcx));
	put(o, "ncpus", json_object_new_int(f->ncpus));
	put(o, "tc_attach_env", json_object_new_string(f->tc_attach_env));
	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
					   JSON_C_TO_STRING_NOSLASHESCAPE);
	*text = s ? malloc(strlen(s) + 2) : NULL;
	if (*text)
		sprintf(*text, "%s\n", s);
	json_object_put(o);
	return *text ? 0 : -ENOMEM;
}

/* ---- reading ------------------------------------------------------------------- */

/* Where the reader is, for its messages: "gateway.mac". */
struct reader {
	char *err;
	size_t n;
	int ret;
};

static bool bad(struct reader *r, const char *where, const char *key, const char *what)
{
	if (!r->ret)
		rg_set_err(r->err, r->n, "facts: %s%s%s: %s", where, *where ? "." : "", key, what);
	r->ret = -EINVAL;
	return false;
}

/* Member key of o, of type t; null is NULL (allowed only where nullable). */
static json_object *member(struct reader *r, json_object *o, const char *where, const char *key,
			   json_type t, bool nullable)
{
	json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v)) {
		bad(r, where, key, "missing");
		return NULL;
	}
	if (!v && nullable)
		return NULL;
	if (!v || !json_object_is_type(v, t)) {
		bad(r, where, key, t == json_type_string ? "not a string" :
		    t == json_type_int ? "not an integer" : t == json_type_boolean ?
		    "not true or false" : t == json_type_array ? "not a list" : "not an object");
		return NULL;
	}
	return v;
}

static int64_t get_int(struct reader *r, json_object *o, const char *where, const char *key)
{
	json_object *v = member(r, o, where, key, json_type_int, false);

	return v ? json_object_get_int64(v) : 0;
}

static bool get_bool(struct reader *r, json_object *o, const char *where, const char *key)
{
	json_object *v = member(r, o, where, key, json_type_boolean, false);

	return v && json_object_get_boolean(v);
}

static void get_str(struct reader *r, json_object *o, const char *where, const char *key,
		    char *out, size_t len)
{
	json_object *v = member(r, o, where, key, json_type_string, false);

	out[0] = '\0';
	if (!v)
		return;
	if ((size_t)json_object_get_string_len(v) >= len) {
		bad(r, where, key, "too long");
		return;
	}
	snprintf(out, len, "%s", json_object_get_string(v));
}

static uint32_t get_ip(struct reader *r, json_object *o, const char *where, const char *key)
{
	char s[RG_IP_STR_LEN + 1];
	uint32_t ip = 0;

	get_str(r, o, where, key, s, sizeof(s));
	if (!r->ret && rg_ipv4_parse(s, &ip))
		bad(r, where, key, "not an IPv4 address");
	return ip;
}

static void get_mac(struct reader *r, json_object *o, const char *where, const char *key,
		    uint8_t mac[RG_MAC_LEN])
{
	char s[RG_MAC_STR_LEN + 1];

	get_str(r, o, where, key, s, sizeof(s));
	if (!r->ret && rg_mac_parse(s, mac))
		bad(r, where, key, "not a MAC address");
}

static void read_link(struct reader *r, json_object *o, struct rg_link_info *l)
{
	const char *w = "links.list[]";
	json_object *xdp;

	l->ifindex = (int)get_int(r, o, w, "ifindex");
	get_str(r, o, w, "name", l->name, sizeof(l->name));
	get_mac(r, o, w, "mac", l->mac);
	l->mtu = (unsigned)get_int(r, o, w, "mtu");
	l->up = get_bool(r, o, w, "up");
	l->oper_up = get_bool(r, o, w, "oper_up");
	get_str(r, o, w, "kind", l->kind, sizeof(l->kind));
	xdp = member(r, o, w, "xdp_features", json_type_int, true);
	l->xdp_features_known = xdp != NULL;
	l->xdp_features = xdp ? (uint64_t)json_object_get_int64(xdp) : 0;
}

static void read_links(struct reader *r, json_object *top, struct rg_node_facts *f)
{
	json_object *o = member(r, top, "", "links", json_type_object, false);
	json_object *list = o ? member(r, o, "links", "list", json_type_array, false) : NULL;
	size_t n = list ? json_object_array_length(list) : 0;

	if (!o)
		return;
	f->links_ret = (int)get_int(r, o, "links", "ret");
	f->links.links = calloc(n + 1, sizeof(*f->links.links));
	if (!f->links.links) {
		r->ret = rg_err(r->err, r->n, -ENOMEM, "out of memory");
		return;
	}
	for (size_t i = 0; i < n && !r->ret; i++) {
		json_object *l = json_object_array_get_idx(list, i);

		if (!json_object_is_type(l, json_type_object))
			bad(r, "links", "list[]", "not an object");
		else
			read_link(r, l, &f->links.links[f->links.n++]);
	}
	rg_link_table_sort(&f->links);
}

static void read_route_oif(struct reader *r, json_object *top, struct rg_route_oif_fact *a)
{
	json_object *o = member(r, top, "", "route_oif", json_type_object, true);

	if (!o)
		return;
	a->asked = true;
	a->dst = get_ip(r, o, "route_oif", "dst");
	a->ret = (int)get_int(r, o, "route_oif", "ret");
	a->ifindex = (int)get_int(r, o, "route_oif", "ifindex");
}

static void read_route_src(struct reader *r, json_object *top, struct rg_route_src_fact *a)
{
	json_object *o = member(r, top, "", "route_src", json_type_object, true);

	if (!o)
		return;
	a->asked = true;
	a->dst = get_ip(r, o, "route_src", "dst");
	a->ret = (int)get_int(r, o, "route_src", "ret");
	a->src = get_ip(r, o, "route_src", "src");
}

static void read_neigh(struct reader *r, json_object *top, struct rg_neigh_fact *a)
{
	json_object *o = member(r, top, "", "gateway", json_type_object, true);

	if (!o)
		return;
	a->asked = true;
	a->ifindex = (int)get_int(r, o, "gateway", "ifindex");
	a->ip = get_ip(r, o, "gateway", "ip");
	a->ret = (int)get_int(r, o, "gateway", "ret");
	get_mac(r, o, "gateway", "mac", a->mac);
	get_str(r, o, "gateway", "why", a->why, sizeof(a->why));
}

static void read_netdev(struct reader *r, json_object *o, struct rg_netdev *d)
{
	const char *w = "sysfs.netdevs[]";
	json_object *vfs;

	get_str(r, o, w, "name", d->name, sizeof(d->name));
	get_str(r, o, w, "switch_id", d->switch_id, sizeof(d->switch_id));
	get_str(r, o, w, "port_name", d->port_name, sizeof(d->port_name));
	get_str(r, o, w, "pci", d->pci, sizeof(d->pci));
	vfs = member(r, o, w, "numvfs", json_type_int, true);
	d->has_numvfs = vfs != NULL;
	d->numvfs = vfs ? json_object_get_int(vfs) : -1;
}

static void read_sysfs(struct reader *r, json_object *top, struct rg_sysfs_fact *a)
{
	json_object *o = member(r, top, "", "sysfs", json_type_object, true);
	json_object *list = o ? member(r, o, "sysfs", "netdevs", json_type_array, false) : NULL;
	size_t n = list ? json_object_array_length(list) : 0;

	if (!o)
		return;
	a->asked = true;
	get_str(r, o, "sysfs", "root", a->root, sizeof(a->root));
	a->ret = (int)get_int(r, o, "sysfs", "ret");
	get_str(r, o, "sysfs", "why", a->why, sizeof(a->why));
	a->netdevs.all = calloc(n + 1, sizeof(*a->netdevs.all));
	if (!a->netdevs.all) {
		r->ret = rg_err(r->err, r->n, -ENOMEM, "out of memory");
		return;
	}
	for (size_t i = 0; i < n && !r->ret; i++) {
		json_object *d = json_object_array_get_idx(list, i);

		if (!json_object_is_type(d, json_type_object))
			bad(r, "sysfs", "netdevs[]", "not an object");
		else
			read_netdev(r, d, &a->netdevs.all[a->netdevs.n++]);
	}
}

static void read_facts(struct reader *r, json_object *top, struct rg_node_facts *f)
{
	char format[64];

	get_str(r, top, "", "format", format, sizeof(format));
	if (!r->ret && strcmp(format, RG_FACTS_FORMAT))
		bad(r, "", "format", "not " RG_FACTS_FORMAT);
	if (r->ret)
		return;
	read_links(r, top, f);
	read_route_oif(r, top, &f->route_oif);
	read_route_src(r, top, &f->route_src);
	read_neigh(r, top, &f->gateway);
	read_sysfs(r, top, &f->sysfs);
	f->kernel_has_tcx = get_bool(r, top, "", "kernel_has_tcx");
	f->ncpus = (int)get_int(r, top, "", "ncpus");
	get_str(r, top, "", "tc_attach_env", f->tc_attach_env, sizeof(f->tc_attach_env));
}

int rg_facts_from_json(const char *text, struct rg_node_facts *f, char *err, size_t err_len)
{
	struct reader r = { .err = err, .n = err_len };
	enum json_tokener_error jerr;
	json_object *top = json_tokener_parse_verbose(text, &jerr);

	memset(f, 0, sizeof(*f));
	if (!top || !json_object_is_type(top, json_type_object)) {
		json_object_put(top);
		return rg_err(err, err_len, -EINVAL, "facts: not a JSON object%s%s",
			      top ? "" : ": ", top ? "" : json_tokener_error_desc(jerr));
	}
	read_facts(&r, top, f);
	json_object_put(top);
	if (r.ret)
		rg_facts_free(f);
	return r.ret;
}
