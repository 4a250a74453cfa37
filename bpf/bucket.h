/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The per-CPU token bucket that rate-limits the ICMP answers (icmp.h) and
 * the monitor's events (monitor.h): credit in nanosecond-tokens (a token
 * costs RG_NSEC_PER_SEC, a second refills rate of them), the elapsed time
 * capped so that the refill cannot overflow.
 */
#ifndef RAILGATE_BPF_BUCKET_H
#define RAILGATE_BPF_BUCKET_H

#include <linux/types.h>

#include "maps/rg_abi.h"

/* Take one token at now (ns); 1 if there was one. */
static __always_inline int rg_bucket_take(__u64 *last_ns, __u64 *credit, __u32 rate,
					  __u32 burst, __u64 now)
{
	__u64 elapsed = now - *last_ns, c, cap;

	if (elapsed > RG_ICMP_REFILL_MAX_NS)
		elapsed = RG_ICMP_REFILL_MAX_NS;
	cap = (__u64)burst * RG_NSEC_PER_SEC;
	c = *credit + elapsed * rate;
	if (c > cap)
		c = cap;
	*last_ns = now;
	if (c < RG_NSEC_PER_SEC) {
		*credit = c;
		return 0;
	}
	*credit = c - RG_NSEC_PER_SEC;
	return 1;
}

#endif /* RAILGATE_BPF_BUCKET_H */
