/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The forwarding table compiler: a list of prefixes with their route entry
 * (maps/rg_abi.h, RG_ROUTE(...)) becomes the zone set, the tbl24 and tbl8
 * arrays and the LPM fallback list that the datapath reads.  The result
 * answers exactly what a longest-prefix match over the list would.
 *
 * Pure computation: nothing here touches the kernel (fib_apply does).
 */
#ifndef RAILGATE_FIB_H
#define RAILGATE_FIB_H

#include <stddef.h>
#include <stdint.h>

#include "maps/rg_abi.h"

struct rg_route {
	uint32_t addr;               /* host order, host bits zero */
	uint8_t  len;                /* 0..32 */
	uint32_t entry;              /* RG_ROUTE(kind, arg); never RG_ROUTE_TBL8 */
};

struct rg_fib_lpm_entry {
	uint32_t addr;               /* host order */
	uint8_t  len;
	uint32_t entry;
};

struct rg_fib_image {
	struct rg_zone_set zones;
	uint32_t *tbl24;             /* RG_TBL24_SLOTS entries, tbl24_used filled */
	uint32_t  tbl24_used;
	uint32_t *tbl8;              /* RG_TBL8_GROUPS * 256 entries */
	uint32_t  tbl8_groups_used;
	struct rg_fib_lpm_entry *lpm;/* routes that did not expand */
	size_t    lpm_count;
};

/*
 * Compile routes[0..n-1].  Duplicated prefixes are an error.  Returns 0, or
 * -EINVAL / -E2BIG / -ENOMEM with a human message in err.
 */
int rg_fib_compile(const struct rg_route *routes, size_t n,
		   struct rg_fib_image *img, char *err, size_t err_len);
void rg_fib_image_free(struct rg_fib_image *img);

/* The datapath's lookup algorithm over an image, in C (for `check`,
 * `lookup` and the tests).  Returns the route entry, RG_ROUTE_NONE on miss. */
uint32_t rg_fib_image_lookup(const struct rg_fib_image *img, uint32_t dst);

/*
 * What the tables decide for a frame to dst from ingress_rail
 * (RG_RAIL_UNKNOWN: from no rail in particular, so a rail's destination
 * reads cross_rail): rg_route_verdict of the lookup, the answer of
 * `railgate lookup`.  *entry (unless NULL) gets the route entry.
 */
uint32_t rg_fib_image_verdict(const struct rg_fib_image *img, uint32_t dst,
			      uint32_t ingress_rail, uint32_t *entry);

#endif /* RAILGATE_FIB_H */
