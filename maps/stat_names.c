// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Names of the datapath's verdicts and drop reasons (enum rg_stat), as the
 * CLI, the JSON output and the Prometheus labels spell them.  Stable: they
 * are part of the interface users script against.
 */
#include "map_set.h"

static const char *const rg_stat_names[RG_STAT_MAX] = {
	[RG_VERDICT_PASS_LOCAL]      = "pass_local",
	[RG_VERDICT_PASS_OTHER]      = "pass_other",
	[RG_VERDICT_PASS_NOT_IPV4]   = "pass_not_ipv4",
	[RG_VERDICT_PASS_L2_MULTI]   = "pass_l2_multicast",
	[RG_VERDICT_PASS_TAGGED]     = "pass_tagged",
	[RG_VERDICT_PASS_UNKNOWN_IF] = "pass_unknown_if",
	[RG_VERDICT_CROSS_RAIL]      = "cross_rail",
	[RG_VERDICT_FRONTEND]        = "frontend",
	[RG_DROP_MALFORMED]          = "malformed",
	[RG_DROP_NO_ROUTE]           = "no_route",
	[RG_DROP_SPOOFED]            = "spoofed",
	[RG_DROP_TTL_EXCEEDED]       = "ttl_exceeded",
	[RG_DROP_REDIRECT_FAILED]    = "redirect_failed",
	[RG_DROP_NO_EGRESS]          = "no_egress",
};

const char *rg_stat_name(enum rg_stat s)
{
	if ((unsigned)s >= RG_STAT_MAX || !rg_stat_names[s])
		return "unknown";
	return rg_stat_names[s];
}

bool rg_stat_is_drop(enum rg_stat s)
{
	return (unsigned)s >= RG_STAT_FIRST_DROP && (unsigned)s < RG_STAT_MAX;
}
