// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The names of the pins; see pins.h. */
#include <stdio.h>
#include <string.h>

#include "maps/pins.h"

static const char *const prog_pin_names[RG_PROG_COUNT] = { "xdp", "tc" };

const char *rg_prog_pin_name(enum rg_prog_id id)
{
	return prog_pin_names[id];
}

int rg_pin_version_of(const char *name)
{
	int ver;
	char tail;

	return sscanf(name, "v%d%c", &ver, &tail) == 1 && ver > 0 ? ver : 0;
}

enum rg_attach_mode rg_link_pin_name_parse(const char *name, int *ifindex)
{
	char mode[32];

	if (sscanf(name, "if%d-%31s", ifindex, mode) != 2)
		return RG_MODE_NONE;
	for (int m = RG_MODE_XDP; m <= RG_MODE_TC; m++)
		if (strcmp(mode, rg_attach_mode_name(m)) == 0)
			return m;
	return RG_MODE_NONE;
}
