/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Text for what railgate says about the node's network, in every message,
 * log line and table: IPv4 addresses and prefixes (rg_ip_str, rg_cidr_str:
 * maps/ipfmt.h, included here), MACs, and interface names.  One format per
 * fact, so a log line and `status` spell the same interface the same way.
 * The strict parsers for the same facts are in config.h (rg_ipv4_parse...).
 */
#ifndef RAILGATE_NETFMT_H
#define RAILGATE_NETFMT_H

#include <stdint.h>
#include <net/if.h>

#include "lib/ipfmt.h"

#define RG_MAC_STR_LEN 18            /* "02:00:00:00:00:01" + NUL */

/* Lower-case hex, colons. */
const char *rg_mac_str(const uint8_t mac[6], char buf[RG_MAC_STR_LEN]);

/* The name of ifindex in the caller's network namespace, or "if<N>" when
 * there is none (the device is gone): a message always names something. */
const char *rg_ifname_str(int ifindex, char buf[IF_NAMESIZE]);

#endif
