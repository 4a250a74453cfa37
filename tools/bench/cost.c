// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Per-packet program cost with BPF_PROG_TEST_RUN (not live): the kernel
 * runs the program `repeat` times on one frame and reports the average ns.
 * Each call takes the next destination of the generator's shuffled ring
 * (spread over the whole table), TTL 255 and BENCH_COST_REPEAT repetitions:
 * test-run does not reset the frame between repetitions, so a
 * TTL-decrementing program would otherwise end up measuring its
 * TTL-expired path.  The figure is the median of the per-call averages.
 */
#include <errno.h>
#include <stdbool.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "tools/bench/bench.h"
#include "bench_baseline.skel.h"
#include "bench_fwd.skel.h"
#include "railgate.skel.h"
#include "loader/kernel/attach.h"

const char *const bench_cost_names[C_COUNT] = {
	[C_XDP_PASS]      = "xdp_pass",
	[C_BARE_REDIRECT] = "bare_redirect",
	[C_FIB]           = "fib_lookup",
	[C_RAILGATE_XDP]  = "railgate_xdp",
	[C_RAILGATE_XDP_MON_DROPS] = "railgate_xdp_monitor_drops",
	[C_RAILGATE_XDP_MON_ALL]   = "railgate_xdp_monitor_all",
	[C_RAILGATE_XDP_MON_FLOOD] = "railgate_xdp_monitor_all_budget",
};

static uint16_t csum16(const void *p, size_t len)
{
	const uint16_t *w = p;
	uint32_t sum = 0;

	for (size_t i = 0; i < len / 2; i++)
		sum += w[i];
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* What the generator writes, as a pod would send it. */
static void build_frame(const struct bench_env *env, uint32_t daddr_be,
			uint8_t frame[BENCH_FRAME_LEN])
{
	struct ethhdr *eth = (struct ethhdr *)frame;
	struct iphdr *iph = (struct iphdr *)(frame + sizeof(*eth));

	memset(frame, 0, BENCH_FRAME_LEN);
	memcpy(eth->h_dest, env->rep_mac, ETH_ALEN);
	memcpy(eth->h_source, "\x02\x00\x00\x00\x0a\x0a", ETH_ALEN);
	eth->h_proto = htons(ETH_P_IP);
	iph->version = 4;
	iph->ihl = 5;
	iph->tot_len = htons(BENCH_FRAME_LEN - sizeof(*eth));
	iph->ttl = BENCH_GEN_TTL;
	iph->protocol = 17;           /* UDP */
	iph->saddr = htonl(env->pod_ip);
	iph->daddr = daddr_be;
	iph->check = csum16(iph, sizeof(*iph));
}

static int prog_and_verdict(const struct bench_env *env, enum bench_cost_prog p, int *fd)
{
	switch (p) {
	case C_XDP_PASS:
		*fd = bpf_program__fd(env->base->progs.bench_pass);
		return XDP_PASS;
	case C_BARE_REDIRECT:
		*fd = bpf_program__fd(env->base->progs.bench_redirect);
		return XDP_REDIRECT;
	case C_FIB:
		*fd = bpf_program__fd(env->fwd->progs.fwd_xdp);
		return XDP_REDIRECT;
	case C_RAILGATE_XDP:
	case C_RAILGATE_XDP_MON_DROPS:
	case C_RAILGATE_XDP_MON_ALL:
	case C_RAILGATE_XDP_MON_FLOOD:
	case C_COUNT:
		break;
	}
	*fd = bpf_program__fd(env->rg->progs.railgate_xdp);
	return XDP_REDIRECT;
}

/*
 * Every test-run call of an XDP program that is not attached anywhere adds
 * it to the kernel's XDP dispatcher and removes it again, each a text poke
 * and an RCU wait: the figure (measured inside the kernel's loop) does not
 * change, but the calls take tens of ms each.  Attached to an idle device,
 * the program stays in the dispatcher and the calls take microseconds.
 */
int bench_cost_hold(struct bench_env *env, const struct bench_opts *o, char *err, size_t err_len)
{
	for (unsigned p = 0; p < C_HELD_PROGS; p++) {
		int fd, ifindex = (int)if_nametoindex(o->hold_devs[p]), ret;

		env->hold_link[p] = -1;
		if (!o->hold_devs[p][0])
			continue;              /* slower, same figures */
		if (!ifindex) {
			snprintf(err, err_len, "%s: no such interface (--hold-devs)", o->hold_devs[p]);
			return -ENODEV;
		}
		prog_and_verdict(env, (enum bench_cost_prog)p, &fd);
		ret = rg_attach_link(fd, ifindex, RG_MODE_XDP, &env->hold_link[p], err, err_len);
		if (ret)
			return ret;
	}
	return 0;
}

void bench_cost_release(struct bench_env *env)
{
	for (unsigned p = 0; p < C_HELD_PROGS; p++) {
		if (env->hold_link[p] >= 0)
			close(env->hold_link[p]);
		env->hold_link[p] = -1;
	}
}

/* ---- the monitor's cost ------------------------------------------------ */

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * RG_NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

static int count_event(void *ctx, void *data, size_t size)
{
	(*(uint64_t *)ctx)++;
	return 0;
}

/* A monitor as `railgate monitor` attaches one (its own ring, a lease),
 * for the monitor variants; C_RAILGATE_XDP_MON_ALL samples every frame and
 * has a budget no call exhausts, so every frame is an event;
 * C_RAILGATE_XDP_MON_FLOOD keeps the budget the claim wrote. */
struct bench_monitor {
	int ring_fd;
	struct ring_buffer *rb;
	struct rg_monitor_lease lease;
	uint64_t events;
};

static int monitor_attach(struct bench_env *env, enum bench_cost_prog p, struct bench_monitor *m,
			  char *err, size_t err_len)
{
	enum rg_monitor_scope scope = p == C_RAILGATE_XDP_MON_DROPS ? RG_MONITOR_DROPS
								    : RG_MONITOR_ALL;
	int ret;

	*m = (struct bench_monitor){ .ring_fd = -1, .lease = { .slot = -1 } };
	m->ring_fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "bench_mon", 0, 0,
				    RG_EVENTS_RING_BYTES, NULL);
	if (m->ring_fd < 0)
		return -errno;
	m->rb = ring_buffer__new(m->ring_fd, count_event, &m->events, NULL);
	if (!m->rb)
		return -errno;
	ret = rg_map_set_monitor_claim(&env->ms, scope, mono_ns(), m->ring_fd, (uint32_t)getpid(),
				       &m->lease, err, err_len);
	if (ret || p != C_RAILGATE_XDP_MON_ALL)
		return ret;
	env->ms.state->monitor_sample = 1;
	env->ms.state->monitor_cpu_rate = 1000000;
	env->ms.state->monitor_cpu_burst = 1000000;
	return 0;
}

/* Back to no monitor at all, the summary leases too: the designs measured
 * next must run with the monitor off. */
static void monitor_detach(struct bench_env *env, struct bench_monitor *m)
{
	rg_map_set_monitor_release(&env->ms, &m->lease);
	env->ms.state->monitor_drops_until_ns = 0;
	env->ms.state->monitor_all_until_ns = 0;
	ring_buffer__free(m->rb);
	if (m->ring_fd >= 0)
		close(m->ring_fd);
}

int bench_cost(struct bench_env *env, enum bench_cost_prog p, unsigned calls,
	       double *ns, unsigned *wrong_verdicts, char *err, size_t err_len)
{
	uint8_t frame[BENCH_FRAME_LEN];
	double *per_call = calloc(calls, sizeof(*per_call));
	int fd, want = prog_and_verdict(env, p, &fd);
	bool monitor = p == C_RAILGATE_XDP_MON_DROPS || p == C_RAILGATE_XDP_MON_ALL ||
		       p == C_RAILGATE_XDP_MON_FLOOD;
	struct bench_monitor mon = { .ring_fd = -1, .lease = { .slot = -1 } };
	int ret;

	if (!per_call)
		return -ENOMEM;
	if (monitor && (ret = monitor_attach(env, p, &mon, err, err_len))) {
		if (!*err)
			snprintf(err, err_len, "cannot attach a monitor: %s", strerror(-ret));
		monitor_detach(env, &mon);
		free(per_call);
		return ret;
	}
	*wrong_verdicts = 0;
	for (unsigned i = 0; i < calls; i++) {
		struct xdp_md ctx = { .data_end = BENCH_FRAME_LEN,
				      .ingress_ifindex = (uint32_t)env->rep_ifindex };
		LIBBPF_OPTS(bpf_test_run_opts, opts,
			.data_in = frame,
			.data_size_in = BENCH_FRAME_LEN,
			.ctx_in = &ctx,
			.ctx_size_in = sizeof(ctx),
			.repeat = BENCH_COST_REPEAT,
		);

		/* A stride coprime with the ring's size visits it all. */
		build_frame(env, env->dsts[(i * 40503u) % BENCH_DSTS], frame);
		/* the lease renewed as a monitor does (calls may take seconds) */
		if (monitor && rg_map_set_monitor_renew(&env->ms, &mon.lease, mono_ns(), err, err_len)) {
			monitor_detach(env, &mon);
			free(per_call);
			return -ESTALE;
		}
		if (bpf_prog_test_run_opts(fd, &opts)) {
			ret = -errno;
			snprintf(err, err_len, "BPF_PROG_TEST_RUN %s: %s", bench_cost_names[p],
				 strerror(-ret));
			if (monitor)
				monitor_detach(env, &mon);
			free(per_call);
			return ret;
		}
		if ((int)opts.retval != want)
			(*wrong_verdicts)++;
		per_call[i] = opts.duration;
		/* drained after each call: 250 events never fill the ring; a
		 * call whose frames were not all events (all) or gave one (drops)
		 * counts as wrong; the flood's share is the budget's */
		if (monitor) {
			uint64_t before = mon.events;

			ring_buffer__consume(mon.rb);
			if ((p == C_RAILGATE_XDP_MON_ALL && mon.events - before != BENCH_COST_REPEAT) ||
			    (p == C_RAILGATE_XDP_MON_DROPS && mon.events != before))
				(*wrong_verdicts)++;
		}
	}
	if (monitor)
		monitor_detach(env, &mon);
	*ns = bench_median(per_call, calls);
	free(per_call);
	return 0;
}
