// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * railgate doctor [--netns NAME | --pid PID | --all-pods] [--json]: the
 * node's checks, then each pod's (tools/doctor/), every problem with the
 * field report's scenario, the evidence and the fix.  Exit 0 when nothing
 * failed, 1 when something did, 2 usage.
 */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <json-c/json.h>

#include "tools/railgate/commands.h"
#include "tools/railgate/cli.h"
#include "loader/datapath/datapath.h"
#include "tools/doctor/doctor.h"
#include "tools/pod_routes/pod_routes.h"
#include "lib/netns.h"

#define NETNS_DIR "/run/netns"

struct doctor_args {
	const char *netns;
	long pid;
	bool all_pods;
	int pods;                    /* how many of --netns, --pid and --all-pods were given */
	bool json;
	const char *config;
	double sample;
	const char *cni_dirs[RG_DOCTOR_MAX_CNI_DIRS];
	size_t n_cni_dirs;
};

/* --netns, --pid, --all-pods: one pod selection, each counted. */
static int parse_netns(const char *arg, void *args, char *msg, size_t n)
{
	struct doctor_args *a = args;

	a->netns = arg;
	a->pods++;
	return 0;
}

static int parse_pid(const char *arg, void *args, char *msg, size_t n)
{
	struct doctor_args *a = args;
	char *end;

	a->pid = strtol(arg, &end, 10);
	if (*end || a->pid <= 0) {
		snprintf(msg, n, "--pid '%s' is not a process id", arg);
		return -1;
	}
	a->pods++;
	return 0;
}

static int parse_all_pods(const char *arg, void *args, char *msg, size_t n)
{
	struct doctor_args *a = args;

	a->all_pods = true;
	a->pods++;
	return 0;
}

static int parse_cni_dir(const char *arg, void *args, char *msg, size_t n)
{
	struct doctor_args *a = args;

	if (a->n_cni_dirs == RG_DOCTOR_MAX_CNI_DIRS) {
		snprintf(msg, n, "too many --cni-results (%s is one more than 8)", arg);
		return -1;
	}
	a->cni_dirs[a->n_cni_dirs++] = arg;
	return 0;
}

static const struct rg_opt doctor_options[] = {
	{ .name = "netns", .arg = "NAME", .kind = RG_OPT_CALL, .parse = parse_netns,
	  .complete = RG_COMPLETE_NETNS, .help = "the pod's namespace, " NETNS_DIR "/NAME" },
	{ .name = "pid", .arg = "PID", .kind = RG_OPT_CALL, .parse = parse_pid,
	  .help = "the namespace of a process in the pod" },
	{ .name = "all-pods", .kind = RG_OPT_CALL, .parse = parse_all_pods,
	  .help = "every network namespace under " NETNS_DIR " with a rail address" },
	{ .name = "json", .kind = RG_OPT_FLAG, .offset = offsetof(struct doctor_args, json),
	  .help = "one JSON document (docs/commands.md names the fields)" },
	{ .name = "config", .short_name = 'c', .arg = "FILE", .kind = RG_OPT_STRING,
	  .offset = offsetof(struct doctor_args, config), .complete = RG_COMPLETE_FILE,
	  .help = "rail config (default " RG_DEFAULT_CONFIG ")" },
	{ .name = "cni-results", .arg = "DIR", .kind = RG_OPT_CALL, .parse = parse_cni_dir,
	  .complete = RG_COMPLETE_DIR,
	  .help = "libcni result caches, repeatable (default\n"
		  RG_CNI_RESULTS_DIR " and " RG_CNI_MULTUS_RESULTS_DIR ")" },
	{ .name = "sample", .arg = "SECS", .kind = RG_OPT_DOUBLE, .offset = offsetof(struct doctor_args, sample),
	  .min = 0.1, .max = 60, .bad = "--sample '%s': seconds from 0.1 to 60",
	  .help = "how long to watch the drop counters (default 1)" },
	{ 0 },
};

const struct rg_cmd_opts rg_doctor_opts = {
	.name = "doctor",
	.usage = "usage: railgate doctor [--netns NAME | --pid PID | --all-pods] [--json] [-c FILE]\n"
		 "                       [--cni-results DIR...] [--sample SECS]",
	.about = "Check this node (railgate attached on every representor, the uplink, the gateway\n"
		 "MAC, growing drop counters, MTUs, nftables) and the pods named, and say which of\n"
		 "the field report's scenarios (docs/failure-scenarios.md) breaks them, with the\n"
		 "evidence and the fix.",
	.opts = doctor_options,
	.args_size = sizeof(struct doctor_args),
	.trailer = "Exit 0 when no check failed, 1 when one did, 2 usage.",
	.after = RG_AFTER_HINT,
	.unknown = "unknown option",
};

static int parse_doctor_args(struct rg_global_opts *g, int argc, char **argv, struct doctor_args *a)
{
	int first;
	enum rg_opts_result r;

	memset(a, 0, sizeof(*a));
	a->sample = 1;
	r = cli_parse(&rg_doctor_opts, g, argc, argv, a, &first);
	if (r != RG_OPTS_RUN)
		return r == RG_OPTS_HELP ? -1 : RG_EXIT_USAGE;
	if (first < argc)
		return cli_usage_error("doctor", "unexpected argument '%s'", argv[first]);
	if (a->pods > 1)
		return cli_usage_error("doctor", "%s", "give one of --netns, --pid and --all-pods");
	if (!a->n_cni_dirs) {
		a->cni_dirs[a->n_cni_dirs++] = RG_CNI_RESULTS_DIR;
		a->cni_dirs[a->n_cni_dirs++] = RG_CNI_MULTUS_RESULTS_DIR;
	}
	return 0;
}

/* How one pod is opened and named in targets and fix commands. */
struct pod_ref {
	char path[256];
	char label[300];             /* "pod NAME" */
	char railgate_arg[300];      /* "--netns NAME" */
	char exec_prefix[300];       /* "ip netns exec NAME" */
};

static int pod_ref_netns(const char *name, struct pod_ref *r)
{
	snprintf(r->label, sizeof(r->label), "pod %s", name);
	snprintf(r->railgate_arg, sizeof(r->railgate_arg), "--netns %s", name);
	snprintf(r->exec_prefix, sizeof(r->exec_prefix), "ip netns exec %s", name);
	return rg_pod_netns_path_by_name(name, r->path, sizeof(r->path));
}

static int pod_ref_pid(long pid, struct pod_ref *r)
{
	snprintf(r->label, sizeof(r->label), "pod pid %ld", pid);
	snprintf(r->railgate_arg, sizeof(r->railgate_arg), "--pid %ld", pid);
	snprintf(r->exec_prefix, sizeof(r->exec_prefix), "nsenter -t %ld -n", pid);
	return rg_pod_netns_path_by_pid(pid, r->path, sizeof(r->path));
}

static void doctor_one_pod(const struct rg_doctor_ctx *x, const struct pod_ref *r, struct rg_checks *cs)
{
	struct rg_doctor_pod pod = { .label = r->label, .railgate_arg = r->railgate_arg,
				     .exec_prefix = r->exec_prefix };
	char err[256];
	struct rg_check *c;

	pod.netns_fd = rg_pod_netns_open(r->path, err, sizeof(err));
	if (pod.netns_fd < 0) {
		if ((c = rg_checks_add(cs, "pod", 0, RG_CHECK_FAIL, r->label))) {
			rg_check_set(c->summary, "cannot open the pod's network namespace");
			rg_check_set(c->evidence, "%s", err);
		}
		return;
	}
	rg_doctor_pod(x, &pod, cs);
	close(pod.netns_fd);
}

/* Every namespace under /run/netns holding an address in a rail. */
static void doctor_all_pods(const struct rg_doctor_ctx *x, struct rg_checks *cs)
{
	DIR *d = opendir(NETNS_DIR);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		struct rg_pod_addr addrs[64];
		struct pod_ref r;
		char err[256];
		int fd, k, in_rail = 0;

		if (e->d_name[0] == '.' || pod_ref_netns(e->d_name, &r))
			continue;
		fd = rg_pod_netns_open(r.path, err, sizeof(err));
		if (fd < 0)
			continue;
		k = rg_netns_is_self(fd) == 0 ? rg_pod_list_addrs(fd, NULL, addrs, 64, err, sizeof(err)) : 0;
		close(fd);
		for (int i = 0; i < k; i++)
			for (size_t rr = 0; rr < x->cfg->n_rails; rr++)
				in_rail |= rg_cidr_contains(x->cfg->rails[rr].subnet, addrs[i].addr);
		if (in_rail)
			doctor_one_pod(x, &r, cs);
	}
	if (d)
		closedir(d);
}

static void print_text(const struct rg_checks *cs)
{
	for (size_t i = 0; i < cs->n; i++) {
		const struct rg_check *c = &cs->v[i];
		char scen[16] = "railgate";

		if (c->scenario)
			snprintf(scen, sizeof(scen), "scenario %d", c->scenario);
		printf("%-4s [%s] %s: %s\n", c->status == RG_CHECK_PASS ? "ok" :
		       c->status == RG_CHECK_WARN ? "WARN" : "FAIL", scen, c->target, c->summary);
		if (c->status == RG_CHECK_PASS)
			continue;
		printf("     evidence: %s\n", c->evidence);
		if (c->fix_command[0])
			printf("     fix:      %s\n", c->fix_command);
		if (c->fix_text[0])
			printf("     %s%s\n", c->fix_command[0] ? "          " : "fix:      ", c->fix_text);
	}
	printf("%zu failed, %zu warned, %zu passed\n", rg_checks_count(cs, RG_CHECK_FAIL),
	       rg_checks_count(cs, RG_CHECK_WARN), rg_checks_count(cs, RG_CHECK_PASS));
}

int rg_cmd_doctor(struct rg_global_opts *g, int argc, char **argv)
{
	struct doctor_args a;
	struct rg_config cfg = { 0 };
	struct rg_datapath dp;
	struct rg_doctor_ctx x = { 0 };
	struct rg_checks cs = { 0 };
	char err[512];
	int ret = parse_doctor_args(g, argc, argv, &a), rc;

	if (ret)
		return ret < 0 ? RG_EXIT_OK : ret;
	x.config_path = a.config ? a.config : RG_DEFAULT_CONFIG;
	if (a.netns && pod_ref_netns(a.netns, &(struct pod_ref){ 0 }))
		return cli_usage_error("doctor", "--netns '%s' is not a namespace name", a.netns);
	if ((a.config || a.netns || a.pid || a.all_pods || access(RG_DEFAULT_CONFIG, F_OK) == 0)) {
		if (cli_load_config(x.config_path, &cfg))
			return RG_EXIT_USAGE;
		x.cfg = &cfg;
	}
	x.up = cli_open_datapath(g->pin_dir, &dp, err, sizeof(err)) == 0;
	x.dp = &dp;
	x.sample_ms = (int)(a.sample * 1000);
	memcpy(x.cni_dirs, a.cni_dirs, sizeof(a.cni_dirs));
	x.n_cni_dirs = a.n_cni_dirs;

	rg_doctor_node(&x, &cs);
	if (a.netns || a.pid) {
		struct pod_ref r;

		if (a.netns)
			pod_ref_netns(a.netns, &r);
		else
			pod_ref_pid(a.pid, &r);
		doctor_one_pod(&x, &r, &cs);
	} else if (a.all_pods) {
		doctor_all_pods(&x, &cs);
	}
	if (a.json) {
		struct json_object *js = rg_checks_json(&cs);

		printf("%s\n", json_object_to_json_string_ext(js, JSON_C_TO_STRING_PRETTY |
							       JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(js);
	} else {
		print_text(&cs);
	}
	rc = rg_checks_count(&cs, RG_CHECK_FAIL) ? RG_EXIT_FAIL : RG_EXIT_OK;
	rg_checks_free(&cs);
	rg_datapath_close(&dp);
	if (x.cfg)
		rg_config_free(&cfg);
	return rc;
}
