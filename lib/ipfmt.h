/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Dotted-quad text for host-order IPv4 addresses and prefixes, for every
 * message and table railgate prints. */
#ifndef RAILGATE_IPFMT_H
#define RAILGATE_IPFMT_H

#include <stdint.h>

#define RG_IP_STR_LEN   16           /* "255.255.255.255" + NUL */
#define RG_CIDR_STR_LEN 19           /* "255.255.255.255/32" + NUL */

const char *rg_ip_str(uint32_t host, char buf[RG_IP_STR_LEN]);
const char *rg_cidr_str(uint32_t host, unsigned len, char buf[RG_CIDR_STR_LEN]);

#endif
