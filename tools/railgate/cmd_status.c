// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * railgate status, a read-only command: it reads the pinned maps of the running
 * datapath and never writes them (stats --reset aside), so it is safe to run
 * while traffic flows and while `up` reloads (it takes the pin lock only long
 * enough to open the maps).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <net/if.h>
#include <json-c/json.h>

#include "tools/railgate/commands.h"
#include "tools/railgate/cli.h"
#include "tools/railgate/version.h"
#include "loader/datapath/datapath.h"
#include "lib/digest.h"

struct status_args {
	bool json;
};

/* One attached interface. */
struct status_iface {
	char name[IF_NAMESIZE];
	int ifindex;
	const char *rail;            /* its representor's rail; NULL: none */
	enum rg_attach_mode mode;
	bool alive;                  /* false: the device is gone */
};

/* A monitor whose lease is live now (`railgate monitor`). */
struct status_monitor {
	int slot;
	enum rg_monitor_scope scope;
	uint32_t pid;
	int64_t lease_ms;
};

/* Everything status shows, read from the pins once; text and JSON are
 * two renderings of it. */
struct status_view {
	const char *pin_dir;
	uint64_t generation;
	uint8_t digest[32];
	int active_tables;
	char uplink_name[IF_NAMESIZE];
	struct rg_egress eg;
	struct rg_rail rails[RG_MAX_RAILS];
	struct status_iface *ifaces;
	size_t n_ifaces;
	struct status_monitor monitors[RG_MONITOR_SLOTS];
	size_t n_monitors;
};

/* ---- gathering --------------------------------------------------------- */

static void gather_monitors(const struct rg_datapath *dp, struct status_view *v)
{
	struct timespec ts;
	uint64_t now;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (uint64_t)ts.tv_sec * RG_NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
	for (int i = 0; i < RG_MONITOR_SLOTS; i++) {
		const struct rg_monitor_slot *s = &dp->maps.state->monitor_slots[i];
		uint64_t until = __atomic_load_n(&s->until_ns, __ATOMIC_ACQUIRE);

		if (until <= now)
			continue;
		v->monitors[v->n_monitors++] = (struct status_monitor){
			.slot = i, .scope = s->scope, .pid = s->owner_pid,
			.lease_ms = (int64_t)((until - now) / 1000000),
		};
	}
}

static int gather_ifaces(const struct rg_datapath *dp, struct status_view *v)
{
	struct rg_attached *links = NULL;
	size_t n = 0;

	rg_datapath_links(dp, &links, &n);
	v->ifaces = calloc(n ? n : 1, sizeof(*v->ifaces));
	if (!v->ifaces) {
		free(links);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		struct status_iface *x = &v->ifaces[i];
		struct rg_representor rep = { 0 };

		rg_map_set_get_representor(&dp->maps, rg_map_set_active_gen(&dp->maps),
					   (uint32_t)links[i].ifindex, &rep);
		rg_ifname_str(links[i].ifindex, x->name);
		x->ifindex = links[i].ifindex;
		x->rail = (rep.flags & RG_REP_F_VALID) && rep.rail_id < RG_MAX_RAILS
			  ? v->rails[rep.rail_id].name : NULL;
		x->mode = links[i].mode;
		x->alive = links[i].alive;
	}
	v->n_ifaces = n;
	free(links);
	return 0;
}

static int gather_status(const struct rg_datapath *dp, struct status_view *v)
{
	v->pin_dir = dp->dir;
	v->generation = dp->maps.state->config_generation;
	memcpy(v->digest, dp->maps.state->config_digest, sizeof(v->digest));
	v->active_tables = (int)rg_map_set_active_gen(&dp->maps);
	rg_datapath_active_rails(dp, v->rails);
	rg_datapath_active_egress(dp, &v->eg);
	rg_ifname_str((int)v->eg.uplink_ifindex, v->uplink_name);
	gather_monitors(dp, v);
	return gather_ifaces(dp, v);
}

/* ---- rendering --------------------------------------------------------- */

/* What this build is, in every status document: up or not. */
static void add_build_json(struct json_object *o)
{
	json_object_object_add(o, "version", json_object_new_string(rg_version));
	json_object_object_add(o, "commit", json_object_new_string(rg_git_commit));
	json_object_object_add(o, "abi_version", json_object_new_int(RG_ABI_VERSION));
}

static const char *scope_name(enum rg_monitor_scope scope)
{
	return scope == RG_MONITOR_ALL ? "all" : "drops";
}

static struct json_object *monitors_json(const struct status_view *v)
{
	struct json_object *arr = json_object_new_array();

	for (size_t i = 0; i < v->n_monitors; i++) {
		const struct status_monitor *m = &v->monitors[i];
		struct json_object *x = json_object_new_object();

		json_object_object_add(x, "slot", json_object_new_int(m->slot));
		json_object_object_add(x, "scope", json_object_new_string(scope_name(m->scope)));
		json_object_object_add(x, "pid", json_object_new_int64(m->pid));
		json_object_object_add(x, "lease_ms", json_object_new_int64(m->lease_ms));
		json_object_array_add(arr, x);
	}
	return arr;
}

static struct json_object *rails_json(const struct rg_rail *rails)
{
	struct json_object *arr = json_object_new_array();
	char buf[RG_CIDR_STR_LEN];

	for (int i = 0; i < RG_MAX_RAILS; i++) {
		struct json_object *x;

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
	return arr;
}

static struct json_object *ifaces_json(const struct status_view *v)
{
	struct json_object *arr = json_object_new_array();

	for (size_t i = 0; i < v->n_ifaces; i++) {
		const struct status_iface *f = &v->ifaces[i];
		struct json_object *x = json_object_new_object();

		json_object_object_add(x, "name", json_object_new_string(f->name));
		json_object_object_add(x, "ifindex", json_object_new_int(f->ifindex));
		json_object_object_add(x, "rail", f->rail ? json_object_new_string(f->rail) : NULL);
		json_object_object_add(x, "mode", json_object_new_string(rg_attach_mode_name(f->mode)));
		json_object_object_add(x, "attached", json_object_new_boolean(f->alive));
		json_object_array_add(arr, x);
	}
	return arr;
}

static struct json_object *status_json(const struct status_view *v)
{
	struct json_object *o = json_object_new_object(), *x;
	char buf[64], hex[65];

	rg_digest_hex(v->digest, hex);
	json_object_object_add(o, "up", json_object_new_boolean(1));
	add_build_json(o);
	json_object_object_add(o, "pin_dir", json_object_new_string(v->pin_dir));
	json_object_object_add(o, "config_generation", json_object_new_int64((int64_t)v->generation));
	json_object_object_add(o, "config_digest", json_object_new_string(hex));
	json_object_object_add(o, "active_tables", json_object_new_int(v->active_tables));
	x = json_object_new_object();
	json_object_object_add(x, "name", json_object_new_string(v->uplink_name));
	json_object_object_add(x, "ifindex", json_object_new_int((int)v->eg.uplink_ifindex));
	json_object_object_add(x, "mac", json_object_new_string(rg_mac_str(v->eg.uplink_mac, buf)));
	/* the MTU the datapath's too_big check and Fragmentation Needed use */
	json_object_object_add(x, "mtu", json_object_new_int64((int64_t)v->eg.uplink_mtu));
	json_object_object_add(o, "uplink", x);
	x = json_object_new_object();
	json_object_object_add(x, "ip", json_object_new_string(rg_ip_str(v->eg.gateway_ip, buf)));
	json_object_object_add(x, "mac", json_object_new_string(rg_mac_str(v->eg.gateway_mac, buf)));
	json_object_object_add(o, "gateway", x);
	json_object_object_add(o, "anti_spoof",
			       json_object_new_boolean(!!(v->eg.flags & RG_EGRESS_F_ANTI_SPOOF)));
	json_object_object_add(o, "rails", rails_json(v->rails));
	json_object_object_add(o, "interfaces", ifaces_json(v));
	json_object_object_add(o, "monitors", monitors_json(v));
	return o;
}

static void status_text(const struct status_view *v)
{
	char hex[65], mac[18], gw[16], gw_mac[18];

	rg_digest_hex(v->digest, hex);
	printf("railgate is up (pins under %s)\n", v->pin_dir);
	printf("config generation %lld, sha256 %.16s, active tables %d\n",
	       (long long)(int64_t)v->generation, hex, v->active_tables);
	printf("uplink %s (%s, mtu %lld), ", v->uplink_name, rg_mac_str(v->eg.uplink_mac, mac),
	       (long long)v->eg.uplink_mtu);
	printf("gateway %s at %s, anti-spoof %s\n", rg_ip_str(v->eg.gateway_ip, gw),
	       rg_mac_str(v->eg.gateway_mac, gw_mac), (v->eg.flags & RG_EGRESS_F_ANTI_SPOOF) ? "on" : "off");
	printf("%-16s %-8s %-12s %-12s %s\n", "INTERFACE", "IFINDEX", "RAIL", "MODE", "STATE");
	for (size_t i = 0; i < v->n_ifaces; i++) {
		const struct status_iface *f = &v->ifaces[i];

		printf("%-16s %-8d %-12s %-12s %s\n", f->name, f->ifindex, f->rail ? f->rail : "-",
		       rg_attach_mode_name(f->mode), f->alive ? "attached" : "device gone");
	}
	for (size_t i = 0; i < v->n_monitors; i++)
		printf("monitor pid %lld (%s), lease %lld ms\n", (long long)v->monitors[i].pid,
		       scope_name(v->monitors[i].scope), (long long)v->monitors[i].lease_ms);
}

static const struct rg_opt status_options[] = {
	{ .name = "json", .short_name = 'j', .kind = RG_OPT_FLAG, .offset = offsetof(struct status_args, json),
	  .help = "one JSON document (docs/commands.md names the fields), with the\n"
		  "version, commit and map ABI of this build" },
	{ 0 },
};

const struct rg_cmd_opts rg_status_opts = {
	.name = "status",
	.usage = "usage: railgate status [--json]",
	.about = "Read the pins: the config generation and digest, the uplink and gateway, and\n"
		 "every attached interface with its rail and attach mode.  Exit 1 when railgate\n"
		 "is not up.",
	.opts = status_options,
	.args_size = sizeof(struct status_args),
	.after = RG_AFTER_USAGE,
};

int rg_cmd_status(struct rg_global_opts *g, int argc, char **argv)
{
	struct rg_datapath dp;
	struct status_view v = { 0 };
	struct status_args a = { 0 };
	struct json_object *js;
	int first, ret = RG_EXIT_OK;
	enum rg_opts_result r = cli_parse(&rg_status_opts, g, argc, argv, &a, &first);

	if (r != RG_OPTS_RUN)
		return rg_opts_exit(r);
	if (first < argc) {
		rg_opts_usage_line(stderr, &rg_status_opts);
		return RG_EXIT_USAGE;
	}
	if (cli_open_running(g, &dp, "status")) {
		if (a.json) {
			js = json_object_new_object();
			json_object_object_add(js, "up", json_object_new_boolean(0));
			add_build_json(js);
			cli_print_json(js);
		}
		rg_datapath_close(&dp);
		return RG_EXIT_FAIL;
	}
	if (gather_status(&dp, &v))
		ret = RG_EXIT_FAIL;
	else if (a.json)
		cli_print_json(status_json(&v));
	else
		status_text(&v);
	free(v.ifaces);
	rg_datapath_close(&dp);
	return ret;
}
