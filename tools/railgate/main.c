// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * railgate: the one command an operator runs on a node.  This file only
 * parses the options before the command name and dispatches; the command
 * list is commands.c, each command lives in its own cmd_*.c.  Exit codes:
 * 0 ok, 1 failure, 2 usage.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/railgate/commands.h"
#include "tools/railgate/cli.h"
#include "tools/railgate/version.h"

int main(int argc, char **argv)
{
	struct rg_global_opts g = { .pin_dir = getenv("RAILGATE_PIN_DIR") };
	struct rg_main_args own = { 0 };
	const struct rg_command *cmd;
	enum rg_opts_result r;
	int i;

	if (!g.pin_dir || !*g.pin_dir)
		g.pin_dir = RG_DEFAULT_PIN_DIR;
	/* the completion's question, no command of the list */
	if (argc > 1 && !strcmp(argv[1], "__complete"))
		return rg_complete(argc - 1, argv + 1);
	r = rg_opts_parse(&rg_main_opts, cli_global_options, &g, argc, argv, &own, &i);
	if (r != RG_OPTS_RUN)
		return rg_opts_exit(r);
	if (own.version) {
		rg_version_print(stdout);
		return RG_EXIT_OK;
	}
	if (i >= argc) {
		rg_opts_help(stderr, &rg_main_opts, cli_global_options);
		return RG_EXIT_USAGE;
	}
	cmd = rg_command_find(argv[i]);
	if (cmd)
		return cmd->fn(&g, argc - i, argv + i);
	fprintf(stderr, "railgate: unknown command '%s'\n", argv[i]);
	rg_opts_help(stderr, &rg_main_opts, cli_global_options);
	return RG_EXIT_USAGE;
}
