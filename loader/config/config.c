// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The railgate config: YAML in, a validated struct rg_config out, or every
 * mistake in the file reported as "FILE:LINE:COL: message", in source order.
 *
 * Schema (docs/config.md):
 *
 *   apiVersion: railgate.dev/v1alpha1      required, exactly this
 *   kind: RailConfig                       required, exactly this
 *   metadata:                              required
 *     name: STRING                         required, non-empty
 *     namespace: STRING                    optional, ignored (ConfigMap/CRD)
 *     labels: {...}                        optional mapping, ignored
 *     annotations: {...}                   optional mapping, ignored
 *   spec:                                  required
 *     supernets: [CIDR, ...]               required, non-empty, /8 or longer,
 *                                          no two overlapping
 *     computenet:                          required
 *       uplink: IFNAME | auto              required (see below)
 *       gateway: IPV4                      required, outside every supernet
 *       gatewayMAC: MAC                    optional, unicast
 *       frontend: [CIDR, ...]              optional, overlapping neither a
 *                                          supernet nor each other
 *       icmpSource: IPV4                   optional, a unicast address; default
 *                                          the uplink's address (resolve.c)
 *       icmpRate: 0..1000000               optional, ICMP errors per second,
 *                                          default 1000 (0: none)
 *       icmpBurst: 1..1000000              optional, default 50
 *     rails:                               required, 1..RG_MAX_RAILS entries
 *       - name: NAME                       required, [a-z0-9-], starts and ends
 *                                          alphanumeric, < RG_RAIL_NAME_LEN
 *         subnet: CIDR                     required, inside a supernet, at most
 *                                          /30, overlapping no other rail
 *         gateway: IPV4                    required, a host of subnet
 *         representors: [IFNAME|GLOB, ...] non-empty, each name or glob in
 *                                          one rail only; or instead:
 *         pf: IFNAME|PCI-ADDRESS|GLOB      the PF whose VF representors the
 *                                          rail takes (loader/switchdev.h)
 *         vlan: 1..4094                    optional, default none (-1)
 *         mtu: 68..65535                   optional, default 0 (not checked)
 *     datapath:                            optional
 *       mode: auto|xdp|xdp-generic|tc      default auto
 *       tcAttach: auto|tcx|clsact          default auto (tcx where the kernel
 *                                          has it); RAILGATE_TC_ATTACH wins
 *       antiSpoof: true|false              default true (YAML 1.2 booleans
 *                                          only: "yes"/"on" are refused)
 *     probe:                               optional (railgate probe)
 *       targets: [IPV4, ...]               addresses beyond the switch that
 *                                          answer probes, each in a rail or a
 *                                          front-end prefix, never a rail's
 *                                          gateway, no duplicates
 *       port: 1..65535                     UDP port of the targets' responder,
 *                                          default 33434 (0 in the struct)
 *     nodes:                               optional (per-node daemon)
 *       - name: NODE                       required, unique
 *         uplink: IFNAME | auto            optional override
 *         gateway: IPV4                    optional override
 *         gatewayMAC: MAC                  optional override
 *         rails:                           optional, a rail's own selection:
 *           - name: RAIL                   required, a rail of spec.rails
 *             pf: ... | representors: [...]  exactly one, replacing the rail's
 *
 * Two additions to the first schema, for `railgate run` as a DaemonSet where
 * one ConfigMap serves every node:
 *   - computenet.uplink: auto discovers the uplink as the interface that
 *     routes to computenet.gateway (cfg->computenet.uplink_discover = true,
 *     uplink = "").
 *   - spec.nodes lists per-node overrides, applied by
 *     rg_config_apply_node(cfg, NODE_NAME).  A node overriding the gateway
 *     without a gatewayMAC drops the global gatewayMAC: it belonged to the
 *     other gateway, and a stale MAC would black-hole every cross-rail frame.
 *
 * Every key at every level is checked against the schema: an unknown key
 * is an error, because a typo ("represntors") silently ignored is a rail
 * with no interfaces.  Parsing goes on after an error so that one run
 * reports everything; the semantic checks (overlaps, containment) only use
 * the values that parsed.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "loader/config/config.h"
#include "lib/files.h"
#include "lib/errbuf.h"

#define RG_CONFIG_API_VERSION "railgate.dev/v1alpha1"
#define RG_CONFIG_KIND        "RailConfig"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

enum {
	VLAN_MIN             = 1,
	VLAN_MAX             = 4094,
	MTU_MIN              = 68,      /* IPv4 minimum, RFC 791 */
	MTU_MAX              = 65535,
	SUPERNET_MIN_PREFIX  = RG_ZONE_MIN_PREFIX,
	RAIL_MAX_PREFIX      = 30,      /* network, gateway, a host, broadcast */
	K8S_NODE_NAME_MAX    = 253,     /* a DNS subdomain */
	PROBE_TARGETS_MAX    = 64,      /* a probe run sends to each from every rail */
	MAX_KEYS_PER_MAPPING = 8,
	SHOWN_SCALAR_MAX     = 48,      /* longer values are cut in messages */
};

/* ---- diagnostics ------------------------------------------------------ */

static void diags_push(struct rg_diags *d, char *msg)
{
	char **grown;

	if (!msg)
		return;
	grown = realloc(d->msgs, (d->count + 1) * sizeof(*d->msgs));
	if (!grown) {
		free(msg);
		return;
	}
	d->msgs = grown;
	d->msgs[d->count++] = msg;
}

void rg_diags_add(struct rg_diags *d, const char *file, struct rg_pos pos,
		  const char *fmt, ...)
{
	char *text, *msg;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (asprintf(&msg, "%s:%u:%u: %s", file, pos.line, pos.col, text) < 0)
		msg = NULL;
	free(text);
	diags_push(d, msg);
}

void rg_diags_free(struct rg_diags *d)
{
	size_t i;

	for (i = 0; i < d->count; i++)
		free(d->msgs[i]);
	free(d->msgs);
	d->msgs = NULL;
	d->count = 0;
	d->left_out = 0;
}

/* ---- parser state ------------------------------------------------------ */

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

static void error_at(struct parser *p, struct rg_pos pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int compare_errors(const void *a, const void *b);

/* The kept error latest in source order: the one a new earlier one evicts. */
static size_t latest_error(const struct parser *p)
{
	size_t i, latest = 0;

	for (i = 1; i < p->n_errors; i++)
		if (compare_errors(&p->errors[i], &p->errors[latest]) > 0)
			latest = i;
	return latest;
}

/*
 * Keep the error when it is among the RG_CONFIG_MAX_ERRORS earliest in
 * source order so far, count it otherwise: a file with a million mistakes
 * costs a million comparisons, not a million messages.
 */
static void error_at(struct parser *p, struct rg_pos pos, const char *fmt, ...)
{
	struct pending_error e = { pos, p->seq++, NULL };
	size_t slot = p->n_errors;
	va_list ap;
	int n;

	if (p->n_errors == RG_CONFIG_MAX_ERRORS) {
		slot = latest_error(p);
		p->n_left_out++;
		if (compare_errors(&e, &p->errors[slot]) > 0)
			return;
	}
	va_start(ap, fmt);
	n = vasprintf(&e.msg, fmt, ap);
	va_end(ap);
	if (n < 0) {
		p->oom = true;
		return;
	}
	if (slot == p->n_errors)
		p->n_errors++;
	else
		free(p->errors[slot].msg);
	p->errors[slot] = e;
}

static struct rg_pos node_pos(const yaml_node_t *n)
{
	return (struct rg_pos){ (unsigned)n->start_mark.line + 1,
				(unsigned)n->start_mark.column + 1 };
}

#define error_node(p, node, ...) error_at((p), node_pos(node), __VA_ARGS__)

static void *parser_calloc(struct parser *p, size_t n, size_t size)
{
	void *mem = calloc(n ? n : 1, size);

	if (!mem)
		p->oom = true;
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

static void flush_errors(struct parser *p, struct rg_diags *diags)
{
	size_t i;

	if (p->n_errors)
		qsort(p->errors, p->n_errors, sizeof(*p->errors), compare_errors);
	for (i = 0; i < p->n_errors; i++) {
		rg_diags_add(diags, p->file, p->errors[i].pos, "%s", p->errors[i].msg);
		free(p->errors[i].msg);
	}
	p->n_errors = 0;
	if (p->n_left_out) {
		size_t before;
		char *msg;

		if (asprintf(&msg, "%s: and %zu more errors left out (the first %d are shown)",
			     p->file, p->n_left_out, RG_CONFIG_MAX_ERRORS) < 0)
			msg = NULL;
		before = diags->count;
		diags_push(diags, msg);
		if (diags->count > before)
			diags->left_out += p->n_left_out;
	}
}

/* ---- formatting ------------------------------------------------------- */

struct addr_text {
	char s[sizeof("255.255.255.255/32")];
};

static struct addr_text ipv4_text(uint32_t a)
{
	struct addr_text t;

	snprintf(t.s, sizeof(t.s), "%u.%u.%u.%u",
		 a >> 24, (a >> 16) & 0xff, (a >> 8) & 0xff, a & 0xff);
	return t;
}

static struct addr_text cidr_text(struct rg_cidr c)
{
	struct addr_text t = ipv4_text(c.addr);
	size_t used = strlen(t.s);

	snprintf(t.s + used, sizeof(t.s) - used, "/%u", c.len);
	return t;
}

/* ---- YAML nodes -------------------------------------------------------- */

static const yaml_node_t *doc_node(const struct parser *p, int id)
{
	return yaml_document_get_node(p->doc, id);
}

static bool is_plain(const yaml_node_t *n)
{
	return n->type == YAML_SCALAR_NODE &&
	       n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

static const char *scalar_value(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

/* `key:`, `key: ~` and `key: null` are YAML nulls, not empty strings. */
static bool is_null(const yaml_node_t *n)
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

/* What a node is, for "X must be a list, got ..." messages. */
struct node_text {
	char s[SHOWN_SCALAR_MAX + 32];
};

static struct node_text describe(const yaml_node_t *n)
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
static bool expect_type(struct parser *p, const yaml_node_t *n,
			yaml_node_type_t type, const char *label)
{
	bool ok = n->type == type && !(type == YAML_SCALAR_NODE && is_null(n));

	if (!ok)
		error_node(p, n, "%s must be %s, got %s", label, type_name(type),
			   describe(n).s);
	return ok;
}

/* A non-null scalar as a C string, or NULL after reporting why not. */
static const char *expect_string(struct parser *p, const yaml_node_t *n,
				 const char *label)
{
	if (!expect_type(p, n, YAML_SCALAR_NODE, label))
		return NULL;
	if (strlen(scalar_value(n)) != n->data.scalar.length) {
		error_node(p, n, "%s contains a NUL character", label);
		return NULL;
	}
	return scalar_value(n);
}

static void quote_key(char *buf, size_t len, const char *key)
{
	snprintf(buf, len, "'%s'", key);
}

static void entry_label(char *buf, size_t len, const char *list)
{
	snprintf(buf, len, "each entry of '%s'", list);
}

/* ---- mappings against a schema ---------------------------------------- */

struct key_spec {
	const char *name;
	bool required;
};

/*
 * Match the keys of a mapping against keys[]: values[i] gets the value of
 * keys[i].name, or NULL.  Unknown, duplicate and non-string keys and
 * missing required ones are errors.  `where` completes "unknown key 'x' ...":
 * "in rail", "at the top level".
 */
static void collect_keys(struct parser *p, const yaml_node_t *map,
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
		const yaml_node_t *key = doc_node(p, pair->key);
		const yaml_node_t *value = doc_node(p, pair->value);

		if (key->type != YAML_SCALAR_NODE) {
			error_node(p, key, "keys %s must be strings, got %s",
				   where, describe(key).s);
			continue;
		}
		for (i = 0; i < n_keys; i++)
			if (!strcmp(scalar_value(key), keys[i].name))
				break;
		if (i == n_keys) {
			error_node(p, key, "unknown key '%s' %s (expected one of: %s)",
				   scalar_value(key), where, expected);
		} else if (key_nodes[i]) {
			error_node(p, key, "duplicate key '%s' %s (first at line %u)",
				   keys[i].name, where, node_pos(key_nodes[i]).line);
		} else {
			key_nodes[i] = key;
			values[i] = value;
		}
	}

	for (i = 0; i < n_keys; i++)
		if (keys[i].required && !key_nodes[i])
			error_node(p, map, "missing required key '%s' %s",
				   keys[i].name, where);
}

/* ---- typed values ------------------------------------------------------ */

/* "10.0.0.0/33": an address and a number, but a length beyond /32. */
static bool prefix_length_too_long(const char *s)
{
	const char *slash = strrchr(s, '/');
	char addr[sizeof("255.255.255.255")];
	uint32_t unused;
	size_t len;

	if (!slash || (size_t)(slash - s) >= sizeof(addr) || !slash[1])
		return false;
	len = (size_t)(slash - s);
	memcpy(addr, s, len);
	addr[len] = '\0';
	if (rg_ipv4_parse(addr, &unused))
		return false;
	return strspn(slash + 1, "0123456789") == strlen(slash + 1);
}

static bool parse_cidr_node(struct parser *p, const yaml_node_t *n,
			    const char *label, struct rg_cidr *out)
{
	const char *s = expect_string(p, n, label);
	struct rg_cidr network;

	if (!s)
		return false;
	if (!rg_cidr_parse(s, out, false))
		return true;
	if (!rg_cidr_parse(s, &network, true))
		error_node(p, n, "%s has host bits set; did you mean %s?", s,
			   cidr_text(network).s);
	else if (prefix_length_too_long(s))
		error_node(p, n, "prefix length of %s is out of range 0..32", s);
	else
		error_node(p, n, "invalid CIDR '%s' (expected A.B.C.D/LEN, such as 10.0.0.0/16)",
			   s);
	return false;
}

static bool parse_ipv4_node(struct parser *p, const yaml_node_t *n,
			    const char *label, uint32_t *out)
{
	const char *s = expect_string(p, n, label);

	if (!s)
		return false;
	if (rg_ipv4_parse(s, out)) {
		error_node(p, n, "invalid IPv4 address '%s' (expected A.B.C.D)", s);
		return false;
	}
	return true;
}

/* A gateway MAC: frames are unicast to it, so multicast or zero is a typo. */
static bool parse_gateway_mac_node(struct parser *p, const yaml_node_t *n,
				   const char *label, uint8_t mac[6])
{
	static const uint8_t zero[6];
	const char *s = expect_string(p, n, label);

	if (!s)
		return false;
	if (rg_mac_parse(s, mac)) {
		error_node(p, n, "invalid MAC address '%s' (expected six hex pairs such as 0c:42:a1:00:00:01)",
			   s);
		return false;
	}
	if (mac[0] & 1) {
		error_node(p, n, "gatewayMAC %s is a multicast address; the gateway needs a unicast MAC",
			   s);
		return false;
	}
	if (!memcmp(mac, zero, sizeof(zero))) {
		error_node(p, n, "gatewayMAC %s is the zero address", s);
		return false;
	}
	return true;
}

/* An integer in [min, max]: a plain scalar of decimal digits (YAML's 0x,
 * 0o, 1_000 forms are refused: a VLAN id is written in decimal). */
static bool parse_int_node(struct parser *p, const yaml_node_t *n,
			   const char *key, long min, long max, int *out)
{
	const char *s, *digits;
	char label[64];
	long value;
	size_t n_digits;

	quote_key(label, sizeof(label), key);
	s = expect_string(p, n, label);
	if (!s)
		return false;
	digits = s[0] == '-' ? s + 1 : s;
	n_digits = strspn(digits, "0123456789");
	if (!is_plain(n) || n_digits == 0 || digits[n_digits] != '\0') {
		error_node(p, n, "%s must be an integer, got %s", label,
			   describe(n).s);
		return false;
	}
	/* More digits than any valid value has: out of range, no overflow. */
	value = n_digits > 9 ? max + 1 : strtol(s, NULL, 10);
	if (value < min || value > max) {
		error_node(p, n, "%s %s is out of range %ld..%ld", key, s, min, max);
		return false;
	}
	*out = (int)value;
	return true;
}

/* YAML 1.2 core booleans only: YAML 1.1's yes/no/on/off are the Norway
 * problem, and a quoted "true" is a string. */
static bool parse_bool_node(struct parser *p, const yaml_node_t *n,
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
	error_node(p, n, "'%s' must be true or false, got %s", key, describe(n).s);
	return false;
}

/*
 * An interface name or a shell glob over interface names: what the kernel's
 * dev_valid_name() accepts (1..IFNAMSIZ-1 bytes, no '/', ':' or
 * whitespace, not "." or "..").
 */
static bool check_ifname(struct parser *p, const yaml_node_t *n, const char *s)
{
	size_t len = strlen(s);

	if (len == 0) {
		error_node(p, n, "interface name must not be empty");
		return false;
	}
	if (len >= IF_NAMESIZE) {
		error_node(p, n, "interface name '%s' is too long (%zu characters, at most %d)",
			   s, len, IF_NAMESIZE - 1);
		return false;
	}
	if (strpbrk(s, "/: \t\n\r\v\f") || !strcmp(s, ".") || !strcmp(s, "..")) {
		error_node(p, n, "invalid interface name '%s' (no '/', ':' or whitespace)", s);
		return false;
	}
	return true;
}

static bool is_lower_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* A Kubernetes-style name (RFC 1123 label, shorter than RG_RAIL_NAME_LEN):
 * it becomes a metrics label and a map value. */
static bool check_rail_name(struct parser *p, const yaml_node_t *n, const char *s)
{
	size_t i, len = strlen(s);

	if (len == 0) {
		error_node(p, n, "rail name must not be empty");
		return false;
	}
	if (len >= RG_RAIL_NAME_LEN) {
		error_node(p, n, "rail name '%s' is too long (%zu characters, at most %d)",
			   s, len, RG_RAIL_NAME_LEN - 1);
		return false;
	}
	for (i = 0; i < len; i++)
		if (!is_lower_alnum(s[i]) && s[i] != '-')
			break;
	if (i < len || s[0] == '-' || s[len - 1] == '-') {
		error_node(p, n, "rail name '%s' is invalid: use lowercase letters, digits and '-', starting and ending with a letter or digit",
			   s);
		return false;
	}
	return true;
}

/* Kubernetes node names are DNS subdomains; NODE_NAME never has capitals,
 * so a name with one would silently never match. */
static bool check_node_name(struct parser *p, const yaml_node_t *n, const char *s)
{
	size_t len = strlen(s);

	if (len == 0) {
		error_node(p, n, "node name must not be empty");
		return false;
	}
	if (len > K8S_NODE_NAME_MAX) {
		error_node(p, n, "node name is too long (%zu characters, at most %d)",
			   len, K8S_NODE_NAME_MAX);
		return false;
	}
	if (strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789-.") != len) {
		error_node(p, n, "node name '%s' is invalid: Kubernetes node names are lowercase letters, digits, '-' and '.'",
			   s);
		return false;
	}
	return true;
}

/* ---- lists ------------------------------------------------------------- */

static size_t list_length(const yaml_node_t *list)
{
	return (size_t)(list->data.sequence.items.top - list->data.sequence.items.start);
}

static const yaml_node_t *list_item(const struct parser *p,
				    const yaml_node_t *list, size_t i)
{
	return doc_node(p, list->data.sequence.items.start[i]);
}

/* A list of the right type, non-empty when asked; false after reporting. */
static bool expect_list(struct parser *p, const yaml_node_t *n, const char *key,
			bool non_empty)
{
	char label[64];

	quote_key(label, sizeof(label), key);
	if (!expect_type(p, n, YAML_SEQUENCE_NODE, label))
		return false;
	if (non_empty && list_length(n) == 0) {
		error_node(p, n, "%s must not be empty", label);
		return false;
	}
	return true;
}

/* A list no longer than the datapath can use; past the cap, one error and
 * its entries are not examined (what = "supernets", "rails"...). */
static bool list_within_cap(struct parser *p, const yaml_node_t *list,
			    const char *what, size_t cap)
{
	if (list_length(list) <= cap)
		return true;
	error_node(p, list, "too many %s (%zu, at most %zu)", what, list_length(list), cap);
	return false;
}

/* A list of CIDRs; the ones that parse are kept, with their nodes.
 * Returns true when every entry parsed. */
static bool parse_cidr_list(struct parser *p, const yaml_node_t *list,
			    const char *key, struct rg_cidr **out, size_t *count,
			    const yaml_node_t ***nodes)
{
	size_t i, n = list_length(list);
	bool all_ok = true;
	char label[64];

	entry_label(label, sizeof(label), key);
	*out = parser_calloc(p, n, sizeof(**out));
	*nodes = parser_calloc(p, n, sizeof(**nodes));
	if (!*out || !*nodes)
		return false;
	for (i = 0; i < n; i++) {
		const yaml_node_t *item = list_item(p, list, i);

		if (parse_cidr_node(p, item, label, &(*out)[*count]))
			(*nodes)[(*count)++] = item;
		else
			all_ok = false;
	}
	return all_ok;
}

/* ---- sections ---------------------------------------------------------- */

enum metadata_key { META_NAME, META_NAMESPACE, META_LABELS, META_ANNOTATIONS, META_NKEYS };
static const struct key_spec metadata_keys[META_NKEYS] = {
	[META_NAME]        = { "name", true },
	[META_NAMESPACE]   = { "namespace", false },
	[META_LABELS]      = { "labels", false },
	[META_ANNOTATIONS] = { "annotations", false },
};

static void parse_metadata(struct parser *p, const yaml_node_t *map)
{
	const yaml_node_t *v[META_NKEYS];
	const char *name;

	if (!expect_type(p, map, YAML_MAPPING_NODE, "'metadata'"))
		return;
	collect_keys(p, map, "in metadata", metadata_keys, META_NKEYS, v);

	if (v[META_NAME] && (name = expect_string(p, v[META_NAME], "'name'"))) {
		if (!name[0])
			error_node(p, v[META_NAME], "metadata.name must not be empty");
		else if (strlen(name) >= sizeof(p->cfg->name))
			error_node(p, v[META_NAME], "metadata.name is too long (at most %zu characters)",
				   sizeof(p->cfg->name) - 1);
		else
			strcpy(p->cfg->name, name);
	}
	if (v[META_NAMESPACE])
		expect_string(p, v[META_NAMESPACE], "'namespace'");
	if (v[META_LABELS])
		expect_type(p, v[META_LABELS], YAML_MAPPING_NODE, "'labels'");
	if (v[META_ANNOTATIONS])
		expect_type(p, v[META_ANNOTATIONS], YAML_MAPPING_NODE, "'annotations'");
}

/* "auto" or an interface name into a char[IF_NAMESIZE]. */
static bool parse_uplink_node(struct parser *p, const yaml_node_t *n,
			      char uplink[IF_NAMESIZE], bool *discover)
{
	const char *s = expect_string(p, n, "'uplink'");

	if (!s)
		return false;
	if (!strcmp(s, "auto")) {
		uplink[0] = '\0';
		*discover = true;
		return true;
	}
	if (!check_ifname(p, n, s))
		return false;
	strcpy(uplink, s);
	*discover = false;
	return true;
}

enum computenet_key { CN_UPLINK, CN_GATEWAY, CN_GATEWAY_MAC, CN_FRONTEND, CN_ICMP_SOURCE,
		      CN_ICMP_RATE, CN_ICMP_BURST, CN_NKEYS };
static const struct key_spec computenet_keys[CN_NKEYS] = {
	[CN_UPLINK]      = { "uplink", true },
	[CN_GATEWAY]     = { "gateway", true },
	[CN_GATEWAY_MAC] = { "gatewayMAC", false },
	[CN_FRONTEND]    = { "frontend", false },
	[CN_ICMP_SOURCE] = { "icmpSource", false },
	[CN_ICMP_RATE]   = { "icmpRate", false },
	[CN_ICMP_BURST]  = { "icmpBurst", false },
};

/*
 * icmpSource: the source of the datapath's ICMP errors, which pods must
 * accept, so a unicast address: not 0.0.0.0, loopback, multicast, class E
 * or broadcast.
 */
static void parse_icmp_source_node(struct parser *p, const yaml_node_t *n, uint32_t *out)
{
	uint32_t a;

	if (!parse_ipv4_node(p, n, "'icmpSource'", &a))
		return;
	if (a == 0 || (a >> 24) == 127 || (a >> 28) >= 0xe) {
		error_node(p, n, "icmpSource must be a unicast address the node owns, got %s",
			   describe(n).s);
		return;
	}
	*out = a;
}

static void parse_computenet(struct parser *p, const yaml_node_t *map)
{
	typeof(p->cfg->computenet) *cn = &p->cfg->computenet;
	const yaml_node_t *v[CN_NKEYS];

	if (!expect_type(p, map, YAML_MAPPING_NODE, "'computenet'"))
		return;
	collect_keys(p, map, "in computenet", computenet_keys, CN_NKEYS, v);

	if (v[CN_UPLINK] && parse_uplink_node(p, v[CN_UPLINK], cn->uplink, &cn->uplink_discover) &&
	    !cn->uplink_discover)
		p->uplink_node = v[CN_UPLINK];
	if (v[CN_GATEWAY] && parse_ipv4_node(p, v[CN_GATEWAY], "'gateway'", &cn->gateway))
		p->gateway_node = v[CN_GATEWAY];
	if (v[CN_GATEWAY_MAC])
		cn->has_gateway_mac = parse_gateway_mac_node(p, v[CN_GATEWAY_MAC],
							     "'gatewayMAC'", cn->gateway_mac);
	if (v[CN_FRONTEND] && expect_list(p, v[CN_FRONTEND], "frontend", false) &&
	    list_within_cap(p, v[CN_FRONTEND], "frontend prefixes", RG_CONFIG_MAX_FRONTEND))
		parse_cidr_list(p, v[CN_FRONTEND], "frontend", &cn->frontend,
				&cn->n_frontend, &p->frontend_nodes);
	if (v[CN_ICMP_SOURCE])
		parse_icmp_source_node(p, v[CN_ICMP_SOURCE], &cn->icmp_source);
	if (v[CN_ICMP_RATE])
		parse_int_node(p, v[CN_ICMP_RATE], "icmpRate", 0, RG_ICMP_RATE_MAX, &cn->icmp_rate);
	if (v[CN_ICMP_BURST])
		parse_int_node(p, v[CN_ICMP_BURST], "icmpBurst", 1, RG_ICMP_BURST_MAX,
			       &cn->icmp_burst);
}

/* The cap counts all rails together: reported once, at the list that
 * crosses it; that list and the later ones are not examined. */
static bool representors_within_cap(struct parser *p, const yaml_node_t *list)
{
	p->n_representors += list_length(list);
	if (p->n_representors <= RG_CONFIG_MAX_REPRESENTORS)
		return true;
	if (!p->representors_over)
		error_node(p, list, "too many representors (%zu in this and earlier rails, at most %d in all)",
			   p->n_representors, RG_CONFIG_MAX_REPRESENTORS);
	p->representors_over = true;
	return false;
}

/* A list of interface names or globs into *out; nodes (may be NULL) gets
 * each kept entry's YAML node, for the cross-rail checks. */
static void parse_representors(struct parser *p, const yaml_node_t *list, char ***out,
			       size_t *count, const yaml_node_t ***nodes)
{
	size_t i, n = list_length(list);
	char label[64];

	entry_label(label, sizeof(label), "representors");
	*out = parser_calloc(p, n, sizeof(**out));
	if (nodes)
		*nodes = parser_calloc(p, n, sizeof(**nodes));
	if (!*out || (nodes && !*nodes))
		return;
	for (i = 0; i < n; i++) {
		const yaml_node_t *item = list_item(p, list, i);
		const char *s = expect_string(p, item, label);
		char *copy;

		if (!s || !check_ifname(p, item, s))
			continue;
		copy = strdup(s);
		if (!copy) {
			p->oom = true;
			return;
		}
		if (nodes)
			(*nodes)[*count] = item;
		(*out)[(*count)++] = copy;
	}
}

/*
 * A PF selector: a netdev name (as check_ifname) or a PCI address such as
 * 0000:17:00.0, either with shell globs (ens*f0np0, 0000:*:00.0).  A ':'
 * tells the two apart: netdev names cannot hold one.
 */
static bool parse_pf_node(struct parser *p, const yaml_node_t *n, char out[RG_PF_SEL_LEN])
{
	const char *s = expect_string(p, n, "'pf'");

	if (!s)
		return false;
	if (strchr(s, ':')) {
		if (strlen(s) >= RG_PF_SEL_LEN ||
		    strspn(s, "0123456789abcdefABCDEF:.*?[]!-") != strlen(s)) {
			error_node(p, n, "pf '%s' is neither an interface name nor a PCI address like 0000:17:00.0", s);
			return false;
		}
	} else if (!check_ifname(p, n, s)) {
		return false;
	}
	strcpy(out, s);
	return true;
}

/* A rail (or a node's rail override) selects by pf or by representors, one
 * of them: two selections would leave which one wins to the reader. */
static void check_one_selection(struct parser *p, const yaml_node_t *map, const char *where,
				const yaml_node_t *pf, const yaml_node_t *reps)
{
	if (pf && reps)
		error_node(p, pf, "both 'pf' and 'representors' %s: a rail selects its representors one way", where);
	else if (!pf && !reps)
		error_node(p, map, "missing key 'representors' or 'pf' %s", where);
}

enum rail_key { RAIL_NAME, RAIL_SUBNET, RAIL_GATEWAY, RAIL_REPRESENTORS,
		RAIL_PF, RAIL_VLAN, RAIL_MTU, RAIL_NKEYS };
static const struct key_spec rail_keys[RAIL_NKEYS] = {
	[RAIL_NAME]         = { "name", true },
	[RAIL_SUBNET]       = { "subnet", true },
	[RAIL_GATEWAY]      = { "gateway", true },
	[RAIL_REPRESENTORS] = { "representors", false },  /* or pf: check_one_selection */
	[RAIL_PF]           = { "pf", false },
	[RAIL_VLAN]         = { "vlan", false },
	[RAIL_MTU]          = { "mtu", false },
};

static void parse_rail(struct parser *p, const yaml_node_t *map,
		       struct rg_config_rail *rail, struct rail_source *src)
{
	const yaml_node_t *v[RAIL_NKEYS];
	const char *s;

	rail->vlan = -1;
	if (!expect_type(p, map, YAML_MAPPING_NODE, "each entry of 'rails'"))
		return;
	src->map = map;
	rail->pos = node_pos(map);
	collect_keys(p, map, "in rail", rail_keys, RAIL_NKEYS, v);

	if (v[RAIL_NAME] && (s = expect_string(p, v[RAIL_NAME], "'name'")) &&
	    check_rail_name(p, v[RAIL_NAME], s)) {
		strcpy(rail->name, s);
		src->name = v[RAIL_NAME];
	}
	if (v[RAIL_SUBNET] && parse_cidr_node(p, v[RAIL_SUBNET], "'subnet'", &rail->subnet)) {
		if (rail->subnet.len > RAIL_MAX_PREFIX)
			error_node(p, v[RAIL_SUBNET], "rail subnet %s is too small (prefix length at most /%d: network, gateway, a pod, broadcast)",
				   cidr_text(rail->subnet).s, RAIL_MAX_PREFIX);
		else
			src->subnet = v[RAIL_SUBNET];
	}
	if (v[RAIL_GATEWAY] && parse_ipv4_node(p, v[RAIL_GATEWAY], "'gateway'", &rail->gateway))
		src->gateway = v[RAIL_GATEWAY];
	check_one_selection(p, map, "in rail", v[RAIL_PF], v[RAIL_REPRESENTORS]);
	if (v[RAIL_REPRESENTORS] && expect_list(p, v[RAIL_REPRESENTORS], "representors", true) &&
	    representors_within_cap(p, v[RAIL_REPRESENTORS]))
		parse_representors(p, v[RAIL_REPRESENTORS], &rail->representors,
				   &rail->n_representors, &src->representors);
	if (v[RAIL_PF] && parse_pf_node(p, v[RAIL_PF], rail->pf))
		src->pf = v[RAIL_PF];
	if (v[RAIL_VLAN])
		parse_int_node(p, v[RAIL_VLAN], "vlan", VLAN_MIN, VLAN_MAX, &rail->vlan);
	if (v[RAIL_MTU])
		parse_int_node(p, v[RAIL_MTU], "mtu", MTU_MIN, MTU_MAX, &rail->mtu);
}

static void parse_rails(struct parser *p, const yaml_node_t *list)
{
	size_t i, n;

	if (!expect_list(p, list, "rails", true))
		return;
	if (!list_within_cap(p, list, "rails", RG_MAX_RAILS))
		return;
	n = list_length(list);
	p->cfg->rails = parser_calloc(p, n, sizeof(*p->cfg->rails));
	p->rails = parser_calloc(p, n, sizeof(*p->rails));
	if (!p->cfg->rails || !p->rails)
		return;
	p->cfg->n_rails = n;
	for (i = 0; i < n; i++)
		parse_rail(p, list_item(p, list, i), &p->cfg->rails[i], &p->rails[i]);
}

static const char *const mode_names[] = {
	[RG_CONFIG_MODE_AUTO]        = "auto",
	[RG_CONFIG_MODE_XDP]         = "xdp",
	[RG_CONFIG_MODE_XDP_GENERIC] = "xdp-generic",
	[RG_CONFIG_MODE_TC]          = "tc",
};

const char *rg_config_mode_name(enum rg_config_mode mode)
{
	if ((unsigned)mode >= ARRAY_SIZE(mode_names))
		return "unknown";
	return mode_names[mode];
}

static const char *const tc_attach_names[] = {
	[RG_CONFIG_TC_ATTACH_AUTO]   = "auto",
	[RG_CONFIG_TC_ATTACH_TCX]    = "tcx",
	[RG_CONFIG_TC_ATTACH_CLSACT] = "clsact",
};

const char *rg_config_tc_attach_name(enum rg_config_tc_attach a)
{
	if ((unsigned)a >= ARRAY_SIZE(tc_attach_names))
		return "unknown";
	return tc_attach_names[a];
}

int rg_config_tc_attach_parse(const char *s, enum rg_config_tc_attach *out)
{
	for (size_t i = 0; s && i < ARRAY_SIZE(tc_attach_names); i++) {
		if (!strcmp(s, tc_attach_names[i])) {
			*out = (enum rg_config_tc_attach)i;
			return 0;
		}
	}
	return -EINVAL;
}

enum datapath_key { DP_MODE, DP_TC_ATTACH, DP_ANTI_SPOOF, DP_NKEYS };
static const struct key_spec datapath_keys[DP_NKEYS] = {
	[DP_MODE]       = { "mode", false },
	[DP_TC_ATTACH]  = { "tcAttach", false },
	[DP_ANTI_SPOOF] = { "antiSpoof", false },
};

static void parse_tc_attach(struct parser *p, const yaml_node_t *n)
{
	const char *s = expect_string(p, n, "'tcAttach'");

	if (s && rg_config_tc_attach_parse(s, &p->cfg->tc_attach))
		error_node(p, n, "unknown datapath tcAttach '%s' (expected one of: auto, tcx, clsact)", s);
}

static void parse_mode(struct parser *p, const yaml_node_t *n)
{
	const char *s = expect_string(p, n, "'mode'");
	size_t i;

	if (!s)
		return;
	for (i = 0; i < ARRAY_SIZE(mode_names); i++) {
		if (!strcmp(s, mode_names[i])) {
			p->cfg->mode = (enum rg_config_mode)i;
			return;
		}
	}
	error_node(p, n, "unknown datapath mode '%s' (expected one of: auto, xdp, xdp-generic, tc)", s);
}

static void parse_datapath(struct parser *p, const yaml_node_t *map)
{
	const yaml_node_t *v[DP_NKEYS];

	if (!expect_type(p, map, YAML_MAPPING_NODE, "'datapath'"))
		return;
	collect_keys(p, map, "in datapath", datapath_keys, DP_NKEYS, v);
	if (v[DP_MODE])
		parse_mode(p, v[DP_MODE]);
	if (v[DP_TC_ATTACH])
		parse_tc_attach(p, v[DP_TC_ATTACH]);
	if (v[DP_ANTI_SPOOF])
		parse_bool_node(p, v[DP_ANTI_SPOOF], "antiSpoof", &p->cfg->anti_spoof);
}

enum node_key { NODE_NAME, NODE_UPLINK, NODE_GATEWAY, NODE_GATEWAY_MAC, NODE_RAILS,
		NODE_NKEYS };
static const struct key_spec node_keys[NODE_NKEYS] = {
	[NODE_NAME]        = { "name", true },
	[NODE_UPLINK]      = { "uplink", false },
	[NODE_GATEWAY]     = { "gateway", false },
	[NODE_GATEWAY_MAC] = { "gatewayMAC", false },
	[NODE_RAILS]       = { "rails", false },
};

enum node_rail_key { NR_NAME, NR_PF, NR_REPRESENTORS, NR_NKEYS };
static const struct key_spec node_rail_keys[NR_NKEYS] = {
	[NR_NAME]         = { "name", true },
	[NR_PF]           = { "pf", false },
	[NR_REPRESENTORS] = { "representors", false },
};

/* One entry of spec.nodes[].rails; the rail name is checked against
 * spec.rails later (check_nodes), when every rail has parsed. */
static void parse_node_rail(struct parser *p, const yaml_node_t *map,
			    struct rg_config_node_rail *nr, const yaml_node_t **name_node)
{
	const yaml_node_t *v[NR_NKEYS];

	if (!expect_type(p, map, YAML_MAPPING_NODE, "each entry of a node's 'rails'"))
		return;
	collect_keys(p, map, "in a node's rail", node_rail_keys, NR_NKEYS, v);
	check_one_selection(p, map, "in a node's rail", v[NR_PF], v[NR_REPRESENTORS]);
	if (v[NR_NAME] && expect_string(p, v[NR_NAME], "'name'"))
		*name_node = v[NR_NAME];
	if (v[NR_REPRESENTORS] && expect_list(p, v[NR_REPRESENTORS], "representors", true))
		parse_representors(p, v[NR_REPRESENTORS], &nr->representors,
				   &nr->n_representors, NULL);
	if (v[NR_PF])
		parse_pf_node(p, v[NR_PF], nr->pf);
}

static void parse_node_rails(struct parser *p, const yaml_node_t *list,
			     struct rg_config_node *node, struct node_source *src)
{
	size_t i, n;

	/* each override is checked against every earlier one: bounded */
	if (!expect_list(p, list, "rails", false) ||
	    !list_within_cap(p, list, "rails on a node", RG_MAX_RAILS))
		return;
	n = list_length(list);
	node->rails = parser_calloc(p, n, sizeof(*node->rails));
	src->rail_names = parser_calloc(p, n, sizeof(*src->rail_names));
	if (!node->rails || !src->rail_names)
		return;
	node->n_rails = n;
	for (i = 0; i < n; i++)
		parse_node_rail(p, list_item(p, list, i), &node->rails[i], &src->rail_names[i]);
}

static void parse_node(struct parser *p, const yaml_node_t *map,
		       struct rg_config_node *node, struct node_source *src)
{
	const yaml_node_t *v[NODE_NKEYS];
	const char *s;
	bool discover;

	if (!expect_type(p, map, YAML_MAPPING_NODE, "each entry of 'nodes'"))
		return;
	collect_keys(p, map, "in node", node_keys, NODE_NKEYS, v);

	if (v[NODE_NAME] && (s = expect_string(p, v[NODE_NAME], "'name'")) &&
	    check_node_name(p, v[NODE_NAME], s)) {
		strcpy(node->name, s);
		src->name = v[NODE_NAME];
	}
	/* "auto" is kept as the word: rg_config_apply_node turns it into
	 * uplink discovery, "" means "not overridden". */
	if (v[NODE_UPLINK] && parse_uplink_node(p, v[NODE_UPLINK], node->uplink, &discover)) {
		if (discover)
			strcpy(node->uplink, "auto");
		else
			src->uplink = v[NODE_UPLINK];
	}
	if (v[NODE_GATEWAY] && parse_ipv4_node(p, v[NODE_GATEWAY], "'gateway'", &node->gateway)) {
		node->has_gateway = true;
		src->gateway = v[NODE_GATEWAY];
	}
	if (v[NODE_GATEWAY_MAC])
		node->has_gateway_mac = parse_gateway_mac_node(p, v[NODE_GATEWAY_MAC],
							       "'gatewayMAC'", node->gateway_mac);
	if (v[NODE_RAILS])
		parse_node_rails(p, v[NODE_RAILS], node, src);
}

static void parse_nodes(struct parser *p, const yaml_node_t *list)
{
	size_t i, n;

	if (!expect_list(p, list, "nodes", false) ||
	    !list_within_cap(p, list, "nodes", RG_CONFIG_MAX_NODES))
		return;
	n = list_length(list);
	p->cfg->nodes = parser_calloc(p, n, sizeof(*p->cfg->nodes));
	p->nodes = parser_calloc(p, n, sizeof(*p->nodes));
	if (!p->cfg->nodes || !p->nodes)
		return;
	p->cfg->n_nodes = n;
	for (i = 0; i < n; i++)
		parse_node(p, list_item(p, list, i), &p->cfg->nodes[i], &p->nodes[i]);
}

enum probe_key { PROBE_TARGETS, PROBE_PORT, PROBE_NKEYS };
static const struct key_spec probe_keys[PROBE_NKEYS] = {
	[PROBE_TARGETS] = { "targets", false },
	[PROBE_PORT]    = { "port", false },
};

static void parse_probe(struct parser *p, const yaml_node_t *map)
{
	const yaml_node_t *v[PROBE_NKEYS], *list;
	struct rg_config *c = p->cfg;
	size_t i, n;
	char label[64];

	if (!expect_type(p, map, YAML_MAPPING_NODE, "'probe'"))
		return;
	collect_keys(p, map, "in probe", probe_keys, PROBE_NKEYS, v);
	if (v[PROBE_PORT])
		parse_int_node(p, v[PROBE_PORT], "port", 1, 65535, &c->probe_port);
	list = v[PROBE_TARGETS];
	if (!list || !expect_list(p, list, "targets", false))
		return;
	n = list_length(list);
	if (n > PROBE_TARGETS_MAX) {
		error_node(p, list, "too many probe targets (%zu, at most %d)", n, PROBE_TARGETS_MAX);
		return;
	}
	entry_label(label, sizeof(label), "targets");
	c->probe_targets = parser_calloc(p, n, sizeof(*c->probe_targets));
	p->probe_nodes = parser_calloc(p, n, sizeof(*p->probe_nodes));
	if (!c->probe_targets || !p->probe_nodes)
		return;
	for (i = 0; i < n; i++) {
		const yaml_node_t *item = list_item(p, list, i);

		if (parse_ipv4_node(p, item, label, &c->probe_targets[c->n_probe_targets]))
			p->probe_nodes[c->n_probe_targets++] = item;
	}
}

enum spec_key { SPEC_SUPERNETS, SPEC_COMPUTENET, SPEC_RAILS, SPEC_DATAPATH,
		SPEC_NODES, SPEC_PROBE, SPEC_NKEYS };
static const struct key_spec spec_keys[SPEC_NKEYS] = {
	[SPEC_SUPERNETS]  = { "supernets", true },
	[SPEC_COMPUTENET] = { "computenet", true },
	[SPEC_RAILS]      = { "rails", true },
	[SPEC_DATAPATH]   = { "datapath", false },
	[SPEC_NODES]      = { "nodes", false },
	[SPEC_PROBE]      = { "probe", false },
};

static void parse_spec(struct parser *p, const yaml_node_t *map)
{
	const yaml_node_t *v[SPEC_NKEYS];
	struct rg_config *c = p->cfg;

	if (!expect_type(p, map, YAML_MAPPING_NODE, "'spec'"))
		return;
	collect_keys(p, map, "in spec", spec_keys, SPEC_NKEYS, v);

	if (v[SPEC_SUPERNETS] && expect_list(p, v[SPEC_SUPERNETS], "supernets", true) &&
	    list_within_cap(p, v[SPEC_SUPERNETS], "supernets", RG_CONFIG_MAX_SUPERNETS))
		p->supernets_complete =
			parse_cidr_list(p, v[SPEC_SUPERNETS], "supernets", &c->supernets,
					&c->n_supernets, &p->supernet_nodes);
	if (v[SPEC_COMPUTENET])
		parse_computenet(p, v[SPEC_COMPUTENET]);
	if (v[SPEC_RAILS])
		parse_rails(p, v[SPEC_RAILS]);
	if (v[SPEC_DATAPATH])
		parse_datapath(p, v[SPEC_DATAPATH]);
	if (v[SPEC_NODES])
		parse_nodes(p, v[SPEC_NODES]);
	if (v[SPEC_PROBE])
		parse_probe(p, v[SPEC_PROBE]);
}

enum root_key { ROOT_API_VERSION, ROOT_KIND, ROOT_METADATA, ROOT_SPEC, ROOT_NKEYS };
static const struct key_spec root_keys[ROOT_NKEYS] = {
	[ROOT_API_VERSION] = { "apiVersion", true },
	[ROOT_KIND]        = { "kind", true },
	[ROOT_METADATA]    = { "metadata", true },
	[ROOT_SPEC]        = { "spec", true },
};

static void expect_exact(struct parser *p, const yaml_node_t *n, const char *key,
			 const char *want)
{
	char label[64];
	const char *s;

	quote_key(label, sizeof(label), key);
	s = expect_string(p, n, label);
	if (s && strcmp(s, want))
		error_node(p, n, "%s must be %s, got '%s'", key, want, s);
}

static void parse_root(struct parser *p, const yaml_node_t *root)
{
	const yaml_node_t *v[ROOT_NKEYS];

	if (!expect_type(p, root, YAML_MAPPING_NODE, "the config"))
		return;
	collect_keys(p, root, "at the top level", root_keys, ROOT_NKEYS, v);
	if (v[ROOT_API_VERSION])
		expect_exact(p, v[ROOT_API_VERSION], "apiVersion", RG_CONFIG_API_VERSION);
	if (v[ROOT_KIND])
		expect_exact(p, v[ROOT_KIND], "kind", RG_CONFIG_KIND);
	if (v[ROOT_METADATA])
		parse_metadata(p, v[ROOT_METADATA]);
	if (v[ROOT_SPEC])
		parse_spec(p, v[ROOT_SPEC]);
}

/* ---- cross-field checks ------------------------------------------------ */

/*
 * Overlaps in n log n: prefixes are nested or disjoint, so in (address,
 * length) order a prefix overlaps an earlier one exactly when it lies
 * inside the widest-reaching prefix seen so far (maps/fib.c walks routes
 * the same way).  Each entry is reported at most once, at the one of the
 * pair that comes later in the file, naming the other.
 */
struct prefix_ref {
	uint32_t start, end;
	uint8_t  len;
	uint8_t  list;               /* which of two lists (cross checks) */
	size_t   index;              /* in its list: file order */
};

static int compare_prefix_refs(const void *a, const void *b)
{
	const struct prefix_ref *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	if (x->list != y->list)
		return x->list < y->list ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static struct prefix_ref prefix_ref_of(struct rg_cidr c, uint8_t list, size_t index)
{
	return (struct prefix_ref){ c.addr, c.addr | ~rg_prefix_mask(c.len), c.len, list, index };
}

/* report(p, at, other): entry `at` overlaps entry `other` of the same list
 * (at > other) or, for two lists, entry `at` of list 0 overlaps `other` of
 * list 1.  use[i] false leaves entry i out (NULL: all in). */
typedef void overlap_report(struct parser *p, size_t at, size_t other);

struct prefix_list {
	const struct rg_cidr *v;
	size_t n;
	const bool *use;
};

static struct prefix_ref *sorted_refs(struct parser *p, const struct prefix_list *lists,
				      size_t n_lists, size_t *count)
{
	struct prefix_ref *refs;
	size_t total = 0, l, i;

	for (l = 0; l < n_lists; l++)
		total += lists[l].n;
	refs = parser_calloc(p, total, sizeof(*refs));
	*count = 0;
	if (!refs)
		return NULL;
	for (l = 0; l < n_lists; l++)
		for (i = 0; i < lists[l].n; i++)
			if (!lists[l].use || lists[l].use[i])
				refs[(*count)++] = prefix_ref_of(lists[l].v[i], (uint8_t)l, i);
	qsort(refs, *count, sizeof(*refs), compare_prefix_refs);
	return refs;
}

static void find_overlaps(struct parser *p, struct prefix_list list, overlap_report *report)
{
	bool *reported = parser_calloc(p, list.n, sizeof(*reported));
	struct prefix_ref *refs, *cover = NULL;
	size_t n, i;

	refs = sorted_refs(p, &list, 1, &n);
	for (i = 0; refs && reported && i < n; i++) {
		struct prefix_ref *r = &refs[i];
		size_t at, other;

		if (!cover || r->start > cover->end) {
			cover = r;
			continue;
		}
		at = r->index > cover->index ? r->index : cover->index;
		other = r->index > cover->index ? cover->index : r->index;
		if (!reported[at]) {
			reported[at] = true;
			report(p, at, other);
		}
	}
	free(refs);
	free(reported);
}

/* Entries of a that overlap an entry of b, once each. */
static void find_cross_overlaps(struct parser *p, struct prefix_list a, struct prefix_list b,
				overlap_report *report)
{
	const struct prefix_list lists[2] = { a, b };
	bool *reported = parser_calloc(p, a.n, sizeof(*reported));
	struct prefix_ref *refs, *cover[2] = { NULL, NULL };
	size_t n, i;

	refs = sorted_refs(p, lists, 2, &n);
	for (i = 0; refs && reported && i < n; i++) {
		struct prefix_ref *r = &refs[i], *o = cover[!r->list];
		size_t at;

		if (o && r->start <= o->end) {
			at = r->list == 0 ? r->index : o->index;
			if (!reported[at]) {
				reported[at] = true;
				report(p, at, r->list == 0 ? o->index : r->index);
			}
		}
		if (!cover[r->list] || r->end > cover[r->list]->end)
			cover[r->list] = r;
	}
	free(refs);
	free(reported);
}

static void report_supernet_overlap(struct parser *p, size_t i, size_t j)
{
	const struct rg_cidr *sn = p->cfg->supernets;

	error_node(p, p->supernet_nodes[i], "supernet %s overlaps supernet %s (line %u)",
		   cidr_text(sn[i]).s, cidr_text(sn[j]).s, node_pos(p->supernet_nodes[j]).line);
}

static void report_frontend_overlap(struct parser *p, size_t i, size_t j)
{
	const struct rg_cidr *fe = p->cfg->computenet.frontend;

	error_node(p, p->frontend_nodes[i], "frontend prefix %s overlaps frontend prefix %s (line %u)",
		   cidr_text(fe[i]).s, cidr_text(fe[j]).s, node_pos(p->frontend_nodes[j]).line);
}

static void report_frontend_in_supernet(struct parser *p, size_t i, size_t j)
{
	error_node(p, p->frontend_nodes[i], "frontend prefix %s overlaps supernet %s",
		   cidr_text(p->cfg->computenet.frontend[i]).s,
		   cidr_text(p->cfg->supernets[j]).s);
}

static void check_supernets(struct parser *p)
{
	const struct rg_config *c = p->cfg;
	size_t i;

	for (i = 0; i < c->n_supernets; i++)
		if (c->supernets[i].len < SUPERNET_MIN_PREFIX)
			error_node(p, p->supernet_nodes[i], "supernet %s is too wide (prefix length at least /%d)",
				   cidr_text(c->supernets[i]).s, SUPERNET_MIN_PREFIX);
	find_overlaps(p, (struct prefix_list){ c->supernets, c->n_supernets, NULL },
		      report_supernet_overlap);
}

/* Ranges that are never a network behind the computenet switch: the
 * datapath would send their traffic (multicast, the pod's own loopback,
 * link-local metadata services) to the uplink. */
static const struct {
	struct rg_cidr range;
	const char *what;
} not_frontend[] = {
	{ { 0xe0000000u,  4 }, "multicast" },
	{ { 0x7f000000u,  8 }, "loopback" },
	{ { 0x00000000u,  8 }, "this network" },
	{ { 0xa9fe0000u, 16 }, "link-local" },
	{ { 0xffffffffu, 32 }, "broadcast" },
};

static void check_frontend_is_unicast(struct parser *p, size_t i)
{
	struct rg_cidr fe = p->cfg->computenet.frontend[i];
	size_t k;

	for (k = 0; k < ARRAY_SIZE(not_frontend); k++)
		if (rg_cidr_overlaps(fe, not_frontend[k].range)) {
			error_node(p, p->frontend_nodes[i], "frontend prefix %s overlaps %s (%s), never a front-end network",
				   cidr_text(fe).s, cidr_text(not_frontend[k].range).s,
				   not_frontend[k].what);
			return;
		}
}

static void check_frontend(struct parser *p)
{
	const struct rg_config *c = p->cfg;
	struct prefix_list fe = { c->computenet.frontend, c->computenet.n_frontend, NULL };
	size_t i;

	for (i = 0; i < c->computenet.n_frontend; i++)
		check_frontend_is_unicast(p, i);

	find_cross_overlaps(p, fe, (struct prefix_list){ c->supernets, c->n_supernets, NULL },
			    report_frontend_in_supernet);
	find_overlaps(p, fe, report_frontend_overlap);
}

/*
 * Duplicate names in n log n: sorted by (name, index), each entry equal to
 * the one before it is reported, naming the first of its run.
 */
struct name_ref {
	const char *name;
	size_t index;
};

static int compare_name_refs(const void *a, const void *b)
{
	const struct name_ref *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* names[i] NULL leaves entry i out; report(p, at, first). */
static void find_duplicate_names(struct parser *p, const char *const *names, size_t n,
				 overlap_report *report)
{
	struct name_ref *refs = parser_calloc(p, n, sizeof(*refs));
	size_t count = 0, i, first = 0;

	if (!refs)
		return;
	for (i = 0; i < n; i++)
		if (names[i])
			refs[count++] = (struct name_ref){ names[i], i };
	qsort(refs, count, sizeof(*refs), compare_name_refs);
	for (i = 0; i < count; i++) {
		if (i && !strcmp(refs[i].name, refs[first].name))
			report(p, refs[i].index, refs[first].index);
		else
			first = i;
	}
	free(refs);
}

static const struct rg_cidr *supernet_of(const struct rg_config *c, uint32_t addr)
{
	size_t i;

	for (i = 0; i < c->n_supernets; i++)
		if (rg_cidr_contains(c->supernets[i], addr))
			return &c->supernets[i];
	return NULL;
}

/* The computenet gateway is reached through the uplink: inside a supernet
 * it would be a rail address and the datapath would never send there. */
static void check_computenet_gateway(struct parser *p, const yaml_node_t *n,
				     uint32_t gateway)
{
	const struct rg_cidr *in = supernet_of(p->cfg, gateway);
	uint8_t first = gateway >> 24;

	if (in)
		error_node(p, n, "computenet gateway %s is inside supernet %s; it must be outside every supernet",
			   ipv4_text(gateway).s, cidr_text(*in).s);
	else if (first == 0 || first == 127 || first >= 224)
		error_node(p, n, "computenet gateway %s is not a unicast host address",
			   ipv4_text(gateway).s);
}

static struct node_text rail_label(const struct rg_config *c, size_t i)
{
	struct node_text t;

	if (c->rails[i].name[0])
		snprintf(t.s, sizeof(t.s), "%s", c->rails[i].name);
	else
		snprintf(t.s, sizeof(t.s), "#%zu", i + 1);
	return t;
}

static void check_rail_in_supernet(struct parser *p, size_t i)
{
	const struct rg_config *c = p->cfg;
	const struct rg_config_rail *rail = &c->rails[i];
	char list[256] = "";
	size_t j, used = 0;

	for (j = 0; j < c->n_supernets; j++) {
		if (!rg_cidr_covers(c->supernets[j], rail->subnet))
			continue;
		/* The supernet's own prefix is the black hole for what lies in
		 * no rail: one prefix cannot be both (maps/fib.c refuses). */
		if (rail->subnet.len == c->supernets[j].len)
			error_node(p, p->rails[i].subnet, "rail %s subnet %s is the whole supernet %s; a rail must be smaller than its supernet",
				   rail_label(c, i).s, cidr_text(rail->subnet).s,
				   cidr_text(c->supernets[j]).s);
		return;
	}
	if (!p->supernets_complete || !c->n_supernets)
		return;         /* already reported: nothing to compare with */
	for (j = 0; j < c->n_supernets && used < sizeof(list); j++)
		used += snprintf(list + used, sizeof(list) - used, "%s%s",
				 j ? ", " : "", cidr_text(c->supernets[j]).s);
	error_node(p, p->rails[i].subnet, "rail %s subnet %s is not inside any supernet (%s)",
		   rail_label(c, i).s, cidr_text(rail->subnet).s, list);
}

static void check_rail_gateway(struct parser *p, size_t i)
{
	const struct rg_config_rail *rail = &p->cfg->rails[i];
	const yaml_node_t *n = p->rails[i].gateway;
	uint32_t host_mask = ~rg_prefix_mask(rail->subnet.len);
	const char *problem = NULL;

	if (!rg_cidr_contains(rail->subnet, rail->gateway))
		problem = "is outside its subnet";
	else if ((rail->gateway & host_mask) == 0)
		problem = "is the network address of its subnet";
	else if ((rail->gateway & host_mask) == host_mask)
		problem = "is the broadcast address of its subnet";
	if (problem)
		error_node(p, n, "rail %s gateway %s %s %s", rail_label(p->cfg, i).s,
			   ipv4_text(rail->gateway).s, problem, cidr_text(rail->subnet).s);
}

static bool is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* A representor entry of the config, in file order. */
struct rep_ref {
	size_t rail, k;
	const char *name;
};

static const yaml_node_t *rep_node(const struct parser *p, const struct rep_ref *r)
{
	return p->rails[r->rail].representors[r->k];
}

/* The first of the entries of_kind (the globs, or the names: the other
 * kind than entry s) before s, in another rail, that clashes with s
 * (the glob matches the name): SIZE_MAX when none does. */
static size_t first_glob_clash(const struct rep_ref *refs, const size_t *of_kind, size_t n,
			       size_t s)
{
	const struct rep_ref *me = &refs[s];

	for (size_t x = 0; x < n && of_kind[x] < s; x++) {
		const struct rep_ref *o = &refs[of_kind[x]];
		const char *glob = is_glob(me->name) ? me->name : o->name;
		const char *name = is_glob(me->name) ? o->name : me->name;

		if (o->rail != me->rail && !fnmatch(glob, name, 0))
			return of_kind[x];
	}
	return SIZE_MAX;
}

/*
 * Each representor belongs to one rail: the same name or glob twice is an
 * error, and so is a name in one rail that a glob of another rail matches
 * (the interface would be claimed by both).  Each entry reports the first
 * earlier entry, in file order, it clashes with.  Duplicates come from a
 * sort by name and glob-name clashes pair an entry only with the earlier
 * entries of the other kind: n log n plus names x globs, not every pair
 * (1024 named representors were half a million comparisons).
 */
static void check_representors(struct parser *p)
{
	const struct rg_config *c = p->cfg;
	struct rep_ref *refs;
	struct name_ref *sorted;
	size_t *first_same, *globs, *names;
	size_t total = 0, s = 0, n_globs = 0, n_names = 0, head = 0;

	for (size_t i = 0; i < c->n_rails; i++)
		total += c->rails[i].n_representors;
	if (!total)
		return;
	refs = parser_calloc(p, total, sizeof(*refs));
	sorted = parser_calloc(p, total, sizeof(*sorted));
	first_same = parser_calloc(p, total, sizeof(*first_same));
	globs = parser_calloc(p, total, sizeof(*globs));
	names = parser_calloc(p, total, sizeof(*names));
	if (!refs || !sorted || !first_same || !globs || !names)
		goto out;
	for (size_t i = 0; i < c->n_rails; i++) {
		for (size_t k = 0; k < c->rails[i].n_representors; k++, s++) {
			refs[s] = (struct rep_ref){ i, k, c->rails[i].representors[k] };
			sorted[s] = (struct name_ref){ refs[s].name, s };
			if (is_glob(refs[s].name))
				globs[n_globs++] = s;
			else
				names[n_names++] = s;
		}
	}
	qsort(sorted, total, sizeof(*sorted), compare_name_refs);
	for (s = 0; s < total; s++) {
		if (s && strcmp(sorted[s].name, sorted[head].name))
			head = s;
		first_same[sorted[s].index] = head == s ? SIZE_MAX : sorted[head].index;
	}
	for (s = 0; s < total; s++) {
		const struct rep_ref *me = &refs[s];
		size_t dup = first_same[s];
		size_t clash = is_glob(me->name) ? first_glob_clash(refs, names, n_names, s)
						 : first_glob_clash(refs, globs, n_globs, s);

		if (dup != SIZE_MAX && dup < clash)
			error_node(p, rep_node(p, me), "duplicate representor '%s' (first in rail %s at line %u)",
				   me->name, rail_label(c, refs[dup].rail).s,
				   node_pos(rep_node(p, &refs[dup])).line);
		else if (clash != SIZE_MAX)
			error_node(p, rep_node(p, me), "representor '%s' of rail %s also matches '%s' of rail %s (line %u)",
				   me->name, rail_label(c, me->rail).s, refs[clash].name,
				   rail_label(c, refs[clash].rail).s, node_pos(rep_node(p, &refs[clash])).line);
	}
out:
	free(refs);
	free(sorted);
	free(first_same);
	free(globs);
	free(names);
}

static void report_rail_name(struct parser *p, size_t i, size_t first)
{
	error_node(p, p->rails[i].name, "duplicate rail name '%s' (first at line %u)",
		   p->cfg->rails[i].name, node_pos(p->rails[first].name).line);
}

static void report_rail_overlap(struct parser *p, size_t i, size_t j)
{
	const struct rg_config *c = p->cfg;

	error_node(p, p->rails[i].subnet, "rail %s subnet %s overlaps rail %s subnet %s",
		   rail_label(c, i).s, cidr_text(c->rails[i].subnet).s,
		   rail_label(c, j).s, cidr_text(c->rails[j].subnet).s);
}

/* Rail names and subnets, for the n log n checks: NULL / false where the
 * value did not parse. */
static void check_rail_names_and_overlaps(struct parser *p)
{
	const struct rg_config *c = p->cfg;
	const char **names = parser_calloc(p, c->n_rails, sizeof(*names));
	bool *use = parser_calloc(p, c->n_rails, sizeof(*use));
	struct rg_cidr *subnets = parser_calloc(p, c->n_rails, sizeof(*subnets));
	size_t i;

	for (i = 0; names && use && subnets && i < c->n_rails; i++) {
		names[i] = p->rails[i].name ? c->rails[i].name : NULL;
		use[i] = p->rails[i].subnet != NULL;
		subnets[i] = c->rails[i].subnet;
	}
	if (names && use && subnets) {
		find_duplicate_names(p, names, c->n_rails, report_rail_name);
		find_overlaps(p, (struct prefix_list){ subnets, c->n_rails, use },
			      report_rail_overlap);
	}
	free(names);
	free(use);
	free(subnets);
}

/* A representor pattern that would attach to the interface `ifname`. */
static bool representor_matches(const char *pattern, const char *ifname)
{
	return is_glob(pattern) ? !fnmatch(pattern, ifname, 0) : !strcmp(pattern, ifname);
}

/*
 * The uplink is never a representor: attached, it would see the
 * computenet's own traffic as a rail's and drop it as spoofed or send it
 * back out.  A glob is decidable here only against a named uplink;
 * `uplink: auto` is checked when the plan resolves (loader/resolve.c).
 */
static void check_not_uplink(struct parser *p, size_t i, size_t k)
{
	const struct rg_config *c = p->cfg;
	const char *name = c->rails[i].representors[k];
	const char *uplink = c->computenet.uplink;

	if (!p->uplink_node || !representor_matches(name, uplink))
		return;
	if (is_glob(name))
		error_node(p, p->rails[i].representors[k], "representor '%s' of rail %s matches the computenet uplink '%s' (line %u)",
			   name, rail_label(c, i).s, uplink, node_pos(p->uplink_node).line);
	else
		error_node(p, p->rails[i].representors[k], "representor '%s' of rail %s is the computenet uplink (line %u)",
			   name, rail_label(c, i).s, node_pos(p->uplink_node).line);
}

/* The same for a node's own uplink: one error per node, at its uplink. */
static void check_node_uplink(struct parser *p, size_t n)
{
	const struct rg_config *c = p->cfg;
	const char *uplink = c->nodes[n].uplink;
	size_t i, k;

	for (i = 0; p->rails && i < c->n_rails; i++)
		for (k = 0; k < c->rails[i].n_representors; k++)
			if (representor_matches(c->rails[i].representors[k], uplink)) {
				error_node(p, p->nodes[n].uplink, "uplink '%s' of node %s matches representor '%s' of rail %s (line %u)",
					   uplink, c->nodes[n].name[0] ? c->nodes[n].name : "?",
					   c->rails[i].representors[k], rail_label(c, i).s,
					   node_pos(p->rails[i].representors[k]).line);
				return;
			}
}

static void check_rails(struct parser *p)
{
	const struct rg_config *c = p->cfg;
	size_t i, j, k;

	check_rail_names_and_overlaps(p);
	check_representors(p);
	for (i = 0; i < c->n_rails; i++) {
		const struct rail_source *src = &p->rails[i];

		if (src->subnet)
			check_rail_in_supernet(p, i);
		if (src->subnet && src->gateway)
			check_rail_gateway(p, i);
		for (k = 0; k < c->rails[i].n_representors; k++)
			check_not_uplink(p, i, k);
		if (src->pf)
			for (j = 0; j < i; j++)
				if (p->rails[j].pf && !strcmp(c->rails[i].pf, c->rails[j].pf)) {
					error_node(p, src->pf, "pf '%s' of rail %s is rail %s's too (line %u)",
						   c->rails[i].pf, rail_label(c, i).s, rail_label(c, j).s,
						   node_pos(p->rails[j].pf).line);
					break;
				}
	}
}

/* A node's rail overrides name rails of spec.rails, each once. */
static void check_node_rails(struct parser *p, size_t i)
{
	struct rg_config_node *node = &p->cfg->nodes[i];
	const yaml_node_t **names = p->nodes[i].rail_names;
	size_t k, j, r;

	for (k = 0; names && k < node->n_rails; k++) {
		const char *name;

		if (!names[k])
			continue;
		name = scalar_value(names[k]);
		for (r = 0; r < p->cfg->n_rails; r++)
			if (p->rails[r].name && !strcmp(p->cfg->rails[r].name, name))
				break;
		if (r == p->cfg->n_rails) {
			error_node(p, names[k], "node %s overrides rail '%s', which spec.rails does not have",
				   node->name, name);
			continue;
		}
		node->rails[k].rail = r;
		for (j = 0; j < k; j++)
			if (names[j] && !strcmp(scalar_value(names[j]), name)) {
				error_node(p, names[k], "rail '%s' overridden twice on node %s (first at line %u)",
					   name, node->name, node_pos(names[j]).line);
				break;
			}
	}
}

static void report_node_name(struct parser *p, size_t i, size_t first)
{
	error_node(p, p->nodes[i].name, "duplicate node name '%s' (first at line %u)",
		   p->cfg->nodes[i].name, node_pos(p->nodes[first].name).line);
}

static void check_nodes(struct parser *p)
{
	const struct rg_config *c = p->cfg;
	const char **names = parser_calloc(p, c->n_nodes, sizeof(*names));
	size_t i;

	for (i = 0; names && i < c->n_nodes; i++)
		names[i] = p->nodes[i].name ? c->nodes[i].name : NULL;
	if (names)
		find_duplicate_names(p, names, c->n_nodes, report_node_name);
	free(names);
	for (i = 0; i < c->n_nodes; i++) {
		if (p->nodes[i].uplink)
			check_node_uplink(p, i);
		if (p->nodes[i].gateway)
			check_computenet_gateway(p, p->nodes[i].gateway, c->nodes[i].gateway);
		check_node_rails(p, i);
	}
}

/*
 * A probe target must be something the probe's verdict means anything
 * for: inside a rail or a front-end prefix, and never a rail's gateway:
 * the switch answers its own addresses even when it does not route
 * between rails (Scenario 2), so a gateway always looks reachable.
 */
static void check_probe_targets(struct parser *p)
{
	const struct rg_config *c = p->cfg;
	size_t i, j;

	for (i = 0; i < c->n_probe_targets; i++) {
		uint32_t t = c->probe_targets[i];
		const yaml_node_t *at = p->probe_nodes[i];
		bool inside = false;

		for (j = 0; j < i; j++)
			if (c->probe_targets[j] == t)
				break;
		if (j < i) {
			error_node(p, at, "duplicate probe target %s (first at line %u)",
				   ipv4_text(t).s, node_pos(p->probe_nodes[j]).line);
			continue;
		}
		for (j = 0; j < c->n_rails; j++) {
			if (p->rails[j].gateway && c->rails[j].gateway == t)
				break;
			if (p->rails[j].subnet && rg_cidr_contains(c->rails[j].subnet, t))
				inside = true;
		}
		if (j < c->n_rails) {
			error_node(p, at, "probe target %s is the gateway of rail %s: the switch answers its own addresses even when it does not route between rails; name an address beyond it",
				   ipv4_text(t).s, rail_label(c, j).s);
			continue;
		}
		for (j = 0; j < c->computenet.n_frontend; j++)
			if (rg_cidr_contains(c->computenet.frontend[j], t))
				inside = true;
		if (!inside)
			error_node(p, at, "probe target %s is in no rail and no front-end prefix",
				   ipv4_text(t).s);
	}
}

static void check_config(struct parser *p)
{
	check_supernets(p);
	check_frontend(p);
	if (p->gateway_node)
		check_computenet_gateway(p, p->gateway_node, p->cfg->computenet.gateway);
	if (p->rails)
		check_rails(p);
	if (p->nodes)
		check_nodes(p);
	check_probe_targets(p);
}

/* ---- entry points ------------------------------------------------------ */

/* Line and column (in bytes) of a byte offset in the input. */
static struct rg_pos pos_of_offset(const struct parser *p, size_t offset)
{
	struct rg_pos pos = { 1, 1 };
	size_t i;

	for (i = 0; i < offset && i < p->text_len; i++) {
		if (p->text[i] == '\n') {
			pos.line++;
			pos.col = 1;
		} else {
			pos.col++;
		}
	}
	return pos;
}

static void report_yaml_error(struct parser *p, const yaml_parser_t *yp)
{
	struct rg_pos pos = { (unsigned)yp->problem_mark.line + 1,
			      (unsigned)yp->problem_mark.column + 1 };

	if (yp->error == YAML_MEMORY_ERROR) {
		p->oom = true;
		return;
	}
	if (yp->error == YAML_READER_ERROR) {
		/* The reader (encoding) reports a byte offset, not a mark. */
		error_at(p, pos_of_offset(p, yp->problem_offset),
			 "YAML syntax error: %s (byte %zu)",
			 yp->problem ? yp->problem : "unreadable input", yp->problem_offset);
		return;
	}
	if (yp->context)
		error_at(p, pos, "YAML syntax error: %s (%s at line %zu, column %zu)",
			 yp->problem ? yp->problem : "invalid YAML", yp->context,
			 yp->context_mark.line + 1, yp->context_mark.column + 1);
	else
		error_at(p, pos, "YAML syntax error: %s",
			 yp->problem ? yp->problem : "invalid YAML");
}

/* A config is one document; a second one ("---" and more) is a mistake
 * (two configs pasted together), not something to ignore. */
static void check_single_document(struct parser *p, yaml_parser_t *yp)
{
	yaml_document_t next;
	yaml_node_t *root;

	if (!yaml_parser_load(yp, &next)) {
		report_yaml_error(p, yp);
		return;
	}
	root = yaml_document_get_root_node(&next);
	if (root)
		error_at(p, node_pos(root), "only one YAML document is allowed in a config");
	yaml_document_delete(&next);
}

static void parse_document(struct parser *p, yaml_parser_t *yp)
{
	yaml_document_t doc;
	yaml_node_t *root;

	if (!yaml_parser_load(yp, &doc)) {
		report_yaml_error(p, yp);
		return;
	}
	p->doc = &doc;
	root = yaml_document_get_root_node(&doc);
	if (!root) {
		error_at(p, (struct rg_pos){ 1, 1 }, "the config is empty (expected a %s object)",
			 RG_CONFIG_KIND);
	} else {
		parse_root(p, root);
		check_config(p);
		check_single_document(p, yp);
	}
	p->doc = NULL;
	yaml_document_delete(&doc);
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
static void check_no_tag(struct parser *p, const yaml_event_t *ev)
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
		error_at(p, mark_pos(ev->start_mark),
			 "YAML tags are not supported ('!!%.*s'): write the value without one",
			 SHOWN_SCALAR_MAX, shown + sizeof(core) - 1);
	else
		error_at(p, mark_pos(ev->start_mark),
			 "YAML tags are not supported ('%.*s'): write the value without one",
			 SHOWN_SCALAR_MAX, shown);
}

/*
 * A pass over libyaml's events in front of its loader, which would build a
 * node per level of nesting first (100k levels: 49 s) and look only
 * afterwards: stops at the first level deeper than RG_CONFIG_MAX_DEPTH,
 * and reports every explicit tag.  Returns false when the document must
 * not be loaded.  A syntax error is left to the loader, which reports it
 * with its context.
 */
static bool check_events(struct parser *p, const char *yaml, size_t len)
{
	yaml_parser_t yp;
	yaml_event_t ev;
	bool ok = true, done = false;
	int depth = 0;

	if (!yaml_parser_initialize(&yp)) {
		p->oom = true;
		return false;
	}
	yaml_parser_set_input_string(&yp, (const unsigned char *)yaml, len);
	while (!done && yaml_parser_parse(&yp, &ev)) {
		check_no_tag(p, &ev);
		switch (ev.type) {
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (++depth > RG_CONFIG_MAX_DEPTH) {
				error_at(p, mark_pos(ev.start_mark), "YAML nesting deeper than %d levels",
					 RG_CONFIG_MAX_DEPTH);
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

static void free_sources(struct parser *p)
{
	size_t i;

	if (p->rails)
		for (i = 0; i < p->cfg->n_rails; i++)
			free(p->rails[i].representors);
	free(p->rails);
	if (p->nodes)
		for (i = 0; i < p->cfg->n_nodes; i++)
			free(p->nodes[i].rail_names);
	free(p->nodes);
	free(p->supernet_nodes);
	free(p->frontend_nodes);
	free(p->probe_nodes);
}

int rg_config_parse(const char *name, const char *yaml, size_t len,
		    struct rg_config *cfg, struct rg_diags *diags)
{
	/* The ICMP rate defaults are the kernel's icmp_msgs_per_sec / icmp_msgs_burst. */
	struct rg_config c = { .anti_spoof = true, .mode = RG_CONFIG_MODE_AUTO,
			       .computenet = { .icmp_rate = 1000, .icmp_burst = 50 } };
	struct parser p = { .file = name ? name : "<config>", .cfg = &c,
			    .text = yaml, .text_len = len };
	yaml_parser_t yp;
	int ret = 0;

	memset(cfg, 0, sizeof(*cfg));
	if (len > RG_CONFIG_MAX_BYTES) {
		rg_diags_add(diags, p.file, (struct rg_pos){ 1, 1 },
			     "the config is larger than %d bytes, the limit of a config",
			     RG_CONFIG_MAX_BYTES);
		return -EFBIG;
	}
	c.path = strdup(p.file);
	if (!c.path || rg_sha256(yaml, len, c.sha256)) {
		p.oom = true;
	} else if (!check_events(&p, yaml, len)) {
		/* reported; nothing loaded */
	} else if (!yaml_parser_initialize(&yp)) {
		p.oom = true;
	} else {
		yaml_parser_set_input_string(&yp, (const unsigned char *)yaml, len);
		parse_document(&p, &yp);
		yaml_parser_delete(&yp);
	}
	free_sources(&p);

	if (p.n_errors)
		ret = -1;
	flush_errors(&p, diags);
	if (p.oom) {
		/* Errors may be missing: say so rather than pass a config. */
		rg_diags_add(diags, p.file, (struct rg_pos){ 1, 1 }, "out of memory");
		ret = -ENOMEM;
	}
	if (ret) {
		rg_config_free(&c);
		return ret;
	}
	*cfg = c;
	return 0;
}

int rg_config_read(const char *path, char **text, size_t *len, char *err, size_t n)
{
	int ret = rg_file_read(path, RG_CONFIG_MAX_BYTES, text, len, err, n);

	if (ret == -EFBIG)
		rg_set_err(err, n, "%s: cannot read: larger than %d bytes, the limit of a config",
			   path, RG_CONFIG_MAX_BYTES);
	return ret;
}

int rg_config_load(const char *path, struct rg_config *cfg, struct rg_diags *diags)
{
	char *text = NULL, msg[PATH_MAX + 64];
	size_t len = 0;
	int err;

	memset(cfg, 0, sizeof(*cfg));
	err = rg_config_read(path, &text, &len, msg, sizeof(msg));
	if (err) {
		/* one list for every caller to print: the read error joins it */
		diags_push(diags, strdup(msg));
		return err;
	}
	err = rg_config_parse(path, text, len, cfg, diags);
	free(text);
	return err;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

void rg_config_free(struct rg_config *cfg)
{
	size_t i, j;

	if (!cfg)
		return;
	for (i = 0; cfg->rails && i < cfg->n_rails; i++)
		free_names(cfg->rails[i].representors, cfg->rails[i].n_representors);
	free(cfg->rails);
	free(cfg->supernets);
	free(cfg->computenet.frontend);
	free(cfg->probe_targets);
	for (i = 0; cfg->nodes && i < cfg->n_nodes; i++) {
		for (j = 0; j < cfg->nodes[i].n_rails; j++)
			free_names(cfg->nodes[i].rails[j].representors,
				   cfg->nodes[i].rails[j].n_representors);
		free(cfg->nodes[i].rails);
	}
	free(cfg->nodes);
	free(cfg->path);
	memset(cfg, 0, sizeof(*cfg));
}

/* The node's pf or representors replace the rail's (the other is dropped:
 * a rail selects one way).  An entry already moved is left alone. */
static void move_rail_selection(struct rg_config_rail *rail, struct rg_config_node_rail *nr)
{
	if (!nr->pf[0] && !nr->n_representors)
		return;
	free_names(rail->representors, rail->n_representors);
	rail->representors = nr->representors;
	rail->n_representors = nr->n_representors;
	strcpy(rail->pf, nr->pf);
	nr->representors = NULL;
	nr->n_representors = 0;
	nr->pf[0] = '\0';
}

void rg_config_apply_node(struct rg_config *cfg, const char *node_name)
{
	const struct rg_config_node *node = NULL;
	size_t i;

	for (i = 0; node_name && i < cfg->n_nodes; i++) {
		if (!strcmp(cfg->nodes[i].name, node_name)) {
			node = &cfg->nodes[i];
			break;
		}
	}
	if (!node)
		return;

	if (!strcmp(node->uplink, "auto")) {
		cfg->computenet.uplink[0] = '\0';
		cfg->computenet.uplink_discover = true;
	} else if (node->uplink[0]) {
		strcpy(cfg->computenet.uplink, node->uplink);
		cfg->computenet.uplink_discover = false;
	}
	if (node->has_gateway && node->gateway != cfg->computenet.gateway) {
		cfg->computenet.gateway = node->gateway;
		/* The global MAC is the other gateway's: resolve this one. */
		cfg->computenet.has_gateway_mac = false;
		memset(cfg->computenet.gateway_mac, 0, sizeof(cfg->computenet.gateway_mac));
	}
	if (node->has_gateway_mac) {
		cfg->computenet.has_gateway_mac = true;
		memcpy(cfg->computenet.gateway_mac, node->gateway_mac,
		       sizeof(cfg->computenet.gateway_mac));
	}
	for (i = 0; i < node->n_rails; i++)
		move_rail_selection(&cfg->rails[node->rails[i].rail], &node->rails[i]);
}
