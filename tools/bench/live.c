// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The traffic generator: BPF_PROG_RUN in live-frames mode
 * (BPF_F_TEST_XDP_LIVE_FRAMES, as in the kernel selftest xdp_do_redirect.c
 * and xdp-trafficgen).  The kernel runs the generator program on frames
 * in page-pool pages and acts on its verdict for real: redirects are
 * transmitted, XDP_PASS goes up the stack as an skb on the representor.
 *
 * One call per run, on a thread pinned to the benchmark CPU, bounded in
 * frames (repeat) and in time (a signal interrupts the call: the kernel's
 * test-run loop stops with EINTR between batches).  One call, because
 * every call sets up and tears down a page pool, and the teardown waits
 * for an RCU grace period: tens of ms on this kind of VM, which would
 * otherwise dominate.  For the same reason the rate is not frames over
 * the call's duration: another thread samples the sink's counter after a
 * warm-up and again at the end of a window, while the generator runs.
 *
 * Generator, forwarder, the veth's transmit and the sink's NAPI poll all
 * run on the generator's CPU: each batch is flushed and its softirq runs
 * before the next batch, so the run is self-clocked and loses nothing;
 * `delivered` against `sent` says whether it did.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "tools/bench/bench.h"
#include "bench_gen.skel.h"

#define WARMUP_SHARE  0.2             /* of the run's seconds, before the window */
#define POLL_USEC     5000
#define DRAIN_USEC    20000           /* let a deferred softirq finish before we read */
#define STOP_SIGNAL   SIGUSR1

double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct generator {
	pthread_t thread;
	int       prog_fd, ifindex, cpu;
	uint64_t  frames;
	unsigned  batch;
	volatile int done;
	int       err;                /* errno of the call, 0 or EINTR when stopped */
};

static void on_stop(int sig)
{
	(void)sig;                    /* only there to interrupt the syscall */
}

static void *generator_main(void *arg)
{
	struct generator *g = arg;
	uint8_t frame[BENCH_FRAME_LEN] = { [12] = 0x08, [14] = 0x45 }; /* rewritten anyway */
	struct xdp_md ctx = { .data_end = BENCH_FRAME_LEN, .ingress_ifindex = (uint32_t)g->ifindex };
	LIBBPF_OPTS(bpf_test_run_opts, opts,
		.data_in = frame,
		.data_size_in = BENCH_FRAME_LEN,
		.ctx_in = &ctx,
		.ctx_size_in = sizeof(ctx),
		.repeat = (uint32_t)g->frames,
		.flags = BPF_F_TEST_XDP_LIVE_FRAMES,
		.batch_size = g->batch,
	);
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(g->cpu, &set);
	g->err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (!g->err && bpf_prog_test_run_opts(g->prog_fd, &opts))
		g->err = errno;
	g->done = 1;
	return NULL;
}

/* Sleep until secs passed or the generator finished; the time it ended. */
static double wait_or_done(const struct generator *g, double secs)
{
	double until = bench_now() + secs;

	while (!g->done && bench_now() < until)
		usleep(POLL_USEC);
	return bench_now();
}

/* Keep the sampling thread off the generator's CPU (when there is another):
 * its wake-ups would preempt the generator.  Returns the old affinity. */
static cpu_set_t move_off_cpu(int cpu)
{
	cpu_set_t old, set;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	pthread_getaffinity_np(pthread_self(), sizeof(old), &old);
	CPU_ZERO(&set);
	for (long c = 0; c < ncpu && c < CPU_SETSIZE; c++)
		if (c != cpu)
			CPU_SET(c, &set);
	if (CPU_COUNT(&set))
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	return old;
}

static int install_stop_handler(void)
{
	struct sigaction sa = { .sa_handler = on_stop };   /* no SA_RESTART */

	sigemptyset(&sa.sa_mask);
	return sigaction(STOP_SIGNAL, &sa, NULL) ? -errno : 0;
}

static int read_sink(const struct bench_env *env, uint64_t *frames, uint64_t *ttl254,
		     char *err, size_t err_len)
{
	int ret = bench_read_sink(env, frames, ttl254);

	if (ret)
		snprintf(err, err_len, "reading the sink's counters: %s", strerror(-ret));
	return ret;
}

int bench_live_run(struct bench_env *env, int gen_fd, const struct bench_opts *o,
		   struct live_result *r, char *err, size_t err_len)
{
	struct generator g = { .prog_fd = gen_fd, .ifindex = env->rep_ifindex, .cpu = o->cpu,
			       .frames = o->frames, .batch = o->batch };
	uint64_t seq0 = env->gen->bss->gen_seq, miss0 = env->gen->bss->gen_no_design;
	uint64_t s0, s1, s2, s3, t0, t1, t2, t3;
	double w1, w2;
	cpu_set_t home;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = install_stop_handler();
	if (!ret)
		ret = read_sink(env, &s0, &t0, err, err_len);
	if (ret)
		return ret;
	home = move_off_cpu(o->cpu);
	ret = pthread_create(&g.thread, NULL, generator_main, &g);
	if (ret) {
		pthread_setaffinity_np(pthread_self(), sizeof(home), &home);
		snprintf(err, err_len, "cannot start the generator thread: %s", strerror(ret));
		return -ret;
	}
	wait_or_done(&g, o->seconds * WARMUP_SHARE);
	ret = read_sink(env, &s1, &t1, err, err_len);
	w1 = bench_now();
	w2 = wait_or_done(&g, o->seconds * (1 - WARMUP_SHARE));
	if (!ret)
		ret = read_sink(env, &s2, &t2, err, err_len);
	r->frames_bound = g.done;
	pthread_kill(g.thread, STOP_SIGNAL);
	pthread_join(g.thread, NULL);
	pthread_setaffinity_np(pthread_self(), sizeof(home), &home);
	usleep(DRAIN_USEC);
	if (!ret)
		ret = read_sink(env, &s3, &t3, err, err_len);
	if (ret)
		return ret;
	if (g.err && g.err != EINTR) {
		snprintf(err, err_len, "BPF_PROG_RUN (live frames, batch %u): %s", o->batch,
			 strerror(g.err));
		return -g.err;
	}
	r->sent = env->gen->bss->gen_seq - seq0;
	r->no_design = env->gen->bss->gen_no_design - miss0;
	r->delivered = s3 - s0;
	r->ttl254 = t3 - t0;
	r->sink = s2 - s1;
	r->secs = w2 - w1;
	return 0;
}
