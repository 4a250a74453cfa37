// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * railgate lookup, a read-only command: it reads the pinned maps of the running
 * datapath and never writes them (stats --reset aside), so it is safe to run
 * while traffic flows and while `up` reloads (it takes the pin lock only long
 * enough to open the maps).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <json-c/json.h>

#include "tools/railgate/commands.h"
#include "tools/railgate/cli.h"
#include "loader/datapath/datapath.h"

struct lookup_args {
	const char *from;
	bool json;
};

/* The answer, as the datapath would give it for a frame to ip. */
struct lookup_view {
	const char *ip;              /* as given */
	const char *from;            /* --from, or NULL */
	int from_rail;               /* its representor's rail, or -1 */
	struct rg_rail rails[RG_MAX_RAILS];
	struct rg_egress eg;
	char uplink[IF_NAMESIZE];
	uint32_t entry;              /* the route entry that matched */
	const char *verdict;         /* the stat name, or cross_rail_or_local */
	bool or_local;               /* no --from and a rail's destination */
	bool rewrites;               /* forwarded: the MAC rewrite and redirect */
	const char *zone;            /* the zone matched below, or NULL */
	char zone_buf[RG_CIDR_STR_LEN];
	char match[64];              /* "rail rail1", "frontend", ... */
	char why[256];
};

/* ---- gathering --------------------------------------------------------- */

static const char *matched_zone(const struct rg_fib_image *img, uint32_t dst, char *buf)
{
	for (uint32_t i = 0; i < img->zones.count && i < RG_MAX_ZONES; i++)
		if ((dst & img->zones.zones[i].mask) == img->zones.zones[i].net)
			return rg_cidr_str(img->zones.zones[i].net, cli_mask_len(img->zones.zones[i].mask), buf);
	return NULL;
}

/* Why the table says what it says about ip: the prefix kind that matched. */
static void lookup_reason(const char *ip, uint32_t entry, const struct rg_rail *rails,
			  char *why, size_t n)
{
	switch (RG_ROUTE_KIND(entry)) {
	case RG_ROUTE_RAIL: {
		const struct rg_rail *r = &rails[RG_ROUTE_ARG(entry) % RG_MAX_RAILS];
		char rbuf[RG_CIDR_STR_LEN];

		snprintf(why, n, "%s is in rail %s (%s)", ip, r->name,
			 rg_cidr_str(r->subnet, cli_mask_len(r->mask), rbuf));
		break;
	}
	case RG_ROUTE_FRONTEND:
		snprintf(why, n, "%s is in a front-end prefix", ip);
		break;
	case RG_ROUTE_BLACKHOLE:
		snprintf(why, n, "%s is inside a supernet but in no rail", ip);
		break;
	default:
		snprintf(why, n, "%s is in no rail, supernet or front-end prefix", ip);
	}
}

/* --from's rail: 0, or 1 when the interface is no representor railgate is attached to. */
static int gather_from_rail(const struct rg_datapath *dp, struct lookup_view *v)
{
	unsigned ifindex;
	struct rg_representor rep = { 0 };

	v->from_rail = -1;
	if (!v->from)
		return 0;
	ifindex = if_nametoindex(v->from);
	if (!ifindex ||
	    rg_map_set_get_representor(&dp->maps, rg_map_set_active_gen(&dp->maps), ifindex, &rep) ||
	    !(rep.flags & RG_REP_F_VALID)) {
		fprintf(stderr, "railgate lookup: %s is not a representor railgate is attached to\n",
			v->from);
		return -1;
	}
	v->from_rail = rep.rail_id;
	return 0;
}

/* Everything lookup says about dst; 0, or -1 said on stderr. */
static int gather_lookup(const struct rg_datapath *dp, uint32_t dst, struct lookup_view *v)
{
	struct rg_fib_image img;
	char err[256];
	uint32_t verdict;

	if (gather_from_rail(dp, v))
		return -1;
	rg_datapath_active_rails(dp, v->rails);
	rg_datapath_active_egress(dp, &v->eg);
	/* The tables the datapath reads, copied out, so that lookup runs
	 * the code the tests prove against a reference LPM. */
	if (rg_map_set_read_image(&dp->maps, rg_map_set_active_gen(&dp->maps), &img,
				  err, sizeof(err))) {
		fprintf(stderr, "railgate lookup: cannot read the tables: %s\n", err);
		return -1;
	}
	/* The datapath's own verdict function, over the tables it reads. */
	verdict = rg_fib_image_verdict(&img, dst,
				       v->from_rail >= 0 ? (uint32_t)v->from_rail : RG_RAIL_UNKNOWN, &v->entry);
	/* Without --from the ingress rail is unknown: a rail's destination is
	 * cross-rail from every rail but its own. */
	v->or_local = verdict == RG_VERDICT_CROSS_RAIL && v->from_rail < 0;
	v->rewrites = rg_stat_is_forward(verdict) && !v->or_local;
	v->verdict = v->or_local ? "cross_rail_or_local" : rg_stat_name(verdict);
	v->zone = matched_zone(&img, dst, v->zone_buf);
	cli_route_desc(v->entry, v->rails, v->match, sizeof(v->match));
	lookup_reason(v->ip, v->entry, v->rails, v->why, sizeof(v->why));
	rg_ifname_str((int)v->eg.uplink_ifindex, v->uplink);
	rg_fib_image_free(&img);
	return 0;
}

/* ---- rendering --------------------------------------------------------- */

static bool from_vlan(const struct lookup_view *v)
{
	return v->from_rail >= 0 && (v->rails[v->from_rail].flags & RG_RAIL_F_VLAN);
}

static struct json_object *lookup_json(const struct lookup_view *v)
{
	struct json_object *js = json_object_new_object();
	char mac[18], mac2[18];

	json_object_object_add(js, "ip", json_object_new_string(v->ip));
	json_object_object_add(js, "from", v->from ? json_object_new_string(v->from) : NULL);
	json_object_object_add(js, "from_rail", v->from_rail >= 0
			       ? json_object_new_string(v->rails[v->from_rail].name) : NULL);
	json_object_object_add(js, "verdict", json_object_new_string(v->verdict));
	json_object_object_add(js, "match", json_object_new_string(v->match));
	json_object_object_add(js, "zone", v->zone ? json_object_new_string(v->zone) : NULL);
	json_object_object_add(js, "reason", json_object_new_string(v->why));
	if (v->rewrites) {
		struct json_object *e = json_object_new_object();

		json_object_object_add(e, "uplink", json_object_new_string(v->uplink));
		json_object_object_add(e, "dst_mac", json_object_new_string(rg_mac_str(v->eg.gateway_mac, mac)));
		json_object_object_add(e, "src_mac", json_object_new_string(rg_mac_str(v->eg.uplink_mac, mac2)));
		if (from_vlan(v))
			json_object_object_add(e, "vlan", json_object_new_int(v->rails[v->from_rail].vlan));
		json_object_object_add(js, "rewrite", e);
	}
	return js;
}

static void lookup_text(const struct lookup_view *v)
{
	char mac[18], mac2[18];

	printf("%s: %s\n", v->ip, v->verdict);
	printf("  why:   %s%s%s\n", v->why, v->zone ? ", matched below zone " : "", v->zone ? v->zone : "");
	if (v->from_rail >= 0)
		printf("  from:  %s (rail %s)\n", v->from, v->rails[v->from_rail].name);
	if (v->rewrites)
		printf("  then:  dst MAC %s, src MAC %s, TTL-1, %sredirect to %s\n",
		       rg_mac_str(v->eg.gateway_mac, mac), rg_mac_str(v->eg.uplink_mac, mac2),
		       from_vlan(v) ? "VLAN tag pushed, " : "", v->uplink);
	else if (v->or_local)
		printf("  then:  pass from rail %s itself, cross-rail from any other (give --from)\n",
		       v->rails[RG_ROUTE_ARG(v->entry) % RG_MAX_RAILS].name);
}

static const struct rg_opt lookup_options[] = {
	{ .name = "from", .short_name = 'f', .arg = "IFNAME", .kind = RG_OPT_STRING,
	  .offset = offsetof(struct lookup_args, from), .complete = RG_COMPLETE_IFNAME,
	  .help = "the ingress representor (without it, a destination in a rail\n"
		  "is cross_rail_or_local)" },
	{ .name = "json", .short_name = 'j', .kind = RG_OPT_FLAG, .offset = offsetof(struct lookup_args, json),
	  .help = "one JSON document (docs/commands.md names the fields)" },
	{ 0 },
};

const struct rg_cmd_opts rg_lookup_opts = {
	.name = "lookup",
	.usage = "usage: railgate lookup IP [--from IFNAME] [--json]",
	.about = "Answer from the live maps of the active generation, as the datapath would: the\n"
		 "verdict for a frame to IP, the rail or prefix that matched, the zone, and the\n"
		 "rewrite for a redirected verdict.",
	.opts = lookup_options,
	.args_size = sizeof(struct lookup_args),
	.after = RG_AFTER_USAGE,
};

int rg_cmd_lookup(struct rg_global_opts *g, int argc, char **argv)
{
	struct lookup_args a = { 0 };
	struct lookup_view v = { 0 };
	struct rg_datapath dp;
	struct in_addr in;
	int first, ret = RG_EXIT_OK;
	enum rg_opts_result r = cli_parse(&rg_lookup_opts, g, argc, argv, &a, &first);

	if (r != RG_OPTS_RUN)
		return rg_opts_exit(r);
	if (first + 1 != argc) {        /* one IP, nothing else */
		rg_opts_usage_line(stderr, &rg_lookup_opts);
		return RG_EXIT_USAGE;
	}
	v.ip = argv[first];
	v.from = a.from;
	if (inet_pton(AF_INET, v.ip, &in) != 1) {
		fprintf(stderr, "railgate lookup: '%s' is not an IPv4 address\n", v.ip);
		return RG_EXIT_USAGE;
	}
	if (cli_open_running(g, &dp, "lookup")) {
		rg_datapath_close(&dp);
		return RG_EXIT_FAIL;
	}
	if (gather_lookup(&dp, ntohl(in.s_addr), &v))
		ret = RG_EXIT_FAIL;
	else if (a.json)
		cli_print_json(lookup_json(&v));
	else
		lookup_text(&v);
	rg_datapath_close(&dp);
	return ret;
}
