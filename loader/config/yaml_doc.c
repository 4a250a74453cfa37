// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The YAML side of reading a config: libyaml's document with the line and
 * column of every node, the typed reads of its scalars, mappings and lists
 * (each mistake reported at its node, kept in source order), and the
 * pre-pass over the events (depth, tags).  loader/config/yaml_doc.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "loader/config/yaml_doc.h"

static int compare_errors(const void *a, const void *b);

/* The kept error latest in source order: the one a new earlier one evicts. */
static size_t latest_error(const struct cfg_doc *d)
{
	size_t i, latest = 0;

	for (i = 1; i < d->n_errors; i++)
		if (compare_errors(&d->errors[i], &d->errors[latest]) > 0)
			latest = i;
	return latest;
}

/*
 * Keep the error when it is among the RG_CONFIG_MAX_ERRORS earliest in
 * source order so far, count it otherwise: a file with a million mistakes
 * costs a million comparisons, not a million messages.
 */
void error_at(struct cfg_doc *d, struct rg_pos pos, const char *fmt, ...)
{
	struct pending_error e = { pos, d->seq++, NULL };
	size_t slot = d->n_errors;
	va_list ap;
	int n;

	if (d->n_errors == RG_CONFIG_MAX_ERRORS) {
		slot = latest_error(d);
		d->n_left_out++;
		if (compare_errors(&e, &d->errors[slot]) > 0)
			return;
	}
	va_start(ap, fmt);
	n = vasprintf(&e.msg, fmt, ap);
	va_end(ap);
	if (n < 0) {
		d->oom = true;
		return;
	}
	if (slot == d->n_errors)
		d->n_errors++;
	else
		free(d->errors[slot].msg);
	d->errors[slot] = e;
}

void *doc_calloc(struct cfg_doc *d, size_t n, size_t size)
{
	void *mem = calloc(n ? n : 1, size);

	if (!mem)
		d->oom = true;
	return mem;
}

static int compare_errors(const void *a, const void *b)
{
	const struct pending_error *x = a, *y = b;

	if (x->pos.line != y->pos.line)
		return x->pos.line < y->pos.line ? -1 : 1;
	if (x->pos.col != y->pos.col)
		return x->pos.col < y->pos.col ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void flush_errors(struct cfg_doc *d, struct rg_diags *diags)
{
	size_t i;

	if (d->n_errors)
		qsort(d->errors, d->n_errors, sizeof(*d->errors), compare_errors);
	for (i = 0; i < d->n_errors; i++) {
		rg_diags_add(diags, d->file, d->errors[i].pos, "%s", d->errors[i].msg);
		free(d->errors[i].msg);
	}
	d->n_errors = 0;
	if (d->n_left_out) {
		size_t before;
		char *msg;

		if (asprintf(&msg, "%s: and %zu more errors left out (the first %d are shown)",
			     d->file, d->n_left_out, RG_CONFIG_MAX_ERRORS) < 0)
			msg = NULL;
		before = diags->count;
		rg_diags_push(diags, msg);
		if (diags->count > before)
			diags->left_out += d->n_left_out;
	}
}

/* ---- YAML nodes -------------------------------------------------------- */

const yaml_node_t *doc_node(const struct cfg_doc *d, int id)
{
	return yaml_document_get_node(d->yaml, id);
}

bool is_plain(const yaml_node_t *n)
{
	return n->type == YAML_SCALAR_NODE &&
	       n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

const char *scalar_value(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

/* `key:`, `key: ~` and `key: null` are YAML nulls, not empty strings. */
bool is_null(const yaml_node_t *n)
{
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL" };
	size_t i;

	if (!is_plain(n))
		return false;
	for (i = 0; i < ARRAY_SIZE(nulls); i++)
		if (!strcmp(scalar_value(n), nulls[i]))
			return true;
	return false;
}

struct node_text describe(const yaml_node_t *n)
{
	struct node_text t;

	switch (n->type) {
	case YAML_MAPPING_NODE:
		snprintf(t.s, sizeof(t.s), "a mapping");
		break;
	case YAML_SEQUENCE_NODE:
		snprintf(t.s, sizeof(t.s), "a list");
		break;
	default:
		if (is_null(n))
			snprintf(t.s, sizeof(t.s), "an empty value");
		else if (n->data.scalar.length > SHOWN_SCALAR_MAX)
			snprintf(t.s, sizeof(t.s), "'%.*s...'", SHOWN_SCALAR_MAX,
				 scalar_value(n));
		else
			snprintf(t.s, sizeof(t.s), "'%s'", scalar_value(n));
		break;
	}
	return t;
}

static const char *type_name(yaml_node_type_t type)
{
	switch (type) {
	case YAML_MAPPING_NODE:  return "a mapping";
	case YAML_SEQUENCE_NODE: return "a list";
	default:                 return "a string";
	}
}

/* label is how the message names the value: "'supernets'", "the config". */
bool expect_type(struct cfg_doc *d, const yaml_node_t *n,
		 yaml_node_type_t type, const char *label)
{
	bool ok = n->type == type && !(type == YAML_SCALAR_NODE && is_null(n));

	if (!ok)
		error_node(d, n, "%s must be %s, got %s", label, type_name(type),
			   describe(n).s);
	return ok;
}

/* A non-null scalar as a C string, or NULL after reporting why not. */
const char *expect_string(struct cfg_doc *d, const yaml_node_t *n,
			  const char *label)
{
	if (!expect_type(d, n, YAML_SCALAR_NODE, label))
		return NULL;
	if (strlen(scalar_value(n)) != n->data.scalar.length) {
		error_node(d, n, "%s contains a NUL character", label);
		return NULL;
	}
	return scalar_value(n);
}

void quote_key(char *buf, size_t len, const char *key)
{
	snprintf(buf, len, "'%s'", key);
}

void entry_label(char *buf, size_t len, const char *list)
{
	snprintf(buf, len, "each entry of '%s'", list);
}

/* ---- mappings against a schema ---------------------------------------- */

/*
 * Match the keys of a mapping against keys[]: values[i] gets the value of
 * keys[i].name, or NULL.  Unknown, duplicate and non-string keys and
 * missing required ones are errors.  `where` completes "unknown key 'x' ...":
 * "in rail", "at the top level".
 */
void collect_keys(struct cfg_doc *d, const yaml_node_t *map,
		  const char *where, const struct key_spec *keys,
		  size_t n_keys, const yaml_node_t **values)
{
	const yaml_node_t *key_nodes[MAX_KEYS_PER_MAPPING] = { 0 };
	char expected[256] = "";
	yaml_node_pair_t *pair;
	size_t i, used = 0;

	for (i = 0; i < n_keys && i < MAX_KEYS_PER_MAPPING; i++) {
		values[i] = NULL;
		used += snprintf(expected + used, sizeof(expected) - used, "%s%s",
				 i ? ", " : "", keys[i].name);
		if (used >= sizeof(expected))
			used = sizeof(expected) - 1;
	}

	for (pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		const yaml_node_t *key = doc_node(d, pair->key);
		const yaml_node_t *value = doc_node(d, pair->value);

		if (key->type != YAML_SCALAR_NODE) {
			error_node(d, key, "keys %s must be strings, got %s",
				   where, describe(key).s);
			continue;
		}
		for (i = 0; i < n_keys; i++)
			if (!strcmp(scalar_value(key), keys[i].name))
				break;
		if (i == n_keys) {
			error_node(d, key, "unknown key '%s' %s (expected one of: %s)",
				   scalar_value(key), where, expected);
		} else if (key_nodes[i]) {
			error_node(d, key, "duplicate key '%s' %s (first at line %u)",
				   keys[i].name, where, node_pos(key_nodes[i]).line);
		} else {
			key_nodes[i] = key;
			values[i] = value;
		}
	}

	for (i = 0; i < n_keys; i++)
		if (keys[i].required && !key_nodes[i])
			error_node(d, map, "missing required key '%s' %s",
				   keys[i].name, where);
}

/* An integer in [min, max]: a plain scalar of decimal digits (YAML's 0x,
 * 0o, 1_000 forms are refused: a VLAN id is written in decimal). */
bool parse_int_node(struct cfg_doc *d, const yaml_node_t *n,
		    const char *key, long min, long max, int *out)
{
	const char *s, *digits;
	char label[64];
	long value;
	size_t n_digits;

	quote_key(label, sizeof(label), key);
	s = expect_string(d, n, label);
	if (!s)
		return false;
	digits = s[0] == '-' ? s + 1 : s;
	n_digits = strspn(digits, "0123456789");
	if (!is_plain(n) || n_digits == 0 || digits[n_digits] != '\0') {
		error_node(d, n, "%s must be an integer, got %s", label,
			   describe(n).s);
		return false;
	}
	/* More digits than any valid value has: out of range, no overflow. */
	value = n_digits > 9 ? max + 1 : strtol(s, NULL, 10);
	if (value < min || value > max) {
		error_node(d, n, "%s %s is out of range %ld..%ld", key, s, min, max);
		return false;
	}
	*out = (int)value;
	return true;
}

/* YAML 1.2 core booleans only: YAML 1.1's yes/no/on/off are the Norway
 * problem, and a quoted "true" is a string. */
bool parse_bool_node(struct cfg_doc *d, const yaml_node_t *n,
		     const char *key, bool *out)
{
	static const char *const truths[] = { "true", "True", "TRUE" };
	static const char *const falsehoods[] = { "false", "False", "FALSE" };
	size_t i;

	if (is_plain(n)) {
		for (i = 0; i < ARRAY_SIZE(truths); i++) {
			if (!strcmp(scalar_value(n), truths[i])) {
				*out = true;
				return true;
			}
			if (!strcmp(scalar_value(n), falsehoods[i])) {
				*out = false;
				return true;
			}
		}
	}
	error_node(d, n, "'%s' must be true or false, got %s", key, describe(n).s);
	return false;
}

/* ---- lists ------------------------------------------------------------- */

size_t list_length(const yaml_node_t *list)
{
	return (size_t)(list->data.sequence.items.top - list->data.sequence.items.start);
}

const yaml_node_t *list_item(const struct cfg_doc *d,
			     const yaml_node_t *list, size_t i)
{
	return doc_node(d, list->data.sequence.items.start[i]);
}

/* A list of the right type, non-empty when asked; false after reporting. */
bool expect_list(struct cfg_doc *d, const yaml_node_t *n, const char *key,
		 bool non_empty)
{
	char label[64];

	quote_key(label, sizeof(label), key);
	if (!expect_type(d, n, YAML_SEQUENCE_NODE, label))
		return false;
	if (non_empty && list_length(n) == 0) {
		error_node(d, n, "%s must not be empty", label);
		return false;
	}
	return true;
}

/* A list no longer than the datapath can use; past the cap, one error and
 * its entries are not examined (what = "supernets", "rails"...). */
bool list_within_cap(struct cfg_doc *d, const yaml_node_t *list,
		     const char *what, size_t cap)
{
	if (list_length(list) <= cap)
		return true;
	error_node(d, list, "too many %s (%zu, at most %zu)", what, list_length(list), cap);
	return false;
}

/* Line and column (in bytes) of a byte offset in the input. */
static struct rg_pos pos_of_offset(const struct cfg_doc *d, size_t offset)
{
	struct rg_pos pos = { 1, 1 };
	size_t i;

	for (i = 0; i < offset && i < d->text_len; i++) {
		if (d->text[i] == '\n') {
			pos.line++;
			pos.col = 1;
		} else {
			pos.col++;
		}
	}
	return pos;
}

void report_yaml_error(struct cfg_doc *d, const yaml_parser_t *yp)
{
	struct rg_pos pos = { (unsigned)yp->problem_mark.line + 1,
			      (unsigned)yp->problem_mark.column + 1 };

	if (yp->error == YAML_MEMORY_ERROR) {
		d->oom = true;
		return;
	}
	if (yp->error == YAML_READER_ERROR) {
		/* The reader (encoding) reports a byte offset, not a mark. */
		error_at(d, pos_of_offset(d, yp->problem_offset),
			 "YAML syntax error: %s (byte %zu)",
			 yp->problem ? yp->problem : "unreadable input", yp->problem_offset);
		return;
	}
	if (yp->context)
		error_at(d, pos, "YAML syntax error: %s (%s at line %zu, column %zu)",
			 yp->problem ? yp->problem : "invalid YAML", yp->context,
			 yp->context_mark.line + 1, yp->context_mark.column + 1);
	else
		error_at(d, pos, "YAML syntax error: %s",
			 yp->problem ? yp->problem : "invalid YAML");
}

/* A config is one document; a second one ("---" and more) is a mistake
 * (two configs pasted together), not something to ignore. */
void check_single_document(struct cfg_doc *d, yaml_parser_t *yp)
{
	yaml_document_t next;
	yaml_node_t *root;

	if (!yaml_parser_load(yp, &next)) {
		report_yaml_error(d, yp);
		return;
	}
	root = yaml_document_get_root_node(&next);
	if (root)
		error_at(d, node_pos(root), "only one YAML document is allowed in a config");
	yaml_document_delete(&next);
}

static struct rg_pos mark_pos(yaml_mark_t m)
{
	return (struct rg_pos){ (unsigned)m.line + 1, (unsigned)m.column + 1 };
}

/*
 * An explicit tag is refused, whatever it says.  The loader gives every
 * untagged scalar the tag !!str too, so only the events tell `vlan: !!str
 * 100` from `vlan: 100`; honouring tags would give each value two
 * spellings (and `!!str 100` would have to be refused like "100" anyway),
 * while the schema already says what each key holds.
 */
static void check_no_tag(struct cfg_doc *d, const yaml_event_t *ev)
{
	static const char core[] = "tag:yaml.org,2002:";
	const yaml_char_t *tag = NULL;
	const char *shown;

	if (ev->type == YAML_SCALAR_EVENT)
		tag = ev->data.scalar.tag;
	else if (ev->type == YAML_SEQUENCE_START_EVENT)
		tag = ev->data.sequence_start.tag;
	else if (ev->type == YAML_MAPPING_START_EVENT)
		tag = ev->data.mapping_start.tag;
	if (!tag)
		return;
	shown = (const char *)tag;
	if (!strncmp(shown, core, sizeof(core) - 1))
		error_at(d, mark_pos(ev->start_mark),
			 "YAML tags are not supported ('!!%.*s'): write the value without one",
			 SHOWN_SCALAR_MAX, shown + sizeof(core) - 1);
	else
		error_at(d, mark_pos(ev->start_mark),
			 "YAML tags are not supported ('%.*s'): write the value without one",
			 SHOWN_SCALAR_MAX, shown);
}

/*
 * A pass over libyaml's events in front of its loader, which would build a
 * node per level of nesting first (100k levels: 49 s) and look only
 * afterwards: stops at the first level deeper than max_depth,
 * and reports every explicit tag.  Returns false when the document must
 * not be loaded.  A syntax error is left to the loader, which reports it
 * with its context.
 */
bool check_events(struct cfg_doc *d, const char *yaml, size_t len, int max_depth)
{
	yaml_parser_t yp;
	yaml_event_t ev;
	bool ok = true, done = false;
	int depth = 0;

	if (!yaml_parser_initialize(&yp)) {
		d->oom = true;
		return false;
	}
	yaml_parser_set_input_string(&yp, (const unsigned char *)yaml, len);
	while (!done && yaml_parser_parse(&yp, &ev)) {
		check_no_tag(d, &ev);
		switch (ev.type) {
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (++depth > max_depth) {
				error_at(d, mark_pos(ev.start_mark), "YAML nesting deeper than %d levels",
					 max_depth);
				ok = false;
				done = true;
			}
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth--;
			break;
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&yp);
	return ok;
}
