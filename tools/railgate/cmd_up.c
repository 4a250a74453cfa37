// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* railgate up -c FILE / railgate down. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "cli.h"
#include "../../loader/datapath.h"
#include "../../loader/digest.h"
#include "../../loader/resolve.h"

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

/*
 * Config -> plan -> datapath.  Nothing in the kernel changes until the
 * config is valid and every interface it names is resolved; a first `up`
 * that fails after loading removes what it pinned.
 */
static int do_up(const char *pin_dir, const char *path, const enum rg_config_mode *mode_opt)
{
	struct rg_datapath dp;
	struct rg_config cfg = { 0 };
	struct rg_plan plan = { 0 };
	struct rg_rail rails[RG_MAX_RAILS];
	struct rg_rail_ids prev_ids, *prev = NULL;
	struct rg_nl *nl = NULL;
	uint8_t digest[32];
	char err[1024];
	bool fresh;
	int ret;

	if (cli_load_config(path, &cfg))
		return RG_EXIT_FAIL;
	ret = rg_file_sha256(path, digest, err, sizeof(err));
	if (!ret)
		ret = rg_datapath_lock(&dp, pin_dir, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "railgate up: %s\n", err);
		rg_config_free(&cfg);
		return RG_EXIT_FAIL;
	}
	ret = rg_datapath_open(&dp, false, err, sizeof(err));
	fresh = ret == -ENOENT;
	if (ret && !fresh)
		goto fail;
	if (!fresh && !rg_datapath_active_rails(&dp, rails)) {
		rg_rail_ids_from_table(&prev_ids, rails);
		prev = &prev_ids;
	}
	ret = rg_nl_open(&nl, err, sizeof(err));
	if (ret)
		goto fail;
	ret = rg_resolve_plan(nl, &cfg, mode_opt ? *mode_opt : cfg.mode, prev, &plan, stdout,
			      err, sizeof(err));
	if (ret)
		goto fail;
	if (fresh) {
		ret = rg_datapath_open(&dp, true, err, sizeof(err));
		if (ret)
			goto fail;
	}
	ret = rg_datapath_apply(&dp, &plan, digest, stdout, err, sizeof(err));
	if (ret) {
		if (fresh) {
			char derr[256];

			rg_datapath_down(&dp, NULL, derr, sizeof(derr));
		}
		goto fail;
	}
	printf("railgate is up: %zu rails, %zu representors, config generation %llu (%s)\n",
	       cfg.n_rails, plan.n_reps, (unsigned long long)dp.maps.state->config_generation,
	       fresh ? "loaded" : "reloaded hitlessly");
	ret = 0;
	goto out;
fail:
	fprintf(stderr, "railgate up: %s\n", err);
	if (!fresh)
		fprintf(stderr, "railgate up: the running datapath was left as it was\n");
out:
	rg_plan_free(&plan);
	rg_nl_close(nl);
	rg_datapath_close(&dp);
	rg_config_free(&cfg);
	return ret ? RG_EXIT_FAIL : RG_EXIT_OK;
}

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
			printf("usage: railgate up -c FILE [--mode auto|xdp|xdp-generic|tc]\n");
			return RG_EXIT_OK;
		default:
			fprintf(stderr, "usage: railgate up -c FILE [--mode auto|xdp|xdp-generic|tc]\n");
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
	char err[512];
	int ret;

	if (argc > 1) {
		fprintf(stderr, "usage: railgate down\n");
		return RG_EXIT_USAGE;
	}
	ret = rg_datapath_lock(&dp, g->pin_dir, err, sizeof(err));
	if (!ret)
		ret = rg_datapath_down(&dp, stdout, err, sizeof(err));
	if (ret)
		fprintf(stderr, "railgate down: %s\n", err);
	rg_datapath_close(&dp);
	return ret ? RG_EXIT_FAIL : RG_EXIT_OK;
}
