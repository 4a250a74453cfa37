/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * railgate map ABI: the one header shared by the BPF programs (bpf/) and
 * user space (maps/, loader/, tools/).  Every struct here is a map key or
 * value; fixed-width types, explicit padding, sizes asserted at the bottom.
 *
 * Changing any layout here is an ABI change: bump RG_ABI_VERSION, which is
 * part of the pin path, so a loader never reuses a pinned map whose layout
 * it does not know (Cilium's lesson, docs/lessons.md, datapath #7).
 *
 * Besides the layouts, this header is the one definition of what they
 * mean: the map keys, the route verdict, drop-or-pass and the stat names,
 * as small inline functions that the datapath and user space both compile
 * (clang -target bpf and gcc: nothing below may call libc).
 *
 * Byte order: addresses and masks are stored in HOST order (the datapath
 * converts the header's destination once with bpf_ntohl); MACs are bytes in
 * wire order; VLAN ids are host order.
 *
 * Forwarding table (the "FIB"): DIR-24-8 style prefix expansion below each
 * zone.  A zone is a top-level prefix of the config (a supernet, or a
 * front-end prefix outside every supernet), at least /RG_ZONE_MIN_PREFIX
 * long.  Each zone owns a contiguous slice of rg_tbl24, one slot per /24
 * (or a single slot when the zone is longer than /24).  A slot holds either
 * a route entry or a pointer to a 256-entry group in rg_tbl8 for the /24s
 * that contain prefixes longer than /24.  Prefixes that do not expand
 * (zones shorter than /RG_ZONE_MIN_PREFIX) live in the rg_lpm trie.
 *
 * Every table that a config fills exists twice (generation 0 and 1).  The
 * loader writes the inactive generation completely, then flips
 * rg_state.active_gen with one aligned 32-bit store: a reload is atomic for
 * the datapath, so no destination valid in both configs ever misses.
 * Representor entries are per generation too: an interface may change
 * rails, or its rail its subnet or VLAN, in one reload.
 *
 * The per-frame chain of dependent reads is kept short on purpose:
 * rg_state (gen) -> { rg_representors[gen][ifindex], rg_generation[gen] }
 * (independent of each other) -> rg_tbl24 (-> rg_tbl8) -> rg_stats.
 */
#ifndef RAILGATE_RG_ABI_H
#define RAILGATE_RG_ABI_H

#include <linux/types.h>

#define RG_ABI_VERSION 3

/* Inlined into the datapath like its own helpers; unused ones cost nothing. */
#define RG_ABI_INLINE static inline __attribute__((__always_inline__))

/* ---- sizes ---------------------------------------------------------- */
#define RG_GENERATIONS      2
#define RG_MAX_RAILS        256          /* rail ids 0..255 */
#define RG_RAIL_UNKNOWN     RG_MAX_RAILS /* counter slot for unknown ingress */
#define RG_MAX_ZONES        16
#define RG_ZONE_MIN_PREFIX  8            /* a /8 zone expands to 65536 slots */
#define RG_TBL24_SLOTS      (1u << 20)   /* per generation: 16 /8 zones */
#define RG_TBL8_GROUPS      2048         /* per generation */
#define RG_TBL8_GROUP_SIZE  256
#define RG_MAX_IFINDEX      65536        /* rg_representors: per generation, by ifindex */
#define RG_MAX_UPLINKS      64
#define RG_LPM_MAX_ENTRIES  65536
#define RG_RAIL_NAME_LEN    32

/* ---- route entries (values of rg_tbl24, rg_tbl8, rg_lpm) ----------- */
/*
 * 32 bits: [31:28] kind, [27:0] argument.
 *   RG_ROUTE_NONE      no route in the table (pass: the pod's routes decide)
 *   RG_ROUTE_RAIL      argument = rail id of the destination rail
 *   RG_ROUTE_FRONTEND  front-end prefix: rewrite and redirect to the uplink
 *   RG_ROUTE_BLACKHOLE inside a supernet but in no rail: drop no_route
 *   RG_ROUTE_TBL8      (rg_tbl24 only) argument = tbl8 group index
 */
enum rg_route_kind {
	RG_ROUTE_NONE      = 0,
	RG_ROUTE_RAIL      = 1,
	RG_ROUTE_FRONTEND  = 2,
	RG_ROUTE_BLACKHOLE = 3,
	RG_ROUTE_TBL8      = 4,
};

/*
 * rg_tbl24 and rg_tbl8 hold RG_ROUTES_PER_ELEM route entries per map
 * element.  The kernel strides ARRAY elements at round_up(value_size, 8),
 * so one 4-byte entry per element would waste half of every cache line a
 * lookup pulls in: 64k /24s of a /8 would take 512 KiB instead of 256, and
 * at that size the table is where the time goes (cold caches).  With
 * pairs, element k holds entries 2k and 2k+1, and through an mmap the
 * table is a dense __u32 array: entry i at byte offset 4 * i.
 */
#define RG_ROUTES_PER_ELEM  2

struct rg_route_pair {
	__u32 entry[RG_ROUTES_PER_ELEM];
};

/* The map element that holds route entry index i, and i's place in it. */
#define RG_ROUTE_ELEM(i)    ((__u32)(i) / RG_ROUTES_PER_ELEM)
#define RG_ROUTE_IN_ELEM(i) ((__u32)(i) % RG_ROUTES_PER_ELEM)

#define RG_ROUTE_KIND_SHIFT 28
#define RG_ROUTE_ARG_MASK   0x0fffffffu
#define RG_ROUTE(kind, arg) \
	((((__u32)(kind)) << RG_ROUTE_KIND_SHIFT) | ((__u32)(arg) & RG_ROUTE_ARG_MASK))
#define RG_ROUTE_KIND(e)    ((__u32)(e) >> RG_ROUTE_KIND_SHIFT)
#define RG_ROUTE_ARG(e)     ((__u32)(e) & RG_ROUTE_ARG_MASK)

/* ---- counters --------------------------------------------------------- */
/*
 * One counter slot per (ingress rail, stat).  Verdicts first, then drop
 * reasons; rg_stat_name() below names them.
 */
enum rg_stat {
	/* verdicts: the frame went on */
	RG_VERDICT_PASS_LOCAL = 0,   /* destination in the ingress rail: NIC switches it */
	RG_VERDICT_PASS_OTHER,       /* destination in no table: the pod's own routes decide */
	RG_VERDICT_PASS_NOT_IPV4,    /* ARP, IPv6, LLDP, ...: not ours */
	RG_VERDICT_PASS_L2_MULTI,    /* L2 broadcast or multicast destination */
	RG_VERDICT_PASS_TAGGED,      /* frame arrived 802.1Q/802.1ad tagged: not ours */
	RG_VERDICT_PASS_UNKNOWN_IF,  /* ingress ifindex not a configured representor */
	RG_VERDICT_CROSS_RAIL,       /* rewritten and redirected to the uplink */
	RG_VERDICT_FRONTEND,         /* rewritten and redirected to the uplink */
	/* drop reasons: the frame died here, counted */
	RG_DROP_MALFORMED,           /* truncated or invalid IPv4 header, length lies */
	RG_DROP_NO_ROUTE,            /* inside a supernet, in no rail */
	RG_DROP_SPOOFED,             /* source outside the ingress rail's subnet */
	RG_DROP_TTL_EXCEEDED,        /* TTL would reach 0: the loop guard */
	RG_DROP_REDIRECT_FAILED,     /* redirect helper failed after the rewrite */
	RG_DROP_NO_EGRESS,           /* uplink or gateway MAC not known */
	RG_DROP_TOO_BIG,             /* larger than the uplink's MTU (DF: answered, see rg_side) */
	RG_STAT_MAX,
};

#define RG_STAT_FIRST_DROP RG_DROP_MALFORMED
#define RG_STAT_SLOTS      ((RG_MAX_RAILS + 1) * RG_STAT_MAX)
#define RG_STAT_INDEX(rail, stat) ((__u32)(rail) * RG_STAT_MAX + (__u32)(stat))

struct rg_counter {
	__u64 packets;
	__u64 bytes;
};

/* The verdicts that rewrite the frame and send it to the uplink. */
RG_ABI_INLINE int rg_stat_is_forward(__u32 stat)
{
	return stat == RG_VERDICT_CROSS_RAIL || stat == RG_VERDICT_FRONTEND;
}

/* The drop reasons: the frame dies here, counted; every other stat passes
 * or forwards it. */
RG_ABI_INLINE int rg_stat_is_drop(__u32 stat)
{
	return stat >= RG_STAT_FIRST_DROP && stat < RG_STAT_MAX;
}

/*
 * Side counters (rg_side_stats, per CPU, one slot each for the node):
 * things that happened to a frame beside its one verdict.  A frame counted
 * ttl_exceeded or too_big may also move icmp_sent (the answer went back to
 * the pod; bytes are the answer's) or icmp_ratelimited (it was due but over
 * the rate limit).  They never add up to a frame count of their own.
 */
enum rg_side {
	RG_SIDE_ICMP_SENT = 0,
	RG_SIDE_ICMP_RATELIMITED,
	RG_SIDE_MONITOR_EVENTS,      /* event copies written to a monitor's ring */
	RG_SIDE_MONITOR_RATELIMITED, /* events over the monitor's token bucket: not sent */
	RG_SIDE_MONITOR_LOST,        /* event copies that did not fit a monitor's ring */
	RG_SIDE_MAX,
};

/* As the CLI, the JSON output and the Prometheus metrics spell a side counter. */
RG_ABI_INLINE const char *rg_side_name(enum rg_side side)
{
	switch (side) {
	case RG_SIDE_ICMP_SENT:        return "icmp_sent";
	case RG_SIDE_ICMP_RATELIMITED: return "icmp_ratelimited";
	case RG_SIDE_MONITOR_EVENTS:   return "monitor_events";
	case RG_SIDE_MONITOR_RATELIMITED: return "monitor_ratelimited";
	case RG_SIDE_MONITOR_LOST:     return "monitor_lost";
	case RG_SIDE_MAX:              break;
	}
	return "unknown";
}

/*
 * What a route entry means for a frame from ingress_rail.  RG_RAIL_UNKNOWN
 * is no rail's id, so a rail's entry then reads as cross-rail: the answer
 * for every rail but the destination's own (`railgate lookup` without
 * --from says so).
 */
RG_ABI_INLINE __u32 rg_route_verdict(__u32 entry, __u32 ingress_rail)
{
	switch (RG_ROUTE_KIND(entry)) {
	case RG_ROUTE_RAIL:
		return RG_ROUTE_ARG(entry) == ingress_rail ? RG_VERDICT_PASS_LOCAL
							   : RG_VERDICT_CROSS_RAIL;
	case RG_ROUTE_FRONTEND:
		return RG_VERDICT_FRONTEND;
	case RG_ROUTE_BLACKHOLE:
		return RG_DROP_NO_ROUTE;
	default:
		/* NONE, or a TBL8 pointer where a leaf belongs: not ours. */
		return RG_VERDICT_PASS_OTHER;
	}
}

/*
 * The name of a stat as the CLI, the JSON output and the Prometheus labels
 * spell it.  Stable: users script against these.  No default case, so a
 * stat added without a name is a -Wswitch warning.
 */
RG_ABI_INLINE const char *rg_stat_name(enum rg_stat stat)
{
	switch (stat) {
	case RG_VERDICT_PASS_LOCAL:      return "pass_local";
	case RG_VERDICT_PASS_OTHER:      return "pass_other";
	case RG_VERDICT_PASS_NOT_IPV4:   return "pass_not_ipv4";
	case RG_VERDICT_PASS_L2_MULTI:   return "pass_l2_multicast";
	case RG_VERDICT_PASS_TAGGED:     return "pass_tagged";
	case RG_VERDICT_PASS_UNKNOWN_IF: return "pass_unknown_if";
	case RG_VERDICT_CROSS_RAIL:      return "cross_rail";
	case RG_VERDICT_FRONTEND:        return "frontend";
	case RG_DROP_MALFORMED:          return "malformed";
	case RG_DROP_NO_ROUTE:           return "no_route";
	case RG_DROP_SPOOFED:            return "spoofed";
	case RG_DROP_TTL_EXCEEDED:       return "ttl_exceeded";
	case RG_DROP_REDIRECT_FAILED:    return "redirect_failed";
	case RG_DROP_NO_EGRESS:          return "no_egress";
	case RG_DROP_TOO_BIG:            return "too_big";
	case RG_STAT_MAX:                break;
	}
	return "unknown";
}

/* ---- map values ------------------------------------------------------- */

/* ---- the drop monitor (`railgate monitor`) ------------------------------ */
/*
 * A monitor holds a lease: one of RG_MONITOR_SLOTS slots in rg_state, each
 * with its own ring buffer in rg_event_rings[slot] (a BPF ring buffer has
 * one consumer position, so two monitors on one ring would take each
 * other's events).  A monitor writes until_ns = now + RG_MONITOR_LEASE_NS
 * (CLOCK_MONOTONIC, what bpf_ktime_get_ns reads) and renews it every
 * RG_MONITOR_RENEW_NS; killed, its lease runs out and the datapath stops
 * writing to its ring.  Besides its slot it raises (never lowers) the
 * summary lease of its scope in rg_state: the one value every frame looks
 * at, 0 when nobody ever monitored or the datapath found it expired.
 */
#define RG_MONITOR_SLOTS     4
#define RG_MONITOR_LEASE_NS  (3 * RG_NSEC_PER_SEC)
#define RG_MONITOR_RENEW_NS  (1 * RG_NSEC_PER_SEC)
/* Per ring: 256 KiB = 5461 events of 48 bytes (40 + the ring's 8-byte
 * header): the node's whole burst (RG_MONITOR_BURST) twice, or a quarter
 * second at the full rate, for a reader that stalls on its terminal. */
#define RG_EVENTS_RING_BYTES (256 * 1024)
/* The node's event budget, shared by every monitor (one token bucket per
 * CPU, the node's rate and burst divided over the possible CPUs): at a few
 * hundred ns per event, a flood costs well under 1% of one CPU. */
#define RG_MONITOR_RATE      20000u      /* events per second, node */
#define RG_MONITOR_BURST     2000u
/* With an `all` lease, verdicts that are not drops are sampled 1 in this
 * many per CPU (drops are never sampled, only rate-limited). */
#define RG_MONITOR_SAMPLE    16u

enum rg_monitor_scope {
	RG_MONITOR_NONE = 0,
	RG_MONITOR_DROPS,            /* drop reasons only */
	RG_MONITOR_ALL,              /* every verdict (the non-drops sampled) */
};

struct rg_monitor_slot {
	__u64 until_ns;              /* the lease: live while > bpf_ktime_get_ns() */
	__u32 scope;                 /* enum rg_monitor_scope */
	__u32 owner_pid;             /* for people: who holds it */
};

/* rg_state[0]: which generation the datapath reads, and the monitor's leases. */
struct rg_state {
	__u32 active_gen;            /* 0 or 1; written last by a reload */
	__u32 abi_version;           /* RG_ABI_VERSION of the writer */
	__u64 config_generation;     /* increments on every successful apply */
	__u8  config_digest[32];     /* SHA-256 of the bytes the applied config was parsed from */
	/* Summary leases, in the cache line of active_gen: the monitor's whole
	 * cost to a frame while they are 0.  Raised by monitors; cleared by
	 * the datapath once expired. */
	__u64 monitor_drops_until_ns;
	__u64 monitor_all_until_ns;
	/* Read only for frames that may become an event. */
	__u32 monitor_cpu_rate;      /* events per second, per CPU */
	__u32 monitor_cpu_burst;     /* bucket size, per CPU */
	__u32 monitor_sample;        /* 1 in N of the non-drops (all scope); 0 counts as 1 */
	__u32 monitor_reserved;
	struct rg_monitor_slot monitor_slots[RG_MONITOR_SLOTS];
};

/* Which program saw the frame of an event. */
enum rg_hook {
	RG_HOOK_XDP = 0,
	RG_HOOK_TC,
};

RG_ABI_INLINE const char *rg_hook_name(__u32 hook)
{
	return hook == RG_HOOK_XDP ? "xdp" : hook == RG_HOOK_TC ? "tc" : "unknown";
}

#define RG_EVENT_F_IPV4      (1u << 0) /* saddr, daddr, protocol, ttl are the frame's */
#define RG_EVENT_F_L4        (1u << 1) /* sport/dport hold TCP/UDP ports or ICMP type/code */
#define RG_EVENT_F_ANSWERED  (1u << 2) /* an ICMP error went back to the pod */

/*
 * One event in a monitor's ring: a frame as the hook received it and what
 * became of it.  Addresses are in NETWORK order (copied from the header as
 * they lie); everything else host order.  For ICMP, sport is the type and
 * dport the code.  A frame that is not IPv4 or not parsed (pass_not_ipv4,
 * malformed, ...) has no RG_EVENT_F_IPV4 and zeros there.
 */
struct rg_event {
	__u64 time_ns;               /* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	__u32 ifindex;               /* ingress representor */
	__u16 rail_slot;             /* ingress rail id, RG_RAIL_UNKNOWN for unknown */
	__u8  stat;                  /* enum rg_stat: the verdict or drop reason counted */
	__u8  hook;                  /* enum rg_hook */
	__u32 saddr;                 /* network order */
	__u32 daddr;                 /* network order */
	__u32 len;                   /* the whole frame, as counted */
	__u16 sport;                 /* TCP/UDP source port; ICMP type */
	__u16 dport;                 /* TCP/UDP destination port; ICMP code */
	__u16 eth_proto;             /* the ethertype (0 when the frame has none) */
	__u8  protocol;              /* IPv4 protocol */
	__u8  ttl;                   /* as received */
	__u8  flags;                 /* RG_EVENT_F_* */
	__u8  reserved[3];
};

/* Token bucket and sampler of one CPU for the monitor's events. */
struct rg_monitor_bucket {
	__u64 last_ns;
	__u64 credit;                /* nanosecond-tokens, as rg_icmp_bucket */
	__u32 seen;                  /* non-drop frames seen for sampling */
	__u32 reserved;
};

/* One expansion zone.  net/mask host order; a zone matches when
 * (dst & mask) == net.  Its tbl24 slots are base .. base + span - 1. */
struct rg_zone {
	__u32 net;
	__u32 mask;
	__u32 base;                  /* first slot in this generation's tbl24 slice */
	__u32 span;                  /* number of slots (1 for zones longer than /24) */
};

/* The zones of one generation (in rg_generation). */
struct rg_zone_set {
	__u32 count;                 /* zones[0..count-1] are valid */
	__u32 use_lpm;               /* 1: consult rg_lpm when no zone matches */
	struct rg_zone zones[RG_MAX_ZONES];
};

/* rg_lpm key: the generation is the first byte, so each generation owns a
 * disjoint subtree: prefixlen = 8 + prefix length of the route. */
struct rg_lpm_key {
	__u32 prefixlen;
	__u8  gen;
	__u8  addr[4];               /* network order */
	__u8  pad[3];
};

#define RG_RAIL_F_VALID   (1u << 0)
#define RG_RAIL_F_VLAN    (1u << 1)

/* rg_rails[gen * RG_MAX_RAILS + rail_id] */
struct rg_rail {
	__u32 subnet;                /* host order */
	__u32 mask;                  /* host order */
	__u16 vlan;                  /* 802.1Q VID when RG_RAIL_F_VLAN */
	__u16 flags;                 /* RG_RAIL_F_* */
	__u32 mtu;                   /* 0: not checked */
	char  name[RG_RAIL_NAME_LEN];
};

#define RG_EGRESS_F_VALID      (1u << 0) /* uplink and gateway MAC known */
#define RG_EGRESS_F_ANTI_SPOOF (1u << 1)

/* Where cross-rail and front-end frames go (in rg_generation).  The two
 * MACs are in the order of the Ethernet header they replace (destination,
 * then source), 8-byte aligned: the rewrite copies them as one 8-byte and
 * one 4-byte store. */
struct rg_egress {
	__u32 uplink_ifindex;
	__u32 flags;                 /* RG_EGRESS_F_* */
	__u8  gateway_mac[6];        /* new destination MAC */
	__u8  uplink_mac[6];         /* new source MAC */
	__u32 gateway_ip;            /* host order; for status only */
	__u32 uplink_mtu;            /* IP MTU of the uplink; 0: not checked */
	__u32 reserved;
};

/*
 * The ICMP errors the datapath answers with (Time Exceeded, Fragmentation
 * Needed): their source, and the rate limit as per-CPU token buckets
 * (rg_icmp_buckets) whose rates and bursts add up to the node's.  A source
 * of 0 or a rate of 0 answers nothing.
 */
struct rg_icmp_conf {
	__u32 source;                /* host order: an address the node owns */
	__u32 cpu_rate;              /* answers per second, per CPU */
	__u32 cpu_burst;             /* bucket size, per CPU */
	__u32 reserved;
};

/* Token bucket of one CPU: credit in nanosecond-tokens (an answer costs
 * RG_NSEC_PER_SEC; a second refills cpu_rate of them). */
struct rg_icmp_bucket {
	__u64 last_ns;
	__u64 credit;
};

#define RG_NSEC_PER_SEC 1000000000ull
/* The most one refill adds: bounds elapsed * rate far below 2^64. */
#define RG_ICMP_REFILL_MAX_NS (10 * RG_NSEC_PER_SEC)
#define RG_ICMP_RATE_MAX  1000000u
#define RG_ICMP_BURST_MAX 1000000u

/*
 * rg_generation[gen]: everything a frame of generation gen reads besides
 * its own representor entry and the route tables, in one value, so that
 * the datapath finds it with one lookup that depends on nothing but gen.
 */
struct rg_generation {
	struct rg_egress   egress;
	struct rg_icmp_conf icmp;
	struct rg_zone_set zones;
};

/* Attach modes, as recorded in rg_representor.mode (for status). */
enum rg_attach_mode {
	RG_MODE_NONE = 0,
	RG_MODE_XDP,                 /* native XDP */
	RG_MODE_XDP_GENERIC,         /* skb-mode XDP: only when asked for */
	RG_MODE_TC,                  /* tc ingress through a tcx link (Linux >= 6.6) */
	RG_MODE_TC_CLSACT,           /* tc ingress as a clsact filter (no tcx: older kernels) */
};

/* As `status`, the metrics and the log spell a mode. */
RG_ABI_INLINE const char *rg_attach_mode_name(enum rg_attach_mode mode)
{
	switch (mode) {
	case RG_MODE_XDP:         return "xdp";
	case RG_MODE_XDP_GENERIC: return "xdp-generic";
	case RG_MODE_TC:          return "tc";
	case RG_MODE_TC_CLSACT:   return "tc-clsact";
	case RG_MODE_NONE:        break;
	}
	return "none";
}

#define RG_REP_F_VALID    (1u << 0)
#define RG_REP_F_VLAN     (1u << 1)  /* the rail tags frames to the uplink */

/*
 * rg_representors[gen * RG_MAX_IFINDEX + ifindex]: a VF representor and
 * what the datapath needs of its rail in generation gen (a copy of that
 * generation's rg_rails entry), so the ingress side costs one lookup.  An
 * ARRAY indexed by ifindex, not a hash: the lookup is inlined by the
 * verifier.  Interfaces whose ifindex is RG_MAX_IFINDEX or more are
 * refused by the loader with a clear error.  rg_rails stays the rails'
 * record for user space (names, MTU, status).
 */
struct rg_representor {
	__u32 subnet;                /* the rail's, host order: anti-spoof */
	__u32 mask;                  /* host order */
	__u16 rail_id;
	__u16 vlan;                  /* 802.1Q VID when RG_REP_F_VLAN */
	__u8  mode;                  /* enum rg_attach_mode, for status */
	__u8  flags;                 /* RG_REP_F_* */
	__u16 reserved;
};

/* ---- map keys ---------------------------------------------------------- */
/*
 * Where generation gen's entries sit in each per-generation map: the one
 * place the index is computed, for the datapath and map_set alike.
 * (rg_stats is indexed by RG_STAT_INDEX above.)
 */
RG_ABI_INLINE __u32 rg_rep_key(__u32 gen, __u32 ifindex)
{
	return gen * RG_MAX_IFINDEX + ifindex;
}

RG_ABI_INLINE __u32 rg_rail_key(__u32 gen, __u32 rail_id)
{
	return gen * RG_MAX_RAILS + rail_id;
}

RG_ABI_INLINE __u32 rg_tbl24_key(__u32 gen, __u32 slot)
{
	return gen * RG_TBL24_SLOTS + slot;
}

/* Entry octet (the destination's last byte) of tbl8 group group. */
RG_ABI_INLINE __u32 rg_tbl8_key(__u32 gen, __u32 group, __u32 octet)
{
	return (gen * RG_TBL8_GROUPS + group) * RG_TBL8_GROUP_SIZE + octet;
}

/* The generation byte leads the key: prefixlen counts it. */
#define RG_LPM_GEN_BITS 8

/* rg_lpm key of addr_be/len (network order) in generation gen. */
RG_ABI_INLINE struct rg_lpm_key rg_lpm_key_of(__u32 gen, __u32 addr_be, __u32 len)
{
	struct rg_lpm_key key = { .prefixlen = RG_LPM_GEN_BITS + len, .gen = (__u8)gen };

	__builtin_memcpy(key.addr, &addr_be, sizeof(key.addr));
	return key;
}

/* ---- map names (pinned under <pin dir>/v<ABI>/maps/<name>) -------------- */
#define RG_MAP_STATE        "rg_state"
#define RG_MAP_GENERATION   "rg_generation"
#define RG_MAP_TBL24        "rg_tbl24"
#define RG_MAP_TBL8         "rg_tbl8"
#define RG_MAP_LPM          "rg_lpm"
#define RG_MAP_RAILS        "rg_rails"
#define RG_MAP_REPRESENTORS "rg_representors"
#define RG_MAP_TX_PORTS     "rg_tx_ports"
#define RG_MAP_STATS        "rg_stats"
#define RG_MAP_SIDE_STATS   "rg_side_stats"
#define RG_MAP_ICMP_BUCKETS "rg_icmp_buckets"
#define RG_MAP_EVENT_RINGS  "rg_event_rings"
#define RG_MAP_MONITOR_BUCKETS "rg_monitor_buckets"

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(sizeof(struct rg_counter) == 16, "rg_counter layout");
_Static_assert(sizeof(struct rg_route_pair) == 8, "rg_route_pair: one kernel ARRAY stride, no padding");
_Static_assert(RG_TBL24_SLOTS % RG_ROUTES_PER_ELEM == 0 && RG_TBL8_GROUP_SIZE % RG_ROUTES_PER_ELEM == 0,
	       "a generation's slice starts at an element boundary");
_Static_assert(sizeof(struct rg_state) == 80 + 16 * RG_MONITOR_SLOTS, "rg_state layout");
_Static_assert(__builtin_offsetof(struct rg_state, monitor_all_until_ns) + 8 <= 64,
	       "the summary leases share active_gen's cache line");
_Static_assert(sizeof(struct rg_monitor_slot) == 16, "rg_monitor_slot layout");
_Static_assert(sizeof(struct rg_event) == 40, "rg_event layout");
_Static_assert(sizeof(struct rg_monitor_bucket) == 24, "rg_monitor_bucket layout");
_Static_assert(sizeof(struct rg_zone) == 16, "rg_zone layout");
_Static_assert(sizeof(struct rg_zone_set) == 8 + 16 * RG_MAX_ZONES, "rg_zone_set layout");
_Static_assert(sizeof(struct rg_lpm_key) == 12, "rg_lpm_key layout");
_Static_assert(sizeof(struct rg_rail) == 16 + RG_RAIL_NAME_LEN, "rg_rail layout");
_Static_assert(sizeof(struct rg_egress) == 32, "rg_egress layout");
_Static_assert(sizeof(struct rg_icmp_conf) == 16, "rg_icmp_conf layout");
_Static_assert(sizeof(struct rg_icmp_bucket) == 16, "rg_icmp_bucket layout");
_Static_assert(__builtin_offsetof(struct rg_egress, gateway_mac) == 8 &&
	       __builtin_offsetof(struct rg_egress, uplink_mac) == 14,
	       "rg_egress MACs: one Ethernet address pair at an 8-byte boundary");
_Static_assert(sizeof(struct rg_generation) == 32 + 16 + sizeof(struct rg_zone_set),
	       "rg_generation layout");
_Static_assert(sizeof(struct rg_representor) == 16, "rg_representor layout");
_Static_assert(RG_STAT_MAX <= 32, "rg_stat fits the counter stride");
#endif

#endif /* RAILGATE_RG_ABI_H */
