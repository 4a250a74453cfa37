// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * railgate run: the node daemon (loader/daemon.h), the DaemonSet's entry
 * point.  This file parses the command line; --check-args stops after the
 * arguments and the config were validated, so that a manifest's command
 * line can be tested without a kernel.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/railgate/commands.h"
#include "tools/railgate/version.h"
#include "loader/daemon/daemon.h"

static const char usage_text[] =
"usage: railgate run -c FILE [--metrics ADDR:PORT] [--keep] [--node-name NAME]\n"
"                    [--log-format plain|json] [--host-config PATH] [--check-args]\n"
"\n"
"The node daemon, the DaemonSet's entry point: apply the config, follow the\n"
"node (representors that come and go, the uplink, the gateway's MAC) and the\n"
"config file, and serve the metrics.\n"
"\n"
"Options:\n"
"  -c, --config FILE      the RailConfig (default " RG_DEFAULT_CONFIG "); its directory\n"
"                         is watched, so a ConfigMap update is applied when it lands\n"
"  --metrics ADDR:PORT    serve /metrics, /healthz and /readyz (e.g. 0.0.0.0:9400)\n"
"  --keep                 on SIGTERM leave the datapath attached (rolling upgrades);\n"
"                         without it, exit takes it down like `railgate down`\n"
"  --node-name NAME       the spec.nodes entry to apply (default $NODE_NAME)\n"
"  --log-format FORMAT    plain (default) or json, one line per event on stderr\n"
"  --host-config PATH     write every config applied to PATH, atomically (the\n"
"                         host's /etc/railgate/railgate.yaml that railgate-cni reads)\n"
"  --check-args           validate the arguments and the config, then exit\n"
"  -h, --help             this text\n"
"\n"
"SIGHUP reloads the config; SIGTERM and SIGINT exit.\n";

enum run_opt {
	OPT_METRICS = 256,
	OPT_KEEP,
	OPT_NODE_NAME,
	OPT_LOG_FORMAT,
	OPT_CHECK_ARGS,
	OPT_HOST_CONFIG,
};

struct run_args {
	struct rg_daemon_opts d;
	enum rg_log_format log_format;
	bool check_only;
};

static int parse_args(int argc, char **argv, struct run_args *a)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "metrics", required_argument, NULL, OPT_METRICS },
		{ "keep", no_argument, NULL, OPT_KEEP },
		{ "node-name", required_argument, NULL, OPT_NODE_NAME },
		{ "log-format", required_argument, NULL, OPT_LOG_FORMAT },
		{ "check-args", no_argument, NULL, OPT_CHECK_ARGS },
		{ "host-config", required_argument, NULL, OPT_HOST_CONFIG },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c;

	optind = 0;
	while ((c = getopt_long(argc, argv, "c:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c': a->d.config_path = optarg; break;
		case OPT_METRICS: a->d.metrics_addr = optarg; break;
		case OPT_KEEP: a->d.keep = true; break;
		case OPT_NODE_NAME: a->d.node_name = optarg; break;
		case OPT_CHECK_ARGS: a->check_only = true; break;
		case OPT_HOST_CONFIG: a->d.host_config = optarg; break;
		case OPT_LOG_FORMAT:
			if (rg_log_format_parse(optarg, &a->log_format)) {
				fprintf(stderr, "railgate run: --log-format must be plain or json\n");
				return RG_EXIT_USAGE;
			}
			break;
		case 'h':
			fputs(usage_text, stdout);
			return -1;
		default:
			fputs(usage_text, stderr);
			return RG_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "railgate run: unexpected argument %s\n", argv[optind]);
		return RG_EXIT_USAGE;
	}
	return RG_EXIT_OK;
}

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

int rg_cmd_run(const struct rg_global_opts *g, int argc, char **argv)
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
	int ret;

	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret < 0 ? RG_EXIT_OK : ret;
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
