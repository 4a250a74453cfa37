/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The tests' one reference for the forwarding table: a plain longest-
 * prefix match by linear scan over the route list.  Written apart from
 * maps/fib.c and the datapath on purpose (none of their code is called):
 * it is what both are checked against.
 */
#ifndef RAILGATE_TESTS_REF_LPM_H
#define RAILGATE_TESTS_REF_LPM_H

#include <stddef.h>
#include <stdint.h>

#include "maps/fib.h"

/* The netmask of a /len, host order. */
uint32_t rg_ref_mask(uint8_t len);

/* The entry of the longest prefix in routes[0..n-1] holding dst (host
 * order), RG_ROUTE_NONE when none does. */
uint32_t rg_ref_lpm_lookup(const struct rg_route *routes, size_t n, uint32_t dst);

#endif
