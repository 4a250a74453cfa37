// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Config -> map contents.  See plan.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/plan/plan.h"
#include "lib/errbuf.h"

void rg_rail_ids_from_table(struct rg_rail_ids *ids, const struct rg_rail rails[RG_MAX_RAILS])
{
	memset(ids, 0, sizeof(*ids));
	for (int i = 0; i < RG_MAX_RAILS; i++) {
		if (!(rails[i].flags & RG_RAIL_F_VALID))
			continue;
		memcpy(ids->names[i], rails[i].name, RG_RAIL_NAME_LEN);
		ids->names[i][RG_RAIL_NAME_LEN - 1] = '\0';
	}
}

static int prev_id_of(const struct rg_rail_ids *prev, const char *name)
{
	if (!prev)
		return -1;
	for (int i = 0; i < RG_MAX_RAILS; i++)
		if (prev->names[i][0] && strcmp(prev->names[i], name) == 0)
			return i;
	return -1;
}

/*
 * Surviving rails keep their previous id; new rails take the lowest id
 * that neither a surviving rail nor a rail removed in this reload holds,
 * so a counter slot is not reused by another rail while the old
 * generation may still be read.  Falls back to any free id when full.
 */
static int assign_rail_ids(const struct rg_config *cfg, const struct rg_rail_ids *prev,
			   int *ids, char *err, size_t err_len)
{
	bool taken[RG_MAX_RAILS] = { false };
	bool was_used[RG_MAX_RAILS] = { false };

	for (size_t i = 0; i < cfg->n_rails; i++) {
		ids[i] = prev_id_of(prev, cfg->rails[i].name);
		if (ids[i] >= 0)
			taken[ids[i]] = true;
	}
	for (int i = 0; prev && i < RG_MAX_RAILS; i++)
		was_used[i] = prev->names[i][0] != '\0';

	for (size_t i = 0; i < cfg->n_rails; i++) {
		if (ids[i] >= 0)
			continue;
		for (int pass = 0; pass < 2 && ids[i] < 0; pass++) {
			for (int id = 0; id < RG_MAX_RAILS; id++) {
				if (taken[id] || (pass == 0 && was_used[id]))
					continue;
				ids[i] = id;
				taken[id] = true;
				break;
			}
		}
		if (ids[i] < 0) {
			snprintf(err, err_len, "no free rail id for rail '%s' (at most %d rails)",
				 cfg->rails[i].name, RG_MAX_RAILS);
			return -E2BIG;
		}
	}
	return 0;
}

static int routes_push(struct rg_plan *plan, size_t *cap, struct rg_cidr c, uint32_t entry)
{
	if (plan->n_routes == *cap) {
		size_t ncap = *cap ? *cap * 2 : 64;
		struct rg_route *r = realloc(plan->routes, ncap * sizeof(*r));

		if (!r)
			return -ENOMEM;
		plan->routes = r;
		*cap = ncap;
	}
	plan->routes[plan->n_routes++] = (struct rg_route){
		.addr = c.addr, .len = c.len, .entry = entry,
	};
	return 0;
}

int rg_plan_build(struct rg_plan *plan, const struct rg_config *cfg,
		  const struct rg_rail_ids *prev, char *err, size_t err_len)
{
	int ids[RG_MAX_RAILS];
	size_t cap = 0;
	int ret;

	memset(plan, 0, sizeof(*plan));
	if (cfg->n_rails > RG_MAX_RAILS) {
		snprintf(err, err_len, "%zu rails, at most %d supported", cfg->n_rails, RG_MAX_RAILS);
		return -E2BIG;
	}
	ret = assign_rail_ids(cfg, prev, ids, err, err_len);
	if (ret)
		return ret;

	for (size_t i = 0; i < cfg->n_rails; i++) {
		const struct rg_config_rail *cr = &cfg->rails[i];
		struct rg_rail *r = &plan->rails[ids[i]];

		r->subnet = cr->subnet.addr;
		r->mask = rg_prefix_mask(cr->subnet.len);
		r->flags = RG_RAIL_F_VALID;
		if (cr->vlan > 0) {
			r->vlan = (uint16_t)cr->vlan;
			r->flags |= RG_RAIL_F_VLAN;
		}
		r->mtu = cr->mtu > 0 ? (uint32_t)cr->mtu : 0;
		snprintf(r->name, sizeof(r->name), "%s", cr->name);
		ret = routes_push(plan, &cap, cr->subnet, RG_ROUTE(RG_ROUTE_RAIL, ids[i]));
		if (ret)
			goto fail;
	}
	/* A supernet's own prefix is the black hole: inside it but in no rail. */
	for (size_t i = 0; i < cfg->n_supernets; i++) {
		ret = routes_push(plan, &cap, cfg->supernets[i], RG_ROUTE(RG_ROUTE_BLACKHOLE, 0));
		if (ret)
			goto fail;
	}
	for (size_t i = 0; i < cfg->computenet.n_frontend; i++) {
		ret = routes_push(plan, &cap, cfg->computenet.frontend[i],
				  RG_ROUTE(RG_ROUTE_FRONTEND, 0));
		if (ret)
			goto fail;
	}
	return 0;
fail:
	snprintf(err, err_len, "out of memory building the route list");
	rg_plan_free(plan);
	return ret;
}

void rg_plan_set_egress(struct rg_plan *plan, int uplink_ifindex,
			const uint8_t uplink_mac[6], const uint8_t gateway_mac[6],
			uint32_t gateway_ip, bool anti_spoof)
{
	struct rg_egress *e = &plan->egress;

	memset(e, 0, sizeof(*e));
	e->uplink_ifindex = (uint32_t)uplink_ifindex;
	memcpy(e->uplink_mac, uplink_mac, 6);
	memcpy(e->gateway_mac, gateway_mac, 6);
	e->gateway_ip = gateway_ip;
	e->flags = RG_EGRESS_F_VALID | (anti_spoof ? RG_EGRESS_F_ANTI_SPOOF : 0);
}

void rg_plan_set_uplink_mtu(struct rg_plan *plan, unsigned mtu)
{
	plan->egress.uplink_mtu = mtu;
}

/* share of total for one of n CPUs, at least 1 when total is not 0 */
static uint32_t per_cpu_share(unsigned total, unsigned n)
{
	unsigned share = n ? total / n : total;

	return total && !share ? 1 : share;
}

void rg_plan_set_icmp(struct rg_plan *plan, uint32_t source, unsigned rate, unsigned burst,
		      unsigned ncpus)
{
	memset(&plan->icmp, 0, sizeof(plan->icmp));
	plan->icmp.source = source;
	plan->icmp.cpu_rate = per_cpu_share(rate, ncpus);
	plan->icmp.cpu_burst = rate ? per_cpu_share(burst, ncpus) : 0;
}

int rg_plan_add_rep(struct rg_plan *plan, const char *name, int ifindex,
		    uint16_t rail_id, enum rg_attach_mode mode, char *err, size_t err_len)
{
	struct rg_plan_rep *reps;

	if (ifindex <= 0 || ifindex >= RG_MAX_IFINDEX) {
		snprintf(err, err_len, "%s: ifindex %d is outside the datapath's table (1..%d)",
			 name, ifindex, RG_MAX_IFINDEX - 1);
		return -ERANGE;
	}
	for (size_t i = 0; i < plan->n_reps; i++) {
		if (plan->reps[i].ifindex == ifindex) {
			snprintf(err, err_len, "%s matches the representors of two rails (%s and %s)",
				 name, plan->rails[plan->reps[i].rail_id].name,
				 plan->rails[rail_id].name);
			return -EINVAL;
		}
	}
	reps = realloc(plan->reps, (plan->n_reps + 1) * sizeof(*reps));
	if (!reps) {
		snprintf(err, err_len, "out of memory");
		return -ENOMEM;
	}
	plan->reps = reps;
	memset(&reps[plan->n_reps], 0, sizeof(reps[0]));
	snprintf(reps[plan->n_reps].name, IF_NAMESIZE, "%s", name);
	reps[plan->n_reps].ifindex = ifindex;
	reps[plan->n_reps].rail_id = rail_id;
	reps[plan->n_reps].mode = (uint8_t)mode;
	plan->n_reps++;
	return 0;
}

int rg_plan_rail_id(const struct rg_plan *plan, const char *name)
{
	for (int i = 0; i < RG_MAX_RAILS; i++)
		if ((plan->rails[i].flags & RG_RAIL_F_VALID) && strcmp(plan->rails[i].name, name) == 0)
			return i;
	return -1;
}

/* A representor the node decided, under the id its rail was given. */
static int place_rep(struct rg_plan *plan, const struct rg_node_rep *rep, char *err,
		     size_t err_len)
{
	int rail_id = rg_plan_rail_id(plan, rep->rail);

	if (rail_id < 0)
		return rg_err(err, err_len, -EINVAL, "%s: no rail %s in the plan", rep->name, rep->rail);
	return rg_plan_add_rep(plan, rep->name, rep->ifindex, (uint16_t)rail_id, rep->mode,
			       err, err_len);
}

int rg_plan_assemble(struct rg_plan *plan, const struct rg_config *cfg,
		     const struct rg_node_plan *node, const struct rg_rail_ids *prev,
		     char *err, size_t err_len)
{
	int ret = rg_plan_build(plan, cfg, prev, err, err_len);

	if (ret)
		return ret;
	rg_plan_set_egress(plan, node->uplink_ifindex, node->uplink_mac, node->gateway_mac,
			   cfg->computenet.gateway, cfg->anti_spoof);
	rg_plan_set_uplink_mtu(plan, node->uplink_mtu);
	rg_plan_set_icmp(plan, node->icmp_source, (unsigned)cfg->computenet.icmp_rate,
			 (unsigned)cfg->computenet.icmp_burst, node->ncpus);
	for (size_t i = 0; !ret && i < node->n_reps; i++)
		ret = place_rep(plan, &node->reps[i], err, err_len);
	if (ret) {
		rg_plan_free(plan);
		memset(plan, 0, sizeof(*plan));
	}
	return ret;
}

void rg_plan_free(struct rg_plan *plan)
{
	free(plan->routes);
	free(plan->reps);
	plan->routes = NULL;
	plan->reps = NULL;
	plan->n_routes = plan->n_reps = 0;
}
