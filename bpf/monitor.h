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
 *    Otherwise it copies what an event says about the frame as received,
 *    since the action may rewrite it (forward) or cut it (ICMP answer).
 *  - rg_monitor_emit, after the action and rg_count, with the stat that was
 *    counted (a failed redirect is redirect_failed) and whether an ICMP
 *    error went back.  It reads the clock only for a frame a summary lease
 *    may want (a drop, or anything under an `all` lease), samples the
 *    non-drops, takes a token from this CPU's bucket and writes one copy
 *    per live slot.  It never touches the frame, and never counts it: the
 *    frame's one accounting point stays rg_count; the monitor's counts are
 *    side counters (monitor_events, monitor_ratelimited, monitor_lost).
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
#include "maps.h"
#include "ctx.h"
#include "parse.h"
#include "icmp.h"                /* rg_count_side, RG_IP_OFFSET */

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
 * user space).  A BPF subprogram: it runs only while a lease is set, and
 * keeps its code out of the forwarding path.
 */
static __noinline void rg_monitor_snapshot(const struct rg_frame *f, const struct rg_decision *d,
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
 * Step 9a, before the action: the state when some monitor may want this
 * frame (ev then holds its snapshot), NULL when none is attached, or when
 * only drops are watched and the frame is none (a cross-rail frame under a
 * drops lease pays two compares).  A forwarded frame whose redirect then
 * fails is a drop after all: the hook adapter reads it again then
 * (rg_monitor_begin_failed).
 */
static __always_inline struct rg_state *rg_monitor_begin(const struct rg_frame *f,
							 const struct rg_decision *d,
							 struct rg_event *ev)
{
	__u32 zero = 0;
	struct rg_state *st = bpf_map_lookup_elem(&rg_state, &zero);

	if (!st || !(st->monitor_drops_until_ns | st->monitor_all_until_ns))
		return NULL;
	if (!st->monitor_all_until_ns && !rg_stat_is_drop(d->stat))
		return NULL;
	rg_monitor_snapshot(f, d, ev);
	return st;
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

/* One token from this CPU's bucket, as rg_icmp_allow (credit in
 * nanosecond-tokens, elapsed time capped so the refill cannot overflow). */
static __always_inline int rg_monitor_take(struct rg_monitor_bucket *b, const struct rg_state *st,
					   __u64 now)
{
	__u64 elapsed = now - b->last_ns, credit, cap;

	if (elapsed > RG_ICMP_REFILL_MAX_NS)
		elapsed = RG_ICMP_REFILL_MAX_NS;
	cap = (__u64)st->monitor_cpu_burst * RG_NSEC_PER_SEC;
	credit = b->credit + elapsed * st->monitor_cpu_rate;
	if (credit > cap)
		credit = cap;
	b->last_ns = now;
	if (credit < RG_NSEC_PER_SEC) {
		b->credit = credit;
		return 0;
	}
	b->credit = credit - RG_NSEC_PER_SEC;
	return 1;
}

/* One copy of ev into the ring of every slot whose lease is live at now
 * and whose scope wants it (a drops slot only drops). */
static __always_inline void rg_monitor_write(const struct rg_state *st, const struct rg_event *ev,
					     int drop, __u64 now)
{
#pragma unroll
	for (__u32 i = 0; i < RG_MONITOR_SLOTS; i++) {
		const struct rg_monitor_slot *slot = &st->monitor_slots[i];
		__u32 key = i;
		void *ring;

		if (slot->until_ns <= now || slot->scope == RG_MONITOR_NONE)
			continue;
		if (!drop && slot->scope != RG_MONITOR_ALL)
			continue;
		ring = bpf_map_lookup_elem(&rg_event_rings, &key);
		if (!ring)
			continue;          /* the monitor has not put its ring in yet */
		if (bpf_ringbuf_output(ring, (void *)ev, sizeof(*ev), 0))
			rg_count_side(RG_SIDE_MONITOR_LOST, ev->len);
		else
			rg_count_side(RG_SIDE_MONITOR_EVENTS, ev->len);
	}
}

/* The part of rg_monitor_emit that runs while a lease is set: a subprogram,
 * so the frames of a node nobody monitors carry none of its code. */
static __noinline void rg_monitor_send(struct rg_state *st, struct rg_event *ev, __u32 stat,
				       __u32 hook, __u32 flags)
{
	__u64 drops = st->monitor_drops_until_ns, all = st->monitor_all_until_ns, now;
	int drop = rg_stat_is_drop(stat);
	struct rg_monitor_bucket *b;
	__u32 zero = 0;

	/* Under a drops lease, a frame that is no drop costs no clock read. */
	if (!all && !(drop && drops))
		return;
	now = bpf_ktime_get_ns();
	all = rg_monitor_lease_live(&st->monitor_all_until_ns, all, now);
	drops = drop && rg_monitor_lease_live(&st->monitor_drops_until_ns, drops, now);
	if (!all && !drops)
		return;
	b = bpf_map_lookup_elem(&rg_monitor_buckets, &zero);
	if (!b)
		return;
	if (!drop && !rg_monitor_sampled(b, st->monitor_sample))
		return;
	if (!rg_monitor_take(b, st, now)) {
		rg_count_side(RG_SIDE_MONITOR_RATELIMITED, ev->len);
		return;
	}
	ev->time_ns = now;
	ev->stat = (__u8)stat;
	ev->hook = (__u8)hook;
	ev->flags |= (__u8)flags;
	rg_monitor_write(st, ev, drop, now);
}

/*
 * Step 9a, after the action and rg_count: the event, if a monitor wants it.
 * st and ev are what rg_monitor_begin gave; flags RG_EVENT_F_ANSWERED or 0.
 */
static __always_inline void rg_monitor_emit(struct rg_state *st, struct rg_event *ev, __u32 stat,
					    __u32 hook, __u32 flags)
{
	if (st)
		rg_monitor_send(st, ev, stat, hook, flags);
}

#endif /* RAILGATE_BPF_MONITOR_H */
