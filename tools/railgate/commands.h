/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The railgate subcommands.  Each takes the argv starting at its own name
 * and returns the process exit code: 0 ok, 1 failure, 2 usage.
 */
#ifndef RAILGATE_COMMANDS_H
#define RAILGATE_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>

enum rg_exit {
	RG_EXIT_OK = 0,
	RG_EXIT_FAIL = 1,
	RG_EXIT_USAGE = 2,
};

/* Global options (cli_global_options): before the command name or after it. */
struct rg_global_opts {
	const char *pin_dir;         /* --pin-dir or $RAILGATE_PIN_DIR, default RG_DEFAULT_PIN_DIR */
};

#define RG_DEFAULT_PIN_DIR    "/sys/fs/bpf/railgate"
#define RG_DEFAULT_CONFIG     "/etc/railgate/railgate.yaml"

int rg_cmd_check(struct rg_global_opts *g, int argc, char **argv);
int rg_cmd_up(struct rg_global_opts *g, int argc, char **argv);
int rg_cmd_down(struct rg_global_opts *g, int argc, char **argv);
int rg_cmd_status(struct rg_global_opts *g, int argc, char **argv);
int rg_cmd_stats(struct rg_global_opts *g, int argc, char **argv);
int rg_cmd_lookup(struct rg_global_opts *g, int argc, char **argv);
int rg_cmd_monitor(struct rg_global_opts *g, int argc, char **argv);
int rg_cmd_run(struct rg_global_opts *g, int argc, char **argv);
int rg_cmd_route(struct rg_global_opts *g, int argc, char **argv);
int rg_cmd_probe(struct rg_global_opts *g, int argc, char **argv);
int rg_cmd_doctor(struct rg_global_opts *g, int argc, char **argv);
int rg_cmd_install_cni(struct rg_global_opts *g, int argc, char **argv);

/* Each command's option table (options.h), next to its code. */
struct rg_cmd_opts;
extern const struct rg_cmd_opts rg_check_opts, rg_up_opts, rg_down_opts, rg_status_opts,
	rg_stats_opts, rg_lookup_opts, rg_monitor_opts, rg_run_opts, rg_route_opts,
	rg_probe_opts, rg_doctor_opts, rg_install_cni_opts;

/* The commands, in the order `railgate help` lists them (commands.c). */
struct rg_command {
	const char *name;
	const char *summary;         /* one line: the usage list, `help`, the man page's NAME */
	int (*fn)(struct rg_global_opts *g, int argc, char **argv);
	const struct rg_cmd_opts *opts;   /* NULL: help, which parses its own two words */
};
extern const struct rg_command rg_commands[];
extern const size_t rg_n_commands;
/* railgate's own options, before the command name (besides the global ones). */
struct rg_main_args {
	bool version;
};
extern const struct rg_cmd_opts rg_main_opts;
const struct rg_command *rg_command_find(const char *name);

/* railgate __complete WORD...: the completion's candidates (complete.c). */
int rg_complete(int argc, char **argv);

#endif /* RAILGATE_COMMANDS_H */
