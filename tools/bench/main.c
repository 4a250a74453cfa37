// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * railgate-bench: see bench.h and docs/performance.md.  Run by tools/bench/bench.sh
 * (make bench) and tests/integration/bench_smoke.sh after
 * tools/bench/topology.sh built the namespaces.
 *
 * Order of work: enter the node namespace, pin to one CPU, load every
 * design and the sink; then for each table size: install the table in the
 * kernel and in railgate's maps (timed), fill the generator's
 * destinations, and run the rounds.  A round runs every design once, in an
 * order rotated each round, then measures per-packet program costs.
 */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/utsname.h>
#include <bpf/libbpf.h>

#include "tools/bench/bench.h"
#include "railgate.skel.h"

#define BUSY_LOAD       0.5           /* load average that means someone else is running */
#define POD_IP          0x0a00000au   /* 10.0.0.10: inside the ingress rail */

static void usage(FILE *out)
{
	fprintf(out,
		"usage: railgate-bench --node NETNS --sink NETNS [options]\n"
		"  --rep DEV --uplink DEV      in the node namespace (rep0, uplink0)\n"
		"  --sink-dev DEV              the uplink's peer in the sink namespace (up0)\n"
		"  --gateway IP                the uplink's permanent neighbour (172.31.255.1)\n"
		"  --hold-devs A,B,C,D         idle devices for the cost programs (none: slower)\n"
		"  --sizes N,N,...             table sizes, powers of two 16..65536 (16,1024,65536)\n"
		"  --rounds N                  interleaved rounds (5)\n"
		"  --frames N --seconds S      bounds of one measured run (50000000, 1.0)\n"
		"  --batch N                   live-frames batch_size (64)\n"
		"  --cpu N                     the CPU everything runs on (0)\n"
		"  --cost-calls N              test-run calls per cost figure and round (1000)\n"
		"  --json FILE --md FILE --dat FILE   outputs (the table also goes to stdout)\n");
}

static int parse_sizes(const char *s, struct bench_opts *o)
{
	char *end;

	o->n_sizes = 0;
	while (*s && o->n_sizes < BENCH_MAX_SIZES) {
		unsigned long v = strtoul(s, &end, 10);

		if (end == s || v < 16 || v > 65536 || (v & (v - 1)))
			return -EINVAL;
		o->sizes[o->n_sizes++] = (unsigned)v;
		s = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -EINVAL;
	}
	return o->n_sizes ? 0 : -EINVAL;
}

/* --hold-devs A,B,C,D: one idle device per cost program of its own. */
static int parse_hold_devs(const char *s, struct bench_opts *o)
{
	unsigned i = 0;

	while (*s && i < C_HELD_PROGS) {
		size_t len = strcspn(s, ",");

		if (!len || len >= sizeof(o->hold_devs[i]))
			return -EINVAL;
		memcpy(o->hold_devs[i], s, len);
		o->hold_devs[i++][len] = '\0';
		s += len + (s[len] == ',');
	}
	return i == C_HELD_PROGS && !*s ? 0 : -EINVAL;
}

static int parse_args(int argc, char **argv, struct bench_opts *o)
{
	static const struct option longopts[] = {
		{ "node", required_argument, NULL, 'n' },
		{ "sink", required_argument, NULL, 's' },
		{ "rep", required_argument, NULL, 'r' },
		{ "uplink", required_argument, NULL, 'u' },
		{ "sink-dev", required_argument, NULL, 'k' },
		{ "gateway", required_argument, NULL, 'g' },
		{ "hold-devs", required_argument, NULL, 'H' },
		{ "sizes", required_argument, NULL, 'z' },
		{ "rounds", required_argument, NULL, 'R' },
		{ "frames", required_argument, NULL, 'f' },
		{ "seconds", required_argument, NULL, 'S' },
		{ "batch", required_argument, NULL, 'b' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "cost-calls", required_argument, NULL, 'C' },
		{ "json", required_argument, NULL, 'j' },
		{ "md", required_argument, NULL, 'm' },
		{ "dat", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct in_addr gw;
	int c;

	*o = (struct bench_opts){ .rep_dev = "rep0", .uplink_dev = "uplink0",
				  .sink_dev = "up0", .gateway_ip = 0xac1fff01u,
				  .sizes = { 16, 1024, 65536 }, .n_sizes = 3, .rounds = 5,
				  .frames = 50000000, .seconds = 1.0, .batch = 64, .cpu = 0,
				  .cost_calls = 1000 };
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n': o->node_ns = optarg; break;
		case 's': o->sink_ns = optarg; break;
		case 'r': o->rep_dev = optarg; break;
		case 'u': o->uplink_dev = optarg; break;
		case 'k': o->sink_dev = optarg; break;
		case 'g':
			if (inet_pton(AF_INET, optarg, &gw) != 1)
				return -EINVAL;
			o->gateway_ip = ntohl(gw.s_addr);
			break;
		case 'H':
			if (parse_hold_devs(optarg, o))
				return -EINVAL;
			break;
		case 'z':
			if (parse_sizes(optarg, o))
				return -EINVAL;
			break;
		case 'R': o->rounds = (unsigned)atoi(optarg); break;
		case 'f': o->frames = strtoull(optarg, NULL, 10); break;
		case 'S': o->seconds = atof(optarg); break;
		case 'b': o->batch = (unsigned)atoi(optarg); break;
		case 'c': o->cpu = atoi(optarg); break;
		case 'C': o->cost_calls = (unsigned)atoi(optarg); break;
		case 'j': o->json_path = optarg; break;
		case 'm': o->md_path = optarg; break;
		case 'd': o->dat_path = optarg; break;
		case 'h': usage(stdout); exit(0);
		default: return -EINVAL;
		}
	}
	if (!o->node_ns || !o->sink_ns || optind != argc || !o->rounds ||
	    o->rounds > BENCH_MAX_ROUNDS || !o->frames || o->frames > UINT32_MAX ||
	    o->seconds <= 0 || !o->batch ||
	    o->batch > 256 || !o->cost_calls)
		return -EINVAL;
	return 0;
}

static void read_loadavg(double l[3])
{
	FILE *f = fopen("/proc/loadavg", "r");

	l[0] = l[1] = l[2] = -1;
	if (f) {
		if (fscanf(f, "%lf %lf %lf", &l[0], &l[1], &l[2]) != 3)
			l[0] = l[1] = l[2] = -1;
		fclose(f);
	}
}

static void read_machine(struct machine_info *m)
{
	struct utsname u;
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");

	m->nproc = sysconf(_SC_NPROCESSORS_ONLN);
	snprintf(m->cpu_model, sizeof(m->cpu_model), "unknown CPU");
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!strncmp(line, "model name", 10) && colon) {
			snprintf(m->cpu_model, sizeof(m->cpu_model), "%s", colon + 2);
			m->cpu_model[strcspn(m->cpu_model, "\n")] = '\0';
			break;
		}
	}
	if (f)
		fclose(f);
	snprintf(m->kernel, sizeof(m->kernel), "%s", uname(&u) ? "unknown" : u.release);
	read_loadavg(m->load_before);
}

static int pin_cpu(int cpu, char *err, size_t err_len)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (!sched_setaffinity(0, sizeof(set), &set))
		return 0;
	snprintf(err, err_len, "cannot pin to CPU %d: %s", cpu, strerror(errno));
	return -errno;
}

static int run_design(struct bench_env *env, const struct bench_opts *o, enum bench_design d,
		      struct live_result *res, char *err, size_t err_len)
{
	double t0 = bench_now();
	int gen_fd, ret;

	ret = bench_design_start(env, d, &gen_fd, err, err_len);
	if (!ret)
		ret = bench_live_run(env, gen_fd, o, res, err, err_len);
	bench_design_stop(env);
	if (ret) {
		fprintf(stderr, "railgate-bench: %s: ", bench_designs[d].name);
		return ret;
	}
	fprintf(stderr, "railgate-bench:   %-22s %6.2f Mpps  (%.1f s)\n", bench_designs[d].name,
		res->secs > 0 ? (double)res->sink / res->secs / 1e6 : 0, bench_now() - t0);
	return 0;
}

static int run_round(struct bench_env *env, const struct bench_opts *o, struct size_result *s,
		     unsigned round, char *err, size_t err_len)
{
	double t0;
	int ret;

	for (unsigned k = 0; k < D_COUNT; k++) {
		enum bench_design d = (enum bench_design)((k + round) % D_COUNT);

		ret = run_design(env, o, d, &s->live[d][round], err, err_len);
		if (ret)
			return ret;
	}
	t0 = bench_now();
	for (unsigned k = 0; k < C_COUNT; k++) {
		enum bench_cost_prog p = (enum bench_cost_prog)((k + round) % C_COUNT);
		unsigned wrong;

		ret = bench_cost(env, p, o->cost_calls, &s->cost_ns[p][round], &wrong, err, err_len);
		if (ret)
			return ret;
		s->cost_wrong[p] += wrong;
	}
	fprintf(stderr, "railgate-bench:   per-packet cost (%.1f s)\n", bench_now() - t0);
	return 0;
}

static int install_tables(struct bench_env *env, const struct bench_opts *o,
			  struct size_result *s, char *err, size_t err_len)
{
	int64_t mem0 = bench_kernel_mem_bytes();
	double t0 = bench_now();
	int ret;

	s->routes = bench_table_routes(s->size);
	ret = bench_kernel_routes(o, s->size, err, err_len);
	if (ret)
		return ret;
	s->kernel_routes_ms = (bench_now() - t0) * 1e3;
	s->kernel_routes_bytes = bench_kernel_mem_bytes() - mem0;
	/* Apply, then re-apply twice: the second and third write the other
	 * generation while the first is live, as a reload does. */
	for (unsigned k = 0; k < BENCH_APPLY_REPS; k++) {
		ret = bench_rg_table(env, s->size, &s->compile_ms[k], &s->write_ms[k], err, err_len);
		if (ret)
			return ret;
	}
	return bench_fill_dsts(env, s->size, err, err_len);
}

static int run_all(struct bench_env *env, const struct bench_opts *o, struct bench_results *r,
		   char *err, size_t err_len)
{
	int ret;

	r->lpm_prefixes = 65536;
	ret = bench_lpm_memory(r->lpm_prefixes, &r->lpm_kernel_bytes, &r->lpm_memlock, err, err_len);
	if (ret)
		return ret;
	r->rg_kernel_bytes = env->rg_kernel_bytes;
	for (int i = 0; i < RG_MAPID_COUNT; i++)
		r->rg_memlock += bench_map_memlock(env->ms.fd[i]);

	for (unsigned i = 0; i < o->n_sizes; i++) {
		struct size_result *s = &r->sizes[i];

		s->size = o->sizes[i];
		double t0 = bench_now();

		ret = install_tables(env, o, s, err, err_len);
		if (ret)
			return ret;
		fprintf(stderr, "railgate-bench: %u prefixes: tables installed (%.1f s)\n", s->size,
			bench_now() - t0);
		for (unsigned round = 0; round < o->rounds; round++) {
			fprintf(stderr, "railgate-bench: %u prefixes: round %u/%u\n", s->size,
				round + 1, o->rounds);
			ret = run_round(env, o, s, round, err, err_len);
			if (ret)
				return ret;
		}
		r->n_sizes = i + 1;
	}
	return 0;
}

static int write_outputs(const struct bench_results *r, const struct bench_opts *o)
{
	int ret = 0;

	bench_print_table(stdout, r, o);
	if (o->md_path) {
		FILE *f = fopen(o->md_path, "w");

		if (!f) {
			fprintf(stderr, "railgate-bench: %s: %s\n", o->md_path, strerror(errno));
			return 1;
		}
		bench_print_table(f, r, o);
		fclose(f);
	}
	if (o->json_path && bench_write_json(o->json_path, r, o)) {
		fprintf(stderr, "railgate-bench: cannot write %s\n", o->json_path);
		ret = 1;
	}
	if (o->dat_path && bench_write_dat(o->dat_path, r)) {
		fprintf(stderr, "railgate-bench: cannot write %s\n", o->dat_path);
		ret = 1;
	}
	return ret;
}

int main(int argc, char **argv)
{
	static struct bench_env env;
	static struct bench_results res;
	struct bench_opts o;
	char err[512] = "";
	double t0 = bench_now();
	int ret;

	if (parse_args(argc, argv, &o)) {
		usage(stderr);
		return 2;
	}
	read_machine(&res.machine);
	if (res.machine.load_before[0] > BUSY_LOAD)
		fprintf(stderr, "railgate-bench: WARNING: load average %.2f before the run: the "
			"machine is busy, figures will be noisy\n", res.machine.load_before[0]);
	res.rounds = o.rounds;
	env.pod_ip = POD_IP;
	ret = bench_enter_netns(o.node_ns, err, sizeof(err));
	if (!ret)
		ret = pin_cpu(o.cpu, err, sizeof(err));
	if (!ret)
		ret = bench_load(&env, &o, err, sizeof(err));
	if (!ret)
		ret = run_all(&env, &o, &res, err, sizeof(err));
	bench_unload(&env);
	if (ret) {
		fprintf(stderr, "railgate-bench: %s\n", err);
		return 1;
	}
	read_loadavg(res.machine.load_after);
	res.total_secs = bench_now() - t0;
	if (res.machine.load_after[0] > BUSY_LOAD + 1)
		fprintf(stderr, "railgate-bench: WARNING: load average %.2f after the run (ours "
			"adds about 1): something else was running\n", res.machine.load_after[0]);
	return write_outputs(&res, &o);
}
