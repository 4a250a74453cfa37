// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Pod routing plans: what one rail interface of a pod should get, from a
 * rail config or from inline options.  Pure computation, no kernel.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tools/pod_routes/pod_routes.h"
#include "lib/errbuf.h"
#include "lib/addr.h"

void rg_pod_numbering_default(struct rg_pod_numbering *num)
{
	memset(num, 0, sizeof(*num));
	num->table_base = RG_POD_TABLE_BASE;
	num->rule_priority = RG_POD_RULE_PRIORITY;
}

/* Table ids the kernel reserves (unspec, compat/default/main/local). */
static bool table_reserved(uint32_t t)
{
	return t == 0 || (t >= 252 && t <= 255);
}

static int plan_init(struct rg_pod_plan *plan, const char *ifname, uint32_t addr,
		     char *err, size_t err_len)
{
	memset(plan, 0, sizeof(*plan));
	if (!ifname || !*ifname || strlen(ifname) >= IF_NAMESIZE)
		return rg_err(err, err_len, -EINVAL, "invalid interface name \"%s\"",
			      ifname ? ifname : "");
	strcpy(plan->ifname, ifname);
	plan->addr = addr;
	return 0;
}

/* Number the rail: table, rule priority and main-table metric from one
 * index, so that rail i sorts the same way everywhere. */
static int plan_number(struct rg_pod_plan *plan, const struct rg_pod_numbering *num,
		       uint32_t index, uint32_t table, char *err, size_t err_len)
{
	if (table_reserved(table))
		return rg_err(err, err_len, -EINVAL,
			      "table %u is reserved by the kernel (0, 252-255): pick another tableBase or table",
			      table);
	if (num->rule_priority + index >= 32766)
		return rg_err(err, err_len, -EINVAL,
			      "rule priority %u + rail index %u would not be above main (32766)",
			      num->rule_priority, index);
	plan->index = index;
	plan->table = table;
	plan->rule_priority = num->rule_priority + index;
	plan->metric = RG_POD_METRIC_BASE + index;
	return 0;
}

/* Append prefixes; a default route is never ours to add (it would be a
 * second default route, or one via the rail capturing everything). */
static int plan_append(struct rg_pod_plan *plan, const struct rg_cidr *c, size_t n,
		       const char *what, char *err, size_t err_len)
{
	char buf[RG_CIDR_STR_LEN];

	for (size_t i = 0; i < n; i++) {
		if (c[i].len == 0)
			return rg_err(err, err_len, -EINVAL, "%s %s: railgate never adds a default route",
				      what, rg_cidr_str(c[i].addr, c[i].len, buf));
		if (plan->n_dsts >= RG_POD_ROUTES_MAX)
			return rg_err(err, err_len, -E2BIG, "more than %d supernets and front-end prefixes",
				      RG_POD_ROUTES_MAX);
		plan->dsts[plan->n_dsts++] = c[i];
	}
	return 0;
}

int rg_pod_plan_add_frontend(struct rg_pod_plan *plan, const struct rg_cidr *c, size_t n,
			     char *err, size_t err_len)
{
	return plan_append(plan, c, n, "frontend", err, err_len);
}

int rg_pod_plan_from_config(const struct rg_config *cfg, const struct rg_pod_numbering *num,
			    const char *ifname, uint32_t addr, struct rg_pod_plan *plan,
			    char *err, size_t err_len)
{
	const struct rg_config_rail *rail = NULL;
	char ip[RG_IP_STR_LEN];
	size_t index = 0;
	int ret;

	ret = plan_init(plan, ifname, addr, err, err_len);
	if (ret)
		return ret;
	if (num->has_table)
		return rg_err(err, err_len, -EINVAL,
			      "\"table\" goes with inline supernets; with a rail config each rail's table is tableBase + its index");
	for (size_t i = 0; i < cfg->n_rails && !rail; i++)
		if (rg_cidr_contains(cfg->rails[i].subnet, addr)) {
			rail = &cfg->rails[i];
			index = i;
		}
	if (!rail)
		return rg_err(err, err_len, -EINVAL, "%s address %s is in no rail of %s", ifname,
			      rg_ip_str(addr, ip), cfg->path ? cfg->path : "the config");
	snprintf(plan->rail, sizeof(plan->rail), "%s", rail->name);
	plan->gateway = rail->gateway;
	plan->subnet = rail->subnet;
	ret = plan_number(plan, num, index, num->table_base + index, err, err_len);
	if (!ret)
		ret = plan_append(plan, cfg->supernets, cfg->n_supernets, "supernet", err, err_len);
	plan->n_supernets = plan->n_dsts;
	if (!ret)
		ret = plan_append(plan, cfg->computenet.frontend, cfg->computenet.n_frontend,
				  "frontend", err, err_len);
	return ret;
}

int rg_pod_plan_inline(const struct rg_pod_inline *in, uint32_t gateway,
		       const struct rg_pod_numbering *num,
		       const char *ifname, uint32_t addr, uint8_t prefix_len,
		       struct rg_pod_plan *plan, char *err, size_t err_len)
{
	char ip[RG_IP_STR_LEN], gw[RG_IP_STR_LEN];
	uint32_t table, index;
	int ret;

	ret = plan_init(plan, ifname, addr, err, err_len);
	if (ret)
		return ret;
	rg_ip_str(addr, ip);
	rg_ip_str(gateway, gw);
	if (!in->n_supernets)
		return rg_err(err, err_len, -EINVAL, "no supernet given");
	if (!rg_cidr_set_contains(in->supernets, in->n_supernets, addr))
		return rg_err(err, err_len, -EINVAL,
			      "%s address %s is outside every supernet (not a rail address)", ifname, ip);
	if (!rg_cidr_set_contains(in->supernets, in->n_supernets, gateway))
		return rg_err(err, err_len, -EINVAL,
			      "gateway %s is outside every supernet: it must be the rail's switch address", gw);
	if (gateway == addr)
		return rg_err(err, err_len, -EINVAL, "gateway %s is the pod's own address", gw);
	if (prefix_len == 0 || prefix_len > 32)
		return rg_err(err, err_len, -EINVAL, "%s address %s has no prefix length", ifname, ip);
	plan->subnet.len = prefix_len;
	plan->subnet.addr = addr & (~0u << (32 - prefix_len));
	plan->gateway = gateway;
	table = num->has_table ? num->table : num->table_base;
	index = table >= num->table_base ? table - num->table_base : 0;
	ret = plan_number(plan, num, index, table, err, err_len);
	if (!ret)
		ret = plan_append(plan, in->supernets, in->n_supernets, "supernet", err, err_len);
	plan->n_supernets = plan->n_dsts;
	if (!ret)
		ret = plan_append(plan, in->frontend, in->n_frontend, "frontend", err, err_len);
	return ret;
}

int rg_pod_plan_add_icmp_source(struct rg_pod_plan *plan, uint32_t src, char *err,
				size_t err_len)
{
	struct rg_cidr host = { .addr = src, .len = 32 };

	if (!src || rg_cidr_set_contains(plan->dsts, plan->n_dsts, src) || rg_cidr_contains(plan->subnet, src))
		return 0;
	return plan_append(plan, &host, 1, "ICMP source", err, err_len);
}
