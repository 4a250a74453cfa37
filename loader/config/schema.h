/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The config's schema: every key of every mapping and what its value must
 * be, parsed from the YAML document into struct rg_config.
 */
#ifndef RAILGATE_CONFIG_SCHEMA_H
#define RAILGATE_CONFIG_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

#include "loader/config/yaml_doc.h"

#include "loader/config/model.h"

#define RG_CONFIG_KIND        "RailConfig"

/* Where each parsed value came from, for the cross-field checks.  Arrays
 * run parallel to the ones in struct rg_config; NULL = missing or invalid. */
struct rail_source {
	const yaml_node_t *map;
	const yaml_node_t *name;
	const yaml_node_t *subnet;
	const yaml_node_t *gateway;
	const yaml_node_t **representors;
	const yaml_node_t *pf;
};

struct node_source {
	const yaml_node_t *name;
	const yaml_node_t *uplink;      /* an interface name, not auto */
	const yaml_node_t *gateway;
	const yaml_node_t **rail_names;  /* parallel to rg_config_node.rails */
};

/* One parse of a config: the YAML document being read, the config being
 * filled in, and where each value came from, for the cross-field checks. */
struct parser {
	struct cfg_doc doc;
	struct rg_config *cfg;

	const yaml_node_t **supernet_nodes;
	bool supernets_complete;        /* every entry parsed: containment is decidable */
	const yaml_node_t **frontend_nodes;
	const yaml_node_t **probe_nodes;
	const yaml_node_t *gateway_node;
	const yaml_node_t *uplink_node; /* an interface name, not auto */
	struct rail_source *rails;
	struct node_source *nodes;

	size_t n_representors;          /* in all rails so far, for the cap */
	bool representors_over;         /* the cap was reported */
};

/* The whole document, section by section; every mistake is reported. */
void parse_root(struct parser *p, const yaml_node_t *root);

#endif /* RAILGATE_CONFIG_SCHEMA_H */
