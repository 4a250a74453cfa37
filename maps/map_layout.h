/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The map layer's own (maps/map_*.c, nobody else): the byte sizes of the
 * mmap()ed maps and where a representor entry sits in its mmap.
 */
#ifndef RAILGATE_MAP_LAYOUT_H
#define RAILGATE_MAP_LAYOUT_H

#include "maps/map_set.h"

/* Byte sizes of the mmap()ed maps: value size * max_entries. */
#define RG_STATE_BYTES  sizeof(struct rg_state)
#define RG_TBL24_BYTES  ((size_t)RG_GENERATIONS * RG_TBL24_SLOTS * sizeof(uint32_t))
#define RG_TBL8_BYTES   ((size_t)RG_GENERATIONS * RG_TBL8_GROUPS * RG_TBL8_GROUP_SIZE * \
			 sizeof(uint32_t))
/* rg_representor is 16 bytes, a multiple of 8: the mmap is a plain array. */
#define RG_REPS_BYTES   ((size_t)RG_GENERATIONS * RG_MAX_IFINDEX * sizeof(struct rg_representor))
_Static_assert(sizeof(struct rg_representor) % 8 == 0, "rg_representors mmap stride");

static inline struct rg_representor *rep_slot(const struct rg_map_set *ms, unsigned gen,
					      uint32_t ifindex)
{
	return &ms->reps[rg_rep_key(gen, ifindex)];
}

#endif /* RAILGATE_MAP_LAYOUT_H */
