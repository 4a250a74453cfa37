// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* railgate run: the node daemon (issue 7).  Not built yet: say so plainly
 * instead of pretending. */
#include <stdio.h>

#include "commands.h"

int rg_cmd_run(const struct rg_global_opts *g, int argc, char **argv)
{
	(void)g; (void)argc; (void)argv;
	fprintf(stderr, "railgate run: the node daemon is not implemented in this version; "
		"use `railgate up -c FILE` (it pins everything and keeps running after it exits)\n");
	return RG_EXIT_FAIL;
}
