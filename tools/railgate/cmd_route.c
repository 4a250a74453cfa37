// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * railgate route add|del|check: what railgate-cni does for a rail
 * interface (its table, source rule, main routes and sysctls:
 * tools/pod_routes/), for init containers and for operators fixing a
 * running pod by hand.
 *
 *   railgate route add --netns NAME|--pid PID [--dev IF]
 *                      [-c FILE | --supernet CIDR... --gateway IP [--table N]]
 *                      [--frontend CIDR...] [--table-base N] [--rule-priority N]
 *                      [--on-conflict error|warn]
 *
 * Without --dev, every interface of the pod whose IPv4 address lies in a
 * rail (with -c) or a supernet (inline) is handled, one after the other:
 * an 8-GPU pod gets all eight rails in one call.  Without -c and
 * --supernet, the default config file is used.  del needs no config: it
 * removes the routes and rules railgate added (protocol 82).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/railgate/commands.h"
#include "tools/railgate/cli.h"
#include "loader/config/config.h"
#include "tools/pod_routes/pod_routes.h"
#include "lib/addr.h"

#define POD_ADDRS_MAX 64

enum route_action {
	ROUTE_ADD,
	ROUTE_DEL,
	ROUTE_CHECK,
};

struct route_opts {
	enum route_action action;
	const char *action_name;
	char netns_path[128];
	const char *dev;
	const char *config;
	struct rg_pod_inline in;     /* --supernet, --gateway, --frontend */
	struct rg_pod_numbering numbering;
	enum rg_pod_conflict_policy policy;
	bool have_ns;                /* --netns or --pid given */
};

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "railgate route: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(railgate route --help for usage)\n");
	return RG_EXIT_USAGE;
}

static int parse_action(const char *s, struct route_opts *o)
{
	static const struct { const char *name; enum route_action a; } actions[] = {
		{ "add", ROUTE_ADD }, { "del", ROUTE_DEL }, { "check", ROUTE_CHECK },
	};

	for (size_t i = 0; i < sizeof(actions) / sizeof(actions[0]); i++)
		if (!strcmp(s, actions[i].name)) {
			o->action = actions[i].a;
			o->action_name = actions[i].name;
			return 0;
		}
	return usage_error("unknown action \"%s\": add, del or check", s);
}

/* An unsigned option value below limit. */
static int parse_number(const char *arg, const char *opt, uint32_t limit, uint32_t *out,
			char *msg, size_t n)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (!*arg || *end || errno || v >= limit || arg[0] == '-') {
		snprintf(msg, n, "%s \"%s\": a number from 0 to %u", opt, arg, limit - 1);
		return -1;
	}
	*out = (uint32_t)v;
	return 0;
}

/* --netns NAME or --pid PID: the one pod, its namespace's path. */
static int parse_pod(const char *arg, bool by_pid, struct route_opts *o, char *msg, size_t n)
{
	char *end;
	long pid = by_pid ? strtol(arg, &end, 10) : 0;

	if (o->have_ns || (by_pid ? *end || rg_pod_netns_path_by_pid(pid, o->netns_path, sizeof(o->netns_path))
			   : rg_pod_netns_path_by_name(arg, o->netns_path, sizeof(o->netns_path)))) {
		snprintf(msg, n, "give one valid --netns NAME or --pid PID (%s)", arg);
		return -1;
	}
	o->have_ns = true;
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

static int parse_dev(const char *arg, void *args, char *msg, size_t n)
{
	struct route_opts *o = args;

	if (strlen(arg) >= IF_NAMESIZE) {
		snprintf(msg, n, "\"%s\" is too long for an interface name", arg);
		return -1;
	}
	o->dev = arg;
	return 0;
}

static int add_cidr(struct rg_cidr *set, size_t *count, const char *arg, const char *opt,
		    char *msg, size_t n)
{
	if (*count >= RG_POD_ROUTES_MAX) {
		snprintf(msg, n, "too many %s prefixes", opt);
		return -1;
	}
	if (rg_cidr_parse(arg, &set[*count], false)) {
		snprintf(msg, n, "\"%s\" is not a CIDR like 10.0.0.0/16 (host bits zero)", arg);
		return -1;
	}
	(*count)++;
	return 0;
}

static int parse_supernet(const char *arg, void *args, char *msg, size_t n)
{
	struct route_opts *o = args;

	return add_cidr(o->in.supernets, &o->in.n_supernets, arg, "--supernet", msg, n);
}

static int parse_frontend(const char *arg, void *args, char *msg, size_t n)
{
	struct route_opts *o = args;

	return add_cidr(o->in.frontend, &o->in.n_frontend, arg, "--frontend", msg, n);
}

static int parse_gateway(const char *arg, void *args, char *msg, size_t n)
{
	struct route_opts *o = args;

	if (rg_ipv4_parse(arg, &o->in.gateway)) {
		snprintf(msg, n, "--gateway \"%s\" is not an IPv4 address", arg);
		return -1;
	}
	o->in.has_gateway = true;
	return 0;
}

static int parse_conflict(const char *arg, void *args, char *msg, size_t n)
{
	struct route_opts *o = args;

	if (!strcmp(arg, "error"))
		o->policy = RG_POD_CONFLICT_ERROR;
	else if (!strcmp(arg, "warn"))
		o->policy = RG_POD_CONFLICT_WARN;
	else {
		snprintf(msg, n, "--on-conflict \"%s\": error or warn", arg);
		return -1;
	}
	return 0;
}

static int parse_table(const char *arg, void *args, char *msg, size_t n)
{
	struct route_opts *o = args;

	o->numbering.has_table = true;
	return parse_number(arg, "--table", 0x7fffffff, &o->numbering.table, msg, n);
}

static int parse_table_base(const char *arg, void *args, char *msg, size_t n)
{
	struct route_opts *o = args;

	return parse_number(arg, "--table-base", 0x7fffffff, &o->numbering.table_base, msg, n);
}

static int parse_rule_priority(const char *arg, void *args, char *msg, size_t n)
{
	struct route_opts *o = args;

	return parse_number(arg, "--rule-priority", 32766, &o->numbering.rule_priority, msg, n);
}

#define STR_(x) #x
#define STR(x)  STR_(x)

static const struct rg_opt route_options[] = {
	{ .name = "netns", .arg = "NAME", .kind = RG_OPT_CALL, .parse = parse_netns,
	  .complete = RG_COMPLETE_NETNS, .help = "the pod's namespace, /run/netns/NAME" },
	{ .name = "pid", .arg = "PID", .kind = RG_OPT_CALL, .parse = parse_pid,
	  .help = "the namespace of a process in the pod" },
	{ .name = "dev", .arg = "IF", .kind = RG_OPT_CALL, .parse = parse_dev, .complete = RG_COMPLETE_IFNAME,
	  .help = "one rail interface (default: every interface holding a\n"
		  "rail address)" },
	{ .name = "config", .short_name = 'c', .arg = "FILE", .kind = RG_OPT_STRING,
	  .offset = offsetof(struct route_opts, config), .complete = RG_COMPLETE_FILE,
	  .help = "rail config (default " RG_DEFAULT_CONFIG "); rail i gets table\n"
		  "TABLE_BASE + i and rule priority RULE_PRIORITY + i" },
	{ .name = "supernet", .arg = "CIDR", .kind = RG_OPT_CALL, .parse = parse_supernet,
	  .help = "instead of -c: a supernet (repeat for several)" },
	{ .name = "gateway", .arg = "IP", .kind = RG_OPT_CALL, .parse = parse_gateway,
	  .help = "with --supernet: the rail gateway" },
	{ .name = "table", .arg = "N", .kind = RG_OPT_CALL, .parse = parse_table,
	  .help = "with --supernet: the rail's table (default TABLE_BASE)" },
	{ .name = "frontend", .arg = "CIDR", .kind = RG_OPT_CALL, .parse = parse_frontend,
	  .help = "also route this front-end prefix (repeatable)" },
	{ .name = "table-base", .arg = "N", .kind = RG_OPT_CALL, .parse = parse_table_base,
	  .help = "first rail's table (default " STR(RG_POD_TABLE_BASE) ")" },
	{ .name = "rule-priority", .arg = "N", .kind = RG_OPT_CALL, .parse = parse_rule_priority,
	  .help = "first rail's rule priority (default " STR(RG_POD_RULE_PRIORITY) ")" },
	{ .name = "on-conflict", .arg = "MODE", .kind = RG_OPT_CALL, .parse = parse_conflict,
	  .words = "error warn",
	  .help = "error (default): refuse if the pod routes a supernet\n"
		  "another way or the table holds other routes; warn: leave\n"
		  "that prefix alone, take the next free table, and go on" },
	{ 0 },
};

const struct rg_cmd_opts rg_route_opts = {
	.name = "route",
	.usage = "usage: railgate route add|del|check --netns NAME | --pid PID [--dev IF]\n"
		 "                      [-c FILE | --supernet CIDR... --gateway IP [--table N]]\n"
		 "                      [--frontend CIDR...] [--table-base N] [--rule-priority N]\n"
		 "                      [--on-conflict error|warn]",
	.about = "Give each rail interface of a pod its own routing table (the rail's subnet,\n"
		 "the supernets and front-end prefixes via the rail's gateway), a rule\n"
		 "\"from ADDR lookup TABLE\", the same routes in main with a per-rail metric,\n"
		 "and loose rp_filter; check them; or remove them.  Sockets bound to a rail's\n"
		 "address or device then leave by that rail.",
	.opts = route_options,
	.args_size = sizeof(struct route_opts),
	.trailer = "del removes exactly the routes and rules railgate added (protocol "
		   STR(RG_POD_ROUTE_PROTO) "); it\n"
		   "needs no config.\n"
		   "\n"
		   "Exit status: 0 ok, 1 failure, 2 usage.",
	.after = RG_AFTER_HINT,
	.words = "add del check",
};

static int parse_opts(struct rg_global_opts *g, int argc, char **argv, struct route_opts *o)
{
	int first;
	enum rg_opts_result r = cli_parse(&rg_route_opts, g, argc, argv, o, &first);

	if (r != RG_OPTS_RUN)
		return r == RG_OPTS_HELP ? -1 : RG_EXIT_USAGE;
	if (first < argc)
		return usage_error("unexpected argument \"%s\"", argv[first]);
	if (!o->have_ns)
		return usage_error("name the pod: --netns NAME or --pid PID");
	if (o->config && (o->in.n_supernets || o->in.has_gateway))
		return usage_error("give -c FILE or --supernet/--gateway, not both");
	if (o->in.n_supernets && !o->in.has_gateway)
		return usage_error("--supernet needs --gateway (the rail's switch address)");
	if (o->in.has_gateway && !o->in.n_supernets)
		return usage_error("--gateway needs --supernet");
	if (o->numbering.has_table && !o->in.n_supernets)
		return usage_error("--table goes with --supernet; with a config, rail i gets --table-base + i");
	return 0;
}

/* A plan for one address found in the pod; -EINVAL when it is no rail's. */
static int plan_for(const struct route_opts *o, const struct rg_config *cfg,
		    const struct rg_pod_addr *a, struct rg_pod_plan *plan,
		    char *err, size_t err_len)
{
	int ret;

	if (!cfg)
		return rg_pod_plan_inline(&o->in, o->in.gateway, &o->numbering, a->ifname,
					  a->addr, a->prefix_len, plan, err, err_len);
	ret = rg_pod_plan_from_config(cfg, &o->numbering, a->ifname, a->addr, plan, err, err_len);
	if (!ret) /* --frontend adds prefixes to the config's own */
		ret = rg_pod_plan_add_frontend(plan, o->in.frontend, o->in.n_frontend, err, err_len);
	if (!ret) /* the way back for railgate's ICMP errors, as railgate-cni adds it */
		ret = rg_pod_plan_add_icmp_source(plan, rg_pod_icmp_source(cfg), err, err_len);
	return ret;
}

/* One plan per rail interface (the first rail address of each), in the
 * order the pod lists its addresses. */
static int make_plans(const struct route_opts *o, int netns_fd, const struct rg_config *cfg,
		      struct rg_pod_plan *plans, size_t *n_plans)
{
	struct rg_pod_addr addrs[POD_ADDRS_MAX];
	char err[RG_POD_MSG_LEN], first_err[RG_POD_MSG_LEN] = "";
	const struct rg_cidr loopback = { .addr = 0x7f000000, .len = 8 };
	int n;

	*n_plans = 0;
	n = rg_pod_list_addrs(netns_fd, o->dev, addrs, POD_ADDRS_MAX, err, sizeof(err));
	if (n < 0) {
		fprintf(stderr, "railgate route: %s\n", err);
		return RG_EXIT_FAIL;
	}
	for (int i = 0; i < n; i++) {
		bool seen = false;

		if (rg_cidr_contains(loopback, addrs[i].addr))
			continue;    /* never a rail address, only noise in messages */
		for (size_t k = 0; k < *n_plans && !seen; k++)
			seen = !strcmp(plans[k].ifname, addrs[i].ifname);
		if (seen)
			continue;    /* one rail address per interface */
		if (plan_for(o, cfg, &addrs[i], &plans[*n_plans], err, sizeof(err))) {
			if (!first_err[0])
				snprintf(first_err, sizeof(first_err), "%s", err);
			continue;
		}
		(*n_plans)++;
	}
	if (!*n_plans) {
		fprintf(stderr, "railgate route: no rail address in the pod%s%s: %s\n",
			o->dev ? " on " : "", o->dev ? o->dev : "",
			first_err[0] ? first_err : "it has no IPv4 address");
		return RG_EXIT_FAIL;
	}
	return RG_EXIT_OK;
}

static void print_report(const char *verb, const struct rg_pod_plan *plan,
			 const struct rg_pod_report *rep, const char *ifname)
{
	char route[128], ip[RG_IP_STR_LEN];

	for (size_t i = 0; i < rep->n_warnings; i++)
		fprintf(stderr, "railgate route: warning: %s\n", rep->warnings[i]);
	for (size_t i = 0; i < rep->n_done; i++)
		printf("%s %s%s%s\n", verb, rg_pod_route_str(&rep->done[i], ifname, route, sizeof(route)),
		       plan && plan->rail[0] ? " rail " : "", plan ? plan->rail : "");
	if (rep->n_rules && plan)
		printf("%s rule from %s/32 lookup %u priority %u dev %s\n", verb,
		       rg_ip_str(plan->addr, ip), rep->table, plan->rule_priority, ifname);
	else if (rep->n_rules)
		printf("%s %zu rule(s) dev %s\n", verb, rep->n_rules, ifname);
	if (!rep->n_done && !rep->n_rules)
		printf("%s nothing dev %s\n", verb, ifname);
}

static int load_config(const char *path, struct rg_config *cfg)
{
	struct rg_diags diags = { 0 };
	int ret = rg_config_load(path, cfg, &diags);

	for (size_t i = 0; ret && i < diags.count; i++)
		fprintf(stderr, "railgate route: %s\n", diags.msgs[i]);
	rg_diags_free(&diags);
	return ret;
}

static int do_del(const struct route_opts *o, int fd)
{
	struct rg_pod_addr addrs[POD_ADDRS_MAX];
	struct rg_pod_report rep;
	char err[RG_POD_MSG_LEN];
	const char *dev = o->dev;
	int n;

	/* With --dev: that interface, also when it is gone (its rules are
	 * found as orphans).  Without: every interface holding an address. */
	if (dev) {
		if (rg_pod_routes_del(fd, dev, NULL, 0, &rep, err, sizeof(err))) {
			fprintf(stderr, "railgate route: %s\n", err);
			return RG_EXIT_FAIL;
		}
		print_report("removed", NULL, &rep, dev);
		return RG_EXIT_OK;
	}
	n = rg_pod_list_addrs(fd, NULL, addrs, POD_ADDRS_MAX, err, sizeof(err));
	if (n < 0) {
		fprintf(stderr, "railgate route: %s\n", err);
		return RG_EXIT_FAIL;
	}
	for (int i = 0; i < n; i++) {
		bool seen = false;

		for (int k = 0; k < i && !seen; k++)
			seen = !strcmp(addrs[k].ifname, addrs[i].ifname);
		if (seen)
			continue;
		if (rg_pod_routes_del(fd, addrs[i].ifname, NULL, 0, &rep, err, sizeof(err))) {
			fprintf(stderr, "railgate route: %s\n", err);
			return RG_EXIT_FAIL;
		}
		if (rep.n_done || rep.n_rules)
			print_report("removed", NULL, &rep, addrs[i].ifname);
	}
	return RG_EXIT_OK;
}

static int do_add_or_check(const struct route_opts *o, int fd)
{
	struct rg_config cfg, *cfgp = NULL;
	struct rg_pod_plan plans[POD_ADDRS_MAX];
	struct rg_pod_report rep;
	char err[RG_POD_MSG_LEN];
	size_t n_plans;
	int ret;

	if (!o->in.n_supernets) {
		const char *path = o->config ? o->config : RG_DEFAULT_CONFIG;

		if (load_config(path, &cfg))
			return RG_EXIT_FAIL;
		cfgp = &cfg;
	}
	ret = make_plans(o, fd, cfgp, plans, &n_plans);
	if (cfgp)
		rg_config_free(cfgp);
	for (size_t i = 0; !ret && i < n_plans; i++) {
		const struct rg_pod_plan *plan = &plans[i];

		if (o->action == ROUTE_ADD)
			ret = rg_pod_routes_add(fd, plan, o->policy, &rep, err, sizeof(err));
		else
			ret = rg_pod_routes_check(fd, plan, o->policy, &rep, err, sizeof(err));
		if (ret) {
			fprintf(stderr, "railgate route %s: %s: %s\n", o->action_name, plan->ifname, err);
			return RG_EXIT_FAIL;
		}
		print_report(o->action == ROUTE_ADD ? "added" : "ok", plan, &rep, plan->ifname);
	}
	return ret;
}

int rg_cmd_route(struct rg_global_opts *g, int argc, char **argv)
{
	struct route_opts o = { 0 };
	char err[RG_POD_MSG_LEN];
	int fd, ret;

	rg_pod_numbering_default(&o.numbering);
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		rg_opts_help(argc < 2 ? stderr : stdout, &rg_route_opts, cli_global_options);
		return argc < 2 ? RG_EXIT_USAGE : RG_EXIT_OK;
	}
	ret = parse_action(argv[1], &o);
	if (!ret)
		ret = parse_opts(g, argc - 1, argv + 1, &o);
	if (ret)
		return ret < 0 ? RG_EXIT_OK : ret;
	fd = rg_pod_netns_open(o.netns_path, err, sizeof(err));
	if (fd < 0) {
		fprintf(stderr, "railgate route: %s\n", err);
		return RG_EXIT_FAIL;
	}
	ret = o.action == ROUTE_DEL ? do_del(&o, fd) : do_add_or_check(&o, fd);
	close(fd);
	return ret;
}
