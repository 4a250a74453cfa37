// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The read-only commands: status, stats and lookup.  Each reads the pinned
 * maps of the running datapath and never writes them (stats --reset
 * aside), so they are safe to run while traffic flows and while `up`
 * reloads (they take the pin lock only long enough to open the maps).
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

/* ---- status ---------------------------------------------------------- */

/* What this build is, in every status document: up or not. */
static void add_build_json(struct json_object *o)
{
	json_object_object_add(o, "version", json_object_new_string(rg_version));
	json_object_object_add(o, "commit", json_object_new_string(rg_git_commit));
	json_object_object_add(o, "abi_version", json_object_new_int(RG_ABI_VERSION));
}

/* The monitors whose lease is live now (`railgate monitor`). */
static struct json_object *monitors_json(const struct rg_datapath *dp)
{
	struct json_object *arr = json_object_new_array();
	struct timespec ts;
	uint64_t now;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (uint64_t)ts.tv_sec * RG_NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
	for (int i = 0; i < RG_MONITOR_SLOTS; i++) {
		const struct rg_monitor_slot *s = &dp->maps.state->monitor_slots[i];
		uint64_t until = __atomic_load_n(&s->until_ns, __ATOMIC_ACQUIRE);
		struct json_object *x;

		if (until <= now)
			continue;
		x = json_object_new_object();
		json_object_object_add(x, "slot", json_object_new_int(i));
		json_object_object_add(x, "scope", json_object_new_string(
			s->scope == RG_MONITOR_ALL ? "all" : "drops"));
		json_object_object_add(x, "pid", json_object_new_int64(s->owner_pid));
		json_object_object_add(x, "lease_ms", json_object_new_int64(
			(int64_t)((until - now) / 1000000)));
		json_object_array_add(arr, x);
	}
	return arr;
}

static struct json_object *status_json(const struct rg_datapath *dp, const struct rg_rail *rails,
				       const struct rg_egress *eg, const struct rg_attached *links,
				       size_t n_links)
{
	struct json_object *o = json_object_new_object(), *arr, *x;
	char buf[64], hex[65];

	rg_digest_hex(dp->maps.state->config_digest, hex);
	json_object_object_add(o, "up", json_object_new_boolean(1));
	add_build_json(o);
	json_object_object_add(o, "pin_dir", json_object_new_string(dp->dir));
	json_object_object_add(o, "config_generation",
			       json_object_new_int64((int64_t)dp->maps.state->config_generation));
	json_object_object_add(o, "config_digest", json_object_new_string(hex));
	json_object_object_add(o, "active_tables", json_object_new_int((int)rg_map_set_active_gen(&dp->maps)));
	x = json_object_new_object();
	json_object_object_add(x, "name", json_object_new_string(rg_ifname_str((int)eg->uplink_ifindex, buf)));
	json_object_object_add(x, "ifindex", json_object_new_int((int)eg->uplink_ifindex));
	json_object_object_add(x, "mac", json_object_new_string(rg_mac_str(eg->uplink_mac, buf)));
	/* the MTU the datapath's too_big check and Fragmentation Needed use */
	json_object_object_add(x, "mtu", json_object_new_int64((int64_t)eg->uplink_mtu));
	json_object_object_add(o, "uplink", x);
	x = json_object_new_object();
	json_object_object_add(x, "ip", json_object_new_string(rg_ip_str(eg->gateway_ip, buf)));
	json_object_object_add(x, "mac", json_object_new_string(rg_mac_str(eg->gateway_mac, buf)));
	json_object_object_add(o, "gateway", x);
	json_object_object_add(o, "anti_spoof",
			       json_object_new_boolean(!!(eg->flags & RG_EGRESS_F_ANTI_SPOOF)));
	arr = json_object_new_array();
	for (int i = 0; i < RG_MAX_RAILS; i++) {
		if (!(rails[i].flags & RG_RAIL_F_VALID))
			continue;
		x = json_object_new_object();
		json_object_object_add(x, "id", json_object_new_int(i));
		json_object_object_add(x, "name", json_object_new_string(rails[i].name));
		json_object_object_add(x, "subnet", json_object_new_string(
			rg_cidr_str(rails[i].subnet, cli_mask_len(rails[i].mask), buf)));
		json_object_object_add(x, "vlan", (rails[i].flags & RG_RAIL_F_VLAN)
				       ? json_object_new_int(rails[i].vlan) : NULL);
		json_object_array_add(arr, x);
	}
	json_object_object_add(o, "rails", arr);
	arr = json_object_new_array();
	for (size_t i = 0; i < n_links; i++) {
		struct rg_representor rep = { 0 };

		rg_map_set_get_representor(&dp->maps, rg_map_set_active_gen(&dp->maps),
					   (uint32_t)links[i].ifindex, &rep);
		x = json_object_new_object();
		json_object_object_add(x, "name", json_object_new_string(rg_ifname_str(links[i].ifindex, buf)));
		json_object_object_add(x, "ifindex", json_object_new_int(links[i].ifindex));
		json_object_object_add(x, "rail", (rep.flags & RG_REP_F_VALID) && rep.rail_id < RG_MAX_RAILS
				       ? json_object_new_string(rails[rep.rail_id].name) : NULL);
		json_object_object_add(x, "mode", json_object_new_string(rg_attach_mode_name(links[i].mode)));
		json_object_object_add(x, "attached", json_object_new_boolean(links[i].alive));
		json_object_array_add(arr, x);
	}
	json_object_object_add(o, "interfaces", arr);
	json_object_object_add(o, "monitors", monitors_json(dp));
	return o;
}

static const struct rg_opt status_options[] = {
	JSON_OPT("one JSON document (docs/commands.md names the fields), with the\n"
		 "version, commit and map ABI of this build"),
	{ 0 },
};

const struct rg_cmd_opts rg_status_opts = {
	.name = "status",
	.usage = "usage: railgate status [--json]",
	.about = "Read the pins: the config generation and digest, the uplink and gateway, and\n"
		 "every attached interface with its rail and attach mode.  Exit 1 when railgate\n"
		 "is not up.",
	.opts = status_options,
	.args_size = sizeof(struct show_opts),
	.after = RG_AFTER_USAGE,
};

int rg_cmd_status(struct rg_global_opts *g, int argc, char **argv)
{
	struct rg_datapath dp;
	struct rg_rail rails[RG_MAX_RAILS];
	struct rg_egress eg = { 0 };
	struct rg_attached *links = NULL;
	struct show_opts o = { 0 };
	size_t n_links = 0;
	struct json_object *js;
	int first;
	enum rg_opts_result r = cli_parse(&rg_status_opts, g, argc, argv, &o, &first);

	if (r != RG_OPTS_RUN)
		return rg_opts_exit(r);
	if (first < argc) {
		rg_opts_usage_line(stderr, &rg_status_opts);
		return RG_EXIT_USAGE;
	}
	if (cli_open_running(g, &dp, "status")) {
		if (o.json) {
			js = json_object_new_object();
			json_object_object_add(js, "up", json_object_new_boolean(0));
			add_build_json(js);
			cli_print_json(js);
		}
		rg_datapath_close(&dp);
		return RG_EXIT_FAIL;
	}
	rg_datapath_active_rails(&dp, rails);
	rg_datapath_active_egress(&dp, &eg);
	rg_datapath_links(&dp, &links, &n_links);
	js = status_json(&dp, rails, &eg, links, n_links);
	if (o.json) {
		cli_print_json(js);
	} else {
		struct json_object *x, *arr;

		printf("railgate is up (pins under %s)\n", dp.dir);
		printf("config generation %s, sha256 %.16s, active tables %d\n",
		       json_object_get_string(json_object_object_get(js, "config_generation")),
		       json_object_get_string(json_object_object_get(js, "config_digest")),
		       json_object_get_int(json_object_object_get(js, "active_tables")));
		x = json_object_object_get(js, "uplink");
		printf("uplink %s (%s, mtu %s), ",
		       json_object_get_string(json_object_object_get(x, "name")),
		       json_object_get_string(json_object_object_get(x, "mac")),
		       json_object_get_string(json_object_object_get(x, "mtu")));
		x = json_object_object_get(js, "gateway");
		printf("gateway %s at %s, anti-spoof %s\n",
		       json_object_get_string(json_object_object_get(x, "ip")),
		       json_object_get_string(json_object_object_get(x, "mac")),
		       (eg.flags & RG_EGRESS_F_ANTI_SPOOF) ? "on" : "off");
		printf("%-16s %-8s %-12s %-12s %s\n", "INTERFACE", "IFINDEX", "RAIL", "MODE", "STATE");
		arr = json_object_object_get(js, "interfaces");
		for (size_t i = 0; i < json_object_array_length(arr); i++) {
			x = json_object_array_get_idx(arr, i);
			printf("%-16s %-8d %-12s %-12s %s\n",
			       json_object_get_string(json_object_object_get(x, "name")),
			       json_object_get_int(json_object_object_get(x, "ifindex")),
			       json_object_get_string(json_object_object_get(x, "rail")) ?: "-",
			       json_object_get_string(json_object_object_get(x, "mode")),
			       json_object_get_boolean(json_object_object_get(x, "attached"))
			       ? "attached" : "device gone");
		}
		arr = json_object_object_get(js, "monitors");
		for (size_t i = 0; i < json_object_array_length(arr); i++) {
			x = json_object_array_get_idx(arr, i);
			printf("monitor pid %s (%s), lease %s ms\n",
			       json_object_get_string(json_object_object_get(x, "pid")),
			       json_object_get_string(json_object_object_get(x, "scope")),
			       json_object_get_string(json_object_object_get(x, "lease_ms")));
		}
		json_object_put(js);
	}
	free(links);
	rg_datapath_close(&dp);
	return RG_EXIT_OK;
}

/* ---- stats ----------------------------------------------------------- */

static struct json_object *counter_json(const struct rg_counter *c)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "packets", json_object_new_int64((int64_t)c->packets));
	json_object_object_add(o, "bytes", json_object_new_int64((int64_t)c->bytes));
	return o;
}

static bool rail_slot_shown(const struct rg_rail *rails, int slot, const struct rg_counter *c)
{
	if (slot < RG_MAX_RAILS && (rails[slot].flags & RG_RAIL_F_VALID))
		return true;
	for (int s = 0; s < RG_STAT_MAX; s++)   /* removed rails and unknown: when non-zero */
		if (c[RG_STAT_INDEX(slot, s)].packets)
			return true;
	return false;
}

static const char *slot_name(const struct rg_rail *rails, int slot, char *buf)
{
	if (slot == RG_RAIL_UNKNOWN)
		return "unknown";
	if (rails[slot].flags & RG_RAIL_F_VALID)
		return rails[slot].name;
	snprintf(buf, 16, "#%d", slot);
	return buf;
}

/* The side counters (enum rg_side) of the node, by name. */
static struct json_object *side_json(const struct rg_counter *side)
{
	struct json_object *o = json_object_new_object();

	for (int i = 0; i < RG_SIDE_MAX; i++)
		json_object_object_add(o, rg_side_name(i), counter_json(&side[i]));
	return o;
}

static struct json_object *stats_json(const struct rg_rail *rails, const struct rg_counter *c,
				      const struct rg_counter *side)
{
	struct json_object *o = json_object_new_object(), *arr = json_object_new_array();
	struct json_object *tot = json_object_new_object();
	struct rg_counter sum[RG_STAT_MAX] = { 0 };
	char buf[16];

	for (int slot = 0; slot <= RG_RAIL_UNKNOWN; slot++) {
		struct json_object *r, *cs;

		for (int s = 0; s < RG_STAT_MAX; s++) {
			sum[s].packets += c[RG_STAT_INDEX(slot, s)].packets;
			sum[s].bytes += c[RG_STAT_INDEX(slot, s)].bytes;
		}
		if (!rail_slot_shown(rails, slot, c))
			continue;
		r = json_object_new_object();
		cs = json_object_new_object();
		json_object_object_add(r, "rail", json_object_new_string(slot_name(rails, slot, buf)));
		json_object_object_add(r, "id", json_object_new_int(slot));
		for (int s = 0; s < RG_STAT_MAX; s++)
			json_object_object_add(cs, rg_stat_name(s), counter_json(&c[RG_STAT_INDEX(slot, s)]));
		json_object_object_add(r, "counters", cs);
		json_object_array_add(arr, r);
	}
	for (int s = 0; s < RG_STAT_MAX; s++)
		json_object_object_add(tot, rg_stat_name(s), counter_json(&sum[s]));
	json_object_object_add(o, "rails", arr);
	json_object_object_add(o, "total", tot);
	json_object_object_add(o, "side", side_json(side));
	return o;
}

/* The side counters that moved, as rows of rail "node". */
static void side_table(const struct rg_counter *side)
{
	for (int i = 0; i < RG_SIDE_MAX; i++)
		if (side[i].packets)
			printf("%-12s %-18s %14llu %16llu\n", "node", rg_side_name(i),
			       (unsigned long long)side[i].packets,
			       (unsigned long long)side[i].bytes);
}

static void stats_table(const struct rg_rail *rails, const struct rg_counter *c,
			const struct rg_counter *prev, double secs)
{
	char buf[16];

	if (prev)
		printf("%-12s %-18s %14s %16s\n", "RAIL", "VERDICT/DROP", "PACKETS/s", "BITS/s");
	else
		printf("%-12s %-18s %14s %16s\n", "RAIL", "VERDICT/DROP", "PACKETS", "BYTES");
	for (int slot = 0; slot <= RG_RAIL_UNKNOWN; slot++) {
		if (!rail_slot_shown(rails, slot, c))
			continue;
		for (int s = 0; s < RG_STAT_MAX; s++) {
			const struct rg_counter *x = &c[RG_STAT_INDEX(slot, s)];
			char label[40];

			if (!x->packets)
				continue;
			snprintf(label, sizeof(label), "%s%s", rg_stat_is_drop(s) ? "drop " : "",
				 rg_stat_name(s));
			if (prev) {
				const struct rg_counter *p = &prev[RG_STAT_INDEX(slot, s)];

				printf("%-12s %-18s %14.0f %16.0f\n", slot_name(rails, slot, buf), label,
				       (double)(x->packets - p->packets) / secs,
				       (double)(x->bytes - p->bytes) * 8 / secs);
			} else {
				printf("%-12s %-18s %14llu %16llu\n", slot_name(rails, slot, buf), label,
				       (unsigned long long)x->packets, (unsigned long long)x->bytes);
			}
		}
	}
}

static volatile sig_atomic_t stop_watch;

static void on_sigint(int sig)
{
	(void)sig;
	stop_watch = 1;
}

static const struct rg_opt stats_options[] = {
	JSON_OPT("one JSON document (docs/commands.md names the fields)"),
	{ .name = "watch", .short_name = 'w', .arg = "SECS", .kind = RG_OPT_DOUBLE,
	  .offset = offsetof(struct show_opts, watch), .min = DBL_TRUE_MIN, .max = INFINITY,
	  .help = "every SECS seconds, the rates over that interval (with --json,\n"
		  "the counters, one document per line), until SIGINT or SIGTERM" },
	{ .name = "count", .short_name = 'n', .arg = "N", .kind = RG_OPT_LONG,
	  .offset = offsetof(struct show_opts, count), .min = 1, .max = LONG_MAX,
	  .help = "with --watch: stop after N intervals" },
	{ .name = "reset", .short_name = 'r', .kind = RG_OPT_FLAG, .offset = offsetof(struct show_opts, reset),
	  .help = "zero every counter" },
	{ 0 },
};

const struct rg_cmd_opts rg_stats_opts = {
	.name = "stats",
	.usage = "usage: railgate stats [--json] [--watch SECS [--count N]] [--reset]",
	.about = "Print the per-CPU counters summed: packets and bytes per rail and verdict (rows\n"
		 "with no packets left out).",
	.opts = stats_options,
	.args_size = sizeof(struct show_opts),
	.after = RG_AFTER_USAGE,
};

int rg_cmd_stats(struct rg_global_opts *g, int argc, char **argv)
{
	enum rg_opts_result p;
	int first;
	struct rg_counter *c, *prev;
	struct rg_rail rails[RG_MAX_RAILS];
	struct rg_datapath dp;
	struct show_opts o = { 0 };
	char err[256];
	int ret = RG_EXIT_FAIL;

	p = cli_parse(&rg_stats_opts, g, argc, argv, &o, &first);
	if (p != RG_OPTS_RUN)
		return rg_opts_exit(p);
	if (first < argc) {
		rg_opts_usage_line(stderr, &rg_stats_opts);
		return RG_EXIT_USAGE;
	}
	if (cli_open_running(g, &dp, "stats")) {
		rg_datapath_close(&dp);
		return RG_EXIT_FAIL;
	}
	c = calloc(RG_STAT_SLOTS, sizeof(*c));
	prev = calloc(RG_STAT_SLOTS, sizeof(*prev));
	if (!c || !prev)
		goto out;
	if (o.reset) {
		if (rg_map_set_reset_stats(&dp.maps, err, sizeof(err))) {
			fprintf(stderr, "railgate stats: %s\n", err);
			goto out;
		}
		printf("counters reset\n");
		ret = RG_EXIT_OK;
		goto out;
	}
	rg_datapath_active_rails(&dp, rails);
	if (rg_map_set_read_stats(&dp.maps, c, err, sizeof(err))) {
		fprintf(stderr, "railgate stats: %s\n", err);
		goto out;
	}
	if (!o.watch) {
		struct rg_counter side[RG_SIDE_MAX];

		if (rg_map_set_read_side_stats(&dp.maps, side, err, sizeof(err))) {
			fprintf(stderr, "railgate stats: %s\n", err);
			goto out;
		}
		if (o.json) {
			cli_print_json(stats_json(rails, c, side));
		} else {
			stats_table(rails, c, NULL, 0);
			side_table(side);
		}
		ret = RG_EXIT_OK;
		goto out;
	}
	signal(SIGINT, on_sigint);
	signal(SIGTERM, on_sigint);
	for (long i = 0; !stop_watch && (!o.count || i < o.count); i++) {
		struct timespec ts = { (time_t)o.watch, (long)((o.watch - (time_t)o.watch) * 1e9) };

		memcpy(prev, c, RG_STAT_SLOTS * sizeof(*c));
		nanosleep(&ts, NULL);
		if (stop_watch)
			break;
		rg_datapath_active_rails(&dp, rails);
		if (rg_map_set_read_stats(&dp.maps, c, err, sizeof(err))) {
			fprintf(stderr, "railgate stats: %s\n", err);
			goto out;
		}
		if (o.json) {
			struct rg_counter side[RG_SIDE_MAX] = { 0 };
			struct json_object *js;

			/* the side counters as totals: they are no frame rates */
			rg_map_set_read_side_stats(&dp.maps, side, err, sizeof(err));
			js = stats_json(rails, c, side);

			json_object_object_add(js, "interval_seconds", json_object_new_double(o.watch));
			printf("%s\n", json_object_to_json_string_ext(js, JSON_C_TO_STRING_PLAIN));
			json_object_put(js);
		} else {
			printf("--- rates over %.1f s\n", o.watch);
			stats_table(rails, c, prev, o.watch);
		}
		fflush(stdout);
	}
	ret = RG_EXIT_OK;
out:
	free(c);
	free(prev);
	rg_datapath_close(&dp);
	return ret;
}

/* ---- lookup ---------------------------------------------------------- */

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
