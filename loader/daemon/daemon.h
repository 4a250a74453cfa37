/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * `railgate run`: the node daemon.  One event loop that keeps the datapath
 * equal to the config while the node changes under it:
 *
 *   - an inotify watch on the config's DIRECTORY: a Kubernetes ConfigMap
 *     update swaps the "..data" symlink and never writes the file we
 *     opened, so every create/move/write/delete in the directory makes the
 *     daemon re-read the file and compare its SHA-256 with the last one seen;
 *   - a signalfd: SIGHUP reloads unconditionally, SIGTERM/SIGINT exit;
 *   - a netlink watch: a link whose name matches a rail's names or globs
 *     (a VF created later), an attached link that vanished, the uplink going
 *     down, the gateway's neighbour entry changing MAC;
 *   - the metrics server (metrics.h) on a thread of its own.
 *
 * Events are debounced (~100 ms) and every one of them ends in
 * rg_apply_config (apply.h), which is idempotent and hitless: attaches what
 * is new, forgets what vanished, re-resolves the gateway, rolls back on
 * failure.  A bad config is logged and counted; the old one keeps running.
 */
#ifndef RAILGATE_DAEMON_H
#define RAILGATE_DAEMON_H

#include <stdbool.h>
#include <stddef.h>

#include "loader/config/config.h"
#include "lib/log.h"

#define RG_DAEMON_DEBOUNCE_MS 100
#define RG_DAEMON_RETRY_MS    5000   /* after an apply that failed for a node reason */

struct rg_daemon_opts {
	const char *pin_dir;
	const char *config_path;
	const char *node_name;       /* spec.nodes key (NODE_NAME); NULL or "": none */
	const char *metrics_addr;    /* "ADDR:PORT"; NULL: no HTTP server */
	bool keep;                   /* SIGTERM leaves the datapath pinned and attached */
	const char *version;         /* for railgate_build_info */
	const char *commit;          /* the git commit of the build, likewise */
	const char *host_config;     /* NULL, or where every config applied is written
				      * (the host's /etc/railgate/railgate.yaml the
				      * CNI plugin reads), atomically */
	const struct rg_log *log;
};

/*
 * What `run --check-args` does: load and validate the config, apply the
 * node's overrides, parse the metrics address.  Touches nothing in the
 * kernel.  0 with cfg filled (free it with rg_config_free); -1 for an
 * invalid config (every error in diags); -errno with a message in err.
 */
int rg_daemon_check(const struct rg_daemon_opts *o, struct rg_config *cfg,
		    struct rg_diags *diags, char *err, size_t err_len);

/*
 * Run until SIGTERM or SIGINT.  Blocks SIGHUP, SIGTERM and SIGINT in the
 * calling thread (they arrive through a signalfd).  Returns 0 on a clean
 * exit, or -errno with a message in err when the daemon cannot start or
 * cannot take the datapath down on exit.
 */
int rg_daemon_run(const struct rg_daemon_opts *o, char *err, size_t err_len);

#endif /* RAILGATE_DAEMON_H */
