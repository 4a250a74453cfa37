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

#include "loader/config/config.h"
#include "lib/log.h"
#include "loader/kernel/facts.h"
#include "loader/kernel/netlink.h"
#include "loader/plan/plan.h"

/*
 * The tc attach mode for this node, the one place it is decided:
 * RG_MODE_TC (a tcx link) or RG_MODE_TC_CLSACT, from want (the config's
 * datapath.tcAttach) unless RG_TC_ATTACH_ENV overrides it; auto asks the
 * kernel (rg_kernel_has_tcx on probe_ifindex).  *why (may be NULL) says
 * which rule decided, for the log.  -EINVAL with a message for an unknown
 * value of the variable, -EOPNOTSUPP when tcx is asked for and the kernel
 * has none.
 */
int rg_tc_attach_mode(enum rg_config_tc_attach want, int probe_ifindex, const char **why,
		      char *err, size_t errlen);

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
