/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The plan: what a validated config means for the maps.  Pure computation
 * from a config plus the node's facts (loader/kernel/facts.h: interfaces,
 * MACs): rg_resolve_plan (resolve.h) decides the node's part, then
 * rg_plan_assemble builds the plan from it at once; the loader then writes
 * it with map_set.  Kept apart from the kernel so that `check` can print it
 * and the unit tests can assert it, on recorded facts too.
 *
 * It lives in loader/, not maps/: its input is the config, and its rules
 * (a rail keeps its id by name across reloads, a supernet's own prefix is
 * the black hole) are config semantics.  The map layer below takes only
 * map-shaped input (rails table, FIB image, egress, representor bindings).
 */
#ifndef RAILGATE_PLAN_H
#define RAILGATE_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <net/if.h>

#include "maps/rg_abi.h"
#include "maps/fib.h"
#include "loader/config/config.h"

/* One representor the plan attaches to. */
struct rg_plan_rep {
	char     name[IF_NAMESIZE];
	int      ifindex;
	uint16_t rail_id;
	uint8_t  mode;               /* enum rg_attach_mode chosen for it */
};

struct rg_plan {
	struct rg_rail   rails[RG_MAX_RAILS];   /* by rail id; flags VALID for used ids */
	struct rg_egress egress;
	struct rg_icmp_conf icmp;               /* source 0: no ICMP answers */
	struct rg_route *routes;                /* rails, supernets, frontend */
	size_t           n_routes;
	struct rg_plan_rep *reps;
	size_t           n_reps;
};

/* Previous rail ids by name, so a reload keeps every surviving rail's id
 * (counters and representor entries stay valid across the flip). */
struct rg_rail_ids {
	char     names[RG_MAX_RAILS][RG_RAIL_NAME_LEN]; /* "" = free */
};

/* One representor the node gives a rail, named by the rail's name: the
 * rail ids are assigned when the plan is assembled. */
struct rg_node_rep {
	char     name[IF_NAMESIZE];
	int      ifindex;
	char     rail[RG_RAIL_NAME_LEN];
	uint8_t  mode;               /* enum rg_attach_mode chosen for it */
};

/*
 * What the node contributes to a plan, all of it decided before the plan
 * is assembled (rg_resolve_plan, resolve.h, from the node's facts): the
 * uplink, the gateway's MAC, the ICMP source and the CPUs the config's
 * rate is split over, every rail's representors with their modes.
 * Plain data; the config gives the rest.
 */
struct rg_node_plan {
	int      uplink_ifindex;
	uint8_t  uplink_mac[6];
	unsigned uplink_mtu;         /* 0: not checked */
	uint8_t  gateway_mac[6];
	uint32_t icmp_source;        /* 0: no ICMP answers */
	unsigned ncpus;              /* at least 1 */
	struct rg_node_rep *reps;    /* in the order they were decided */
	size_t   n_reps;
};

/*
 * The whole plan, in one call: rail ids for cfg's rails (keeping those in
 * prev, when given), the rails table and the route list (rg_plan_build),
 * then egress, ICMP and the representors from node.  0, or -errno with a
 * message and the plan empty.
 */
int rg_plan_assemble(struct rg_plan *plan, const struct rg_config *cfg,
		     const struct rg_node_plan *node, const struct rg_rail_ids *prev,
		     char *err, size_t err_len);

/*
 * The assembler's steps, for `check` and the tests.  Assign rail ids
 * (keeping those in prev, when given) and build the rails table and the
 * route list: the part of a plan the node does not change (`check` prints
 * it).
 */
int rg_plan_build(struct rg_plan *plan, const struct rg_config *cfg,
		  const struct rg_rail_ids *prev, char *err, size_t err_len);
void rg_plan_set_egress(struct rg_plan *plan, int uplink_ifindex,
			const uint8_t uplink_mac[6], const uint8_t gateway_mac[6],
			uint32_t gateway_ip, bool anti_spoof);
/* The uplink's MTU (0: not checked), for the too_big check and its answer. */
void rg_plan_set_uplink_mtu(struct rg_plan *plan, unsigned mtu);
/*
 * The ICMP answers: source (0: none), the node's rate and burst split into
 * ncpus per-CPU buckets that add up to them (each at least 1 while rate is
 * not 0, so a node with more CPUs than rate answers a little more).
 */
void rg_plan_set_icmp(struct rg_plan *plan, uint32_t source, unsigned rate, unsigned burst,
		      unsigned ncpus);
int rg_plan_add_rep(struct rg_plan *plan, const char *name, int ifindex,
		    uint16_t rail_id, enum rg_attach_mode mode, char *err, size_t err_len);
void rg_plan_free(struct rg_plan *plan);

/* Rail id of the rail called name in plan, or -1. */
int rg_plan_rail_id(const struct rg_plan *plan, const char *name);

/* Rail ids from a rails table as the datapath holds it. */
void rg_rail_ids_from_table(struct rg_rail_ids *ids, const struct rg_rail rails[RG_MAX_RAILS]);

#endif /* RAILGATE_PLAN_H */
