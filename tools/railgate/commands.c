// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The command list (what `railgate help`, the man pages and the completion
 * name) and railgate's own options, the ones before the command name.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tools/railgate/commands.h"
#include "tools/railgate/cli.h"

static int cmd_help(struct rg_global_opts *g, int argc, char **argv);

const struct rg_command rg_commands[] = {
	{ "check",  "validate a config and print the compiled table", rg_cmd_check, &rg_check_opts },
	{ "up",     "load, fill the maps, attach, pin; again to reload hitlessly", rg_cmd_up, &rg_up_opts },
	{ "down",   "detach everything and remove the pins", rg_cmd_down, &rg_down_opts },
	{ "status", "mode, attached interfaces, gateway MAC, config digest", rg_cmd_status, &rg_status_opts },
	{ "stats",  "packets and bytes per rail and verdict", rg_cmd_stats, &rg_stats_opts },
	{ "lookup", "the verdict the live datapath gives an address, and why", rg_cmd_lookup, &rg_lookup_opts },
	{ "monitor", "the datapath's drops (or every verdict) as they happen", rg_cmd_monitor, &rg_monitor_opts },
	{ "run",    "the node daemon (the DaemonSet's entry point)", rg_cmd_run, &rg_run_opts },
	{ "route",  "put the supernet routes into a pod", rg_cmd_route, &rg_route_opts },
	{ "probe",  "loss and RTT from each rail of a pod, and where lost frames died", rg_cmd_probe, &rg_probe_opts },
	{ "doctor", "which failure scenario breaks this node or a pod, and the fix", rg_cmd_doctor, &rg_doctor_opts },
	{ "install-cni", "copy railgate-cni into a CNI bin directory, atomically", rg_cmd_install_cni, &rg_install_cni_opts },
	{ "help",   "this text, or a command's (help COMMAND)", cmd_help, NULL },
};
const size_t rg_n_commands = sizeof(rg_commands) / sizeof(rg_commands[0]);

const struct rg_command *rg_command_find(const char *name)
{
	for (size_t c = 0; c < rg_n_commands; c++)
		if (!strcmp(name, rg_commands[c].name))
			return &rg_commands[c];
	return NULL;
}

/* The command column is one wider than the longest name, so that every
 * summary stands two spaces off its name: help2man makes each such line
 * an entry of its own (one space ran install-cni and help together). */
static void write_commands(FILE *f)
{
	int width = 0;

	for (size_t c = 0; c < rg_n_commands; c++)
		if ((int)strlen(rg_commands[c].name) > width)
			width = (int)strlen(rg_commands[c].name);
	for (size_t c = 0; c < rg_n_commands; c++)
		fprintf(f, "  %-*s  %s\n", width, rg_commands[c].name, rg_commands[c].summary);
}

static void write_main_about(FILE *f)
{
	fprintf(f, "The eBPF datapath that sends cross-rail traffic of SR-IOV GPU pods to the\n"
		   "computenet uplink.\n\nCommands:\n");
	write_commands(f);
}

static const struct rg_opt main_options[] = {
	{ .name = "version", .kind = RG_OPT_FLAG, .offset = offsetof(struct rg_main_args, version),
	  .help = "the version, git commit and map ABI of this build" },
	{ 0 },
};

const struct rg_cmd_opts rg_main_opts = {
	.usage = "usage: railgate [--pin-dir DIR] COMMAND [ARGS]\n"
		 "       railgate --version",
	.write_about = write_main_about,
	.opts = main_options,
	.args_size = sizeof(struct rg_main_args),
	.help_help = "this text; `railgate COMMAND --help` shows a command's options",
	.trailer = "Exit status: 0 ok, 1 failure, 2 usage.",
	.after = RG_AFTER_HELP,
	.unknown = "unknown option %s",
	.quiet = true,
	.stop_at_arg = true,
	.shared_first = true,
};

/*
 * help: the usage; help COMMAND: that command's --help; help --summary
 * COMMAND: its one line (what the man pages are named with, so the summary
 * is written once, here).  Two words at most: no option table.
 */
static int cmd_help(struct rg_global_opts *g, int argc, char **argv)
{
	bool summary = argc == 3 && !strcmp(argv[1], "--summary");
	const struct rg_command *c;
	char *help_argv[] = { NULL, "--help", NULL };

	if (argc == 1 || (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))) {
		rg_opts_help(stdout, &rg_main_opts, cli_global_options);
		return RG_EXIT_OK;
	}
	if (argc > 3 || (argc == 3 && !summary)) {
		fprintf(stderr, "usage: railgate help [--summary] [COMMAND]\n");
		return RG_EXIT_USAGE;
	}
	c = rg_command_find(argv[argc - 1]);
	if (!c) {
		fprintf(stderr, "railgate help: unknown command '%s'\n", argv[argc - 1]);
		return RG_EXIT_USAGE;
	}
	if (summary) {
		printf("%s\n", c->summary);
		return RG_EXIT_OK;
	}
	if (c->fn == cmd_help) {
		rg_opts_help(stdout, &rg_main_opts, cli_global_options);
		return RG_EXIT_OK;
	}
	help_argv[0] = (char *)c->name;
	return c->fn(g, 2, help_argv);
}
