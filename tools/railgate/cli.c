// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <arpa/inet.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>

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

int cli_open_datapath(const char *pin_dir, struct rg_datapath *dp, char *err, size_t err_len)
{
	return rg_datapath_open_readonly(dp, pin_dir, err, err_len);
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

const struct rg_opt cli_global_options[] = {
	{ .name = "pin-dir", .arg = "DIR", .kind = RG_OPT_STRING,
	  .offset = offsetof(struct rg_global_opts, pin_dir), .complete = RG_COMPLETE_DIR,
	  .help = "the pin directory (default " RG_DEFAULT_PIN_DIR ";\n"
		  "$RAILGATE_PIN_DIR overrides)" },
	{ 0 },
};

enum rg_opts_result cli_parse(const struct rg_cmd_opts *cmd, struct rg_global_opts *g, int argc,
			      char **argv, void *args, int *first_arg)
{
	return rg_opts_parse(cmd, cli_global_options, g, argc, argv, args, first_arg);
}

int cli_open_running(const struct rg_global_opts *g, struct rg_datapath *dp, const char *cmd)
{
	char err[512];
	int ret = cli_open_datapath(g->pin_dir, dp, err, sizeof(err));

	if (ret)
		fprintf(stderr, "railgate %s: %s\n", cmd, err);
	return ret;
}

void cli_print_json(struct json_object *o)
{
	printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}
