// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The reference LPM; see ref_lpm.h. */
#include "tests/lib/ref_lpm.h"

uint32_t rg_ref_mask(uint8_t len)
{
	return len ? ~0u << (32 - len) : 0;
}

uint32_t rg_ref_lpm_lookup(const struct rg_route *routes, size_t n, uint32_t dst)
{
	uint32_t entry = RG_ROUTE(RG_ROUTE_NONE, 0);
	int best = -1;

	for (size_t i = 0; i < n; i++) {
		if ((dst & rg_ref_mask(routes[i].len)) == routes[i].addr && routes[i].len > best) {
			best = routes[i].len;
			entry = routes[i].entry;
		}
	}
	return entry;
}
