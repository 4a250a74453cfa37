// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * railgate: the one command an operator runs on a node.  This file only
 * parses the global options and dispatches; each subcommand lives in its
 * own cmd_*.c.  Exit codes: 0 ok, 1 failure, 2 usage.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/railgate/commands.h"
#include "tools/railgate/version.h"

struct rg_command {
	const char *name;
	const char *summary;         /* one line: the usage list, `help`, the man page's NAME */
	int (*fn)(const struct rg_global_opts *g, int argc, char **argv);
};

static int cmd_route_adapter(const struct rg_global_opts *g, int argc, char **argv)
{
	(void)g;
	return rg_cmd_route(argc, argv);
}

static int cmd_help(const struct rg_global_opts *g, int argc, char **argv);

static const struct rg_command commands[] = {
	{ "check",  "validate a config and print the compiled table", rg_cmd_check },
	{ "up",     "load, fill the maps, attach, pin; again to reload hitlessly", rg_cmd_up },
	{ "down",   "detach everything and remove the pins", rg_cmd_down },
	{ "status", "mode, attached interfaces, gateway MAC, config digest", rg_cmd_status },
	{ "stats",  "packets and bytes per rail and verdict", rg_cmd_stats },
	{ "lookup", "the verdict the live datapath gives an address, and why", rg_cmd_lookup },
	{ "monitor", "the datapath's drops (or every verdict) as they happen", rg_cmd_monitor },
	{ "run",    "the node daemon (the DaemonSet's entry point)", rg_cmd_run },
	{ "route",  "put the supernet routes into a pod", cmd_route_adapter },
	{ "probe",  "loss and RTT from each rail of a pod, and where lost frames died", rg_cmd_probe },
	{ "doctor", "which failure scenario breaks this node or a pod, and the fix", rg_cmd_doctor },
	{ "install-cni", "copy railgate-cni into a CNI bin directory, atomically", rg_cmd_install_cni },
	{ "help",   "this text, or a command's (help COMMAND)", cmd_help },
};
#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	fprintf(f,
"usage: railgate [--pin-dir DIR] COMMAND [ARGS]\n"
"       railgate --version\n"
"\n"
"The eBPF datapath that sends cross-rail traffic of SR-IOV GPU pods to the\n"
"computenet uplink.\n"
"\n"
"Commands:\n");
	for (size_t c = 0; c < N_COMMANDS; c++)
		fprintf(f, "  %-11s %s\n", commands[c].name, commands[c].summary);
	fprintf(f,
"\n"
"Options:\n"
"  --pin-dir DIR  the pin directory (default %s; $RAILGATE_PIN_DIR overrides)\n"
"  --version      the version, git commit and map ABI of this build\n"
"  -h, --help     this text; `railgate COMMAND --help` shows a command's options\n"
"\n"
"Exit status: 0 ok, 1 failure, 2 usage.\n",
		RG_DEFAULT_PIN_DIR);
}

static const struct rg_command *find_command(const char *name)
{
	for (size_t c = 0; c < N_COMMANDS; c++)
		if (!strcmp(name, commands[c].name))
			return &commands[c];
	return NULL;
}

/*
 * help: the usage; help COMMAND: that command's --help; help --summary
 * COMMAND: its one line (what the man pages are named with, so the summary
 * is written once, here).
 */
static int cmd_help(const struct rg_global_opts *g, int argc, char **argv)
{
	bool summary = argc == 3 && !strcmp(argv[1], "--summary");
	const struct rg_command *c;
	char *help_argv[] = { NULL, "--help", NULL };

	if (argc == 1 || (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))) {
		usage(stdout);
		return RG_EXIT_OK;
	}
	if (argc > 3 || (argc == 3 && !summary)) {
		fprintf(stderr, "usage: railgate help [--summary] [COMMAND]\n");
		return RG_EXIT_USAGE;
	}
	c = find_command(argv[argc - 1]);
	if (!c) {
		fprintf(stderr, "railgate help: unknown command '%s'\n", argv[argc - 1]);
		return RG_EXIT_USAGE;
	}
	if (summary) {
		printf("%s\n", c->summary);
		return RG_EXIT_OK;
	}
	if (c->fn == cmd_help) {
		usage(stdout);
		return RG_EXIT_OK;
	}
	help_argv[0] = (char *)c->name;
	return c->fn(g, 2, help_argv);
}

int main(int argc, char **argv)
{
	struct rg_global_opts g = { .pin_dir = getenv("RAILGATE_PIN_DIR") };
	const struct rg_command *cmd;
	int i = 1;

	if (!g.pin_dir || !*g.pin_dir)
		g.pin_dir = RG_DEFAULT_PIN_DIR;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--pin-dir") && i + 1 < argc) {
			g.pin_dir = argv[++i];
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return RG_EXIT_OK;
		} else if (!strcmp(argv[i], "--version")) {
			rg_version_print(stdout);
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
	cmd = find_command(argv[i]);
	if (cmd)
		return cmd->fn(&g, argc - i, argv + i);
	fprintf(stderr, "railgate: unknown command '%s'\n", argv[i]);
	usage(stderr);
	return RG_EXIT_USAGE;
}
