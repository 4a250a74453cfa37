// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <stdio.h>

#include "lib/ipfmt.h"

const char *rg_ip_str(uint32_t host, char buf[RG_IP_STR_LEN])
{
	snprintf(buf, RG_IP_STR_LEN, "%u.%u.%u.%u", host >> 24, (host >> 16) & 0xff,
		 (host >> 8) & 0xff, host & 0xff);
	return buf;
}

const char *rg_cidr_str(uint32_t host, unsigned len, char buf[RG_CIDR_STR_LEN])
{
	char ip[RG_IP_STR_LEN];

	snprintf(buf, RG_CIDR_STR_LEN, "%s/%u", rg_ip_str(host, ip), len);
	return buf;
}
