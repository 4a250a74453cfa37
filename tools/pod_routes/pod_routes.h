/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Pod routing (Scenarios 1 and 3, and the multi-VF pod): for ONE rail
 * interface of a pod, whatever the number of rails the pod holds,
 *   - its own routing table (tableBase + the rail's index in the RailConfig)
 *     holding the rail's connected subnet with src = the interface's address,
 *     and every supernet and front-end prefix via the rail's gateway;
 *   - a rule "from ADDR/32 lookup TABLE" at rulePriority + the same index,
 *     above main: a socket bound to the rail's address leaves by that rail;
 *   - the same supernet and front-end routes in main on that interface with
 *     metric RG_POD_METRIC_BASE + index: unbound sockets use the lowest rail,
 *     and device-bound lookups (SO_BINDTODEVICE, RDMA's route resolution
 *     with the bound device) find a route on their own interface;
 *   - rp_filter loose (2), arp_ignore 1 and arp_announce 2 on the interface,
 *     as multi-homed hosts need.
 * Shared by the `railgate-cni` plugin and `railgate route`.
 *
 * Every operation enters the pod's network namespace only long enough to
 * open a netlink socket there (or write a sysctl), then restores the
 * caller's namespace before doing anything else, so an error path can never
 * leave the caller in the pod.
 *
 * Routes and rules railgate adds carry the protocol RG_POD_ROUTE_PROTO, so
 * that DEL and CHECK find them by protocol, interface and address, never by
 * recomputing ids, and never touch what an IPAM or an operator put there.
 *
 * Addresses are host byte order.  Nothing here prints: errors come back as
 * -errno with a human message in err, warnings in the report.
 */
#ifndef RAILGATE_POD_ROUTES_H
#define RAILGATE_POD_ROUTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <net/if.h>

#include "loader/config/config.h"

/* rtm_protocol / FRA_PROTOCOL of the routes and rules railgate adds; shows
 * as "proto 82" in `ip route` and `ip rule` (free in linux/rtnetlink.h and
 * iproute2's rt_protos). */
#define RG_POD_ROUTE_PROTO   82

/* Defaults of the CNI keys tableBase and rulePriority (CLI --table-base,
 * --rule-priority): rail i gets table 1000 + i and rule priority 1000 + i,
 * above main (32766).  Main-table routes get metric 1000 + i. */
#define RG_POD_TABLE_BASE    1000
#define RG_POD_RULE_PRIORITY 1000
#define RG_POD_METRIC_BASE   1000
/* How far ADD with onConflict warn looks for a free table id. */
#define RG_POD_TABLE_SEARCH  1024

/* Supernets plus front-end prefixes one pod can get. */
#define RG_POD_ROUTES_MAX    32
#define RG_POD_MSG_LEN       320
/* A report holds main and table routes: twice the prefixes, plus the
 * connected subnet. */
#define RG_POD_REPORT_MAX    (2 * RG_POD_ROUTES_MAX + 1)

/* What to do when the pod already routes a planned prefix another way. */
enum rg_pod_conflict_policy {
	RG_POD_CONFLICT_ERROR = 0,   /* refuse, change nothing */
	RG_POD_CONFLICT_WARN,        /* leave that prefix alone, warn, go on */
};

/* Why an operation failed, beyond -errno: lets callers pick an exit code. */
enum rg_pod_status {
	RG_POD_OK = 0,
	RG_POD_ERR_INPUT,            /* the plan or its inputs are invalid */
	RG_POD_ERR_NETNS,            /* the namespace cannot be opened/entered */
	RG_POD_ERR_NO_DEV,           /* the interface is not in the namespace */
	RG_POD_ERR_CONFLICT,         /* the pod routes a planned prefix another way */
	RG_POD_ERR_MISSING,          /* CHECK: a planned route is absent or differs */
	RG_POD_ERR_NETLINK,          /* the kernel refused */
};

/* Inline rail options, instead of a rail config: CNI keys supernets,
 * gateway and frontend; CLI --supernet, --gateway and --frontend. */
struct rg_pod_inline {
	struct rg_cidr supernets[RG_POD_ROUTES_MAX];
	size_t   n_supernets;
	struct rg_cidr frontend[RG_POD_ROUTES_MAX];
	size_t   n_frontend;
	bool     has_gateway;
	uint32_t gateway;
};

/* How the per-rail ids are numbered (CNI keys tableBase, rulePriority,
 * table; CLI --table-base, --rule-priority, --table). */
struct rg_pod_numbering {
	uint32_t table_base;         /* RG_POD_TABLE_BASE unless set */
	uint32_t rule_priority;      /* RG_POD_RULE_PRIORITY unless set */
	bool     has_table;          /* inline only: the table of this rail */
	uint32_t table;
};

/* Everything one rail interface of a pod should have. */
struct rg_pod_plan {
	char     ifname[IF_NAMESIZE];
	uint32_t addr;               /* the pod's rail address on ifname */
	struct rg_cidr subnet;       /* the rail's connected subnet */
	uint32_t gateway;            /* next hop of every supernet/front-end route */
	char     rail[RG_RAIL_NAME_LEN]; /* rail name, "" with inline options */
	uint32_t index;              /* the rail's index in the RailConfig;
				      * inline: table - tableBase (0 if below) */
	uint32_t table;              /* its own routing table */
	uint32_t rule_priority;      /* of "from addr/32 lookup table" */
	uint32_t metric;             /* of its routes in main */
	struct rg_cidr dsts[RG_POD_ROUTES_MAX]; /* supernets first, then front-end */
	size_t   n_dsts;
	size_t   n_supernets;
};

/* One route railgate added, removed or verified. */
struct rg_pod_route {
	struct rg_cidr dst;
	uint32_t gateway;            /* 0: the connected subnet (scope link, src addr) */
	uint32_t src;                /* prefsrc, or 0 */
	uint32_t table;              /* RT_TABLE_MAIN (254) or the rail's table */
	uint32_t metric;
};

/* What an operation did, for results, logs and the CLI. */
struct rg_pod_report {
	enum rg_pod_status status;
	struct rg_pod_route done[RG_POD_REPORT_MAX];  /* added, removed or verified */
	size_t   n_done;
	uint32_t table;              /* ADD/CHECK: the table in use */
	size_t   n_rules;            /* rules added, removed or verified */
	char     warnings[RG_POD_ROUTES_MAX][RG_POD_MSG_LEN];
	size_t   n_warnings;
	/* ADD/CHECK: the first route in main that conflicts with the plan, as
	 * `ip route del` takes it ("default via 10.0.0.1 dev net0",
	 * "blackhole 10.0.0.0/16"); "" when none or a multipath route. */
	char     conflict[RG_POD_MSG_LEN];
	bool     conflict_default;   /* it is a default route */
	uint32_t conflict_gw;        /* its gateway, 0 when none */
};

/* An IPv4 address found in the pod. */
struct rg_pod_addr {
	char     ifname[IF_NAMESIZE];
	int      ifindex;
	uint32_t addr;
	uint8_t  prefix_len;
};

/* tableBase and rulePriority at their defaults, no table. */
void rg_pod_numbering_default(struct rg_pod_numbering *num);

/*
 * Plan from a rail config: the rail whose subnet holds addr gives the
 * gateway, the connected subnet and the index; the supernets and
 * computenet.frontend give the prefixes.  -EINVAL with a message when addr
 * is in no rail.  num->has_table is refused: the config numbers the rails.
 */
int rg_pod_plan_from_config(const struct rg_config *cfg, const struct rg_pod_numbering *num,
			    const char *ifname, uint32_t addr, struct rg_pod_plan *plan,
			    char *err, size_t err_len);

/*
 * Plan from inline options (CNI `supernets`/`gateway`/`frontend`/`table`,
 * CLI `--supernet`/`--gateway`/`--frontend`/`--table`): addr (with its
 * prefix length, the connected subnet) must lie in a supernet, the gateway
 * (in->gateway, or the IPAM's the caller passes) too, and never equal addr.  Without a table, the rail
 * gets tableBase.
 */
int rg_pod_plan_inline(const struct rg_pod_inline *in, uint32_t gateway,
		       const struct rg_pod_numbering *num,
		       const char *ifname, uint32_t addr, uint8_t prefix_len,
		       struct rg_pod_plan *plan, char *err, size_t err_len);

/*
 * Route the pod back to src, the source of railgate's ICMP errors, through
 * the rail (in the rail's table and main, like a front-end prefix), so that
 * it accepts Time Exceeded and Fragmentation Needed with rp_filter 0, 1 or
 * 2.  Nothing when src is 0 or already covered by a route of the plan or
 * the rail's own subnet.
 */
int rg_pod_plan_add_icmp_source(struct rg_pod_plan *plan, uint32_t src, char *err,
				size_t err_len);

/*
 * The source of railgate's ICMP errors as the node has it, run in the
 * node's network namespace (railgate-cni, `railgate route`):
 * computenet.icmpSource, else the node's address in the connected subnet
 * of computenet.gateway (the uplink's, the datapath's default); 0 when
 * there is none.
 */
uint32_t rg_pod_icmp_source(const struct rg_config *cfg);

/* Append extra front-end prefixes (CLI --frontend beside -c). */
int rg_pod_plan_add_frontend(struct rg_pod_plan *plan, const struct rg_cidr *c, size_t n,
			     char *err, size_t err_len);

/* Open a network namespace: a path (CNI_NETNS), /run/netns/NAME or
 * /proc/PID/ns/net, never blocking (a FIFO is refused, not waited on).
 * Returns an fd or -errno; -EINVAL when the file is no network namespace. */
int rg_pod_netns_open(const char *path, char *err, size_t err_len);
int rg_pod_netns_path_by_name(const char *name, char *buf, size_t len);
int rg_pod_netns_path_by_pid(long pid, char *buf, size_t len);

/* The IPv4 addresses in the namespace (on ifname only, unless it is NULL
 * or ""), up to max.  Returns how many, or -errno. */
int rg_pod_list_addrs(int netns_fd, const char *ifname,
		      struct rg_pod_addr *out, size_t max,
		      char *err, size_t err_len);

/*
 * ADD, for plan->ifname alone (other rail interfaces of the pod are left as
 * they are; Multus adds them one chain at a time, in any order).
 *   main: refuse (RG_POD_CONFLICT_WARN: skip with a warning) planned prefixes
 *   the pod routes another way: through a non-rail next hop, a blackhole,
 *   or a default route via the rail interface.  Routes of the pod's other
 *   rail interfaces (railgate's, or via a gateway inside a supernet, as an
 *   IPAM adds them) are not conflicts: policy routing keeps each rail apart.
 *   A route already present via the rail's gateway on the interface (an
 *   IPAM's) is kept, not duplicated.
 *   table: a table holding routes that are not railgate's on this interface
 *   is refused (code 100 in the CNI), or with WARN the next free id is taken.
 * Sysctls first, the rule last; if one change fails, what this call added
 * is removed again (routes and rule; the sysctls stay).  Never adds a
 * default route.
 */
int rg_pod_routes_add(int netns_fd, const struct rg_pod_plan *plan,
		      enum rg_pod_conflict_policy policy,
		      struct rg_pod_report *rep, char *err, size_t err_len);

/* CHECK: the rule from plan->addr (found by protocol and address) exists and
 * its table holds the connected subnet and every planned prefix via the
 * gateway on plan->ifname; main holds the planned prefixes on plan->ifname;
 * rp_filter is loose; and (with RG_POD_CONFLICT_ERROR) nothing conflicts. */
int rg_pod_routes_check(int netns_fd, const struct rg_pod_plan *plan,
			enum rg_pod_conflict_policy policy,
			struct rg_pod_report *rep, char *err, size_t err_len);

/*
 * DEL: remove what railgate added for ifname: its RG_POD_ROUTE_PROTO routes
 * in every table, and the RG_POD_ROUTE_PROTO rules from its addresses (the
 * interface's own, plus addrs[], e.g. from the CNI prevResult).  When ifname
 * is gone (its routes went with it), railgate rules whose source address
 * no interface of the pod holds any more are removed too (only those in
 * addrs[] when addrs are given).  Idempotent: 0 when there is nothing.
 */
int rg_pod_routes_del(int netns_fd, const char *ifname,
		      const uint32_t *addrs, size_t n_addrs,
		      struct rg_pod_report *rep, char *err, size_t err_len);

/* "10.0.0.0/16 via 10.0.0.1 dev net1 metric 1000 table main", as
 * `ip route` would name it (table "main" or its id). */
const char *rg_pod_route_str(const struct rg_pod_route *r, const char *ifname,
			     char *buf, size_t len);

#endif /* RAILGATE_POD_ROUTES_H */
