// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* railgate up -c FILE / railgate down. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "tools/railgate/commands.h"
#include "tools/railgate/cli.h"
#include "loader/datapath/apply.h"
#include "loader/datapath/datapath.h"

static int parse_mode(const char *s, enum rg_config_mode *out)
{
	static const enum rg_config_mode modes[] = {
		RG_CONFIG_MODE_AUTO, RG_CONFIG_MODE_XDP, RG_CONFIG_MODE_XDP_GENERIC, RG_CONFIG_MODE_TC,
	};

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (!strcmp(s, rg_config_mode_name(modes[i]))) {
			*out = modes[i];
			return 0;
		}
	}
	return -EINVAL;
}

static int do_up(const char *pin_dir, const char *path, const enum rg_config_mode *mode_opt)
{
	struct rg_config cfg = { 0 };
	struct rg_apply_result res;
	struct rg_log log;
	char err[1024];
	int ret;

	if (cli_load_config(path, &cfg))
		return RG_EXIT_FAIL;
	rg_log_init(&log, stdout, RG_LOG_BARE);
	ret = rg_apply_config(pin_dir, &cfg, mode_opt, &log, &res, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "railgate up: %s\n", err);
		if (!res.fresh)
			fprintf(stderr, "railgate up: the running datapath was left as it was\n");
		else if (res.took_over_abi)
			fprintf(stderr, "railgate up: railgate ABI v%d keeps running as it was\n",
				res.took_over_abi);
	} else if (res.took_over_abi) {
		printf("railgate is up: %zu rails, %zu representors, config generation %llu "
		       "(loaded, took over from railgate ABI v%d hitlessly)\n",
		       res.n_rails, res.n_reps, (unsigned long long)res.config_generation,
		       res.took_over_abi);
	} else {
		printf("railgate is up: %zu rails, %zu representors, config generation %llu (%s)\n",
		       res.n_rails, res.n_reps, (unsigned long long)res.config_generation,
		       res.fresh ? "loaded" : "reloaded hitlessly");
	}
	rg_config_free(&cfg);
	return ret ? RG_EXIT_FAIL : RG_EXIT_OK;
}

struct up_args {
	const char *config;
	enum rg_config_mode mode;
	bool have_mode;
};

static int parse_mode_opt(const char *arg, void *args, char *msg, size_t n)
{
	struct up_args *a = args;

	if (parse_mode(arg, &a->mode)) {
		snprintf(msg, n, "--mode must be auto, xdp, xdp-generic or tc");
		return -1;
	}
	a->have_mode = true;
	return 0;
}

static const struct rg_opt up_options[] = {
	{ .name = "config", .short_name = 'c', .arg = "FILE", .kind = RG_OPT_STRING,
	  .offset = offsetof(struct up_args, config), .complete = RG_COMPLETE_FILE,
	  .help = "the RailConfig (default " RG_DEFAULT_CONFIG ")" },
	{ .name = "mode", .short_name = 'm', .arg = "MODE", .kind = RG_OPT_CALL,
	  .parse = parse_mode_opt, .words = "auto xdp xdp-generic tc",
	  .help = "override spec.datapath.mode: auto, xdp, xdp-generic or tc" },
	{ 0 },
};

const struct rg_cmd_opts rg_up_opts = {
	.name = "up",
	.usage = "usage: railgate up [-c FILE] [--mode auto|xdp|xdp-generic|tc]",
	.about = "Apply the config: the first time, load the programs, create and pin the maps,\n"
		 "fill them and attach to every representor; on a running datapath, write the\n"
		 "inactive generation and flip to it (a hitless reload).  A config or node error\n"
		 "changes nothing.",
	.opts = up_options,
	.args_size = sizeof(struct up_args),
	.after = RG_AFTER_USAGE,
};

/* down takes no options of its own; anything else is its usage */
static const struct rg_opt down_options[] = { { 0 } };

const struct rg_cmd_opts rg_down_opts = {
	.name = "down",
	.usage = "usage: railgate down",
	.about = "Detach every interface and remove the pins.  On nothing it succeeds too.",
	.opts = down_options,
	.after = RG_AFTER_USAGE,
	.quiet = true,
};

int rg_cmd_up(struct rg_global_opts *g, int argc, char **argv)
{
	struct up_args a = { .config = RG_DEFAULT_CONFIG };
	int first;
	enum rg_opts_result r = cli_parse(&rg_up_opts, g, argc, argv, &a, &first);

	if (r != RG_OPTS_RUN)
		return rg_opts_exit(r);
	if (first < argc) {
		fprintf(stderr, "railgate up: unexpected argument %s\n", argv[first]);
		return RG_EXIT_USAGE;
	}
	return do_up(g->pin_dir, a.config, a.have_mode ? &a.mode : NULL);
}

int rg_cmd_down(struct rg_global_opts *g, int argc, char **argv)
{
	struct rg_datapath dp;
	struct rg_log log;
	char err[512];
	int ret, first;
	enum rg_opts_result r = cli_parse(&rg_down_opts, g, argc, argv, NULL, &first);

	if (r != RG_OPTS_RUN)
		return rg_opts_exit(r);
	if (first < argc) {
		rg_opts_usage_line(stderr, &rg_down_opts);
		return RG_EXIT_USAGE;
	}
	rg_log_init(&log, stdout, RG_LOG_BARE);
	ret = rg_datapath_lock(&dp, g->pin_dir, err, sizeof(err));
	if (!ret)
		ret = rg_datapath_down(&dp, &log, err, sizeof(err));
	if (ret)
		fprintf(stderr, "railgate down: %s\n", err);
	rg_datapath_close(&dp);
	return ret ? RG_EXIT_FAIL : RG_EXIT_OK;
}
