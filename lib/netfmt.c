// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <stdio.h>

#include "lib/netfmt.h"

const char *rg_mac_str(const uint8_t m[6], char buf[RG_MAC_STR_LEN])
{
	snprintf(buf, RG_MAC_STR_LEN, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3],
		 m[4], m[5]);
	return buf;
}

const char *rg_ifname_str(int ifindex, char buf[IF_NAMESIZE])
{
	if (ifindex <= 0 || !if_indextoname((unsigned)ifindex, buf))
		snprintf(buf, IF_NAMESIZE, "if%d", ifindex);
	return buf;
}
