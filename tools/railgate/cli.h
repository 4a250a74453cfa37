/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Small helpers the railgate subcommands share: formatting and loading. */
#ifndef RAILGATE_CLI_H
#define RAILGATE_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "tools/railgate/commands.h"
#include "tools/railgate/options.h"
#include "loader/config/config.h"
#include "lib/addr.h"
#include "lib/mac.h"
#include "lib/ifname.h"
#include "loader/plan/plan.h"

/* Addresses, prefixes, MACs, interface names: lib/addr.h, lib/mac.h, lib/ifname.h. */
unsigned cli_mask_len(uint32_t mask);

/* Load and validate; every error goes to stderr as FILE:LINE:COL: msg. */
int cli_load_config(const char *path, struct rg_config *cfg);

/* "railgate CMD: <message>" and the --help hint on stderr; returns the
 * usage exit code (2). */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

struct rg_datapath;
/* Open the running datapath's maps for reading (rg_datapath_open_readonly:
 * no lock, nothing created); 0, or -errno with why in err (not up, ...).  The caller
 * closes dp with rg_datapath_close, also on failure. */
int cli_open_datapath(const char *pin_dir, struct rg_datapath *dp, char *err, size_t err_len);

/* Describe a route entry: "rail rail1", "frontend", "drop no_route", "pass". */
const char *cli_route_desc(uint32_t entry, const struct rg_rail rails[RG_MAX_RAILS],
			   char *buf, size_t n);

/* The global options (--pin-dir): every command takes them before its
 * name (main) and after it (cli_parse). */
extern const struct rg_opt cli_global_options[];

/* Parse a command's argv with its table and the global options into g:
 * rg_opts_parse. */
enum rg_opts_result cli_parse(const struct rg_cmd_opts *cmd, struct rg_global_opts *g, int argc,
			      char **argv, void *args, int *first_arg);

/* Open the running datapath as cli_open_datapath, or say on stderr
 * "railgate CMD: why" (not up, ...).  The caller closes dp also on failure. */
int cli_open_running(const struct rg_global_opts *g, struct rg_datapath *dp, const char *cmd);

/* One JSON document, pretty, on stdout; o is freed. */
struct json_object;
void cli_print_json(struct json_object *o);

#endif
