/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Header parsing: is this an untagged unicast IPv4 frame with a sane
 * header?  Reads only; every check is against the linear part.
 */
#ifndef RAILGATE_BPF_PARSE_H
#define RAILGATE_BPF_PARSE_H

#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "maps/rg_abi.h"
#include "bpf/ctx.h"

#define RG_IPV4_MIN_HLEN 20
#define RG_IPV4_MAX_HLEN 60

/* Where the IPv4 header of an untagged frame starts. */
static __always_inline struct iphdr *rg_frame_iph(const struct rg_frame *f)
{
	return f->data + ETH_HLEN;
}

/*
 * The ethertype as one 16-bit load: struct ethhdr is packed, so reading
 * eth->h_proto compiles to two byte loads and a shift.  A packet load
 * need not be aligned on the archs with efficient unaligned access (the
 * JITs railgate runs on; rg_set_macs relies on it too).
 */
static __always_inline __be16 rg_eth_proto(const struct ethhdr *eth)
{
	return *(const __be16 *)((const __u8 *)eth + 2 * ETH_ALEN);
}

/* The version/IHL byte of the common IPv4 header: version 4, no options. */
#define RG_IPV4_VER_IHL_PLAIN 0x45

/*
 * Verdict of an Ethernet header whose frame is not untagged IPv4 (or is
 * too short to hold an IPv4 header): only untagged unicast IPv4 goes on.
 */
static __always_inline __u32 rg_eth_verdict(const struct rg_frame *f, const struct ethhdr *eth)
{
	/* The I/G bit: broadcast and multicast are switched, never routed. */
	if (eth->h_dest[0] & 1)
		return RG_VERDICT_PASS_L2_MULTI;
	/*
	 * A pod's VF sends untagged frames; a tagged one (802.1Q or 802.1ad,
	 * in the frame or, at TC, already moved into skb metadata by the
	 * stack) belongs to some other setup on this port.  It is not ours to
	 * route: it passes untouched and is counted.
	 */
	if (f->vlan_present || rg_eth_proto(eth) == bpf_htons(ETH_P_8021Q) ||
	    rg_eth_proto(eth) == bpf_htons(ETH_P_8021AD))
		return RG_VERDICT_PASS_TAGGED;
	if (rg_eth_proto(eth) != bpf_htons(ETH_P_IP))
		return RG_VERDICT_PASS_NOT_IPV4;
	return RG_CONTINUE;
}

/*
 * The slow path of rg_parse: a frame too short for Ethernet + a 20-byte
 * IPv4 header.  The Ethernet verdict still decides what it is; an IPv4
 * frame this short is malformed.
 */
static __always_inline __u32 rg_parse_short(const struct rg_frame *f)
{
	const struct ethhdr *eth = f->data;
	__u32 stat;

	if ((void *)(eth + 1) > f->data_end)
		return RG_DROP_MALFORMED;
	stat = rg_eth_verdict(f, eth);
	return stat == RG_CONTINUE ? RG_DROP_MALFORMED : stat;
}

/*
 * Header length of an IPv4 header that is not the plain 0x45, or 0 when
 * it is malformed: options are fine when the linear part holds them all.
 */
static __always_inline __u32 rg_ipv4_options_hlen(const struct rg_frame *f,
						  const struct iphdr *iph)
{
	__u32 hlen = iph->ihl * 4;

	if (iph->version != 4 || hlen < RG_IPV4_MIN_HLEN)
		return 0;
	if ((void *)iph + hlen > f->data_end)
		return 0;
	return hlen;
}

/*
 * Ethernet and IPv4 header of f, every length field checked against what
 * is really there.  The common frame (untagged unicast IPv4 without
 * options) pays one bounds check for both headers and one byte compare for
 * version and IHL; everything else takes the branches that say why.  A
 * frame longer than tot_len (Ethernet padding) is fine; fragments are fine
 * (each one carries the destination).  On RG_CONTINUE the IPv4 header is
 * at rg_frame_iph(f), at least 20 bytes of it in the linear part.
 */
static __always_inline __u32 rg_parse(const struct rg_frame *f)
{
	const struct ethhdr *eth = f->data;
	struct iphdr *iph = rg_frame_iph(f);
	__u32 hlen, tot_len;

	if ((void *)(iph + 1) > f->data_end)
		return rg_parse_short(f);
	/* Not untagged unicast IPv4: rg_eth_verdict says which it is. */
	if (f->vlan_present || rg_eth_proto(eth) != bpf_htons(ETH_P_IP) || (eth->h_dest[0] & 1))
		return rg_eth_verdict(f, eth);
	if (*(const __u8 *)iph == RG_IPV4_VER_IHL_PLAIN) {
		hlen = RG_IPV4_MIN_HLEN;
	} else {
		hlen = rg_ipv4_options_hlen(f, iph);
		if (!hlen)
			return RG_DROP_MALFORMED;
	}
	tot_len = bpf_ntohs(iph->tot_len);
	/* f->len >= ETH_HLEN: the Ethernet header was in the linear part. */
	if (tot_len < hlen || tot_len > f->len - ETH_HLEN)
		return RG_DROP_MALFORMED;
	return RG_CONTINUE;
}

#endif /* RAILGATE_BPF_PARSE_H */
