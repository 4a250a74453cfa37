// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Pod routes: plan, add, check and delete the supernet routes inside a
 * pod's network namespace with libnl-3.  See pod_routes.h.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <linux/rtnetlink.h>
#include <netlink/netlink.h>
#include <netlink/route/addr.h>
#include <netlink/route/link.h>
#include <netlink/route/route.h>

#include "pod_routes.h"
#include "maps/errbuf.h"
#include "maps/ipfmt.h"

#define SELF_NETNS "/proc/self/ns/net"

/* One route of the pod's main table, reduced to what the checks compare. */
struct pod_route {
	struct rg_cidr dst;
	bool     has_gw;
	uint32_t gw;
	int      oif;                /* 0 when none or multipath */
	bool     multipath;
	uint8_t  proto;
	uint8_t  scope;
	uint8_t  type;               /* RTN_UNICAST, RTN_BLACKHOLE, ... */
};

/* The pod as seen through one netlink socket. */
struct pod_view {
	struct nl_sock  *sk;
	struct nl_cache *links;
	struct pod_route *routes;
	size_t n_routes;
};

/* How a planned prefix stands in the pod. */
enum plan_state {
	PLAN_ABSENT,                 /* nothing routes it: add it */
	PLAN_PRESENT,                /* routed exactly as planned */
	PLAN_TAKEN,                  /* the prefix itself is routed another way */
};

struct prefix_judgement {
	enum plan_state state;
	bool shadowed;               /* a part of it is routed another way */
	char why[RG_POD_MSG_LEN];    /* for TAKEN or shadowed */
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

static void report_done(struct rg_pod_report *rep, struct rg_cidr c)
{
	if (rep && rep->n_done < RG_POD_ROUTES_MAX)
		rep->done[rep->n_done++] = c;
}

static void report_warn(struct rg_pod_report *rep, const char *msg)
{
	if (rep && rep->n_warnings < RG_POD_ROUTES_MAX)
		snprintf(rep->warnings[rep->n_warnings++], RG_POD_MSG_LEN, "%s", msg);
}

/* ---- planning ---------------------------------------------------------- */

static int plan_init(struct rg_pod_plan *plan, const char *ifname, uint32_t addr,
		     char *err, size_t errlen)
{
	memset(plan, 0, sizeof(*plan));
	if (!ifname || !*ifname || strlen(ifname) >= IF_NAMESIZE) {
		rg_set_err(err, errlen, "invalid interface name \"%s\"", ifname ? ifname : "");
		return -EINVAL;
	}
	strcpy(plan->ifname, ifname);
	plan->addr = addr;
	return 0;
}

/* Append prefixes; a default route is never ours to add (it would be a
 * second default route, or one via the rail capturing everything). */
static int plan_append(struct rg_pod_plan *plan, const struct rg_cidr *c, size_t n,
		       const char *what, char *err, size_t errlen)
{
	char buf[32];

	for (size_t i = 0; i < n; i++) {
		if (c[i].len == 0) {
			rg_set_err(err, errlen, "%s %s: railgate never adds a default route",
				what, rg_cidr_str(c[i].addr, c[i].len, buf));
			return -EINVAL;
		}
		if (plan->n_dsts >= RG_POD_ROUTES_MAX) {
			rg_set_err(err, errlen, "more than %d supernets and front-end prefixes",
				RG_POD_ROUTES_MAX);
			return -E2BIG;
		}
		plan->dsts[plan->n_dsts++] = c[i];
	}
	return 0;
}

int rg_pod_plan_from_config(const struct rg_config *cfg, const char *ifname,
			    uint32_t addr, struct rg_pod_plan *plan,
			    char *err, size_t errlen)
{
	const struct rg_config_rail *rail = NULL;
	char ip[INET_ADDRSTRLEN];
	int ret;

	ret = plan_init(plan, ifname, addr, err, errlen);
	if (ret)
		return ret;
	for (size_t i = 0; i < cfg->n_rails && !rail; i++)
		if (rg_cidr_contains(cfg->rails[i].subnet, addr))
			rail = &cfg->rails[i];
	if (!rail) {
		rg_set_err(err, errlen, "%s address %s is in no rail of %s", ifname,
			rg_ip_str(addr, ip), cfg->path ? cfg->path : "the config");
		return -EINVAL;
	}
	snprintf(plan->rail, sizeof(plan->rail), "%s", rail->name);
	plan->gateway = rail->gateway;
	ret = plan_append(plan, cfg->supernets, cfg->n_supernets, "supernet", err, errlen);
	if (!ret)
		ret = plan_append(plan, cfg->computenet.frontend, cfg->computenet.n_frontend,
				  "frontend", err, errlen);
	return ret;
}

static bool in_any(const struct rg_cidr *set, size_t n, uint32_t addr)
{
	for (size_t i = 0; i < n; i++)
		if (rg_cidr_contains(set[i], addr))
			return true;
	return false;
}

int rg_pod_plan_inline(const struct rg_cidr *supernets, size_t n_supernets,
		       const struct rg_cidr *frontend, size_t n_frontend,
		       uint32_t gateway, const char *ifname, uint32_t addr,
		       struct rg_pod_plan *plan, char *err, size_t errlen)
{
	char ip[INET_ADDRSTRLEN], gw[INET_ADDRSTRLEN];
	int ret;

	ret = plan_init(plan, ifname, addr, err, errlen);
	if (ret)
		return ret;
	rg_ip_str(addr, ip);
	rg_ip_str(gateway, gw);
	if (!n_supernets) {
		rg_set_err(err, errlen, "no supernet given");
		return -EINVAL;
	}
	if (!in_any(supernets, n_supernets, addr)) {
		rg_set_err(err, errlen, "%s address %s is outside every supernet (not a rail address)",
			ifname, ip);
		return -EINVAL;
	}
	if (!in_any(supernets, n_supernets, gateway)) {
		rg_set_err(err, errlen, "gateway %s is outside every supernet: it must be the rail's switch address",
			gw);
		return -EINVAL;
	}
	if (gateway == addr) {
		rg_set_err(err, errlen, "gateway %s is the pod's own address", gw);
		return -EINVAL;
	}
	plan->gateway = gateway;
	ret = plan_append(plan, supernets, n_supernets, "supernet", err, errlen);
	if (!ret)
		ret = plan_append(plan, frontend, n_frontend, "frontend", err, errlen);
	return ret;
}

/* ---- namespaces and the netlink view ----------------------------------- */

int rg_pod_netns_path_by_name(const char *name, char *buf, size_t len)
{
	if (!name || !*name || strchr(name, '/'))
		return -EINVAL;
	return snprintf(buf, len, "/run/netns/%s", name) < (int)len ? 0 : -ENAMETOOLONG;
}

int rg_pod_netns_path_by_pid(long pid, char *buf, size_t len)
{
	if (pid <= 0)
		return -EINVAL;
	return snprintf(buf, len, "/proc/%ld/ns/net", pid) < (int)len ? 0 : -ENAMETOOLONG;
}

int rg_pod_netns_open(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		int ret = -errno;

		rg_set_err(err, errlen, "cannot open network namespace %s: %s", path, strerror(errno));
		return ret;
	}
	return fd;
}

static bool same_netns(int a, int b)
{
	struct stat sa, sb;

	return !fstat(a, &sa) && !fstat(b, &sb) &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* A route socket in the current namespace. */
static int nl_connect_here(struct nl_sock **out, char *err, size_t errlen)
{
	struct nl_sock *sk = nl_socket_alloc();
	int nlret;

	*out = NULL;
	if (!sk) {
		rg_set_err(err, errlen, "out of memory for a netlink socket");
		return -ENOMEM;
	}
	nlret = nl_connect(sk, NETLINK_ROUTE);
	if (nlret < 0) {
		rg_set_err(err, errlen, "netlink connect in the pod: %s", nl_geterror(nlret));
		nl_socket_free(sk);
		return -EIO;
	}
	*out = sk;
	return 0;
}

/*
 * Open a route socket inside the pod's namespace and come straight back.
 * Failing to come back is reported as such: the caller must stop.
 */
static int nl_connect_in(int netns_fd, struct nl_sock **out, char *err, size_t errlen)
{
	struct nl_sock *sk = NULL;
	int self, ret = 0;

	self = open(SELF_NETNS, O_RDONLY | O_CLOEXEC);
	if (self < 0) {
		ret = -errno;
		rg_set_err(err, errlen, "cannot open own network namespace: %s", strerror(errno));
		return ret;
	}
	/* Already there (an init container naming its own pod): setns would
	 * need CAP_SYS_ADMIN for nothing, NET_ADMIN is enough for the routes. */
	if (same_netns(self, netns_fd)) {
		close(self);
		return nl_connect_here(out, err, errlen);
	}
	if (setns(netns_fd, CLONE_NEWNET)) {
		ret = -errno;
		rg_set_err(err, errlen, "cannot enter the pod's network namespace: %s", strerror(errno));
		close(self);
		return ret;
	}
	ret = nl_connect_here(&sk, err, errlen);
	if (setns(self, CLONE_NEWNET)) {
		ret = -errno;
		rg_set_err(err, errlen, "cannot return to own network namespace: %s", strerror(errno));
		if (sk)
			nl_socket_free(sk);
		sk = NULL;
	}
	close(self);
	*out = sk;
	return ret;
}

static bool nladdr_to_v4(struct nl_addr *a, uint32_t *out)
{
	uint32_t be;

	if (!a || nl_addr_get_family(a) != AF_INET || nl_addr_get_len(a) != 4)
		return false;
	memcpy(&be, nl_addr_get_binary_addr(a), 4);
	*out = ntohl(be);
	return true;
}

static void route_from_nl(struct rtnl_route *r, struct pod_route *out)
{
	struct nl_addr *dst = rtnl_route_get_dst(r);
	struct rtnl_nexthop *nh;

	memset(out, 0, sizeof(*out));
	if (dst && nladdr_to_v4(dst, &out->dst.addr))
		out->dst.len = nl_addr_get_prefixlen(dst);
	out->proto = rtnl_route_get_protocol(r);
	out->scope = rtnl_route_get_scope(r);
	out->type = rtnl_route_get_type(r);
	out->multipath = rtnl_route_get_nnexthops(r) > 1;
	if (rtnl_route_get_nnexthops(r) == 1) {
		nh = rtnl_route_nexthop_n(r, 0);
		out->oif = rtnl_route_nh_get_ifindex(nh);
		out->has_gw = nladdr_to_v4(rtnl_route_nh_get_gateway(nh), &out->gw);
	}
}

/* Local, broadcast and multicast routes are the kernel's, not a way out. */
static bool route_is_forwarding(uint8_t type)
{
	return type == RTN_UNICAST || type == RTN_BLACKHOLE ||
	       type == RTN_UNREACHABLE || type == RTN_PROHIBIT;
}

static int load_routes(struct pod_view *v, char *err, size_t errlen)
{
	struct nl_cache *cache;
	struct nl_object *o;
	int nlret, n;

	nlret = rtnl_route_alloc_cache(v->sk, AF_INET, 0, &cache);
	if (nlret < 0) {
		rg_set_err(err, errlen, "cannot list the pod's routes: %s", nl_geterror(nlret));
		return -EIO;
	}
	n = nl_cache_nitems(cache);
	v->routes = calloc(n ? n : 1, sizeof(*v->routes));
	if (!v->routes) {
		nl_cache_free(cache);
		rg_set_err(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (o = nl_cache_get_first(cache); o; o = nl_cache_get_next(o)) {
		struct rtnl_route *r = (struct rtnl_route *)o;

		if (rtnl_route_get_table(r) != RT_TABLE_MAIN ||
		    !route_is_forwarding(rtnl_route_get_type(r)))
			continue;
		route_from_nl(r, &v->routes[v->n_routes++]);
	}
	nl_cache_free(cache);
	return 0;
}

static void view_close(struct pod_view *v)
{
	free(v->routes);
	if (v->links)
		nl_cache_free(v->links);
	if (v->sk)
		nl_socket_free(v->sk);
	memset(v, 0, sizeof(*v));
}

static int view_open(int netns_fd, struct pod_view *v, struct rg_pod_report *rep,
		     char *err, size_t errlen)
{
	int ret, nlret;

	memset(v, 0, sizeof(*v));
	ret = nl_connect_in(netns_fd, &v->sk, err, errlen);
	if (ret)
		return fail(rep, RG_POD_ERR_NETNS, ret);
	nlret = rtnl_link_alloc_cache(v->sk, AF_UNSPEC, &v->links);
	if (nlret < 0) {
		rg_set_err(err, errlen, "cannot list the pod's interfaces: %s", nl_geterror(nlret));
		view_close(v);
		return fail(rep, RG_POD_ERR_NETLINK, -EIO);
	}
	ret = load_routes(v, err, errlen);
	if (ret) {
		view_close(v);
		return fail(rep, RG_POD_ERR_NETLINK, ret);
	}
	return 0;
}

static int view_ifindex(struct pod_view *v, const char *ifname)
{
	return rtnl_link_name2i(v->links, ifname);
}

static const char *view_ifname(struct pod_view *v, int ifindex, char *buf, size_t len)
{
	if (!ifindex || !rtnl_link_i2name(v->links, ifindex, buf, len))
		snprintf(buf, len, ifindex ? "if%d" : "?", ifindex);
	return buf;
}

/* "via 10.0.0.1 dev net1", "dev net1", "blackhole", "multipath" */
static const char *describe_way(struct pod_view *v, const struct pod_route *r,
				char *buf, size_t len)
{
	char gw[INET_ADDRSTRLEN], dev[IF_NAMESIZE + 8];

	if (r->type != RTN_UNICAST)
		snprintf(buf, len, "%s", r->type == RTN_BLACKHOLE ? "blackhole" :
			 r->type == RTN_UNREACHABLE ? "unreachable" : "prohibit");
	else if (r->multipath)
		snprintf(buf, len, "over several next hops (multipath)");
	else if (r->has_gw)
		snprintf(buf, len, "via %s dev %s", rg_ip_str(r->gw, gw),
			 view_ifname(v, r->oif, dev, sizeof(dev)));
	else
		snprintf(buf, len, "dev %s", view_ifname(v, r->oif, dev, sizeof(dev)));
	return buf;
}

/* ---- judging the pod's table against a plan ---------------------------- */

static bool route_is_planned(const struct pod_route *r, struct rg_cidr dst,
			     uint32_t gw, int oif)
{
	return r->type == RTN_UNICAST && !r->multipath && cidr_equal(r->dst, dst) &&
	       r->has_gw && r->gw == gw && r->oif == oif;
}

/* The prefix route the kernel made for an address: a rail's own subnet on
 * its interface, part of the supernet by design. */
static bool route_is_connected(const struct pod_route *r)
{
	return r->type == RTN_UNICAST && r->proto == RTPROT_KERNEL &&
	       r->scope == RT_SCOPE_LINK && !r->has_gw;
}

/*
 * State of one planned prefix.  A route for the prefix, or for a part of
 * it, that is not exactly ours (and not a connected subnet) steals that
 * traffic from the rail gateway.  Wider routes (a default elsewhere, a /8)
 * lose to ours by prefix length and are fine.
 */
static void judge_prefix(struct pod_view *v, struct rg_cidr dst, uint32_t gw, int oif,
			 struct prefix_judgement *j)
{
	char way[96], rdst[32], pdst[32];

	memset(j, 0, sizeof(*j));
	for (size_t i = 0; i < v->n_routes; i++) {
		const struct pod_route *r = &v->routes[i];
		bool same_dst = cidr_equal(r->dst, dst);

		if (!rg_cidr_covers(dst, r->dst))
			continue;
		if (route_is_planned(r, dst, gw, oif)) {
			if (j->state == PLAN_ABSENT)
				j->state = PLAN_PRESENT;
			continue;
		}
		if (route_is_connected(r) && !same_dst)
			continue;
		if (same_dst)
			j->state = PLAN_TAKEN;
		else if (j->shadowed || j->state == PLAN_TAKEN)
			continue;    /* keep the first, most telling message */
		else
			j->shadowed = true;
		rg_cidr_str(dst.addr, dst.len, pdst);
		snprintf(j->why, sizeof(j->why), "the pod already routes %s %s%s%s",
			 rg_cidr_str(r->dst.addr, r->dst.len, rdst),
			 describe_way(v, r, way, sizeof(way)),
			 same_dst ? "" : ", a part of ", same_dst ? "" : pdst);
	}
}

/* A default route out of the rail interface sends everything not in the
 * supernets to the rail switch: the loop risk of Scenario 5. */
static bool default_via_rail(struct pod_view *v, int oif, char *why, size_t whylen,
			     const char *ifname)
{
	char way[96];

	for (size_t i = 0; i < v->n_routes; i++) {
		const struct pod_route *r = &v->routes[i];

		if (r->dst.len == 0 && r->type == RTN_UNICAST && r->oif == oif) {
			snprintf(why, whylen,
				 "the pod has a default route %s: the rail interface %s would capture traffic meant for other networks (routing loop risk)",
				 describe_way(v, r, way, sizeof(way)), ifname);
			return true;
		}
	}
	return false;
}

/* ---- kernel changes ---------------------------------------------------- */

static struct rtnl_route *build_route(struct rg_cidr dst, uint32_t gw, int oif)
{
	uint32_t be_dst = htonl(dst.addr), be_gw = htonl(gw);
	struct rtnl_route *r = rtnl_route_alloc();
	struct rtnl_nexthop *nh = rtnl_route_nh_alloc();
	struct nl_addr *a_dst = nl_addr_build(AF_INET, &be_dst, 4);
	struct nl_addr *a_gw = nl_addr_build(AF_INET, &be_gw, 4);

	if (!r || !nh || !a_dst || !a_gw) {
		if (r)
			rtnl_route_put(r);
		if (nh)
			rtnl_route_nh_free(nh);
		nl_addr_put(a_dst);
		nl_addr_put(a_gw);
		return NULL;
	}
	nl_addr_set_prefixlen(a_dst, dst.len);
	rtnl_route_set_family(r, AF_INET);
	rtnl_route_set_table(r, RT_TABLE_MAIN);
	rtnl_route_set_type(r, RTN_UNICAST);
	rtnl_route_set_scope(r, RT_SCOPE_UNIVERSE);
	rtnl_route_set_protocol(r, RG_POD_ROUTE_PROTO);
	rtnl_route_set_dst(r, a_dst);
	rtnl_route_nh_set_gateway(nh, a_gw);
	rtnl_route_nh_set_ifindex(nh, oif);
	rtnl_route_add_nexthop(r, nh);    /* the route owns nh now */
	nl_addr_put(a_dst);
	nl_addr_put(a_gw);
	return r;
}

/* add or delete one railgate route; -EIO with the kernel's reason */
static int change_route(struct nl_sock *sk, bool add, struct rg_cidr dst, uint32_t gw,
			int oif, const char *ifname, char *err, size_t errlen)
{
	struct rtnl_route *r = build_route(dst, gw, oif);
	char d[32], g[INET_ADDRSTRLEN];
	int nlret;

	if (!r) {
		rg_set_err(err, errlen, "out of memory");
		return -ENOMEM;
	}
	nlret = add ? rtnl_route_add(sk, r, NLM_F_CREATE | NLM_F_EXCL)
		    : rtnl_route_delete(sk, r, 0);
	rtnl_route_put(r);
	if (nlret >= 0)
		return 0;
	/* The kernel refuses a gateway that is not on-link with ENETUNREACH,
	 * which libnl reports as a bare "Unspecific failure". */
	rg_set_err(err, errlen, "cannot %s route %s via %s dev %s: %s%s",
		add ? "add" : "delete", rg_cidr_str(dst.addr, dst.len, d),
		rg_ip_str(gw, g), ifname, nl_geterror(nlret),
		add && nlret == -NLE_FAILURE ?
		" (is the gateway inside the interface's subnet, and the interface up?)" : "");
	return nlret == -NLE_OBJ_NOTFOUND ? -ENOENT : -EIO;
}

/* ---- operations -------------------------------------------------------- */

static int resolve_dev(struct pod_view *v, const char *ifname, struct rg_pod_report *rep,
		       char *err, size_t errlen)
{
	int oif = view_ifindex(v, ifname);

	if (oif <= 0) {
		rg_set_err(err, errlen, "interface %s is not in the pod's network namespace", ifname);
		return fail(rep, RG_POD_ERR_NO_DEV, -ENODEV);
	}
	return oif;
}

/*
 * Judge every planned prefix into j[].  With RG_POD_CONFLICT_ERROR the
 * first conflict fails the whole operation; with WARN, conflicts become
 * warnings and taken prefixes are left alone by the caller.
 */
static int judge_plan(struct pod_view *v, const struct rg_pod_plan *plan, int oif,
		      enum rg_pod_conflict_policy policy, struct prefix_judgement *j,
		      struct rg_pod_report *rep, char *err, size_t errlen)
{
	char why[RG_POD_MSG_LEN];

	if (default_via_rail(v, oif, why, sizeof(why), plan->ifname)) {
		if (policy == RG_POD_CONFLICT_ERROR) {
			rg_set_err(err, errlen, "%s", why);
			return fail(rep, RG_POD_ERR_CONFLICT, -EEXIST);
		}
		report_warn(rep, why);
	}
	for (size_t i = 0; i < plan->n_dsts; i++) {
		judge_prefix(v, plan->dsts[i], plan->gateway, oif, &j[i]);
		if (j[i].state != PLAN_TAKEN && !j[i].shadowed)
			continue;
		if (policy == RG_POD_CONFLICT_ERROR) {
			rg_set_err(err, errlen, "%s", j[i].why);
			return fail(rep, RG_POD_ERR_CONFLICT, -EEXIST);
		}
		report_warn(rep, j[i].why);
	}
	return 0;
}

static void rollback(struct pod_view *v, const struct rg_pod_plan *plan, int oif,
		     struct rg_pod_report *rep)
{
	char ignored[RG_POD_MSG_LEN];

	for (size_t i = 0; i < rep->n_done; i++)
		change_route(v->sk, false, rep->done[i], plan->gateway, oif, plan->ifname,
			     ignored, sizeof(ignored));
	rep->n_done = 0;
}

int rg_pod_routes_add(int netns_fd, const struct rg_pod_plan *plan,
		      enum rg_pod_conflict_policy policy,
		      struct rg_pod_report *rep, char *err, size_t errlen)
{
	struct prefix_judgement j[RG_POD_ROUTES_MAX];
	struct pod_view v;
	int oif, ret;

	memset(rep, 0, sizeof(*rep));
	ret = view_open(netns_fd, &v, rep, err, errlen);
	if (ret)
		return ret;
	oif = ret = resolve_dev(&v, plan->ifname, rep, err, errlen);
	if (ret < 0)
		goto out;
	ret = judge_plan(&v, plan, oif, policy, j, rep, err, errlen);
	if (ret)
		goto out;
	for (size_t i = 0; i < plan->n_dsts; i++) {
		if (j[i].state != PLAN_ABSENT)
			continue;
		ret = change_route(v.sk, true, plan->dsts[i], plan->gateway, oif,
				   plan->ifname, err, errlen);
		if (ret) {
			rollback(&v, plan, oif, rep);
			fail(rep, RG_POD_ERR_NETLINK, ret);
			goto out;
		}
		report_done(rep, plan->dsts[i]);
	}
out:
	view_close(&v);
	return ret < 0 ? ret : 0;
}

int rg_pod_routes_check(int netns_fd, const struct rg_pod_plan *plan,
			enum rg_pod_conflict_policy policy,
			struct rg_pod_report *rep, char *err, size_t errlen)
{
	struct prefix_judgement j[RG_POD_ROUTES_MAX];
	char d[32], g[INET_ADDRSTRLEN];
	struct pod_view v;
	int oif, ret;

	memset(rep, 0, sizeof(*rep));
	ret = view_open(netns_fd, &v, rep, err, errlen);
	if (ret)
		return ret;
	oif = ret = resolve_dev(&v, plan->ifname, rep, err, errlen);
	if (ret < 0)
		goto out;
	/* Missing or pointing elsewhere first: that is what CHECK is for. */
	for (size_t i = 0; i < plan->n_dsts; i++) {
		judge_prefix(&v, plan->dsts[i], plan->gateway, oif, &j[i]);
		if (j[i].state == PLAN_PRESENT ||
		    (j[i].state == PLAN_TAKEN && policy == RG_POD_CONFLICT_WARN))
			continue;    /* present, or warned about and left alone */
		rg_cidr_str(plan->dsts[i].addr, plan->dsts[i].len, d);
		rg_ip_str(plan->gateway, g);
		if (j[i].state == PLAN_TAKEN)
			rg_set_err(err, errlen, "route %s points elsewhere: %s, railgate expects via %s dev %s",
				d, j[i].why, g, plan->ifname);
		else
			rg_set_err(err, errlen, "route %s via %s dev %s is missing", d, g, plan->ifname);
		ret = fail(rep, RG_POD_ERR_MISSING, -ENOENT);
		goto out;
	}
	ret = judge_plan(&v, plan, oif, policy, j, rep, err, errlen);
	if (ret)
		goto out;
	for (size_t i = 0; i < plan->n_dsts; i++)
		if (j[i].state == PLAN_PRESENT)
			report_done(rep, plan->dsts[i]);
out:
	view_close(&v);
	return ret < 0 ? ret : 0;
}

int rg_pod_routes_del(int netns_fd, const char *ifname,
		      struct rg_pod_report *rep, char *err, size_t errlen)
{
	struct pod_view v;
	int oif, ret;

	memset(rep, 0, sizeof(*rep));
	ret = view_open(netns_fd, &v, rep, err, errlen);
	if (ret)
		return ret;
	oif = view_ifindex(&v, ifname);
	if (oif <= 0)
		goto out;    /* its routes went with it */
	for (size_t i = 0; i < v.n_routes; i++) {
		const struct pod_route *r = &v.routes[i];

		if (r->proto != RG_POD_ROUTE_PROTO || r->oif != oif || !r->has_gw)
			continue;
		ret = change_route(v.sk, false, r->dst, r->gw, oif, ifname, err, errlen);
		if (ret == -ENOENT) {
			ret = 0;     /* removed meanwhile: that is what we want */
			continue;
		}
		if (ret) {
			fail(rep, RG_POD_ERR_NETLINK, ret);
			goto out;
		}
		report_done(rep, r->dst);
	}
out:
	view_close(&v);
	return ret;
}

/* ---- addresses --------------------------------------------------------- */

int rg_pod_list_addrs(int netns_fd, const char *ifname,
		      struct rg_pod_addr *out, size_t max,
		      char *err, size_t errlen)
{
	struct nl_cache *addrs = NULL;
	struct nl_object *o;
	struct pod_view v;
	size_t n = 0;
	int ret, nlret, want = 0;

	ret = view_open(netns_fd, &v, NULL, err, errlen);
	if (ret)
		return ret;
	if (ifname && *ifname) {
		want = view_ifindex(&v, ifname);
		if (want <= 0) {
			rg_set_err(err, errlen, "interface %s is not in the pod's network namespace",
				ifname);
			ret = -ENODEV;
			goto out;
		}
	}
	nlret = rtnl_addr_alloc_cache(v.sk, &addrs);
	if (nlret < 0) {
		rg_set_err(err, errlen, "cannot list the pod's addresses: %s", nl_geterror(nlret));
		ret = -EIO;
		goto out;
	}
	for (o = nl_cache_get_first(addrs); o && n < max; o = nl_cache_get_next(o)) {
		struct rtnl_addr *a = (struct rtnl_addr *)o;
		int ifindex = rtnl_addr_get_ifindex(a);

		if (rtnl_addr_get_family(a) != AF_INET || (want && ifindex != want))
			continue;
		if (!nladdr_to_v4(rtnl_addr_get_local(a), &out[n].addr))
			continue;
		out[n].prefix_len = rtnl_addr_get_prefixlen(a);
		view_ifname(&v, ifindex, out[n].ifname, sizeof(out[n].ifname));
		n++;
	}
	ret = (int)n;
out:
	if (addrs)
		nl_cache_free(addrs);
	view_close(&v);
	return ret;
}
