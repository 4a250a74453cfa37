// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* One pass over the node: see facts.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "loader/kernel/attach.h"
#include "loader/kernel/facts.h"
#include "loader/kernel/netlink.h"

static bool any_rail_by_pf(const struct rg_config *cfg)
{
	for (size_t i = 0; i < cfg->n_rails; i++)
		if (cfg->rails[i].pf[0])
			return true;
	return false;
}

const struct rg_link_info *rg_facts_uplink(const struct rg_node_facts *f,
					   const struct rg_config *cfg)
{
	if (!cfg->computenet.uplink_discover)
		return rg_link_table_by_name(&f->links, cfg->computenet.uplink);
	if (!f->route_oif.asked || f->route_oif.ret ||
	    f->route_oif.dst != cfg->computenet.gateway)
		return NULL;
	return rg_link_table_by_index(&f->links, f->route_oif.ifindex);
}

static void ask_route_oif(struct rg_nl *nl, uint32_t dst, struct rg_route_oif_fact *a)
{
	a->asked = true;
	a->dst = dst;
	a->ret = rg_nl_route_get_oif(nl, dst, &a->ifindex);
}

static void ask_route_src(struct rg_nl *nl, uint32_t dst, struct rg_route_src_fact *a)
{
	a->asked = true;
	a->dst = dst;
	a->ret = rg_nl_route_get_src(nl, dst, &a->src);
}

static void ask_neigh(struct rg_nl *nl, int ifindex, uint32_t ip, struct rg_neigh_fact *a)
{
	a->asked = true;
	a->ifindex = ifindex;
	a->ip = ip;
	a->ret = rg_nl_neigh_resolve(nl, ifindex, ip, a->mac, RG_GATEWAY_RESOLVE_MS,
				     a->why, sizeof(a->why));
}

static void ask_sysfs(struct rg_sysfs_fact *a)
{
	struct rg_netdevs *nd = NULL;

	a->asked = true;
	snprintf(a->root, sizeof(a->root), "%s", rg_sysfs_root());
	a->ret = rg_switchdev_read(a->root, &nd, a->why, sizeof(a->why));
	if (nd) {
		a->netdevs = *nd;
		free(nd);
	}
}

/* What the route toward the gateway and the uplink's neighbour say, as far
 * as cfg asks: a gateway MAC of its own asks no neighbour, an icmpSource
 * of its own no source address. */
static void ask_uplink(struct rg_nl *nl, const struct rg_config *cfg, struct rg_node_facts *f)
{
	uint32_t gw = cfg->computenet.gateway;
	const struct rg_link_info *up;

	if (cfg->computenet.uplink_discover)
		ask_route_oif(nl, gw, &f->route_oif);
	up = rg_facts_uplink(f, cfg);
	/* an uplink the datapath cannot hold fails the plan before its
	 * gateway is looked at: no ARP request for it either */
	if (up && up->ifindex < RG_MAX_IFINDEX && !cfg->computenet.has_gateway_mac)
		ask_neigh(nl, up->ifindex, gw, &f->gateway);
	if (!cfg->computenet.icmp_source)
		ask_route_src(nl, gw, &f->route_src);
}

void rg_facts_gather(struct rg_nl *nl, const struct rg_config *cfg, struct rg_node_facts *f)
{
	const char *env = getenv(RG_TC_ATTACH_ENV);

	memset(f, 0, sizeof(*f));
	snprintf(f->tc_attach_env, sizeof(f->tc_attach_env), "%s", env ? env : "");
	f->ncpus = libbpf_num_possible_cpus();
	f->kernel_has_tcx = rg_kernel_has_tcx(0);
	/* one snapshot of the node's links for every name, glob and PF */
	f->links_ret = rg_nl_link_table(nl, &f->links);
	if (f->links_ret)
		return;               /* the plan stops at it: nothing else to ask */
	ask_uplink(nl, cfg, f);
	if (any_rail_by_pf(cfg))
		ask_sysfs(&f->sysfs);
}

void rg_facts_free(struct rg_node_facts *f)
{
	rg_link_table_free(&f->links);
	free(f->sysfs.netdevs.all);
	f->sysfs.netdevs.all = NULL;
	f->sysfs.netdevs.n = 0;
}
