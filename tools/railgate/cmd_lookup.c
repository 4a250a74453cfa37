// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * railgate lookup, a read-only command: it reads the pinned maps of the running
 * datapath and never writes them (stats --reset aside), so it is safe to run
 * while traffic flows and while `up` reloads (it takes the pin lock only long
 * enough to open the maps).
 */
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <json-c/json.h>

#include "tools/railgate/commands.h"
#include "tools/railgate/cli.h"
#include "tools/railgate/version.h"
#include "loader/datapath/datapath.h"
#include "lib/digest.h"

struct show_opts {
	bool json;
	double watch;                /* seconds, 0 = once */
	long count;                  /* watch iterations, 0 = until interrupted */
	bool reset;
	const char *from;
	const char *ip;
};

#define JSON_OPT(help_text) \
	{ .name = "json", .short_name = 'j', .kind = RG_OPT_FLAG, \
	  .offset = offsetof(struct show_opts, json), .help = help_text }


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

static const struct rg_opt lookup_options[] = {
	{ .name = "from", .short_name = 'f', .arg = "IFNAME", .kind = RG_OPT_STRING,
	  .offset = offsetof(struct show_opts, from), .complete = RG_COMPLETE_IFNAME,
	  .help = "the ingress representor (without it, a destination in a rail\n"
		  "is cross_rail_or_local)" },
	JSON_OPT("one JSON document (docs/commands.md names the fields)"),
	{ 0 },
};

const struct rg_cmd_opts rg_lookup_opts = {
	.name = "lookup",
	.usage = "usage: railgate lookup IP [--from IFNAME] [--json]",
	.about = "Answer from the live maps of the active generation, as the datapath would: the\n"
		 "verdict for a frame to IP, the rail or prefix that matched, the zone, and the\n"
		 "rewrite for a redirected verdict.",
	.opts = lookup_options,
	.args_size = sizeof(struct show_opts),
	.after = RG_AFTER_USAGE,
};

int rg_cmd_lookup(struct rg_global_opts *g, int argc, char **argv)
{
	enum rg_opts_result p;
	int first;
	struct rg_rail rails[RG_MAX_RAILS];
	struct rg_egress eg = { 0 };
	struct rg_fib_image img;
	struct rg_datapath dp;
	struct show_opts o = { 0 };
	struct in_addr a;
	struct json_object *js;
	const char *verdict_name, *zone;
	char zbuf[20], desc[64], mac[18], mac2[18], upn[IF_NAMESIZE], why[256], err[256];
	uint32_t dst, entry, verdict;
	bool or_local, rewrites;
	int from_rail = -1;

	p = cli_parse(&rg_lookup_opts, g, argc, argv, &o, &first);
	if (p != RG_OPTS_RUN)
		return rg_opts_exit(p);
	if (first + 1 != argc) {        /* one IP, nothing else */
		rg_opts_usage_line(stderr, &rg_lookup_opts);
		return RG_EXIT_USAGE;
	}
	o.ip = argv[first];
	if (inet_pton(AF_INET, o.ip, &a) != 1) {
		fprintf(stderr, "railgate lookup: '%s' is not an IPv4 address\n", o.ip);
		return RG_EXIT_USAGE;
	}
	dst = ntohl(a.s_addr);
	if (cli_open_running(g, &dp, "lookup")) {
		rg_datapath_close(&dp);
		return RG_EXIT_FAIL;
	}
	if (o.from) {
		unsigned ifindex = if_nametoindex(o.from);
		struct rg_representor rep = { 0 };

		if (!ifindex ||
		    rg_map_set_get_representor(&dp.maps, rg_map_set_active_gen(&dp.maps),
						ifindex, &rep) ||
		    !(rep.flags & RG_REP_F_VALID)) {
			fprintf(stderr, "railgate lookup: %s is not a representor railgate is attached to\n",
				o.from);
			rg_datapath_close(&dp);
			return RG_EXIT_FAIL;
		}
		from_rail = rep.rail_id;
	}
	rg_datapath_active_rails(&dp, rails);
	rg_datapath_active_egress(&dp, &eg);
	/* The tables the datapath reads, copied out, so that lookup runs
	 * the code the tests prove against a reference LPM. */
	if (rg_map_set_read_image(&dp.maps, rg_map_set_active_gen(&dp.maps), &img,
				  err, sizeof(err))) {
		fprintf(stderr, "railgate lookup: cannot read the tables: %s\n", err);
		rg_datapath_close(&dp);
		return RG_EXIT_FAIL;
	}
	/* The datapath's own verdict function, over the tables it reads. */
	verdict = rg_fib_image_verdict(&img, dst,
				       from_rail >= 0 ? (uint32_t)from_rail : RG_RAIL_UNKNOWN, &entry);
	/* Without --from the ingress rail is unknown: a rail's destination is
	 * cross-rail from every rail but its own. */
	or_local = verdict == RG_VERDICT_CROSS_RAIL && from_rail < 0;
	rewrites = rg_stat_is_forward(verdict) && !or_local;
	verdict_name = or_local ? "cross_rail_or_local" : rg_stat_name(verdict);
	zone = matched_zone(&img, dst, zbuf);
	cli_route_desc(entry, rails, desc, sizeof(desc));
	lookup_reason(o.ip, entry, rails, why, sizeof(why));
	rg_ifname_str((int)eg.uplink_ifindex, upn);
	js = json_object_new_object();
	json_object_object_add(js, "ip", json_object_new_string(o.ip));
	json_object_object_add(js, "from", o.from ? json_object_new_string(o.from) : NULL);
	json_object_object_add(js, "from_rail", from_rail >= 0 ? json_object_new_string(rails[from_rail].name) : NULL);
	json_object_object_add(js, "verdict", json_object_new_string(verdict_name));
	json_object_object_add(js, "match", json_object_new_string(desc));
	json_object_object_add(js, "zone", zone ? json_object_new_string(zone) : NULL);
	json_object_object_add(js, "reason", json_object_new_string(why));
	if (rewrites) {
		struct json_object *e = json_object_new_object();

		json_object_object_add(e, "uplink", json_object_new_string(upn));
		json_object_object_add(e, "dst_mac", json_object_new_string(rg_mac_str(eg.gateway_mac, mac)));
		json_object_object_add(e, "src_mac", json_object_new_string(rg_mac_str(eg.uplink_mac, mac2)));
		if (from_rail >= 0 && (rails[from_rail].flags & RG_RAIL_F_VLAN))
			json_object_object_add(e, "vlan", json_object_new_int(rails[from_rail].vlan));
		json_object_object_add(js, "rewrite", e);
	}
	if (o.json) {
		cli_print_json(js);
	} else {
		printf("%s: %s\n", o.ip, verdict_name);
		printf("  why:   %s%s%s\n", why, zone ? ", matched below zone " : "", zone ? zone : "");
		if (from_rail >= 0)
			printf("  from:  %s (rail %s)\n", o.from, rails[from_rail].name);
		if (rewrites)
			printf("  then:  dst MAC %s, src MAC %s, TTL-1, %sredirect to %s\n",
			       rg_mac_str(eg.gateway_mac, mac), rg_mac_str(eg.uplink_mac, mac2),
			       from_rail >= 0 && (rails[from_rail].flags & RG_RAIL_F_VLAN) ? "VLAN tag pushed, " : "",
			       upn);
		else if (or_local)
			printf("  then:  pass from rail %s itself, cross-rail from any other (give --from)\n",
			       rails[RG_ROUTE_ARG(entry) % RG_MAX_RAILS].name);
		json_object_put(js);
	}
	rg_fib_image_free(&img);
	rg_datapath_close(&dp);
	return RG_EXIT_OK;
}
