/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The railgate config (docs/config.md): parsed from
 * YAML with libyaml, validated, and kept with the line and column of every
 * node so that each error reads "FILE:LINE:COL: what is wrong".
 *
 * All addresses are host byte order.  Nothing here touches the kernel.
 */
#ifndef RAILGATE_CONFIG_H
#define RAILGATE_CONFIG_H

#include <stddef.h>

#include "loader/config/model.h"   /* struct rg_config and its parts */
#include "loader/config/diags.h"   /* struct rg_pos, struct rg_diags */

/*
 * Read a config file once, whole (a pipe or /dev/stdin too): *text is
 * malloc'd, the caller frees it.  0, or -errno with "PATH: cannot read: ..."
 * in err.  Everything about a config (its digest, its contents) comes from
 * these bytes; nothing reads the path a second time.
 */
int rg_config_read(const char *path, char **text, size_t *len, char *err, size_t err_len);

/*
 * Parse and validate.  Returns 0 when the config is valid, -1 when it is
 * not (every error found is in *diags, all of them, not only the first),
 * or -errno when the file cannot be read (one message in *diags too).
 * *cfg is filled only on success, its sha256 the digest of exactly the
 * bytes parsed; free it with rg_config_free().
 */
int rg_config_load(const char *path, struct rg_config *cfg, struct rg_diags *diags);
int rg_config_parse(const char *name, const char *yaml, size_t len,
		    struct rg_config *cfg, struct rg_diags *diags);
void rg_config_free(struct rg_config *cfg);

/* Apply spec.nodes[] overrides for node_name (no-op when none match).  A
 * rail override moves the node's selection into the rail (nothing to
 * allocate, so nothing can fail); the node entry is left without it. */
void rg_config_apply_node(struct rg_config *cfg, const char *node_name);

#endif /* RAILGATE_CONFIG_H */
