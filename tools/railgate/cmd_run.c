// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * railgate run: the node daemon (loader/daemon/daemon.h), the DaemonSet's entry
 * point.  This file parses the command line; --check-args stops after the
 * arguments and the config were validated, so that a manifest's command
 * line can be tested without a kernel.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/railgate/commands.h"
#include "tools/railgate/cli.h"
#include "tools/railgate/version.h"
#include "loader/daemon/daemon.h"

struct run_args {
	struct rg_daemon_opts d;
	enum rg_log_format log_format;
	bool check_only;
};

static int parse_log_format(const char *arg, void *args, char *msg, size_t n)
{
	struct run_args *a = args;

	if (!rg_log_format_parse(arg, &a->log_format))
		return 0;
	snprintf(msg, n, "--log-format must be plain or json");
	return -1;
}

static const struct rg_opt run_options[] = {
	{ .name = "config", .short_name = 'c', .arg = "FILE", .kind = RG_OPT_STRING,
	  .offset = offsetof(struct run_args, d.config_path), .complete = RG_COMPLETE_FILE,
	  .help = "the RailConfig (default " RG_DEFAULT_CONFIG "); its directory\n"
		  "is watched, so a ConfigMap update is applied when it lands" },
	{ .name = "metrics", .arg = "ADDR:PORT", .kind = RG_OPT_STRING,
	  .offset = offsetof(struct run_args, d.metrics_addr),
	  .help = "serve /metrics, /healthz and /readyz (e.g. 0.0.0.0:9400)" },
	{ .name = "keep", .kind = RG_OPT_FLAG, .offset = offsetof(struct run_args, d.keep),
	  .help = "on SIGTERM leave the datapath attached (rolling upgrades);\n"
		  "without it, exit takes it down like `railgate down`" },
	{ .name = "node-name", .arg = "NAME", .kind = RG_OPT_STRING,
	  .offset = offsetof(struct run_args, d.node_name),
	  .help = "the spec.nodes entry to apply (default $NODE_NAME)" },
	{ .name = "log-format", .arg = "FORMAT", .kind = RG_OPT_CALL, .parse = parse_log_format,
	  .words = "plain json",
	  .help = "plain (default) or json, one line per event on stderr" },
	{ .name = "host-config", .arg = "PATH", .kind = RG_OPT_STRING,
	  .offset = offsetof(struct run_args, d.host_config), .complete = RG_COMPLETE_FILE,
	  .help = "write every config applied to PATH, atomically (the\n"
		  "host's /etc/railgate/railgate.yaml that railgate-cni reads)" },
	{ .name = "check-args", .kind = RG_OPT_FLAG, .offset = offsetof(struct run_args, check_only),
	  .help = "validate the arguments and the config, then exit" },
	{ 0 },
};

const struct rg_cmd_opts rg_run_opts = {
	.name = "run",
	.usage = "usage: railgate run -c FILE [--metrics ADDR:PORT] [--keep] [--node-name NAME]\n"
		 "                    [--log-format plain|json] [--host-config PATH] [--check-args]",
	.about = "The node daemon, the DaemonSet's entry point: apply the config, follow the\n"
		 "node (representors that come and go, the uplink, the gateway's MAC) and the\n"
		 "config file, and serve the metrics.",
	.opts = run_options,
	.args_size = sizeof(struct run_args),
	.trailer = "SIGHUP reloads the config; SIGTERM and SIGINT exit.",
	.after = RG_AFTER_HELP,
};

/* --check-args: what the daemon would start with, or every error. */
static int check_only(const struct run_args *a)
{
	struct rg_config cfg;
	struct rg_diags diags = { 0 };
	char err[512];
	int ret = rg_daemon_check(&a->d, &cfg, &diags, err, sizeof(err));

	if (ret) {
		bool bad_usage = ret == -EINVAL && !diags.count;

		/* config errors (and an unreadable file) come in diags, the
		 * metrics address in err */
		for (size_t i = 0; i < diags.count; i++)
			fprintf(stderr, "%s\n", diags.msgs[i]);
		if (!diags.count)
			fprintf(stderr, "railgate run: %s\n", err);
		rg_diags_free(&diags);
		return bad_usage ? RG_EXIT_USAGE : RG_EXIT_FAIL;
	}
	rg_diags_free(&diags);
	printf("railgate run: arguments and config OK: %zu rails, uplink %s, node %s, "
	       "metrics %s, %s on exit\n", cfg.n_rails,
	       cfg.computenet.uplink_discover ? "auto (route to the gateway)" : cfg.computenet.uplink,
	       a->d.node_name && *a->d.node_name ? a->d.node_name : "(none)",
	       a->d.metrics_addr ? a->d.metrics_addr : "off", a->d.keep ? "keep" : "down");
	rg_config_free(&cfg);
	return RG_EXIT_OK;
}

int rg_cmd_run(struct rg_global_opts *g, int argc, char **argv)
{
	struct run_args a = {
		.d = {
			.pin_dir = g->pin_dir,
			.config_path = RG_DEFAULT_CONFIG,
			.node_name = getenv("NODE_NAME"),
			.version = rg_version,
			.commit = rg_git_commit,
		},
		.log_format = RG_LOG_PLAIN,
	};
	struct rg_log log;
	char err[1024];
	int ret, first;
	enum rg_opts_result r = cli_parse(&rg_run_opts, g, argc, argv, &a, &first);

	if (r != RG_OPTS_RUN)
		return rg_opts_exit(r);
	if (first < argc) {
		fprintf(stderr, "railgate run: unexpected argument %s\n", argv[first]);
		return RG_EXIT_USAGE;
	}
	a.d.pin_dir = g->pin_dir;    /* --pin-dir may come after the command name */
	if (a.check_only)
		return check_only(&a);
	rg_log_init(&log, stderr, a.log_format);
	a.d.log = &log;
	ret = rg_daemon_run(&a.d, err, sizeof(err));
	if (ret) {
		rg_log_event(&log, RG_LOG_ERROR, "exit", "%s", err);
		return RG_EXIT_FAIL;
	}
	return RG_EXIT_OK;
}
