// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Kernel network state through libnl-3 (see netlink.h).
 *
 * Single-object requests (one neighbour, one route, one device's XDP
 * features) are built by hand and sent with nl_transact(): dumping a whole
 * neighbour table to read one entry, every 10 ms while resolving, would not
 * scale to nodes with thousands of neighbours.  Links come from libnl's
 * rtnl_link objects, which already parse everything we show.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <linux/neighbour.h>
#include <linux/if_link.h>

#include <netlink/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/socket.h>
#include <netlink/cache.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
#include <netlink/route/link.h>

#include "lib/addr.h"
#include "lib/ifname.h"
#include "loader/kernel/link_table.h"
#include "loader/kernel/netlink.h"
#include "lib/errbuf.h"
#include "lib/nlsock.h"

/*
 * The "netdev" generic netlink family, from the kernel's
 * include/uapi/linux/netdev.h (kernel >= 6.3).  Debian 12's UAPI headers
 * (6.1) do not have it, so the few values used here are copied; they are
 * UAPI and cannot change.
 */
#define RG_NETDEV_FAMILY_NAME      "netdev"
#define RG_NETDEV_FAMILY_VERSION   1
enum {
	RG_NETDEV_A_DEV_IFINDEX       = 1,  /* u32 */
	RG_NETDEV_A_DEV_XDP_FEATURES  = 3,  /* u64, NETDEV_XDP_ACT_* */
};
enum {
	RG_NETDEV_CMD_DEV_GET = 1,
};

/* operstates from <linux/if.h>, which cannot be included beside <net/if.h>. */
enum {
	RG_IF_OPER_UNKNOWN = 0,
	RG_IF_OPER_UP      = 6,
};

/* Neighbour states whose MAC the datapath may use. */
#define RG_NUD_USABLE (NUD_REACHABLE | NUD_STALE | NUD_DELAY | NUD_PROBE | \
		       NUD_PERMANENT | NUD_NOARP)

/* How often rg_nl_neigh_resolve re-reads the entry while ARP runs. */
#define RG_RESOLVE_POLL_MS 10

/* Receive buffer of the watch: more than any RTM_NEWLINK notification. */
#define RG_WATCH_BUF_LEN   (64 * 1024)
/* Socket buffer of the watch: room for bursts (a PF creating 128 VFs). */
#define RG_WATCH_RCVBUF    (1024 * 1024)

struct rg_nl {
	struct nl_sock *rtnl;
	struct nl_sock *genl;
	int netdev_family;           /* genl family id, -1 when the kernel has none */
	struct rg_nl_counters counters;
};

struct rg_nl_watch {
	struct nl_sock *sk;
	uint8_t *buf;
	size_t len;                  /* bytes in buf from the last recv */
	size_t off;                  /* next message to decode */
};

/* "eth1 (ifindex 3)" for messages; just the index when the link is gone. */
static const char *link_str(int ifindex, char buf[IF_NAMESIZE + 24])
{
	char name[IF_NAMESIZE];

	snprintf(buf, IF_NAMESIZE + 24, "%s (ifindex %d)", rg_ifname_str(ifindex, name), ifindex);
	return buf;
}

/* ---- one request, one answer ------------------------------------------ */

typedef void (*reply_fn)(const struct nlmsghdr *nlh, void *arg);

struct transact {
	reply_fn on_reply;
	void *arg;
	int err;                     /* the kernel's -errno, 0 on ack */
	bool done;                   /* ack or error seen */
};

static int transact_valid(struct nl_msg *msg, void *arg)
{
	struct transact *t = arg;

	if (t->on_reply)
		t->on_reply(nlmsg_hdr(msg), t->arg);
	return NL_OK;
}

static int transact_ack(struct nl_msg *msg, void *arg)
{
	struct transact *t = arg;

	t->done = true;
	return NL_STOP;
}

static int transact_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct transact *t = arg;

	t->err = e->error;
	t->done = true;
	return NL_STOP;
}

/*
 * Send req (libnl adds NLM_F_ACK) and read until the kernel's ack or error,
 * handing every reply to on_reply.  Waiting for the ack, not for the first
 * datagram, keeps a late ack from being read as the answer to the next
 * request.  Returns 0 or the kernel's -errno; -EIO when libnl itself failed.
 */
static int nl_transact(struct rg_nl *nl, struct nl_sock *sk, struct nl_msg *req,
		       reply_fn on_reply, void *arg)
{
	struct transact t = { .on_reply = on_reply, .arg = arg };
	struct nl_cb *cb;
	int ret;

	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb)
		return -ENOMEM;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, transact_valid, &t);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, transact_ack, &t);
	/* a dump ends with NLMSG_DONE, not with an ack */
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, transact_ack, &t);
	nl_cb_err(cb, NL_CB_CUSTOM, transact_error, &t);

	nl->counters.requests++;
	ret = nl_send_auto(sk, req);
	while (ret >= 0 && !t.done)
		ret = nl_recvmsgs(sk, cb);
	nl_cb_put(cb);

	if (t.done)
		return t.err;
	return -EIO;
}

/* ---- links ------------------------------------------------------------- */

struct xdp_features_reply {
	uint64_t features;
	bool found;
};

static void parse_netdev_dev(const struct nlmsghdr *nlh, void *arg)
{
	struct xdp_features_reply *r = arg;
	struct nlattr *attr;
	int rem;

	nla_for_each_attr(attr, genlmsg_attrdata(nlmsg_data(nlh), 0),
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem) {
		if (nla_type(attr) == RG_NETDEV_A_DEV_XDP_FEATURES &&
		    nla_len(attr) >= (int)sizeof(uint64_t)) {
			r->features = nla_get_u64(attr);
			r->found = true;
		}
	}
}

/* NETDEV_CMD_DEV_GET for one device; fills the XDP fields of out. */
static void query_xdp_features(struct rg_nl *nl, struct rg_link_info *out)
{
	struct xdp_features_reply r = {};
	struct nl_msg *req;

	out->xdp_features = 0;
	out->xdp_features_known = false;
	if (nl->netdev_family < 0)
		return;

	req = nlmsg_alloc();
	if (!req)
		return;
	if (genlmsg_put(req, NL_AUTO_PORT, NL_AUTO_SEQ, nl->netdev_family, 0, 0,
			RG_NETDEV_CMD_DEV_GET, RG_NETDEV_FAMILY_VERSION) &&
	    nla_put_u32(req, RG_NETDEV_A_DEV_IFINDEX, out->ifindex) == 0 &&
	    nl_transact(nl, nl->genl, req, parse_netdev_dev, &r) == 0 && r.found) {
		out->xdp_features = r.features;
		out->xdp_features_known = true;
	}
	nlmsg_free(req);
}

/* As the kernel's netif_oper_up(): drivers without carrier report UNKNOWN. */
static bool operstate_is_up(uint8_t operstate, unsigned flags)
{
	return operstate == RG_IF_OPER_UP ||
	       (operstate == RG_IF_OPER_UNKNOWN && (flags & IFF_RUNNING));
}

static void link_info_from_rtnl(struct rtnl_link *link, struct rg_link_info *out)
{
	struct nl_addr *addr = rtnl_link_get_addr(link);
	const char *name = rtnl_link_get_name(link);
	const char *kind = rtnl_link_get_type(link);
	unsigned flags = rtnl_link_get_flags(link);

	memset(out, 0, sizeof(*out));
	out->ifindex = rtnl_link_get_ifindex(link);
	snprintf(out->name, sizeof(out->name), "%s", name ? name : "");
	if (addr && nl_addr_get_len(addr) == RG_MAC_LEN)
		memcpy(out->mac, nl_addr_get_binary_addr(addr), RG_MAC_LEN);
	out->mtu = rtnl_link_get_mtu(link);
	out->up = flags & IFF_UP;
	out->oper_up = operstate_is_up(rtnl_link_get_operstate(link), flags);
	snprintf(out->kind, sizeof(out->kind), "%s", kind ? kind : "");
}

/* RTM_GETLINK by index or name; libnl reports the kernel's ENODEV as not found. */
static int link_get(struct rg_nl *nl, int ifindex, const char *name,
		    struct rg_link_info *out)
{
	struct rtnl_link *link = NULL;
	int ret;

	nl->counters.requests++;
	ret = rtnl_link_get_kernel(nl->rtnl, ifindex, name, &link);
	if (ret == -NLE_OBJ_NOTFOUND || ret == -NLE_NODEV)
		return -ENODEV;
	if (ret < 0)
		return -EIO;
	link_info_from_rtnl(link, out);
	rtnl_link_put(link);
	query_xdp_features(nl, out);
	return 0;
}

int rg_nl_link_by_name(struct rg_nl *nl, const char *name, struct rg_link_info *out)
{
	size_t len = name ? strlen(name) : 0;

	if (len == 0 || len >= IF_NAMESIZE)
		return -EINVAL;
	return link_get(nl, 0, name, out);
}

int rg_nl_link_by_index(struct rg_nl *nl, int ifindex, struct rg_link_info *out)
{
	if (ifindex <= 0)
		return -ENODEV;
	return link_get(nl, ifindex, NULL, out);
}

/* The XDP features of every device, from one NETDEV_CMD_DEV_GET dump. */
struct xdp_feature_entry {
	int ifindex;
	uint64_t features;
};

struct xdp_features_dump {
	struct xdp_feature_entry *e;
	size_t n, cap;
	bool oom;
};

static void parse_netdev_dump(const struct nlmsghdr *nlh, void *arg)
{
	struct xdp_features_dump *d = arg;
	struct xdp_feature_entry e = { 0 };
	bool has_features = false;
	struct nlattr *attr;
	int rem;

	nla_for_each_attr(attr, genlmsg_attrdata(nlmsg_data(nlh), 0),
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem) {
		if (nla_type(attr) == RG_NETDEV_A_DEV_IFINDEX && nla_len(attr) >= 4)
			e.ifindex = (int)nla_get_u32(attr);
		if (nla_type(attr) == RG_NETDEV_A_DEV_XDP_FEATURES &&
		    nla_len(attr) >= (int)sizeof(uint64_t)) {
			e.features = nla_get_u64(attr);
			has_features = true;
		}
	}
	if (!e.ifindex || !has_features || d->oom)
		return;
	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 64;
		struct xdp_feature_entry *ne = realloc(d->e, cap * sizeof(*ne));

		if (!ne) {
			d->oom = true;
			return;
		}
		d->e = ne;
		d->cap = cap;
	}
	d->e[d->n++] = e;
}

static int feature_cmp_ifindex(const void *a, const void *b)
{
	const struct xdp_feature_entry *x = a, *y = b;

	return (x->ifindex > y->ifindex) - (x->ifindex < y->ifindex);
}

/* Fill the XDP fields of every link in t from one dump; links the dump did
 * not name (or a kernel without the family) keep xdp_features_known false,
 * as a failed single query leaves them. */
static void dump_xdp_features(struct rg_nl *nl, struct rg_link_table *t)
{
	struct xdp_features_dump d = { 0 };
	struct nl_msg *req;

	if (nl->netdev_family < 0 || !t->n)
		return;
	req = nlmsg_alloc();
	if (!req)
		return;
	if (genlmsg_put(req, NL_AUTO_PORT, NL_AUTO_SEQ, nl->netdev_family, 0, NLM_F_DUMP,
			RG_NETDEV_CMD_DEV_GET, RG_NETDEV_FAMILY_VERSION) &&
	    nl_transact(nl, nl->genl, req, parse_netdev_dump, &d) == 0 && !d.oom) {
		qsort(d.e, d.n, sizeof(*d.e), feature_cmp_ifindex);
		for (size_t i = 0; i < t->n; i++) {
			struct xdp_feature_entry key = { .ifindex = t->links[i].ifindex };
			const struct xdp_feature_entry *f = d.n ? bsearch(&key, d.e, d.n, sizeof(*d.e),
									  feature_cmp_ifindex) : NULL;

			if (f) {
				t->links[i].xdp_features = f->features;
				t->links[i].xdp_features_known = true;
			}
		}
	}
	free(d.e);
	nlmsg_free(req);
}

int rg_nl_link_table(struct rg_nl *nl, struct rg_link_table *t)
{
	struct nl_cache *cache = NULL;
	struct nl_object *obj;

	t->links = NULL;
	t->n = 0;
	nl->counters.requests++;
	nl->counters.link_dumps++;
	if (rtnl_link_alloc_cache(nl->rtnl, AF_UNSPEC, &cache) < 0)
		return -EIO;
	t->links = calloc(nl_cache_nitems(cache) + 1, sizeof(*t->links));
	if (!t->links) {
		nl_cache_free(cache);
		return -ENOMEM;
	}
	for (obj = nl_cache_get_first(cache); obj; obj = nl_cache_get_next(obj)) {
		struct rtnl_link *link = (struct rtnl_link *)obj;

		if (!rtnl_link_get_name(link))
			continue;
		link_info_from_rtnl(link, &t->links[t->n++]);
	}
	nl_cache_free(cache);
	rg_link_table_sort(t);
	dump_xdp_features(nl, t);
	return 0;
}

void rg_nl_get_counters(const struct rg_nl *nl, struct rg_nl_counters *out)
{
	*out = nl->counters;
}

void rg_nl_reset_counters(struct rg_nl *nl)
{
	memset(&nl->counters, 0, sizeof(nl->counters));
}

/* ---- neighbours -------------------------------------------------------- */

struct neigh_entry {
	int ifindex;
	uint32_t ip;                 /* host order */
	uint16_t state;              /* NUD_* */
	uint8_t mac[RG_MAC_LEN];
	bool has_mac;
	bool found;
};

/* Decode an IPv4 RTM_NEWNEIGH/RTM_DELNEIGH; false for anything else. */
static bool parse_neigh(const struct nlmsghdr *nlh, struct neigh_entry *e)
{
	struct nlattr *tb[NDA_MAX + 1];
	const struct ndmsg *ndm;

	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*ndm)))
		return false;
	ndm = NLMSG_DATA(nlh);
	if (ndm->ndm_family != AF_INET)
		return false;
	if (nlmsg_parse((struct nlmsghdr *)nlh, sizeof(*ndm), tb, NDA_MAX, NULL) < 0)
		return false;
	if (!tb[NDA_DST] || nla_len(tb[NDA_DST]) != sizeof(uint32_t))
		return false;

	memset(e, 0, sizeof(*e));
	e->ifindex = ndm->ndm_ifindex;
	e->ip = ntohl(nla_get_u32(tb[NDA_DST]));
	e->state = ndm->ndm_state;
	if (tb[NDA_LLADDR] && nla_len(tb[NDA_LLADDR]) == RG_MAC_LEN) {
		memcpy(e->mac, nla_data(tb[NDA_LLADDR]), RG_MAC_LEN);
		e->has_mac = true;
	}
	e->found = true;
	return true;
}

static void neigh_reply(const struct nlmsghdr *nlh, void *arg)
{
	if (nlh->nlmsg_type == RTM_NEWNEIGH)
		parse_neigh(nlh, arg);
}

static bool neigh_usable(const struct neigh_entry *e)
{
	return e->found && e->has_mac && (e->state & RG_NUD_USABLE);
}

/* An RTM_*NEIGH request for one IPv4 entry. */
static struct nl_msg *neigh_request(int type, int flags, int ifindex, uint32_t ip,
				    uint16_t state, uint8_t ntf_flags)
{
	struct ndmsg ndm = {
		.ndm_family = AF_INET,
		.ndm_ifindex = ifindex,
		.ndm_state = state,
		.ndm_flags = ntf_flags,
	};
	struct nl_msg *req = nlmsg_alloc_simple(type, flags);

	if (!req)
		return NULL;
	if (nlmsg_append(req, &ndm, sizeof(ndm), NLMSG_ALIGNTO) < 0 ||
	    nla_put_u32(req, NDA_DST, htonl(ip)) < 0) {
		nlmsg_free(req);
		return NULL;
	}
	return req;
}

/* RTM_GETNEIGH of one entry (kernel >= 5.0): -ENOENT when there is none. */
static int neigh_get(struct rg_nl *nl, int ifindex, uint32_t ip, struct neigh_entry *e)
{
	struct nl_msg *req = neigh_request(RTM_GETNEIGH, 0, ifindex, ip, 0, 0);
	int ret;

	memset(e, 0, sizeof(*e));
	if (!req)
		return -ENOMEM;
	ret = nl_transact(nl, nl->rtnl, req, neigh_reply, e);
	nlmsg_free(req);
	if (ret == 0 && !e->found)
		ret = -ENOENT;
	return ret;
}

/*
 * Create the entry if needed and have the kernel start resolving it:
 * NTF_USE runs neigh_event_send(), which sends the ARP request.  State
 * NUD_NONE, because libnl and the kernel would make a PERMANENT entry
 * exempt from garbage collection.
 */
static int neigh_kick(struct rg_nl *nl, int ifindex, uint32_t ip)
{
	struct nl_msg *req = neigh_request(RTM_NEWNEIGH, NLM_F_CREATE, ifindex, ip,
					   NUD_NONE, NTF_USE);
	int ret;

	if (!req)
		return -ENOMEM;
	ret = nl_transact(nl, nl->rtnl, req, NULL, NULL);
	nlmsg_free(req);
	return ret;
}

int rg_nl_neigh_lookup(struct rg_nl *nl, int ifindex, uint32_t ip,
		       uint8_t mac[RG_MAC_LEN])
{
	struct neigh_entry e;
	int ret = neigh_get(nl, ifindex, ip, &e);

	if (ret < 0)
		return ret;
	if (!neigh_usable(&e))
		return -ENOENT;
	memcpy(mac, e.mac, RG_MAC_LEN);
	return 0;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(int64_t ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

int rg_nl_neigh_resolve(struct rg_nl *nl, int ifindex, uint32_t ip,
			uint8_t mac[RG_MAC_LEN], int timeout_ms,
			char *err, size_t err_len)
{
	int64_t deadline = now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
	char ipbuf[INET_ADDRSTRLEN], dev[IF_NAMESIZE + 24];
	struct neigh_entry e;
	int ret;

	rg_ip_str(ip, ipbuf);
	link_str(ifindex, dev);
	ret = neigh_get(nl, ifindex, ip, &e);
	if (ret == 0 && neigh_usable(&e))
		goto found;
	if (ret < 0 && ret != -ENOENT)
		return rg_err(err, err_len, ret, "neighbour %s on %s: %s",
			      ipbuf, dev, strerror(-ret));

	ret = neigh_kick(nl, ifindex, ip);
	if (ret < 0)
		return rg_err(err, err_len, ret, "asking the kernel to resolve %s on %s: %s",
			      ipbuf, dev, strerror(-ret));

	for (;;) {
		int64_t left;

		ret = neigh_get(nl, ifindex, ip, &e);
		if (ret == 0 && neigh_usable(&e))
			goto found;
		if (ret < 0 && ret != -ENOENT)
			return rg_err(err, err_len, ret, "neighbour %s on %s: %s",
				      ipbuf, dev, strerror(-ret));
		if (ret == 0 && (e.state & NUD_FAILED)) {
			rg_set_err(err, err_len,
				   "%s on %s does not answer ARP (neighbour entry FAILED)",
				   ipbuf, dev);
			return -EHOSTUNREACH;
		}
		left = deadline - now_ms();
		if (left <= 0) {
			rg_set_err(err, err_len,
				   "no ARP reply from %s on %s within %d ms",
				   ipbuf, dev, timeout_ms);
			return -ETIMEDOUT;
		}
		sleep_ms(left < RG_RESOLVE_POLL_MS ? left : RG_RESOLVE_POLL_MS);
	}

found:
	memcpy(mac, e.mac, RG_MAC_LEN);
	return 0;
}

/* ---- routes ------------------------------------------------------------ */

struct route_reply {
	int oif;
	bool found;
	uint32_t prefsrc;            /* host order; 0 when the reply has none */
};

static void route_reply(const struct nlmsghdr *nlh, void *arg)
{
	struct route_reply *r = arg;
	struct nlattr *tb[RTA_MAX + 1];

	if (nlh->nlmsg_type != RTM_NEWROUTE ||
	    nlmsg_parse((struct nlmsghdr *)nlh, sizeof(struct rtmsg), tb, RTA_MAX, NULL) < 0)
		return;
	if (tb[RTA_OIF]) {
		r->oif = nla_get_u32(tb[RTA_OIF]);
		r->found = true;
	}
	if (tb[RTA_PREFSRC])
		r->prefsrc = ntohl(nla_get_u32(tb[RTA_PREFSRC]));
}

/* RTM_GETROUTE for dst/32: what `ip route get dst` prints. */
static int route_get(struct rg_nl *nl, uint32_t dst, struct route_reply *r)
{
	struct rtmsg rtm = { .rtm_family = AF_INET, .rtm_dst_len = 32 };
	struct nl_msg *req;
	int ret;

	req = nlmsg_alloc_simple(RTM_GETROUTE, 0);
	if (!req)
		return -ENOMEM;
	if (nlmsg_append(req, &rtm, sizeof(rtm), NLMSG_ALIGNTO) < 0 ||
	    nla_put_u32(req, RTA_DST, htonl(dst)) < 0) {
		nlmsg_free(req);
		return -ENOMEM;
	}
	ret = nl_transact(nl, nl->rtnl, req, route_reply, r);
	nlmsg_free(req);
	if (ret < 0)
		return ret;
	return r->found ? 0 : -ENETUNREACH;
}

int rg_nl_route_get_oif(struct rg_nl *nl, uint32_t dst, int *ifindex)
{
	struct route_reply r = {};
	int ret = route_get(nl, dst, &r);

	if (!ret)
		*ifindex = r.oif;
	return ret;
}

int rg_nl_route_get_src(struct rg_nl *nl, uint32_t dst, uint32_t *src)
{
	struct route_reply r = {};
	int ret = route_get(nl, dst, &r);

	if (!ret && !r.prefsrc)
		ret = -EADDRNOTAVAIL;
	if (!ret)
		*src = r.prefsrc;
	return ret;
}

/* ---- handle ------------------------------------------------------------ */

int rg_nl_open(struct rg_nl **out, char *err, size_t err_len)
{
	struct rg_nl *nl = calloc(1, sizeof(*nl));

	*out = NULL;
	if (!nl) {
		rg_set_err(err, err_len, "netlink: out of memory");
		return -ENOMEM;
	}
	if (rg_nlsock_open(NETLINK_ROUTE, &nl->rtnl, err, err_len) ||
	    rg_nlsock_open(NETLINK_GENERIC, &nl->genl, err, err_len))
		goto fail;
	/* Missing before 6.3: then XDP features are simply unknown. */
	nl->netdev_family = genl_ctrl_resolve(nl->genl, RG_NETDEV_FAMILY_NAME);
	if (nl->netdev_family < 0)
		nl->netdev_family = -1;
	*out = nl;
	return 0;

fail:
	rg_nl_close(nl);
	return -EIO;
}

void rg_nl_close(struct rg_nl *nl)
{
	if (!nl)
		return;
	if (nl->genl)
		nl_socket_free(nl->genl);
	if (nl->rtnl)
		nl_socket_free(nl->rtnl);
	free(nl);
}

/* ---- watch ------------------------------------------------------------- */

static bool parse_link_event(const struct nlmsghdr *nlh, struct rg_nl_event *ev)
{
	struct nlattr *tb[IFLA_MAX + 1];
	const struct ifinfomsg *ifi;

	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*ifi)))
		return false;
	ifi = NLMSG_DATA(nlh);
	/* AF_BRIDGE copies describe bridge ports, not the link itself. */
	if (ifi->ifi_family != AF_UNSPEC)
		return false;
	if (nlmsg_parse((struct nlmsghdr *)nlh, sizeof(*ifi), tb, IFLA_MAX, NULL) < 0)
		return false;

	memset(ev, 0, sizeof(*ev));
	ev->type = nlh->nlmsg_type == RTM_NEWLINK ? RG_NL_LINK_NEW : RG_NL_LINK_DEL;
	ev->ifindex = ifi->ifi_index;
	if (tb[IFLA_IFNAME])
		nla_strlcpy(ev->name, tb[IFLA_IFNAME], sizeof(ev->name));
	if (tb[IFLA_ADDRESS] && nla_len(tb[IFLA_ADDRESS]) == RG_MAC_LEN)
		memcpy(ev->mac, nla_data(tb[IFLA_ADDRESS]), RG_MAC_LEN);
	ev->up = ifi->ifi_flags & IFF_UP;
	ev->oper_up = tb[IFLA_OPERSTATE] &&
		      operstate_is_up(nla_get_u8(tb[IFLA_OPERSTATE]), ifi->ifi_flags);
	if (tb[IFLA_MTU])
		ev->mtu = nla_get_u32(tb[IFLA_MTU]);
	return true;
}

static bool parse_neigh_event(const struct nlmsghdr *nlh, struct rg_nl_event *ev)
{
	struct neigh_entry e;

	if (!parse_neigh(nlh, &e))
		return false;
	memset(ev, 0, sizeof(*ev));
	ev->type = RG_NL_NEIGH_CHANGE;
	ev->ifindex = e.ifindex;
	ev->ip = e.ip;
	memcpy(ev->mac, e.mac, RG_MAC_LEN);
	ev->usable = nlh->nlmsg_type == RTM_NEWNEIGH && neigh_usable(&e);
	return true;
}

static bool event_from_msg(const struct nlmsghdr *nlh, struct rg_nl_event *ev)
{
	switch (nlh->nlmsg_type) {
	case RTM_NEWLINK:
	case RTM_DELLINK:
		return parse_link_event(nlh, ev);
	case RTM_NEWNEIGH:
	case RTM_DELNEIGH:
		return parse_neigh_event(nlh, ev);
	default:
		return false;
	}
}

/*
 * One datagram from the kernel into w->buf.  Returns 1, 0 when none is
 * pending, or -errno.  Datagrams from user space are dropped: only the
 * kernel speaks for the kernel's state.
 */
static int watch_fill(struct rg_nl_watch *w)
{
	struct sockaddr_nl from;
	socklen_t from_len;
	ssize_t n;

	for (;;) {
		from_len = sizeof(from);
		n = recvfrom(nl_socket_get_fd(w->sk), w->buf, RG_WATCH_BUF_LEN, MSG_TRUNC,
			     (struct sockaddr *)&from, &from_len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			return -errno;
		}
		/* A datagram larger than the buffer was cut: an event is lost. */
		if (n > RG_WATCH_BUF_LEN)
			return -ENOBUFS;
		if (from.nl_pid != 0)
			continue;
		w->len = n;
		w->off = 0;
		return 1;
	}
}

int rg_nl_watch_next(struct rg_nl_watch *w, struct rg_nl_event *ev)
{
	int ret;

	for (;;) {
		while (w->off < w->len) {
			struct nlmsghdr *nlh = (struct nlmsghdr *)(w->buf + w->off);
			size_t left = w->len - w->off;

			if (!NLMSG_OK(nlh, left)) {
				w->off = w->len;
				break;
			}
			w->off += NLMSG_ALIGN(nlh->nlmsg_len);
			if (event_from_msg(nlh, ev))
				return 1;
		}
		ret = watch_fill(w);
		if (ret <= 0)
			return ret;
	}
}

int rg_nl_watch_open(struct rg_nl_watch **out, char *err, size_t err_len)
{
	struct rg_nl_watch *w = calloc(1, sizeof(*w));
	int ret;

	*out = NULL;
	if (!w || !(w->buf = malloc(RG_WATCH_BUF_LEN))) {
		rg_set_err(err, err_len, "netlink watch: out of memory");
		free(w);
		return -ENOMEM;
	}
	if (rg_nlsock_open(NETLINK_ROUTE, &w->sk, err, err_len)) {
		rg_nl_watch_close(w);
		return -EIO;
	}
	/* Notifications carry the kernel's sequence numbers, not ours. */
	nl_socket_disable_seq_check(w->sk);
	ret = nl_socket_add_memberships(w->sk, RTNLGRP_LINK, RTNLGRP_NEIGH, 0);
	if (ret == 0)
		ret = nl_socket_set_nonblocking(w->sk);
	if (ret == 0)
		ret = nl_socket_set_buffer_size(w->sk, RG_WATCH_RCVBUF, 0);
	if (ret < 0) {
		rg_set_err(err, err_len, "netlink watch: subscribing to link and neighbour events: %s",
			   nl_geterror(ret));
		rg_nl_watch_close(w);
		return -EIO;
	}
	*out = w;
	return 0;
}

int rg_nl_watch_fd(const struct rg_nl_watch *w)
{
	return nl_socket_get_fd(w->sk);
}

void rg_nl_watch_close(struct rg_nl_watch *w)
{
	if (!w)
		return;
	if (w->sk)
		nl_socket_free(w->sk);
	free(w->buf);
	free(w);
}
