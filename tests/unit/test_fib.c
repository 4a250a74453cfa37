// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Unit tests of the forwarding table compiler (maps/fib.c).
 *
 * The oracle is a plain longest-prefix match by linear scan over the route
 * list (tests/lib/ref_lpm.c): whatever the compiler does with zones, tbl24, tbl8 and the LPM
 * fallback, rg_fib_image_lookup() (the datapath's algorithm) must answer
 * what that scan answers, for random destinations and for the first and
 * last address of every prefix and their neighbours.
 *
 * Random tables are seeded and deterministic; the seed is printed, and
 * RG_FIB_SEED=<n> in the environment replays another one.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "maps/fib.h"
#include "tests/lib/ref_lpm.h"
#include "tests/lib/rng.h"

#define ERRLEN 512

#define NONE      RG_ROUTE(RG_ROUTE_NONE, 0)
#define FRONTEND  RG_ROUTE(RG_ROUTE_FRONTEND, 0)
#define BLACKHOLE RG_ROUTE(RG_ROUTE_BLACKHOLE, 0)
#define RAIL(id)  RG_ROUTE(RG_ROUTE_RAIL, (id))

#define DEFAULT_SEED 0x5261696c67617465ull /* "Railgate" */

/* ---- helpers ---------------------------------------------------------- */

static uint32_t ip(const char *s)
{
	struct in_addr a;

	if (inet_pton(AF_INET, s, &a) != 1)
		fail_msg("bad address literal %s", s);
	return ntohl(a.s_addr);
}

static struct rg_route route(const char *addr, uint8_t len, uint32_t entry)
{
	return (struct rg_route){ .addr = ip(addr), .len = len, .entry = entry };
}

static const char *ip_str(uint32_t a, char buf[16])
{
	snprintf(buf, 16, "%u.%u.%u.%u", a >> 24, (a >> 16) & 0xff, (a >> 8) & 0xff, a & 0xff);
	return buf;
}

static void assert_lookup(const struct rg_fib_image *img, const struct rg_route *routes,
			  size_t n, uint32_t dst, const char *what)
{
	uint32_t want = rg_ref_lpm_lookup(routes, n, dst);
	uint32_t got = rg_fib_image_lookup(img, dst);
	char buf[16];

	if (want != got)
		fail_msg("%s: lookup %s: want 0x%08x, got 0x%08x", what, ip_str(dst, buf),
			 want, got);
}

static void compile_ok(const struct rg_route *routes, size_t n, struct rg_fib_image *img)
{
	char err[ERRLEN] = "";
	int ret = rg_fib_compile(routes, n, img, err, sizeof(err));

	if (ret)
		fail_msg("compile of %zu routes failed: %d (%s)", n, ret, err);
}

/* Image invariants the loader relies on when it copies the arrays. */
static void assert_image_shape(const struct rg_fib_image *img)
{
	uint32_t i, j, spans = 0;

	assert_true(img->zones.count <= RG_MAX_ZONES);
	assert_true(img->tbl8_groups_used <= RG_TBL8_GROUPS);
	for (i = 0; i < img->zones.count; i++) {
		const struct rg_zone *z = &img->zones.zones[i];

		assert_int_equal(z->net & ~z->mask, 0);
		assert_true(__builtin_popcount(z->mask) >= RG_ZONE_MIN_PREFIX);
		/* slices are laid out back to back */
		assert_int_equal(z->base, spans);
		spans += z->span;
		for (j = 0; j < i; j++) {
			const struct rg_zone *y = &img->zones.zones[j];
			uint32_t m = z->mask & y->mask;

			if ((z->net & m) == (y->net & m))
				fail_msg("zones %u and %u overlap", j, i);
		}
	}
	assert_int_equal(img->tbl24_used, spans);
	assert_true(img->tbl24_used <= RG_TBL24_SLOTS);
	assert_int_equal(img->zones.use_lpm, img->lpm_count > 0);
}

/* Every boundary address: first and last of each prefix, and +-1. */
static void assert_boundaries(const struct rg_fib_image *img, const struct rg_route *routes,
			      size_t n, const char *what)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint32_t first = routes[i].addr;
		uint32_t last = first | ~rg_ref_mask(routes[i].len);

		assert_lookup(img, routes, n, first, what);
		assert_lookup(img, routes, n, last, what);
		assert_lookup(img, routes, n, first - 1, what);
		assert_lookup(img, routes, n, last + 1, what);
	}
}

/* ---- deterministic random tables ---------------------------------------- */

static uint64_t base_seed(void)
{
	const char *s = getenv("RG_FIB_SEED");

	return s && *s ? strtoull(s, NULL, 0) : DEFAULT_SEED;
}

static uint32_t random_entry(uint64_t *rng)
{
	switch (test_rnd(rng, 3)) {
	case 0:
		return RAIL(test_rnd(rng, RG_MAX_RAILS));
	case 1:
		return FRONTEND;
	default:
		return BLACKHOLE;
	}
}

/* A random /len inside parent (a random /len anywhere for the /0). */
static struct rg_route random_prefix_in(uint64_t *rng, const struct rg_route *parent,
					uint8_t len)
{
	uint32_t host = (uint32_t)test_rnd64(rng) & ~rg_ref_mask(parent->len);

	return (struct rg_route){
		.addr = (parent->addr | host) & rg_ref_mask(len),
		.len = len,
		.entry = random_entry(rng),
	};
}

static const struct rg_route everywhere = { .addr = 0, .len = 0 };

/* Fewer than RG_TBL8_GROUPS routes longer than /24, so that no random
 * table can legitimately run out of tbl8 groups. */
#define MAX_LONG_ROUTES 1800
#define MAX_ANCHORS     40

struct table_stats {
	unsigned tables;
	unsigned with_short_zone;     /* a zone shorter than /8 fell back */
	unsigned with_zone_overflow;  /* more than RG_MAX_ZONES zones */
	unsigned with_tbl8;
	unsigned with_long_zone;      /* a zone longer than /24 expanded */
	unsigned long lookups;
	size_t max_routes;
};

static int route_cmp(const void *a, const void *b)
{
	const struct rg_route *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (int)x->len - (int)y->len;
}

/* Drops duplicate prefixes, shuffles (the compiler must not rely on the
 * order it is given) and keeps at most `keep`. */
static size_t dedupe_and_shuffle(uint64_t *rng, struct rg_route *r, size_t n, size_t keep)
{
	size_t i, out = 0;

	qsort(r, n, sizeof(*r), route_cmp);
	for (i = 0; i < n; i++)
		if (!out || r[i].addr != r[out - 1].addr || r[i].len != r[out - 1].len)
			r[out++] = r[i];
	for (i = out; i > 1; i--) {
		size_t j = test_rnd(rng, (uint32_t)i);
		struct rg_route t = r[i - 1];

		r[i - 1] = r[j];
		r[j] = t;
	}
	return out < keep ? out : keep;
}

/* What one random table looks like. */
struct table_recipe {
	unsigned n_anchors;          /* top-level regions the routes cluster in */
	bool     short_anchor;       /* one of them shorter than /8: fallback */
	unsigned n_wild;             /* prefixes drawn anywhere, any length */
	uint8_t  wild_min_len;       /* 0: wild ones may swallow whole zones */
};

static struct table_recipe random_recipe(uint64_t *rng, size_t want)
{
	struct table_recipe rc;
	uint32_t max_anchors = want < MAX_ANCHORS ? (uint32_t)want : MAX_ANCHORS;

	/* half the tables fit the zone set, half have more zones than it */
	if (test_rnd(rng, 2) || max_anchors <= RG_MAX_ZONES)
		rc.n_anchors = 1 + test_rnd(rng, max_anchors < RG_MAX_ZONES ? max_anchors : RG_MAX_ZONES);
	else
		rc.n_anchors = RG_MAX_ZONES + 1 + test_rnd(rng, max_anchors - RG_MAX_ZONES);
	rc.short_anchor = test_rnd(rng, 4) == 0;
	rc.n_wild = test_rnd(rng, 4);
	rc.wild_min_len = test_rnd(rng, 4) == 0 ? 0 : RG_ZONE_MIN_PREFIX;
	return rc;
}

static uint8_t random_len(uint64_t *rng, uint8_t min, uint8_t max)
{
	return min + test_rnd(rng, max - min + 1);
}

/* Routes longer than /24 so far, capped at MAX_LONG_ROUTES: the length
 * to use instead, or -1 when no length under `a` is left. */
static int cap_long(unsigned *long_routes, uint64_t *rng, uint8_t min, uint8_t len)
{
	if (len <= 24)
		return len;
	if (*long_routes < MAX_LONG_ROUTES) {
		(*long_routes)++;
		return len;
	}
	return min <= 24 ? random_len(rng, min, 24) : -1;
}

/*
 * A table of up to `want` routes clustered under random anchors (the future
 * zones), with routes of every length below them, chains of nested
 * prefixes from the anchor down to /32, and a few prefixes drawn anywhere.
 * Draws up to 2 * want (r has room for that), as small anchors yield
 * duplicates, and keeps `want` distinct ones when it can.
 */
static size_t random_table(uint64_t *rng, size_t want, struct rg_route *r)
{
	size_t draw = 2 * want;
	struct table_recipe rc = random_recipe(rng, want);
	struct rg_route anchors[MAX_ANCHORS];
	unsigned long_routes = 0, i;
	size_t n = 0, attempts;
	int len;

	for (i = 0; i < rc.n_anchors; i++) {
		if (i == 0 && rc.short_anchor)
			len = random_len(rng, 0, RG_ZONE_MIN_PREFIX - 1);
		else if (test_rnd(rng, 5))
			len = random_len(rng, RG_ZONE_MIN_PREFIX, 24);
		else
			len = random_len(rng, 25, 32);
		anchors[i] = random_prefix_in(rng, &everywhere, len);
		r[n++] = anchors[i];
	}
	for (i = 0; i < rc.n_wild && n < draw; i++) {
		len = cap_long(&long_routes, rng, 24, random_len(rng, rc.wild_min_len, 32));
		r[n++] = random_prefix_in(rng, &everywhere, len);
	}
	/* bounded: tiny anchors (a /32) cannot take more routes */
	for (attempts = 0; n < draw && attempts < 2 * draw; attempts++) {
		const struct rg_route *a = &anchors[test_rnd(rng, rc.n_anchors)];

		if (test_rnd(rng, 100) < 3) {
			/* a chain of nested prefixes of every length to /32 */
			struct rg_route leaf = random_prefix_in(rng, a, 32);
			uint8_t l;

			for (l = a->len; l <= 32 && n < draw; l++) {
				if (cap_long(&long_routes, rng, l, l) != l)
					break;
				r[n++] = random_prefix_in(rng, &leaf, l);
			}
			continue;
		}
		len = cap_long(&long_routes, rng, a->len, random_len(rng, a->len, 32));
		if (len >= 0)
			r[n++] = random_prefix_in(rng, a, len);
	}
	return dedupe_and_shuffle(rng, r, n, want);
}

/* A destination worth asking about: inside a route half the time. */
static uint32_t random_destination(uint64_t *rng, const struct rg_route *r, size_t n)
{
	const struct rg_route *in;

	if (test_rnd(rng, 2))
		return (uint32_t)test_rnd64(rng);
	in = &r[test_rnd(rng, (uint32_t)n)];
	return in->addr | ((uint32_t)test_rnd64(rng) & ~rg_ref_mask(in->len));
}

static void note_coverage(struct table_stats *st, const struct rg_fib_image *img)
{
	size_t i;

	st->tables++;
	for (i = 0; i < img->lpm_count; i++) {
		if (img->lpm[i].len < RG_ZONE_MIN_PREFIX) {
			st->with_short_zone++;
			break;
		}
	}
	if (img->zones.count == RG_MAX_ZONES && img->zones.use_lpm)
		st->with_zone_overflow++;
	if (img->tbl8_groups_used)
		st->with_tbl8++;
	for (i = 0; i < img->zones.count; i++) {
		if (__builtin_popcount(img->zones.zones[i].mask) > 24) {
			st->with_long_zone++;
			break;
		}
	}
}

#define RANDOM_LOOKUPS 10000

static void check_random_table(uint64_t seed, size_t want, struct table_stats *st)
{
	struct rg_route *r = calloc(2 * want, sizeof(*r));
	struct rg_fib_image img;
	uint64_t rng = seed;
	char what[64];
	size_t n, i;

	assert_non_null(r);
	n = random_table(&rng, want, r);
	snprintf(what, sizeof(what), "seed 0x%016" PRIx64 " (%zu routes)", seed, n);

	compile_ok(r, n, &img);
	assert_image_shape(&img);
	for (i = 0; i < RANDOM_LOOKUPS; i++)
		assert_lookup(&img, r, n, random_destination(&rng, r, n), what);
	assert_boundaries(&img, r, n, what);
	st->lookups += RANDOM_LOOKUPS + 4 * n;
	if (n > st->max_routes)
		st->max_routes = n;
	note_coverage(st, &img);

	rg_fib_image_free(&img);
	free(r);
}

/* Table sizes 1..5000, spread log-uniformly so that small and large
 * tables both get their share. */
static size_t random_size(uint64_t *rng)
{
	static const size_t caps[] = { 4, 16, 64, 256, 1024, 5000 };

	return 1 + test_rnd(rng, (uint32_t)caps[test_rnd(rng, 6)]);
}

#define RANDOM_TABLES 60
#define LARGE_TABLES  4

static void test_random_tables_match_reference(void **state)
{
	uint64_t rng = base_seed();
	struct table_stats st = { 0 };
	unsigned t;

	printf("# seed 0x%016" PRIx64 " (set RG_FIB_SEED to replay another)\n", rng);
	for (t = 0; t < RANDOM_TABLES; t++)
		check_random_table(test_rnd64(&rng), random_size(&rng), &st);
	for (t = 0; t < LARGE_TABLES; t++)
		check_random_table(test_rnd64(&rng), 5000, &st);

	printf("# %u tables (largest %zu routes), %lu lookups: %u with a zone < /%u, "
	       "%u with > %u zones, %u with tbl8 groups, %u with a zone > /24\n",
	       st.tables, st.max_routes, st.lookups, st.with_short_zone, RG_ZONE_MIN_PREFIX,
	       st.with_zone_overflow, RG_MAX_ZONES, st.with_tbl8, st.with_long_zone);
	fflush(stdout);
	/* The generator must reach every path, or the test proves little. */
	assert_true(st.with_short_zone > 0);
	assert_true(st.with_zone_overflow > 0);
	assert_true(st.with_tbl8 > 0);
	assert_true(st.with_long_zone > 0);
}

/* ---- the railgate table (docs/design.md, "What the datapath decides") ---- */

#define N_RAILS 8

static size_t railgate_table(struct rg_route *r)
{
	size_t n = 0;
	unsigned rail;

	r[n++] = route("10.0.0.0", 16, BLACKHOLE);
	for (rail = 0; rail < N_RAILS; rail++) {
		char addr[16];

		snprintf(addr, sizeof(addr), "10.0.%u.0", rail);
		r[n++] = route(addr, 24, RAIL(rail));
	}
	r[n++] = route("192.168.0.0", 16, FRONTEND);
	return n;
}

static void test_railgate_table_verdicts(void **state)
{
	struct rg_route r[N_RAILS + 2];
	struct rg_fib_image img;
	size_t n = railgate_table(r);

	compile_ok(r, n, &img);
	assert_image_shape(&img);
	/* two zones: the supernet and the front-end, no fallback */
	assert_int_equal(img.zones.count, 2);
	assert_int_equal(img.zones.use_lpm, 0);
	assert_int_equal(img.tbl24_used, 256 + 256);
	assert_int_equal(img.tbl8_groups_used, 0);

	/* a rail's subnet: RAIL id (pass or cross-rail by the ingress rail) */
	assert_int_equal(rg_fib_image_lookup(&img, ip("10.0.0.1")), RAIL(0));
	assert_int_equal(rg_fib_image_lookup(&img, ip("10.0.3.7")), RAIL(3));
	assert_int_equal(rg_fib_image_lookup(&img, ip("10.0.7.255")), RAIL(7));
	/* in the supernet but in no rail: drop no_route */
	assert_int_equal(rg_fib_image_lookup(&img, ip("10.0.8.0")), BLACKHOLE);
	assert_int_equal(rg_fib_image_lookup(&img, ip("10.0.255.255")), BLACKHOLE);
	/* a front-end prefix */
	assert_int_equal(rg_fib_image_lookup(&img, ip("192.168.0.0")), FRONTEND);
	assert_int_equal(rg_fib_image_lookup(&img, ip("192.168.44.3")), FRONTEND);
	/* anywhere else: pass, the pod's own routes decide */
	assert_int_equal(rg_fib_image_lookup(&img, ip("10.1.0.1")), NONE);
	assert_int_equal(rg_fib_image_lookup(&img, ip("9.255.255.255")), NONE);
	assert_int_equal(rg_fib_image_lookup(&img, ip("192.169.0.0")), NONE);
	assert_int_equal(rg_fib_image_lookup(&img, ip("8.8.8.8")), NONE);
	assert_boundaries(&img, r, n, "railgate table");
	rg_fib_image_free(&img);
}

/* ---- shapes the random tables hit only by chance ------------------------ */

static void test_nested_prefixes_of_every_length(void **state)
{
	uint32_t leaf = ip("10.20.30.41");
	struct rg_route r[33];
	struct rg_fib_image img;
	uint8_t from, len;
	size_t n;

	/* from /0 the whole chain falls back to the LPM list; from /8 it
	 * expands through tbl24 into one tbl8 group */
	for (from = 0; from <= RG_ZONE_MIN_PREFIX; from += RG_ZONE_MIN_PREFIX) {
		n = 0;
		for (len = from; len <= 32; len++)
			r[n++] = (struct rg_route){ leaf & rg_ref_mask(len), len, RAIL(len) };

		compile_ok(r, n, &img);
		assert_image_shape(&img);
		if (from == 0) {
			assert_int_equal(img.zones.count, 0);
			assert_int_equal(img.lpm_count, n);
		} else {
			assert_int_equal(img.zones.count, 1);
			assert_int_equal(img.zones.zones[0].span, 1u << 16);
			assert_int_equal(img.tbl8_groups_used, 1);
			assert_int_equal(img.lpm_count, 0);
		}
		/* each length wins for the addresses it alone covers */
		for (len = from; len <= 32; len++) {
			uint32_t dst = leaf ^ (len < 32 ? 1u << (31 - len) : 0);

			assert_int_equal(rg_fib_image_lookup(&img, dst),
					 len < 32 ? RAIL(len) : RAIL(32));
		}
		assert_int_equal(rg_fib_image_lookup(&img, leaf), RAIL(32));
		assert_boundaries(&img, r, n, "nested chain");
		rg_fib_image_free(&img);
	}
}

static void test_zone_longer_than_24(void **state)
{
	struct rg_route r[] = {
		route("10.9.9.16", 28, FRONTEND),
		route("10.9.9.20", 30, RAIL(4)),
		route("10.9.9.31", 32, BLACKHOLE),
	};
	struct rg_fib_image img;

	compile_ok(r, 3, &img);
	assert_int_equal(img.zones.count, 1);
	assert_int_equal(img.zones.zones[0].span, 1);
	assert_int_equal(img.tbl24_used, 1);
	assert_int_equal(img.tbl8_groups_used, 1);
	assert_int_equal(rg_fib_image_lookup(&img, ip("10.9.9.16")), FRONTEND);
	assert_int_equal(rg_fib_image_lookup(&img, ip("10.9.9.22")), RAIL(4));
	assert_int_equal(rg_fib_image_lookup(&img, ip("10.9.9.31")), BLACKHOLE);
	/* same /24, outside the zone: the zone check keeps it out */
	assert_int_equal(rg_fib_image_lookup(&img, ip("10.9.9.15")), NONE);
	assert_int_equal(rg_fib_image_lookup(&img, ip("10.9.9.32")), NONE);
	assert_boundaries(&img, r, 3, "zone /28");
	rg_fib_image_free(&img);
}

static void test_zone_shorter_than_min_falls_back_whole(void **state)
{
	struct rg_route r[] = {
		route("10.0.0.0", 7, BLACKHOLE),
		route("11.1.2.0", 24, RAIL(1)),
		route("11.1.2.7", 32, RAIL(2)),
		route("172.16.0.0", 12, FRONTEND),
	};
	struct rg_fib_image img;
	size_t i;

	compile_ok(r, 4, &img);
	assert_image_shape(&img);
	assert_int_equal(img.zones.count, 1); /* only 172.16/12 expands */
	assert_int_equal(img.zones.use_lpm, 1);
	/* the /7 and everything inside it, nothing else */
	assert_int_equal(img.lpm_count, 3);
	for (i = 0; i < img.lpm_count; i++)
		assert_true((img.lpm[i].addr & rg_ref_mask(7)) == ip("10.0.0.0"));
	assert_int_equal(rg_fib_image_lookup(&img, ip("11.1.2.7")), RAIL(2));
	assert_int_equal(rg_fib_image_lookup(&img, ip("11.1.2.8")), RAIL(1));
	assert_int_equal(rg_fib_image_lookup(&img, ip("11.255.0.0")), BLACKHOLE);
	assert_int_equal(rg_fib_image_lookup(&img, ip("172.31.255.255")), FRONTEND);
	assert_boundaries(&img, r, 4, "zone /7");
	rg_fib_image_free(&img);
}

static void test_zones_beyond_max_fall_back(void **state)
{
	struct rg_route r[2 * (RG_MAX_ZONES + 4)];
	struct rg_fib_image img;
	size_t n = 0, i;

	for (i = 0; i < RG_MAX_ZONES + 4; i++) {
		uint32_t net = (10u << 24) | ((uint32_t)i << 16);

		r[n++] = (struct rg_route){ net, 16, BLACKHOLE };
		r[n++] = (struct rg_route){ net | (i << 8), 24, RAIL(i) };
	}
	compile_ok(r, n, &img);
	assert_image_shape(&img);
	assert_int_equal(img.zones.count, RG_MAX_ZONES);
	assert_int_equal(img.zones.use_lpm, 1);
	assert_int_equal(img.lpm_count, 2 * 4); /* whole zones: root and rail */
	assert_boundaries(&img, r, n, "20 zones");
	rg_fib_image_free(&img);
}

/* With more zones than the zone set holds, the zones with the most routes
 * get the tbl24 path; the rest fall back to the LPM list. */
static void test_heaviest_zones_expand_first(void **state)
{
	struct rg_route r[RG_MAX_ZONES + 1 + 8];
	struct rg_fib_image img;
	size_t n = 0, i;

	/* 17 single-route zones 1.0/16 .. 1.16/16 ... */
	for (i = 0; i <= RG_MAX_ZONES; i++)
		r[n++] = (struct rg_route){ (1u << 24) | ((uint32_t)i << 16), 16, FRONTEND };
	/* ... and one zone with 8 routes at the top of the address space */
	r[n++] = route("200.0.0.0", 16, BLACKHOLE);
	for (i = 0; i < 7; i++)
		r[n++] = (struct rg_route){ ip("200.0.0.0") | ((uint32_t)i << 8), 24, RAIL(i) };

	compile_ok(r, n, &img);
	assert_image_shape(&img);
	assert_int_equal(img.zones.count, RG_MAX_ZONES);
	/* the heavy zone expanded, laid out last (address order) */
	assert_int_equal(img.zones.zones[RG_MAX_ZONES - 1].net, ip("200.0.0.0"));
	/* of the equal single-route zones, the two highest lost */
	assert_int_equal(img.lpm_count, 2);
	assert_int_equal(img.lpm[0].addr, ip("1.15.0.0"));
	assert_int_equal(img.lpm[1].addr, ip("1.16.0.0"));
	assert_boundaries(&img, r, n, "heaviest zones");
	rg_fib_image_free(&img);
}

static void test_empty_table(void **state)
{
	struct rg_fib_image img;

	compile_ok(NULL, 0, &img);
	assert_int_equal(img.zones.count, 0);
	assert_int_equal(img.zones.use_lpm, 0);
	assert_int_equal(img.tbl24_used, 0);
	assert_int_equal(rg_fib_image_lookup(&img, ip("10.0.0.1")), NONE);
	rg_fib_image_free(&img);
}

static void test_free_zeroes_image(void **state)
{
	struct rg_route r[] = { route("10.0.0.0", 16, BLACKHOLE) };
	struct rg_fib_image img, zero;

	memset(&zero, 0, sizeof(zero));
	compile_ok(r, 1, &img);
	assert_non_null(img.tbl24);
	rg_fib_image_free(&img);
	assert_memory_equal(&img, &zero, sizeof(img));
	rg_fib_image_free(&img); /* twice is harmless */
}

/* ---- scale ------------------------------------------------------------- */

#define RAILS_64K (1u << 16)

static double ms_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) * 1e3 + (t1.tv_nsec - t0->tv_nsec) / 1e6;
}

static void test_compile_64k_prefixes(void **state)
{
	struct rg_route *r = calloc(RAILS_64K + 1, sizeof(*r));
	char err[ERRLEN] = "";
	struct rg_fib_image img;
	struct timespec t0;
	uint32_t i;
	int ret;

	assert_non_null(r);
	r[0] = route("10.0.0.0", 8, BLACKHOLE);
	for (i = 0; i < RAILS_64K; i++)
		r[i + 1] = (struct rg_route){ (10u << 24) | (i << 8), 24, RAIL(i % RG_MAX_RAILS) };

	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = rg_fib_compile(r, RAILS_64K + 1, &img, err, sizeof(err));
	printf("# compile 64k: %.1f ms\n", ms_since(&t0));
	fflush(stdout);
	if (ret)
		fail_msg("compile failed: %d (%s)", ret, err);

	assert_image_shape(&img);
	assert_int_equal(img.zones.count, 1);
	assert_int_equal(img.tbl24_used, RAILS_64K);
	for (i = 0; i < RAILS_64K; i++) {
		uint32_t net = (10u << 24) | (i << 8);

		assert_int_equal(rg_fib_image_lookup(&img, net), RAIL(i % RG_MAX_RAILS));
		assert_int_equal(rg_fib_image_lookup(&img, net | 0xff), RAIL(i % RG_MAX_RAILS));
	}
	assert_int_equal(rg_fib_image_lookup(&img, ip("11.0.0.0")), NONE);
	assert_int_equal(rg_fib_image_lookup(&img, ip("9.255.255.255")), NONE);
	rg_fib_image_free(&img);
	free(r);
}

/* ---- errors -------------------------------------------------------------- */

static void assert_compile_fails(const struct rg_route *r, size_t n, int want_ret,
				 const char *want_in_msg)
{
	char err[ERRLEN] = "";
	struct rg_fib_image img;
	int ret;

	memset(&img, 0xa5, sizeof(img)); /* the compiler must not trust it */
	ret = rg_fib_compile(r, n, &img, err, sizeof(err));
	if (ret != want_ret)
		fail_msg("want %d, got %d (%s)", want_ret, ret, err);
	if (!strstr(err, want_in_msg))
		fail_msg("message \"%s\" does not name \"%s\"", err, want_in_msg);
	/* nothing left allocated for the caller to leak */
	assert_null(img.tbl24);
	assert_null(img.tbl8);
	assert_null(img.lpm);
}

static void test_duplicate_prefix_rejected(void **state)
{
	struct rg_route r[] = {
		route("10.0.0.0", 16, BLACKHOLE),
		route("10.0.1.0", 24, RAIL(1)),
		route("10.0.2.0", 24, RAIL(2)),
		route("10.0.1.0", 24, RAIL(3)),
	};

	assert_compile_fails(r, 4, -EINVAL, "10.0.1.0/24");
}

static void test_host_bits_rejected(void **state)
{
	struct rg_route r[] = {
		route("10.0.0.0", 16, BLACKHOLE),
		route("10.0.1.5", 24, RAIL(1)),
	};

	assert_compile_fails(r, 2, -EINVAL, "10.0.1.5/24");
}

static void test_prefix_longer_than_32_rejected(void **state)
{
	struct rg_route r[] = { route("10.0.1.5", 33, RAIL(1)) };

	assert_compile_fails(r, 1, -EINVAL, "10.0.1.5/33");
}

static void test_internal_kinds_rejected(void **state)
{
	struct rg_route tbl8[] = { route("10.0.0.0", 16, RG_ROUTE(RG_ROUTE_TBL8, 1)) };
	struct rg_route none[] = { route("10.1.0.0", 16, NONE) };

	assert_compile_fails(tbl8, 1, -EINVAL, "10.0.0.0/16");
	assert_compile_fails(none, 1, -EINVAL, "10.1.0.0/16");
}

/* A /8 zone with one /32 in each of `groups` different /24s. */
static struct rg_route *tbl8_hungry_table(uint32_t groups)
{
	struct rg_route *r = calloc(groups + 1, sizeof(*r));
	uint32_t i;

	assert_non_null(r);
	r[0] = route("10.0.0.0", 8, BLACKHOLE);
	for (i = 0; i < groups; i++)
		r[i + 1] = (struct rg_route){ (10u << 24) | (i << 8) | 1, 32, RAIL(1) };
	return r;
}

static void test_tbl8_exactly_full_compiles(void **state)
{
	struct rg_route *r = tbl8_hungry_table(RG_TBL8_GROUPS);
	struct rg_fib_image img;

	compile_ok(r, RG_TBL8_GROUPS + 1, &img);
	assert_int_equal(img.tbl8_groups_used, RG_TBL8_GROUPS);
	assert_boundaries(&img, r, RG_TBL8_GROUPS + 1, "tbl8 full");
	rg_fib_image_free(&img);
	free(r);
}

static void test_tbl8_overflow_rejected(void **state)
{
	struct rg_route *r = tbl8_hungry_table(RG_TBL8_GROUPS + 1);
	char needed[16];

	snprintf(needed, sizeof(needed), "%u ", RG_TBL8_GROUPS + 1);
	assert_compile_fails(r, RG_TBL8_GROUPS + 2, -E2BIG, needed);
	/* and it names the first route that found no group */
	assert_compile_fails(r, RG_TBL8_GROUPS + 2, -E2BIG, "10.8.0.1/32");
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_railgate_table_verdicts),
		cmocka_unit_test(test_random_tables_match_reference),
		cmocka_unit_test(test_nested_prefixes_of_every_length),
		cmocka_unit_test(test_zone_longer_than_24),
		cmocka_unit_test(test_zone_shorter_than_min_falls_back_whole),
		cmocka_unit_test(test_zones_beyond_max_fall_back),
		cmocka_unit_test(test_heaviest_zones_expand_first),
		cmocka_unit_test(test_empty_table),
		cmocka_unit_test(test_free_zeroes_image),
		cmocka_unit_test(test_compile_64k_prefixes),
		cmocka_unit_test(test_duplicate_prefix_rejected),
		cmocka_unit_test(test_host_bits_rejected),
		cmocka_unit_test(test_prefix_longer_than_32_rejected),
		cmocka_unit_test(test_internal_kinds_rejected),
		cmocka_unit_test(test_tbl8_exactly_full_compiles),
		cmocka_unit_test(test_tbl8_overflow_rejected),
	};

	return cmocka_run_group_tests_name("fib", tests, NULL, NULL);
}
