/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Ethernet MACs: the strict parser a config and the CLI read them with,
 * and the one text every message, log line and table prints.  Apart from
 * lib/addr.h: a MAC is a link-layer fact, the same whatever IP family
 * joins addr.h.
 */
#ifndef RAILGATE_MAC_H
#define RAILGATE_MAC_H

#include <stdint.h>

#define RG_MAC_STR_LEN 18            /* "02:00:00:00:00:01" + NUL */

/* "0c:42:a1:00:00:01": six pairs of hex digits (either case), colons,
 * nothing else; 0, or -EINVAL (mac untouched). */
int rg_mac_parse(const char *s, uint8_t mac[6]);

/* Lower-case hex, colons. */
const char *rg_mac_str(const uint8_t mac[6], char buf[RG_MAC_STR_LEN]);

#endif /* RAILGATE_MAC_H */
