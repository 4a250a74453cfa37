// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <arpa/inet.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <unistd.h>

#include "tools/railgate/cli.h"
#include "loader/datapath/datapath.h"

unsigned cli_mask_len(uint32_t mask)
{
	return (unsigned)__builtin_popcount(mask);
}

int cli_load_config(const char *path, struct rg_config *cfg)
{
	struct rg_diags diags = { 0 };
	int ret = rg_config_load(path, cfg, &diags);

	for (size_t i = 0; i < diags.count; i++)
		fprintf(stderr, "%s\n", diags.msgs[i]);
	if (ret && rg_diags_errors(&diags) > 1)
		fprintf(stderr, "%zu errors; nothing was changed\n", rg_diags_errors(&diags));
	rg_diags_free(&diags);
	return ret;
}

const char *cli_route_desc(uint32_t entry, const struct rg_rail rails[RG_MAX_RAILS],
			   char *buf, size_t n)
{
	switch (RG_ROUTE_KIND(entry)) {
	case RG_ROUTE_RAIL: {
		uint32_t id = RG_ROUTE_ARG(entry);

		if (id < RG_MAX_RAILS && (rails[id].flags & RG_RAIL_F_VALID))
			snprintf(buf, n, "rail %s", rails[id].name);
		else
			snprintf(buf, n, "rail #%u", id);
		break;
	}
	case RG_ROUTE_FRONTEND:
		snprintf(buf, n, "frontend");
		break;
	case RG_ROUTE_BLACKHOLE:
		snprintf(buf, n, "drop no_route");
		break;
	default:
		snprintf(buf, n, "pass");
	}
	return buf;
}

int cli_open_datapath(const char *pin_dir, struct rg_datapath *dp, char *err, size_t n)
{
	return rg_datapath_open_readonly(dp, pin_dir, err, n);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "railgate %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(railgate %s --help for usage)\n", cmd);
	return 2;
}
