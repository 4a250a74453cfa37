/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * One config onto this node: what `railgate up` does and what the daemon
 * repeats on every change.  Nothing in the kernel changes until the config
 * resolved completely; a reload is hitless and rolls back on failure; a
 * first load that fails removes what it pinned (and only that).  A first
 * load over an older railgate's pins takes its interfaces over hitlessly
 * (takeover.h); over a newer one's it refuses.
 */
#ifndef RAILGATE_APPLY_H
#define RAILGATE_APPLY_H

#include <stdbool.h>
#include <stdint.h>

#include "loader/config/config.h"
#include "lib/log.h"

struct rg_apply_result {
	bool     fresh;              /* the datapath was loaded by this call */
	int      took_over_abi;      /* fresh, from an older railgate of this ABI (0: none) */
	size_t   n_rails;
	size_t   n_reps;
	uint64_t config_generation;
};

/*
 * cfg: validated config (rg_config_load); the pins record its sha256, the
 * digest of the bytes it was parsed from.  mode: NULL for cfg->mode.  Each
 * decision is logged as it is taken (log may be NULL).  Returns 0, or -errno with a
 * message in err; on failure the running datapath is as it was.
 */
int rg_apply_config(const char *pin_dir, const struct rg_config *cfg,
		    const enum rg_config_mode *mode, const struct rg_log *log,
		    struct rg_apply_result *res,
		    char *err, size_t err_len);

#endif
