/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The rewrite of a frame that leaves through the uplink: new MACs, TTL - 1
 * with an incremental checksum update, and (XDP) an 802.1Q tag written in
 * the room that bpf_xdp_adjust_head made.  Shared by both hooks; called only
 * after every check passed.
 */
#ifndef RAILGATE_BPF_REWRITE_H
#define RAILGATE_BPF_REWRITE_H

#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "maps/rg_abi.h"

/* An 802.1Q tag as it sits between the MACs and the ethertype. */
struct rg_vlan_tag {
	__be16 tpid;
	__be16 tci;
};

#define RG_VLAN_VID_MASK 0x0fff

/*
 * TTL - 1 and the header checksum with it, as the kernel's
 * ip_decrease_ttl(): the TTL is the high byte of its 16-bit word, so the
 * word drops by 0x0100 and the one's complement checksum rises by as much
 * (RFC 1624 eqn. 3 with m' = m - 0x0100), the end-around carry folded in.
 */
static __always_inline void rg_ipv4_dec_ttl(struct iphdr *iph)
{
	__u32 check = (__u32)iph->check + bpf_htons(0x0100);

	iph->check = (__sum16)(check + (check >= 0xffff));
	iph->ttl--;
}

/* Word-sized views of bytes, allowed to alias them. */
typedef __u64 __attribute__((may_alias)) rg_u64_alias;
typedef __u32 __attribute__((may_alias)) rg_u32_alias;

/*
 * Destination and source MAC in two stores, not twelve byte copies:
 * egress keeps the pair in header order at an 8-byte boundary (rg_abi.h).
 * The packet side may be unaligned, which the verifier allows on the
 * archs with efficient unaligned access (the JITs railgate runs on).
 */
static __always_inline void rg_set_macs(struct ethhdr *eth, const struct rg_egress *egress)
{
	const __u8 *macs = egress->gateway_mac;

	*(rg_u64_alias *)eth = *(const rg_u64_alias *)macs;
	*(rg_u32_alias *)((__u8 *)eth + 8) = *(const rg_u32_alias *)(macs + 8);
}

/*
 * XDP: after bpf_xdp_adjust_head(-4) the old ethertype already sits where
 * a tagged frame has it (data + 16), and both MACs are rewritten anyway, so
 * the tag is written in place: nothing has to move.
 */
static __always_inline void rg_write_vlan_tag(struct ethhdr *eth, __u16 vid)
{
	struct rg_vlan_tag *tag = (void *)eth + 2 * ETH_ALEN;

	tag->tpid = bpf_htons(ETH_P_8021Q);
	tag->tci = bpf_htons(vid & RG_VLAN_VID_MASK);
}

#endif /* RAILGATE_BPF_REWRITE_H */
