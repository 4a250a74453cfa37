// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * railgate status, a read-only command: it reads the pinned maps of the running
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
