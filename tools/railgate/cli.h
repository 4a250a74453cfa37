/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Small helpers the railgate subcommands share: formatting and loading. */
#ifndef RAILGATE_CLI_H
#define RAILGATE_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "../../loader/config.h"
#include "../../maps/ipfmt.h"
#include "../../maps/plan.h"

/* Addresses and prefixes: rg_ip_str / rg_cidr_str (maps/ipfmt.h). */
/* Buffer: 18 bytes for a MAC. */
const char *cli_mac(const uint8_t mac[6], char *buf);
unsigned cli_mask_len(uint32_t mask);

/* Load and validate; every error goes to stderr as FILE:LINE:COL: msg. */
int cli_load_config(const char *path, struct rg_config *cfg);

/* Describe a route entry: "rail rail1", "frontend", "drop no_route", "pass". */
const char *cli_route_desc(uint32_t entry, const struct rg_rail rails[RG_MAX_RAILS],
			   char *buf, size_t n);

#endif
