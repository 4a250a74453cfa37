// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The testbed's pod-side VF (a veth) runs this XDP_PASS program so that
 * frames its representor sends back with XDP_TX (railgate's ICMP errors in
 * xdp mode) are delivered at once: veth flushes XDP_TX frames to a peer
 * only when the peer has an XDP program (GRO alone queues them until the
 * next skb arrives).  A real VF takes them from the eswitch: testbed only.
 * xdp.frags: the testbed runs 9000-byte MTUs.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp.frags")
int vf_xdp_pass(struct xdp_md *ctx)
{
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
