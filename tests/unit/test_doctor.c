// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * tools/doctor/: the judgements of `railgate doctor` and `railgate probe`
 * on recorded inputs, for the cases the testbed cannot produce or only
 * produces one way: nftables rulesets in libnftables' JSON (iptables-nft's
 * xt targets, a state rule, rules outside the rails, policies), drop
 * counters a sample apart, where a lost probe died, and libcni's result
 * caches.  The live checks run in tests/integration/testbed_doctor.sh.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "tools/doctor/doctor.h"
#include "tools/doctor/probe.h"

#define IP(a, b, c, d) (((uint32_t)(a) << 24) | ((b) << 16) | ((c) << 8) | (d))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct rg_cidr prefixes[] = { { IP(10, 0, 0, 0), 16 }, { IP(192, 168, 0, 0), 16 } };
static const char *const ifnames[] = { "net0", "net1", "net2" };
static const struct rg_nft_scope scope = {
	.prefixes = prefixes, .n_prefixes = 2, .ifnames = ifnames, .n_ifnames = 3,
	.target = "pod p", .exec_prefix = "ip netns exec p",
};

#define NFT_HEAD "{\"nftables\": [{\"metainfo\": {\"version\": \"1.0.6\", \"json_schema_version\": 1}}, " \
	"{\"table\": {\"family\": \"ip\", \"name\": \"filter\", \"handle\": 1}}, "
#define CHAIN(policy) "{\"chain\": {\"family\": \"ip\", \"table\": \"filter\", \"name\": \"OUTPUT\", " \
	"\"handle\": 1, \"type\": \"filter\", \"hook\": \"output\", \"prio\": 0, \"policy\": \"" policy "\"}}"
#define RULE(handle, expr) ", {\"rule\": {\"family\": \"ip\", \"table\": \"filter\", \"chain\": \"OUTPUT\", " \
	"\"handle\": " #handle ", \"expr\": [" expr "]}}"
#define DADDR_PREFIX(a, l) "{\"match\": {\"op\": \"==\", \"left\": {\"payload\": {\"protocol\": \"ip\", " \
	"\"field\": \"daddr\"}}, \"right\": {\"prefix\": {\"addr\": \"" a "\", \"len\": " #l "}}}}"
#define XT_REJECT "{\"xt\": {\"type\": \"target\", \"name\": \"REJECT\"}}"
#define DROP "{\"drop\": null}"
#define COUNTER "{\"counter\": {\"packets\": 0, \"bytes\": 0}}"

struct nft_case {
	const char *name;
	const char *json;
	const char *statuses;        /* one letter per policy entry: p(ass) w(arn) f(ail) */
	const char *fix;             /* the first entry's fix command, or NULL */
};

static const struct nft_case nft_cases[] = {
	{ "empty ruleset", "{\"nftables\": [{\"metainfo\": {\"version\": \"1.0.6\"}}]}", "p", NULL },
	/* What `iptables -A OUTPUT -d 10.0.1.0/24 -j REJECT` (iptables-nft) lists. */
	{ "iptables-nft REJECT to a rail", NFT_HEAD CHAIN("accept")
	  RULE(4, DADDR_PREFIX("10.0.1.0", 24) ", " COUNTER ", " XT_REJECT) "]}",
	  "f", "ip netns exec p nft delete rule ip filter OUTPUT handle 4" },
	{ "nft drop of a single rail address", NFT_HEAD CHAIN("accept")
	  RULE(7, "{\"match\": {\"op\": \"==\", \"left\": {\"payload\": {\"protocol\": \"ip\", \"field\": \"daddr\"}}, \"right\": \"10.0.2.11\"}}, " DROP) "]}",
	  "f", "ip netns exec p nft delete rule ip filter OUTPUT handle 7" },
	{ "a set with one rail address among others", NFT_HEAD CHAIN("accept")
	  RULE(8, "{\"match\": {\"op\": \"==\", \"left\": {\"payload\": {\"protocol\": \"ip\", \"field\": \"saddr\"}}, \"right\": {\"set\": [\"172.16.0.1\", {\"prefix\": {\"addr\": \"10.0.3.0\", \"len\": 24}}]}}}, " DROP) "]}",
	  "f", "ip netns exec p nft delete rule ip filter OUTPUT handle 8" },
	{ "drop everything out of a rail interface", NFT_HEAD CHAIN("accept")
	  RULE(9, "{\"match\": {\"op\": \"==\", \"left\": {\"meta\": {\"key\": \"oifname\"}}, \"right\": \"net1\"}}, " DROP) "]}",
	  "f", "ip netns exec p nft delete rule ip filter OUTPUT handle 9" },
	{ "a drop outside the supernets is not ours", NFT_HEAD CHAIN("accept")
	  RULE(5, DADDR_PREFIX("172.16.0.0", 12) ", " DROP) "]}", "p", NULL },
	{ "a drop on another interface is not ours", NFT_HEAD CHAIN("accept")
	  RULE(5, "{\"match\": {\"op\": \"==\", \"left\": {\"meta\": {\"key\": \"oifname\"}}, \"right\": \"eth0\"}}, " DROP) "]}",
	  "p", NULL },
	{ "ct state invalid drop is left alone", NFT_HEAD CHAIN("accept")
	  RULE(6, "{\"match\": {\"op\": \"in\", \"left\": {\"ct\": {\"key\": \"state\"}}, \"right\": \"invalid\"}}, " DROP) "]}",
	  "p", NULL },
	{ "accept is no verdict against us", NFT_HEAD CHAIN("accept")
	  RULE(3, DADDR_PREFIX("10.0.1.0", 24) ", {\"accept\": null}") "]}", "p", NULL },
	{ "a port match makes it a warning", NFT_HEAD CHAIN("accept")
	  RULE(3, DADDR_PREFIX("10.0.0.0", 16) ", {\"match\": {\"op\": \"==\", \"left\": {\"payload\": {\"protocol\": \"tcp\", \"field\": \"dport\"}}, \"right\": 5201}}, " DROP) "]}",
	  "w", "ip netns exec p nft delete rule ip filter OUTPUT handle 3" },
	{ "an xt match makes it a warning", NFT_HEAD CHAIN("accept")
	  RULE(3, "{\"xt\": {\"type\": \"match\", \"name\": \"multiport\"}}, " XT_REJECT) "]}",
	  "w", "ip netns exec p nft delete rule ip filter OUTPUT handle 3" },
	{ "a base chain with policy drop", NFT_HEAD CHAIN("drop") "]}", "w", NULL },
	{ "not nftables JSON", "{\"something\": 1}", "w", NULL },
};

static void test_nft(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(nft_cases); i++) {
		const struct nft_case *tc = &nft_cases[i];
		struct rg_checks cs = { 0 };
		char got[16] = "";

		print_message("# %s\n", tc->name);
		rg_doctor_judge_nft(tc->json, &scope, &cs);
		for (size_t k = 0; k < cs.n && k < sizeof(got) - 1; k++) {
			assert_string_equal(cs.v[k].id, "policy");
			assert_int_equal(cs.v[k].scenario, 4);
			assert_string_equal(cs.v[k].target, "pod p");
			got[k] = rg_check_status_name(cs.v[k].status)[0];
		}
		assert_string_equal(got, tc->statuses);
		if (tc->fix)
			assert_string_equal(cs.v[0].fix_command, tc->fix);
		rg_checks_free(&cs);
	}
}

/* ---- drop counters ------------------------------------------------------- */

static void test_drops(void **state)
{
	struct rg_counter *c0 = calloc(RG_STAT_SLOTS, sizeof(*c0)), *c1 = calloc(RG_STAT_SLOTS, sizeof(*c1));
	struct rg_rail rails[RG_MAX_RAILS] = { 0 };
	struct rg_checks cs = { 0 };

	strcpy(rails[0].name, "rail0");
	rails[0].flags = RG_RAIL_F_VALID;
	strcpy(rails[1].name, "rail1");
	rails[1].flags = RG_RAIL_F_VALID;
	/* steady counters, and verdicts that grow: no drop */
	c0[RG_STAT_INDEX(0, RG_DROP_SPOOFED)].packets = 5;
	c1[RG_STAT_INDEX(0, RG_DROP_SPOOFED)].packets = 5;
	c1[RG_STAT_INDEX(0, RG_VERDICT_CROSS_RAIL)].packets = 1000;
	rg_doctor_judge_drops(rails, c0, c1, 1, "/etc/r.yaml", &cs);
	assert_int_equal(cs.n, 1);
	assert_int_equal(cs.v[0].status, RG_CHECK_PASS);
	rg_checks_free(&cs);

	/* a loop on rail1 and spoofed frames on rail0 */
	c1[RG_STAT_INDEX(0, RG_DROP_SPOOFED)].packets = 9;
	c1[RG_STAT_INDEX(1, RG_DROP_TTL_EXCEEDED)].packets = 3;
	c1[RG_STAT_INDEX(RG_RAIL_UNKNOWN, RG_DROP_NO_EGRESS)].packets = 2;
	rg_doctor_judge_drops(rails, c0, c1, 1, "/etc/r.yaml", &cs);
	assert_int_equal(cs.n, 3);
	assert_int_equal(cs.v[0].scenario, 1);
	assert_int_equal(cs.v[0].status, RG_CHECK_FAIL);
	assert_string_equal(cs.v[0].evidence, "spoofed over 1.0 s: rail0 +4");
	assert_int_equal(cs.v[1].scenario, 5);
	assert_string_equal(cs.v[1].evidence, "ttl_exceeded over 1.0 s: rail1 +3");
	assert_int_equal(cs.v[2].scenario, 0);
	assert_string_equal(cs.v[2].evidence, "no_egress over 1.0 s: unknown +2");
	assert_string_equal(cs.v[2].fix_command, "railgate up -c /etc/r.yaml");
	rg_checks_free(&cs);
	free(c0);
	free(c1);
}

/* ---- where a lost probe died ------------------------------------------------ */

static void test_classify(void **state)
{
	struct rg_probe_evidence e = { .sent = 3, .received = 3, .counters = true };

	assert_int_equal(rg_probe_classify(&e), RG_DIED_NONE);
	assert_null(rg_probe_died_name(RG_DIED_NONE));
	e.received = 1;
	assert_int_equal(rg_probe_classify(&e), RG_DIED_LEFT_ON_RAIL);   /* railgate saw nothing */
	e.own[RG_VERDICT_PASS_LOCAL] = 3;
	assert_int_equal(rg_probe_classify(&e), RG_DIED_LEFT_ON_RAIL);   /* passed, not redirected */
	e.own[RG_VERDICT_CROSS_RAIL] = 3;
	assert_int_equal(rg_probe_classify(&e), RG_DIED_UPLINK_NO_ANSWER);
	e.any[RG_DROP_SPOOFED] = 2;                                        /* another rail's drop... */
	assert_int_equal(rg_probe_classify(&e), RG_DIED_UPLINK_NO_ANSWER); /* ...loses to our redirects */
	e.own[RG_VERDICT_CROSS_RAIL] = 0;
	assert_int_equal(rg_probe_classify(&e), RG_DIED_SPOOFED);          /* left by the wrong rail */
	e.own[RG_DROP_TTL_EXCEEDED] = 1;
	assert_int_equal(rg_probe_classify(&e), RG_DIED_TTL_EXCEEDED);
	e.own[RG_DROP_NO_ROUTE] = 1;
	assert_int_equal(rg_probe_classify(&e), RG_DIED_NO_ROUTE);
	e.own[RG_DROP_SPOOFED] = 1;
	assert_int_equal(rg_probe_classify(&e), RG_DIED_SPOOFED);
	memset(e.own, 0, sizeof(e.own));
	memset(e.any, 0, sizeof(e.any));
	e.own[RG_DROP_REDIRECT_FAILED] = 1;
	assert_int_equal(rg_probe_classify(&e), RG_DIED_NO_EGRESS);
	e.send_errors = 2;                                                 /* the lost ones never left */
	assert_int_equal(rg_probe_classify(&e), RG_DIED_NEVER_LEFT_POD);
	e.counters = false;
	e.send_errors = 0;
	assert_int_equal(rg_probe_classify(&e), RG_DIED_LEFT_ON_RAIL);
	assert_string_equal(rg_probe_died_name(RG_DIED_UPLINK_NO_ANSWER), "uplink_no_answer");
}

/* ---- libcni's result cache ------------------------------------------------------ */

static const char conflist_with[] =   /* base64 of a host-device + static + railgate chain */
	"eyJjbmlWZXJzaW9uIjoiMS4wLjAiLCJuYW1lIjoicmFpbDEiLCJwbHVnaW5zIjpbeyJ0eXBlIjoiaG9zdC1kZXZpY2UifSx7InR5cGUiOiJyYWlsZ2F0ZSJ9XX0=";
static const char conflist_without[] = /* the same chain without railgate */
	"eyJjbmlWZXJzaW9uIjoiMS4wLjAiLCJuYW1lIjoicmFpbDEiLCJwbHVnaW5zIjpbeyJ0eXBlIjoiaG9zdC1kZXZpY2UifV19";

static void write_cache(const char *dir, const char *file, const char *config, const char *routes)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "{\"kind\": \"cniCacheV1\", \"containerId\": \"c1\", \"ifName\": \"net1\", "
		   "\"networkName\": \"rail1\", \"config\": \"%s\", \"result\": {\"cniVersion\": \"1.0.0\", "
		   "\"ips\": [{\"address\": \"10.0.1.150/24\", \"gateway\": \"10.0.1.1\"}], \"routes\": [%s]}}",
		config, routes);
	fclose(f);
}

static void test_cni_cache(void **state)
{
	char dir[] = "/tmp/rg-doctor-cni.XXXXXX", missing[600];
	const char *dirs[2];
	struct rg_cidr supernet = { IP(10, 0, 0, 0), 16 };
	struct rg_config cfg = { .supernets = &supernet, .n_supernets = 1 };
	struct rg_cni_attachment att;

	assert_non_null(mkdtemp(dir));
	snprintf(missing, sizeof(missing), "%s/none", dir);
	dirs[0] = missing;     /* a directory that does not exist is no error */
	dirs[1] = dir;
	write_cache(dir, "rail1-c1-net1", conflist_without, "");
	assert_int_equal(rg_doctor_cni_lookup(dirs, 2, "net1", IP(10, 0, 1, 150), &cfg, &att), 1);
	assert_string_equal(att.network, "rail1");
	assert_false(att.has_railgate);
	assert_false(att.result_routes_supernet);
	/* an IPAM that gives the route (nv-ipam >= 0.3 with a gateway) */
	write_cache(dir, "rail1-c1-net1", conflist_without, "{\"dst\": \"10.0.0.0/16\", \"gw\": \"10.0.1.1\"}");
	assert_int_equal(rg_doctor_cni_lookup(dirs, 2, "net1", IP(10, 0, 1, 150), &cfg, &att), 1);
	assert_true(att.result_routes_supernet);
	write_cache(dir, "rail1-c1-net1", conflist_with, "");
	assert_int_equal(rg_doctor_cni_lookup(dirs, 2, "net1", IP(10, 0, 1, 150), &cfg, &att), 1);
	assert_true(att.has_railgate);
	/* another interface, another address: not this attachment */
	assert_int_equal(rg_doctor_cni_lookup(dirs, 2, "net2", IP(10, 0, 1, 150), &cfg, &att), 0);
	assert_int_equal(rg_doctor_cni_lookup(dirs, 2, "net1", IP(10, 0, 1, 151), &cfg, &att), 0);
	snprintf(missing, sizeof(missing), "%s/rail1-c1-net1", dir);
	unlink(missing);
	rmdir(dir);
}

/* ---- the JSON users script against ------------------------------------------- */

static void test_checks_json(void **state)
{
	struct rg_checks cs = { 0 };
	struct rg_check *c = rg_checks_add(&cs, "node.railgate", 2, RG_CHECK_FAIL, "node");
	struct json_object *js, *x;

	rg_check_set(c->summary, "s");
	rg_check_set(c->evidence, "e");
	rg_check_set(c->fix_command, "railgate up -c f");
	rg_check_set(c->fix_text, "t");
	rg_checks_add(&cs, "node.uplink", 0, RG_CHECK_WARN, "node");
	js = rg_checks_json(&cs);
	assert_int_equal(json_object_get_int(json_object_object_get(js, "failed")), 1);
	assert_int_equal(json_object_get_int(json_object_object_get(js, "warned")), 1);
	x = json_object_array_get_idx(json_object_object_get(js, "checks"), 0);
	assert_string_equal(json_object_get_string(json_object_object_get(x, "status")), "fail");
	assert_int_equal(json_object_get_int(json_object_object_get(x, "scenario")), 2);
	assert_string_equal(json_object_get_string(json_object_object_get(
		json_object_object_get(x, "fix"), "command")), "railgate up -c f");
	x = json_object_array_get_idx(json_object_object_get(js, "checks"), 1);
	assert_null(json_object_object_get(x, "scenario"));     /* railgate's own health: null */
	assert_null(json_object_object_get(json_object_object_get(x, "fix"), "command"));
	json_object_put(js);
	rg_checks_free(&cs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nft),
		cmocka_unit_test(test_drops),
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_cni_cache),
		cmocka_unit_test(test_checks_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
