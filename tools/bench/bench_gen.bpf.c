// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The traffic generator's front half for the live-frames mode of
 * BPF_PROG_RUN (BPF_F_TEST_XDP_LIVE_FRAMES): every frame gets all of its
 * headers written anew, then the design under test runs on it through a
 * tail call, with the same ctx (so ingress_ifindex is the representor's).
 *
 * Why rewrite everything: live-frames pages are recycled with whatever
 * the forwarder wrote into them (MACs, a decremented TTL), and the one
 * frame given to BPF_PROG_RUN would otherwise be a single flow, which
 * keeps the forwarding table in L1 and hides most of its cost.  Each frame
 * takes the next destination of gen_dsts (filled by user space with a
 * shuffled spread over the whole table) and TTL 255.
 *
 * The rewrite and the tail call are the same for every design, so they
 * cancel out of the ratios.  Two entry points because a prog array only
 * holds programs with the same frags capability as its owner: gen_xdp
 * feeds plain "xdp" programs, gen_xdp_frags feeds railgate's "xdp.frags".
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/in.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "tools/bench/bench_abi.h"


struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, BENCH_DSTS);
	__type(key, __u32);
	__type(value, __u32);          /* IPv4 destination, network order */
} gen_dsts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} gen_next SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} gen_next_frags SEC(".maps");

/* Set by railgate-bench before load. */
volatile const __u8  gen_eth_dst[ETH_ALEN] = {};  /* the representor's MAC */
volatile const __u8  gen_eth_src[ETH_ALEN] = {};  /* "the pod's" MAC */
volatile const __u32 gen_saddr = 0;               /* network order, in the ingress rail */

/* Frames generated; one CPU runs a BPF_PROG_RUN call, so no atomics. */
__u64 gen_seq = 0;
/* Frames whose design could not be tail-called (must stay 0). */
__u64 gen_no_design = 0;

static __always_inline __u16 csum_fold(__u32 sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (__u16)~sum;
}

/* The IPv4 header checksum from scratch (IHL 5): ten 16-bit words. */
static __always_inline __u16 ipv4_csum(const struct iphdr *iph)
{
	const __u16 *w = (const __u16 *)iph;
	__u32 sum = 0;

#pragma unroll
	for (int i = 0; i < (int)(sizeof(*iph) / 2); i++)
		sum += w[i];
	return csum_fold(sum);
}

static __always_inline void write_eth(struct ethhdr *eth)
{
#pragma unroll
	for (int i = 0; i < ETH_ALEN; i++) {
		eth->h_dest[i] = gen_eth_dst[i];
		eth->h_source[i] = gen_eth_src[i];
	}
	eth->h_proto = bpf_htons(ETH_P_IP);
}

static __always_inline void write_ipv4(struct iphdr *iph, __u16 tot_len, __u32 daddr)
{
	iph->version = 4;
	iph->ihl = 5;
	iph->tos = 0;
	iph->tot_len = bpf_htons(tot_len);
	iph->id = 0;
	iph->frag_off = 0;
	iph->ttl = BENCH_GEN_TTL;
	iph->protocol = IPPROTO_UDP;
	iph->check = 0;
	iph->saddr = gen_saddr;
	iph->daddr = daddr;
	iph->check = ipv4_csum(iph);
}

/* Write the headers of the next frame; 0, or -1 when the frame is too short. */
static __always_inline int rewrite(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *iph = data + sizeof(*eth);
	__u32 key = (__u32)gen_seq++ & (BENCH_DSTS - 1);
	__u32 *daddr;

	if ((void *)(iph + 1) > data_end)
		return -1;
	daddr = bpf_map_lookup_elem(&gen_dsts, &key);
	if (!daddr)
		return -1;
	write_eth(eth);
	write_ipv4(iph, (__u16)(data_end - (void *)iph), *daddr);
	return 0;
}

SEC("xdp")
int gen_xdp(struct xdp_md *ctx)
{
	if (rewrite(ctx))
		return XDP_ABORTED;
	bpf_tail_call(ctx, &gen_next, 0);
	gen_no_design++;
	return XDP_DROP;
}

SEC("xdp.frags")
int gen_xdp_frags(struct xdp_md *ctx)
{
	if (rewrite(ctx))
		return XDP_ABORTED;
	bpf_tail_call(ctx, &gen_next_frags, 0);
	gen_no_design++;
	return XDP_DROP;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
