/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Classification: which rail the frame came from, whether its source may
 * be there, and where its destination is (the FIB lookup).  Map reads only.
 */
#ifndef RAILGATE_BPF_CLASSIFY_H
#define RAILGATE_BPF_CLASSIFY_H

#include <linux/bpf.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "maps/rg_abi.h"
#include "bpf/maps.h"
#include "bpf/ctx.h"

/* The node's state (rg_state[0]): looked up once per frame, by rg_decide,
 * for the active generation and the monitor's leases (one cache line). */
static __always_inline struct rg_state *rg_state_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&rg_state, &zero);
}

/*
 * The generation to read, loaded once per frame.  user space flips it with
 * a release store after writing every table of the new generation; on the
 * archs BPF JITs for, a plain aligned load orders the table loads after it.
 */
static __always_inline __u32 rg_active_gen(const struct rg_state *st)
{
	return st ? *(volatile const __u32 *)&st->active_gen & 1 : 0;
}

/*
 * The representor entry of ifindex in generation gen, or NULL: not a
 * representor of this generation.  The bound keeps a high ifindex from
 * reading the other generation's slice.
 */
static __always_inline const struct rg_representor *rg_ingress_rep(__u32 ifindex, __u32 gen)
{
	const struct rg_representor *rep;
	__u32 key;

	if (ifindex >= RG_MAX_IFINDEX)
		return NULL;
	key = rg_rep_key(gen, ifindex);
	rep = bpf_map_lookup_elem(&rg_representors, &key);
	if (!rep || !(rep->flags & RG_REP_F_VALID))
		return NULL;
	return rep;
}

/* The egress and zones of generation gen (NULL only if gen is out of range). */
static __always_inline const struct rg_generation *rg_generation_of(__u32 gen)
{
	return bpf_map_lookup_elem(&rg_generation, &gen);
}

static __always_inline int rg_source_in_rail(const struct iphdr *iph,
					     const struct rg_representor *rep)
{
	return (bpf_ntohl(iph->saddr) & rep->mask) == rep->subnet;
}

/* Route entry index of rg_tbl24 or rg_tbl8 (both hold entry pairs). */
static __always_inline __u32 rg_route_entry_at(void *table, __u32 index)
{
	__u32 key = RG_ROUTE_ELEM(index);
	const struct rg_route_pair *pair = bpf_map_lookup_elem(table, &key);

	return pair ? pair->entry[RG_ROUTE_IN_ELEM(index)] : RG_ROUTE(RG_ROUTE_NONE, 0);
}

/* DIR-24-8 inside a matched zone: the /24's tbl24 slot, then maybe tbl8. */
static __always_inline __u32 rg_zone_lookup(__u32 gen, const struct rg_zone *z, __u32 dst)
{
	/* For a zone longer than /24, dst - net < 256: the slot is base. */
	__u32 entry = rg_route_entry_at(&rg_tbl24, rg_tbl24_key(gen, z->base + ((dst - z->net) >> 8)));

	if (RG_ROUTE_KIND(entry) != RG_ROUTE_TBL8)
		return entry;
	return rg_route_entry_at(&rg_tbl8, rg_tbl8_key(gen, RG_ROUTE_ARG(entry), dst & 0xff));
}

/* The slow path, only for destinations outside every zone. */
static __always_inline __u32 rg_lpm_lookup(__u32 gen, __u32 dst_be)
{
	struct rg_lpm_key key = rg_lpm_key_of(gen, dst_be, 32);
	const __u32 *entry = bpf_map_lookup_elem(&rg_lpm, &key);

	return entry ? *entry : RG_ROUTE(RG_ROUTE_NONE, 0);
}

/* Does dst (host order) fall into zone z? */
static __always_inline int rg_zone_match(const struct rg_zone *z, __u32 dst)
{
	return (dst & z->mask) == z->net;
}

/*
 * Route entry of dst_be (network order) in generation gen, zones zs.
 * Most configs have one supernet: zone 0 is tried before the loop, so the
 * common frame pays one compare and no loop bookkeeping.
 */
static __always_inline __u32 rg_fib_lookup(__u32 gen, const struct rg_zone_set *zs,
					   __u32 dst_be)
{
	__u32 dst = bpf_ntohl(dst_be);
	__u32 count = zs->count;

	if (count && rg_zone_match(&zs->zones[0], dst))
		return rg_zone_lookup(gen, &zs->zones[0], dst);
	for (__u32 i = 1; i < RG_MAX_ZONES; i++) {
		const struct rg_zone *z = &zs->zones[i];

		if (i >= count)
			break;
		if (rg_zone_match(z, dst))
			return rg_zone_lookup(gen, z, dst);
	}
	if (zs->use_lpm)
		return rg_lpm_lookup(gen, dst_be);
	return RG_ROUTE(RG_ROUTE_NONE, 0);
}

/*
 * The transport header of a GSO skb's segments, as the kernel's
 * skb_gso_transport_seglen counts it: TCP's data offset, UDP's 8 bytes.
 */
static __always_inline __u32 rg_gso_l4_hlen(const struct rg_frame *f, const struct iphdr *iph)
{
	const __u8 *l4 = (const __u8 *)iph + iph->ihl * 4;

	if (iph->protocol == IPPROTO_UDP)
		return 8;
	if (iph->protocol != IPPROTO_TCP)
		return 0;
	if ((const void *)(l4 + 13) > f->data_end)
		return 20;             /* not in the linear part: the smallest header */
	return (l4[12] >> 4) * 4;
}

/*
 * Would the frame's IPv4 packet exceed the uplink's MTU?  A GSO skb (TC)
 * leaves as segments: compare one segment's network length (IPv4 header,
 * transport header, gso_size bytes), not the skb's, as ip_exceeds_mtu does.
 */
static __always_inline int rg_exceeds_mtu(const struct rg_frame *f, const struct iphdr *iph,
					  __u32 mtu)
{
	if (!mtu || f->len - ETH_HLEN <= mtu)
		return 0;
	if (!f->gso_size)
		return 1;
	return iph->ihl * 4 + rg_gso_l4_hlen(f, iph) + f->gso_size > mtu;
}

/*
 * A frame to be redirected: can it leave, may it live one more hop, does it
 * fit the uplink?  The order is the kernel's ip_forward: TTL, then MTU.
 */
static __always_inline __u32 rg_forward_check(const struct rg_frame *f, const struct iphdr *iph,
					      const struct rg_egress *egress)
{
	if (!(egress->flags & RG_EGRESS_F_VALID))
		return RG_DROP_NO_EGRESS;
	/* The loop guard: a frame whose TTL would reach 0 goes no further. */
	if (iph->ttl <= 1)
		return RG_DROP_TTL_EXCEEDED;
	/* railgate does not fragment: too big is dropped (and, with DF, answered). */
	if (rg_exceeds_mtu(f, iph, egress->uplink_mtu))
		return RG_DROP_TOO_BIG;
	return RG_CONTINUE;
}

#endif /* RAILGATE_BPF_CLASSIFY_H */
