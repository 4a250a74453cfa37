// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The testbed switch's trunk ports (tc ingress on sw's up-n<n>, the ports
 * toward the nodes' uplinks): what a real switch's 802.1Q trunk does with
 * the tag railgate pushes on a tagged rail's frames.  This kernel has no
 * 802.1Q netdevs, so without this the switch would never answer a tagged
 * frame (docs/testbed.md).
 *
 * A tagged frame is admitted when its VID is one the trunk carries
 * (trunk_vids[vid].mask != 0) and its IPv4 source lies in that VID's rail,
 * as a switch's VLAN interface for the rail would require; then the tag is
 * popped and the frame goes on to the bridge, untagged, as if it had come
 * in on the rail's VLAN interface.  Anything else tagged is dropped and
 * counted.  Untagged frames pass untouched.  `testbed.sh break 6-vlan`
 * takes a rail's VID off the trunk (Scenario 6).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

/* The rail a VID belongs to; mask 0: the trunk does not carry it. */
struct trunk_vid {
	__u32 subnet;                /* network order */
	__u32 mask;                  /* network order */
};

enum trunk_stat {
	TRUNK_UNTAGGED,              /* passed untouched */
	TRUNK_POPPED,                /* admitted: tag popped */
	TRUNK_VID_NOT_CARRIED,       /* dropped: the trunk does not carry the VID */
	TRUNK_WRONG_RAIL,            /* dropped: source not in the VID's rail, or not IPv4 */
	TRUNK_STAT_MAX,
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct trunk_vid);
} trunk_vids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, TRUNK_STAT_MAX);
	__type(key, __u32);
	__type(value, __u64);
} trunk_stats SEC(".maps");

static __always_inline int count(__u32 stat, int verdict)
{
	__u64 *c = bpf_map_lookup_elem(&trunk_stats, &stat);

	if (c)
		__sync_fetch_and_add(c, 1);
	return verdict;
}

/* The IPv4 source of an untagged-by-now frame, or 0. */
static __always_inline __u32 ipv4_source(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = data + sizeof(*eth);

	if ((void *)(ip + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return 0;
	return ip->saddr;
}

SEC("tc")
int trunk_ingress(struct __sk_buff *skb)
{
	struct trunk_vid *v;
	__u32 vid, src;

	/* The receive path moved the tag into the skb before tc ingress. */
	if (!skb->vlan_present)
		return count(TRUNK_UNTAGGED, TC_ACT_OK);
	vid = skb->vlan_tci & 0x0fff;
	v = bpf_map_lookup_elem(&trunk_vids, &vid);
	if (!v || !v->mask)
		return count(TRUNK_VID_NOT_CARRIED, TC_ACT_SHOT);
	if (bpf_skb_vlan_pop(skb))
		return count(TRUNK_WRONG_RAIL, TC_ACT_SHOT);
	src = ipv4_source(skb);
	if (!src || (src & v->mask) != v->subnet)
		return count(TRUNK_WRONG_RAIL, TC_ACT_SHOT);
	return count(TRUNK_POPPED, TC_ACT_OK);
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
