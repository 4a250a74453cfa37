// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Scenario 4: a policy that blocks traffic between rails.  The ruleset is
 * read through libnftables' JSON API (never by parsing `nft` text), which
 * also shows iptables-nft's rules, their targets as
 * {"xt": {"type": "target", "name": "REJECT"}}.
 *
 * A rule counts when it ends in a verdict that kills the frame (drop,
 * reject, an xt DROP/REJECT target) and its address and interface matches
 * can hold for traffic between rails (an address in a supernet or
 * front-end prefix, a rail interface).  A rule that also matches on what
 * this check does not follow (ports, marks) is a warning: it blocks some
 * of that traffic.  Connection-state rules (ct state invalid drop) are
 * left alone: they are what every ruleset has.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nftables/libnftables.h>
#include <json-c/json.h>

#include "tools/doctor/doctor.h"
#include "tools/doctor/jsonget.h"
#include "lib/netns.h"
#include "lib/errbuf.h"
#include "lib/addr.h"

enum rule_reach {
	REACH_NONE,                  /* cannot hold for traffic between rails */
	REACH_ALL,                   /* holds for all of it, or the part it names */
	REACH_SOME,                  /* also matches on things not followed here */
};

struct rule_view {
	const char *verdict;         /* "drop", "reject", "xt REJECT", or NULL */
	enum rule_reach reach;
	bool state_rule;             /* a ct match: left alone */
	char what[256];              /* the matches that tie it to rail traffic */
};

/* An address, a prefix or a range as a CIDR (a range as its first
 * address's /32 and its last's: both are tried). */
static int cidrs_of(struct json_object *v, struct rg_cidr *out, int max)
{
	struct json_object *x;
	int n = 0;

	if (json_object_is_type(v, json_type_string)) {
		const char *s = json_object_get_string(v);

		if (max > 0 && !rg_ipv4_parse(s, &out[0].addr))
			return out[0].len = 32, 1;
		return max > 0 && !rg_cidr_parse(s, &out[0], true);
	}
	if ((x = jget(v, "prefix"))) {
		uint32_t a;

		if (max > 0 && !rg_ipv4_parse(jget_str(x, "addr"), &a)) {
			int len = json_object_get_int(jget(x, "len"));

			out[0].len = (uint8_t)(len < 0 ? 0 : len > 32 ? 32 : len);
			out[0].addr = out[0].len ? a & (~0u << (32 - out[0].len)) : 0;
			return 1;
		}
		return 0;
	}
	if ((x = jget(v, "range")) || (x = jget(v, "set"))) {
		for (size_t i = 0; json_object_is_type(x, json_type_array) &&
				   i < json_object_array_length(x) && n < max; i++)
			n += cidrs_of(json_object_array_get_idx(x, i), out + n, max - n);
	}
	return n;
}

/* An address or prefix as nft prints it; anything else as its JSON. */
static const char *value_text(struct json_object *v, char *buf, size_t n)
{
	struct json_object *p = jget(v, "prefix");

	if (json_object_is_type(v, json_type_string))
		snprintf(buf, n, "%s", json_object_get_string(v));
	else if (p)
		snprintf(buf, n, "%s/%d", jget_str(p, "addr"), json_object_get_int(jget(p, "len")));
	else
		snprintf(buf, n, "%s", json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
	return buf;
}

static bool cidr_in_scope(struct rg_cidr c, const struct rg_nft_scope *sc)
{
	for (size_t i = 0; i < sc->n_prefixes; i++)
		if (rg_cidr_overlaps(c, sc->prefixes[i]))
			return true;
	return false;
}

static bool ifname_in_scope(const char *pattern, const struct rg_nft_scope *sc)
{
	for (size_t i = 0; i < sc->n_ifnames; i++)
		if (!fnmatch(pattern, sc->ifnames[i], 0) || !strcmp(pattern, sc->ifnames[i]))
			return true;
	return false;
}

static void add_what(struct rule_view *rv, const char *left, const char *op, const char *right)
{
	size_t used = strlen(rv->what);

	snprintf(rv->what + used, sizeof(rv->what) - used, "%s%s %s %s", used ? " " : "", left,
		 op, right);
}

/* One "match" expression: does it keep the rule off traffic between rails? */
static void judge_match(struct json_object *m, const struct rg_nft_scope *sc, struct rule_view *rv)
{
	struct json_object *left = jget(m, "left"), *right = jget(m, "right"), *x;
	const char *op = jget_str(m, "op");
	bool negated = !strcmp(op, "!=");

	if ((x = jget(left, "payload")) && !strcmp(jget_str(x, "protocol"), "ip") &&
	    (!strcmp(jget_str(x, "field"), "daddr") || !strcmp(jget_str(x, "field"), "saddr"))) {
		struct rg_cidr c[32];
		int n = cidrs_of(right, c, 32);
		bool hit = false;

		for (int i = 0; i < n; i++)
			hit |= cidr_in_scope(c[i], sc);
		if (!negated && n > 0 && !hit)
			rv->reach = REACH_NONE;
		add_what(rv, !strcmp(jget_str(x, "field"), "daddr") ? "ip daddr" : "ip saddr",
			 negated ? "!=" : "==", value_text(right, (char[64]){ 0 }, 64));
		return;
	}
	if ((x = jget(left, "meta")) &&
	    (!strcmp(jget_str(x, "key"), "iifname") || !strcmp(jget_str(x, "key"), "oifname"))) {
		const char *name = json_object_is_type(right, json_type_string)
				   ? json_object_get_string(right) : NULL;

		if (!negated && name && !ifname_in_scope(name, sc))
			rv->reach = REACH_NONE;
		add_what(rv, jget_str(x, "key"), negated ? "!=" : "==", name ? name : "{...}");
		return;
	}
	if (jget(left, "ct")) {
		rv->state_rule = true;
		return;
	}
	if (rv->reach == REACH_ALL)
		rv->reach = REACH_SOME;
}

static void judge_rule(struct json_object *expr, const struct rg_nft_scope *sc, struct rule_view *rv)
{
	memset(rv, 0, sizeof(*rv));
	rv->reach = REACH_ALL;
	for (size_t i = 0; json_object_is_type(expr, json_type_array) &&
			   i < json_object_array_length(expr); i++) {
		struct json_object *e = json_object_array_get_idx(expr, i), *x;

		if (jhas(e, "drop"))
			rv->verdict = "drop";
		else if (jhas(e, "reject"))
			rv->verdict = "reject";
		else if ((x = jget(e, "xt")) && !strcmp(jget_str(x, "type"), "target") &&
			 (!strcmp(jget_str(x, "name"), "REJECT") || !strcmp(jget_str(x, "name"), "DROP")))
			rv->verdict = !strcmp(jget_str(x, "name"), "REJECT") ? "xt REJECT" : "xt DROP";
		else if ((x = jget(e, "xt")) && !strcmp(jget_str(x, "type"), "match") && rv->reach == REACH_ALL)
			rv->reach = REACH_SOME;    /* an iptables match this check cannot read */
		else if ((x = jget(e, "match")) && rv->reach != REACH_NONE)
			judge_match(x, sc, rv);
	}
}

static void add_rule_check(struct json_object *rule, const struct rule_view *rv,
			   const struct rg_nft_scope *sc, struct rg_checks *cs)
{
	const char *fam = jget_str(rule, "family"), *table = jget_str(rule, "table"),
		   *chain = jget_str(rule, "chain");
	int handle = json_object_get_int(jget(rule, "handle"));
	struct rg_check *c = rg_checks_add(cs, "policy", 4,
					   rv->reach == REACH_ALL ? RG_CHECK_FAIL : RG_CHECK_WARN,
					   sc->target);

	if (!c)
		return;
	rg_check_set(c->summary, "an nftables rule %s traffic between rails%s", rv->verdict,
		     rv->reach == REACH_ALL ? "" : " (some of it: the rule matches more than addresses and interfaces)");
	rg_check_set(c->evidence, "table %s %s chain %s handle %d: %s%s%s", fam, table, chain, handle,
		     rv->what[0] ? rv->what : "every packet", " -> ", rv->verdict);
	rg_check_set(c->fix_command, "%s%snft delete rule %s %s %s handle %d", sc->exec_prefix,
		     sc->exec_prefix[0] ? " " : "", fam, table, chain, handle);
	rg_check_set(c->fix_text, "allow the rail subnets explicitly in the policy that wrote this rule (a MultiNetworkPolicy rule for the supernets), or delete the rule");
}

static void add_policy_check(struct json_object *chain, const struct rg_nft_scope *sc,
			     struct rg_checks *cs)
{
	struct rg_check *c = rg_checks_add(cs, "policy", 4, RG_CHECK_WARN, sc->target);

	if (!c)
		return;
	rg_check_set(c->summary, "an nftables base chain drops what no rule accepts");
	rg_check_set(c->evidence, "table %s %s chain %s (hook %s) policy drop",
		     jget_str(chain, "family"), jget_str(chain, "table"), jget_str(chain, "name"),
		     jget_str(chain, "hook"));
	rg_check_set(c->fix_text, "make sure a rule of that chain accepts traffic to and from the supernets");
}

int rg_doctor_judge_nft(const char *json, const struct rg_nft_scope *sc, struct rg_checks *cs)
{
	struct json_object *root = json_tokener_parse(json), *list = jget(root, "nftables");
	size_t before = cs->n, rules = 0;
	struct rg_check *c;

	if (!list || !json_object_is_type(list, json_type_array)) {
		json_object_put(root);
		c = rg_checks_add(cs, "policy", 4, RG_CHECK_WARN, sc->target);
		if (c) {
			rg_check_set(c->summary, "cannot read the nftables ruleset");
			rg_check_set(c->evidence, "libnftables returned no {\"nftables\": [...]} document");
		}
		return -EINVAL;
	}
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		struct json_object *item = json_object_array_get_idx(list, i), *x;
		struct rule_view rv;

		if ((x = jget(item, "chain")) && jget(x, "hook") && !strcmp(jget_str(x, "policy"), "drop") &&
		    (!strcmp(jget_str(x, "hook"), "input") || !strcmp(jget_str(x, "hook"), "output") ||
		     !strcmp(jget_str(x, "hook"), "forward")))
			add_policy_check(x, sc, cs);
		if (!(x = jget(item, "rule")))
			continue;
		rules++;
		judge_rule(jget(x, "expr"), sc, &rv);
		if (rv.verdict && rv.reach != REACH_NONE && !rv.state_rule)
			add_rule_check(x, &rv, sc, cs);
	}
	json_object_put(root);
	if (cs->n == before && (c = rg_checks_add(cs, "policy", 4, RG_CHECK_PASS, sc->target))) {
		rg_check_set(c->summary, "no nftables or iptables-nft rule drops traffic between rails");
		rg_check_set(c->evidence, "%zu rule(s) read through libnftables", rules);
	}
	return 0;
}

static int list_ruleset(void *arg, char *err, size_t err_len)
{
	char **out = arg;
	struct nft_ctx *nft = nft_ctx_new(NFT_CTX_DEFAULT);
	int ret = 0;

	if (!nft)
		return rg_err(err, err_len, -ENOMEM, "libnftables: cannot create a context");
	nft_ctx_output_set_flags(nft, NFT_CTX_OUTPUT_JSON | NFT_CTX_OUTPUT_HANDLE);
	if (nft_ctx_buffer_output(nft) || nft_ctx_buffer_error(nft)) {
		ret = rg_err(err, err_len, -ENOMEM, "libnftables: cannot buffer output");
	} else if (nft_run_cmd_from_buffer(nft, "list ruleset")) {
		ret = rg_err(err, err_len, -EIO, "libnftables: list ruleset: %s",
			     nft_ctx_get_error_buffer(nft));
	} else {
		*out = strdup(nft_ctx_get_output_buffer(nft));
		if (!*out)
			ret = rg_err(err, err_len, -ENOMEM, "out of memory");
	}
	nft_ctx_free(nft);
	return ret;
}

int rg_doctor_nft_ruleset(int netns_fd, char **out, char *err, size_t err_len)
{
	int ret;

	*out = NULL;
	ret = netns_fd >= 0 ? rg_in_netns(netns_fd, list_ruleset, out, err, err_len)
			    : list_ruleset(out, err, err_len);
	if (ret) {
		free(*out);
		*out = NULL;
	} else if (!(*out)[0]) {   /* an empty ruleset prints nothing */
		free(*out);
		*out = strdup("{\"nftables\": []}");
	}
	return ret;
}
