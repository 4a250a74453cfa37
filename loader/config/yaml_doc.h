/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The config's YAML document and the state of one reading of it: libyaml's
 * nodes with their positions, the typed reads of scalars, mappings and
 * lists, the errors found so far (kept in source order), and where each
 * parsed value came from for the cross-field checks.
 */
#ifndef RAILGATE_CONFIG_YAML_DOC_H
#define RAILGATE_CONFIG_YAML_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

#include "loader/config/config.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

enum {
	MAX_KEYS_PER_MAPPING = 8,
	SHOWN_SCALAR_MAX     = 48,      /* longer values are cut in messages */
};

/* An error found while parsing; sorted into source order before output. */
struct pending_error {
	struct rg_pos pos;
	size_t seq;
	char *msg;
};

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

struct parser {
	const char *file;
	const char *text;               /* the input, for byte offsets */
	size_t text_len;
	yaml_document_t *doc;
	struct rg_config *cfg;

	const yaml_node_t **supernet_nodes;
	bool supernets_complete;        /* every entry parsed: containment is decidable */
	const yaml_node_t **frontend_nodes;
	const yaml_node_t **probe_nodes;
	const yaml_node_t *gateway_node;
	const yaml_node_t *uplink_node; /* an interface name, not auto */
	struct rail_source *rails;
	struct node_source *nodes;

	/* The RG_CONFIG_MAX_ERRORS earliest errors in source order; the
	 * others are only counted, never formatted. */
	struct pending_error errors[RG_CONFIG_MAX_ERRORS];
	size_t n_errors;
	size_t n_left_out;
	size_t seq;
	size_t n_representors;          /* in all rails so far, for the cap */
	bool representors_over;         /* the cap was reported */
	bool oom;
};

void error_at(struct parser *p, struct rg_pos pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline struct rg_pos node_pos(const yaml_node_t *n)
{
	return (struct rg_pos){ (unsigned)n->start_mark.line + 1,
				(unsigned)n->start_mark.column + 1 };
}

#define error_node(p, node, ...) error_at((p), node_pos(node), __VA_ARGS__)

/* What a node is, for "X must be a list, got ..." messages. */
struct node_text {
	char s[SHOWN_SCALAR_MAX + 32];
};

struct key_spec {
	const char *name;
	bool required;
};

void *parser_calloc(struct parser *p, size_t n, size_t size);
void flush_errors(struct parser *p, struct rg_diags *diags);

const yaml_node_t *doc_node(const struct parser *p, int id);
bool is_plain(const yaml_node_t *n);
const char *scalar_value(const yaml_node_t *n);
bool is_null(const yaml_node_t *n);
struct node_text describe(const yaml_node_t *n);
bool expect_type(struct parser *p, const yaml_node_t *n,
		 yaml_node_type_t type, const char *label);
const char *expect_string(struct parser *p, const yaml_node_t *n,
			  const char *label);
void quote_key(char *buf, size_t len, const char *key);
void entry_label(char *buf, size_t len, const char *list);
void collect_keys(struct parser *p, const yaml_node_t *map,
		  const char *where, const struct key_spec *keys,
		  size_t n_keys, const yaml_node_t **values);
bool parse_int_node(struct parser *p, const yaml_node_t *n,
		    const char *key, long min, long max, int *out);
bool parse_bool_node(struct parser *p, const yaml_node_t *n,
		     const char *key, bool *out);

size_t list_length(const yaml_node_t *list);
const yaml_node_t *list_item(const struct parser *p,
			     const yaml_node_t *list, size_t i);
bool expect_list(struct parser *p, const yaml_node_t *n, const char *key,
		 bool non_empty);
bool list_within_cap(struct parser *p, const yaml_node_t *list,
		     const char *what, size_t cap);

void report_yaml_error(struct parser *p, const yaml_parser_t *yp);
void check_single_document(struct parser *p, yaml_parser_t *yp);
bool check_events(struct parser *p, const char *yaml, size_t len);

#endif /* RAILGATE_CONFIG_YAML_DOC_H */
