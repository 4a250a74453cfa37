/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The routes a pod needs to reach other rails (issue 6, Scenarios 1 and 3):
 * one route per supernet, and per front-end prefix, via the rail's gateway
 * on the pod's rail interface.  Shared by the `railgate-cni` plugin and
 * `railgate route`.
 *
 * Every operation enters the pod's network namespace only long enough to
 * open a netlink socket there (a socket stays bound to the namespace it was
 * created in), then restores the caller's namespace before doing anything
 * else, so an error path can never leave the caller in the pod.
 *
 * Routes railgate adds carry the route protocol RG_POD_ROUTE_PROTO, so that
 * DEL removes exactly what ADD added and nothing an IPAM or an operator put
 * there, even when the config changed in between.
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

#include "loader/config.h"

/* rtm_protocol of the routes railgate adds; shows as "proto 82" in `ip route`
 * (free in linux/rtnetlink.h and iproute2's rt_protos). */
#define RG_POD_ROUTE_PROTO   82

/* Supernets plus front-end prefixes one pod can get. */
#define RG_POD_ROUTES_MAX    32
#define RG_POD_MSG_LEN       320

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

/* The routes one pod interface should have. */
struct rg_pod_plan {
	char     ifname[IF_NAMESIZE];
	uint32_t addr;               /* the pod's rail address on ifname */
	uint32_t gateway;            /* next hop of every route */
	char     rail[RG_RAIL_NAME_LEN]; /* rail name, "" with inline options */
	struct rg_cidr dsts[RG_POD_ROUTES_MAX];
	size_t   n_dsts;
};

/* What an operation did, for results, logs and the CLI. */
struct rg_pod_report {
	enum rg_pod_status status;
	struct rg_cidr done[RG_POD_ROUTES_MAX];   /* added, removed or verified */
	size_t   n_done;
	char     warnings[RG_POD_ROUTES_MAX][RG_POD_MSG_LEN];
	size_t   n_warnings;
};

/* An IPv4 address found in the pod. */
struct rg_pod_addr {
	char     ifname[IF_NAMESIZE];
	uint32_t addr;
	uint8_t  prefix_len;
};

/*
 * Plan from a rail config: the rail whose subnet holds addr gives the
 * gateway; the supernets and computenet.frontend give the prefixes.
 * -EINVAL with a message when addr is in no rail.
 */
int rg_pod_plan_from_config(const struct rg_config *cfg, const char *ifname,
			    uint32_t addr, struct rg_pod_plan *plan,
			    char *err, size_t errlen);

/*
 * Plan from inline options (CNI `supernets`/`gateway`/`frontend`, CLI
 * `--supernet`/`--gateway`/`--frontend`): addr must lie in a supernet, the
 * gateway too, and never equal addr.
 */
int rg_pod_plan_inline(const struct rg_cidr *supernets, size_t n_supernets,
		       const struct rg_cidr *frontend, size_t n_frontend,
		       uint32_t gateway, const char *ifname, uint32_t addr,
		       struct rg_pod_plan *plan, char *err, size_t errlen);

/* Open a network namespace: a path (CNI_NETNS), /run/netns/NAME or
 * /proc/PID/ns/net.  Returns an fd or -errno. */
int rg_pod_netns_open(const char *path, char *err, size_t errlen);
int rg_pod_netns_path_by_name(const char *name, char *buf, size_t len);
int rg_pod_netns_path_by_pid(long pid, char *buf, size_t len);

/* The IPv4 addresses in the namespace (on ifname only, unless it is NULL
 * or ""), up to max.  Returns how many, or -errno. */
int rg_pod_list_addrs(int netns_fd, const char *ifname,
		      struct rg_pod_addr *out, size_t max,
		      char *err, size_t errlen);

/*
 * ADD: refuse (or with RG_POD_CONFLICT_WARN, skip with a warning) planned
 * prefixes the pod already routes another way, or all of them when a
 * default route via the rail interface would capture rail traffic; then add
 * the rest.  A route already present exactly as planned is kept and not
 * counted as added.  If one add fails, the routes added so far are removed
 * again: the pod ends as it was.  Never adds a default route.
 */
int rg_pod_routes_add(int netns_fd, const struct rg_pod_plan *plan,
		      enum rg_pod_conflict_policy policy,
		      struct rg_pod_report *rep, char *err, size_t errlen);

/* CHECK: every planned route is present via plan->gateway on plan->ifname,
 * and (with RG_POD_CONFLICT_ERROR) nothing conflicts with them. */
int rg_pod_routes_check(int netns_fd, const struct rg_pod_plan *plan,
			enum rg_pod_conflict_policy policy,
			struct rg_pod_report *rep, char *err, size_t errlen);

/* DEL: remove every route railgate added on ifname (RG_POD_ROUTE_PROTO).
 * Idempotent: 0 when there is none, or when ifname is gone. */
int rg_pod_routes_del(int netns_fd, const char *ifname,
		      struct rg_pod_report *rep, char *err, size_t errlen);

#endif /* RAILGATE_POD_ROUTES_H */
