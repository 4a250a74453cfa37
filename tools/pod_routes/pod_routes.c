// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Pod routing: judge, add, check and delete one rail interface's routes,
 * table, rule and sysctls inside a pod's network namespace.  See
 * pod_routes.h for what a rail interface gets and why.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <linux/rtnetlink.h>

#include "tools/pod_routes/pod_routes.h"
#include "tools/pod_routes/pod_view.h"
#include "lib/errbuf.h"
#include "lib/addr.h"
#include "lib/netns.h"

/* How a planned prefix stands in the pod's main table. */
enum plan_state {
	PLAN_ABSENT,                 /* nothing routes it: add it */
	PLAN_PRESENT,                /* routed via the rail's gateway on the interface */
	PLAN_TAKEN,                  /* the prefix itself is routed another way */
};

struct prefix_judgement {
	enum plan_state state;
	bool shadowed;               /* a part of it is routed another way */
	char why[RG_POD_MSG_LEN];    /* for TAKEN or shadowed */
	const struct pod_route *route; /* the route that takes or shadows it */
};

/* What a multi-homed pod needs on each rail interface: replies may arrive
 * on a rail the kernel would not have chosen for the reverse path (loose
 * rp_filter, whatever net.ipv4.conf.all says), and each rail answers ARP
 * only for its own address and announces only its own address. */
static const struct { const char *key; int value; } rail_sysctls[] = {
	{ "rp_filter",    2 },
	{ "arp_ignore",   1 },
	{ "arp_announce", 2 },
};

static int fail(struct rg_pod_report *rep, enum rg_pod_status status, int ret)
{
	if (rep)
		rep->status = status;
	return ret;
}

static bool cidr_equal(struct rg_cidr a, struct rg_cidr b)
{
	return a.addr == b.addr && a.len == b.len;
}

static void report_route(struct rg_pod_report *rep, const struct rg_pod_route *r)
{
	if (rep->n_done < RG_POD_REPORT_MAX)
		rep->done[rep->n_done++] = *r;
}

static void report_warn(struct rg_pod_report *rep, const char *msg)
{
	if (rep->n_warnings < RG_POD_ROUTES_MAX)
		snprintf(rep->warnings[rep->n_warnings++], RG_POD_MSG_LEN, "%s", msg);
}

/* ---- what the plan means, route by route -------------------------------- */

/* Planned prefix i in main, on the interface, with the rail's metric. */
static struct rg_pod_route main_route(const struct rg_pod_plan *plan, size_t i)
{
	return (struct rg_pod_route){ .dst = plan->dsts[i], .gateway = plan->gateway,
				      .table = RT_TABLE_MAIN, .metric = plan->metric };
}

/* Route k of the rail's own table: the planned prefixes, then the
 * connected subnet with src = the rail address (so that a lookup for a
 * peer on the same rail keeps the bound address and stays on-link). */
static size_t n_table_routes(const struct rg_pod_plan *plan)
{
	return plan->n_dsts + 1;
}

static struct rg_pod_route table_route(const struct rg_pod_plan *plan, uint32_t table, size_t k)
{
	if (k == plan->n_dsts)
		return (struct rg_pod_route){ .dst = plan->subnet, .src = plan->addr,
					      .table = table };
	return (struct rg_pod_route){ .dst = plan->dsts[k], .gateway = plan->gateway,
				      .table = table };
}

/* r is exactly the route railgate would add for want on oif. */
static bool route_matches(const struct pod_route *r, const struct rg_pod_route *want, int oif)
{
	return r->type == RTN_UNICAST && !r->multipath && cidr_equal(r->dst, want->dst) &&
	       r->table == want->table && r->oif == oif && r->metric == want->metric &&
	       (want->gateway ? r->has_gw && r->gw == want->gateway : !r->has_gw) &&
	       (!want->src || r->prefsrc == want->src);
}

static bool view_has_route(const struct pod_view *v, const struct rg_pod_route *want, int oif)
{
	for (size_t i = 0; i < v->n_routes; i++)
		if (route_matches(&v->routes[i], want, oif))
			return true;
	return false;
}

/* ---- judging main against a plan ----------------------------------------- */

/* The prefix route the kernel made for an address: a rail's own subnet on
 * its interface, part of the supernet by design. */
static bool route_is_connected(const struct pod_route *r)
{
	return r->type == RTN_UNICAST && r->proto == RTPROT_KERNEL &&
	       r->scope == RT_SCOPE_LINK && !r->has_gw;
}

/* A route of the pod's other rail interfaces: railgate's own, or one via a
 * gateway inside a supernet (a rail gateway, as an IPAM adds it).  Not a
 * conflict: the per-rail tables keep bound sockets on their rail, and the
 * metrics order the rails for unbound ones. */
static bool route_of_other_rail(const struct pod_route *r, const struct rg_pod_plan *plan,
				int oif)
{
	if (r->oif == oif || r->type != RTN_UNICAST || r->multipath)
		return false;
	return r->proto == RG_POD_ROUTE_PROTO ||
	       (r->has_gw && rg_cidr_set_contains(plan->dsts, plan->n_supernets, r->gw));
}

/* Via the rail's gateway on the interface: railgate's route, or the same
 * route an IPAM put there (any metric). */
static bool route_is_rail_way(const struct pod_route *r, struct rg_cidr dst,
			      const struct rg_pod_plan *plan, int oif)
{
	return r->type == RTN_UNICAST && !r->multipath && cidr_equal(r->dst, dst) &&
	       r->has_gw && r->gw == plan->gateway && r->oif == oif;
}

/*
 * State of planned prefix i in main.  A route for the prefix, or for a
 * part of it, that is neither the rail's way, another rail's, nor a
 * connected subnet, steals that traffic from the rail gateway.  Wider
 * routes (a default elsewhere, a /8) lose to ours by prefix length.
 */
static void judge_prefix(struct pod_view *v, const struct rg_pod_plan *plan, size_t i,
			 int oif, struct prefix_judgement *j)
{
	struct rg_cidr dst = plan->dsts[i];
	char way[96], rdst[RG_CIDR_STR_LEN], pdst[RG_CIDR_STR_LEN];

	memset(j, 0, sizeof(*j));
	for (size_t k = 0; k < v->n_routes; k++) {
		const struct pod_route *r = &v->routes[k];
		bool same_dst = cidr_equal(r->dst, dst);

		if (r->table != RT_TABLE_MAIN || !rg_cidr_covers(dst, r->dst))
			continue;
		if (route_is_rail_way(r, dst, plan, oif)) {
			if (j->state == PLAN_ABSENT)
				j->state = PLAN_PRESENT;
			continue;
		}
		if (route_of_other_rail(r, plan, oif) || (route_is_connected(r) && !same_dst))
			continue;
		if (same_dst)
			j->state = PLAN_TAKEN;
		else if (j->shadowed || j->state == PLAN_TAKEN)
			continue;    /* keep the first, most telling message */
		else
			j->shadowed = true;
		j->route = r;
		rg_cidr_str(dst.addr, dst.len, pdst);
		snprintf(j->why, sizeof(j->why), "the pod already routes %s %s%s%s",
			 rg_cidr_str(r->dst.addr, r->dst.len, rdst),
			 pod_view_describe(v, r, way, sizeof(way)),
			 same_dst ? "" : ", a part of ", same_dst ? "" : pdst);
	}
}

/* A default route out of the rail interface sends everything not in the
 * supernets to the rail switch: the loop risk of Scenario 5. */
static const struct pod_route *default_via_rail(struct pod_view *v, int oif, char *why,
						size_t whylen, const char *ifname)
{
	char way[96];

	for (size_t i = 0; i < v->n_routes; i++) {
		const struct pod_route *r = &v->routes[i];

		if (r->table == RT_TABLE_MAIN && r->dst.len == 0 && r->type == RTN_UNICAST &&
		    r->oif == oif) {
			snprintf(why, whylen,
				 "the pod has a default route %s: the rail interface %s would capture traffic meant for other networks (routing loop risk)",
				 pod_view_describe(v, r, way, sizeof(way)), ifname);
			return r;
		}
	}
	return NULL;
}

/* The conflicting route as `ip route del` takes it, for a caller that
 * names the fix (railgate doctor); the first conflict only. */
static void note_conflict(struct pod_view *v, const struct pod_route *r,
			  struct rg_pod_report *rep)
{
	char dst[RG_CIDR_STR_LEN], way[96];

	if (!r || rep->conflict[0] || r->multipath)
		return;
	if (r->dst.len)
		rg_cidr_str(r->dst.addr, r->dst.len, dst);
	else
		snprintf(dst, sizeof(dst), "default");
	if (r->type == RTN_UNICAST)
		snprintf(rep->conflict, sizeof(rep->conflict), "%s %s", dst,
			 pod_view_describe(v, r, way, sizeof(way)));
	else
		snprintf(rep->conflict, sizeof(rep->conflict), "%s %s",
			 pod_view_describe(v, r, way, sizeof(way)), dst);
	rep->conflict_default = r->dst.len == 0;
	rep->conflict_gw = r->has_gw ? r->gw : 0;
}

/*
 * Judge every planned prefix into j[].  With RG_POD_CONFLICT_ERROR the
 * first conflict fails the whole operation; with WARN, conflicts become
 * warnings and taken prefixes are left alone by the caller.
 */
static int judge_plan(struct pod_view *v, const struct rg_pod_plan *plan, int oif,
		      enum rg_pod_conflict_policy policy, struct prefix_judgement *j,
		      struct rg_pod_report *rep, char *err, size_t err_len)
{
	char why[RG_POD_MSG_LEN];
	const struct pod_route *def = default_via_rail(v, oif, why, sizeof(why), plan->ifname);

	if (def) {
		note_conflict(v, def, rep);
		if (policy == RG_POD_CONFLICT_ERROR)
			return fail(rep, RG_POD_ERR_CONFLICT, rg_err(err, err_len, -EEXIST, "%s", why));
		report_warn(rep, why);
	}
	for (size_t i = 0; i < plan->n_dsts; i++) {
		judge_prefix(v, plan, i, oif, &j[i]);
		if (j[i].state != PLAN_TAKEN && !j[i].shadowed)
			continue;
		note_conflict(v, j[i].route, rep);
		if (policy == RG_POD_CONFLICT_ERROR)
			return fail(rep, RG_POD_ERR_CONFLICT, rg_err(err, err_len, -EEXIST, "%s", j[i].why));
		report_warn(rep, j[i].why);
	}
	return 0;
}

/* ---- the rail's table and rule ------------------------------------------- */

/* railgate's rule from addr: "from addr/32 lookup T", protocol 82. */
static const struct pod_rule *find_rule(const struct pod_view *v, uint32_t addr)
{
	for (size_t i = 0; i < v->n_rules; i++) {
		const struct pod_rule *r = &v->rules[i];

		if (r->proto == RG_POD_ROUTE_PROTO && r->plain && r->src.len == 32 &&
		    r->src.addr == addr)
			return r;
	}
	return NULL;
}

/* The first route in table that is not railgate's on oif, or NULL. */
static const struct pod_route *table_foreign_route(const struct pod_view *v, uint32_t table,
						   int oif)
{
	for (size_t i = 0; i < v->n_routes; i++) {
		const struct pod_route *r = &v->routes[i];

		if (r->table == table && (r->proto != RG_POD_ROUTE_PROTO || r->oif != oif))
			return r;
	}
	return NULL;
}

/* No route in it and no rule looking it up. */
static bool table_free(const struct pod_view *v, uint32_t table)
{
	for (size_t i = 0; i < v->n_routes; i++)
		if (v->routes[i].table == table)
			return false;
	for (size_t i = 0; i < v->n_rules; i++)
		if (v->rules[i].table == table)
			return false;
	return table != 0 && (table < 252 || table > 255);
}

/*
 * The table this interface's routes go to: the plan's, or the one
 * railgate's rule from its address already looks up (an earlier ADD that
 * took a free id).  A table holding routes that are not railgate's on this
 * interface is refused, or with WARN the next free id is taken.
 */
static int choose_table(struct pod_view *v, const struct rg_pod_plan *plan, int oif,
			enum rg_pod_conflict_policy policy, uint32_t *table,
			struct rg_pod_report *rep, char *err, size_t err_len)
{
	const struct pod_rule *rule = find_rule(v, plan->addr);
	uint32_t want = rule ? rule->table : plan->table;
	const struct pod_route *foreign = table_foreign_route(v, want, oif);
	char why[RG_POD_MSG_LEN], way[96], d[RG_CIDR_STR_LEN];

	if (!foreign) {
		*table = want;
		return 0;
	}
	snprintf(why, sizeof(why), "routing table %u already holds routes that are not railgate's for %s (%s %s)",
		 want, plan->ifname, rg_cidr_str(foreign->dst.addr, foreign->dst.len, d),
		 pod_view_describe(v, foreign, way, sizeof(way)));
	if (policy == RG_POD_CONFLICT_ERROR)
		return fail(rep, RG_POD_ERR_CONFLICT,
			    rg_err(err, err_len, -EEXIST, "%s: set another tableBase, or onConflict warn to take the next free table",
				   why));
	for (uint32_t t = want + 1; t < want + RG_POD_TABLE_SEARCH; t++) {
		if (!table_free(v, t))
			continue;
		snprintf(why + strlen(why), sizeof(why) - strlen(why), "; using table %u", t);
		report_warn(rep, why);
		*table = t;
		return 0;
	}
	return fail(rep, RG_POD_ERR_CONFLICT,
		    rg_err(err, err_len, -ENOSPC, "%s, and no free table among the next %d ids", why,
			   RG_POD_TABLE_SEARCH));
}

/* ---- operations ---------------------------------------------------------- */

static int resolve_dev(struct pod_view *v, const char *ifname, struct rg_pod_report *rep,
		       char *err, size_t err_len)
{
	int oif = pod_view_ifindex(v, ifname);

	if (oif <= 0)
		return fail(rep, RG_POD_ERR_NO_DEV,
			    rg_err(err, err_len, -ENODEV, "interface %s is not in the pod's network namespace",
				   ifname));
	return oif;
}

static int open_for(int netns_fd, const struct rg_pod_plan *plan, struct pod_view *v,
		    struct rg_pod_report *rep, char *err, size_t err_len)
{
	char ip[RG_IP_STR_LEN];
	int ret, oif;

	ret = pod_view_open(netns_fd, v, err, err_len);
	if (ret)
		return fail(rep, RG_POD_ERR_NETNS, ret);
	oif = resolve_dev(v, plan->ifname, rep, err, err_len);
	if (oif > 0 && !pod_view_has_addr(v, oif, plan->addr))
		oif = fail(rep, RG_POD_ERR_INPUT,
			   rg_err(err, err_len, -EADDRNOTAVAIL, "%s does not hold %s in the pod",
				  plan->ifname, rg_ip_str(plan->addr, ip)));
	if (oif < 0)
		pod_view_close(v);
	return oif;
}

/* A read-only /proc/sys (an init container) is a warning, not a failure:
 * the routes and rule matter most, and the operator can set the sysctls
 * another way; any other error fails the ADD. */
static int set_rail_sysctls(int netns_fd, const char *ifname, struct rg_pod_report *rep,
			    char *err, size_t err_len)
{
	char why[RG_POD_MSG_LEN];

	for (size_t i = 0; i < sizeof(rail_sysctls) / sizeof(rail_sysctls[0]); i++) {
		int ret = pod_sysctl_set(netns_fd, ifname, rail_sysctls[i].key,
					 rail_sysctls[i].value, why, sizeof(why));

		if (ret == -EROFS || ret == -EACCES || ret == -EPERM) {
			snprintf(err, err_len, "%s", why);
			report_warn(rep, why);
			continue;
		}
		if (ret)
			return rg_err(err, err_len, ret, "%s", why);
	}
	return 0;
}

/* Undo what this ADD did (rule first, so no lookup lands in a half-empty
 * table), ignoring errors: the first one is what the caller reports. */
static void rollback(struct pod_view *v, const struct rg_pod_plan *plan, int oif,
		     uint32_t table, struct rg_pod_report *rep)
{
	char ignored[RG_POD_MSG_LEN];

	if (rep->n_rules)
		pod_rule_change(v->sk, false, plan->addr, table, plan->rule_priority,
				ignored, sizeof(ignored));
	for (size_t i = rep->n_done; i-- > 0;)
		pod_route_change(v->sk, false, &rep->done[i], oif, plan->ifname,
				 ignored, sizeof(ignored));
	rep->n_done = 0;
	rep->n_rules = 0;
}

static int add_route(struct pod_view *v, const struct rg_pod_route *r, int oif,
		     const char *ifname, struct rg_pod_report *rep, char *err, size_t err_len)
{
	int ret = pod_route_change(v->sk, true, r, oif, ifname, err, err_len);

	if (!ret)
		report_route(rep, r);
	return ret;
}

static int add_all(int netns_fd, struct pod_view *v, const struct rg_pod_plan *plan, int oif,
		   const struct prefix_judgement *j, uint32_t table,
		   struct rg_pod_report *rep, char *err, size_t err_len)
{
	const struct pod_rule *rule = find_rule(v, plan->addr);
	int ret;

	ret = set_rail_sysctls(netns_fd, plan->ifname, rep, err, err_len);
	for (size_t i = 0; !ret && i < plan->n_dsts; i++) {
		struct rg_pod_route r = main_route(plan, i);

		if (j[i].state == PLAN_ABSENT)
			ret = add_route(v, &r, oif, plan->ifname, rep, err, err_len);
	}
	for (size_t k = 0; !ret && k < n_table_routes(plan); k++) {
		struct rg_pod_route r = table_route(plan, table, k);

		if (!view_has_route(v, &r, oif))
			ret = add_route(v, &r, oif, plan->ifname, rep, err, err_len);
	}
	/* The rule last: traffic is steered into the table once it is whole. */
	if (!ret && (!rule || rule->table != table)) {
		ret = pod_rule_change(v->sk, true, plan->addr, table, plan->rule_priority,
				      err, err_len);
		if (!ret)
			rep->n_rules = 1;
	}
	return ret;
}

int rg_pod_routes_add(int netns_fd, const struct rg_pod_plan *plan,
		      enum rg_pod_conflict_policy policy,
		      struct rg_pod_report *rep, char *err, size_t err_len)
{
	struct prefix_judgement j[RG_POD_ROUTES_MAX];
	struct pod_view v;
	uint32_t table = 0;
	int oif, ret;

	memset(rep, 0, sizeof(*rep));
	oif = open_for(netns_fd, plan, &v, rep, err, err_len);
	if (oif < 0)
		return oif;
	ret = judge_plan(&v, plan, oif, policy, j, rep, err, err_len);
	if (!ret)
		ret = choose_table(&v, plan, oif, policy, &table, rep, err, err_len);
	if (ret)
		goto out;
	rep->table = table;
	ret = add_all(netns_fd, &v, plan, oif, j, table, rep, err, err_len);
	if (ret) {
		rollback(&v, plan, oif, table, rep);
		fail(rep, RG_POD_ERR_NETLINK, ret);
	}
out:
	pod_view_close(&v);
	return ret;
}

static int check_missing(struct rg_pod_report *rep, char *err, size_t err_len,
			 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int check_missing(struct rg_pod_report *rep, char *err, size_t err_len,
			 const char *fmt, ...)
{
	char msg[RG_POD_MSG_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return fail(rep, RG_POD_ERR_MISSING, rg_err(err, err_len, -ENOENT, "%s", msg));
}

/* The rule and its table: found by protocol and address, not by id. */
static int check_table(struct pod_view *v, const struct rg_pod_plan *plan, int oif,
		       struct rg_pod_report *rep, char *err, size_t err_len)
{
	const struct pod_rule *rule = find_rule(v, plan->addr);
	char ip[RG_IP_STR_LEN], d[RG_CIDR_STR_LEN], g[RG_IP_STR_LEN];

	if (!rule)
		return check_missing(rep, err, err_len, "rule from %s/32 (proto %d) is missing",
				     rg_ip_str(plan->addr, ip), RG_POD_ROUTE_PROTO);
	rep->table = rule->table;
	rep->n_rules = 1;
	for (size_t k = 0; k < n_table_routes(plan); k++) {
		struct rg_pod_route r = table_route(plan, rule->table, k);

		if (!view_has_route(v, &r, oif))
			return check_missing(rep, err, err_len, "route %s%s%s dev %s table %u is missing",
					     rg_cidr_str(r.dst.addr, r.dst.len, d),
					     r.gateway ? " via " : "",
					     r.gateway ? rg_ip_str(r.gateway, g) : "",
					     plan->ifname, rule->table);
		report_route(rep, &r);
	}
	return 0;
}

/* Missing or pointing elsewhere in main: that is what CHECK is for. */
static int check_main(struct pod_view *v, const struct rg_pod_plan *plan, int oif,
		      enum rg_pod_conflict_policy policy, struct prefix_judgement *j,
		      struct rg_pod_report *rep, char *err, size_t err_len)
{
	char d[RG_CIDR_STR_LEN], g[RG_IP_STR_LEN];

	for (size_t i = 0; i < plan->n_dsts; i++) {
		struct rg_pod_route r = main_route(plan, i);

		judge_prefix(v, plan, i, oif, &j[i]);
		if (j[i].state == PLAN_PRESENT) {
			report_route(rep, &r);
			continue;
		}
		if (j[i].state == PLAN_TAKEN && policy == RG_POD_CONFLICT_WARN)
			continue;    /* warned about and left alone */
		rg_cidr_str(r.dst.addr, r.dst.len, d);
		rg_ip_str(r.gateway, g);
		if (j[i].state == PLAN_TAKEN)
			note_conflict(v, j[i].route, rep);
		if (j[i].state == PLAN_TAKEN)
			return check_missing(rep, err, err_len,
					     "route %s points elsewhere: %s, railgate expects via %s dev %s",
					     d, j[i].why, g, plan->ifname);
		return check_missing(rep, err, err_len, "route %s via %s dev %s is missing", d, g,
				     plan->ifname);
	}
	return 0;
}

int rg_pod_routes_check(int netns_fd, const struct rg_pod_plan *plan,
			enum rg_pod_conflict_policy policy,
			struct rg_pod_report *rep, char *err, size_t err_len)
{
	struct prefix_judgement j[RG_POD_ROUTES_MAX];
	struct pod_view v;
	int oif, ret, rp = 0;

	memset(rep, 0, sizeof(*rep));
	oif = open_for(netns_fd, plan, &v, rep, err, err_len);
	if (oif < 0)
		return oif;
	ret = check_table(&v, plan, oif, rep, err, err_len);
	if (!ret)
		ret = check_main(&v, plan, oif, policy, j, rep, err, err_len);
	if (!ret)
		ret = judge_plan(&v, plan, oif, policy, j, rep, err, err_len);
	if (!ret) {
		ret = pod_sysctl_get(netns_fd, plan->ifname, "rp_filter", &rp, err, err_len);
		if (ret)
			fail(rep, RG_POD_ERR_NETNS, ret);
		else if (rp != 2)
			ret = check_missing(rep, err, err_len,
					    "rp_filter on %s is %d; railgate sets 2 (loose) on rail interfaces",
					    plan->ifname, rp);
	}
	pod_view_close(&v);
	return ret;
}

static bool in_list(const uint32_t *list, size_t n, uint32_t addr)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == addr)
			return true;
	return false;
}

/* Whether railgate's rule r belongs to the interface being deleted. */
static bool rule_is_for(const struct pod_view *v, const struct pod_rule *r, int oif,
			const uint32_t *addrs, size_t n_addrs)
{
	if (r->proto != RG_POD_ROUTE_PROTO || !r->plain || r->src.len != 32)
		return false;
	if (oif > 0)
		return pod_view_has_addr(v, oif, r->src.addr) || in_list(addrs, n_addrs, r->src.addr);
	/* The interface is gone: only rules whose address nothing holds. */
	return !pod_view_addr_held(v, r->src.addr) &&
	       (!n_addrs || in_list(addrs, n_addrs, r->src.addr));
}

int rg_pod_routes_del(int netns_fd, const char *ifname,
		      const uint32_t *addrs, size_t n_addrs,
		      struct rg_pod_report *rep, char *err, size_t err_len)
{
	struct pod_view v;
	int oif, ret;

	memset(rep, 0, sizeof(*rep));
	ret = pod_view_open(netns_fd, &v, err, err_len);
	if (ret)
		return fail(rep, RG_POD_ERR_NETNS, ret);
	oif = pod_view_ifindex(&v, ifname);
	for (size_t i = 0; i < v.n_rules && !ret; i++) {
		const struct pod_rule *r = &v.rules[i];

		if (!rule_is_for(&v, r, oif, addrs, n_addrs))
			continue;
		ret = pod_rule_change(v.sk, false, r->src.addr, r->table, r->priority, err, err_len);
		if (ret == -ENOENT)
			ret = 0;     /* removed meanwhile: that is what we want */
		else if (!ret)
			rep->n_rules++;
	}
	for (size_t i = 0; i < v.n_routes && !ret && oif > 0; i++) {
		const struct pod_route *r = &v.routes[i];
		struct rg_pod_route gone = { .dst = r->dst, .gateway = r->has_gw ? r->gw : 0,
					     .src = r->prefsrc, .table = r->table,
					     .metric = r->metric };

		if (r->proto != RG_POD_ROUTE_PROTO || r->oif != oif || r->multipath)
			continue;
		ret = pod_route_change(v.sk, false, &gone, oif, ifname, err, err_len);
		if (ret == -ENOENT)
			ret = 0;
		else if (!ret)
			report_route(rep, &gone);
	}
	if (ret)
		fail(rep, RG_POD_ERR_NETLINK, ret);
	pod_view_close(&v);
	return ret;
}

/* ---- addresses ----------------------------------------------------------- */

int rg_pod_list_addrs(int netns_fd, const char *ifname,
		      struct rg_pod_addr *out, size_t max,
		      char *err, size_t err_len)
{
	struct pod_view v;
	size_t n = 0;
	int ret, want = 0;

	ret = pod_view_open(netns_fd, &v, err, err_len);
	if (ret)
		return ret;
	if (ifname && *ifname) {
		want = pod_view_ifindex(&v, ifname);
		if (want <= 0) {
			pod_view_close(&v);
			return rg_err(err, err_len, -ENODEV,
				      "interface %s is not in the pod's network namespace", ifname);
		}
	}
	for (size_t i = 0; i < v.n_addrs && n < max; i++)
		if (!want || v.addrs[i].ifindex == want)
			out[n++] = v.addrs[i];
	pod_view_close(&v);
	return (int)n;
}

uint32_t rg_pod_icmp_source(const struct rg_config *cfg)
{
	struct rg_pod_addr addrs[64];
	uint32_t gw = cfg->computenet.gateway, src = 0;
	char err[128];
	int fd, n;

	if (cfg->computenet.icmp_source)
		return cfg->computenet.icmp_source;
	fd = rg_netns_open_self(NULL, 0);
	if (fd < 0)
		return 0;
	n = rg_pod_list_addrs(fd, NULL, addrs, sizeof(addrs) / sizeof(addrs[0]), err,
			      sizeof(err));
	close(fd);
	for (int i = 0; i < n && !src; i++) {
		struct rg_cidr net = { .addr = addrs[i].addr & rg_prefix_mask(addrs[i].prefix_len),
				       .len = addrs[i].prefix_len };

		if (addrs[i].prefix_len && rg_cidr_contains(net, gw))
			src = addrs[i].addr;
	}
	return src;
}

const char *rg_pod_route_str(const struct rg_pod_route *r, const char *ifname,
			     char *buf, size_t len)
{
	char d[RG_CIDR_STR_LEN], g[RG_IP_STR_LEN], s[RG_IP_STR_LEN], t[16];
	size_t used;

	used = snprintf(buf, len, "%s", rg_cidr_str(r->dst.addr, r->dst.len, d));
	if (r->gateway && used < len)
		used += snprintf(buf + used, len - used, " via %s", rg_ip_str(r->gateway, g));
	if (used < len)
		used += snprintf(buf + used, len - used, " dev %s", ifname);
	if (r->src && used < len)
		used += snprintf(buf + used, len - used, " src %s", rg_ip_str(r->src, s));
	if (r->metric && used < len)
		used += snprintf(buf + used, len - used, " metric %u", r->metric);
	if (used < len)
		snprintf(buf + used, len - used, " table %s", pod_table_name(r->table, t, sizeof(t)));
	return buf;
}
