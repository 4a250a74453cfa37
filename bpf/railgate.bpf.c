// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * railgate datapath: on a VF representor, send cross-rail and front-end
 * frames to the computenet uplink with L2 rewritten and TTL decremented.
 *
 * One decision core (rg_decide) for two hooks: XDP (railgate_xdp) and TC
 * (railgate_tc).  The core reads through struct rg_frame (ctx.h) only; the
 * hook adapters below do what differs between the hooks: building the
 * frame, pushing the VLAN tag, redirecting, and the return codes.
 *
 * The rules every path follows:
 *  - every lookup and check happens before the first byte is written, and
 *    any miss leaves the frame untouched (a modified frame that is then
 *    passed would be dropped by the stack as a martian);
 *  - exactly one accounting point per frame (rg_count in the adapters),
 *    packets and the whole frame's bytes as received, into the slot of
 *    (ingress rail, verdict or drop reason);
 *  - the monitor's event (monitor.h) is built after the decision and sent
 *    after the action, and costs a frame one compare while nobody monitors.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "maps/rg_abi.h"
#include "bpf/maps.h"
#include "bpf/ctx.h"
#include "bpf/parse.h"
#include "bpf/classify.h"
#include "bpf/rewrite.h"
#include "bpf/icmp.h"
#include "bpf/count.h"
#include "bpf/monitor.h"

/*
 * The decision core: steps 1-6 of the pipeline (docs/design.md), reads
 * only.  On return d->stat is the verdict or drop reason; for CROSS_RAIL
 * and FRONTEND the frame passed every check and d->src_rep and d->egress
 * are set.  A frame dropped ttl_exceeded or too_big may be due an ICMP
 * answer: then d->icmp_type is set (rg_icmp_decide), and d->egress too.  The route entry's verdict is rg_route_verdict (maps/rg_abi.h),
 * the function `railgate lookup` answers with too.
 */
static __always_inline void rg_decide(const struct rg_frame *f, struct rg_decision *d)
{
	const struct rg_generation *g;
	struct iphdr *iph;
	__u32 gen, verdict;

	d->state = rg_state_get();
	gen = rg_active_gen(d->state);
	d->rail_slot = RG_RAIL_UNKNOWN;
	d->src_rep = rg_ingress_rep(f->ifindex, gen);
	if (!d->src_rep) {
		d->stat = RG_VERDICT_PASS_UNKNOWN_IF;
		return;
	}
	d->rail_slot = d->src_rep->rail_id;

	d->stat = rg_parse(f);
	if (d->stat != RG_CONTINUE)
		return;
	iph = rg_frame_iph(f);

	g = rg_generation_of(gen);
	if (!g) {
		/* Cannot happen (gen < RG_GENERATIONS); the verifier wants it. */
		d->stat = RG_DROP_NO_EGRESS;
		return;
	}
	if ((g->egress.flags & RG_EGRESS_F_ANTI_SPOOF) && !rg_source_in_rail(iph, d->src_rep)) {
		d->stat = RG_DROP_SPOOFED;
		return;
	}

	verdict = rg_route_verdict(rg_fib_lookup(gen, &g->zones, iph->daddr), d->rail_slot);
	if (!rg_stat_is_forward(verdict)) {
		d->stat = verdict;
		return;
	}
	d->egress = &g->egress;
	d->stat = rg_forward_check(f, iph, &g->egress);
	if (d->stat != RG_CONTINUE) {
		rg_icmp_decide(f, iph, &g->icmp, d);
		return;
	}
	d->stat = verdict;
}

/* ---- XDP --------------------------------------------------------------- */

static __always_inline struct rg_frame rg_xdp_frame(struct xdp_md *ctx)
{
	return (struct rg_frame){
		.data = (void *)(long)ctx->data,
		.data_end = (void *)(long)ctx->data_end,
		/* Linear head plus frags: jumbo frames count their real size. */
		.len = (__u32)bpf_xdp_get_buff_len(ctx),
		.ifindex = ctx->ingress_ifindex,
		/* XDP sees the frame as it was on the wire: tags are in it. */
		.vlan_present = 0,
	};
}

/*
 * The rewrite and redirect once the headers sit where they are: the
 * uplink's MACs, TTL - 1.  Returns the XDP action.
 *
 * The loader puts the uplink into rg_tx_ports before it sets
 * EGRESS_F_VALID, so a miss is a race with a reload; the frame is
 * rewritten already, so it cannot be passed: it is dropped, counted.
 */
static __always_inline int rg_xdp_rewrite_redirect(struct ethhdr *eth, struct iphdr *iph,
						   struct rg_decision *d)
{
	rg_set_macs(eth, d->egress);
	rg_ipv4_dec_ttl(iph);
	if (bpf_redirect_map(&rg_tx_ports, d->egress->uplink_ifindex, 0) == XDP_REDIRECT)
		return XDP_REDIRECT;
	d->stat = RG_DROP_REDIRECT_FAILED;
	return XDP_DROP;
}

/*
 * Steps 7-8 for XDP: make room for the tag if the source rail has one,
 * rewrite, redirect.  Returns the XDP action; a failure turns d->stat into
 * DROP_REDIRECT_FAILED.
 *
 * An untagged rail rewrites through the pointers the decision checked;
 * only bpf_xdp_adjust_head moves the frame, and only after it are the
 * pointers derived (and checked) again.
 */
static __always_inline int rg_xdp_forward(struct xdp_md *ctx, const struct rg_frame *f,
					  struct rg_decision *d)
{
	void *data, *data_end;
	struct ethhdr *eth;
	struct iphdr *iph;

	if (!(d->src_rep->flags & RG_REP_F_VLAN))
		return rg_xdp_rewrite_redirect(f->data, rg_frame_iph(f), d);

	/* Fails with the frame untouched (no headroom): nothing written yet. */
	if (bpf_xdp_adjust_head(ctx, -(int)sizeof(struct rg_vlan_tag)))
		goto failed;
	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	eth = data;
	iph = data + ETH_HLEN + sizeof(struct rg_vlan_tag);
	if ((void *)(iph + 1) > data_end)
		goto failed;           /* cannot happen: parsed before the adjust */
	rg_write_vlan_tag(eth, d->src_rep->vlan);
	return rg_xdp_rewrite_redirect(eth, iph, d);
failed:
	d->stat = RG_DROP_REDIRECT_FAILED;
	return XDP_DROP;
}

/*
 * The ICMP answer of a dropped frame, from the same frame: cut it to the
 * Ethernet header and the quote, make room for the answer's IPv4 and ICMP
 * headers before the quote, write them, and send it back out of the
 * representor to the VF (XDP_TX).  Over the rate limit, or when the frame
 * cannot be resized, it is only dropped (as its verdict says).  noinline:
 * its two unrolled checksums stay out of the forwarding path's code.
 */
static __noinline int rg_xdp_icmp_answer(struct xdp_md *ctx, const struct rg_frame *f,
					      struct rg_decision *d)
{
	const struct iphdr *iph = rg_frame_iph(f);
	__u32 len = ETH_HLEN + RG_ICMP_HDRS + d->icmp_quote;
	__be32 saddr = iph->saddr;
	__u8 macs[2 * ETH_ALEN];

	if (!rg_icmp_allow(d->icmp)) {
		rg_count_side(RG_SIDE_ICMP_RATELIMITED, f->len);
		return XDP_DROP;
	}
	__builtin_memcpy(macs, f->data, sizeof(macs));
	if (bpf_xdp_adjust_tail(ctx, (int)(ETH_HLEN + d->icmp_quote) - (int)f->len))
		return XDP_DROP;
	if (bpf_xdp_adjust_head(ctx, -(int)RG_ICMP_HDRS))
		return XDP_DROP;
	if (rg_icmp_write((void *)(long)ctx->data, (void *)(long)ctx->data_end, macs, saddr, d,
			  d->egress->uplink_mtu))
		return XDP_DROP;
	rg_count_side(RG_SIDE_ICMP_SENT, len);
	return XDP_TX;
}

/*
 * The monitor's view of a frame whose redirect failed (rg_monitor_begin
 * had no snapshot: only drops were watched).  The failure left it
 * untouched (no headroom for the tag) or rewritten (the redirect itself
 * failed: MACs, TTL - 1, the tag in front of the ethertype if the rail
 * has one): a tag is there only after a rewrite, and an untagged rail
 * fails only after it.
 */
static __always_inline struct rg_state *rg_xdp_monitor_failed(struct xdp_md *ctx,
							      const struct rg_frame *f,
							      const struct rg_decision *d,
							      struct rg_event *ev)
{
	struct rg_frame now = { .data = (void *)(long)ctx->data,
				.data_end = (void *)(long)ctx->data_end,
				.len = f->len, .ifindex = f->ifindex };
	int tagged = 0;

	if ((d->src_rep->flags & RG_REP_F_VLAN) &&
	    now.data + ETH_HLEN <= now.data_end &&
	    rg_eth_proto(now.data) == bpf_htons(ETH_P_8021Q)) {
		tagged = 1;
		now.data += sizeof(struct rg_vlan_tag);
	}
	return rg_monitor_begin_failed(&now, d, ev,
				       tagged || !(d->src_rep->flags & RG_REP_F_VLAN));
}

SEC("xdp.frags")
int railgate_xdp(struct xdp_md *ctx)
{
	struct rg_frame f = rg_xdp_frame(ctx);
	struct rg_decision d = {};
	struct rg_state *mon;
	struct rg_event ev;
	int action;

	rg_decide(&f, &d);
	mon = rg_monitor_begin(&f, &d, &ev);
	if (rg_stat_is_forward(d.stat)) {
		action = rg_xdp_forward(ctx, &f, &d);
		if (action == XDP_DROP && !mon)
			mon = rg_xdp_monitor_failed(ctx, &f, &d, &ev);
	} else if (d.icmp_type)
		action = rg_xdp_icmp_answer(ctx, &f, &d);
	else
		action = rg_stat_is_drop(d.stat) ? XDP_DROP : XDP_PASS;
	rg_count(d.rail_slot, d.stat, f.len);
	rg_monitor_emit(mon, &ev, d.stat, RG_HOOK_XDP, action == XDP_TX ? RG_EVENT_F_ANSWERED : 0);
	return action;
}

/* ---- TC ---------------------------------------------------------------- */

/*
 * The core reads the Ethernet and IPv4 headers from the linear part.  When
 * the skb holds more than its linear part does, pull the headers in
 * (at most a full IPv4 header with options), so a frame is never judged
 * malformed only because of how the driver laid it out.
 */
static __always_inline void rg_skb_pull_headers(struct __sk_buff *skb)
{
	__u32 linear = (__u32)((long)skb->data_end - (long)skb->data);
	__u32 want = ETH_HLEN + RG_IPV4_MAX_HLEN;

	if (linear >= want || linear >= skb->len)
		return;
	if (want > skb->len)
		want = skb->len;
	bpf_skb_pull_data(skb, want);
}

static __always_inline struct rg_frame rg_skb_frame(struct __sk_buff *skb)
{
	return (struct rg_frame){
		.data = (void *)(long)skb->data,
		.data_end = (void *)(long)skb->data_end,
		.len = skb->len,
		.ifindex = skb->ingress_ifindex,
		/* Before tc ingress the stack untags into metadata. */
		.vlan_present = skb->vlan_present,
		.gso_size = skb->gso_size,
	};
}

/*
 * Steps 7-8 for TC.  bpf_skb_vlan_push puts the tag into skb metadata (the
 * uplink's driver or the stack inserts it on transmit), so the packet data
 * does not move, but the helper invalidates every packet pointer: they are
 * derived again after it.
 */
static __always_inline int rg_tc_forward(struct __sk_buff *skb, struct rg_decision *d)
{
	void *data, *data_end;
	struct ethhdr *eth;
	struct iphdr *iph;

	if ((d->src_rep->flags & RG_REP_F_VLAN) &&
	    bpf_skb_vlan_push(skb, bpf_htons(ETH_P_8021Q),
			      d->src_rep->vlan & RG_VLAN_VID_MASK))
		goto failed;           /* frame untouched */
	data = (void *)(long)skb->data;
	data_end = (void *)(long)skb->data_end;
	eth = data;
	iph = data + ETH_HLEN;
	if ((void *)(iph + 1) > data_end)
		goto failed;           /* cannot happen: parsed before the push */

	rg_set_macs(eth, d->egress);
	rg_ipv4_dec_ttl(iph);
	/* Only invalid flags make bpf_redirect fail; a vanished uplink
	 * is dropped (and counted by the kernel) at transmit. */
	return bpf_redirect(d->egress->uplink_ifindex, 0);
failed:
	d->stat = RG_DROP_REDIRECT_FAILED;
	return TC_ACT_SHOT;
}

/*
 * The ICMP answer at TC, as rg_xdp_icmp_answer: cut the skb to the
 * Ethernet header and the quote (which also ends GSO), insert room for the
 * answer's headers after the MAC header, write them, and redirect out of
 * the representor, which transmits to the VF.  A cut the kernel refuses
 * (a CHECKSUM_PARTIAL skb may not be cut before its checksum field) leaves
 * the tail: the answer's IPv4 length says where it ends, and the receiver
 * trims the rest as padding.  noinline, as rg_xdp_icmp_answer.
 */
static __noinline int rg_tc_icmp_answer(struct __sk_buff *skb, const struct rg_frame *f,
					     struct rg_decision *d)
{
	const struct iphdr *iph = rg_frame_iph(f);
	__be32 saddr = iph->saddr;
	__u8 macs[2 * ETH_ALEN];
	__u32 ifindex = f->ifindex;

	if (!rg_icmp_allow(d->icmp)) {
		rg_count_side(RG_SIDE_ICMP_RATELIMITED, f->len);
		return TC_ACT_SHOT;
	}
	__builtin_memcpy(macs, f->data, sizeof(macs));
	bpf_skb_change_tail(skb, ETH_HLEN + d->icmp_quote, 0);
	if (bpf_skb_adjust_room(skb, RG_ICMP_HDRS, BPF_ADJ_ROOM_MAC, 0))
		return TC_ACT_SHOT;
	if (rg_icmp_write((void *)(long)skb->data, (void *)(long)skb->data_end, macs, saddr, d,
			  d->egress->uplink_mtu))
		return TC_ACT_SHOT;
	rg_count_side(RG_SIDE_ICMP_SENT, skb->len);
	return bpf_redirect(ifindex, 0);
}

SEC("tc")
int railgate_tc(struct __sk_buff *skb)
{
	struct rg_frame f;
	struct rg_decision d = {};
	struct rg_state *mon;
	struct rg_event ev;
	int action;

	rg_skb_pull_headers(skb);
	f = rg_skb_frame(skb);
	rg_decide(&f, &d);
	mon = rg_monitor_begin(&f, &d, &ev);
	if (rg_stat_is_forward(d.stat)) {
		action = rg_tc_forward(skb, &d);
		/* TC fails only before it writes (the tag goes to metadata) */
		if (action == TC_ACT_SHOT && !mon) {
			f.data = (void *)(long)skb->data;
			f.data_end = (void *)(long)skb->data_end;
			mon = rg_monitor_begin_failed(&f, &d, &ev, 0);
		}
	} else if (d.icmp_type)
		action = rg_tc_icmp_answer(skb, &f, &d);
	else
		action = rg_stat_is_drop(d.stat) ? TC_ACT_SHOT : TC_ACT_OK;
	rg_count(d.rail_slot, d.stat, f.len);
	/* An answered drop is redirected back out of the representor. */
	rg_monitor_emit(mon, &ev, d.stat, RG_HOOK_TC,
			d.icmp_type && action == TC_ACT_REDIRECT ? RG_EVENT_F_ANSWERED : 0);
	return action;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
