// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The node's checks: railgate up and attached on every representor of
 * every rail (Scenario 2: without it cross-rail frames leave on the rail,
 * where the switch does not route them), the uplink up and able to take
 * redirects, the gateway's MAC resolved and the one the datapath uses,
 * drop counters growing, MTUs that cut frames on the way to the uplink
 * (Scenario 6), and the node's own nftables rules (Scenario 4).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tools/doctor/doctor.h"
#include "loader/datapath/datapath.h"
#include "lib/mac.h"
#include "lib/ifname.h"
#include "loader/kernel/link_table.h"
#include "loader/kernel/netlink.h"
#include "loader/kernel/switchdev.h"
#include "lib/errbuf.h"
#include "lib/addr.h"
#include "maps/map_set.h"

#define NODE "node"
#define RG_MAX_IFINDEX_NAMES 256     /* representors the policy check names */

static void fix_up(struct rg_check *c, const struct rg_doctor_ctx *x, const char *why)
{
	if (x->config_path)
		rg_check_set(c->fix_command, "railgate up -c %s", x->config_path);
	rg_check_set(c->fix_text, "%s", why);
}

static bool check_up(const struct rg_doctor_ctx *x, struct rg_checks *cs)
{
	struct rg_check *c = rg_checks_add(cs, "node.railgate", 2,
					   x->up ? RG_CHECK_PASS : RG_CHECK_FAIL, NODE);

	if (!c)
		return x->up;
	if (x->up) {
		rg_check_set(c->summary, "railgate is up");
		rg_check_set(c->evidence, "config generation %llu pinned under %s",
			     (unsigned long long)x->dp->maps.state->config_generation, x->dp->dir);
		return true;
	}
	rg_check_set(c->summary, "railgate is not running on this node: cross-rail frames leave on their rail, where the switch does not route them");
	rg_check_set(c->evidence, "no datapath pinned (railgate status says not up)");
	fix_up(c, x, "start railgate on the node (the DaemonSet, or railgate up)");
	return false;
}

static bool is_attached(const struct rg_attached *links, size_t n, int ifindex)
{
	for (size_t i = 0; i < n; i++)
		if (links[i].ifindex == ifindex && links[i].alive)
			return true;
	return false;
}

static void check_rail_attached(const struct rg_doctor_ctx *x, const struct rg_link_table *lt, size_t r,
				const struct rg_attached *links, size_t n_links, struct rg_checks *cs)
{
	const struct rg_config_rail *rail = &x->cfg->rails[r];
	char missing[RG_CHECK_TEXT_LEN] = "", target[64];
	size_t used = 0, seen = 0, bad = 0, n_pats = 0;
	struct rg_check *c;
	char **pats = NULL;

	/* a rail by pf: the VF representors sysfs shows for it now */
	rg_rail_patterns(rail, rg_sysfs_root(), &pats, &n_pats, NULL, 0);
	for (size_t k = 0; k < n_pats; k++) {
		struct rg_link_info *l = NULL;
		size_t n = 0;

		if (rg_link_table_match(lt, pats[k], &l, &n))
			continue;
		for (size_t i = 0; i < n; i++, seen++) {
			if (is_attached(links, n_links, l[i].ifindex))
				continue;
			bad++;
			used += (size_t)snprintf(missing + used, used < sizeof(missing) ? sizeof(missing) - used : 0,
						 "%s%s", used ? ", " : "", l[i].name);
		}
		free(l);
	}
	rg_rail_patterns_free(pats, n_pats);
	snprintf(target, sizeof(target), "node rail %s", rail->name);
	c = rg_checks_add(cs, "node.attached", 2, bad ? RG_CHECK_FAIL : RG_CHECK_PASS, target);
	if (!c)
		return;
	if (bad) {
		rg_check_set(c->summary, "%zu of %zu representors of rail %s have no railgate: their cross-rail frames leave on the rail", bad, seen, rail->name);
		rg_check_set(c->evidence, "not attached: %s", missing);
		fix_up(c, x, "attach railgate to every representor (railgate up, or the daemon's reconcile)");
	} else {
		rg_check_set(c->summary, "railgate is attached to every representor of rail %s", rail->name);
		rg_check_set(c->evidence, "%zu representor(s) attached", seen);
	}
}

static void check_uplink(const struct rg_doctor_ctx *x, struct rg_nl *nl, const struct rg_egress *eg,
			 const struct rg_attached *links, size_t n_links, struct rg_link_info *up,
			 struct rg_checks *cs)
{
	struct rg_check *c = rg_checks_add(cs, "node.uplink", 0, RG_CHECK_PASS, NODE);
	bool xdp = false;

	if (!c)
		return;
	for (size_t i = 0; i < n_links; i++)
		xdp |= links[i].mode == RG_MODE_XDP || links[i].mode == RG_MODE_XDP_GENERIC;
	if (rg_nl_link_by_index(nl, (int)eg->uplink_ifindex, up)) {
		c->status = RG_CHECK_FAIL;
		rg_check_set(c->summary, "the uplink railgate redirects to is gone");
		rg_check_set(c->evidence, "no interface with ifindex %u", eg->uplink_ifindex);
		fix_up(c, x, "bring the computenet uplink back, then apply the config again");
		return;
	}
	if (!up->oper_up) {
		c->status = RG_CHECK_FAIL;
		rg_check_set(c->summary, "the uplink %s is down: every redirected frame is lost", up->name);
		rg_check_set(c->evidence, "%s is %s", up->name, up->up ? "administratively up, no carrier" : "administratively down");
		rg_check_set(c->fix_command, "ip link set dev %s up", up->name);
		rg_check_set(c->fix_text, "bring the uplink up and check its cable and switch port");
		return;
	}
	if (xdp && up->xdp_features_known && !rg_link_accepts_redirect(up)) {
		c->status = RG_CHECK_FAIL;
		rg_check_set(c->summary, "the uplink %s does not accept XDP redirects: frames railgate redirects there are dropped", up->name);
		rg_check_set(c->evidence, "%s lacks NETDEV_XDP_ACT_NDO_XMIT (a veth needs GRO or XDP on its peer)", up->name);
		rg_check_set(c->fix_text, "run railgate in tc mode (spec.datapath.mode: tc), or enable XDP redirect on the uplink");
		return;
	}
	rg_check_set(c->summary, "the uplink %s is up and takes redirects", up->name);
	rg_check_set(c->evidence, "%s: operstate up, mtu %u%s", up->name, up->mtu,
		     xdp ? (up->xdp_features_known ? ", accepts XDP redirects" : ", XDP features unknown") : "");
}

static void check_gateway(const struct rg_doctor_ctx *x, struct rg_nl *nl, const struct rg_egress *eg,
			  struct rg_checks *cs)
{
	struct rg_check *c = rg_checks_add(cs, "node.gateway", 0, RG_CHECK_PASS, NODE);
	char ip[RG_IP_STR_LEN], m1[18], m2[18];
	uint8_t mac[RG_MAC_LEN];
	int ret;

	if (!c)
		return;
	rg_ip_str(eg->gateway_ip, ip);
	if (!(eg->flags & RG_EGRESS_F_VALID)) {
		c->status = RG_CHECK_FAIL;
		rg_check_set(c->summary, "the datapath knows no gateway MAC: every cross-rail frame is dropped as no_egress");
		rg_check_set(c->evidence, "egress of the active generation is not valid (gateway %s)", ip);
		fix_up(c, x, "make the gateway reachable on the uplink (or set computenet.gatewayMAC), then apply again");
		return;
	}
	ret = rg_nl_neigh_lookup(nl, (int)eg->uplink_ifindex, eg->gateway_ip, mac);
	if (ret) {
		c->status = RG_CHECK_WARN;
		rg_check_set(c->summary, "the gateway %s has no neighbour entry: its MAC cannot be confirmed fresh", ip);
		rg_check_set(c->evidence, "the datapath sends to %s; the neighbour table has no usable entry for %s", rg_mac_str(eg->gateway_mac, m1), ip);
		rg_check_set(c->fix_command, "ping -c 1 -W 1 %s", ip);
		rg_check_set(c->fix_text, "let the node resolve the gateway (one ping), or pin computenet.gatewayMAC in the config");
		return;
	}
	if (memcmp(mac, eg->gateway_mac, RG_MAC_LEN)) {
		c->status = RG_CHECK_FAIL;
		rg_check_set(c->summary, "the gateway's MAC changed: railgate still sends to the old one");
		rg_check_set(c->evidence, "datapath %s, neighbour table %s for %s", rg_mac_str(eg->gateway_mac, m1), rg_mac_str(mac, m2), ip);
		fix_up(c, x, "apply the config again so the datapath takes the new MAC (the daemon does this on its own)");
		return;
	}
	rg_check_set(c->summary, "the gateway %s is resolved and the datapath uses its MAC", ip);
	rg_check_set(c->evidence, "%s at %s", ip, rg_mac_str(mac, m1));
}

static void check_mtu(const struct rg_attached *links, size_t n_links, struct rg_nl *nl,
		      const struct rg_link_info *up, struct rg_checks *cs)
{
	char over[RG_CHECK_TEXT_LEN] = "";
	unsigned max = 0;
	size_t used = 0;
	struct rg_check *c;

	for (size_t i = 0; i < n_links; i++) {
		struct rg_link_info l;

		if (!links[i].alive || rg_nl_link_by_index(nl, links[i].ifindex, &l) || l.mtu <= up->mtu)
			continue;
		max = l.mtu > max ? l.mtu : max;
		used += (size_t)snprintf(over + used, used < sizeof(over) ? sizeof(over) - used : 0,
					 "%s%s mtu %u", used ? ", " : "", l.name, l.mtu);
	}
	c = rg_checks_add(cs, "node.mtu", 6, max ? RG_CHECK_FAIL : RG_CHECK_PASS, NODE);
	if (!c)
		return;
	if (max) {
		rg_check_set(c->summary, "representors take larger frames than the uplink %s carries: jumbo cross-rail frames die at the redirect", up->name);
		rg_check_set(c->evidence, "%s mtu %u; %s", up->name, up->mtu, over);
		rg_check_set(c->fix_command, "ip link set dev %s mtu %u", up->name, max);
		rg_check_set(c->fix_text, "give the uplink (and the switch's port) at least the rails' MTU");
	} else {
		rg_check_set(c->summary, "no representor's MTU exceeds the uplink's");
		rg_check_set(c->evidence, "%s mtu %u", up->name, up->mtu);
	}
}

static void node_policy(const struct rg_doctor_ctx *x, const struct rg_attached *links, size_t n_links,
			struct rg_checks *cs)
{
	struct rg_cidr prefixes[2 * RG_MAX_RAILS];
	const char *names[RG_MAX_IFINDEX_NAMES];
	char namebuf[RG_MAX_IFINDEX_NAMES][IF_NAMESIZE];
	struct rg_nft_scope sc = { .prefixes = prefixes, .ifnames = names, .target = NODE, .exec_prefix = "" };
	char *json = NULL, err[256];
	struct rg_check *c;

	for (size_t i = 0; x->cfg && i < x->cfg->n_supernets && sc.n_prefixes < 2 * RG_MAX_RAILS; i++)
		prefixes[sc.n_prefixes++] = x->cfg->supernets[i];
	for (size_t i = 0; x->cfg && i < x->cfg->computenet.n_frontend && sc.n_prefixes < 2 * RG_MAX_RAILS; i++)
		prefixes[sc.n_prefixes++] = x->cfg->computenet.frontend[i];
	for (size_t i = 0; i < n_links && sc.n_ifnames < RG_MAX_IFINDEX_NAMES; i++) {
		rg_ifname_str(links[i].ifindex, namebuf[sc.n_ifnames]);
		names[sc.n_ifnames] = namebuf[sc.n_ifnames];
		sc.n_ifnames++;
	}
	if (rg_doctor_nft_ruleset(-1, &json, err, sizeof(err))) {
		if ((c = rg_checks_add(cs, "policy", 4, RG_CHECK_WARN, NODE))) {
			rg_check_set(c->summary, "cannot read the node's nftables ruleset");
			rg_check_set(c->evidence, "%s", err);
		}
		return;
	}
	rg_doctor_judge_nft(json, &sc, cs);
	free(json);
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static void node_drops(const struct rg_doctor_ctx *x, const struct rg_rail *rails, struct rg_checks *cs)
{
	struct rg_counter *c0 = calloc(RG_STAT_SLOTS, sizeof(*c0));
	struct rg_counter *c1 = calloc(RG_STAT_SLOTS, sizeof(*c1));
	char err[256];

	if (c0 && c1 && !rg_map_set_read_stats(&x->dp->maps, c0, err, sizeof(err))) {
		sleep_ms(x->sample_ms);
		if (!rg_map_set_read_stats(&x->dp->maps, c1, err, sizeof(err)))
			rg_doctor_judge_drops(rails, c0, c1, x->sample_ms / 1000.0, x->config_path, cs);
	}
	free(c0);
	free(c1);
}

void rg_doctor_node(const struct rg_doctor_ctx *x, struct rg_checks *cs)
{
	struct rg_attached *links = NULL;
	struct rg_rail rails[RG_MAX_RAILS];
	struct rg_egress eg = { 0 };
	struct rg_link_info up = { 0 };
	struct rg_nl *nl = NULL;
	size_t n_links = 0;
	char err[256];

	if (!check_up(x, cs)) {
		node_policy(x, NULL, 0, cs);
		return;
	}
	rg_datapath_links(x->dp, &links, &n_links);
	rg_datapath_active_rails(x->dp, rails);
	rg_datapath_active_egress(x->dp, &eg);
	if (rg_nl_open(&nl, err, sizeof(err))) {
		struct rg_check *c = rg_checks_add(cs, "node.netlink", 0, RG_CHECK_FAIL, NODE);

		if (c) {
			rg_check_set(c->summary, "cannot read the node's links");
			rg_check_set(c->evidence, "%s", err);
		}
	} else {
		struct rg_link_table lt = { 0 };
		int ret = rg_nl_link_table(nl, &lt);   /* one dump for every rail's patterns */
		struct rg_check *c = ret ? rg_checks_add(cs, "node.netlink", 0, RG_CHECK_FAIL, NODE)
					 : NULL;

		if (c) {
			rg_check_set(c->summary, "cannot read the node's links");
			rg_check_set(c->evidence, "link dump: %s", strerror(-ret));
		}
		for (size_t r = 0; !ret && x->cfg && r < x->cfg->n_rails; r++)
			check_rail_attached(x, &lt, r, links, n_links, cs);
		rg_link_table_free(&lt);
		check_uplink(x, nl, &eg, links, n_links, &up, cs);
		check_gateway(x, nl, &eg, cs);
		if (up.ifindex)
			check_mtu(links, n_links, nl, &up, cs);
		rg_nl_close(nl);
	}
	node_drops(x, rails, cs);
	node_policy(x, links, n_links, cs);
	free(links);
}

/* ---- drop counters ------------------------------------------------------- */

struct drop_meaning {
	enum rg_stat stat;
	int scenario;
	enum rg_check_status status;
	const char *means;
	const char *fix;
};

/* What a growing drop counter says, and about which scenario. */
static const struct drop_meaning drop_meanings[] = {
	{ RG_DROP_SPOOFED, 1, RG_CHECK_FAIL,
	  "frames leave a rail with a source address of another rail: a multi-VF pod without its per-rail rule and table sends out of the wrong interface",
	  "give the pod's rail interfaces their own routes (railgate-cni in the chain, or railgate route add); railgate doctor --all-pods names the pod" },
	{ RG_DROP_NO_ROUTE, 1, RG_CHECK_WARN,
	  "pods send to addresses inside a supernet that no rail holds",
	  "check the pods' targets and the config's rails" },
	{ RG_DROP_TTL_EXCEEDED, 5, RG_CHECK_FAIL,
	  "frames come back round with a lower TTL each time: a routing loop through the node",
	  "remove the conflicting route (a default route through a rail interface, a supernet via another rail's gateway); railgate doctor --all-pods names the pod" },
	{ RG_DROP_NO_EGRESS, 0, RG_CHECK_FAIL,
	  "railgate has no uplink or gateway MAC to send cross-rail frames to",
	  "make the gateway reachable on the uplink, then apply the config again" },
	{ RG_DROP_REDIRECT_FAILED, 0, RG_CHECK_FAIL,
	  "the redirect to the uplink fails after the rewrite",
	  "check the uplink (up, MTU, XDP redirect support)" },
	{ RG_DROP_MALFORMED, 0, RG_CHECK_WARN,
	  "frames with broken IPv4 headers arrive from the pods",
	  "find the sender: railgate stats shows the rail" },
};

void rg_doctor_judge_drops(const struct rg_rail rails[RG_MAX_RAILS], const struct rg_counter *c0,
			   const struct rg_counter *c1, double seconds, const char *config_path,
			   struct rg_checks *cs)
{
	size_t before = cs->n;
	struct rg_check *c;

	for (size_t m = 0; m < sizeof(drop_meanings) / sizeof(drop_meanings[0]); m++) {
		const struct drop_meaning *dm = &drop_meanings[m];
		char where[RG_CHECK_TEXT_LEN] = "";
		uint64_t total = 0;
		size_t used = 0;

		for (int slot = 0; slot <= RG_RAIL_UNKNOWN; slot++) {
			uint64_t d = c1[RG_STAT_INDEX(slot, dm->stat)].packets -
				     c0[RG_STAT_INDEX(slot, dm->stat)].packets;

			if (!d)
				continue;
			total += d;
			used += (size_t)snprintf(where + used, used < sizeof(where) ? sizeof(where) - used : 0,
						 "%s%s +%llu", used ? ", " : "",
						 slot < RG_MAX_RAILS && (rails[slot].flags & RG_RAIL_F_VALID)
						 ? rails[slot].name : "unknown", (unsigned long long)d);
		}
		if (!total || !(c = rg_checks_add(cs, "node.drops", dm->scenario, dm->status, NODE)))
			continue;
		rg_check_set(c->summary, "%s is growing: %s", rg_stat_name(dm->stat), dm->means);
		rg_check_set(c->evidence, "%s over %.1f s: %s", rg_stat_name(dm->stat), seconds, where);
		if (dm->stat == RG_DROP_NO_EGRESS && config_path)
			rg_check_set(c->fix_command, "railgate up -c %s", config_path);
		rg_check_set(c->fix_text, "%s", dm->fix);
	}
	if (cs->n == before && (c = rg_checks_add(cs, "node.drops", 0, RG_CHECK_PASS, NODE))) {
		rg_check_set(c->summary, "no drop counter grew");
		rg_check_set(c->evidence, "counters read %.1f s apart", seconds);
	}
}
