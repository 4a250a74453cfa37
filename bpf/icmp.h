/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * ICMP errors from the datapath: Time Exceeded (RFC 792) for a frame whose
 * TTL would reach 0, Destination Unreachable / Fragmentation Needed with
 * the uplink's MTU (RFC 1191) for a DF frame too big for the uplink.
 *
 * rg_icmp_decide is part of the decision (reads only); the token bucket,
 * the side counters and the rewrite (rg_icmp_write) run in the hook
 * adapters after it, for the frames that are answered.  The answer reuses
 * the frame: the hook makes it the answer's size, then rg_icmp_write fills
 * in Ethernet, IPv4 and ICMP headers before the quoted original, which
 * already sits where the answer quotes it.
 */
#ifndef RAILGATE_BPF_ICMP_H
#define RAILGATE_BPF_ICMP_H

#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "maps/rg_abi.h"
#include "bpf/maps.h"
#include "bpf/bucket.h"
#include "bpf/ctx.h"
#include "bpf/parse.h"

/*
 * The ICMP header (RFC 792).  Not <linux/icmp.h>: through <linux/if.h> it
 * pulls in libc headers that a -target bpf build does not have.
 */
struct rg_icmphdr {
	__u8    type;
	__u8    code;
	__sum16 checksum;
	__be16  unused;              /* 0 */
	__be16  mtu;                 /* Fragmentation Needed: the next-hop MTU (RFC 1191) */
};

#define ICMP_DEST_UNREACH   3
#define ICMP_SOURCE_QUENCH  4
#define ICMP_REDIRECT       5
#define ICMP_TIME_EXCEEDED  11
#define ICMP_PARAMETERPROB  12
#define ICMP_FRAG_NEEDED    4        /* code of DEST_UNREACH */
#define ICMP_EXC_TTL        0        /* code of TIME_EXCEEDED */

/* IPv4 frag_off bits (the kernel keeps these out of UAPI). */
#define RG_IP_DF     0x4000
#define RG_IP_OFFSET 0x1fff

/* What the answer puts before the quote: its IPv4 header and ICMP header. */
#define RG_ICMP_HDRS   (sizeof(struct iphdr) + sizeof(struct rg_icmphdr))
/* RFC 792: the original IPv4 header and the first 64 bits of its data. */
#define RG_ICMP_QUOTE_DATA 8
#define RG_ICMP_TTL    64
/* IPTOS_PREC_INTERNETCONTROL, as the kernel's icmp_send marks its errors. */
#define RG_ICMP_TOS    0xc0
/* The ICMP header plus the longest quote (60-byte header + 8), in words. */
#define RG_ICMP_MAX_WORDS ((8 + RG_IPV4_MAX_HLEN + RG_ICMP_QUOTE_DATA) / 4)

/* An ICMP message that is itself an error: never answered (RFC 1122 3.2.2). */
static __always_inline int rg_icmp_type_is_error(__u8 type)
{
	return type == ICMP_DEST_UNREACH || type == ICMP_SOURCE_QUENCH ||
	       type == ICMP_REDIRECT || type == ICMP_TIME_EXCEEDED ||
	       type == ICMP_PARAMETERPROB;
}

/* A source no answer may go to: 0.0.0.0, multicast, limited broadcast,
 * or the broadcast address of the ingress rail (RFC 1812 4.3.2.7). */
static __always_inline int rg_icmp_bad_source(__u32 src, const struct rg_representor *rep)
{
	return src == 0 || (src & 0xf0000000) == 0xe0000000 || src == 0xffffffff ||
	       src == (rep->subnet | ~rep->mask);
}

/*
 * Which ICMP error, if any, answers a frame the decision dropped with
 * stat: sets d->icmp_type/code/quote.  Reads only.  Never for an ICMP
 * error, a non-first fragment, a bad source, a packet with less than 8
 * bytes of data (nothing to quote as RFC 792 says), or a quote that is
 * not in the linear part.  A BPF subprogram (noinline), called only for
 * those two drops: the forwarding path's code stays as it was (measured
 * with test_prog_cost, docs/performance.md).
 */
static __noinline void rg_icmp_decide(const struct rg_frame *f, const struct iphdr *iph,
				      const struct rg_icmp_conf *icmp, struct rg_decision *d)
{
	__u32 hlen = iph->ihl * 4;
	const __u8 *l4 = (const __u8 *)iph + hlen;
	__u8 type, code;

	if (d->stat == RG_DROP_TTL_EXCEEDED) {
		type = ICMP_TIME_EXCEEDED;
		code = ICMP_EXC_TTL;
	} else if (d->stat == RG_DROP_TOO_BIG && (iph->frag_off & bpf_htons(RG_IP_DF))) {
		type = ICMP_DEST_UNREACH;
		code = ICMP_FRAG_NEEDED;
	} else {
		return;
	}
	if (!icmp->source || !icmp->cpu_rate)
		return;
	if (iph->frag_off & bpf_htons(RG_IP_OFFSET))
		return;
	if (rg_icmp_bad_source(bpf_ntohl(iph->saddr), d->src_rep))
		return;
	if (bpf_ntohs(iph->tot_len) < hlen + RG_ICMP_QUOTE_DATA)
		return;
	if ((const void *)(l4 + RG_ICMP_QUOTE_DATA) > f->data_end)
		return;
	if (iph->protocol == IPPROTO_ICMP && rg_icmp_type_is_error(l4[0]))
		return;
	d->icmp = icmp;
	d->icmp_type = type;
	d->icmp_code = code;
	d->icmp_quote = (__u16)(hlen + RG_ICMP_QUOTE_DATA);
}

/*
 * Take one token from this CPU's bucket: 1 if the answer may go.  The
 * credit is in nanosecond-tokens, so the refill is one multiply; elapsed
 * time is capped so that it cannot overflow.
 */
static __always_inline int rg_icmp_allow(const struct rg_icmp_conf *icmp)
{
	__u32 zero = 0;
	struct rg_icmp_bucket *b = bpf_map_lookup_elem(&rg_icmp_buckets, &zero);

	return b && rg_bucket_take(&b->last_ns, &b->credit, icmp->cpu_rate, icmp->cpu_burst,
				   bpf_ktime_get_ns());
}

/* A side counter: packets and bytes into rg_side_stats[side]. */
static __always_inline void rg_count_side(__u32 side, __u32 bytes)
{
	struct rg_counter *c = bpf_map_lookup_elem(&rg_side_stats, &side);

	if (c) {
		c->packets++;
		c->bytes += bytes;
	}
}

/* One's complement sum folded to 16 bits, complemented: the checksum. */
static __always_inline __sum16 rg_csum_fold(__u64 sum)
{
	sum = (sum & 0xffffffff) + (sum >> 32);
	sum = (sum & 0xffffffff) + (sum >> 32);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (__sum16)~sum;
}

/*
 * Sum of nwords 32-bit words from p (at most RG_ICMP_MAX_WORDS); the
 * Internet checksum does not care about byte order (RFC 1071), so the
 * words are added as they lie.  Unrolled: every load has a constant offset
 * the verifier checks against end.
 */
static __always_inline __u64 rg_csum_words(const void *p, const void *end, __u32 nwords)
{
	__u64 sum = 0;

#pragma unroll
	for (__u32 i = 0; i < RG_ICMP_MAX_WORDS; i++) {
		const __u32 *w = p + i * 4;

		if (i >= nwords || (const void *)(w + 1) > end)
			break;
		sum += *w;
	}
	return sum;
}

/*
 * Write the answer into a frame already made its size: data holds
 * [Ethernet][IPv4 20][ICMP 8][quote: the original IPv4 header + 8 bytes].
 * macs are the original frame's destination and source MAC (the answer
 * swaps them), saddr_be its source.  Returns 0, or -1 when the frame is
 * shorter than the answer (cannot happen: the hook sized it).
 */
static __always_inline int rg_icmp_write(void *data, void *data_end, const __u8 macs[12],
					 __be32 saddr_be, const struct rg_decision *d,
					 __u32 mtu)
{
	struct ethhdr *eth = data;
	struct iphdr *ip = data + ETH_HLEN;
	struct rg_icmphdr *icmp = (void *)(ip + 1);
	__u32 quote = d->icmp_quote;

	if ((void *)(icmp + 1) > data_end)
		return -1;
	if (quote > RG_IPV4_MAX_HLEN + RG_ICMP_QUOTE_DATA ||
	    (void *)(icmp + 1) + quote > data_end)
		return -1;

	__builtin_memcpy(eth->h_dest, macs + ETH_ALEN, ETH_ALEN);
	__builtin_memcpy(eth->h_source, macs, ETH_ALEN);
	eth->h_proto = bpf_htons(ETH_P_IP);

	*(__u8 *)ip = RG_IPV4_VER_IHL_PLAIN;
	ip->tos = RG_ICMP_TOS;
	ip->tot_len = bpf_htons((__u16)(RG_ICMP_HDRS + quote));
	ip->id = 0;
	ip->frag_off = 0;
	ip->ttl = RG_ICMP_TTL;
	ip->protocol = IPPROTO_ICMP;
	ip->check = 0;
	ip->saddr = bpf_htonl(d->icmp->source);
	ip->daddr = saddr_be;
	ip->check = rg_csum_fold(rg_csum_words(ip, data_end, sizeof(*ip) / 4));

	icmp->type = d->icmp_type;
	icmp->code = d->icmp_code;
	icmp->checksum = 0;
	icmp->unused = 0;
	icmp->mtu = d->icmp_type == ICMP_DEST_UNREACH ? bpf_htons((__u16)mtu) : 0;
	icmp->checksum = rg_csum_fold(rg_csum_words(icmp, data_end,
						    (sizeof(*icmp) + quote) / 4));
	return 0;
}

#endif /* RAILGATE_BPF_ICMP_H */
