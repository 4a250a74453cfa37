/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The drop monitor: an event per frame into the ring of every monitor
 * whose lease wants it (maps/rg_abi.h, struct rg_monitor_slot), while one
 * is attached; nothing otherwise.
 *
 * Two calls in each hook adapter, both after the decision:
 *  - rg_monitor_begin, before the hook acts: while both summary leases in
 *    rg_state are 0 it returns NULL, and that load and compare (in the
 *    cache line the frame read active_gen from) is all a frame pays.
 *    Otherwise it decides, cheapest first, whether the frame becomes an
 *    event: a frame no live scope wants (no drop under a drops lease) and
 *    15 of 16 non-drops under an `all` lease stop before the clock is
 *    read; then the lease, this CPU's token bucket, and only then a copy
 *    of what the event says about the frame as received (the action may
 *    rewrite it: forward, or cut it: ICMP answer).
 *  - rg_monitor_emit, after the action and rg_count, for an admitted frame
 *    only: the stat that was counted (a failed redirect is
 *    redirect_failed) and whether an ICMP error went back, one copy per
 *    live slot that wants it.
 * Neither touches the frame or counts it: the frame's one accounting point
 * stays rg_count; the monitor's counts are side counters (monitor_events,
 * monitor_ratelimited, monitor_lost).
 */
#ifndef RAILGATE_BPF_MONITOR_H
#define RAILGATE_BPF_MONITOR_H

#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "maps/rg_abi.h"
#include "bpf/maps.h"
#include "bpf/ctx.h"
#include "bpf/parse.h"
#include "bpf/bucket.h"
#include "bpf/icmp.h"                /* rg_count_side, RG_IP_OFFSET */

/* The stats reached after rg_parse found a whole IPv4 header (step 2 of
 * docs/design.md): only their events carry addresses. */
static __always_inline int rg_stat_parsed_ipv4(__u32 stat)
{
	return stat != RG_VERDICT_PASS_UNKNOWN_IF && stat != RG_VERDICT_PASS_NOT_IPV4 &&
	       stat != RG_VERDICT_PASS_L2_MULTI && stat != RG_VERDICT_PASS_TAGGED &&
	       stat != RG_DROP_MALFORMED;
}

/* TCP/UDP ports, or ICMP type and code, when the first 4 bytes of the
 * transport header are in the linear part of a first fragment. */
static __always_inline void rg_monitor_snap_l4(const struct rg_frame *f,
					       const struct iphdr *iph, struct rg_event *ev)
{
	const __u8 *l4 = (const __u8 *)iph + (iph->ihl & 0xf) * 4;

	if (iph->frag_off & bpf_htons(RG_IP_OFFSET))
		return;
	if ((const void *)(l4 + 4) > f->data_end)
		return;
	if (iph->protocol == IPPROTO_TCP || iph->protocol == IPPROTO_UDP) {
		ev->sport = (__u16)(l4[0] << 8 | l4[1]);
		ev->dport = (__u16)(l4[2] << 8 | l4[3]);
	} else if (iph->protocol == IPPROTO_ICMP) {
		ev->sport = l4[0];
		ev->dport = l4[1];
	} else {
		return;
	}
	ev->flags |= RG_EVENT_F_L4;
}

/*
 * The frame as received, into ev: every byte of ev written (it goes to
 * user space).  Only for a frame rg_monitor_admit let through.
 */
static __always_inline void rg_monitor_snapshot(const struct rg_frame *f, const struct rg_decision *d,
					   struct rg_event *ev)
{
	const struct ethhdr *eth = f->data;
	const struct iphdr *iph = rg_frame_iph(f);

	*ev = (struct rg_event){ .ifindex = f->ifindex, .rail_slot = (__u16)d->rail_slot,
				 .len = f->len };
	if ((const void *)(eth + 1) > f->data_end)
		return;
	ev->eth_proto = bpf_ntohs(rg_eth_proto(eth));
	if (!rg_stat_parsed_ipv4(d->stat) || (const void *)(iph + 1) > f->data_end)
		return;
	ev->saddr = iph->saddr;
	ev->daddr = iph->daddr;
	ev->protocol = iph->protocol;
	ev->ttl = iph->ttl;
	ev->flags = RG_EVENT_F_IPV4;
	rg_monitor_snap_l4(f, iph, ev);
}

/*
 * Is a summary lease that read as until still live at now?  An expired one
 * is cleared, so frames stop paying for it.  A plain store (BPF atomics
 * need -mcpu=v3): a monitor renewing in the nanoseconds between the load
 * and this store loses that renewal, and its next one (RG_MONITOR_RENEW_NS
 * later) raises the lease again (docs/pins-and-metrics.md).
 */
static __always_inline int rg_monitor_lease_live(__u64 *lease, __u64 until, __u64 now)
{
	if (until > now)
		return 1;
	if (until)
		*lease = 0;
	return 0;
}

/* 1 in n of the non-drop frames of this CPU; n <= 1: all of them. */
static __always_inline int rg_monitor_sampled(struct rg_monitor_bucket *b, __u32 n)
{
	if (n <= 1)
		return 1;
	if (++b->seen < n)
		return 0;
	b->seen = 0;
	return 1;
}

/*
 * Does a live lease want this frame, and may it be an event?  After the
 * sampler (rg_monitor_begin), cheapest first: the clock and the summary
 * leases, the token bucket; only an admitted frame is snapshotted (ev,
 * with the time).  A BPF subprogram: it runs only while a lease is set,
 * for drops and sampled non-drops.  1: admitted.
 */
static __noinline int rg_monitor_admit(struct rg_state *st, const struct rg_frame *f,
				       const struct rg_decision *d, struct rg_event *ev)
{
	__u64 drops = st->monitor_drops_until_ns, all = st->monitor_all_until_ns, now;
	int drop = rg_stat_is_drop(d->stat);
	struct rg_monitor_bucket *b;
	__u32 zero = 0;

	b = bpf_map_lookup_elem(&rg_monitor_buckets, &zero);
	if (!b)
		return 0;
	now = bpf_ktime_get_ns();
	all = rg_monitor_lease_live(&st->monitor_all_until_ns, all, now);
	drops = drop && rg_monitor_lease_live(&st->monitor_drops_until_ns, drops, now);
	if (!all && !drops)
		return 0;
	if (!rg_bucket_take(&b->last_ns, &b->credit, st->monitor_cpu_rate,
			    st->monitor_cpu_burst, now)) {
		rg_count_side(RG_SIDE_MONITOR_RATELIMITED, f->len);
		return 0;
	}
	rg_monitor_snapshot(f, d, ev);
	ev->time_ns = now;
	return 1;
}

/*
 * Step 9a, before the action: the state when a monitor wants this frame
 * as an event (ev then holds its snapshot), NULL otherwise.  While both
 * summary leases are 0 that is one load and compare, in the cache line
 * the frame read active_gen from; under a drops lease a frame that is no
 * drop costs one compare more; under an `all` lease 15 of 16 non-drops
 * stop at the inlined sampler (a call into rg_monitor_admit for each
 * would cost a flood five times as much: measured with make bench).  A
 * forwarded frame whose redirect then fails is a drop after all: the hook
 * adapter asks again then (rg_monitor_begin_failed).
 */
static __always_inline struct rg_state *rg_monitor_begin(const struct rg_frame *f,
							 const struct rg_decision *d,
							 struct rg_event *ev)
{
	__u32 zero = 0;
	struct rg_state *st = d->state;   /* rg_decide's lookup: no second one */

	if (!st || !(st->monitor_drops_until_ns | st->monitor_all_until_ns))
		return NULL;
	if (!rg_stat_is_drop(d->stat)) {
		struct rg_monitor_bucket *b;

		if (!st->monitor_all_until_ns)
			return NULL;
		b = bpf_map_lookup_elem(&rg_monitor_buckets, &zero);
		if (!b || !rg_monitor_sampled(b, st->monitor_sample))
			return NULL;
	}
	return rg_monitor_admit(st, f, d, ev) ? st : NULL;
}

/*
 * rg_monitor_begin for a frame whose redirect failed (redirect_failed),
 * from the frame as the failure left it: now is the frame read again from
 * the context, its data past a tag the hook pushed, so the headers sit
 * where a snapshot reads them; rewritten says the TTL was decremented
 * already (the event gives it as received).  Only on that failure path.
 */
static __always_inline struct rg_state *rg_monitor_begin_failed(const struct rg_frame *now,
								const struct rg_decision *d,
								struct rg_event *ev, int rewritten)
{
	struct rg_state *st = rg_monitor_begin(now, d, ev);

	if (st && rewritten && (ev->flags & RG_EVENT_F_IPV4))
		ev->ttl++;
	return st;
}

/*
 * One copy of an admitted event into the ring of every slot whose lease is
 * live and whose scope wants the stat the frame was counted as (a drops
 * slot only drops).  A subprogram, as rg_monitor_admit.
 */
static __noinline void rg_monitor_send(const struct rg_state *st, struct rg_event *ev,
				       __u32 stat, __u32 hook, __u32 flags)
{
	int drop = rg_stat_is_drop(stat);

	ev->stat = (__u8)stat;
	ev->hook = (__u8)hook;
	ev->flags |= (__u8)flags;
#pragma unroll
	for (__u32 i = 0; i < RG_MONITOR_SLOTS; i++) {
		const struct rg_monitor_slot *slot = &st->monitor_slots[i];
		__u32 key = i;
		void *ring;

		if (slot->until_ns <= ev->time_ns || slot->scope == RG_MONITOR_NONE)
			continue;
		if (!drop && slot->scope != RG_MONITOR_ALL)
			continue;
		ring = bpf_map_lookup_elem(&rg_event_rings, &key);
		if (!ring)
			continue;          /* the monitor has not put its ring in yet */
		if (bpf_ringbuf_output(ring, ev, sizeof(*ev), 0))
			rg_count_side(RG_SIDE_MONITOR_LOST, ev->len);
		else
			rg_count_side(RG_SIDE_MONITOR_EVENTS, ev->len);
	}
}

/*
 * Step 9a, after the action and rg_count: the event, if rg_monitor_begin
 * admitted the frame (st is what it gave), with the stat that was counted
 * and flags RG_EVENT_F_ANSWERED or 0.
 */
static __always_inline void rg_monitor_emit(const struct rg_state *st, struct rg_event *ev,
					    __u32 stat, __u32 hook, __u32 flags)
{
	if (st)
		rg_monitor_send(st, ev, stat, hook, flags);
}

#endif /* RAILGATE_BPF_MONITOR_H */
