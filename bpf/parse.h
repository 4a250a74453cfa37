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

#include "ctx.h"

#define RG_IPV4_MIN_HLEN 20
#define RG_IPV4_MAX_HLEN 60

/* Ethernet header of f: only untagged unicast IPv4 goes on. */
static __always_inline __u32 rg_parse_eth(const struct rg_frame *f)
{
	const struct ethhdr *eth = f->data;

	if ((void *)(eth + 1) > f->data_end)
		return RG_DROP_MALFORMED;
	/* The I/G bit: broadcast and multicast are switched, never routed. */
	if (eth->h_dest[0] & 1)
		return RG_VERDICT_PASS_L2_MULTI;
	/*
	 * A pod's VF sends untagged frames; a tagged one (802.1Q or 802.1ad,
	 * in the frame or, at TC, already moved into skb metadata by the
	 * stack) belongs to some other setup on this port.  It is not ours to
	 * route: it passes untouched and is counted.
	 */
	if (f->vlan_present || eth->h_proto == bpf_htons(ETH_P_8021Q) ||
	    eth->h_proto == bpf_htons(ETH_P_8021AD))
		return RG_VERDICT_PASS_TAGGED;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return RG_VERDICT_PASS_NOT_IPV4;
	return RG_CONTINUE;
}

/*
 * IPv4 header after an Ethernet header: every length field is checked
 * against what is really there.  A frame longer than tot_len (Ethernet
 * padding) is fine; fragments are fine (each one carries the destination).
 */
static __always_inline __u32 rg_parse_ipv4(const struct rg_frame *f, struct iphdr **iphp)
{
	struct iphdr *iph = f->data + ETH_HLEN;
	__u32 hlen, tot_len;

	if ((void *)(iph + 1) > f->data_end)
		return RG_DROP_MALFORMED;
	if (iph->version != 4 || iph->ihl < RG_IPV4_MIN_HLEN / 4)
		return RG_DROP_MALFORMED;
	hlen = iph->ihl * 4;
	if ((void *)iph + hlen > f->data_end)
		return RG_DROP_MALFORMED;
	tot_len = bpf_ntohs(iph->tot_len);
	/* f->len >= ETH_HLEN: the Ethernet header was in the linear part. */
	if (tot_len < hlen || tot_len > f->len - ETH_HLEN)
		return RG_DROP_MALFORMED;
	*iphp = iph;
	return RG_CONTINUE;
}

#endif /* RAILGATE_BPF_PARSE_H */
