/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The pod as railgate sees it through one netlink socket opened inside the
 * pod's network namespace: its interfaces, IPv4 addresses, routes of every
 * table and IPv4 policy rules, read once per operation; and the few kernel
 * changes pod routing makes (a route, a rule, an interface sysctl).
 * Internal to tools/pod_routes/.
 */
#ifndef RAILGATE_POD_VIEW_H
#define RAILGATE_POD_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tools/pod_routes/pod_routes.h"

/* One IPv4 route, reduced to what the judgements compare. */
struct pod_route {
	struct rg_cidr dst;
	uint32_t table;
	uint32_t metric;
	bool     has_gw;
	uint32_t gw;
	uint32_t prefsrc;            /* 0 when none */
	int      oif;                /* 0 when none or multipath */
	bool     multipath;
	uint8_t  proto;
	uint8_t  scope;
	uint8_t  type;               /* RTN_UNICAST, RTN_BLACKHOLE, ... */
};

/* One IPv4 policy rule. */
struct pod_rule {
	struct rg_cidr src;          /* len 0: from all */
	uint32_t table;
	uint32_t priority;
	uint8_t  proto;
	bool     plain;              /* "from SRC lookup TABLE" and nothing else */
};

struct pod_view {
	struct nl_sock  *sk;
	struct nl_cache *links;
	struct pod_route *routes;
	size_t n_routes;
	struct pod_rule *rules;
	size_t n_rules;
	struct rg_pod_addr *addrs;
	size_t n_addrs;
};

int  pod_view_open(int netns_fd, struct pod_view *v, char *err, size_t err_len);
void pod_view_close(struct pod_view *v);

int  pod_view_ifindex(struct pod_view *v, const char *ifname);
const char *pod_view_ifname(struct pod_view *v, int ifindex, char *buf, size_t len);
bool pod_view_has_addr(const struct pod_view *v, int ifindex, uint32_t addr);
/* Whether any interface of the pod holds addr. */
bool pod_view_addr_held(const struct pod_view *v, uint32_t addr);

/* "via 10.0.0.1 dev net1", "dev net1", "blackhole", "multipath" */
const char *pod_view_describe(struct pod_view *v, const struct pod_route *r,
			      char *buf, size_t len);

/* "main" or the table's id. */
const char *pod_table_name(uint32_t table, char *buf, size_t len);

/* Kernel changes, all tagged RG_POD_ROUTE_PROTO.  A route with gw 0 is the
 * connected subnet (scope link, prefsrc src).  -ENOENT when a delete finds
 * nothing, -EIO with the kernel's reason otherwise. */
int pod_route_change(struct nl_sock *sk, bool add, const struct rg_pod_route *r,
		     int oif, const char *ifname, char *err, size_t err_len);
int pod_rule_change(struct nl_sock *sk, bool add, uint32_t src, uint32_t table,
		    uint32_t priority, char *err, size_t err_len);

/* Write net.ipv4.conf.IFNAME.KEY = value inside the pod's namespace. */
int pod_sysctl_set(int netns_fd, const char *ifname, const char *key, int value,
		   char *err, size_t err_len);
int pod_sysctl_get(int netns_fd, const char *ifname, const char *key, int *value,
		   char *err, size_t err_len);

#endif /* RAILGATE_POD_VIEW_H */
