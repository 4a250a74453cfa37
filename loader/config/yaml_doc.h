/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The YAML reader under the config's schema: one reading of a document
 * (struct cfg_doc), libyaml's nodes with their positions, the typed reads
 * of scalars, mappings and lists that report each mistake at its node,
 * and the errors kept in source order.  It knows YAML, not railgate: the
 * keys and what they mean are the schema's (loader/config/schema.h).
 */
#ifndef RAILGATE_CONFIG_YAML_DOC_H
#define RAILGATE_CONFIG_YAML_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

#include "loader/config/diags.h"

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

/*
 * One reading of a config's YAML: the text, libyaml's document, and the
 * errors found so far.  The RG_CONFIG_MAX_ERRORS earliest in source order
 * are kept; the others are only counted, never formatted.  oom: something
 * could not be allocated, so errors may be missing.
 */
struct cfg_doc {
	const char *file;               /* as messages name it */
	const char *text;               /* the input, for byte offsets */
	size_t text_len;
	yaml_document_t *yaml;          /* while it is loaded */

	struct pending_error errors[RG_CONFIG_MAX_ERRORS];
	size_t n_errors;
	size_t n_left_out;
	size_t seq;
	bool oom;
};

void error_at(struct cfg_doc *d, struct rg_pos pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline struct rg_pos node_pos(const yaml_node_t *n)
{
	return (struct rg_pos){ (unsigned)n->start_mark.line + 1,
				(unsigned)n->start_mark.column + 1 };
}

#define error_node(d, node, ...) error_at((d), node_pos(node), __VA_ARGS__)

/* What a node is, for "X must be a list, got ..." messages. */
struct node_text {
	char s[SHOWN_SCALAR_MAX + 32];
};

struct key_spec {
	const char *name;
	bool required;
};

/* calloc (n = 0 still gives memory), marking d->oom when it fails. */
void *doc_calloc(struct cfg_doc *d, size_t n, size_t size);
void flush_errors(struct cfg_doc *d, struct rg_diags *diags);

const yaml_node_t *doc_node(const struct cfg_doc *d, int id);
bool is_plain(const yaml_node_t *n);
const char *scalar_value(const yaml_node_t *n);
bool is_null(const yaml_node_t *n);
struct node_text describe(const yaml_node_t *n);
bool expect_type(struct cfg_doc *d, const yaml_node_t *n,
		 yaml_node_type_t type, const char *label);
const char *expect_string(struct cfg_doc *d, const yaml_node_t *n,
			  const char *label);
void quote_key(char *buf, size_t len, const char *key);
void entry_label(char *buf, size_t len, const char *list);
void collect_keys(struct cfg_doc *d, const yaml_node_t *map,
		  const char *where, const struct key_spec *keys,
		  size_t n_keys, const yaml_node_t **values);
bool parse_int_node(struct cfg_doc *d, const yaml_node_t *n,
		    const char *key, long min, long max, int *out);
bool parse_bool_node(struct cfg_doc *d, const yaml_node_t *n,
		     const char *key, bool *out);

size_t list_length(const yaml_node_t *list);
const yaml_node_t *list_item(const struct cfg_doc *d,
			     const yaml_node_t *list, size_t i);
bool expect_list(struct cfg_doc *d, const yaml_node_t *n, const char *key,
		 bool non_empty);
bool list_within_cap(struct cfg_doc *d, const yaml_node_t *list,
		     const char *what, size_t cap);

void report_yaml_error(struct cfg_doc *d, const yaml_parser_t *yp);
void check_single_document(struct cfg_doc *d, yaml_parser_t *yp);
bool check_events(struct cfg_doc *d, const char *yaml, size_t len, int max_depth);

#endif /* RAILGATE_CONFIG_YAML_DOC_H */
