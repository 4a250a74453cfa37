// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The config's cross-field checks, run once the schema has parsed what it
 * could: overlaps between prefixes, containment in the supernets, gateways
 * inside their subnets, each representor and PF in one rail, per-node
 * overrides against spec.rails, probe targets.  Only values that parsed
 * are compared, each reported at the node it came from.
 */
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/config/checks.h"
#include "lib/addr.h"

enum {
	SUPERNET_MIN_PREFIX  = RG_ZONE_MIN_PREFIX,
};

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
	refs = doc_calloc(&p->doc, total, sizeof(*refs));
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
	bool *reported = doc_calloc(&p->doc, list.n, sizeof(*reported));
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
	bool *reported = doc_calloc(&p->doc, a.n, sizeof(*reported));
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

	error_node(&p->doc, p->supernet_nodes[i], "supernet %s overlaps supernet %s (line %u)",
		   rg_cidr_text(sn[i]).s, rg_cidr_text(sn[j]).s, node_pos(p->supernet_nodes[j]).line);
}

static void report_frontend_overlap(struct parser *p, size_t i, size_t j)
{
	const struct rg_cidr *fe = p->cfg->computenet.frontend;

	error_node(&p->doc, p->frontend_nodes[i], "frontend prefix %s overlaps frontend prefix %s (line %u)",
		   rg_cidr_text(fe[i]).s, rg_cidr_text(fe[j]).s, node_pos(p->frontend_nodes[j]).line);
}

static void report_frontend_in_supernet(struct parser *p, size_t i, size_t j)
{
	error_node(&p->doc, p->frontend_nodes[i], "frontend prefix %s overlaps supernet %s",
		   rg_cidr_text(p->cfg->computenet.frontend[i]).s,
		   rg_cidr_text(p->cfg->supernets[j]).s);
}

static void check_supernets(struct parser *p)
{
	const struct rg_config *c = p->cfg;
	size_t i;

	for (i = 0; i < c->n_supernets; i++)
		if (c->supernets[i].len < SUPERNET_MIN_PREFIX)
			error_node(&p->doc, p->supernet_nodes[i], "supernet %s is too wide (prefix length at least /%d)",
				   rg_cidr_text(c->supernets[i]).s, SUPERNET_MIN_PREFIX);
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
			error_node(&p->doc, p->frontend_nodes[i], "frontend prefix %s overlaps %s (%s), never a front-end network",
				   rg_cidr_text(fe).s, rg_cidr_text(not_frontend[k].range).s,
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
	struct name_ref *refs = doc_calloc(&p->doc, n, sizeof(*refs));
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
		error_node(&p->doc, n, "computenet gateway %s is inside supernet %s; it must be outside every supernet",
			   rg_ipv4_text(gateway).s, rg_cidr_text(*in).s);
	else if (first == 0 || first == 127 || first >= 224)
		error_node(&p->doc, n, "computenet gateway %s is not a unicast host address",
			   rg_ipv4_text(gateway).s);
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
			error_node(&p->doc, p->rails[i].subnet, "rail %s subnet %s is the whole supernet %s; a rail must be smaller than its supernet",
				   rail_label(c, i).s, rg_cidr_text(rail->subnet).s,
				   rg_cidr_text(c->supernets[j]).s);
		return;
	}
	if (!p->supernets_complete || !c->n_supernets)
		return;         /* already reported: nothing to compare with */
	for (j = 0; j < c->n_supernets && used < sizeof(list); j++)
		used += snprintf(list + used, sizeof(list) - used, "%s%s",
				 j ? ", " : "", rg_cidr_text(c->supernets[j]).s);
	error_node(&p->doc, p->rails[i].subnet, "rail %s subnet %s is not inside any supernet (%s)",
		   rail_label(c, i).s, rg_cidr_text(rail->subnet).s, list);
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
		error_node(&p->doc, n, "rail %s gateway %s %s %s", rail_label(p->cfg, i).s,
			   rg_ipv4_text(rail->gateway).s, problem, rg_cidr_text(rail->subnet).s);
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
	refs = doc_calloc(&p->doc, total, sizeof(*refs));
	sorted = doc_calloc(&p->doc, total, sizeof(*sorted));
	first_same = doc_calloc(&p->doc, total, sizeof(*first_same));
	globs = doc_calloc(&p->doc, total, sizeof(*globs));
	names = doc_calloc(&p->doc, total, sizeof(*names));
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
			error_node(&p->doc, rep_node(p, me), "duplicate representor '%s' (first in rail %s at line %u)",
				   me->name, rail_label(c, refs[dup].rail).s,
				   node_pos(rep_node(p, &refs[dup])).line);
		else if (clash != SIZE_MAX)
			error_node(&p->doc, rep_node(p, me), "representor '%s' of rail %s also matches '%s' of rail %s (line %u)",
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
	error_node(&p->doc, p->rails[i].name, "duplicate rail name '%s' (first at line %u)",
		   p->cfg->rails[i].name, node_pos(p->rails[first].name).line);
}

static void report_rail_overlap(struct parser *p, size_t i, size_t j)
{
	const struct rg_config *c = p->cfg;

	error_node(&p->doc, p->rails[i].subnet, "rail %s subnet %s overlaps rail %s subnet %s",
		   rail_label(c, i).s, rg_cidr_text(c->rails[i].subnet).s,
		   rail_label(c, j).s, rg_cidr_text(c->rails[j].subnet).s);
}

/* Rail names and subnets, for the n log n checks: NULL / false where the
 * value did not parse. */
static void check_rail_names_and_overlaps(struct parser *p)
{
	const struct rg_config *c = p->cfg;
	const char **names = doc_calloc(&p->doc, c->n_rails, sizeof(*names));
	bool *use = doc_calloc(&p->doc, c->n_rails, sizeof(*use));
	struct rg_cidr *subnets = doc_calloc(&p->doc, c->n_rails, sizeof(*subnets));
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
 * `uplink: auto` is checked when the plan resolves (loader/plan/resolve.c).
 */
static void check_not_uplink(struct parser *p, size_t i, size_t k)
{
	const struct rg_config *c = p->cfg;
	const char *name = c->rails[i].representors[k];
	const char *uplink = c->computenet.uplink;

	if (!p->uplink_node || !representor_matches(name, uplink))
		return;
	if (is_glob(name))
		error_node(&p->doc, p->rails[i].representors[k], "representor '%s' of rail %s matches the computenet uplink '%s' (line %u)",
			   name, rail_label(c, i).s, uplink, node_pos(p->uplink_node).line);
	else
		error_node(&p->doc, p->rails[i].representors[k], "representor '%s' of rail %s is the computenet uplink (line %u)",
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
				error_node(&p->doc, p->nodes[n].uplink, "uplink '%s' of node %s matches representor '%s' of rail %s (line %u)",
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
					error_node(&p->doc, src->pf, "pf '%s' of rail %s is rail %s's too (line %u)",
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
			error_node(&p->doc, names[k], "node %s overrides rail '%s', which spec.rails does not have",
				   node->name, name);
			continue;
		}
		node->rails[k].rail = r;
		for (j = 0; j < k; j++)
			if (names[j] && !strcmp(scalar_value(names[j]), name)) {
				error_node(&p->doc, names[k], "rail '%s' overridden twice on node %s (first at line %u)",
					   name, node->name, node_pos(names[j]).line);
				break;
			}
	}
}

static void report_node_name(struct parser *p, size_t i, size_t first)
{
	error_node(&p->doc, p->nodes[i].name, "duplicate node name '%s' (first at line %u)",
		   p->cfg->nodes[i].name, node_pos(p->nodes[first].name).line);
}

static void check_nodes(struct parser *p)
{
	const struct rg_config *c = p->cfg;
	const char **names = doc_calloc(&p->doc, c->n_nodes, sizeof(*names));
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
			error_node(&p->doc, at, "duplicate probe target %s (first at line %u)",
				   rg_ipv4_text(t).s, node_pos(p->probe_nodes[j]).line);
			continue;
		}
		for (j = 0; j < c->n_rails; j++) {
			if (p->rails[j].gateway && c->rails[j].gateway == t)
				break;
			if (p->rails[j].subnet && rg_cidr_contains(c->rails[j].subnet, t))
				inside = true;
		}
		if (j < c->n_rails) {
			error_node(&p->doc, at, "probe target %s is the gateway of rail %s: the switch answers its own addresses even when it does not route between rails; name an address beyond it",
				   rg_ipv4_text(t).s, rail_label(c, j).s);
			continue;
		}
		for (j = 0; j < c->computenet.n_frontend; j++)
			if (rg_cidr_contains(c->computenet.frontend[j], t))
				inside = true;
		if (!inside)
			error_node(&p->doc, at, "probe target %s is in no rail and no front-end prefix",
				   rg_ipv4_text(t).s);
	}
}

void check_config(struct parser *p)
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
