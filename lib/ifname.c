// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Interface names for messages (lib/ifname.h). */
#include <stdio.h>

#include "lib/ifname.h"

const char *rg_ifname_str(int ifindex, char buf[IF_NAMESIZE])
{
	if (ifindex <= 0 || !if_indextoname((unsigned)ifindex, buf))
		snprintf(buf, IF_NAMESIZE, "if%d", ifindex);
	return buf;
}
