// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Config -> facts -> plan -> datapath; see apply.h. */
#include <errno.h>
#include <string.h>

#include "loader/datapath/apply.h"
#include "loader/datapath/datapath.h"
#include "loader/kernel/netlink.h"
#include "loader/plan/resolve.h"
#include "loader/datapath/takeover.h"

int rg_apply_config(const char *pin_dir, const struct rg_config *cfg,
		    const enum rg_config_mode *mode, const struct rg_log *log,
		    struct rg_apply_result *res,
		    char *err, size_t err_len)
{
	struct rg_datapath dp;
	struct rg_plan plan = { 0 };
	struct rg_rail rails[RG_MAX_RAILS];
	struct rg_rail_ids prev_ids, *prev = NULL;
	struct rg_node_facts facts = { 0 };
	struct rg_nl *nl = NULL;
	struct rg_takeover takeover;
	int ret;

	memset(res, 0, sizeof(*res));
	rg_takeover_init(&takeover);
	ret = rg_datapath_lock(&dp, pin_dir, err, err_len);
	if (ret)
		goto out;
	ret = rg_datapath_open(&dp, false, err, err_len);
	res->fresh = ret == -ENOENT;
	if (ret && !res->fresh)
		goto out;
	if (!res->fresh && !rg_datapath_active_rails(&dp, rails)) {
		rg_rail_ids_from_table(&prev_ids, rails);
		prev = &prev_ids;
	}
	ret = rg_nl_open(&nl, err, err_len);
	if (ret)
		goto out;
	/* facts first, then one pure plan: nothing below asks the node again
	 * until the datapath attaches */
	rg_facts_gather(nl, cfg, &facts);
	ret = rg_resolve_plan(cfg, mode ? *mode : cfg->mode, &facts, prev, &plan, log, err, err_len);
	if (ret)
		goto out;
	if (res->fresh) {
		/* another ABI's pins: an older one is taken over, a newer one refused */
		ret = rg_takeover_scan(dp.root, &takeover, err, err_len);
		if (ret)
			goto out;
		ret = rg_datapath_open(&dp, true, err, err_len);
		if (ret)
			goto out;
		if (takeover.abi) {
			res->took_over_abi = takeover.abi;
			dp.takeover = &takeover;
		}
	}
	ret = rg_datapath_apply(&dp, &plan, cfg->sha256, log, err, err_len);
	if (ret) {
		/* only what this call pinned: an older version's stay as they run */
		if (res->fresh)
			rg_datapath_discard(&dp);
		goto out;
	}
	if (dp.takeover)
		rg_datapath_finish_takeover(&dp, log);
	res->n_rails = cfg->n_rails;
	res->n_reps = plan.n_reps;
	res->config_generation = dp.maps.state->config_generation;
out:
	rg_takeover_free(&takeover);
	rg_plan_free(&plan);
	rg_facts_free(&facts);
	rg_nl_close(nl);
	rg_datapath_close(&dp);
	return ret;
}
