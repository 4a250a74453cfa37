/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * A config meets the node: find the uplink and its MAC, the gateway's MAC
 * (resolving it when the neighbour table lacks it), every representor a
 * rail's names or globs match, and pick each one's attach mode as this
 * kernel will attach it (tc mode: a tcx link, or a clsact filter where the
 * kernel has no tcx).  This is the only place an attach mode is chosen.
 * The result is a complete plan (plan.h) for rg_datapath_apply.
 */
#ifndef RAILGATE_RESOLVE_H
#define RAILGATE_RESOLVE_H

#include "config.h"
#include "log.h"
#include "netlink.h"
#include "plan.h"

#define RG_GATEWAY_RESOLVE_MS 2000

/* mode: cfg->mode unless the command line overrides it.  Each decision
 * is logged as it is taken (log may be NULL).  0, or -errno with a message. */
int rg_resolve_plan(struct rg_nl *nl, const struct rg_config *cfg, enum rg_config_mode mode,
		    const struct rg_rail_ids *prev, struct rg_plan *plan, const struct rg_log *log,
		    char *err, size_t n);

/*
 * The source of the datapath's ICMP errors: computenet.icmpSource, else the
 * address the node sends to computenet.gateway from (the uplink's, the
 * route's preferred source).  railgate-cni routes pods back to it.
 * 0, or the error of rg_nl_route_get_src.
 */
int rg_resolve_icmp_source(struct rg_nl *nl, const struct rg_config *cfg, uint32_t *src);

#endif
