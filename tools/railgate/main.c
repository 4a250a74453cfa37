// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * railgate: the one command an operator runs on a node.  This file only
 * parses the global options and dispatches; each subcommand lives in its
 * own cmd_*.c.  Exit codes: 0 ok, 1 failure, 2 usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: railgate [--pin-dir DIR] COMMAND [ARGS]\n"
"\n"
"  check  -c FILE                 validate a config and print the compiled table\n"
"  up     -c FILE [--mode M]      load, fill the maps, attach, pin; again to reload\n"
"  down                           detach everything and remove the pins\n"
"  status [--json]                mode, attached interfaces, gateway MAC, config digest\n"
"  stats  [--json] [--watch SECS [--count N]]  packets and bytes per rail and verdict\n"
"  lookup IP [--from IFNAME] [--json]  the verdict the live datapath gives\n"
"  run    -c FILE [--metrics ADDR:PORT] [--keep] [--node-name NAME]\n"
"         [--log-format plain|json] [--check-args]   the node daemon\n"
"  route  add|del|check --netns NAME|--pid PID ...  put the supernet routes into a pod\n"
"  probe  --netns NAME|--pid PID [--to IP...] [--count N] [--json]\n"
"                                 loss and RTT from each rail of a pod, where frames died\n"
"  doctor [--netns NAME | --pid PID | --all-pods] [--json]\n"
"                                 which failure scenario breaks this node or a pod\n"
"\n"
"The pin directory defaults to %s ($RAILGATE_PIN_DIR overrides).\n",
		RG_DEFAULT_PIN_DIR);
}

struct rg_command {
	const char *name;
	int (*fn)(const struct rg_global_opts *g, int argc, char **argv);
};

static int cmd_route_adapter(const struct rg_global_opts *g, int argc, char **argv)
{
	(void)g;
	return rg_cmd_route(argc, argv);
}

static const struct rg_command commands[] = {
	{ "check",  rg_cmd_check },
	{ "up",     rg_cmd_up },
	{ "down",   rg_cmd_down },
	{ "status", rg_cmd_status },
	{ "stats",  rg_cmd_stats },
	{ "lookup", rg_cmd_lookup },
	{ "run",    rg_cmd_run },
	{ "route",  cmd_route_adapter },
	{ "probe",  rg_cmd_probe },
	{ "doctor", rg_cmd_doctor },
};

int main(int argc, char **argv)
{
	struct rg_global_opts g = { .pin_dir = getenv("RAILGATE_PIN_DIR") };
	int i = 1;

	if (!g.pin_dir || !*g.pin_dir)
		g.pin_dir = RG_DEFAULT_PIN_DIR;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--pin-dir") && i + 1 < argc) {
			g.pin_dir = argv[++i];
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return RG_EXIT_OK;
		} else {
			fprintf(stderr, "railgate: unknown option %s\n", argv[i]);
			usage(stderr);
			return RG_EXIT_USAGE;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return RG_EXIT_USAGE;
	}
	for (size_t c = 0; c < sizeof(commands) / sizeof(commands[0]); c++)
		if (!strcmp(argv[i], commands[c].name))
			return commands[c].fn(&g, argc - i, argv + i);
	fprintf(stderr, "railgate: unknown command '%s'\n", argv[i]);
	usage(stderr);
	return RG_EXIT_USAGE;
}
