/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * An IPv4 prefix in host order and the arithmetic on it, pure and
 * inline.  It sits in maps/, below the config: the FIB compiler speaks in
 * prefixes without knowing what a config is, and the config, the plan and
 * the tools build on the same type.
 */
#ifndef RAILGATE_PREFIX_H
#define RAILGATE_PREFIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rg_cidr {
	uint32_t addr;               /* host order, host bits zero */
	uint8_t  len;                /* 0..32 */
};

/* The netmask of a /len; /0 is 0 (a shift by 32 would be undefined). */
static inline uint32_t rg_prefix_mask(uint8_t len)
{
	return len ? ~0u << (32 - len) : 0;
}

static inline bool rg_cidr_contains(struct rg_cidr outer, uint32_t addr)
{
	return (addr & rg_prefix_mask(outer.len)) == outer.addr;
}

static inline bool rg_cidr_covers(struct rg_cidr outer, struct rg_cidr inner)
{
	return inner.len >= outer.len && rg_cidr_contains(outer, inner.addr);
}

/* Whether any prefix of set[0..n) holds addr. */
static inline bool rg_cidr_set_contains(const struct rg_cidr *set, size_t n, uint32_t addr)
{
	for (size_t i = 0; i < n; i++)
		if (rg_cidr_contains(set[i], addr))
			return true;
	return false;
}

/* Prefixes are nested or disjoint: two overlap when one covers the other. */
static inline bool rg_cidr_overlaps(struct rg_cidr a, struct rg_cidr b)
{
	return rg_cidr_covers(a, b) || rg_cidr_covers(b, a);
}

#endif /* RAILGATE_PREFIX_H */
