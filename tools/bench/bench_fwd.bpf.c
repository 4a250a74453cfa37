// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The peer designs the benchmark measures railgate against:
 *  - fwd_xdp: a bpf_fib_lookup forwarder in the style of the kernel's
 *    samples/bpf/xdp_fwd_kern.c (IPv4 only): the kernel FIB and neighbour
 *    table decide, the program rewrites MACs and TTL and redirects through
 *    a DEVMAP_HASH keyed by ifindex;
 *  - tc_redirect: the bare TC redirect, the ceiling of the TC hook (the
 *    bare XDP redirect is bench_baseline.bpf.c's bench_redirect).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#ifndef AF_INET
#define AF_INET 2
#endif

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} fwd_tx_ports SEC(".maps");

/* The uplink ifindex for tc_redirect, set before load. */
volatile const __u32 tc_uplink_ifindex = 0;

/* TTL - 1 with the checksum fixed, as xdp_fwd's ip_decrease_ttl does. */
static __always_inline void ip_decrease_ttl(struct iphdr *iph)
{
	__u32 check = (__u32)iph->check;

	check += (__u32)bpf_htons(0x0100);
	iph->check = (__u16)(check + (check >= 0xFFFF));
	iph->ttl--;
}

SEC("xdp")
int fwd_xdp(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct bpf_fib_lookup fib = {};
	struct ethhdr *eth = data;
	struct iphdr *iph = data + sizeof(*eth);
	long rc;

	if ((void *)(iph + 1) > data_end)
		return XDP_DROP;
	if (eth->h_proto != bpf_htons(ETH_P_IP) || iph->ttl <= 1)
		return XDP_PASS;

	fib.family = AF_INET;
	fib.tos = iph->tos;
	fib.l4_protocol = iph->protocol;
	fib.tot_len = bpf_ntohs(iph->tot_len);
	fib.ipv4_src = iph->saddr;
	fib.ipv4_dst = iph->daddr;
	fib.ifindex = ctx->ingress_ifindex;

	rc = bpf_fib_lookup(ctx, &fib, sizeof(fib), 0);
	/* Only forward to ports that can take redirected frames (xdp_fwd's
	 * check); anything else goes to the stack untouched. */
	if (rc != BPF_FIB_LKUP_RET_SUCCESS ||
	    !bpf_map_lookup_elem(&fwd_tx_ports, &fib.ifindex))
		return XDP_PASS;

	ip_decrease_ttl(iph);
	__builtin_memcpy(eth->h_dest, fib.dmac, ETH_ALEN);
	__builtin_memcpy(eth->h_source, fib.smac, ETH_ALEN);
	return bpf_redirect_map(&fwd_tx_ports, fib.ifindex, 0);
}

SEC("tc")
int tc_redirect(struct __sk_buff *skb)
{
	return bpf_redirect(tc_uplink_ifindex, 0);
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
