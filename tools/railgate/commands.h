/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The railgate subcommands.  Each takes the argv starting at its own name
 * and returns the process exit code: 0 ok, 1 failure, 2 usage.
 */
#ifndef RAILGATE_COMMANDS_H
#define RAILGATE_COMMANDS_H

enum rg_exit {
	RG_EXIT_OK = 0,
	RG_EXIT_FAIL = 1,
	RG_EXIT_USAGE = 2,
};

/* Global options, parsed by main before the subcommand. */
struct rg_global_opts {
	const char *pin_dir;         /* --pin-dir or $RAILGATE_PIN_DIR, default RG_DEFAULT_PIN_DIR */
};

#define RG_DEFAULT_PIN_DIR    "/sys/fs/bpf/railgate"
#define RG_DEFAULT_CONFIG     "/etc/railgate/railgate.yaml"

int rg_cmd_check(const struct rg_global_opts *g, int argc, char **argv);
int rg_cmd_up(const struct rg_global_opts *g, int argc, char **argv);
int rg_cmd_down(const struct rg_global_opts *g, int argc, char **argv);
int rg_cmd_status(const struct rg_global_opts *g, int argc, char **argv);
int rg_cmd_stats(const struct rg_global_opts *g, int argc, char **argv);
int rg_cmd_lookup(const struct rg_global_opts *g, int argc, char **argv);
int rg_cmd_monitor(const struct rg_global_opts *g, int argc, char **argv);
int rg_cmd_run(const struct rg_global_opts *g, int argc, char **argv);
int rg_cmd_route(int argc, char **argv);
int rg_cmd_probe(const struct rg_global_opts *g, int argc, char **argv);
int rg_cmd_doctor(const struct rg_global_opts *g, int argc, char **argv);
int rg_cmd_install_cni(const struct rg_global_opts *g, int argc, char **argv);

#endif /* RAILGATE_COMMANDS_H */
