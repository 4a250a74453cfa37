// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The names of the config's enum values (loader/config/model.h). */
#include <errno.h>
#include <string.h>

#include "loader/config/model.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const mode_names[] = {
	[RG_CONFIG_MODE_AUTO]        = "auto",
	[RG_CONFIG_MODE_XDP]         = "xdp",
	[RG_CONFIG_MODE_XDP_GENERIC] = "xdp-generic",
	[RG_CONFIG_MODE_TC]          = "tc",
};

const char *rg_config_mode_name(enum rg_config_mode mode)
{
	if ((unsigned)mode >= ARRAY_SIZE(mode_names))
		return "unknown";
	return mode_names[mode];
}

int rg_config_mode_parse(const char *s, enum rg_config_mode *out)
{
	for (size_t i = 0; s && i < ARRAY_SIZE(mode_names); i++) {
		if (!strcmp(s, mode_names[i])) {
			*out = (enum rg_config_mode)i;
			return 0;
		}
	}
	return -EINVAL;
}

static const char *const tc_attach_names[] = {
	[RG_CONFIG_TC_ATTACH_AUTO]   = "auto",
	[RG_CONFIG_TC_ATTACH_TCX]    = "tcx",
	[RG_CONFIG_TC_ATTACH_CLSACT] = "clsact",
};

const char *rg_config_tc_attach_name(enum rg_config_tc_attach a)
{
	if ((unsigned)a >= ARRAY_SIZE(tc_attach_names))
		return "unknown";
	return tc_attach_names[a];
}

int rg_config_tc_attach_parse(const char *s, enum rg_config_tc_attach *out)
{
	for (size_t i = 0; s && i < ARRAY_SIZE(tc_attach_names); i++) {
		if (!strcmp(s, tc_attach_names[i])) {
			*out = (enum rg_config_tc_attach)i;
			return 0;
		}
	}
	return -EINVAL;
}
