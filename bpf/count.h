/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The one accounting point of a frame: packets and bytes into
 * rg_stats[RG_STAT_INDEX(ingress rail, stat)].  Per-CPU, so plain adds.
 */
#ifndef RAILGATE_BPF_COUNT_H
#define RAILGATE_BPF_COUNT_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "maps/rg_abi.h"
#include "bpf/maps.h"

static __always_inline void rg_count(__u32 rail_slot, __u32 stat, __u32 bytes)
{
	__u32 key = RG_STAT_INDEX(rail_slot, stat);
	struct rg_counter *c = bpf_map_lookup_elem(&rg_stats, &key);

	if (c) {
		c->packets++;
		c->bytes += bytes;
	}
}

#endif /* RAILGATE_BPF_COUNT_H */
