// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* railgate up -c FILE / railgate down. */
#include <errno.h>
#include <getopt.h>
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

static const char up_help[] =
"usage: railgate up [-c FILE] [--mode auto|xdp|xdp-generic|tc]\n"
"\n"
"Apply the config: the first time, load the programs, create and pin the maps,\n"
"fill them and attach to every representor; on a running datapath, write the\n"
"inactive generation and flip to it (a hitless reload).  A config or node error\n"
"changes nothing.\n"
"\n"
"Options:\n"
"  -c, --config FILE  the RailConfig (default " RG_DEFAULT_CONFIG ")\n"
"  --mode MODE        override spec.datapath.mode: auto, xdp, xdp-generic or tc\n"
"  -h, --help         this text\n";

static const char down_help[] =
"usage: railgate down\n"
"\n"
"Detach every interface and remove the pins.  On nothing it succeeds too.\n"
"\n"
"Options:\n"
"  -h, --help  this text\n";

int rg_cmd_up(const struct rg_global_opts *g, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "mode", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *path = RG_DEFAULT_CONFIG;
	enum rg_config_mode mode;
	bool have_mode = false;
	int c;

	optind = 0;
	while ((c = getopt_long(argc, argv, "c:m:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			path = optarg;
			break;
		case 'm':
			if (parse_mode(optarg, &mode)) {
				fprintf(stderr, "railgate up: --mode must be auto, xdp, xdp-generic or tc\n");
				return RG_EXIT_USAGE;
			}
			have_mode = true;
			break;
		case 'h':
			fputs(up_help, stdout);
			return RG_EXIT_OK;
		default:
			fprintf(stderr, "%.*s\n", (int)strcspn(up_help, "\n"), up_help);
			return RG_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "railgate up: unexpected argument %s\n", argv[optind]);
		return RG_EXIT_USAGE;
	}
	return do_up(g->pin_dir, path, have_mode ? &mode : NULL);
}

int rg_cmd_down(const struct rg_global_opts *g, int argc, char **argv)
{
	struct rg_datapath dp;
	struct rg_log log;
	char err[512];
	int ret;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(down_help, stdout);
		return RG_EXIT_OK;
	}
	if (argc > 1) {
		fprintf(stderr, "usage: railgate down\n");
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
