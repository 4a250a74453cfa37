// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The whole plan from recorded facts, without root or a kernel: every case
 * of tests/unit/facts/cases (a testbed node's or pf_discovery's node's
 * facts, a config, a node name, a mode, the rails running before) goes
 * through rg_resolve_plan and must give exactly the map contents of its
 * golden NAME.maps.json: rails table and rail ids, egress, ICMP settings,
 * representor entries, routes and the FIB compiled from them, the lines
 * logged and the error with its message.  The goldens were recorded with
 * the resolver that asked netlink itself (docs/testing.md, "Recorded
 * facts"), so this is the parity of the pure plan with it.
 *
 * The process's own RAILGATE_TC_ATTACH and RAILGATE_SYSFS are set to
 * values no case recorded: a plan that read its environment instead of
 * its facts would differ.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/files.h"
#include "loader/kernel/facts_json.h"
#include "loader/plan/resolve.h"
#include "tests/lib/plan_maps.h"

#define MAX_CASES 64
#define FIELD_LEN 128

/* One line of the cases file. */
struct plan_case {
	char name[FIELD_LEN], node[FIELD_LEN], config[FIELD_LEN], node_name[FIELD_LEN];
	char mode[FIELD_LEN], prev[FIELD_LEN], tc_attach[FIELD_LEN];
};

static struct plan_case cases[MAX_CASES];
static char dir[512];                /* tests/unit/facts, beside this file */

/* dir/name: the caller frees the text; fails the test when unreadable. */
static char *read_text(const char *name)
{
	char path[1024], err[1024], *text = NULL;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (rg_file_read(path, 1 << 24, &text, &len, err, sizeof(err)))
		fail_msg("%s", err);
	return nul_terminated(text, len);
}

static void load_config(const struct plan_case *c, struct rg_config *cfg)
{
	struct rg_diags d = { 0 };
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, c->config);
	if (rg_config_load(path, cfg, &d)) {
		for (size_t i = 0; i < d.count; i++)
			fprintf(stderr, "# %s\n", d.msgs[i]);
		fail_msg("%s does not load", path);
	}
	rg_diags_free(&d);
	if (strcmp(c->node_name, "-"))
		rg_config_apply_node(cfg, c->node_name);
}

static void load_facts(const char *name, struct rg_node_facts *f)
{
	char file[FIELD_LEN + 16], err[512];
	char *text;

	snprintf(file, sizeof(file), "%s.facts.json", name);
	text = read_text(file);
	if (rg_facts_from_json(text, f, err, sizeof(err)))
		fail_msg("%s: %s", file, err);
	free(text);
}

static enum rg_config_mode mode_of(const struct plan_case *c, const struct rg_config *cfg)
{
	static const enum rg_config_mode modes[] = {
		RG_CONFIG_MODE_AUTO, RG_CONFIG_MODE_XDP, RG_CONFIG_MODE_XDP_GENERIC, RG_CONFIG_MODE_TC,
	};

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(c->mode, rg_config_mode_name(modes[i])))
			return modes[i];
	return cfg->mode;
}

/* The first line where got and want differ, with its number, on stderr. */
static void show_difference(const char *got, const char *want)
{
	size_t at = 0, bol = 0;
	int line = 1;

	while (got[at] && got[at] == want[at]) {
		if (got[at] == '\n') {
			line++;
			bol = at + 1;
		}
		at++;
	}
	fprintf(stderr, "# line %d: got  %.*s\n", line, (int)strcspn(got + bol, "\n"), got + bol);
	fprintf(stderr, "# line %d: want %.*s\n", line, (int)strcspn(want + bol, "\n"), want + bol);
}

/* The case's plan from its facts, as map contents, against its golden. */
static void test_case(void **state)
{
	const struct plan_case *c = *state;
	struct rg_rail_ids prev;
	struct rg_node_facts facts;
	struct rg_config cfg;
	struct rg_plan plan = { 0 };
	struct plan_log lines;
	struct rg_log log = plan_log_catcher(&lines);
	char file[FIELD_LEN + 16], err[1024] = "", *got, *want;
	int ret;

	load_config(c, &cfg);
	load_facts(c->name, &facts);
	if (strcmp(c->prev, "-")) {
		snprintf(file, sizeof(file), "%s.maps.json", c->prev);
		want = read_text(file);
		assert_int_equal(plan_maps_rail_ids(want, &prev), 0);
		free(want);
	}
	ret = rg_resolve_plan(&cfg, mode_of(c, &cfg), &facts, strcmp(c->prev, "-") ? &prev : NULL,
			      &plan, &log, err, sizeof(err));
	got = plan_maps_json(ret, err, &plan, &lines);
	assert_non_null(got);
	snprintf(file, sizeof(file), "%s.maps.json", c->name);
	want = read_text(file);
	if (strcmp(got, want)) {
		show_difference(got, want);
		fail_msg("%s: the plan is not the recorded one", c->name);
	}
	free(got);
	free(want);
	plan_log_free(&lines);
	rg_plan_free(&plan);
	rg_facts_free(&facts);
	rg_config_free(&cfg);
}

/* Read back and written again, every recording is the text it was. */
static void test_facts_round_trip(void **state)
{
	for (size_t i = 0; i < MAX_CASES && cases[i].name[0]; i++) {
		struct rg_node_facts facts;
		char file[FIELD_LEN + 16], *got = NULL, *want;

		snprintf(file, sizeof(file), "%s.facts.json", cases[i].name);
		want = read_text(file);
		load_facts(cases[i].name, &facts);
		assert_int_equal(rg_facts_to_json(&facts, &got), 0);
		if (strcmp(got, want)) {
			show_difference(got, want);
			fail_msg("%s does not survive a round trip", file);
		}
		free(got);
		free(want);
		rg_facts_free(&facts);
	}
}

/* A recording that is not one says where, and fills nothing. */
static void test_facts_errors(void **state)
{
	static const struct { const char *text, *err; } bad[] = {
		{ "[1]", "facts: not a JSON object" },
		{ "{\"format\": \"railgate-node-facts/9\"}", "facts: format: not railgate-node-facts/1" },
		{ "{\"format\": \"railgate-node-facts/1\"}", "facts: links: missing" },
		{ "{\"format\": \"railgate-node-facts/1\", \"links\": {\"ret\": 0, \"list\": "
		  "[{\"ifindex\": 1, \"name\": \"lo\", \"mac\": \"00:00:00:00:00:00\", \"mtu\": 65536, "
		  "\"up\": true, \"oper_up\": true, \"kind\": \"\", \"xdp_features\": null}]}, "
		  "\"route_oif\": null, \"route_src\": {\"dst\": \"10.1.255.300\", \"ret\": 0, "
		  "\"src\": \"10.1.255.10\"}}", "facts: route_src.dst: not an IPv4 address" },
		{ "{\"format\": \"railgate-node-facts/1\", \"links\": {\"ret\": 0, \"list\": "
		  "[{\"ifindex\": \"one\"}]}}", "facts: links.list[].ifindex: not an integer" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct rg_node_facts facts;
		char err[256] = "";

		assert_int_equal(rg_facts_from_json(bad[i].text, &facts, err, sizeof(err)), -EINVAL);
		assert_string_equal(err, bad[i].err);
		assert_null(facts.links.links);
	}
}

/* A plan asks the facts for what they hold: a route that was not gathered
 * (another config's recording) fails, it is not invented. */
static void test_facts_of_another_config(void **state)
{
	const struct plan_case *c = &cases[0];
	struct rg_node_facts facts;
	struct rg_config cfg;
	struct rg_plan plan = { 0 };
	char err[256] = "";

	load_config(c, &cfg);
	load_facts(c->name, &facts);
	cfg.computenet.gateway ^= 1;     /* a gateway the facts did not ask about */
	assert_int_equal(rg_resolve_plan(&cfg, cfg.mode, &facts, NULL, &plan, NULL, err,
					 sizeof(err)), -ENODATA);
	assert_non_null(strstr(err, "cannot resolve the MAC of the computenet gateway"));
	assert_null(plan.reps);
	rg_facts_free(&facts);
	rg_config_free(&cfg);
}

/* The plan of case 0 (rails rail0..rail3 of pf0vf*..pf3vf*) with rail1's
 * representors replaced by reps, and the link called big given an ifindex
 * the datapath cannot hold (NULL: none): its error. */
static int plan_error_with(char **reps, size_t n_reps, const char *big, char *err,
			   size_t err_len)
{
	const struct plan_case *c = &cases[0];
	struct rg_node_facts facts;
	struct rg_config cfg;
	struct rg_plan plan = { 0 };
	char **saved;
	size_t n_saved;
	int ret;

	load_config(c, &cfg);
	load_facts(c->name, &facts);
	for (size_t i = 0; big && i < facts.links.n; i++)
		if (strcmp(facts.links.links[i].name, big) == 0)
			facts.links.links[i].ifindex = RG_MAX_IFINDEX + 10;
	saved = cfg.rails[1].representors;
	n_saved = cfg.rails[1].n_representors;
	cfg.rails[1].representors = reps;
	cfg.rails[1].n_representors = n_reps;
	ret = rg_resolve_plan(&cfg, cfg.mode, &facts, NULL, &plan, NULL, err, err_len);
	assert_null(plan.reps);
	cfg.rails[1].representors = saved;
	cfg.rails[1].n_representors = n_saved;
	rg_facts_free(&facts);
	rg_config_free(&cfg);
	return ret;
}

/* A representor's own checks (two rails claim it, its ifindex is beyond
 * the datapath's table) stop the plan where it is decided, before a later
 * name is looked at: the error is that one, not the later rail's. */
static void test_representor_errors_in_order(void **state)
{
	char glob[] = "pf*vf0", missing[] = "nosuch0";
	char *two_rails[] = { glob, missing }, *later[] = { missing };
	char err[256] = "";

	assert_int_equal(plan_error_with(two_rails, 2, NULL, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "pf0vf0 matches the representors of two rails (rail0 and rail1)");
	assert_int_equal(plan_error_with(later, 1, "pf0vf0", err, sizeof(err)), -ERANGE);
	assert_string_equal(err, "pf0vf0: ifindex 65546 is outside the datapath's table (1..65535)");
}

static size_t read_cases(void)
{
	char *text = read_text("cases"), *save = NULL;
	size_t n = 0;

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct plan_case *c = &cases[n];

		if (line[0] == '#' || !line[strspn(line, " \t")])
			continue;
		if (n == MAX_CASES - 1 ||
		    sscanf(line, "%127s %127s %127s %127s %127s %127s %127s", c->name, c->node,
			   c->config, c->node_name, c->mode, c->prev, c->tc_attach) != 7) {
			fprintf(stderr, "# cases: a line of 7 fields, at most %d: %s\n", MAX_CASES - 1, line);
			n = 0;
			break;
		}
		n++;
	}
	free(text);
	return n;
}

int main(void)
{
	struct CMUnitTest tests[MAX_CASES + 4];
	size_t n_cases, n = 0;
	char *slash;

	snprintf(dir, sizeof(dir), "%s", __FILE__);
	slash = strrchr(dir, '/');
	snprintf(slash ? slash + 1 : dir, sizeof(dir) - (size_t)(slash ? slash + 1 - dir : 0),
		 "facts");
	setenv(RG_TC_ATTACH_ENV, "tcx-from-the-environment", 1);
	setenv("RAILGATE_SYSFS", "/nonexistent-rg-sysfs", 1);
	n_cases = read_cases();
	if (!n_cases) {
		fprintf(stderr, "# no cases in %s/cases\n", dir);
		return 1;
	}
	for (size_t i = 0; i < n_cases; i++)
		tests[n++] = (struct CMUnitTest){ .name = cases[i].name, .test_func = test_case,
						  .initial_state = &cases[i] };
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_facts_round_trip);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_facts_errors);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_facts_of_another_config);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_representor_errors_in_order);
	return _cmocka_run_group_tests("plan_facts", tests, n, NULL, NULL);
}
