/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Interface names in messages: one spelling of a device, so that a log
 * line and `status` name the same interface the same way.  Apart from the
 * address modules because it asks the kernel (if_indextoname), where
 * lib/addr.h and lib/mac.h are pure text.
 */
#ifndef RAILGATE_IFNAME_H
#define RAILGATE_IFNAME_H

#include <net/if.h>

/* The name of ifindex in the caller's network namespace, or "if<N>" when
 * there is none (the device is gone): a message always names something. */
const char *rg_ifname_str(int ifindex, char buf[IF_NAMESIZE]);

#endif /* RAILGATE_IFNAME_H */
