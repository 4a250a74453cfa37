// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The sink: XDP on the uplink's peer, in its own namespace.  It counts and
 * drops every frame (a veth peer needs an XDP program, or GRO, to receive
 * redirected frames at all).  It also counts the frames that arrived with
 * TTL 254, i.e. forwarded once from the generator's TTL 255: the smoke
 * test uses that to tell a forwarder that decremented from one that did
 * not.  Per-CPU counters: the sink may run on any CPU in split mode.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "tools/bench/bench_abi.h"


struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, SINK_COUNTERS);
	__type(key, __u32);
	__type(value, __u64);
} sink_counts SEC(".maps");

static __always_inline void bump(__u32 key)
{
	__u64 *c = bpf_map_lookup_elem(&sink_counts, &key);

	if (c)
		(*c)++;
}

SEC("xdp")
int sink_xdp(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *iph = data + sizeof(*eth);

	bump(SINK_FRAMES);
	if ((void *)(iph + 1) <= data_end && eth->h_proto == bpf_htons(ETH_P_IP) &&
	    iph->ttl == BENCH_GEN_TTL - 1)
		bump(SINK_TTL_254);
	return XDP_DROP;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
