// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The drop monitor through BPF_PROG_TEST_RUN: with a lease taken the way
 * `railgate monitor` takes it (rg_map_set_monitor_claim, a ring of the
 * test's own), frames of every verdict and drop reason go through both
 * programs and the test reads the ring (ring_buffer__consume) and checks
 * every field of each event against the frame it sent.  Also: the frame's
 * action, output bytes and its one counter are the same with a lease as
 * without; no lease and an expired lease give no event (and the expired
 * summary lease is cleared); a drops lease gives no event for a verdict
 * that is no drop; the token bucket and the sampler let exactly their
 * share through and count the rest; a lease given back stops its ring.
 *
 * Fixture (own network namespace, veth devices): rail 0 10.0.0.0/24 on
 * rep0, rail 1 10.0.1.0/24 (VLAN 100) on rep1; supernet 10.0.0.0/16
 * (black hole); front-end 192.168.0.0/16; uplink MTU 1500; ICMP answers on.
 */
#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/pkt_cls.h>
#include <cmocka.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "railgate.skel.h"
#include "maps/fib.h"
#include "maps/map_set.h"
#include "tests/lib/frames.h"

#define FRAME_CAP   4096
#define IPV4_OFF    RG_FRAME_ETH_LEN
#define UPLINK_MTU  1500
#define MAX_EVENTS  64

enum hook { HOOK_XDP, HOOK_TC, HOOK_COUNT };
static const char *const hook_names[HOOK_COUNT] = { "xdp", "tc" };

enum dev { DEV_REP0, DEV_REP1, DEV_OTHER, DEV_UPLINK, DEV_COUNT };
static const char *const dev_names[DEV_COUNT] = { "rgm-rep0", "rgm-rep1", "rgm-other", "rgm-up" };

static struct {
	struct railgate *skel;
	struct rg_map_set ms;
	int ifindex[DEV_COUNT];
	int prog_fd[HOOK_COUNT];
	struct rg_fib_image img;
	struct rg_rail rails[RG_MAX_RAILS];
	struct rg_egress egress;
	int ring_fd;
	struct ring_buffer *rb;
	struct rg_event events[MAX_EVENTS];
	unsigned n_events;
	struct rg_monitor_lease lease;
} T;

static const struct rg_route fixture_routes[] = {
	{ 0x0a000000, 16, RG_ROUTE(RG_ROUTE_BLACKHOLE, 0) },   /* 10.0.0.0/16 */
	{ 0x0a000000, 24, RG_ROUTE(RG_ROUTE_RAIL, 0) },        /* 10.0.0.0/24 */
	{ 0x0a000100, 24, RG_ROUTE(RG_ROUTE_RAIL, 1) },        /* 10.0.1.0/24 */
	{ 0xc0a80000, 16, RG_ROUTE(RG_ROUTE_FRONTEND, 0) },    /* 192.168.0.0/16 */
};

/* ---- fixture ------------------------------------------------------------ */

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * RG_NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

static int apply_config(void)
{
	unsigned gen = T.ms.state->config_generation ? rg_map_set_active_gen(&T.ms) ^ 1 : 0;
	struct rg_icmp_conf icmp = { .source = 0x0a01ff05, .cpu_rate = 1000, .cpu_burst = 1000 };
	struct rg_rep_binding reps[2];
	char err[256];

	for (int r = 0; r < 2; r++)
		reps[r] = (struct rg_rep_binding){ .ifindex = (uint32_t)T.ifindex[DEV_REP0 + r],
						   .rail_id = (uint16_t)r, .mode = RG_MODE_XDP };
	if (rg_map_set_write_generation(&T.ms, gen, &T.img, T.rails, &T.egress, &icmp, reps, 2,
					err, sizeof(err))) {
		fprintf(stderr, "# write generation: %s\n", err);
		return -1;
	}
	return rg_map_set_activate(&T.ms, gen, NULL);
}

static int on_event(void *ctx, void *data, size_t size)
{
	if (size != sizeof(struct rg_event))
		fail_msg("an event of %zu bytes, want %zu", size, sizeof(struct rg_event));
	if (T.n_events < MAX_EVENTS)
		memcpy(&T.events[T.n_events], data, sizeof(struct rg_event));
	T.n_events++;
	return 0;
}

static int group_setup(void **state)
{
	char err[256];

	if (unshare(CLONE_NEWNET))
		return -1;
	for (int i = 0; i < DEV_COUNT; i++) {
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "ip link add %s type veth peer name %sp", dev_names[i],
			 dev_names[i]);
		if (system(cmd))
			return -1;
		T.ifindex[i] = (int)if_nametoindex(dev_names[i]);
	}
	T.skel = railgate__open_and_load();
	if (!T.skel)
		return -1;
	T.prog_fd[HOOK_XDP] = bpf_program__fd(T.skel->progs.railgate_xdp);
	T.prog_fd[HOOK_TC] = bpf_program__fd(T.skel->progs.railgate_tc);
	if (rg_map_set_from_object(&T.ms, T.skel->obj, err, sizeof(err)) ||
	    rg_fib_compile(fixture_routes, sizeof(fixture_routes) / sizeof(fixture_routes[0]),
			   &T.img, err, sizeof(err))) {
		fprintf(stderr, "# %s\n", err);
		return -1;
	}
	for (int r = 0; r < 2; r++) {
		T.rails[r] = (struct rg_rail){ .subnet = 0x0a000000 | (uint32_t)r << 8,
					       .mask = 0xffffff00, .flags = RG_RAIL_F_VALID };
		snprintf(T.rails[r].name, sizeof(T.rails[r].name), "rail%d", r);
	}
	T.rails[1].flags |= RG_RAIL_F_VLAN;
	T.rails[1].vlan = 100;
	T.lease.slot = -1;
	T.ring_fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "rgt_ring", 0, 0, RG_EVENTS_RING_BYTES, NULL);
	T.rb = ring_buffer__new(T.ring_fd, on_event, NULL, NULL);
	return T.ring_fd >= 0 && T.rb ? 0 : -1;
}

static int group_teardown(void **state)
{
	ring_buffer__free(T.rb);
	close(T.ring_fd);
	rg_fib_image_free(&T.img);
	rg_map_set_close(&T.ms);
	railgate__destroy(T.skel);
	return 0;
}

static void reset_monitor_buckets(void);

static void drain(void)
{
	ring_buffer__consume(T.rb);
	T.n_events = 0;
}

/* Before each test: the fixture config, no lease, rings and counters empty. */
static int test_setup(void **state)
{
	char err[256];

	T.egress = (struct rg_egress){ .uplink_ifindex = (uint32_t)T.ifindex[DEV_UPLINK],
				       .flags = RG_EGRESS_F_VALID | RG_EGRESS_F_ANTI_SPOOF,
				       .uplink_mtu = UPLINK_MTU };
	memcpy(T.egress.gateway_mac, "\x0c\x42\xa1\x00\x00\x01", 6);
	memcpy(T.egress.uplink_mac, "\x0c\x42\xa1\x00\x00\x02", 6);
	if (apply_config() ||
	    rg_map_set_put_tx_port(&T.ms, (uint32_t)T.ifindex[DEV_UPLINK], err, sizeof(err)))
		return -1;
	rg_map_set_monitor_release(&T.ms, &T.lease);
	T.ms.state->monitor_drops_until_ns = 0;
	T.ms.state->monitor_all_until_ns = 0;
	memset(T.ms.state->monitor_slots, 0, sizeof(T.ms.state->monitor_slots));
	drain();
	reset_monitor_buckets();
	return rg_map_set_reset_stats(&T.ms, err, sizeof(err));
}

/* A lease as `railgate monitor` takes it; sample 1 unless a test says. */
static void take_lease(enum rg_monitor_scope scope, uint64_t now)
{
	char err[256];

	if (rg_map_set_monitor_claim(&T.ms, scope, now, T.ring_fd, 1, &T.lease, err, sizeof(err)))
		fail_msg("claim: %s", err);
	T.ms.state->monitor_sample = 1;
}

/* Every CPU's monitor bucket empty-and-old: the next event finds it full. */
static void reset_monitor_buckets(void)
{
	int ncpus = libbpf_num_possible_cpus();
	struct rg_monitor_bucket *zero = calloc((size_t)ncpus, sizeof(*zero));
	uint32_t key = 0;

	assert_non_null(zero);
	assert_int_equal(bpf_map_update_elem(bpf_map__fd(T.skel->maps.rg_monitor_buckets), &key,
					     zero, BPF_ANY), 0);
	free(zero);
}

/* ---- running frames ------------------------------------------------------ */

struct run {
	int ret;
	uint8_t out[FRAME_CAP + 64];
	uint32_t out_len;
};

static void run_hook(enum hook hook, const uint8_t *in, uint32_t len, enum dev dev, struct run *r)
{
	struct xdp_md xdp_ctx = { .data_end = len, .ingress_ifindex = (uint32_t)T.ifindex[dev] };
	struct __sk_buff skb_ctx = { .ingress_ifindex = (uint32_t)T.ifindex[dev],
				     .ifindex = (uint32_t)T.ifindex[dev] };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = in, .data_size_in = len,
		    .data_out = r->out, .data_size_out = sizeof(r->out), .repeat = 1);

	opts.ctx_in = hook == HOOK_XDP ? (void *)&xdp_ctx : (void *)&skb_ctx;
	opts.ctx_size_in = hook == HOOK_XDP ? sizeof(xdp_ctx) : sizeof(skb_ctx);
	if (bpf_prog_test_run_opts(T.prog_fd[hook], &opts))
		fail_msg("%s test_run: %s", hook_names[hook], strerror(errno));
	r->ret = (int)opts.retval;
	r->out_len = opts.data_size_out;
}

/* Run a frame, then read what the ring holds into T.events. */
static void run_and_read(enum hook hook, const uint8_t *in, uint32_t len, enum dev dev,
			 struct run *r)
{
	T.n_events = 0;
	run_hook(hook, in, len, dev, r);
	ring_buffer__consume(T.rb);
}

static uint64_t side(enum rg_side s)
{
	struct rg_counter c[RG_SIDE_MAX];

	assert_int_equal(rg_map_set_read_side_stats(&T.ms, c, NULL, 0), 0);
	return c[s].packets;
}

/* All verdict counters together: a frame moves exactly one. */
static uint64_t frames_counted(void)
{
	static struct rg_counter c[RG_STAT_SLOTS];
	uint64_t sum = 0;

	assert_int_equal(rg_map_set_read_stats(&T.ms, c, NULL, 0), 0);
	for (uint32_t i = 0; i < RG_STAT_SLOTS; i++)
		sum += c[i].packets;
	return sum;
}

/* ---- the rows: every verdict and drop reason ----------------------------- */

enum tweak {
	TW_NONE, TW_NOT_IPV4, TW_L2_MULTI, TW_TAGGED, TW_MALFORMED, TW_TTL1, TW_TOO_BIG_DF,
	TW_TOO_BIG, TW_ICMP_ECHO, TW_TCP,
};

struct row {
	const char *name;
	enum dev dev;
	const char *src, *dst;
	enum tweak tweak;
	uint32_t rail_slot;
	enum rg_stat stat;
	bool answered;
};

static const struct row rows[] = {
	{ "pass_local",      DEV_REP0, "10.0.0.10", "10.0.0.99",   TW_NONE,      0, RG_VERDICT_PASS_LOCAL, false },
	{ "pass_other",      DEV_REP0, "10.0.0.10", "8.8.8.8",     TW_NONE,      0, RG_VERDICT_PASS_OTHER, false },
	{ "pass_not_ipv4",   DEV_REP0, "10.0.0.10", "10.0.1.20",   TW_NOT_IPV4,  0, RG_VERDICT_PASS_NOT_IPV4, false },
	{ "pass_l2_multi",   DEV_REP1, "10.0.1.10", "10.0.0.20",   TW_L2_MULTI,  1, RG_VERDICT_PASS_L2_MULTI, false },
	{ "pass_tagged",     DEV_REP0, "10.0.0.10", "10.0.1.20",   TW_TAGGED,    0, RG_VERDICT_PASS_TAGGED, false },
	{ "pass_unknown_if", DEV_OTHER, "10.0.0.10", "10.0.1.20",  TW_NONE, RG_RAIL_UNKNOWN, RG_VERDICT_PASS_UNKNOWN_IF, false },
	{ "cross_rail",      DEV_REP0, "10.0.0.10", "10.0.1.20",   TW_TCP,       0, RG_VERDICT_CROSS_RAIL, false },
	{ "cross_rail VLAN", DEV_REP1, "10.0.1.10", "10.0.0.20",   TW_NONE,      1, RG_VERDICT_CROSS_RAIL, false },
	{ "frontend",        DEV_REP0, "10.0.0.10", "192.168.1.1", TW_NONE,      0, RG_VERDICT_FRONTEND, false },
	{ "malformed",       DEV_REP0, "10.0.0.10", "10.0.1.20",   TW_MALFORMED, 0, RG_DROP_MALFORMED, false },
	{ "no_route",        DEV_REP0, "10.0.0.10", "10.0.200.1",  TW_NONE,      0, RG_DROP_NO_ROUTE, false },
	{ "spoofed",         DEV_REP0, "10.0.5.10", "10.0.1.20",   TW_NONE,      0, RG_DROP_SPOOFED, false },
	{ "ttl_exceeded",    DEV_REP0, "10.0.0.10", "10.0.1.20",   TW_TTL1,      0, RG_DROP_TTL_EXCEEDED, true },
	{ "ttl_exceeded ICMP", DEV_REP0, "10.0.0.10", "10.0.1.20", TW_ICMP_ECHO, 0, RG_DROP_TTL_EXCEEDED, true },
	{ "too_big, DF",     DEV_REP0, "10.0.0.10", "10.0.1.20",   TW_TOO_BIG_DF, 0, RG_DROP_TOO_BIG, true },
	{ "too_big",         DEV_REP0, "10.0.0.10", "10.0.1.20",   TW_TOO_BIG,   0, RG_DROP_TOO_BIG, false },
};

static uint32_t build_row(const struct row *row, uint8_t *buf)
{
	struct rg_frame_spec s;
	uint32_t len;

	rg_frame_spec_default(&s);
	s.saddr = rg_ip(row->src);
	s.daddr = rg_ip(row->dst);
	switch (row->tweak) {
	case TW_NOT_IPV4:   s.ethertype = 0x0806; break;
	case TW_L2_MULTI:   memset(s.dst_mac, 0xff, 6); break;
	case TW_TAGGED:     s.vlan_tpid = 0x8100; s.vlan_tci = 42; break;
	case TW_MALFORMED:  s.tot_len_delta = 1; break;
	case TW_TTL1:       s.ttl = 1; break;
	case TW_ICMP_ECHO:  s.ttl = 1; s.protocol = 1; break;
	case TW_TOO_BIG_DF: s.frag = 0x4000; s.payload_len = UPLINK_MTU; break;
	case TW_TOO_BIG:    s.payload_len = UPLINK_MTU; break;
	case TW_TCP:        s.protocol = 6; break;
	case TW_NONE:       break;
	}
	len = (uint32_t)rg_frame_build(buf, FRAME_CAP, &s);
	assert_true(len > 0);
	if (row->tweak == TW_ICMP_ECHO) {
		buf[IPV4_OFF + 20] = 8;        /* echo request, code 0 */
		buf[IPV4_OFF + 21] = 0;
	}
	return len;
}

/* The event a frame must give, from the frame's own bytes. */
static void check_event(const struct rg_event *ev, const struct row *row, enum hook hook,
			const uint8_t *in, uint32_t len, uint64_t t0, uint64_t t1)
{
	const uint8_t *ip = in + IPV4_OFF, *l4 = ip + 20;
	bool ipv4 = row->tweak != TW_NOT_IPV4 && row->tweak != TW_L2_MULTI &&
		    row->tweak != TW_TAGGED && row->tweak != TW_MALFORMED &&
		    row->stat != RG_VERDICT_PASS_UNKNOWN_IF;
	uint8_t flags = 0;
	char what[96];

	snprintf(what, sizeof(what), "%s, %s", hook_names[hook], row->name);
	if (ev->time_ns < t0 || ev->time_ns > t1)
		fail_msg("%s: time %llu not within the run [%llu, %llu]", what,
			 (unsigned long long)ev->time_ns, (unsigned long long)t0,
			 (unsigned long long)t1);
	if (ev->ifindex != (uint32_t)T.ifindex[row->dev] || ev->rail_slot != row->rail_slot ||
	    ev->stat != row->stat || ev->hook != (hook == HOOK_XDP ? RG_HOOK_XDP : RG_HOOK_TC) ||
	    ev->len != len)
		fail_msg("%s: ifindex %u rail %u stat %s hook %u len %u; want %d %u %s %d %u", what,
			 ev->ifindex, ev->rail_slot, rg_stat_name(ev->stat), ev->hook, ev->len,
			 T.ifindex[row->dev], row->rail_slot, rg_stat_name(row->stat), hook, len);
	if (row->tweak != TW_TAGGED)
		assert_int_equal(ev->eth_proto, in[12] << 8 | in[13]);
	else
		assert_int_equal(ev->eth_proto, 0x8100);
	if (ipv4) {
		flags |= RG_EVENT_F_IPV4 | RG_EVENT_F_L4;
		assert_memory_equal(&ev->saddr, ip + 12, 4);   /* network order, as on the wire */
		assert_memory_equal(&ev->daddr, ip + 16, 4);
		assert_int_equal(ev->protocol, ip[9]);
		assert_int_equal(ev->ttl, ip[8]);
		if (ip[9] == 1) {
			assert_int_equal(ev->sport, l4[0]);    /* ICMP type */
			assert_int_equal(ev->dport, l4[1]);    /* and code */
		} else {
			assert_int_equal(ev->sport, l4[0] << 8 | l4[1]);
			assert_int_equal(ev->dport, l4[2] << 8 | l4[3]);
		}
	} else {
		assert_int_equal(ev->saddr, 0);
		assert_int_equal(ev->daddr, 0);
		assert_int_equal(ev->protocol, 0);
		assert_int_equal(ev->ttl, 0);
		assert_int_equal(ev->sport, 0);
		assert_int_equal(ev->dport, 0);
	}
	if (row->answered)
		flags |= RG_EVENT_F_ANSWERED;
	if (ev->flags != flags)
		fail_msg("%s: flags 0x%x, want 0x%x", what, ev->flags, flags);
	assert_memory_equal(ev->reserved, "\0\0\0", 3);
}

/*
 * Every row through both hooks, first with no lease (the reference: the
 * action and the output bytes), then with the lease: the same action and
 * bytes, one frame counted, and as many events as the scope wants (one for
 * all; one for a drop, none otherwise, for drops), each checked field by
 * field.  The TC hook takes at most a page: its too_big frames still fit.
 */
static void run_rows(enum rg_monitor_scope scope)
{
	static uint8_t buf[FRAME_CAP];
	static struct run ref, r;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *row = &rows[i];
		uint32_t len = build_row(row, buf);

		for (int h = 0; h < HOOK_COUNT; h++) {
			bool want = scope == RG_MONITOR_ALL || rg_stat_is_drop(row->stat);
			uint64_t counted, t0, t1, sent = side(RG_SIDE_MONITOR_EVENTS);

			/* TC test_run refuses an ETH_P_IP skb shorter than Ethernet + 20 */
			rg_map_set_monitor_release(&T.ms, &T.lease);
			T.ms.state->monitor_drops_until_ns = T.ms.state->monitor_all_until_ns = 0;
			run_and_read(h, buf, len, row->dev, &ref);
			assert_int_equal(T.n_events, 0);
			take_lease(scope, mono_ns());
			counted = frames_counted();
			t0 = mono_ns();
			run_and_read(h, buf, len, row->dev, &r);
			t1 = mono_ns();
			if (r.ret != ref.ret || r.out_len != ref.out_len ||
			    memcmp(r.out, ref.out, r.out_len))
				fail_msg("%s, %s: the lease changed the frame or its action",
					 hook_names[h], row->name);
			assert_int_equal(frames_counted(), counted + 1);
			if (T.n_events != (want ? 1u : 0u))
				fail_msg("%s, %s: %u events, want %d", hook_names[h], row->name,
					 T.n_events, want);
			assert_int_equal(side(RG_SIDE_MONITOR_EVENTS), sent + want);
			if (want)
				check_event(&T.events[0], row, h, buf, len, t0, t1);
		}
	}
}

static void test_all_lease_every_verdict(void **state)
{
	run_rows(RG_MONITOR_ALL);
}

static void test_drops_lease_only_drops(void **state)
{
	run_rows(RG_MONITOR_DROPS);
}

/*
 * XDP's redirect through rg_tx_ports fails without the uplink there: the
 * event says redirect_failed, what the frame was counted as, with the
 * frame as received, on an untagged rail and on a VLAN rail (the tag was
 * pushed and the frame rewritten before the redirect failed).  Under a
 * drops lease the forwarded frame had no snapshot: the event comes from
 * the frame read again after the failure; under an all lease from the
 * snapshot.  Both must say the same.
 */
static void test_redirect_failed_event(void **state)
{
	static const struct row failed[] = {
		{ "redirect_failed", DEV_REP0, "10.0.0.10", "10.0.1.20", TW_TCP, 0,
		  RG_DROP_REDIRECT_FAILED, false },
		{ "redirect_failed, VLAN rail", DEV_REP1, "10.0.1.10", "10.0.0.20", TW_NONE, 1,
		  RG_DROP_REDIRECT_FAILED, false },
	};
	static const enum rg_monitor_scope scopes[] = { RG_MONITOR_DROPS, RG_MONITOR_ALL };
	static uint8_t buf[FRAME_CAP];
	static struct run r;

	assert_int_equal(rg_map_set_del_tx_port(&T.ms, (uint32_t)T.ifindex[DEV_UPLINK], NULL, 0), 0);
	for (size_t k = 0; k < 2; k++) {
		for (size_t i = 0; i < 2; i++) {
			uint32_t len = build_row(&failed[i], buf);
			uint64_t t0 = mono_ns();

			rg_map_set_monitor_release(&T.ms, &T.lease);
			T.ms.state->monitor_drops_until_ns = T.ms.state->monitor_all_until_ns = 0;
			take_lease(scopes[k], mono_ns());
			run_and_read(HOOK_XDP, buf, len, failed[i].dev, &r);
			assert_int_equal(r.ret, XDP_DROP);
			assert_int_equal(T.n_events, 1);
			check_event(&T.events[0], &failed[i], HOOK_XDP, buf, len, t0, mono_ns());
		}
	}
}

/* no_egress: the egress is not valid yet. */
static void test_no_egress_event(void **state)
{
	static uint8_t buf[FRAME_CAP];
	static struct run r;
	const struct row row = { "no_egress", DEV_REP0, "10.0.0.10", "10.0.1.20", TW_NONE,
				 0, RG_DROP_NO_EGRESS, false };
	uint32_t len = build_row(&row, buf);

	T.egress.flags &= ~RG_EGRESS_F_VALID;
	assert_int_equal(apply_config(), 0);
	take_lease(RG_MONITOR_DROPS, mono_ns());
	for (int h = 0; h < HOOK_COUNT; h++) {
		uint64_t t0 = mono_ns();

		run_and_read(h, buf, len, DEV_REP0, &r);
		assert_int_equal(T.n_events, 1);
		check_event(&T.events[0], &row, h, buf, len, t0, mono_ns());
	}
}

/* No lease: nothing in the ring, no side counter moved.  An expired one:
 * nothing either, and the expired summary leases are cleared by the first
 * frame that reads the clock (frames stop paying for them). */
static void test_no_or_expired_lease(void **state)
{
	static uint8_t buf[FRAME_CAP];
	static struct run r;
	uint32_t len = build_row(&rows[11], buf);          /* spoofed: a drop */
	uint64_t now = mono_ns();

	for (int h = 0; h < HOOK_COUNT; h++) {
		run_and_read(h, buf, len, DEV_REP0, &r);
		assert_int_equal(T.n_events, 0);
	}
	/* taken 10 s ago: ran out 7 s ago */
	take_lease(RG_MONITOR_DROPS, now - 10 * RG_NSEC_PER_SEC);
	rg_monitor_raise(&T.ms.state->monitor_all_until_ns, now - 5 * RG_NSEC_PER_SEC);
	assert_true(T.ms.state->monitor_drops_until_ns != 0);
	for (int h = 0; h < HOOK_COUNT; h++) {
		run_and_read(h, buf, len, DEV_REP0, &r);
		assert_int_equal(T.n_events, 0);
	}
	assert_int_equal(T.ms.state->monitor_drops_until_ns, 0);
	assert_int_equal(T.ms.state->monitor_all_until_ns, 0);
	assert_int_equal(side(RG_SIDE_MONITOR_EVENTS), 0);
	assert_int_equal(side(RG_SIDE_MONITOR_RATELIMITED), 0);
	assert_int_equal(side(RG_SIDE_MONITOR_LOST), 0);
}

/* A live summary lease with the slot's own lease run out (a monitor
 * SIGKILLed while another, in another slot, keeps the summary up): the
 * dead monitor's ring gets nothing.  Given back: nothing either. */
static void test_slot_lease_decides(void **state)
{
	static uint8_t buf[FRAME_CAP];
	static struct run r;
	uint32_t len = build_row(&rows[11], buf);

	take_lease(RG_MONITOR_DROPS, mono_ns());
	run_and_read(HOOK_XDP, buf, len, DEV_REP0, &r);
	assert_int_equal(T.n_events, 1);
	T.ms.state->monitor_slots[T.lease.slot].until_ns = mono_ns() - 1;
	run_and_read(HOOK_XDP, buf, len, DEV_REP0, &r);
	assert_int_equal(T.n_events, 0);
	T.ms.state->monitor_slots[T.lease.slot].until_ns = mono_ns() + RG_NSEC_PER_SEC;
	T.lease.until_ns = T.ms.state->monitor_slots[T.lease.slot].until_ns;
	rg_map_set_monitor_release(&T.ms, &T.lease);
	run_and_read(HOOK_XDP, buf, len, DEV_REP0, &r);
	assert_int_equal(T.n_events, 0);
	assert_int_equal(side(RG_SIDE_MONITOR_EVENTS), 1);
}

/* The slots: each claim gets its own, until all are taken; one run out
 * can be claimed again; a renewal of a slot someone else took fails. */
static void test_slots_claim_and_renew(void **state)
{
	struct rg_monitor_lease l[RG_MONITOR_SLOTS], extra;
	uint64_t now = mono_ns();
	char err[256];

	for (int i = 0; i < RG_MONITOR_SLOTS; i++) {
		assert_int_equal(rg_map_set_monitor_claim(&T.ms, RG_MONITOR_DROPS, now, T.ring_fd, 1,
							  &l[i], err, sizeof(err)), 0);
		for (int j = 0; j < i; j++)
			assert_int_not_equal(l[i].slot, l[j].slot);
	}
	assert_int_equal(rg_map_set_monitor_claim(&T.ms, RG_MONITOR_DROPS, now, T.ring_fd, 1,
						  &extra, err, sizeof(err)), -EBUSY);
	assert_non_null(strstr(err, "all 4 monitor slots"));
	assert_int_equal(rg_map_set_monitor_claim(&T.ms, 7, now, T.ring_fd, 1, &extra, err,
						  sizeof(err)), -EINVAL);
	/* 4 s later slot 0's holder did not renew; another takes it */
	assert_int_equal(rg_map_set_monitor_renew(&T.ms, &l[1], now + RG_NSEC_PER_SEC, err,
						  sizeof(err)), 0);
	assert_int_equal(rg_map_set_monitor_claim(&T.ms, RG_MONITOR_ALL, now + 4 * RG_NSEC_PER_SEC,
						  T.ring_fd, 1, &extra, err, sizeof(err)), 0);
	assert_int_equal(extra.slot, l[0].slot);
	assert_int_equal(rg_map_set_monitor_renew(&T.ms, &l[0], now + 4 * RG_NSEC_PER_SEC, err,
						  sizeof(err)), -ESTALE);
	/* the summary leases only ever went up */
	assert_int_equal(T.ms.state->monitor_drops_until_ns, now + RG_NSEC_PER_SEC + RG_MONITOR_LEASE_NS);
	assert_int_equal(T.ms.state->monitor_all_until_ns, now + 4 * RG_NSEC_PER_SEC + RG_MONITOR_LEASE_NS);
	rg_monitor_raise(&T.ms.state->monitor_all_until_ns, now);
	assert_int_equal(T.ms.state->monitor_all_until_ns, now + 4 * RG_NSEC_PER_SEC + RG_MONITOR_LEASE_NS);
	/* the node's budget, divided over the CPUs */
	assert_int_equal(T.ms.state->monitor_cpu_rate,
			 RG_MONITOR_RATE / (unsigned)libbpf_num_possible_cpus());
	assert_int_equal(T.ms.state->monitor_sample, RG_MONITOR_SAMPLE);
	for (int i = 1; i < RG_MONITOR_SLOTS; i++)
		rg_map_set_monitor_release(&T.ms, &l[i]);
	rg_map_set_monitor_release(&T.ms, &extra);
}

/* Pinned to one CPU (the buckets are per CPU).  A burst of 3 at 1 per
 * second: 10 drops at once give exactly 3 events, 7 counted rate-limited. */
static void test_rate_limit(void **state)
{
	static uint8_t buf[FRAME_CAP];
	static struct run r;
	uint32_t len = build_row(&rows[10], buf);          /* no_route */
	cpu_set_t cpus, old;
	unsigned events = 0;

	assert_int_equal(sched_getaffinity(0, sizeof(old), &old), 0);
	CPU_ZERO(&cpus);
	CPU_SET(sched_getcpu(), &cpus);
	assert_int_equal(sched_setaffinity(0, sizeof(cpus), &cpus), 0);
	for (int h = 0; h < HOOK_COUNT; h++) {
		uint64_t limited = side(RG_SIDE_MONITOR_RATELIMITED);

		take_lease(RG_MONITOR_DROPS, mono_ns());
		T.ms.state->monitor_cpu_rate = 1;
		T.ms.state->monitor_cpu_burst = 3;
		reset_monitor_buckets();
		events = 0;
		for (int i = 0; i < 10; i++) {
			run_and_read(h, buf, len, DEV_REP0, &r);
			events += T.n_events;
		}
		assert_int_equal(events, 3);
		assert_int_equal(side(RG_SIDE_MONITOR_RATELIMITED), limited + 7);
		rg_map_set_monitor_release(&T.ms, &T.lease);
	}
	assert_int_equal(sched_setaffinity(0, sizeof(old), &old), 0);
}

/* --all samples the non-drops 1 in N per CPU (the Nth of each N); drops
 * are not sampled. */
static void test_sampling(void **state)
{
	static uint8_t fwd[FRAME_CAP], drop[FRAME_CAP];
	static struct run r;
	uint32_t flen = build_row(&rows[6], fwd), dlen = build_row(&rows[10], drop);
	cpu_set_t cpus, old;
	unsigned events = 0;

	assert_int_equal(sched_getaffinity(0, sizeof(old), &old), 0);
	CPU_ZERO(&cpus);
	CPU_SET(sched_getcpu(), &cpus);
	assert_int_equal(sched_setaffinity(0, sizeof(cpus), &cpus), 0);
	take_lease(RG_MONITOR_ALL, mono_ns());
	T.ms.state->monitor_sample = 4;
	reset_monitor_buckets();
	for (int i = 0; i < 12; i++) {
		run_and_read(HOOK_XDP, fwd, flen, DEV_REP0, &r);
		events += T.n_events;
		assert_int_equal(T.n_events, (i % 4 == 3) ? 1 : 0);
	}
	assert_int_equal(events, 3);
	for (int i = 0; i < 5; i++) {
		run_and_read(HOOK_XDP, drop, dlen, DEV_REP0, &r);
		assert_int_equal(T.n_events, 1);
	}
	assert_int_equal(sched_setaffinity(0, sizeof(old), &old), 0);
}

/* A ring that is full: the copy is counted monitor_lost, the frame still
 * goes its way (its action and its count). */
static void test_ring_full_counted_lost(void **state)
{
	static uint8_t buf[FRAME_CAP];
	static struct run r;
	uint32_t len = build_row(&rows[10], buf);
	int small = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "rgt_small", 0, 0, RG_EVENTS_RING_BYTES,
				   NULL);
	uint64_t counted;
	unsigned fit = RG_EVENTS_RING_BYTES / (sizeof(struct rg_event) + 8);
	char err[256];

	assert_true(small >= 0);
	assert_int_equal(rg_map_set_monitor_claim(&T.ms, RG_MONITOR_DROPS, mono_ns(), small, 1,
						  &T.lease, err, sizeof(err)), 0);
	T.ms.state->monitor_cpu_rate = 1000000;
	T.ms.state->monitor_cpu_burst = 1000000;
	reset_monitor_buckets();
	counted = frames_counted();
	{
		LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = buf, .data_size_in = len,
			    .repeat = fit + 10);
		struct xdp_md ctx = { .data_end = len, .ingress_ifindex = (uint32_t)T.ifindex[DEV_REP0] };

		opts.ctx_in = &ctx;
		opts.ctx_size_in = sizeof(ctx);
		assert_int_equal(bpf_prog_test_run_opts(T.prog_fd[HOOK_XDP], &opts), 0);
		assert_int_equal(opts.retval, XDP_DROP);
	}
	assert_int_equal(frames_counted(), counted + fit + 10);
	assert_int_equal(side(RG_SIDE_MONITOR_EVENTS), fit);
	assert_int_equal(side(RG_SIDE_MONITOR_LOST), 10);
	(void)r;
	rg_map_set_monitor_release(&T.ms, &T.lease);
	close(small);
}

static unsigned count_cb_events;

static int count_cb(void *ctx, void *data, size_t size)
{
	count_cb_events++;
	return 0;
}

/* Two monitors at once, each with its own ring: a drops monitor and an all
 * monitor.  A forwarded frame reaches the all monitor's ring only; a drop
 * reaches both (a BPF ring has one consumer: one ring each, or they would
 * take each other's events). */
static void test_two_monitors(void **state)
{
	static uint8_t fwd[FRAME_CAP], drop[FRAME_CAP];
	static struct run r;
	uint32_t flen = build_row(&rows[6], fwd), dlen = build_row(&rows[11], drop);
	int all_fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "rgt_all", 0, 0, RG_EVENTS_RING_BYTES, NULL);
	struct ring_buffer *all_rb = ring_buffer__new(all_fd, count_cb, NULL, NULL);
	struct rg_monitor_lease all;
	char err[256];

	assert_non_null(all_rb);
	take_lease(RG_MONITOR_DROPS, mono_ns());
	assert_int_equal(rg_map_set_monitor_claim(&T.ms, RG_MONITOR_ALL, mono_ns(), all_fd, 2, &all,
						  err, sizeof(err)), 0);
	assert_int_not_equal(all.slot, T.lease.slot);
	T.ms.state->monitor_sample = 1;
	for (int h = 0; h < HOOK_COUNT; h++) {
		count_cb_events = 0;
		run_and_read(h, fwd, flen, DEV_REP0, &r);
		ring_buffer__consume(all_rb);
		assert_int_equal(T.n_events, 0);
		assert_int_equal(count_cb_events, 1);
		count_cb_events = 0;
		run_and_read(h, drop, dlen, DEV_REP0, &r);
		ring_buffer__consume(all_rb);
		assert_int_equal(T.n_events, 1);
		assert_int_equal(count_cb_events, 1);
	}
	rg_map_set_monitor_release(&T.ms, &all);
	ring_buffer__free(all_rb);
	close(all_fd);
}

/* The side counters' names, as `stats` and the metrics spell them. */
static void test_side_names(void **state)
{
	assert_string_equal(rg_side_name(RG_SIDE_MONITOR_EVENTS), "monitor_events");
	assert_string_equal(rg_side_name(RG_SIDE_MONITOR_RATELIMITED), "monitor_ratelimited");
	assert_string_equal(rg_side_name(RG_SIDE_MONITOR_LOST), "monitor_lost");
	assert_string_equal(rg_hook_name(RG_HOOK_XDP), "xdp");
	assert_string_equal(rg_hook_name(RG_HOOK_TC), "tc");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_all_lease_every_verdict, test_setup),
		cmocka_unit_test_setup(test_drops_lease_only_drops, test_setup),
		cmocka_unit_test_setup(test_redirect_failed_event, test_setup),
		cmocka_unit_test_setup(test_no_egress_event, test_setup),
		cmocka_unit_test_setup(test_no_or_expired_lease, test_setup),
		cmocka_unit_test_setup(test_slot_lease_decides, test_setup),
		cmocka_unit_test_setup(test_slots_claim_and_renew, test_setup),
		cmocka_unit_test_setup(test_rate_limit, test_setup),
		cmocka_unit_test_setup(test_sampling, test_setup),
		cmocka_unit_test_setup(test_ring_full_counted_lost, test_setup),
		cmocka_unit_test_setup(test_two_monitors, test_setup),
		cmocka_unit_test(test_side_names),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
