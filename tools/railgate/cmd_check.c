// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* railgate check -c FILE: validate and print the compiled table.  Touches
 * nothing: no netlink, no BPF. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/railgate/commands.h"
#include "tools/railgate/cli.h"
#include "lib/digest.h"
#include "maps/fib.h"

static int route_cmp(const void *a, const void *b)
{
	const struct rg_route *x = a, *y = b;

	if (x->len != y->len)
		return y->len - x->len;      /* longest prefix first */
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void print_rails(const struct rg_config *cfg, const struct rg_plan *plan)
{
	char sub[19], gw[16];

	printf("rails:\n  %-3s %-12s %-18s %-15s %-5s %s\n", "ID", "NAME", "SUBNET", "GATEWAY",
	       "VLAN", "REPRESENTORS");
	for (size_t i = 0; i < cfg->n_rails; i++) {
		const struct rg_config_rail *r = &cfg->rails[i];
		char vlan[8] = "-";

		if (r->vlan > 0)
			snprintf(vlan, sizeof(vlan), "%d", r->vlan);
		printf("  %-3d %-12s %-18s %-15s %-5s ", rg_plan_rail_id(plan, r->name), r->name,
		       rg_cidr_str(r->subnet.addr, r->subnet.len, sub), rg_ip_str(r->gateway, gw), vlan);
		if (r->pf[0])
			printf("the VF representors of pf %s", r->pf);
		for (size_t j = 0; j < r->n_representors; j++)
			printf("%s%s", j ? ", " : "", r->representors[j]);
		printf("\n");
	}
}

static void print_table(struct rg_plan *plan)
{
	char cidr[19], desc[64];

	qsort(plan->routes, plan->n_routes, sizeof(plan->routes[0]), route_cmp);
	printf("compiled table (longest prefix first; the ingress rail's own subnet passes):\n");
	printf("  %-18s %s\n", "PREFIX", "VERDICT");
	for (size_t i = 0; i < plan->n_routes; i++) {
		const struct rg_route *r = &plan->routes[i];
		const char *what = cli_route_desc(r->entry, plan->rails, desc, sizeof(desc));

		if (RG_ROUTE_KIND(r->entry) == RG_ROUTE_RAIL)
			printf("  %-18s cross-rail to %s (pass from %s itself)\n",
			       rg_cidr_str(r->addr, r->len, cidr), what + 5, what + 5);
		else if (RG_ROUTE_KIND(r->entry) == RG_ROUTE_FRONTEND)
			printf("  %-18s to the front-end via the uplink\n", rg_cidr_str(r->addr, r->len, cidr));
		else
			printf("  %-18s %s\n", rg_cidr_str(r->addr, r->len, cidr), what);
	}
	printf("  %-18s pass (the pod's own routes decide)\n", "anything else");
}

struct check_args {
	const char *config;
};

static const struct rg_opt check_options[] = {
	{ .name = "config", .short_name = 'c', .arg = "FILE", .kind = RG_OPT_STRING,
	  .offset = offsetof(struct check_args, config), .complete = RG_COMPLETE_FILE,
	  .help = "the RailConfig (default " RG_DEFAULT_CONFIG ")" },
	{ 0 },
};

const struct rg_cmd_opts rg_check_opts = {
	.name = "check",
	.usage = "usage: railgate check [-c FILE]",
	.about = "Parse and validate a RailConfig (no kernel access, no root needed) and print\n"
		 "the rails and the compiled table, longest prefix first.  An error names\n"
		 "FILE:LINE:COL; every error in the file is reported.",
	.opts = check_options,
	.args_size = sizeof(struct check_args),
	.after = RG_AFTER_USAGE,
};

int rg_cmd_check(struct rg_global_opts *g, int argc, char **argv)
{
	struct check_args a = { .config = RG_DEFAULT_CONFIG };
	const char *path;
	struct rg_config cfg = { 0 };
	struct rg_plan plan = { 0 };
	struct rg_fib_image img = { 0 };
	char err[512], hex[65], gw[16];
	int first, ret = RG_EXIT_FAIL;
	enum rg_opts_result r = cli_parse(&rg_check_opts, g, argc, argv, &a, &first);

	if (r != RG_OPTS_RUN)
		return rg_opts_exit(r);
	path = a.config;    /* arguments after the options: ignored, as always */
	if (cli_load_config(path, &cfg))
		return RG_EXIT_FAIL;
	if (rg_plan_build(&plan, &cfg, NULL, err, sizeof(err)) ||
	    rg_fib_compile(plan.routes, plan.n_routes, &img, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", path, err);
		goto out;
	}
	rg_digest_hex(cfg.sha256, hex);
	printf("%s: valid (config %s, sha256 %.16s)\n", path, cfg.name, hex);
	printf("uplink %s, gateway %s, mode %s, tc attach %s, anti-spoof %s\n",
	       cfg.computenet.uplink_discover ? "auto (the route to the gateway)" : cfg.computenet.uplink,
	       rg_ip_str(cfg.computenet.gateway, gw), rg_config_mode_name(cfg.mode),
	       rg_config_tc_attach_name(cfg.tc_attach), cfg.anti_spoof ? "on" : "off");
	print_rails(&cfg, &plan);
	print_table(&plan);
	printf("datapath tables: %u zones, %u tbl24 slots, %u tbl8 groups, %zu LPM fallback entries\n",
	       img.zones.count, img.tbl24_used, img.tbl8_groups_used, img.lpm_count);
	ret = RG_EXIT_OK;
out:
	rg_fib_image_free(&img);
	rg_plan_free(&plan);
	rg_config_free(&cfg);
	return ret;
}
