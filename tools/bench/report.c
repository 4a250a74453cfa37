// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Figures from the rounds.  Throughput is compared only within a round
 * (the designs of one round ran back to back on the same machine state),
 * and what is reported is the median of those per-round ratios with their
 * min and max: a noisy neighbour that slows one round slows both sides of
 * its ratio.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "tools/bench/bench.h"

static struct spread spread_of(double *v, size_t n)
{
	struct spread s = { 0, 0, 0 };

	if (!n)
		return s;
	s.median = bench_median(v, n);     /* sorts */
	s.min = v[0];
	s.max = v[n - 1];
	return s;
}

/* Frames per second that reached the sink. */
static double pps(const struct live_result *l)
{
	return l->secs > 0 ? (double)l->sink / l->secs : 0;
}

struct spread bench_ratio(const struct size_result *s, unsigned rounds,
			  enum bench_design num, enum bench_design den)
{
	double v[BENCH_MAX_ROUNDS];

	for (unsigned r = 0; r < rounds; r++) {
		double d = pps(&s->live[den][r]);

		v[r] = d > 0 ? pps(&s->live[num][r]) / d : 0;
	}
	return spread_of(v, rounds);
}

struct spread bench_mpps(const struct size_result *s, unsigned rounds, enum bench_design d)
{
	double v[BENCH_MAX_ROUNDS];

	for (unsigned r = 0; r < rounds; r++)
		v[r] = pps(&s->live[d][r]) / 1e6;
	return spread_of(v, rounds);
}

struct spread bench_cost_spread(const struct size_result *s, unsigned rounds,
				enum bench_cost_prog p)
{
	double v[BENCH_MAX_ROUNDS];

	memcpy(v, s->cost_ns[p], rounds * sizeof(v[0]));
	return spread_of(v, rounds);
}

static struct spread cost_ratio(const struct size_result *s, unsigned rounds,
				enum bench_cost_prog p)
{
	double v[BENCH_MAX_ROUNDS];

	for (unsigned r = 0; r < rounds; r++) {
		double d = s->cost_ns[C_BARE_REDIRECT][r];

		v[r] = d > 0 ? s->cost_ns[p][r] / d : 0;
	}
	return spread_of(v, rounds);
}

static void print_spread(FILE *out, struct spread s, const char *fmt)
{
	fprintf(out, fmt, s.median);
	fprintf(out, " [");
	fprintf(out, fmt, s.min);
	fprintf(out, "–");
	fprintf(out, fmt, s.max);
	fprintf(out, "]");
}

static double median_of3(const double *v)
{
	double c[BENCH_APPLY_REPS];

	memcpy(c, v, sizeof(c));
	return bench_median(c, BENCH_APPLY_REPS);
}

static void print_throughput(FILE *out, const struct bench_results *r)
{
	fprintf(out, "| design | prefixes | Mpps | × bare XDP redirect | × Linux forwarding "
		"| × its hook's bare redirect | lost |\n");
	fprintf(out, "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
	for (unsigned d = 0; d < D_COUNT; d++) {
		for (unsigned i = 0; i < r->n_sizes; i++) {
			const struct size_result *s = &r->sizes[i];
			uint64_t sent = 0, sink = 0;

			for (unsigned k = 0; k < r->rounds; k++) {
				sent += s->live[d][k].sent;
				sink += s->live[d][k].delivered;
			}
			fprintf(out, "| %s | %u | %.2f | ", bench_designs[d].label, s->size,
				bench_mpps(s, r->rounds, d).median);
			print_spread(out, bench_ratio(s, r->rounds, d, D_XDP_REDIRECT), "%.2f");
			fprintf(out, " | ");
			print_spread(out, bench_ratio(s, r->rounds, d, D_KERNEL), "%.2f");
			fprintf(out, " | ");
			print_spread(out, bench_ratio(s, r->rounds, d, bench_designs[d].ceiling),
				     "%.2f");
			fprintf(out, " | %.2f%% |\n",
				sent ? 100.0 * (double)(sent > sink ? sent - sink : 0) / (double)sent
				     : 0);
		}
	}
}

static void print_cost(FILE *out, const struct bench_results *r)
{
	fprintf(out, "| program | prefixes | ns/frame | × bare redirect | wrong verdicts |\n");
	fprintf(out, "| --- | ---: | ---: | ---: | ---: |\n");
	for (unsigned p = 0; p < C_COUNT; p++) {
		for (unsigned i = 0; i < r->n_sizes; i++) {
			const struct size_result *s = &r->sizes[i];

			fprintf(out, "| %s | %u | ", bench_cost_names[p], s->size);
			print_spread(out, bench_cost_spread(s, r->rounds, p), "%.1f");
			fprintf(out, " | ");
			print_spread(out, cost_ratio(s, r->rounds, p), "%.2f");
			fprintf(out, " | %u |\n", s->cost_wrong[p]);
		}
	}
}

static void print_tables(FILE *out, const struct bench_results *r)
{
	fprintf(out, "| prefixes | railgate compile (ms) | railgate write + flip (ms) "
		"| kernel routes via ip -batch (ms) | kernel FIB memory (KiB) |\n");
	fprintf(out, "| ---: | ---: | ---: | ---: | ---: |\n");
	for (unsigned i = 0; i < r->n_sizes; i++) {
		const struct size_result *s = &r->sizes[i];

		fprintf(out, "| %u | %.1f | %.1f | %.0f | %.0f |\n", s->size,
			median_of3(s->compile_ms), median_of3(s->write_ms), s->kernel_routes_ms,
			(double)s->kernel_routes_bytes / 1024);
	}
	fprintf(out, "\nMemory: railgate's maps (both generations, preallocated, any table "
		"size up to %u zones of /8) take %.1f MiB of kernel memory at load (memlock "
		"says %.1f MiB). A plain LPM trie with %u /24 prefixes took %.0f B per prefix "
		"(memlock says %.0f B).\n", RG_MAX_ZONES, (double)r->rg_kernel_bytes / 1048576,
		(double)r->rg_memlock / 1048576, r->lpm_prefixes,
		r->lpm_prefixes ? (double)r->lpm_kernel_bytes / r->lpm_prefixes : 0,
		r->lpm_prefixes ? (double)r->lpm_memlock / r->lpm_prefixes : 0);
}

/* The targets, met or not, at every size. */
static void print_targets(FILE *out, const struct bench_results *r)
{
	double flat_min = 1e9, flat_max = 0;

	for (unsigned i = 0; i < r->n_sizes; i++) {
		const struct size_result *s = &r->sizes[i];
		double x = bench_ratio(s, r->rounds, D_RG_XDP, D_XDP_REDIRECT).median;
		double k = bench_ratio(s, r->rounds, D_RG_XDP, D_KERNEL).median;
		double t = bench_ratio(s, r->rounds, D_RG_TC, D_TC_REDIRECT).median;
		double c = cost_ratio(s, r->rounds, C_RAILGATE_XDP).median;
		double ns = bench_cost_spread(s, r->rounds, C_RAILGATE_XDP).median;

		fprintf(out, "- %u prefixes: native XDP %.3fx bare XDP redirect (target >= 0.85: %s), "
			"%.2fx Linux forwarding (>= 3.5: %s); TC %.3fx bare TC redirect (>= 0.85: %s); "
			"cost %.2fx bare redirect (<= 2: %s)\n", s->size,
			x, x >= 0.85 ? "met" : "MISSED", k, k >= 3.5 ? "met" : "MISSED",
			t, t >= 0.85 ? "met" : "MISSED", c, c <= 2 ? "met" : "MISSED");
		if (ns < flat_min)
			flat_min = ns;
		if (ns > flat_max)
			flat_max = ns;
	}
	for (unsigned i = 0; i < r->n_sizes; i++) {
		const struct size_result *s = &r->sizes[i];
		double off = bench_cost_spread(s, r->rounds, C_RAILGATE_XDP).median;
		double drops = bench_cost_spread(s, r->rounds, C_RAILGATE_XDP_MON_DROPS).median;
		double all = bench_cost_spread(s, r->rounds, C_RAILGATE_XDP_MON_ALL).median;
		double flood = bench_cost_spread(s, r->rounds, C_RAILGATE_XDP_MON_FLOOD).median;

		fprintf(out, "- %u prefixes, the monitor: off %.1f ns per cross-rail frame; a drops "
			"lease (no event) %+.1f ns; an all lease, every frame an event (ring drained "
			"between calls) %+.1f ns; an all lease with the built-in sampling (1 in %u) "
			"and rate (%u/s), a flood %+.1f ns\n", s->size, off, drops - off, all - off,
			RG_MONITOR_SAMPLE, RG_MONITOR_RATE, flood - off);
	}
	if (r->n_sizes > 1)
		fprintf(out, "- cost from %u to %u prefixes: %.1f to %.1f ns (flat means within "
			"noise of each other)\n", r->sizes[0].size, r->sizes[r->n_sizes - 1].size,
			flat_min, flat_max);
}

void bench_print_table(FILE *out, const struct bench_results *r, const struct bench_opts *o)
{
	const struct machine_info *m = &r->machine;

	fprintf(out, "Machine: %ld CPUs, %s, Linux %s; load average %.2f %.2f %.2f before, "
		"%.2f %.2f %.2f after; %.0f s.\n\n", m->nproc, m->cpu_model, m->kernel,
		m->load_before[0], m->load_before[1], m->load_before[2], m->load_after[0],
		m->load_after[1], m->load_after[2], r->total_secs);
	fprintf(out, "### Throughput: %d-byte frames, generator + forwarder + sink on CPU %d, "
		"%u interleaved rounds of at most %llu frames / %.1f s per design\n\n"
		"Ratios are medians of per-round ratios, [min–max] over the rounds.\n\n",
		BENCH_FRAME_LEN + 4, o->cpu, r->rounds, (unsigned long long)o->frames, o->seconds);
	print_throughput(out, r);
	fprintf(out, "\n### Per-packet program cost: BPF_PROG_TEST_RUN, %u repetitions per "
		"call, %u calls per round, destinations spread over the table; median of the "
		"per-round medians [min–max]\n\n", BENCH_COST_REPEAT, o->cost_calls);
	print_cost(out, r);
	fprintf(out, "\n### Table apply and memory\n\n");
	print_tables(out, r);
	fprintf(out, "\n### Targets (issue 5)\n\n");
	print_targets(out, r);
}

static json_object *spread_json(struct spread s)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "median", json_object_new_double(s.median));
	json_object_object_add(o, "min", json_object_new_double(s.min));
	json_object_object_add(o, "max", json_object_new_double(s.max));
	return o;
}

static json_object *size_json(const struct size_result *s, unsigned rounds)
{
	json_object *o = json_object_new_object(), *designs = json_object_new_object(),
		    *cost = json_object_new_object(), *apply = json_object_new_array();

	json_object_object_add(o, "prefixes", json_object_new_int((int)s->size));
	json_object_object_add(o, "destination_routes", json_object_new_int((int)s->routes));
	for (unsigned d = 0; d < D_COUNT; d++) {
		json_object *j = json_object_new_object(), *runs = json_object_new_array();

		for (unsigned r = 0; r < rounds; r++) {
			json_object *run = json_object_new_object();

			json_object_object_add(run, "sent", json_object_new_int64((int64_t)s->live[d][r].sent));
			const struct live_result *l = &s->live[d][r];

			json_object_object_add(run, "delivered", json_object_new_int64((int64_t)l->delivered));
			json_object_object_add(run, "ttl254", json_object_new_int64((int64_t)l->ttl254));
			json_object_object_add(run, "no_design", json_object_new_int64((int64_t)l->no_design));
			json_object_object_add(run, "window_frames", json_object_new_int64((int64_t)l->sink));
			json_object_object_add(run, "window_seconds", json_object_new_double(l->secs));
			json_object_object_add(run, "ended_by_frame_bound", json_object_new_boolean(l->frames_bound));
			json_object_array_add(runs, run);
		}
		json_object_object_add(j, "rounds", runs);
		json_object_object_add(j, "mpps", spread_json(bench_mpps(s, rounds, d)));
		json_object_object_add(j, "ratio_xdp_redirect",
				       spread_json(bench_ratio(s, rounds, d, D_XDP_REDIRECT)));
		json_object_object_add(j, "ratio_kernel",
				       spread_json(bench_ratio(s, rounds, d, D_KERNEL)));
		json_object_object_add(j, "ratio_hook_ceiling",
				       spread_json(bench_ratio(s, rounds, d, bench_designs[d].ceiling)));
		json_object_object_add(designs, bench_designs[d].name, j);
	}
	json_object_object_add(o, "throughput", designs);
	for (unsigned p = 0; p < C_COUNT; p++) {
		json_object *j = json_object_new_object();

		json_object_object_add(j, "ns", spread_json(bench_cost_spread(s, rounds, p)));
		json_object_object_add(j, "ratio_bare_redirect", spread_json(cost_ratio(s, rounds, p)));
		json_object_object_add(j, "wrong_verdicts", json_object_new_int((int)s->cost_wrong[p]));
		json_object_object_add(cost, bench_cost_names[p], j);
	}
	json_object_object_add(o, "cost", cost);
	for (unsigned k = 0; k < BENCH_APPLY_REPS; k++) {
		json_object *a = json_object_new_object();

		json_object_object_add(a, "compile_ms", json_object_new_double(s->compile_ms[k]));
		json_object_object_add(a, "write_flip_ms", json_object_new_double(s->write_ms[k]));
		json_object_array_add(apply, a);
	}
	json_object_object_add(o, "railgate_apply", apply);
	json_object_object_add(o, "kernel_routes_ms", json_object_new_double(s->kernel_routes_ms));
	json_object_object_add(o, "kernel_routes_bytes", json_object_new_int64(s->kernel_routes_bytes));
	return o;
}

static json_object *machine_json(const struct machine_info *m)
{
	json_object *o = json_object_new_object(), *b = json_object_new_array(),
		    *a = json_object_new_array();

	json_object_object_add(o, "nproc", json_object_new_int((int)m->nproc));
	json_object_object_add(o, "cpu_model", json_object_new_string(m->cpu_model));
	json_object_object_add(o, "kernel", json_object_new_string(m->kernel));
	for (int i = 0; i < 3; i++) {
		json_object_array_add(b, json_object_new_double(m->load_before[i]));
		json_object_array_add(a, json_object_new_double(m->load_after[i]));
	}
	json_object_object_add(o, "loadavg_before", b);
	json_object_object_add(o, "loadavg_after", a);
	return o;
}

int bench_write_json(const char *path, const struct bench_results *r, const struct bench_opts *o)
{
	json_object *root = json_object_new_object(), *params = json_object_new_object(),
		    *sizes = json_object_new_array(), *mem = json_object_new_object();
	int ret;

	json_object_object_add(root, "machine", machine_json(&r->machine));
	json_object_object_add(params, "rounds", json_object_new_int((int)r->rounds));
	json_object_object_add(params, "frames_per_run", json_object_new_int64((int64_t)o->frames));
	json_object_object_add(params, "seconds_per_run", json_object_new_double(o->seconds));
	json_object_object_add(params, "batch_size", json_object_new_int((int)o->batch));
	json_object_object_add(params, "cpu", json_object_new_int(o->cpu));
	json_object_object_add(params, "frame_len", json_object_new_int(BENCH_FRAME_LEN));
	json_object_object_add(params, "cost_repeat", json_object_new_int(BENCH_COST_REPEAT));
	json_object_object_add(params, "cost_calls", json_object_new_int((int)o->cost_calls));
	json_object_object_add(root, "params", params);
	for (unsigned i = 0; i < r->n_sizes; i++)
		json_object_array_add(sizes, size_json(&r->sizes[i], r->rounds));
	json_object_object_add(root, "sizes", sizes);
	json_object_object_add(mem, "railgate_kernel_bytes", json_object_new_int64(r->rg_kernel_bytes));
	json_object_object_add(mem, "railgate_memlock", json_object_new_int64((int64_t)r->rg_memlock));
	json_object_object_add(mem, "lpm_prefixes", json_object_new_int((int)r->lpm_prefixes));
	json_object_object_add(mem, "lpm_kernel_bytes", json_object_new_int64(r->lpm_kernel_bytes));
	json_object_object_add(mem, "lpm_memlock", json_object_new_int64((int64_t)r->lpm_memlock));
	json_object_object_add(root, "memory", mem);
	json_object_object_add(root, "total_seconds", json_object_new_double(r->total_secs));
	ret = json_object_to_file_ext(path, root, JSON_C_TO_STRING_PRETTY) ? -EIO : 0;
	json_object_put(root);
	return ret;
}

/* For gnuplot: one block per design (blank-line separated, "index N"), a
 * header row with the design's label (columnheader(2)), then rows
 * "prefixes median min max" of the ratio to the bare XDP redirect. */
int bench_write_dat(const char *path, const struct bench_results *r)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	for (unsigned d = 0; d < D_COUNT; d++) {
		fprintf(f, "prefixes \"%s\" min max\n", bench_designs[d].label);
		for (unsigned i = 0; i < r->n_sizes; i++) {
			struct spread s = bench_ratio(&r->sizes[i], r->rounds, d, D_XDP_REDIRECT);

			fprintf(f, "%u %.4f %.4f %.4f\n", r->sizes[i].size, s.median, s.min, s.max);
		}
		fprintf(f, "\n\n");
	}
	return fclose(f) ? -errno : 0;
}
