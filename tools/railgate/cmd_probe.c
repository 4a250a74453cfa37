// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * railgate probe --netns NAME | --pid PID [--to IP...] [--count N] [--json]:
 * bounded ICMP and UDP probes from each rail interface of a pod to targets
 * beyond the switch, the loss/RTT matrix, and for each cell that lost
 * probes where the frames died (tools/doctor/probe.h).  The node's
 * counters come from the pins, as `railgate stats` reads them; without
 * railgate up the matrix still runs, without the counters' evidence.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <json-c/json.h>

#include "tools/railgate/commands.h"
#include "tools/railgate/cli.h"
#include "loader/datapath/datapath.h"
#include "lib/errbuf.h"
#include "tools/doctor/probe.h"
#include "tools/pod_routes/pod_routes.h"
#include "lib/addr.h"

#define PROBE_MAX_TARGETS 64

struct probe_args {
	char netns_path[128];
	const char *netns_label;     /* for messages */
	const char *config;          /* NULL: the default, when it exists */
	uint32_t to[PROBE_MAX_TARGETS];
	size_t n_to;
	int count;
	int timeout_ms;
	uint16_t port;
	bool port_given;
	bool json;
};

/* An integer option in [lo, hi]. */
static int int_arg(const char *s, int lo, int hi, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < lo || v > hi)
		return -1;
	*out = (int)v;
	return 0;
}

/* --netns NAME or --pid PID: the one pod, its namespace's path. */
static int parse_pod(const char *arg, bool by_pid, struct probe_args *a, char *msg, size_t n)
{
	int v;

	if (a->netns_label) {
		snprintf(msg, n, "%s: give one --netns or --pid", arg);
		return -1;
	}
	if (!by_pid ? rg_pod_netns_path_by_name(arg, a->netns_path, sizeof(a->netns_path))
	    : (int_arg(arg, 1, 1 << 30, &v) ||
	       rg_pod_netns_path_by_pid(v, a->netns_path, sizeof(a->netns_path)))) {
		snprintf(msg, n, "'%s' is not a namespace name or a pid", arg);
		return -1;
	}
	a->netns_label = arg;
	return 0;
}

static int parse_netns(const char *arg, void *args, char *msg, size_t n)
{
	return parse_pod(arg, false, args, msg, n);
}

static int parse_pid(const char *arg, void *args, char *msg, size_t n)
{
	return parse_pod(arg, true, args, msg, n);
}

static int parse_to(const char *arg, void *args, char *msg, size_t n)
{
	struct probe_args *a = args;

	if (a->n_to == PROBE_MAX_TARGETS) {
		snprintf(msg, n, "too many --to (at most 64, %s is one more)", arg);
		return -1;
	}
	if (rg_ipv4_parse(arg, &a->to[a->n_to])) {
		snprintf(msg, n, "--to '%s' is not an IPv4 address", arg);
		return -1;
	}
	a->n_to++;
	return 0;
}

static int parse_port(const char *arg, void *args, char *msg, size_t n)
{
	struct probe_args *a = args;
	int v;

	if (int_arg(arg, 1, 65535, &v)) {
		snprintf(msg, n, "--port '%s': a port from 1 to 65535", arg);
		return -1;
	}
	a->port = (uint16_t)v;
	a->port_given = true;
	return 0;
}

static const struct rg_opt probe_options[] = {
	{ .name = "netns", .arg = "NAME", .kind = RG_OPT_CALL, .parse = parse_netns,
	  .complete = RG_COMPLETE_NETNS, .help = "the pod's namespace, /run/netns/NAME" },
	{ .name = "pid", .arg = "PID", .kind = RG_OPT_CALL, .parse = parse_pid,
	  .help = "the namespace of a process in the pod" },
	{ .name = "to", .arg = "IP", .kind = RG_OPT_CALL, .parse = parse_to,
	  .help = "a target beyond the switch, repeatable (default: the\n"
		  "config's spec.probe.targets)" },
	{ .name = "count", .arg = "N", .kind = RG_OPT_INT, .offset = offsetof(struct probe_args, count),
	  .min = 1, .max = RG_PROBE_MAX_COUNT, .bad = "--count '%s': a number from 1 to 100",
	  .help = "probes of each kind per cell (default 3, at most 100)" },
	{ .name = "json", .kind = RG_OPT_FLAG, .offset = offsetof(struct probe_args, json),
	  .help = "one JSON document (docs/commands.md names the fields)" },
	{ .name = "config", .short_name = 'c', .arg = "FILE", .kind = RG_OPT_STRING,
	  .offset = offsetof(struct probe_args, config), .complete = RG_COMPLETE_FILE,
	  .help = "rail config (default " RG_DEFAULT_CONFIG "\n"
		  "when it exists)" },
	{ .name = "timeout", .arg = "MS", .kind = RG_OPT_INT, .offset = offsetof(struct probe_args, timeout_ms),
	  .min = 1, .max = 10000, .bad = "--timeout '%s': milliseconds from 1 to 10000",
	  .help = "wait for answers after the last probe of a round (default 1000)" },
	{ .name = "port", .arg = "N", .kind = RG_OPT_CALL, .parse = parse_port,
	  .help = "UDP port (default spec.probe.port, else 33434: a closed port\n"
		  "answers too, as far as the target's ICMP rate limit lets it)" },
	{ 0 },
};

const struct rg_cmd_opts rg_probe_opts = {
	.name = "probe",
	.usage = "usage: railgate probe --netns NAME | --pid PID [--to IP...] [--count N] [--json]\n"
		 "                      [-c FILE] [--timeout MS] [--port N]",
	.about = "From every rail interface of the pod (a socket bound to its address), send N\n"
		 "ICMP echoes and N UDP datagrams (default 3) to each target: --to, else the\n"
		 "config's spec.probe.targets.  Never a rail's gateway: the switch answers its own\n"
		 "addresses even when it does not route between rails.  For a cell that lost\n"
		 "probes, the node's counters say where the frames died.",
	.opts = probe_options,
	.args_size = sizeof(struct probe_args),
	.trailer = "Exit 0 when every probe was answered, 1 when one was lost, 2 usage.",
	.after = RG_AFTER_HINT,
	.unknown = "unknown option",
};

static int parse_probe_args(struct rg_global_opts *g, int argc, char **argv, struct probe_args *a)
{
	int first;
	enum rg_opts_result r;

	memset(a, 0, sizeof(*a));
	a->count = 3;
	a->timeout_ms = 1000;
	a->port = RG_PROBE_UDP_PORT;
	r = cli_parse(&rg_probe_opts, g, argc, argv, a, &first);
	if (r != RG_OPTS_RUN)
		return r == RG_OPTS_HELP ? -1 : RG_EXIT_USAGE;
	if (first < argc)
		return cli_usage_error("probe", "unexpected argument '%s'", argv[first]);
	if (!a->netns_label)
		return cli_usage_error("probe", "%s", "give the pod: --netns NAME or --pid PID");
	return 0;
}

/* The rails probe knows: the running datapath's (with their counter
 * slots), else the config's (no counters). */
struct probe_rails {
	struct rg_cidr subnet[RG_MAX_RAILS];
	int id[RG_MAX_RAILS];
	size_t n;
};

static void rails_from_pins(const struct rg_rail *rails, struct probe_rails *pr)
{
	for (int i = 0; i < RG_MAX_RAILS; i++)
		if (rails[i].flags & RG_RAIL_F_VALID) {
			pr->subnet[pr->n] = (struct rg_cidr){ rails[i].subnet, (uint8_t)cli_mask_len(rails[i].mask) };
			pr->id[pr->n++] = i;
		}
}

static void rails_from_config(const struct rg_config *cfg, struct probe_rails *pr)
{
	for (size_t i = 0; i < cfg->n_rails && pr->n < RG_MAX_RAILS; i++) {
		pr->subnet[pr->n] = cfg->rails[i].subnet;
		pr->id[pr->n++] = -1;
	}
}

static struct json_object *cells_json(const struct rg_probe_cell *cells, size_t n)
{
	struct json_object *o = json_object_new_object(), *arr = json_object_new_array();
	char ip[RG_IP_STR_LEN];

	for (size_t i = 0; i < n; i++) {
		const struct rg_probe_cell *c = &cells[i];
		struct json_object *x = json_object_new_object();
		const char *died = rg_probe_died_name(c->died);

		json_object_object_add(x, "from_dev", json_object_new_string(c->src.dev));
		json_object_object_add(x, "from", json_object_new_string(rg_ip_str(c->src.addr, ip)));
		json_object_object_add(x, "to", json_object_new_string(rg_ip_str(c->to, ip)));
		json_object_object_add(x, "proto", json_object_new_string(rg_probe_proto_name(c->proto)));
		json_object_object_add(x, "sent", json_object_new_int(c->sent));
		json_object_object_add(x, "received", json_object_new_int(c->received));
		json_object_object_add(x, "rtt_ms", c->rtt_ms >= 0 ? json_object_new_double(c->rtt_ms) : NULL);
		json_object_object_add(x, "died", died ? json_object_new_string(died) : NULL);
		json_object_array_add(arr, x);
	}
	json_object_object_add(o, "results", arr);
	return o;
}

static void cells_table(const struct rg_probe_cell *cells, size_t n)
{
	char from[RG_IP_STR_LEN], to[RG_IP_STR_LEN], rtt[16];

	printf("%-10s %-15s %-15s %-5s %4s %4s %9s  %s\n", "FROM_DEV", "FROM", "TO", "PROTO",
	       "SENT", "RECV", "RTT_MS", "DIED");
	for (size_t i = 0; i < n; i++) {
		const struct rg_probe_cell *c = &cells[i];

		if (c->rtt_ms >= 0)
			snprintf(rtt, sizeof(rtt), "%.3f", c->rtt_ms);
		else
			snprintf(rtt, sizeof(rtt), "-");
		printf("%-10s %-15s %-15s %-5s %4d %4d %9s  %s%s%s\n", c->src.dev,
		       rg_ip_str(c->src.addr, from), rg_ip_str(c->to, to), rg_probe_proto_name(c->proto),
		       c->sent, c->received, rtt, rg_probe_died_name(c->died) ?: "-",
		       c->send_errno ? ": " : "", c->send_errno ? strerror(c->send_errno) : "");
	}
}

/* Refuse a target the switch answers itself (the config knows the rails'
 * gateways; the pins do not). */
static int check_targets(const uint32_t *to, size_t n, const struct rg_config *cfg)
{
	char ip[RG_IP_STR_LEN];

	for (size_t i = 0; i < n; i++)
		for (size_t r = 0; r < cfg->n_rails; r++)
			if (to[i] == cfg->rails[r].gateway)
				return cli_usage_error("probe", "%s is a rail's gateway: the switch answers its own addresses even when it does not route between rails; probe an address beyond it",
						   rg_ip_str(to[i], ip));
	return 0;
}

int rg_cmd_probe(struct rg_global_opts *g, int argc, char **argv)
{
	struct probe_args a;
	struct rg_config cfg = { 0 };
	bool have_cfg = false;
	struct rg_datapath dp;
	struct rg_rail rails[RG_MAX_RAILS];
	struct probe_rails pr = { .n = 0 };
	struct rg_probe_source *srcs = NULL;
	struct rg_probe_cell *cells = NULL;
	struct rg_probe_opts po = { .netns_fd = -1 };
	size_t n_srcs = 0, n_cells = 0;
	char err[512];
	int ret = parse_probe_args(g, argc, argv, &a), rc = RG_EXIT_FAIL;
	bool up;

	if (ret)
		return ret < 0 ? RG_EXIT_OK : ret;
	if (a.config || access(RG_DEFAULT_CONFIG, R_OK) == 0) {
		if (cli_load_config(a.config ? a.config : RG_DEFAULT_CONFIG, &cfg))
			return RG_EXIT_USAGE;
		have_cfg = true;
	}
	up = cli_open_datapath(g->pin_dir, &dp, err, sizeof(err)) == 0;
	if (up) {
		rg_datapath_active_rails(&dp, rails);
		rails_from_pins(rails, &pr);
	} else if (have_cfg) {
		rails_from_config(&cfg, &pr);
	}
	if (have_cfg && cfg.probe_port && !a.port_given)
		a.port = (uint16_t)cfg.probe_port;
	if (!a.n_to && have_cfg) {
		a.n_to = cfg.n_probe_targets < PROBE_MAX_TARGETS ? cfg.n_probe_targets : PROBE_MAX_TARGETS;
		memcpy(a.to, cfg.probe_targets, a.n_to * sizeof(a.to[0]));
	}
	if (!a.n_to) {
		rc = cli_usage_error("probe", "no targets: give --to IP, or set spec.probe.targets in the config (%s)",
				 a.config ? a.config : RG_DEFAULT_CONFIG);
		goto out;
	}
	if (!pr.n) {
		fprintf(stderr, "railgate probe: cannot tell the pod's rail interfaces: railgate is not up (%s) and there is no config (-c FILE)\n",
			err);
		goto out;
	}
	if (have_cfg && (rc = check_targets(a.to, a.n_to, &cfg)))
		goto out;
	rc = RG_EXIT_FAIL;
	po.netns_fd = rg_pod_netns_open(a.netns_path, err, sizeof(err));
	if (po.netns_fd < 0) {
		fprintf(stderr, "railgate probe: %s\n", err);
		goto out;
	}
	if (rg_probe_sources(po.netns_fd, pr.subnet, pr.id, pr.n, &srcs, &n_srcs, err, sizeof(err))) {
		fprintf(stderr, "railgate probe: %s: %s\n", a.netns_label, err);
		goto out;
	}
	if (!n_srcs) {
		fprintf(stderr, "railgate probe: %s has no address in any rail\n", a.netns_label);
		goto out;
	}
	po.srcs = srcs;
	po.n_srcs = n_srcs;
	po.targets = a.to;
	po.n_targets = a.n_to;
	po.count = a.count;
	po.timeout_ms = a.timeout_ms;
	po.udp_port = a.port;
	po.maps = up ? &dp.maps : NULL;
	if (rg_probe_run(&po, &cells, &n_cells, err, sizeof(err))) {
		fprintf(stderr, "railgate probe: %s: %s\n", a.netns_label, err);
		goto out;
	}
	if (a.json) {
		struct json_object *js = cells_json(cells, n_cells);

		printf("%s\n", json_object_to_json_string_ext(js, JSON_C_TO_STRING_PRETTY |
							       JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(js);
	} else {
		cells_table(cells, n_cells);
		if (!up)
			printf("(railgate is not up on this node: no counters to say where frames died)\n");
	}
	rc = RG_EXIT_OK;
	for (size_t i = 0; i < n_cells; i++)
		if (cells[i].died != RG_DIED_NONE)
			rc = RG_EXIT_FAIL;
out:
	if (po.netns_fd >= 0)
		close(po.netns_fd);
	free(srcs);
	free(cells);
	rg_datapath_close(&dp);
	if (have_cfg)
		rg_config_free(&cfg);
	return rc;
}
