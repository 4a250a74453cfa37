/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * What the node is, gathered in one pass before anything is decided: the
 * facts a config's plan is built from (loader/plan/resolve.h) with no I/O
 * of its own.  Gathering asks the kernel what the config needs and nothing
 * more:
 *
 *   - every link, with the XDP features its driver announces (the one
 *     link dump of netlink.h);
 *   - the route toward computenet.gateway: the interface it leaves by
 *     (uplink: auto) and the source address it picks (no icmpSource);
 *   - the gateway's neighbour entry on the uplink, resolved when the
 *     table lacks it (no gatewayMAC);
 *   - sysfs's netdevs, when a rail selects its representors by pf;
 *   - whether the kernel has tcx, the possible CPUs;
 *   - RAILGATE_TC_ATTACH and the sysfs root as this process has them.
 *
 * A question the kernel answers with an error is a fact too: the answer is
 * recorded (ret, and the message where there is one) and the plan reports
 * it where the config needs it, so errors read and come in the same order
 * whether the facts were just gathered or read back from a file.
 *
 * The type is plain data (no sockets, no handles): it is written to and
 * read from JSON (facts_json.h, docs/testing.md "Recorded facts"), so the
 * plan's tests run on a node's recorded facts without root or a kernel.
 */
#ifndef RAILGATE_FACTS_H
#define RAILGATE_FACTS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loader/config/config.h"
#include "loader/kernel/link_table.h"
#include "loader/kernel/switchdev.h"

/* How long gathering waits for the gateway's ARP answer. */
#define RG_GATEWAY_RESOLVE_MS 2000

struct rg_nl;                /* loader/kernel/netlink.h: gathering asks through one */

/* RAILGATE_TC_ATTACH, when set and not empty, replaces the config's
 * datapath.tcAttach for this process ("tcx", "clsact" or "auto"), as
 * `up --mode` replaces datapath.mode: the tests force clsact on a kernel
 * with tcx with it, and an operator can try the other flavour without
 * editing the ConfigMap.  Gathered with the facts, so the plan reads no
 * environment. */
#define RG_TC_ATTACH_ENV  "RAILGATE_TC_ATTACH"

#define RG_FACT_WHY_LEN 256

/* `ip route get dst`: the interface (rg_nl_route_get_oif). */
struct rg_route_oif_fact {
	bool     asked;
	uint32_t dst;
	int      ret;                /* 0, or the -errno of the lookup */
	int      ifindex;
};

/* `ip route get dst`: the source address (rg_nl_route_get_src). */
struct rg_route_src_fact {
	bool     asked;
	uint32_t dst;
	int      ret;
	uint32_t src;
};

/* The neighbour ip on ifindex, resolved when needed (rg_nl_neigh_resolve). */
struct rg_neigh_fact {
	bool     asked;
	int      ifindex;
	uint32_t ip;
	int      ret;
	uint8_t  mac[RG_MAC_LEN];
	char     why[RG_FACT_WHY_LEN];   /* the resolver's message when ret is not 0 */
};

/* sysfs's netdevs under root (rg_switchdev_read). */
struct rg_sysfs_fact {
	bool     asked;
	char     root[PATH_MAX];
	int      ret;
	char     why[512];
	struct rg_netdevs netdevs;   /* empty unless ret is 0 */
};

struct rg_node_facts {
	int      links_ret;          /* the link dump: 0, or -errno (links empty) */
	struct rg_link_table links;  /* sorted by name */
	struct rg_route_oif_fact route_oif;
	struct rg_route_src_fact route_src;
	struct rg_neigh_fact gateway;
	struct rg_sysfs_fact sysfs;
	bool     kernel_has_tcx;     /* rg_kernel_has_tcx */
	int      ncpus;              /* libbpf_num_possible_cpus(): -errno when unknown */
	char     tc_attach_env[256]; /* RG_TC_ATTACH_ENV; "" when unset */
};

/*
 * Gather what cfg needs to know about the node nl is open in.  Every
 * answer, error or not (out of memory too), lands in *f: gathering itself
 * cannot fail.  Free with rg_facts_free.
 */
void rg_facts_gather(struct rg_nl *nl, const struct rg_config *cfg, struct rg_node_facts *f);
void rg_facts_free(struct rg_node_facts *f);

/*
 * The uplink cfg names, as the facts show it: the link of that name or,
 * for `uplink: auto`, the link the route to the gateway leaves by.  NULL
 * when there is none (or the route was not answered).  Pure.
 */
const struct rg_link_info *rg_facts_uplink(const struct rg_node_facts *f,
					   const struct rg_config *cfg);

#endif /* RAILGATE_FACTS_H */
