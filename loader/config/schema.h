/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The config's schema: every key of every mapping and what its value must
 * be, parsed from the YAML document into struct rg_config.
 */
#ifndef RAILGATE_CONFIG_SCHEMA_H
#define RAILGATE_CONFIG_SCHEMA_H

#include <stdint.h>
#include <yaml.h>

#include "loader/config/yaml_doc.h"

#define RG_CONFIG_KIND        "RailConfig"

/* The whole document, section by section; every mistake is reported. */
void parse_root(struct parser *p, const yaml_node_t *root);

#endif /* RAILGATE_CONFIG_SCHEMA_H */
