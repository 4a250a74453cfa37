// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * railgate stats, a read-only command: it reads the pinned maps of the running
 * datapath and never writes them (stats --reset aside), so it is safe to run
 * while traffic flows and while `up` reloads (it takes the pin lock only long
 * enough to open the maps).
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>

#include "tools/railgate/commands.h"
#include "tools/railgate/cli.h"
#include "loader/datapath/datapath.h"

struct stats_args {
	bool json;
	double watch;                /* seconds, 0 = once */
	long count;                  /* watch intervals, 0 = until interrupted */
	bool reset;
};

/* What one read of the pins gives: the active rails, the per-CPU counters
 * summed (RG_STAT_SLOTS of them) and the node's side counters. */
struct stats_view {
	struct rg_rail rails[RG_MAX_RAILS];
	struct rg_counter *c;
	struct rg_counter side[RG_SIDE_MAX];
};

/* ---- rendering --------------------------------------------------------- */

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

static struct json_object *stats_json(const struct stats_view *v)
{
	const struct rg_rail *rails = v->rails;
	const struct rg_counter *c = v->c;
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
	json_object_object_add(o, "side", side_json(v->side));
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

/* The counters, or with prev (the read secs before) the rates. */
static void stats_table(const struct stats_view *v, const struct rg_counter *prev, double secs)
{
	const struct rg_rail *rails = v->rails;
	const struct rg_counter *c = v->c;
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

/* ---- gathering --------------------------------------------------------- */

/* The rails and the counters; with_side: the side counters too, else
 * they stay as they were. */
static int gather_stats(const struct rg_datapath *dp, struct stats_view *v, bool with_side)
{
	char err[256];

	rg_datapath_active_rails(dp, v->rails);
	if (rg_map_set_read_stats(&dp->maps, v->c, err, sizeof(err)) ||
	    (with_side && rg_map_set_read_side_stats(&dp->maps, v->side, err, sizeof(err)))) {
		fprintf(stderr, "railgate stats: %s\n", err);
		return -1;
	}
	return 0;
}

/* ---- the three ways to run --------------------------------------------- */

static int stats_reset(struct rg_datapath *dp)
{
	char err[256];

	if (rg_map_set_reset_stats(&dp->maps, err, sizeof(err))) {
		fprintf(stderr, "railgate stats: %s\n", err);
		return RG_EXIT_FAIL;
	}
	printf("counters reset\n");
	return RG_EXIT_OK;
}

static int stats_once(const struct rg_datapath *dp, const struct stats_args *a, struct stats_view *v)
{
	if (gather_stats(dp, v, true))
		return RG_EXIT_FAIL;
	if (a->json) {
		cli_print_json(stats_json(v));
	} else {
		stats_table(v, NULL, 0);
		side_table(v->side);
	}
	return RG_EXIT_OK;
}

static volatile sig_atomic_t stop_watch;

static void on_sigint(int sig)
{
	(void)sig;
	stop_watch = 1;
}

/* One interval's line: the rates, or with --json the counters themselves
 * (the side counters as totals: they are no frame rates). */
static void render_interval(struct stats_view *v, const struct rg_counter *prev, double secs,
			    const struct rg_datapath *dp, bool json)
{
	struct json_object *js;

	if (!json) {
		printf("--- rates over %.1f s\n", secs);
		stats_table(v, prev, secs);
		return;
	}
	memset(v->side, 0, sizeof(v->side));
	rg_map_set_read_side_stats(&dp->maps, v->side, NULL, 0);
	js = stats_json(v);
	json_object_object_add(js, "interval_seconds", json_object_new_double(secs));
	printf("%s\n", json_object_to_json_string_ext(js, JSON_C_TO_STRING_PLAIN));
	json_object_put(js);
}

static int stats_watch(const struct rg_datapath *dp, const struct stats_args *a, struct stats_view *v,
		       struct rg_counter *prev)
{
	if (gather_stats(dp, v, false))
		return RG_EXIT_FAIL;
	signal(SIGINT, on_sigint);
	signal(SIGTERM, on_sigint);
	for (long i = 0; !stop_watch && (!a->count || i < a->count); i++) {
		struct timespec ts = { (time_t)a->watch, (long)((a->watch - (time_t)a->watch) * 1e9) };

		memcpy(prev, v->c, RG_STAT_SLOTS * sizeof(*prev));
		nanosleep(&ts, NULL);
		if (stop_watch)
			break;
		if (gather_stats(dp, v, false))
			return RG_EXIT_FAIL;
		render_interval(v, prev, a->watch, dp, a->json);
		fflush(stdout);
	}
	return RG_EXIT_OK;
}

static const struct rg_opt stats_options[] = {
	{ .name = "json", .short_name = 'j', .kind = RG_OPT_FLAG, .offset = offsetof(struct stats_args, json),
	  .help = "one JSON document (docs/commands.md names the fields)" },
	{ .name = "watch", .short_name = 'w', .arg = "SECS", .kind = RG_OPT_DOUBLE,
	  .offset = offsetof(struct stats_args, watch), .min = DBL_TRUE_MIN, .max = INFINITY,
	  .help = "every SECS seconds, the rates over that interval (with --json,\n"
		  "the counters, one document per line), until SIGINT or SIGTERM" },
	{ .name = "count", .short_name = 'n', .arg = "N", .kind = RG_OPT_LONG,
	  .offset = offsetof(struct stats_args, count), .min = 1, .max = LONG_MAX,
	  .help = "with --watch: stop after N intervals" },
	{ .name = "reset", .short_name = 'r', .kind = RG_OPT_FLAG, .offset = offsetof(struct stats_args, reset),
	  .help = "zero every counter" },
	{ 0 },
};

const struct rg_cmd_opts rg_stats_opts = {
	.name = "stats",
	.usage = "usage: railgate stats [--json] [--watch SECS [--count N]] [--reset]",
	.about = "Print the per-CPU counters summed: packets and bytes per rail and verdict (rows\n"
		 "with no packets left out).",
	.opts = stats_options,
	.args_size = sizeof(struct stats_args),
	.after = RG_AFTER_USAGE,
};

int rg_cmd_stats(struct rg_global_opts *g, int argc, char **argv)
{
	struct stats_args a = { 0 };
	struct stats_view v = { 0 };
	struct rg_counter *prev;
	struct rg_datapath dp;
	int first, ret = RG_EXIT_FAIL;
	enum rg_opts_result r = cli_parse(&rg_stats_opts, g, argc, argv, &a, &first);

	if (r != RG_OPTS_RUN)
		return rg_opts_exit(r);
	if (first < argc) {
		rg_opts_usage_line(stderr, &rg_stats_opts);
		return RG_EXIT_USAGE;
	}
	if (cli_open_running(g, &dp, "stats")) {
		rg_datapath_close(&dp);
		return RG_EXIT_FAIL;
	}
	v.c = calloc(RG_STAT_SLOTS, sizeof(*v.c));
	prev = calloc(RG_STAT_SLOTS, sizeof(*prev));
	if (v.c && prev) {
		if (a.reset)
			ret = stats_reset(&dp);
		else if (!a.watch)
			ret = stats_once(&dp, &a, &v);
		else
			ret = stats_watch(&dp, &a, &v, prev);
	}
	free(v.c);
	free(prev);
	rg_datapath_close(&dp);
	return ret;
}
