// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * ADD, CHECK, DEL, STATUS and GC.  ADD and CHECK find the pod's rail
 * address in prevResult (CNI_IFNAME, cross-checked against prevResult's
 * interfaces and IPs), plan the interface's table, rule and routes from the
 * rail config or the inline options, and hand the plan to tools/pod_routes.
 * Each call handles CNI_IFNAME alone: Multus runs one chain per rail
 * attachment, in any order.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <linux/rtnetlink.h>

#include "tools/cni/cni.h"
#include "lib/addr.h"
#include "lib/netns.h"

#define MAX_POD_IPS 16

/* An IPv4 address prevResult gives CNI_IFNAME. */
struct pod_ip {
	uint32_t addr;
	uint8_t  prefix_len;
	bool     has_gateway;
	uint32_t gateway;
	const char *text;            /* "10.0.0.5/24", for messages */
};

/* Where the routes come from: a loaded rail config, or the inline keys. */
struct route_source {
	bool have_cfg;
	struct rg_config cfg;
};

static struct json_object *get_array(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_array))
		return NULL;
	return v;
}

static const char *get_str(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* The index of CNI_IFNAME in prevResult.interfaces (one inside a sandbox
 * preferred: the host side of a veth may share the name), or -1. */
static int find_interface(struct json_object *ifaces, const char *ifname)
{
	int found = -1;

	for (size_t i = 0; ifaces && i < json_object_array_length(ifaces); i++) {
		struct json_object *it = json_object_array_get_idx(ifaces, i);
		const char *name = get_str(it, "name"), *sandbox = get_str(it, "sandbox");

		if (!name || strcmp(name, ifname))
			continue;
		if (sandbox && *sandbox)
			return (int)i;
		if (found < 0)
			found = (int)i;
	}
	return found;
}

static void list_interfaces(struct json_object *ifaces, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; ifaces && i < json_object_array_length(ifaces) && used < len; i++) {
		const char *name = get_str(json_object_array_get_idx(ifaces, i), "name");

		used += snprintf(buf + used, len - used, "%s%s", i ? ", " : "", name ? name : "?");
	}
	if (!buf[0])
		snprintf(buf, len, "none");
}

/* "10.0.0.5/24" -> 10.0.0.5 and 24; false for IPv6 or garbage. */
static bool parse_if_addr(const char *s, uint32_t *addr, uint8_t *prefix_len)
{
	const char *slash = s ? strchr(s, '/') : NULL;
	char ip[RG_IP_STR_LEN];
	struct rg_cidr subnet;

	/* the subnet parse checks the length; the address keeps its host bits */
	if (!slash || (size_t)(slash - s) >= sizeof(ip) || rg_cidr_parse(s, &subnet, true))
		return false;
	memcpy(ip, s, slash - s);
	ip[slash - s] = '\0';
	*prefix_len = subnet.len;
	return rg_ipv4_parse(ip, addr) == 0;
}

/* The IPv4 addresses prevResult gives CNI_IFNAME; error 7 when there are none. */
static int find_pod_ips(const struct cni_env *env, struct json_object *prev,
			struct pod_ip *ips, size_t *n, struct cni_error *e)
{
	struct json_object *ifaces = get_array(prev, "interfaces");
	struct json_object *jips = get_array(prev, "ips");
	char names[256];
	int idx = find_interface(ifaces, env->ifname);

	*n = 0;
	if (idx < 0) {
		list_interfaces(ifaces, names, sizeof(names));
		return cni_error_set(e, CNI_ERR_CONFIG, "interface not in prevResult",
				     "CNI_IFNAME is %s but prevResult's interfaces are: %s; railgate routes only the interface the chain created",
				     env->ifname, names);
	}
	for (size_t i = 0; jips && i < json_object_array_length(jips) && *n < MAX_POD_IPS; i++) {
		struct json_object *it = json_object_array_get_idx(jips, i), *iface;
		const char *gw = get_str(it, "gateway");
		struct pod_ip *p = &ips[*n];

		if (!json_object_object_get_ex(it, "interface", &iface) ||
		    json_object_get_int(iface) != idx)
			continue;
		p->text = get_str(it, "address");
		if (!parse_if_addr(p->text, &p->addr, &p->prefix_len))
			continue;    /* IPv6: not a rail address */
		p->has_gateway = gw && rg_ipv4_parse(gw, &p->gateway) == 0;
		(*n)++;
	}
	if (!*n)
		return cni_error_set(e, CNI_ERR_CONFIG, "no IPv4 address on the rail interface",
				     "prevResult gives %s no IPv4 address: is an IPAM configured in the chain before railgate?",
				     env->ifname);
	return 0;
}

static void diags_join(const struct rg_diags *d, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < d->count && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s", i ? "; " : "", d->msgs[i]);
}

static int source_load(const struct cni_netconf *nc, struct route_source *src,
		       int code, struct cni_error *e)
{
	struct rg_diags diags = { 0 };
	char details[CNI_MSG_LEN];
	struct stat st;
	int ret;

	memset(src, 0, sizeof(*src));
	if (!nc->rail_config)
		return 0;
	/* The railgate DaemonSet writes the file (railgate run --host-config):
	 * a node that booted before it started has none yet.  ADD asks the
	 * runtime to retry (11) rather than call the network config invalid. */
	if (stat(nc->rail_config, &st) && errno == ENOENT)
		return cni_error_set(e, code == CNI_ERR_CONFIG ? CNI_ERR_TRY_AGAIN : code,
				     "rail config not written yet",
				     "%s does not exist: the railgate DaemonSet writes it once railgate run "
				     "applies a config on this node (--host-config); retry when it runs",
				     nc->rail_config);
	/* a FIFO or a device would block the read: the runtime waits forever */
	if (stat(nc->rail_config, &st) == 0 && !S_ISREG(st.st_mode))
		return cni_error_set(e, code, "invalid rail config", "%s is not a regular file",
				     nc->rail_config);
	ret = rg_config_load(nc->rail_config, &src->cfg, &diags);
	if (ret) {
		diags_join(&diags, details, sizeof(details));
		rg_diags_free(&diags);
		/* the config loader's messages already name the file */
		if (details[0])
			return cni_error_set(e, code, "invalid rail config", "%s", details);
		return cni_error_set(e, code, "invalid rail config", "%s: %s", nc->rail_config,
				     strerror(-ret));
	}
	rg_diags_free(&diags);
	src->have_cfg = true;
	return 0;
}

static void source_free(struct route_source *src)
{
	if (src->have_cfg)
		rg_config_free(&src->cfg);
}

/* Plan for one address; the inline gateway wins over the IPAM's. */
static int plan_one(const struct cni_env *env, const struct cni_netconf *nc,
		    const struct route_source *src, const struct pod_ip *ip,
		    struct rg_pod_plan *plan, char *err, size_t err_len)
{
	int ret;

	if (src->have_cfg) {
		ret = rg_pod_plan_from_config(&src->cfg, &nc->numbering, env->ifname, ip->addr,
					      plan, err, err_len);
		/* the way back for railgate's ICMP errors (this runs in the node) */
		if (!ret)
			ret = rg_pod_plan_add_icmp_source(plan, rg_pod_icmp_source(&src->cfg),
							  err, err_len);
		return ret;
	}
	if (!nc->inline_routes.has_gateway && !ip->has_gateway) {
		snprintf(err, err_len,
			 "no gateway for %s: set \"gateway\" in the railgate config or give the IPAM pool a gateway",
			 ip->text);
		return -EINVAL;
	}
	return rg_pod_plan_inline(&nc->inline_routes,
				  nc->inline_routes.has_gateway ? nc->inline_routes.gateway : ip->gateway,
				  &nc->numbering,
				  env->ifname, ip->addr, ip->prefix_len, plan, err, err_len);
}

/* The plan for the first of CNI_IFNAME's addresses that is a rail address. */
static int make_plan(const struct cni_env *env, const struct cni_netconf *nc,
		     struct rg_pod_plan *plan, struct cni_error *e)
{
	struct pod_ip ips[MAX_POD_IPS];
	struct route_source src;
	char first_err[CNI_MSG_LEN] = "", err[CNI_MSG_LEN];
	size_t n;
	int ret;

	ret = find_pod_ips(env, nc->prev_result, ips, &n, e);
	if (!ret)
		ret = source_load(nc, &src, CNI_ERR_CONFIG, e);
	if (ret)
		return ret;
	ret = -EINVAL;
	for (size_t i = 0; i < n && ret; i++) {
		ret = plan_one(env, nc, &src, &ips[i], plan, err, sizeof(err));
		if (ret && !first_err[0])
			snprintf(first_err, sizeof(first_err), "%s", err);
	}
	source_free(&src);
	if (ret)
		return cni_error_set(e, CNI_ERR_CONFIG, "cannot plan the rail interface's routing",
				     "%s", first_err);
	return 0;
}

/*
 * The pod's namespace, never the plugin's own: a runtime that passes its
 * own namespace (CNI_NETNS=/proc/self/ns/net) would otherwise get rail
 * routes in the node.  -1 with e set (code 3 when it cannot be opened, 4
 * when it is not a pod's namespace).
 */
static int open_netns(const struct cni_env *env, struct cni_error *e)
{
	char err[CNI_MSG_LEN];
	int fd = rg_pod_netns_open(env->netns, err, sizeof(err));

	if (fd == -EINVAL) {
		cni_error_set(e, CNI_ERR_ENV, "CNI_NETNS is not a network namespace", "%s", err);
		return -1;
	}
	if (fd < 0) {
		cni_error_set(e, CNI_ERR_NO_CONTAINER, "the pod's network namespace is gone", "%s", err);
		return -1;
	}
	if (rg_netns_is_self(fd) != 0) {
		close(fd);
		cni_error_set(e, CNI_ERR_ENV, "CNI_NETNS is the plugin's own network namespace",
			      "%s is the namespace railgate-cni runs in, not a pod's: railgate never routes its caller's namespace",
			      env->netns);
		return -1;
	}
	return fd;
}

static int route_error(const struct rg_pod_report *rep, const char *err, struct cni_error *e)
{
	switch (rep->status) {
	case RG_POD_ERR_CONFLICT:
		return cni_error_set(e, CNI_ERR_ROUTE_CONFLICT,
				     "railgate's routing conflicts with the pod's", "%s", err);
	case RG_POD_ERR_MISSING:
		return cni_error_set(e, CNI_ERR_ROUTE_MISSING, "a railgate route is missing or points elsewhere",
				     "%s", err);
	case RG_POD_ERR_NETNS:
		return cni_error_set(e, CNI_ERR_NO_CONTAINER, "cannot enter the pod's network namespace",
				     "%s", err);
	default:
		return cni_error_set(e, CNI_ERR_ROUTE_FAILED, "cannot change the pod's routes",
				     "%s", err);
	}
}

static void log_report(const struct cni_env *env, const char *verb,
		       const struct rg_pod_report *rep)
{
	char route[128];

	for (size_t i = 0; i < rep->n_warnings; i++)
		cni_log("%s %s %s: warning: %s", env->command_name, env->container_id,
			env->ifname, rep->warnings[i]);
	for (size_t i = 0; i < rep->n_done; i++)
		cni_log("%s %s %s: %s route %s", env->command_name, env->container_id,
			env->ifname, verb, rg_pod_route_str(&rep->done[i], env->ifname, route,
							    sizeof(route)));
	if (rep->n_rules)
		cni_log("%s %s %s: %s %zu rule(s)%s%u", env->command_name, env->container_id,
			env->ifname, verb, rep->n_rules, rep->table ? " to table " : "",
			rep->table);
}

/*
 * One route of the result.  The spec's route has dst and gw; 1.1.0 adds
 * priority (the metric), table and scope, so only 1.1.0 results list the
 * rail table's routes (a 1.0.0 reader would take them for main's).
 */
static struct json_object *result_route(const struct rg_pod_route *r, bool v110)
{
	struct json_object *o = json_object_new_object();
	char d[RG_CIDR_STR_LEN], g[RG_IP_STR_LEN];

	json_object_object_add(o, "dst", json_object_new_string(
		rg_cidr_str(r->dst.addr, r->dst.len, d)));
	if (r->gateway)
		json_object_object_add(o, "gw", json_object_new_string(rg_ip_str(r->gateway, g)));
	if (v110 && r->metric)
		json_object_object_add(o, "priority", json_object_new_int64(r->metric));
	if (v110 && r->table != RT_TABLE_MAIN)
		json_object_object_add(o, "table", json_object_new_int64(r->table));
	if (v110 && !r->gateway)
		json_object_object_add(o, "scope", json_object_new_int(RT_SCOPE_LINK));
	return o;
}

/* prevResult, in the config's version, with the added routes appended. */
static int print_result(struct cni_netconf *nc, const struct rg_pod_report *rep,
			struct cni_error *e)
{
	struct json_object *res = nc->prev_result, *routes;
	bool v110 = cni_version_cmp(nc->cni_version, "1.1.0") >= 0;

	json_object_object_add(res, "cniVersion", json_object_new_string(nc->cni_version));
	routes = get_array(res, "routes");
	if (!routes) {
		routes = json_object_new_array();
		json_object_object_add(res, "routes", routes);
	}
	for (size_t i = 0; i < rep->n_done; i++)
		if (v110 || rep->done[i].table == RT_TABLE_MAIN)
			json_object_array_add(routes, result_route(&rep->done[i], v110));
	if (printf("%s\n", json_object_to_json_string_ext(res, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)) < 0 ||
	    fflush(stdout))
		return cni_error_set(e, CNI_ERR_IO, "cannot write the result", "stdout: %s",
				     strerror(errno));
	return 0;
}

/* ADD and CHECK: plan CNI_IFNAME from prevResult, then run op on the pod. */
typedef int (*pod_op)(int netns_fd, const struct rg_pod_plan *plan,
		      enum rg_pod_conflict_policy policy, struct rg_pod_report *rep,
		      char *err, size_t err_len);

static int run_on_pod(const struct cni_env *env, struct cni_netconf *nc, pod_op op,
		      struct rg_pod_report *rep, struct cni_error *e)
{
	struct rg_pod_plan plan;
	char err[CNI_MSG_LEN];
	int fd, ret;

	ret = make_plan(env, nc, &plan, e);
	if (ret)
		return ret;
	fd = open_netns(env, e);
	if (fd < 0)
		return e->code;
	ret = op(fd, &plan, nc->on_conflict, rep, err, sizeof(err));
	close(fd);
	return ret ? route_error(rep, err, e) : 0;
}

int cni_cmd_add(const struct cni_env *env, struct cni_netconf *nc, struct cni_error *e)
{
	struct rg_pod_report rep;
	int ret = run_on_pod(env, nc, rg_pod_routes_add, &rep, e);

	if (ret)
		return ret;
	log_report(env, "added", &rep);
	return print_result(nc, &rep, e);
}

int cni_cmd_check(const struct cni_env *env, struct cni_netconf *nc, struct cni_error *e)
{
	struct rg_pod_report rep;
	int ret;

	if (cni_version_cmp(nc->cni_version, "0.4.0") < 0)
		return cni_error_set(e, CNI_ERR_VERSION, "incompatible CNI version",
				     "CHECK needs cniVersion 0.4.0 or later, the config has %s",
				     nc->cni_version);
	ret = run_on_pod(env, nc, rg_pod_routes_check, &rep, e);
	if (ret)
		return ret;
	log_report(env, "verified", &rep);
	return 0;
}

/* DEL: the addresses prevResult (libcni's cached result) gives CNI_IFNAME,
 * so that its rules go even when the interface has gone first. */
static size_t prev_addrs(const struct cni_env *env, struct json_object *prev,
			 uint32_t addrs[MAX_POD_IPS])
{
	struct pod_ip ips[MAX_POD_IPS];
	struct cni_error ignored;
	size_t n = 0;

	if (!prev || find_pod_ips(env, prev, ips, &n, &ignored))
		return 0;
	for (size_t i = 0; i < n; i++)
		addrs[i] = ips[i].addr;
	return n;
}

int cni_cmd_del(const struct cni_env *env, struct cni_netconf *nc, struct cni_error *e)
{
	uint32_t addrs[MAX_POD_IPS];
	size_t n_addrs;
	struct rg_pod_report rep;
	char err[CNI_MSG_LEN];
	int fd, ret;

	/* The namespace may be gone already, and its routes with it. */
	if (!env->netns) {
		cni_log("DEL %s %s: no CNI_NETNS, nothing to remove", env->container_id, env->ifname);
		return 0;
	}
	fd = rg_pod_netns_open(env->netns, err, sizeof(err));
	if (fd < 0) {
		cni_log("DEL %s %s: %s: nothing to remove", env->container_id, env->ifname, err);
		return 0;
	}
	if (rg_netns_is_self(fd) != 0) {
		close(fd);
		return cni_error_set(e, CNI_ERR_ENV, "CNI_NETNS is the plugin's own network namespace",
				     "%s is the namespace railgate-cni runs in, not a pod's: railgate never routes its caller's namespace",
				     env->netns);
	}
	n_addrs = prev_addrs(env, nc->prev_result, addrs);
	ret = rg_pod_routes_del(fd, env->ifname, addrs, n_addrs, &rep, err, sizeof(err));
	close(fd);
	if (ret && rep.status == RG_POD_ERR_NETNS) {
		cni_log("DEL %s %s: %s: nothing to remove", env->container_id, env->ifname, err);
		return 0;
	}
	if (ret)
		return route_error(&rep, err, e);
	log_report(env, "removed", &rep);
	return 0;
}

static int need_status_version(const struct cni_netconf *nc, const char *cmd,
			       struct cni_error *e)
{
	if (cni_version_cmp(nc->cni_version, "1.1.0") < 0)
		return cni_error_set(e, CNI_ERR_VERSION, "incompatible CNI version",
				     "%s needs cniVersion 1.1.0, the config has %s", cmd,
				     nc->cni_version);
	return 0;
}

int cni_cmd_status(struct cni_netconf *nc, struct cni_error *e)
{
	struct route_source src;
	int ret = need_status_version(nc, "STATUS", e);

	/* Ready when the rail config (if any) loads: that is all ADD needs. */
	if (!ret)
		ret = source_load(nc, &src, CNI_ERR_NOT_AVAILABLE, e);
	if (!ret)
		source_free(&src);
	return ret;
}

int cni_cmd_gc(struct cni_netconf *nc, struct cni_error *e)
{
	/* railgate keeps no state outside the pods' namespaces: the routes
	 * go with the namespace, so there is never anything to collect. */
	return need_status_version(nc, "GC", e);
}
