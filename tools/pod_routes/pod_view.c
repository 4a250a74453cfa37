// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The pod through libnl-3: entering its namespace, reading its links,
 * addresses, routes and rules, and the route, rule and sysctl changes pod
 * routing makes.  See pod_view.h.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include <linux/fib_rules.h>
#include <linux/nsfs.h>
#include <linux/rtnetlink.h>
#include <netlink/netlink.h>
#include <netlink/route/addr.h>
#include <netlink/route/link.h>
#include <netlink/route/route.h>
#include <netlink/route/rule.h>

#include "tools/pod_routes/pod_view.h"
#include "lib/errbuf.h"
#include "lib/addr.h"
#include "lib/netns.h"
#include "lib/nlsock.h"

/* ---- namespaces ---------------------------------------------------------- */

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

/* O_NONBLOCK: a FIFO given as a namespace must fail, not hang the open;
 * the namespace type then says what the file really is. */
int rg_pod_netns_open(const char *path, char *err, size_t err_len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), type;

	if (fd < 0)
		return rg_err(err, err_len, -errno, "cannot open network namespace %s: %s", path,
			      strerror(errno));
	type = ioctl(fd, NS_GET_NSTYPE);
	if (type != CLONE_NEWNET) {
		close(fd);
		return rg_err(err, err_len, -EINVAL, "%s is not a network namespace", path);
	}
	return fd;
}

/* In the pod: its netlink socket, which keeps talking to the pod's
 * namespace after we leave it. */
static int connect_here(void *arg, char *err, size_t err_len)
{
	return rg_nlsock_open(NETLINK_ROUTE, arg, err, err_len);
}

/* ---- reading ------------------------------------------------------------- */

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
	out->table = rtnl_route_get_table(r);
	out->metric = rtnl_route_get_priority(r);
	nladdr_to_v4(rtnl_route_get_pref_src(r), &out->prefsrc);
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

/* Copy one object into its slot; false to skip it. */
typedef bool (*take_fn)(struct pod_view *v, struct nl_object *o, void *slot);

/*
 * Turn a freshly dumped cache (nlret: the dump's result) into a calloc'd
 * array of the objects take() keeps.  The cache is freed either way.
 */
static int load_cache(struct pod_view *v, int nlret, struct nl_cache *cache, const char *what,
		      size_t size, void **out, size_t *n, take_fn take, char *err, size_t err_len)
{
	struct nl_object *o;
	char *arr;

	if (nlret < 0)
		return rg_err(err, err_len, -EIO, "cannot list the pod's %s: %s", what,
			      nl_geterror(nlret));
	arr = calloc(nl_cache_nitems(cache) + 1, size);
	if (!arr) {
		nl_cache_free(cache);
		return rg_err(err, err_len, -ENOMEM, "out of memory for the pod's %s", what);
	}
	*out = arr;
	for (o = nl_cache_get_first(cache); o; o = nl_cache_get_next(o))
		if (take(v, o, arr + *n * size))
			(*n)++;
	nl_cache_free(cache);
	return 0;
}

static bool take_route(struct pod_view *v, struct nl_object *o, void *slot)
{
	struct rtnl_route *r = (struct rtnl_route *)o;

	if (!route_is_forwarding(rtnl_route_get_type(r)))
		return false;
	route_from_nl(r, slot);
	return true;
}

static bool take_rule(struct pod_view *v, struct nl_object *o, void *slot)
{
	struct rtnl_rule *r = (struct rtnl_rule *)o;
	struct nl_addr *src = rtnl_rule_get_src(r);
	struct pod_rule *out = slot;

	if (src && nladdr_to_v4(src, &out->src.addr))
		out->src.len = nl_addr_get_prefixlen(src);
	out->table = rtnl_rule_get_table(r);
	out->priority = rtnl_rule_get_prio(r);
	if (rtnl_rule_get_protocol(r, &out->proto) < 0)
		out->proto = 0;
	/* A rule with more selectors than "from" is not one railgate made. */
	out->plain = rtnl_rule_get_action(r) == FR_ACT_TO_TBL && !rtnl_rule_get_dst(r) &&
		     !rtnl_rule_get_iif(r) && !rtnl_rule_get_oif(r) && !rtnl_rule_get_mark(r) &&
		     !rtnl_rule_get_dsfield(r);
	return true;
}

static bool take_addr(struct pod_view *v, struct nl_object *o, void *slot)
{
	struct rtnl_addr *a = (struct rtnl_addr *)o;
	struct rg_pod_addr *out = slot;

	if (rtnl_addr_get_family(a) != AF_INET || !nladdr_to_v4(rtnl_addr_get_local(a), &out->addr))
		return false;
	out->prefix_len = rtnl_addr_get_prefixlen(a);
	out->ifindex = rtnl_addr_get_ifindex(a);
	pod_view_ifname(v, out->ifindex, out->ifname, sizeof(out->ifname));
	return true;
}

static int load_all(struct pod_view *v, char *err, size_t err_len)
{
	struct nl_cache *c = NULL;
	int nlret, ret;

	/* the dump first: its cache is an argument of load_cache */
	nlret = rtnl_route_alloc_cache(v->sk, AF_INET, 0, &c);
	ret = load_cache(v, nlret, c, "routes", sizeof(*v->routes), (void **)&v->routes,
			 &v->n_routes, take_route, err, err_len);
	if (ret)
		return ret;
	nlret = rtnl_rule_alloc_cache(v->sk, AF_INET, &c);
	ret = load_cache(v, nlret, c, "rules", sizeof(*v->rules), (void **)&v->rules,
			 &v->n_rules, take_rule, err, err_len);
	if (ret)
		return ret;
	nlret = rtnl_addr_alloc_cache(v->sk, &c);
	return load_cache(v, nlret, c, "addresses", sizeof(*v->addrs), (void **)&v->addrs,
			  &v->n_addrs, take_addr, err, err_len);
}

void pod_view_close(struct pod_view *v)
{
	free(v->routes);
	free(v->rules);
	free(v->addrs);
	if (v->links)
		nl_cache_free(v->links);
	if (v->sk)
		nl_socket_free(v->sk);
	memset(v, 0, sizeof(*v));
}

int pod_view_open(int netns_fd, struct pod_view *v, char *err, size_t err_len)
{
	int ret, nlret;

	memset(v, 0, sizeof(*v));
	ret = rg_in_netns(netns_fd, connect_here, &v->sk, err, err_len);
	if (ret)
		return ret;
	nlret = rtnl_link_alloc_cache(v->sk, AF_UNSPEC, &v->links);
	if (nlret < 0) {
		v->links = NULL;
		ret = rg_err(err, err_len, -EIO, "cannot list the pod's interfaces: %s",
			     nl_geterror(nlret));
	}
	if (!ret)
		ret = load_all(v, err, err_len);
	if (ret)
		pod_view_close(v);
	return ret;
}

int pod_view_ifindex(struct pod_view *v, const char *ifname)
{
	return rtnl_link_name2i(v->links, ifname);
}

const char *pod_view_ifname(struct pod_view *v, int ifindex, char *buf, size_t len)
{
	if (!ifindex || !rtnl_link_i2name(v->links, ifindex, buf, len))
		snprintf(buf, len, ifindex ? "if%d" : "?", ifindex);
	return buf;
}

bool pod_view_has_addr(const struct pod_view *v, int ifindex, uint32_t addr)
{
	for (size_t i = 0; i < v->n_addrs; i++)
		if (v->addrs[i].ifindex == ifindex && v->addrs[i].addr == addr)
			return true;
	return false;
}

bool pod_view_addr_held(const struct pod_view *v, uint32_t addr)
{
	for (size_t i = 0; i < v->n_addrs; i++)
		if (v->addrs[i].addr == addr)
			return true;
	return false;
}

const char *pod_view_describe(struct pod_view *v, const struct pod_route *r,
			      char *buf, size_t len)
{
	char gw[RG_IP_STR_LEN], dev[IF_NAMESIZE + 8];

	if (r->type != RTN_UNICAST)
		snprintf(buf, len, "%s", r->type == RTN_BLACKHOLE ? "blackhole" :
			 r->type == RTN_UNREACHABLE ? "unreachable" : "prohibit");
	else if (r->multipath)
		snprintf(buf, len, "over several next hops (multipath)");
	else if (r->has_gw)
		snprintf(buf, len, "via %s dev %s", rg_ip_str(r->gw, gw),
			 pod_view_ifname(v, r->oif, dev, sizeof(dev)));
	else
		snprintf(buf, len, "dev %s", pod_view_ifname(v, r->oif, dev, sizeof(dev)));
	return buf;
}

/* ---- changes ------------------------------------------------------------- */

static struct nl_addr *v4_addr(uint32_t host, uint8_t len)
{
	uint32_t be = htonl(host);
	struct nl_addr *a = nl_addr_build(AF_INET, &be, 4);

	if (a)
		nl_addr_set_prefixlen(a, len);
	return a;
}

static struct rtnl_route *build_route(const struct rg_pod_route *want, int oif)
{
	struct rtnl_route *r = rtnl_route_alloc();
	struct rtnl_nexthop *nh = rtnl_route_nh_alloc();
	struct nl_addr *dst = v4_addr(want->dst.addr, want->dst.len);
	struct nl_addr *gw = want->gateway ? v4_addr(want->gateway, 32) : NULL;
	struct nl_addr *src = want->src ? v4_addr(want->src, 32) : NULL;
	bool ok = r && nh && dst && (gw || !want->gateway) && (src || !want->src);

	if (ok) {
		rtnl_route_set_family(r, AF_INET);
		rtnl_route_set_table(r, want->table);
		rtnl_route_set_type(r, RTN_UNICAST);
		/* a connected subnet is on-link; everything else via the gateway */
		rtnl_route_set_scope(r, want->gateway ? RT_SCOPE_UNIVERSE : RT_SCOPE_LINK);
		rtnl_route_set_protocol(r, RG_POD_ROUTE_PROTO);
		rtnl_route_set_priority(r, want->metric);
		rtnl_route_set_dst(r, dst);
		if (src)
			rtnl_route_set_pref_src(r, src);
		if (gw)
			rtnl_route_nh_set_gateway(nh, gw);
		rtnl_route_nh_set_ifindex(nh, oif);
		rtnl_route_add_nexthop(r, nh);    /* the route owns nh now */
		nh = NULL;
	}
	if (nh)
		rtnl_route_nh_free(nh);
	nl_addr_put(dst);
	nl_addr_put(gw);
	nl_addr_put(src);
	if (!ok && r) {
		rtnl_route_put(r);
		r = NULL;
	}
	return r;
}

const char *pod_table_name(uint32_t table, char *buf, size_t len)
{
	if (table == RT_TABLE_MAIN)
		snprintf(buf, len, "main");
	else
		snprintf(buf, len, "%u", table);
	return buf;
}

int pod_route_change(struct nl_sock *sk, bool add, const struct rg_pod_route *want,
		     int oif, const char *ifname, char *err, size_t err_len)
{
	struct rtnl_route *r = build_route(want, oif);
	char d[RG_CIDR_STR_LEN], g[RG_IP_STR_LEN], t[16];
	int nlret;

	if (!r)
		return rg_err(err, err_len, -ENOMEM, "out of memory");
	nlret = add ? rtnl_route_add(sk, r, NLM_F_CREATE | NLM_F_EXCL)
		    : rtnl_route_delete(sk, r, 0);
	rtnl_route_put(r);
	if (nlret >= 0)
		return 0;
	/* The kernel refuses a gateway that is not on-link with ENETUNREACH,
	 * which libnl reports as a bare "Unspecific failure". */
	rg_set_err(err, err_len, "cannot %s route %s%s%s dev %s table %s: %s%s",
		   add ? "add" : "delete", rg_cidr_str(want->dst.addr, want->dst.len, d),
		   want->gateway ? " via " : "", want->gateway ? rg_ip_str(want->gateway, g) : "",
		   ifname, pod_table_name(want->table, t, sizeof(t)), nl_geterror(nlret),
		   add && nlret == -NLE_FAILURE ?
		   " (is the gateway inside the interface's subnet, and the interface up?)" : "");
	return nlret == -NLE_OBJ_NOTFOUND ? -ENOENT : -EIO;
}

int pod_rule_change(struct nl_sock *sk, bool add, uint32_t src, uint32_t table,
		    uint32_t priority, char *err, size_t err_len)
{
	struct rtnl_rule *r = rtnl_rule_alloc();
	struct nl_addr *a = v4_addr(src, 32);
	char s[RG_IP_STR_LEN];
	int nlret = -NLE_NOMEM;

	if (r && a) {
		rtnl_rule_set_family(r, AF_INET);
		rtnl_rule_set_action(r, FR_ACT_TO_TBL);
		rtnl_rule_set_src(r, a);
		rtnl_rule_set_table(r, table);
		rtnl_rule_set_prio(r, priority);
		rtnl_rule_set_protocol(r, RG_POD_ROUTE_PROTO);
		nlret = add ? rtnl_rule_add(sk, r, NLM_F_CREATE | NLM_F_EXCL)
			    : rtnl_rule_delete(sk, r, 0);
	}
	nl_addr_put(a);
	if (r)
		rtnl_rule_put(r);
	if (nlret >= 0)
		return 0;
	rg_set_err(err, err_len, "cannot %s rule from %s/32 lookup %u priority %u: %s",
		   add ? "add" : "delete", rg_ip_str(src, s), table, priority, nl_geterror(nlret));
	return nlret == -NLE_OBJ_NOTFOUND ? -ENOENT : -EIO;
}

/* ---- sysctls ------------------------------------------------------------- */

struct sysctl_op {
	const char *ifname;
	const char *key;
	int  value;
	bool write;
};

static int sysctl_here(void *arg, char *err, size_t err_len)
{
	struct sysctl_op *op = arg;
	char path[128], buf[16];
	ssize_t n;
	int fd, ret = 0;

	snprintf(path, sizeof(path), "/proc/sys/net/ipv4/conf/%s/%s", op->ifname, op->key);
	fd = open(path, (op->write ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
	if (fd < 0)
		return rg_err(err, err_len, -errno, "cannot open %s in the pod: %s", path,
			      strerror(errno));
	if (op->write) {
		n = snprintf(buf, sizeof(buf), "%d\n", op->value);
		if (write(fd, buf, n) != n)
			ret = rg_err(err, err_len, -errno, "cannot set %s to %d in the pod: %s",
				     path, op->value, strerror(errno));
	} else {
		n = read(fd, buf, sizeof(buf) - 1);
		if (n <= 0)
			ret = rg_err(err, err_len, n < 0 ? -errno : -EIO, "cannot read %s in the pod",
				     path);
		else {
			buf[n] = '\0';
			op->value = atoi(buf);
		}
	}
	close(fd);
	return ret;
}

int pod_sysctl_set(int netns_fd, const char *ifname, const char *key, int value,
		   char *err, size_t err_len)
{
	struct sysctl_op op = { .ifname = ifname, .key = key, .value = value, .write = true };

	return rg_in_netns(netns_fd, sysctl_here, &op, err, err_len);
}

int pod_sysctl_get(int netns_fd, const char *ifname, const char *key, int *value,
		   char *err, size_t err_len)
{
	struct sysctl_op op = { .ifname = ifname, .key = key };
	int ret = rg_in_netns(netns_fd, sysctl_here, &op, err, err_len);

	if (!ret)
		*value = op.value;
	return ret;
}
