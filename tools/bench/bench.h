/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * railgate-bench: throughput and per-packet cost of railgate against its
 * baselines, measured side by side in one run (issue 5, docs/performance.md).
 *
 * The topology is built by tools/bench/topology.sh; this program enters
 * its node namespace, loads every design, and for each table size runs
 * interleaved rounds of the live-frames generator, then per-packet cost
 * with BPF_PROG_TEST_RUN.  Results go to a JSON file, a Markdown table and
 * a gnuplot data file.
 */
#ifndef RAILGATE_BENCH_H
#define RAILGATE_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "maps/map_set.h"
#include "tools/bench/bench_abi.h"

#define BENCH_FRAME_LEN   60          /* a 64-byte frame on the wire, FCS excluded */
#define BENCH_MAX_ROUNDS  32
#define BENCH_MAX_SIZES   4
#define BENCH_COST_REPEAT 250         /* test-run does not reset the frame: TTL 255 lasts 250 */
#define BENCH_ROUTE_PROTO 250         /* the kernel routes of the benchmark, flushed by proto */

/* The designs, in the order of the report. */
enum bench_design {
	D_XDP_REDIRECT = 0,   /* bare XDP redirect: the ceiling of the XDP hook */
	D_TC_REDIRECT,        /* bare TC redirect: the ceiling of the TC hook */
	D_KERNEL,             /* Linux IPv4 forwarding, static routes, permanent neighbour */
	D_FIB,                /* bpf_fib_lookup forwarder (xdp_fwd style) */
	D_RG_XDP,             /* railgate, native XDP */
	D_RG_XDP_GENERIC,     /* railgate, generic (skb) XDP */
	D_RG_TC,              /* railgate, tcx ingress */
	D_COUNT,
};

/* Per-packet cost programs (BPF_PROG_TEST_RUN).  The last three are
 * railgate_xdp again, cross-rail frames with a monitor attached: a drops
 * lease (no event: the cost of the check), an all lease sampling every
 * frame with a budget no call exhausts (every frame an event, the ring
 * drained between calls), and an all lease with the built-in sampling and
 * rate limit (what a flood costs while `railgate monitor --all` runs). */
enum bench_cost_prog {
	C_XDP_PASS = 0,
	C_BARE_REDIRECT,
	C_FIB,
	C_RAILGATE_XDP,
	C_RAILGATE_XDP_MON_DROPS,
	C_RAILGATE_XDP_MON_ALL,
	C_RAILGATE_XDP_MON_FLOOD,
	C_COUNT,
};
/* The cost programs that are programs of their own, each held on an idle
 * device (--hold-devs); the monitor variants run railgate_xdp's. */
#define C_HELD_PROGS (C_RAILGATE_XDP + 1)

struct bench_opts {
	const char *node_ns;          /* netns names (ip netns) */
	const char *sink_ns;
	const char *rep_dev, *uplink_dev, *sink_dev;
	char     hold_devs[C_HELD_PROGS][16];  /* idle devices that hold the cost programs */
	uint32_t gateway_ip;          /* host order: the uplink's neighbour */
	unsigned sizes[BENCH_MAX_SIZES];
	unsigned n_sizes;
	unsigned rounds;
	uint64_t frames;              /* per measured run, at most */
	double   seconds;             /* per measured run, at most */
	unsigned batch;               /* live-frames batch_size */
	int      cpu;                 /* the one CPU everything runs on */
	unsigned cost_calls;          /* test-run calls per cost figure */
	const char *json_path, *md_path, *dat_path;
};

/* Everything loaded, with the addresses the designs need. */
struct bench_env {
	int rep_ifindex, uplink_ifindex;
	uint8_t rep_mac[6], uplink_mac[6], sink_mac[6];
	uint32_t pod_ip;              /* host order, inside the ingress rail */
	struct bench_gen *gen;
	struct bench_sink *sink;
	struct bench_fwd *fwd;
	struct bench_baseline *base;
	struct railgate *rg;
	struct rg_map_set ms;
	int sink_link;                /* XDP link of the sink, in the sink netns */
	int design_link;              /* the representor's link of the current design, or -1 */
	int hold_link[C_HELD_PROGS];  /* cost programs attached to idle devices, or -1 */
	int64_t  rg_kernel_bytes;     /* kernel memory railgate's object took at load */
	uint32_t dsts[BENCH_DSTS];    /* network order, what gen_dsts holds */
};

/* One measured live-frames run. */
struct live_result {
	uint64_t sent;                /* frames the generator produced, whole run */
	uint64_t delivered;           /* frames the sink counted, whole run */
	uint64_t ttl254;              /* of which with TTL 254 (forwarded once) */
	uint64_t no_design;           /* frames whose design was not reachable (tail call) */
	uint64_t sink;                /* frames the sink counted in the window */
	double   secs;                /* the window: steady state, after the warm-up */
	bool     frames_bound;        /* the frame bound ended the run before the window */
};

struct design_info {
	const char *name;             /* as in the JSON and the table */
	const char *label;            /* for people */
	enum bench_design ceiling;    /* the bare redirect of the same hook */
};
extern const struct design_info bench_designs[D_COUNT];
extern const char *const bench_cost_names[C_COUNT];

#define BENCH_APPLY_REPS 3             /* table applies timed per size */

/* Everything measured at one table size. */
struct size_result {
	unsigned size;                              /* prefixes (label) */
	unsigned routes;                            /* destination /24s in it */
	struct live_result live[D_COUNT][BENCH_MAX_ROUNDS];
	double   cost_ns[C_COUNT][BENCH_MAX_ROUNDS];
	unsigned cost_wrong[C_COUNT];               /* calls with an unexpected verdict */
	double   compile_ms[BENCH_APPLY_REPS];      /* railgate: FIB compile */
	double   write_ms[BENCH_APPLY_REPS];        /* railgate: write generation + flip */
	double   kernel_routes_ms;                  /* ip -batch of the same routes */
	int64_t  kernel_routes_bytes;               /* kernel memory they took */
};

struct machine_info {
	long   nproc;
	char   cpu_model[128];
	char   kernel[128];
	double load_before[3], load_after[3];
};

struct bench_results {
	struct machine_info machine;
	struct size_result sizes[BENCH_MAX_SIZES];
	unsigned n_sizes, rounds;
	int64_t  rg_kernel_bytes;                   /* railgate object load, all maps */
	uint64_t rg_memlock;                        /* sum of its maps' memlock */
	unsigned lpm_prefixes;
	int64_t  lpm_kernel_bytes;
	uint64_t lpm_memlock;
	double   total_secs;
};

/* report.c: statistics over rounds and the three outputs. */
struct spread { double median, min, max; };
struct spread bench_ratio(const struct size_result *s, unsigned rounds,
			  enum bench_design num, enum bench_design den);
struct spread bench_mpps(const struct size_result *s, unsigned rounds, enum bench_design d);
struct spread bench_cost_spread(const struct size_result *s, unsigned rounds,
				enum bench_cost_prog p);
void bench_print_table(FILE *out, const struct bench_results *r, const struct bench_opts *o);
int  bench_write_json(const char *path, const struct bench_results *r,
		      const struct bench_opts *o);
int  bench_write_dat(const char *path, const struct bench_results *r);

/* topo.c: namespaces, interfaces, the sink. */
int  bench_enter_netns(const char *name, char *err, size_t err_len);
int  bench_netns_fd(const char *name, char *err, size_t err_len);
int  bench_if_mac(const char *dev, uint8_t mac[6], char *err, size_t err_len);
int  bench_attach_sink(struct bench_env *env, const struct bench_opts *o, char *err, size_t err_len);
int  bench_read_sink(const struct bench_env *env, uint64_t *frames, uint64_t *ttl254);

/* designs.c: load everything; make one design the one the generator feeds. */
int  bench_load(struct bench_env *env, const struct bench_opts *o, char *err, size_t err_len);
void bench_unload(struct bench_env *env);
int  bench_design_start(struct bench_env *env, enum bench_design d, int *gen_fd,
			char *err, size_t err_len);
void bench_design_stop(struct bench_env *env);

/* tables.c: the same table for railgate's maps and the kernel FIB. */
unsigned bench_table_routes(unsigned size);   /* destination prefixes of a size */
int  bench_fill_dsts(struct bench_env *env, unsigned size, char *err, size_t err_len);
int  bench_rg_table(struct bench_env *env, unsigned size, double *compile_ms,
		    double *write_ms, char *err, size_t err_len);
int  bench_kernel_routes(const struct bench_opts *o, unsigned size, char *err, size_t err_len);

/* live.c: the live-frames generator. */
int  bench_live_run(struct bench_env *env, int gen_fd, const struct bench_opts *o,
		    struct live_result *r, char *err, size_t err_len);

/* cost.c: median ns per frame over calls test-runs of BENCH_COST_REPEAT. */
int  bench_cost_hold(struct bench_env *env, const struct bench_opts *o, char *err, size_t err_len);
void bench_cost_release(struct bench_env *env);
int  bench_cost(struct bench_env *env, enum bench_cost_prog p, unsigned calls,
		double *ns, unsigned *wrong_verdicts, char *err, size_t err_len);

/* memory.c: kernel memory (slab + vmalloc + percpu) and map accounting. */
int64_t bench_kernel_mem_bytes(void);
uint64_t bench_map_memlock(int map_fd);
int  bench_lpm_memory(unsigned prefixes, int64_t *kernel_bytes, uint64_t *memlock,
		      char *err, size_t err_len);

/* util (live.c: the clock; stats.c: sorting, the median) */
double bench_now(void);
int    bench_cmp_double(const void *a, const void *b);
double bench_median(double *v, size_t n);  /* sorts v */

#endif /* RAILGATE_BENCH_H */
