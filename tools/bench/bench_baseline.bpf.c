// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Baselines for the cost measurement (`make bench` and
 * tests/bpf/test_prog_cost.c): the cheapest XDP program there is, and a
 * bare redirect through a DEVMAP_HASH like railgate's.  railgate's
 * cross-rail verdict is measured against them.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} bench_tx_ports SEC(".maps");

/* The uplink ifindex, set by the benchmark before the run. */
volatile const __u32 bench_uplink_ifindex = 0;

SEC("xdp")
int bench_pass(struct xdp_md *ctx)
{
	return XDP_PASS;
}

SEC("xdp")
int bench_redirect(struct xdp_md *ctx)
{
	return bpf_redirect_map(&bench_tx_ports, bench_uplink_ifindex, 0);
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
