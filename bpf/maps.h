/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The datapath's maps, BTF-defined, named exactly as maps/rg_abi.h says
 * (RG_MAP_*): user space finds and pins them by those names.  The headers
 * that read a map include this one; the definitions land in the one .bpf.c
 * that includes them (one object, one set of maps).
 *
 * Everything on the fast path is an ARRAY (or PERCPU_ARRAY): the verifier
 * inlines those lookups into a bounds check and an add.  The LPM trie is
 * consulted only for destinations outside every zone, and the devmap only
 * by bpf_redirect_map on the cross-rail path.
 */
#ifndef RAILGATE_BPF_MAPS_H
#define RAILGATE_BPF_MAPS_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "maps/rg_abi.h"

/* rg_state[0]: the active generation, written last by a reload. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct rg_state);
} rg_state SEC(".maps");

/* [gen]: egress and zones of a generation, one lookup away from gen. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, RG_GENERATIONS);
	__type(key, __u32);
	__type(value, struct rg_generation);
} rg_generation SEC(".maps");

/* Entry gen * RG_TBL24_SLOTS + slot: one route entry (or tbl8 pointer) per
 * /24, two entries per element (struct rg_route_pair: dense, see rg_abi.h). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, RG_GENERATIONS * RG_TBL24_SLOTS / RG_ROUTES_PER_ELEM);
	__type(key, __u32);
	__type(value, struct rg_route_pair);
} rg_tbl24 SEC(".maps");

/* Entry (gen * RG_TBL8_GROUPS + group) * 256 + last octet, in pairs too. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, RG_GENERATIONS * RG_TBL8_GROUPS * RG_TBL8_GROUP_SIZE /
			    RG_ROUTES_PER_ELEM);
	__type(key, __u32);
	__type(value, struct rg_route_pair);
} rg_tbl8 SEC(".maps");

/* Prefixes of zones too short to expand; key {8 + len, gen, addr}. */
struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, RG_LPM_MAX_ENTRIES);
	__type(key, struct rg_lpm_key);
	__type(value, __u32);
} rg_lpm SEC(".maps");

/* [gen * RG_MAX_RAILS + rail id]: user space's record of the rails (names,
 * MTU); the datapath reads the copy in each representor entry. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, RG_GENERATIONS * RG_MAX_RAILS);
	__type(key, __u32);
	__type(value, struct rg_rail);
} rg_rails SEC(".maps");

/* [gen * RG_MAX_IFINDEX + ifindex]: MMAPABLE, so a reload clears and
 * writes a generation's entries with memset and stores, not syscalls. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, RG_GENERATIONS * RG_MAX_IFINDEX);
	__type(key, __u32);
	__type(value, struct rg_representor);
} rg_representors SEC(".maps");

/* Uplinks keyed by ifindex: a DEVMAP_HASH, since a plain DEVMAP indexed
 * by ifindex broke on nodes with high ifindexes (docs/lessons.md, datapath #5). */
struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, RG_MAX_UPLINKS);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} rg_tx_ports SEC(".maps");

/* [RG_STAT_INDEX(ingress rail, stat)]: packets and bytes, per CPU. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, RG_STAT_SLOTS);
	__type(key, __u32);
	__type(value, struct rg_counter);
} rg_stats SEC(".maps");

/* [enum rg_side]: counters beside the verdict (ICMP answers), per CPU. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, RG_SIDE_MAX);
	__type(key, __u32);
	__type(value, struct rg_counter);
} rg_side_stats SEC(".maps");

/* [0]: this CPU's ICMP token bucket (rg_icmp_conf has its rate). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct rg_icmp_bucket);
} rg_icmp_buckets SEC(".maps");

/* The ring of one monitor: created by `railgate monitor`, put in its slot. */
struct rg_event_ring {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, RG_EVENTS_RING_BYTES);
};

/* [slot]: the ring of the monitor holding rg_state.monitor_slots[slot]. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, RG_MONITOR_SLOTS);
	__type(key, __u32);
	__array(values, struct rg_event_ring);
} rg_event_rings SEC(".maps");

/* [0]: this CPU's token bucket and sampler for monitor events. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct rg_monitor_bucket);
} rg_monitor_buckets SEC(".maps");

#endif /* RAILGATE_BPF_MAPS_H */
