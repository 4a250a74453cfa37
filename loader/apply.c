// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Config -> plan -> datapath; see apply.h. */
#include <errno.h>
#include <string.h>

#include "apply.h"
#include "datapath.h"
#include "resolve.h"

int rg_apply_config(const char *pin_dir, const struct rg_config *cfg,
		    const enum rg_config_mode *mode, const struct rg_log *log,
		    struct rg_apply_result *res,
		    char *err, size_t n)
{
	struct rg_datapath dp;
	struct rg_plan plan = { 0 };
	struct rg_rail rails[RG_MAX_RAILS];
	struct rg_rail_ids prev_ids, *prev = NULL;
	struct rg_nl *nl = NULL;
	int ret;

	memset(res, 0, sizeof(*res));
	ret = rg_datapath_lock(&dp, pin_dir, err, n);
	if (ret)
		goto out;
	ret = rg_datapath_open(&dp, false, err, n);
	res->fresh = ret == -ENOENT;
	if (ret && !res->fresh)
		goto out;
	if (!res->fresh && !rg_datapath_active_rails(&dp, rails)) {
		rg_rail_ids_from_table(&prev_ids, rails);
		prev = &prev_ids;
	}
	ret = rg_nl_open(&nl, err, n);
	if (ret)
		goto out;
	ret = rg_resolve_plan(nl, cfg, mode ? *mode : cfg->mode, prev, &plan, log, err, n);
	if (ret)
		goto out;
	if (res->fresh) {
		ret = rg_datapath_open(&dp, true, err, n);
		if (ret)
			goto out;
	}
	ret = rg_datapath_apply(&dp, &plan, cfg->sha256, log, err, n);
	if (ret) {
		if (res->fresh) {
			char derr[256];

			rg_datapath_down(&dp, NULL, derr, sizeof(derr));
		}
		goto out;
	}
	res->n_rails = cfg->n_rails;
	res->n_reps = plan.n_reps;
	res->config_generation = dp.maps.state->config_generation;
out:
	rg_plan_free(&plan);
	rg_nl_close(nl);
	rg_datapath_close(&dp);
	return ret;
}
