// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * tools/pod_routes/pod_plan.c: what one rail interface of a pod gets.  The
 * numbering users script against (rail i of the RailConfig: table
 * tableBase + i, rule priority rulePriority + i, metric 1000 + i), the
 * connected subnet of the rail table, the prefixes in order, and every
 * refusal with its message.  The kernel side is tested in namespaces
 * (tests/integration/cni_*.sh, testbed_multivf.sh).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tools/pod_routes/pod_routes.h"

#define IP(a, b, c, d) (((uint32_t)(a) << 24) | ((b) << 16) | ((c) << 8) | (d))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static struct rg_config cfg;

static int load_example(void **state)
{
	struct rg_diags diags = { 0 };
	int ret = rg_config_load("tests/unit/configs/example.yaml", &cfg, &diags);

	rg_diags_free(&diags);
	return ret;
}

static int free_example(void **state)
{
	rg_config_free(&cfg);
	return 0;
}

/* One expectation of plan_from_config: the address, the numbering, and
 * what the plan must say (or the error it must give). */
struct config_case {
	const char *name;
	uint32_t addr;
	uint32_t table_base, rule_priority;
	bool     has_table;
	int      ret;
	const char *err;             /* substring, for ret != 0 */
	const char *rail;
	uint32_t index, table, priority, metric, gateway;
	struct rg_cidr subnet;
};

static const struct config_case config_cases[] = {
	{ "rail0 is index 0", IP(10, 0, 0, 5), 1000, 1000, false, 0, NULL,
	  "rail0", 0, 1000, 1000, 1000, IP(10, 0, 0, 1), { IP(10, 0, 0, 0), 24 } },
	{ "rail1 is index 1", IP(10, 0, 1, 77), 1000, 1000, false, 0, NULL,
	  "rail1", 1, 1001, 1001, 1001, IP(10, 0, 1, 1), { IP(10, 0, 1, 0), 24 } },
	{ "tableBase and rulePriority move table and rule, not the metric",
	  IP(10, 0, 1, 77), 5000, 200, false, 0, NULL,
	  "rail1", 1, 5001, 201, 1001, IP(10, 0, 1, 1), { IP(10, 0, 1, 0), 24 } },
	{ "an address in the supernet but in no rail", IP(10, 0, 9, 7), 1000, 1000, false,
	  -EINVAL, "10.0.9.7 is in no rail", NULL, 0, 0, 0, 0, 0, { 0, 0 } },
	{ "table goes with inline supernets only", IP(10, 0, 0, 5), 1000, 1000, true,
	  -EINVAL, "\"table\" goes with inline supernets", NULL, 0, 0, 0, 0, 0, { 0, 0 } },
	{ "a reserved table (main)", IP(10, 0, 0, 5), 254, 1000, false,
	  -EINVAL, "table 254 is reserved", NULL, 0, 0, 0, 0, 0, { 0, 0 } },
	{ "rail1 runs into a reserved table", IP(10, 0, 1, 5), 251, 1000, false,
	  -EINVAL, "table 252 is reserved", NULL, 0, 0, 0, 0, 0, { 0, 0 } },
	{ "a rule priority that is not above main", IP(10, 0, 1, 5), 1000, 32765, false,
	  -EINVAL, "would not be above main (32766)", NULL, 0, 0, 0, 0, 0, { 0, 0 } },
};

static void test_plan_from_config(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(config_cases); i++) {
		const struct config_case *c = &config_cases[i];
		struct rg_pod_numbering num;
		struct rg_pod_plan plan;
		char err[256] = "";
		int ret;

		rg_pod_numbering_default(&num);
		num.table_base = c->table_base;
		num.rule_priority = c->rule_priority;
		num.has_table = c->has_table;
		num.table = 7;
		ret = rg_pod_plan_from_config(&cfg, &num, "net1", c->addr, &plan, err, sizeof(err));
		print_message("# %s: %d %s\n", c->name, ret, err);
		assert_int_equal(ret, c->ret);
		if (ret) {
			assert_non_null(strstr(err, c->err));
			continue;
		}
		assert_string_equal(plan.ifname, "net1");
		assert_string_equal(plan.rail, c->rail);
		assert_int_equal(plan.addr, c->addr);
		assert_int_equal(plan.index, c->index);
		assert_int_equal(plan.table, c->table);
		assert_int_equal(plan.rule_priority, c->priority);
		assert_int_equal(plan.metric, c->metric);
		assert_int_equal(plan.gateway, c->gateway);
		assert_int_equal(plan.subnet.addr, c->subnet.addr);
		assert_int_equal(plan.subnet.len, c->subnet.len);
		/* the supernets first, then the front-end prefixes */
		assert_int_equal(plan.n_dsts, 2);
		assert_int_equal(plan.n_supernets, 1);
		assert_int_equal(plan.dsts[0].addr, IP(10, 0, 0, 0));
		assert_int_equal(plan.dsts[0].len, 16);
		assert_int_equal(plan.dsts[1].addr, IP(192, 168, 0, 0));
		assert_int_equal(plan.dsts[1].len, 16);
	}
}

/* The ICMP source gets a /32 through the rail unless a route of the plan
 * or the rail's subnet covers it already. */
static void test_plan_icmp_source(void **state)
{
	struct rg_pod_numbering num;
	struct rg_pod_plan plan;
	char err[256] = "";

	(void)state;
	rg_pod_numbering_default(&num);
	assert_int_equal(rg_pod_plan_from_config(&cfg, &num, "net1", IP(10, 0, 1, 9), &plan, err,
						 sizeof(err)), 0);
	assert_int_equal(plan.n_dsts, 2);
	assert_int_equal(rg_pod_plan_add_icmp_source(&plan, 0, err, sizeof(err)), 0);
	assert_int_equal(rg_pod_plan_add_icmp_source(&plan, IP(10, 0, 7, 1), err, sizeof(err)), 0);
	assert_int_equal(rg_pod_plan_add_icmp_source(&plan, IP(192, 168, 3, 3), err, sizeof(err)), 0);
	assert_int_equal(rg_pod_plan_add_icmp_source(&plan, IP(10, 0, 1, 200), err, sizeof(err)), 0);
	assert_int_equal(plan.n_dsts, 2);     /* supernet, front-end, rail subnet: covered */
	assert_int_equal(rg_pod_plan_add_icmp_source(&plan, IP(10, 1, 255, 10), err, sizeof(err)), 0);
	assert_int_equal(plan.n_dsts, 3);
	assert_int_equal(plan.n_supernets, 1);
	assert_int_equal(plan.dsts[2].addr, IP(10, 1, 255, 10));
	assert_int_equal(plan.dsts[2].len, 32);
	/* twice is once */
	assert_int_equal(rg_pod_plan_add_icmp_source(&plan, IP(10, 1, 255, 10), err, sizeof(err)), 0);
	assert_int_equal(plan.n_dsts, 3);
}

struct inline_case {
	const char *name;
	uint32_t addr;
	uint8_t  prefix_len;
	uint32_t gateway;
	bool     has_table;
	uint32_t table;
	int      ret;
	const char *err;
	uint32_t index, want_table, priority;
	struct rg_cidr subnet;
};

static const struct inline_case inline_cases[] = {
	{ "no table: numbered as the first rail", IP(10, 0, 1, 5), 24, IP(10, 0, 1, 1), false, 0,
	  0, NULL, 0, 1000, 1000, { IP(10, 0, 1, 0), 24 } },
	{ "table 1003: index 3 for rule and metric too", IP(10, 0, 3, 9), 25, IP(10, 0, 3, 1),
	  true, 1003, 0, NULL, 3, 1003, 1003, { IP(10, 0, 3, 0), 25 } },
	{ "a table below tableBase keeps index 0", IP(10, 0, 3, 9), 32, IP(10, 0, 3, 1),
	  true, 500, 0, NULL, 0, 500, 1000, { IP(10, 0, 3, 9), 32 } },
	{ "an address outside every supernet", IP(10, 9, 0, 5), 24, IP(10, 9, 0, 1), false, 0,
	  -EINVAL, "outside every supernet", 0, 0, 0, { 0, 0 } },
	{ "a gateway outside every supernet", IP(10, 0, 1, 5), 24, IP(172, 16, 0, 1), false, 0,
	  -EINVAL, "gateway 172.16.0.1 is outside every supernet", 0, 0, 0, { 0, 0 } },
	{ "the gateway is the pod's own address", IP(10, 0, 1, 5), 24, IP(10, 0, 1, 5), false, 0,
	  -EINVAL, "is the pod's own address", 0, 0, 0, { 0, 0 } },
	{ "no prefix length", IP(10, 0, 1, 5), 0, IP(10, 0, 1, 1), false, 0,
	  -EINVAL, "has no prefix length", 0, 0, 0, { 0, 0 } },
	{ "a reserved inline table", IP(10, 0, 1, 5), 24, IP(10, 0, 1, 1), true, 253,
	  -EINVAL, "table 253 is reserved", 0, 0, 0, { 0, 0 } },
};

static void test_plan_inline(void **state)
{
	const struct rg_pod_inline in = {
		.supernets = { { IP(10, 0, 0, 0), 16 } }, .n_supernets = 1,
		.frontend = { { IP(192, 168, 0, 0), 16 }, { IP(172, 20, 0, 0), 14 } }, .n_frontend = 2,
	};

	for (size_t i = 0; i < ARRAY_SIZE(inline_cases); i++) {
		const struct inline_case *c = &inline_cases[i];
		struct rg_pod_numbering num;
		struct rg_pod_plan plan;
		char err[256] = "";
		int ret;

		rg_pod_numbering_default(&num);
		num.has_table = c->has_table;
		num.table = c->table;
		ret = rg_pod_plan_inline(&in, c->gateway, &num, "net3",
					 c->addr, c->prefix_len, &plan, err, sizeof(err));
		print_message("# %s: %d %s\n", c->name, ret, err);
		assert_int_equal(ret, c->ret);
		if (ret) {
			assert_non_null(strstr(err, c->err));
			continue;
		}
		assert_int_equal(plan.index, c->index);
		assert_int_equal(plan.table, c->want_table);
		assert_int_equal(plan.rule_priority, c->priority);
		assert_int_equal(plan.metric, 1000 + c->index);
		assert_int_equal(plan.subnet.addr, c->subnet.addr);
		assert_int_equal(plan.subnet.len, c->subnet.len);
		assert_string_equal(plan.rail, "");
		assert_int_equal(plan.n_dsts, 3);
		assert_int_equal(plan.n_supernets, 1);
		assert_int_equal(plan.dsts[2].addr, IP(172, 20, 0, 0));
	}
}

static void test_never_a_default_route(void **state)
{
	const struct rg_pod_inline in = {
		.supernets = { { IP(10, 0, 0, 0), 16 } }, .n_supernets = 1,
		.frontend = { { 0, 0 } }, .n_frontend = 1,   /* everything */
	};
	struct rg_pod_numbering num;
	struct rg_pod_plan plan;
	char err[256] = "";

	rg_pod_numbering_default(&num);
	assert_int_equal(rg_pod_plan_inline(&in, IP(10, 0, 1, 1), &num,
					    "net1", IP(10, 0, 1, 5), 24, &plan, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "railgate never adds a default route"));
}

static void test_route_text(void **state)
{
	const struct rg_pod_route main_route = { { IP(10, 0, 0, 0), 16 }, IP(10, 0, 1, 1), 0, 254, 1001 };
	const struct rg_pod_route subnet = { { IP(10, 0, 1, 0), 24 }, 0, IP(10, 0, 1, 5), 1001, 0 };
	char buf[128];

	assert_string_equal(rg_pod_route_str(&main_route, "net1", buf, sizeof(buf)),
			    "10.0.0.0/16 via 10.0.1.1 dev net1 metric 1001 table main");
	assert_string_equal(rg_pod_route_str(&subnet, "net1", buf, sizeof(buf)),
			    "10.0.1.0/24 dev net1 src 10.0.1.5 table 1001");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_from_config),
		cmocka_unit_test(test_plan_icmp_source),
		cmocka_unit_test(test_plan_inline),
		cmocka_unit_test(test_never_a_default_route),
		cmocka_unit_test(test_route_text),
	};

	return cmocka_run_group_tests(tests, load_example, free_example);
}
