// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Unit tests of the plan (loader/plan/plan.c): what a config means for the maps.
 * Rail ids are what counters and representor entries are keyed by, so a
 * reload must keep a surviving rail's id and must not hand a removed rail's
 * id to a new rail while the old generation may still be read.
 *
 * Configs are built by hand: the plan is checked, not the YAML parser.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "loader/plan/plan.h"

#define MAX_TEST_RAILS (RG_MAX_RAILS + 1)

/* A config of rails named names[i] on 10.<i / 256>.<i % 256>.0/24, untagged. */
struct test_config {
	struct rg_config cfg;
	struct rg_config_rail rails[MAX_TEST_RAILS];
	struct rg_cidr supernets[2];
	struct rg_cidr frontend[2];
};

static void config_of(struct test_config *t, const char *const *names, size_t n)
{
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < n; i++) {
		struct rg_config_rail *r = &t->rails[i];

		snprintf(r->name, sizeof(r->name), "%s", names[i]);
		r->subnet = (struct rg_cidr){ .addr = 0x0a000000 | (uint32_t)i << 8, .len = 24 };
		r->vlan = -1;
	}
	t->cfg.rails = t->rails;
	t->cfg.n_rails = n;
	t->cfg.supernets = t->supernets;
	t->cfg.computenet.frontend = t->frontend;
}

/* Rail names "r0", "r1", ... for the configs that fill every id. */
static const char *const *numbered(size_t n)
{
	static char buf[MAX_TEST_RAILS][RG_RAIL_NAME_LEN];
	static const char *names[MAX_TEST_RAILS];

	for (size_t i = 0; i < n; i++) {
		snprintf(buf[i], sizeof(buf[i]), "r%zu", i);
		names[i] = buf[i];
	}
	return names;
}

static void build_ok(struct rg_plan *plan, const struct rg_config *cfg,
		     const struct rg_plan *prev)
{
	struct rg_rail_ids ids;
	char err[256] = "";

	if (prev)
		rg_rail_ids_from_table(&ids, prev->rails);
	if (rg_plan_build(plan, cfg, prev ? &ids : NULL, err, sizeof(err)))
		fail_msg("plan: %s", err);
}

static bool has_route(const struct rg_plan *plan, uint32_t addr, uint8_t len, uint32_t entry)
{
	for (size_t i = 0; i < plan->n_routes; i++)
		if (plan->routes[i].addr == addr && plan->routes[i].len == len &&
		    plan->routes[i].entry == entry)
			return true;
	return false;
}

/* ---- rails and routes ---------------------------------------------------- */

static void test_rails_and_routes(void **state)
{
	static const char *const names[] = { "east", "west" };
	static struct test_config t;
	struct rg_plan plan;

	config_of(&t, names, 2);
	t.rails[0].vlan = 100;
	t.rails[0].mtu = 9000;
	t.supernets[0] = (struct rg_cidr){ 0x0a000000, 16 };
	t.cfg.n_supernets = 1;
	t.frontend[0] = (struct rg_cidr){ 0xc0a80000, 16 };
	t.cfg.computenet.n_frontend = 1;
	build_ok(&plan, &t.cfg, NULL);

	/* A first config takes ids in its own order. */
	assert_int_equal(rg_plan_rail_id(&plan, "east"), 0);
	assert_int_equal(rg_plan_rail_id(&plan, "west"), 1);
	assert_int_equal(rg_plan_rail_id(&plan, "north"), -1);
	assert_int_equal(plan.rails[0].subnet, 0x0a000000);
	assert_int_equal(plan.rails[0].mask, 0xffffff00);
	assert_int_equal(plan.rails[0].flags, RG_RAIL_F_VALID | RG_RAIL_F_VLAN);
	assert_int_equal(plan.rails[0].vlan, 100);
	assert_int_equal(plan.rails[0].mtu, 9000);
	assert_string_equal(plan.rails[0].name, "east");
	assert_int_equal(plan.rails[1].flags, RG_RAIL_F_VALID);   /* untagged */
	assert_int_equal(plan.rails[1].vlan, 0);
	assert_int_equal(plan.rails[1].mtu, 0);
	for (int i = 2; i < RG_MAX_RAILS; i++)
		assert_int_equal(plan.rails[i].flags, 0);

	/* Each rail routes to its id, the supernet itself is the black hole,
	 * the front-end prefix goes to the uplink: nothing else. */
	assert_int_equal(plan.n_routes, 4);
	assert_true(has_route(&plan, 0x0a000000, 24, RG_ROUTE(RG_ROUTE_RAIL, 0)));
	assert_true(has_route(&plan, 0x0a000100, 24, RG_ROUTE(RG_ROUTE_RAIL, 1)));
	assert_true(has_route(&plan, 0x0a000000, 16, RG_ROUTE(RG_ROUTE_BLACKHOLE, 0)));
	assert_true(has_route(&plan, 0xc0a80000, 16, RG_ROUTE(RG_ROUTE_FRONTEND, 0)));
	assert_int_equal(plan.n_reps, 0);
	rg_plan_free(&plan);
	rg_plan_free(&plan);           /* safe twice */
	assert_null(plan.routes);
}

/* ---- rail ids across reloads ---------------------------------------------- */

static void test_ids_kept_by_name(void **state)
{
	static const char *const first[] = { "a", "b", "c" };
	/* b removed, d added, order changed. */
	static const char *const second[] = { "c", "d", "a" };
	static const char *const third[] = { "c", "d", "a", "e" };
	static struct test_config t;
	struct rg_plan p1, p2, p3;

	config_of(&t, first, 3);
	build_ok(&p1, &t.cfg, NULL);
	config_of(&t, second, 3);
	build_ok(&p2, &t.cfg, &p1);
	assert_int_equal(rg_plan_rail_id(&p2, "a"), 0);
	assert_int_equal(rg_plan_rail_id(&p2, "c"), 2);
	/* Not b's 1: the old generation may still count frames under it. */
	assert_int_equal(rg_plan_rail_id(&p2, "d"), 3);
	assert_int_equal(p2.rails[1].flags, 0);
	/* The route list follows the ids, not the config's order. */
	assert_true(has_route(&p2, t.rails[0].subnet.addr, 24, RG_ROUTE(RG_ROUTE_RAIL, 2)));
	assert_true(has_route(&p2, t.rails[1].subnet.addr, 24, RG_ROUTE(RG_ROUTE_RAIL, 3)));

	/* One reload later b's id is free again: nobody reads it any more. */
	config_of(&t, third, 4);
	build_ok(&p3, &t.cfg, &p2);
	assert_int_equal(rg_plan_rail_id(&p3, "a"), 0);
	assert_int_equal(rg_plan_rail_id(&p3, "c"), 2);
	assert_int_equal(rg_plan_rail_id(&p3, "d"), 3);
	assert_int_equal(rg_plan_rail_id(&p3, "e"), 1);
	rg_plan_free(&p1);
	rg_plan_free(&p2);
	rg_plan_free(&p3);
}

/* When every id is held, a new rail takes a removed rail's id rather than
 * fail: full beats the one-reload quarantine. */
static void test_ids_full(void **state)
{
	static struct test_config t;
	static struct rg_plan p1, p2;
	const char *const *names = numbered(RG_MAX_RAILS);
	static const char *second[RG_MAX_RAILS];
	char err[256] = "";

	config_of(&t, names, RG_MAX_RAILS);
	build_ok(&p1, &t.cfg, NULL);
	/* r0 leaves, "new" comes: only r0's id is free. */
	for (size_t i = 1; i < RG_MAX_RAILS; i++)
		second[i - 1] = names[i];
	second[RG_MAX_RAILS - 1] = "new";
	config_of(&t, second, RG_MAX_RAILS);
	build_ok(&p2, &t.cfg, &p1);
	assert_int_equal(rg_plan_rail_id(&p2, "new"), 0);
	assert_int_equal(rg_plan_rail_id(&p2, "r255"), 255);
	rg_plan_free(&p1);
	rg_plan_free(&p2);

	config_of(&t, numbered(RG_MAX_RAILS + 1), RG_MAX_RAILS + 1);
	assert_int_equal(rg_plan_build(&p1, &t.cfg, NULL, err, sizeof(err)), -E2BIG);
	assert_non_null(strstr(err, "at most 256"));
	assert_null(p1.routes);
}

static void test_rail_ids_from_table(void **state)
{
	static struct rg_rail rails[RG_MAX_RAILS];
	static struct rg_rail_ids ids;

	rails[7].flags = RG_RAIL_F_VALID;
	/* A name that fills the field: the copy is terminated anyway. */
	memset(rails[7].name, 'x', RG_RAIL_NAME_LEN);
	snprintf(rails[9].name, sizeof(rails[9].name), "stale");   /* not VALID */
	rg_rail_ids_from_table(&ids, rails);
	assert_int_equal(strlen(ids.names[7]), RG_RAIL_NAME_LEN - 1);
	assert_string_equal(ids.names[9], "");
	assert_string_equal(ids.names[0], "");
}

/* ---- representors and egress ------------------------------------------- */

static void test_reps(void **state)
{
	static const char *const names[] = { "east", "west" };
	static struct test_config t;
	struct rg_plan plan;
	char err[256] = "";

	config_of(&t, names, 2);
	build_ok(&plan, &t.cfg, NULL);
	assert_int_equal(rg_plan_add_rep(&plan, "pf0vf0", 5, 0, RG_MODE_XDP, err, sizeof(err)), 0);
	assert_int_equal(rg_plan_add_rep(&plan, "pf0vf1", 6, 1, RG_MODE_TC, err, sizeof(err)), 0);
	assert_int_equal(plan.n_reps, 2);
	assert_string_equal(plan.reps[1].name, "pf0vf1");
	assert_int_equal(plan.reps[1].ifindex, 6);
	assert_int_equal(plan.reps[1].rail_id, 1);
	assert_int_equal(plan.reps[1].mode, RG_MODE_TC);

	/* One interface in two rails' globs is a config error that names both. */
	assert_int_equal(rg_plan_add_rep(&plan, "pf0vf0", 5, 1, RG_MODE_XDP, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "east"));
	assert_non_null(strstr(err, "west"));
	/* The datapath's table holds ifindex 1 .. RG_MAX_IFINDEX - 1. */
	assert_int_equal(rg_plan_add_rep(&plan, "big", RG_MAX_IFINDEX, 0, RG_MODE_XDP, err,
					 sizeof(err)), -ERANGE);
	assert_non_null(strstr(err, "big"));
	assert_int_equal(rg_plan_add_rep(&plan, "none", 0, 0, RG_MODE_XDP, err, sizeof(err)),
			 -ERANGE);
	assert_int_equal(rg_plan_add_rep(&plan, "top", RG_MAX_IFINDEX - 1, 0, RG_MODE_XDP, err,
					 sizeof(err)), 0);
	assert_int_equal(plan.n_reps, 3);
	rg_plan_free(&plan);
	assert_null(plan.reps);
	assert_int_equal(plan.n_reps, 0);
}

static void test_egress(void **state)
{
	static const uint8_t up[6] = { 2, 0, 0, 0, 0, 1 }, gw[6] = { 2, 0, 0, 0, 0, 2 };
	struct rg_plan plan = { 0 };

	rg_plan_set_egress(&plan, 4, up, gw, 0x0a0000fe, true);
	assert_int_equal(plan.egress.uplink_ifindex, 4);
	assert_memory_equal(plan.egress.uplink_mac, up, 6);
	assert_memory_equal(plan.egress.gateway_mac, gw, 6);
	assert_int_equal(plan.egress.gateway_ip, 0x0a0000fe);
	assert_int_equal(plan.egress.flags, RG_EGRESS_F_VALID | RG_EGRESS_F_ANTI_SPOOF);
	rg_plan_set_egress(&plan, 4, up, gw, 0x0a0000fe, false);
	assert_int_equal(plan.egress.flags, RG_EGRESS_F_VALID);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rails_and_routes),
		cmocka_unit_test(test_ids_kept_by_name),
		cmocka_unit_test(test_ids_full),
		cmocka_unit_test(test_rail_ids_from_table),
		cmocka_unit_test(test_reps),
		cmocka_unit_test(test_egress),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
