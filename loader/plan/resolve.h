/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * A config meets the node, as its facts (loader/kernel/facts.h) show it:
 * find the uplink and its MAC, the gateway's MAC, every representor a
 * rail's names or globs match (or its PF's, by sysfs), and pick each one's
 * attach mode as this kernel will attach it (tc mode: a tcx link, or a
 * clsact filter where the kernel has no tcx).  This is the only place an
 * attach mode is chosen.
 *
 * Pure: no I/O, no environment, nothing read but the config, the facts and
 * the previous rail ids, so the plan's tests run on recorded facts without
 * root or a kernel (tests/unit/test_plan_facts.c).  Decide, then assemble
 * once: everything the node contributes is decided first (struct
 * rg_node_plan, plan.h), then rg_plan_assemble builds the complete plan
 * for rg_datapath_apply from the config, that and the previous rail ids.
 * Callers gather first:
 *
 *   rg_facts_gather(nl, cfg, &facts);
 *   rg_resolve_plan(cfg, mode, &facts, prev, &plan, log, err, n);
 */
#ifndef RAILGATE_RESOLVE_H
#define RAILGATE_RESOLVE_H

#include "loader/config/config.h"
#include "lib/log.h"
#include "loader/kernel/facts.h"
#include "loader/plan/plan.h"

/*
 * The tc attach mode for this node, the one place it is decided:
 * RG_MODE_TC (a tcx link) or RG_MODE_TC_CLSACT, from want (the config's
 * datapath.tcAttach) unless the facts' RG_TC_ATTACH_ENV overrides it; auto
 * takes what the kernel has (the facts' kernel_has_tcx).  *why (may be
 * NULL) says which rule decided, for the log.  -EINVAL with a message for
 * an unknown value of the variable, -EOPNOTSUPP when tcx is asked for and
 * the kernel has none.
 */
int rg_tc_attach_mode(enum rg_config_tc_attach want, const struct rg_node_facts *facts,
		      const char **why, char *err, size_t err_len);

/*
 * The whole plan of cfg on the node facts describe.  mode: cfg->mode unless
 * the command line overrides it; prev: the rail ids running now (NULL on a
 * first load), kept for every surviving rail.  Each decision is logged as
 * it is taken (log may be NULL).  0, or -errno with a message (plan
 * empty); a question the facts answered with an error fails where the
 * config needs the answer, with the message the live lookup gives.
 */
int rg_resolve_plan(const struct rg_config *cfg, enum rg_config_mode mode,
		    const struct rg_node_facts *facts, const struct rg_rail_ids *prev,
		    struct rg_plan *plan, const struct rg_log *log, char *err, size_t err_len);

/*
 * The source of the datapath's ICMP errors: computenet.icmpSource, else the
 * address the node sends to computenet.gateway from (the uplink's, the
 * route's preferred source, as the facts recorded it).  railgate-cni routes
 * pods back to it.  0, or the error of that route lookup.
 */
int rg_resolve_icmp_source(const struct rg_node_facts *facts, const struct rg_config *cfg,
			   uint32_t *src);

#endif
