// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * railgate doctor [--netns NAME | --pid PID | --all-pods] [--json]: the
 * node's checks, then each pod's (tools/doctor/), every problem with the
 * field report's scenario, the evidence and the fix.  Exit 0 when nothing
 * failed, 1 when something did, 2 usage.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
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
	bool json;
	const char *config;
	double sample;
	const char *cni_dirs[RG_DOCTOR_MAX_CNI_DIRS];
	size_t n_cni_dirs;
};

static const char doctor_usage[] =
	"usage: railgate doctor [--netns NAME | --pid PID | --all-pods] [--json] [-c FILE]\n"
	"                       [--cni-results DIR...] [--sample SECS]\n"
	"\n"
	"Check this node (railgate attached on every representor, the uplink, the gateway\n"
	"MAC, growing drop counters, MTUs, nftables) and the pods named, and say which of\n"
	"the field report's scenarios (docs/failure-scenarios.md) breaks them, with the\n"
	"evidence and the fix.\n"
	"\n"
	"Options:\n"
	"  -c FILE            rail config (default " RG_DEFAULT_CONFIG ")\n"
	"  --all-pods         every network namespace under " NETNS_DIR " with a rail address\n"
	"  --cni-results DIR  libcni result caches (default " RG_CNI_RESULTS_DIR " and\n"
	"                     " RG_CNI_MULTUS_RESULTS_DIR ")\n"
	"  --sample SECS      how long to watch the drop counters (default 1)\n"
	"  -h, --help         this text\n"
	"\n"
	"Exit 0 when no check failed, 1 when one did, 2 usage.\n";

enum { OPT_NETNS = 256, OPT_PID, OPT_ALL, OPT_JSON, OPT_CNI, OPT_SAMPLE };

static int parse_doctor_args(int argc, char **argv, struct doctor_args *a)
{
	static const struct option opts[] = {
		{ "netns", required_argument, NULL, OPT_NETNS },
		{ "pid", required_argument, NULL, OPT_PID },
		{ "all-pods", no_argument, NULL, OPT_ALL },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "cni-results", required_argument, NULL, OPT_CNI },
		{ "sample", required_argument, NULL, OPT_SAMPLE },
		{ "config", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	char *end;
	int c, pods = 0;

	memset(a, 0, sizeof(*a));
	a->sample = 1;
	optind = 0;
	while ((c = getopt_long(argc, argv, "c:h", opts, NULL)) != -1) {
		switch (c) {
		case OPT_NETNS: a->netns = optarg; pods++; break;
		case OPT_PID:
			a->pid = strtol(optarg, &end, 10);
			if (*end || a->pid <= 0)
				return cli_usage_error("doctor", "--pid '%s' is not a process id", optarg);
			pods++;
			break;
		case OPT_ALL: a->all_pods = true; pods++; break;
		case OPT_JSON: a->json = true; break;
		case OPT_CNI:
			if (a->n_cni_dirs == RG_DOCTOR_MAX_CNI_DIRS)
				return cli_usage_error("doctor", "too many --cni-results (%s is one more than 8)", optarg);
			a->cni_dirs[a->n_cni_dirs++] = optarg;
			break;
		case OPT_SAMPLE:
			a->sample = strtod(optarg, &end);
			if (*end || !(a->sample >= 0.1 && a->sample <= 60))
				return cli_usage_error("doctor", "--sample '%s': seconds from 0.1 to 60", optarg);
			break;
		case 'c': a->config = optarg; break;
		case 'h': fputs(doctor_usage, stdout); return -1;
		default: return cli_usage_error("doctor", "%s", "unknown option");
		}
	}
	if (optind < argc)
		return cli_usage_error("doctor", "unexpected argument '%s'", argv[optind]);
	if (pods > 1)
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

int rg_cmd_doctor(const struct rg_global_opts *g, int argc, char **argv)
{
	struct doctor_args a;
	struct rg_config cfg = { 0 };
	struct rg_datapath dp;
	struct rg_doctor_ctx x = { 0 };
	struct rg_checks cs = { 0 };
	char err[512];
	int ret = parse_doctor_args(argc, argv, &a), rc;

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
