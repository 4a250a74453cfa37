// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * rg-record-facts: record what a node is and what a config's plan makes
 * of it there, for the plan's tests (tests/unit/facts/, docs/testing.md
 * "Recorded facts").  Run it inside the node's network namespace:
 *
 *   rg-record-facts -c CONFIG [-n NODE] [-m MODE] [-r EARLIER.maps.json]
 *                   FACTS.json MAPS.json
 *
 * writes the node's facts (loader/kernel/facts.h) as gathered for CONFIG
 * (spec.nodes[] of NODE applied, `up --mode` MODE) to FACTS.json, and to
 * MAPS.json the map contents of the plan the resolver builds from them
 * (tests/lib/plan_maps.h), with the rail ids of EARLIER as the running
 * ones (a reload).  The goldens of tests/unit/facts/ were recorded with
 * the resolver that asked netlink itself, before the pure plan
 * (docs/testing.md says which commit).  Changes nothing on the node: it reads, and asks the
 * kernel to resolve the gateway's MAC as `up` does.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/files.h"
#include "loader/kernel/facts_json.h"
#include "loader/kernel/netlink.h"
#include "loader/plan/resolve.h"
#include "tests/lib/plan_maps.h"

static int usage(void)
{
	fprintf(stderr, "usage: rg-record-facts -c CONFIG [-n NODE] [-m MODE] "
		"[-r EARLIER.maps.json] FACTS.json MAPS.json\n");
	return 2;
}

static int parse_mode(const char *s, enum rg_config_mode *out)
{
	static const enum rg_config_mode modes[] = {
		RG_CONFIG_MODE_AUTO, RG_CONFIG_MODE_XDP, RG_CONFIG_MODE_XDP_GENERIC, RG_CONFIG_MODE_TC,
	};

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(s, rg_config_mode_name(modes[i]))) {
			*out = modes[i];
			return 0;
		}
	return -EINVAL;
}

static int load_config(const char *path, const char *node, struct rg_config *cfg)
{
	struct rg_diags d = { 0 };
	int ret = rg_config_load(path, cfg, &d);

	for (size_t i = 0; i < d.count; i++)
		fprintf(stderr, "rg-record-facts: %s\n", d.msgs[i]);
	rg_diags_free(&d);
	if (!ret && node)
		rg_config_apply_node(cfg, node);
	return ret;
}

static int read_prev(const char *path, struct rg_rail_ids *ids)
{
	char *text = NULL, err[512];
	size_t len;
	int ret = rg_file_read(path, 1 << 24, &text, &len, err, sizeof(err));

	if (ret)
		fprintf(stderr, "rg-record-facts: %s\n", err);
	else if (!(text = nul_terminated(text, len)))
		ret = -ENOMEM;
	else if ((ret = plan_maps_rail_ids(text, ids)))
		fprintf(stderr, "rg-record-facts: %s: no rails\n", path);
	free(text);
	return ret;
}

static int write_text(const char *path, const char *text)
{
	char err[512];
	int ret = text ? rg_file_write_atomic(path, text, strlen(text), 0644, err, sizeof(err))
		       : -ENOMEM;

	if (ret)
		fprintf(stderr, "rg-record-facts: %s: %s\n", path, text ? err : "out of memory");
	return ret;
}

/* The plan the resolver builds for cfg from the facts, as map contents. */
static char *plan_text(const struct rg_node_facts *facts, const struct rg_config *cfg,
		       enum rg_config_mode mode, const struct rg_rail_ids *prev)
{
	struct plan_log lines;
	struct rg_log log = plan_log_catcher(&lines);
	struct rg_plan plan = { 0 };
	char err[1024] = "", *text;
	int ret = rg_resolve_plan(cfg, mode, facts, prev, &plan, &log, err, sizeof(err));

	text = plan_maps_json(ret, err, &plan, &lines);
	rg_plan_free(&plan);
	plan_log_free(&lines);
	return text;
}

int main(int argc, char **argv)
{
	const char *config = NULL, *node = NULL, *prev_path = NULL;
	struct rg_rail_ids prev;
	struct rg_config cfg = { 0 };
	struct rg_node_facts facts;
	enum rg_config_mode mode;
	bool have_mode = false;
	struct rg_nl *nl = NULL;
	char err[512], *facts_text = NULL, *maps_text = NULL;
	int opt, ret;

	while ((opt = getopt(argc, argv, "c:n:m:r:")) != -1) {
		switch (opt) {
		case 'c': config = optarg; break;
		case 'n': node = optarg; break;
		case 'r': prev_path = optarg; break;
		case 'm':
			if (parse_mode(optarg, &mode))
				return usage();
			have_mode = true;
			break;
		default: return usage();
		}
	}
	if (!config || argc - optind != 2)
		return usage();
	if (load_config(config, node, &cfg) || (prev_path && read_prev(prev_path, &prev)))
		return 1;
	if (!have_mode)
		mode = cfg.mode;
	ret = rg_nl_open(&nl, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "rg-record-facts: %s\n", err);
		return 1;
	}
	rg_facts_gather(nl, &cfg, &facts);
	ret = rg_facts_to_json(&facts, &facts_text);
	if (!ret)
		maps_text = plan_text(&facts, &cfg, mode, prev_path ? &prev : NULL);
	ret = ret ? ret : write_text(argv[optind], facts_text);
	ret = ret ? ret : write_text(argv[optind + 1], maps_text);
	free(facts_text);
	free(maps_text);
	rg_facts_free(&facts);
	rg_nl_close(nl);
	rg_config_free(&cfg);
	return ret ? 1 : 0;
}
