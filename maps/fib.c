// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The forwarding table compiler (maps/fib.h): prefixes in, the DIR-24-8
 * image the datapath reads out (zones, tbl24, tbl8, LPM fallback list).
 *
 * The algorithm, in one pass over the routes sorted by (addr, len):
 *
 *  - Prefixes are either nested or disjoint.  In (addr, len) order a prefix
 *    comes after every prefix that contains it, so the routes of one
 *    top-level prefix (a zone) form one contiguous run starting with the
 *    zone's own route, and a route is top-level exactly when the current
 *    zone does not contain it.  No O(n^2) containment checks.
 *
 *  - The same order is a pre-order walk of the prefix tree: when two routes
 *    overlap, the later one is the more specific.  Painting each route over
 *    its slots in that order therefore leaves every slot holding its
 *    longest match, and when the first prefix longer than /24 of a /24 shows
 *    up, that /24's tbl24 slot already holds its final value: it seeds the
 *    tbl8 group.
 *
 * Zones that cannot expand (shorter than /RG_ZONE_MIN_PREFIX, beyond
 * RG_MAX_ZONES, or not fitting RG_TBL24_SLOTS; when there are too many,
 * the zones holding the fewest routes lose) go to the LPM list whole:
 * the datapath consults the LPM trie only when no zone matched, so a
 * fallback zone must answer for every address inside it by itself.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maps/fib.h"
#include "lib/errbuf.h"
#include "lib/addr.h"

/* Length at which tbl24 stops and tbl8 takes over. */
#define RG_TBL24_PREFIX 24

static bool prefix_contains(uint32_t net, uint8_t len, uint32_t addr)
{
	return rg_cidr_contains((struct rg_cidr){ .addr = net, .len = len }, addr);
}

static bool route_kind_is_leaf(uint32_t entry)
{
	switch (RG_ROUTE_KIND(entry)) {
	case RG_ROUTE_RAIL:
	case RG_ROUTE_FRONTEND:
	case RG_ROUTE_BLACKHOLE:
		return true;
	default:
		/* NONE would be a hole the LPM semantics cannot express,
		 * TBL8 is internal to tbl24, 5..15 do not exist. */
		return false;
	}
}

static int validate_route(const struct rg_route *r, char *err, size_t err_len)
{
	char p[RG_CIDR_STR_LEN + 1];

	if (r->len > 32) {
		rg_set_err(err, err_len, "route %s: prefix length %u is longer than 32",
			rg_cidr_str(r->addr, r->len, p), r->len);
		return -EINVAL;
	}
	if (r->addr & ~rg_prefix_mask(r->len)) {
		char net[RG_CIDR_STR_LEN + 1];

		rg_set_err(err, err_len, "route %s: host bits set (the network is %s)",
			rg_cidr_str(r->addr, r->len, p),
			rg_cidr_str(r->addr & rg_prefix_mask(r->len), r->len, net));
		return -EINVAL;
	}
	if (!route_kind_is_leaf(r->entry)) {
		rg_set_err(err, err_len,
			"route %s: entry 0x%08x has kind %u, not rail, frontend or blackhole",
			rg_cidr_str(r->addr, r->len, p), r->entry, RG_ROUTE_KIND(r->entry));
		return -EINVAL;
	}
	return 0;
}

static int route_cmp_addr_len(const void *a, const void *b)
{
	const struct rg_route *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (int)x->len - (int)y->len;
}

/* Validates, copies and sorts by (addr, len); refuses duplicates. */
static int sort_routes(const struct rg_route *routes, size_t n,
		       struct rg_route **sorted_out, char *err, size_t err_len)
{
	struct rg_route *sorted;
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = validate_route(&routes[i], err, err_len);
		if (ret)
			return ret;
	}

	sorted = malloc((n ? n : 1) * sizeof(*sorted));
	if (!sorted) {
		rg_set_err(err, err_len, "out of memory sorting %zu routes", n);
		return -ENOMEM;
	}
	if (n)
		memcpy(sorted, routes, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), route_cmp_addr_len);

	for (i = 1; i < n; i++) {
		if (sorted[i].addr == sorted[i - 1].addr &&
		    sorted[i].len == sorted[i - 1].len) {
			char p[RG_CIDR_STR_LEN + 1];

			rg_set_err(err, err_len, "route %s: duplicate prefix",
				rg_cidr_str(sorted[i].addr, sorted[i].len, p));
			free(sorted);
			return -EINVAL;
		}
	}
	*sorted_out = sorted;
	return 0;
}

/* State of one compilation. */
struct fib_builder {
	struct rg_fib_image *img;
	uint32_t tbl8_needed;            /* groups wanted, also past the limit */
	uint32_t overflow_slot;          /* tbl24 slot of a /24 refused a group */
	const struct rg_route *overflow; /* first route that found no group */
};

#define RG_SLOT_NONE UINT32_MAX

static int alloc_image(struct rg_fib_image *img, size_t n, char *err, size_t err_len)
{
	img->tbl24 = calloc(RG_TBL24_SLOTS, sizeof(*img->tbl24));
	img->tbl8 = calloc((size_t)RG_TBL8_GROUPS * RG_TBL8_GROUP_SIZE,
			   sizeof(*img->tbl8));
	img->lpm = calloc(n ? n : 1, sizeof(*img->lpm));
	if (!img->tbl24 || !img->tbl8 || !img->lpm) {
		rg_set_err(err, err_len, "out of memory allocating the forwarding table");
		return -ENOMEM;
	}
	return 0;
}

static uint32_t zone_span(uint8_t len)
{
	return len <= RG_TBL24_PREFIX ? 1u << (RG_TBL24_PREFIX - len) : 1;
}

/* The datapath's tbl24 index of dst inside zone z (z must contain dst). */
static uint32_t zone_slot(const struct rg_zone *z, uint32_t dst)
{
	return z->base + ((dst & ~z->mask) >> 8);
}

/* Appends the zone rooted at root to the zone set and reserves its slice. */
static struct rg_zone *add_zone(struct rg_fib_image *img, const struct rg_route *root)
{
	struct rg_zone *z = &img->zones.zones[img->zones.count++];

	z->net = root->addr;
	z->mask = rg_prefix_mask(root->len);
	z->base = img->tbl24_used;
	z->span = zone_span(root->len);
	img->tbl24_used += z->span;
	return z;
}

static void fill(uint32_t *slots, uint32_t count, uint32_t entry)
{
	uint32_t i;

	for (i = 0; i < count; i++)
		slots[i] = entry;
}

/*
 * The tbl8 group of the /24 at tbl24 slot `slot`, created on first use and
 * seeded with what the slot said.  Returns NULL once the groups run out
 * (counting on, so the error can say how many would have been needed).
 */
static uint32_t *tbl8_group(struct fib_builder *b, uint32_t slot, const struct rg_route *r)
{
	struct rg_fib_image *img = b->img;
	uint32_t *group, g;

	if (RG_ROUTE_KIND(img->tbl24[slot]) == RG_ROUTE_TBL8)
		return &img->tbl8[(size_t)RG_ROUTE_ARG(img->tbl24[slot]) * RG_TBL8_GROUP_SIZE];
	/* Prefixes longer than /24 of one /24 are adjacent in (addr, len)
	 * order, so remembering the last refused slot counts each /24 once. */
	if (slot == b->overflow_slot)
		return NULL;

	b->tbl8_needed++;
	if (img->tbl8_groups_used >= RG_TBL8_GROUPS) {
		b->overflow_slot = slot;
		if (!b->overflow)
			b->overflow = r;
		return NULL;
	}
	g = img->tbl8_groups_used++;
	group = &img->tbl8[(size_t)g * RG_TBL8_GROUP_SIZE];
	fill(group, RG_TBL8_GROUP_SIZE, img->tbl24[slot]);
	img->tbl24[slot] = RG_ROUTE(RG_ROUTE_TBL8, g);
	return group;
}

/* Paints routes[0..n-1] (routes[0] is the zone's root) into zone z. */
static void expand_zone(struct fib_builder *b, const struct rg_zone *z,
			const struct rg_route *routes, size_t n)
{
	uint32_t *tbl24 = b->img->tbl24;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct rg_route *r = &routes[i];
		uint32_t slot = zone_slot(z, r->addr);
		uint32_t *group;

		/* The root owns its slot also when longer than /24 (span 1):
		 * the zone check keeps the rest of that /24 out. */
		if (i == 0 || r->len <= RG_TBL24_PREFIX) {
			fill(&tbl24[slot], zone_span(r->len), r->entry);
			continue;
		}
		group = tbl8_group(b, slot, r);
		if (group)
			fill(&group[r->addr & 0xff], 1u << (32 - r->len), r->entry);
	}
}

static void append_lpm(struct rg_fib_image *img, const struct rg_route *routes, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct rg_fib_lpm_entry *e = &img->lpm[img->lpm_count++];

		e->addr = routes[i].addr;
		e->len = routes[i].len;
		e->entry = routes[i].entry;
	}
	if (n)
		img->zones.use_lpm = 1;
}

/* Number of routes of the zone rooted at routes[0]: the run it contains. */
static size_t zone_run(const struct rg_route *routes, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (!prefix_contains(routes[0].addr, routes[0].len, routes[i].addr))
			break;
	return i;
}

/* One top-level prefix and the run of sorted routes it contains. */
struct zone_plan {
	size_t first;                /* index of the root in the sorted routes */
	size_t count;                /* routes in the run, root included */
	bool   expand;               /* tbl24 slice, or the LPM fallback */
};

/* Splits the sorted routes into zones; plans[] has room for n. */
static size_t plan_zones(const struct rg_route *sorted, size_t n, struct zone_plan *plans)
{
	size_t i = 0, n_zones = 0;

	while (i < n) {
		struct zone_plan *p = &plans[n_zones++];

		p->first = i;
		p->count = zone_run(&sorted[i], n - i);
		p->expand = false;
		i += p->count;
	}
	return n_zones;
}

/* Heaviest first; among equals, lower addresses first (plans are sorted
 * by address, so their position decides).  Deterministic either way. */
static int plan_cmp_heaviest(const void *a, const void *b)
{
	const struct zone_plan *x = *(const struct zone_plan *const *)a;
	const struct zone_plan *y = *(const struct zone_plan *const *)b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->first < y->first ? -1 : 1;
}

/*
 * Marks the zones that get a tbl24 slice.  When more zones qualify than
 * RG_MAX_ZONES (or than tbl24 holds), the ones with the most routes win:
 * they gain most from the O(1) path and keep the LPM trie, which both
 * generations share, small.
 */
static int choose_expanded_zones(const struct rg_route *sorted, struct zone_plan *plans,
				 size_t n_zones, char *err, size_t err_len)
{
	struct zone_plan **order;
	size_t i, n_eligible = 0, chosen = 0;
	uint32_t slots = 0;

	order = malloc((n_zones ? n_zones : 1) * sizeof(*order));
	if (!order) {
		rg_set_err(err, err_len, "out of memory planning %zu zones", n_zones);
		return -ENOMEM;
	}
	for (i = 0; i < n_zones; i++)
		if (sorted[plans[i].first].len >= RG_ZONE_MIN_PREFIX)
			order[n_eligible++] = &plans[i];
	qsort(order, n_eligible, sizeof(*order), plan_cmp_heaviest);

	for (i = 0; i < n_eligible && chosen < RG_MAX_ZONES; i++) {
		uint32_t span = zone_span(sorted[order[i]->first].len);

		if (span > RG_TBL24_SLOTS - slots)
			continue;
		slots += span;
		order[i]->expand = true;
		chosen++;
	}
	free(order);
	return 0;
}

static int report_tbl8_overflow(const struct fib_builder *b, char *err, size_t err_len)
{
	char p[RG_CIDR_STR_LEN + 1];

	rg_set_err(err, err_len,
		"forwarding table too large: %u /24s hold prefixes longer than /24 and need a tbl8 group each, at most %u fit (first without one: route %s)",
		b->tbl8_needed, RG_TBL8_GROUPS,
		rg_cidr_str(b->overflow->addr, b->overflow->len, p));
	return -E2BIG;
}

int rg_fib_compile(const struct rg_route *routes, size_t n,
		   struct rg_fib_image *img, char *err, size_t err_len)
{
	struct fib_builder b = { .img = img, .overflow_slot = RG_SLOT_NONE };
	struct zone_plan *plans = NULL;
	struct rg_route *sorted = NULL;
	size_t i, n_zones;
	int ret;

	if (!img || (n && !routes)) {
		rg_set_err(err, err_len, "no image or no routes given");
		return -EINVAL;
	}
	memset(img, 0, sizeof(*img));

	ret = sort_routes(routes, n, &sorted, err, err_len);
	if (ret)
		return ret;
	ret = alloc_image(img, n, err, err_len);
	if (ret)
		goto out;

	plans = malloc((n ? n : 1) * sizeof(*plans));
	if (!plans) {
		rg_set_err(err, err_len, "out of memory planning zones of %zu routes", n);
		ret = -ENOMEM;
		goto out;
	}
	n_zones = plan_zones(sorted, n, plans);
	ret = choose_expanded_zones(sorted, plans, n_zones, err, err_len);
	if (ret)
		goto out;

	/* Slices are laid out in address order. */
	for (i = 0; i < n_zones; i++) {
		const struct rg_route *run = &sorted[plans[i].first];

		if (plans[i].expand)
			expand_zone(&b, add_zone(img, run), run, plans[i].count);
		else
			append_lpm(img, run, plans[i].count);
	}

	if (b.tbl8_needed > RG_TBL8_GROUPS)
		ret = report_tbl8_overflow(&b, err, err_len);
out:
	free(plans);
	free(sorted);
	if (ret)
		rg_fib_image_free(img);
	return ret;
}

void rg_fib_image_free(struct rg_fib_image *img)
{
	if (!img)
		return;
	free(img->tbl24);
	free(img->tbl8);
	free(img->lpm);
	memset(img, 0, sizeof(*img));
}

/* Longest match over the fallback list; linear, as it is for user space
 * only (`check`, `lookup`, tests) and the list is short in practice. */
static uint32_t lpm_list_lookup(const struct rg_fib_image *img, uint32_t dst)
{
	uint32_t entry = RG_ROUTE(RG_ROUTE_NONE, 0);
	int best = -1;
	size_t i;

	for (i = 0; i < img->lpm_count; i++) {
		const struct rg_fib_lpm_entry *e = &img->lpm[i];

		if ((int)e->len > best && prefix_contains(e->addr, e->len, dst)) {
			best = e->len;
			entry = e->entry;
		}
	}
	return entry;
}

uint32_t rg_fib_image_lookup(const struct rg_fib_image *img, uint32_t dst)
{
	const struct rg_zone_set *zs = &img->zones;
	uint32_t i, entry;

	for (i = 0; i < zs->count && i < RG_MAX_ZONES; i++) {
		const struct rg_zone *z = &zs->zones[i];

		if ((dst & z->mask) != z->net)
			continue;
		entry = img->tbl24[zone_slot(z, dst)];
		if (RG_ROUTE_KIND(entry) == RG_ROUTE_TBL8)
			entry = img->tbl8[(size_t)RG_ROUTE_ARG(entry) * RG_TBL8_GROUP_SIZE +
					  (dst & 0xff)];
		return entry;
	}
	if (zs->use_lpm)
		return lpm_list_lookup(img, dst);
	return RG_ROUTE(RG_ROUTE_NONE, 0);
}

uint32_t rg_fib_image_verdict(const struct rg_fib_image *img, uint32_t dst,
			      uint32_t ingress_rail, uint32_t *entry)
{
	uint32_t e = rg_fib_image_lookup(img, dst);

	if (entry)
		*entry = e;
	return rg_route_verdict(e, ingress_rail);
}
