// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * A pod's checks, per rail interface: its routes, per-rail rule and table
 * (tools/pod_routes/'s CHECK, the same judgement railgate-cni's CHECK
 * makes: Scenario 1; a conflicting route: Scenario 5; missing from birth
 * with no railgate-cni in the attachment's chain: Scenario 3), its MTU
 * against the uplink and the rail (Scenario 6), the pod's nftables rules
 * (Scenario 4), and, when the config names probe targets, a short probe
 * (Scenario 2 and whatever the frames' fate says).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/doctor/doctor.h"
#include "lib/netns.h"
#include "tools/doctor/probe.h"
#include "loader/datapath/datapath.h"
#include "loader/kernel/netlink.h"
#include "lib/addr.h"
#include "tools/pod_routes/pod_routes.h"

#define POD_MAX_ADDRS  64
#define DOCTOR_PROBES  2
#define DOCTOR_WAIT_MS 500

struct pod_rail {
	struct rg_pod_addr a;
	const struct rg_config_rail *rail;
	size_t index;
	char target[128];
};

static bool in_supernet(const struct rg_config *cfg, uint32_t addr)
{
	return rg_cidr_set_contains(cfg->supernets, cfg->n_supernets, addr);
}

static void fix_route_add(struct rg_check *c, const struct rg_doctor_ctx *x,
			  const struct rg_doctor_pod *pod, const char *dev)
{
	rg_check_set(c->fix_command, "railgate route add %s --dev %s -c %s", pod->railgate_arg, dev,
		     x->config_path);
}

/* Missing routes: from birth without railgate-cni (3), or lost later (1). */
static void judge_missing(const struct rg_doctor_ctx *x, const struct rg_doctor_pod *pod,
			  const struct pod_rail *pr, const char *why, struct rg_checks *cs)
{
	struct rg_cni_attachment att;
	int found = rg_doctor_cni_lookup(x->cni_dirs, x->n_cni_dirs, pr->a.ifname, pr->a.addr, x->cfg, &att);
	bool from_birth = found == 1 && !att.has_railgate && !att.result_routes_supernet;
	struct rg_check *c = rg_checks_add(cs, "pod.routes", from_birth ? 3 : 1, RG_CHECK_FAIL, pr->target);

	if (!c)
		return;
	fix_route_add(c, x, pod, pr->a.ifname);
	if (from_birth) {
		rg_check_set(c->summary, "the attachment of %s has no railgate-cni in its chain and its IPAM gave no supernet route", pr->a.ifname);
		rg_check_set(c->evidence, "%s; CNI result %s (network %s): no railgate plugin, no route for a supernet",
			     why, att.path, att.network);
		rg_check_set(c->fix_text, "add {\"type\": \"railgate\"} after the IPAM in network %s's NetworkAttachmentDefinition (docs/cni.md); the command puts the routes into this pod now", att.network);
		return;
	}
	rg_check_set(c->summary, "%s has no supernet routes via its rail's gateway: traffic to other rails cannot leave by this rail", pr->a.ifname);
	if (found == 1)
		rg_check_set(c->evidence, "%s; CNI result %s (network %s)%s", why, att.path, att.network,
			     att.has_railgate ? ": railgate-cni was in the chain, the routes went later" : "");
	else
		rg_check_set(c->evidence, "%s; no CNI result cache names %s with %s", why, pr->a.ifname,
			     rg_ip_str(pr->a.addr, (char[RG_IP_STR_LEN]){ 0 }));
	rg_check_set(c->fix_text, "put the routes back (railgate route add, or delete and recreate the pod with railgate-cni in its chain)");
}

/* A conflicting route: a default route or a supernet via another rail's
 * gateway is Scenario 5 (loops); any other way (a blackhole, a non-rail
 * next hop) keeps the pod from its rail: Scenario 1. */
static void judge_conflict(const struct rg_doctor_ctx *x, const struct rg_doctor_pod *pod,
			   const struct pod_rail *pr, const struct rg_pod_report *rep,
			   const char *why, struct rg_checks *cs)
{
	bool loops = rep->conflict_default || (rep->conflict_gw && in_supernet(x->cfg, rep->conflict_gw)) ||
		     !rep->conflict[0];
	struct rg_check *c = rg_checks_add(cs, "pod.routes", loops ? 5 : 1, RG_CHECK_FAIL, pr->target);

	if (!c)
		return;
	rg_check_set(c->summary, loops ? "a route of the pod conflicts with %s's rail: packets can loop between the rails and the switch"
					: "a route of the pod takes %s's supernet traffic away from its rail's gateway",
		     pr->a.ifname);
	rg_check_set(c->evidence, "%s", why);
	if (rep->conflict[0])
		rg_check_set(c->fix_command, "%s ip route del %s", pod->exec_prefix, rep->conflict);
	rg_check_set(c->fix_text, "remove the conflicting route (whoever added it: the image, an init container, another CNI plugin)%s",
		     rep->conflict[0] ? "" : "; it is a multipath route, delete it by hand");
}

static void check_routes(const struct rg_doctor_ctx *x, const struct rg_doctor_pod *pod,
			 const struct pod_rail *pr, struct rg_checks *cs)
{
	struct rg_pod_numbering num;
	struct rg_pod_plan plan;
	struct rg_pod_report *rep = calloc(2, sizeof(*rep));
	char err[RG_POD_MSG_LEN], err2[RG_POD_MSG_LEN];
	struct rg_check *c;

	rg_pod_numbering_default(&num);
	if (!rep)
		return;
	if (rg_pod_plan_from_config(x->cfg, &num, pr->a.ifname, pr->a.addr, &plan, err, sizeof(err))) {
		if ((c = rg_checks_add(cs, "pod.routes", 1, RG_CHECK_FAIL, pr->target))) {
			rg_check_set(c->summary, "cannot plan %s's routes", pr->a.ifname);
			rg_check_set(c->evidence, "%s", err);
		}
	} else if (!rg_pod_routes_check(pod->netns_fd, &plan, RG_POD_CONFLICT_ERROR, &rep[0], err, sizeof(err))) {
		if ((c = rg_checks_add(cs, "pod.routes", 1, RG_CHECK_PASS, pr->target))) {
			rg_check_set(c->summary, "%s routes the supernets and front-end via %s, with its own rule and table",
				     pr->a.ifname, rg_ip_str(plan.gateway, (char[RG_IP_STR_LEN]){ 0 }));
			rg_check_set(c->evidence, "table %u, %zu route(s) verified", rep[0].table, rep[0].n_done);
		}
	} else if (rep[0].status == RG_POD_ERR_CONFLICT) {
		judge_conflict(x, pod, pr, &rep[0], err, cs);
	} else if (rep[0].status == RG_POD_ERR_MISSING) {
		/* With conflicts tolerated, what is left missing is missing. */
		if (!rg_pod_routes_check(pod->netns_fd, &plan, RG_POD_CONFLICT_WARN, &rep[1], err2, sizeof(err2)))
			judge_conflict(x, pod, pr, &rep[0], err, cs);
		else
			judge_missing(x, pod, pr, err, cs);
	} else if ((c = rg_checks_add(cs, "pod.routes", 0, RG_CHECK_FAIL, pr->target))) {
		rg_check_set(c->summary, "cannot read %s's routes", pr->a.ifname);
		rg_check_set(c->evidence, "%s", err);
	}
	free(rep);
}

static int open_pod_nl(void *arg, char *err, size_t err_len)
{
	return rg_nl_open(arg, err, err_len);
}

/* The pod's rail MTUs against the uplink (redirected frames go there) and
 * the rail's configured MTU. */
static void check_mtu(const struct rg_doctor_ctx *x, const struct rg_doctor_pod *pod,
		      const struct pod_rail *prs, size_t n, struct rg_checks *cs)
{
	char err[256];
	struct rg_nl *pod_nl = NULL;
	struct rg_link_info up = { 0 };
	struct rg_nl *node = NULL;
	struct rg_egress eg = { 0 };

	if (x->up && !rg_nl_open(&node, err, sizeof(err))) {
		rg_datapath_active_egress(x->dp, &eg);
		if (rg_nl_link_by_index(node, (int)eg.uplink_ifindex, &up))
			up.ifindex = 0;
		rg_nl_close(node);
	}
	if (rg_in_netns(pod->netns_fd, open_pod_nl, &pod_nl, err, sizeof(err)))
		return;
	for (size_t i = 0; i < n; i++) {
		struct rg_link_info l;
		struct rg_check *c;
		unsigned want = prs[i].rail->mtu > 0 ? (unsigned)prs[i].rail->mtu : 0;

		if (rg_nl_link_by_name(pod_nl, prs[i].a.ifname, &l))
			continue;
		if (up.ifindex && l.mtu > up.mtu) {
			c = rg_checks_add(cs, "pod.mtu", 6, RG_CHECK_FAIL, prs[i].target);
			if (!c)
				continue;
			rg_check_set(c->summary, "%s sends larger frames than the node's uplink %s carries: jumbo frames to other rails are cut", l.name, up.name);
			rg_check_set(c->evidence, "%s mtu %u, uplink %s mtu %u", l.name, l.mtu, up.name, up.mtu);
			rg_check_set(c->fix_command, "ip link set dev %s mtu %u", up.name, l.mtu);
			rg_check_set(c->fix_text, "give the uplink (and the switch port) the rails' MTU, or lower the VF's MTU in the network attachment");
		} else if (want && l.mtu != want) {
			c = rg_checks_add(cs, "pod.mtu", 6, RG_CHECK_FAIL, prs[i].target);
			if (!c)
				continue;
			rg_check_set(c->summary, "%s's MTU is not its rail's", l.name);
			rg_check_set(c->evidence, "%s mtu %u, rail %s mtu %u", l.name, l.mtu, prs[i].rail->name, want);
			rg_check_set(c->fix_command, "%s ip link set dev %s mtu %u", pod->exec_prefix, l.name, want);
			rg_check_set(c->fix_text, "set the MTU in the network attachment so every pod of the rail agrees");
		} else if ((c = rg_checks_add(cs, "pod.mtu", 6, RG_CHECK_PASS, prs[i].target))) {
			rg_check_set(c->summary, "%s's MTU fits the rail and the uplink", l.name);
			if (up.ifindex)
				rg_check_set(c->evidence, "%s mtu %u, uplink %s mtu %u", l.name, l.mtu, up.name, up.mtu);
			else
				rg_check_set(c->evidence, "%s mtu %u (railgate is not up: the uplink is unknown)", l.name, l.mtu);
		}
	}
	rg_nl_close(pod_nl);
}

static void check_policy(const struct rg_doctor_ctx *x, const struct rg_doctor_pod *pod,
			 const struct pod_rail *prs, size_t n, struct rg_checks *cs)
{
	struct rg_cidr prefixes[2 * RG_POD_ROUTES_MAX];
	const char *names[POD_MAX_ADDRS];
	struct rg_nft_scope sc = { .prefixes = prefixes, .ifnames = names, .target = pod->label,
				   .exec_prefix = pod->exec_prefix };
	char *json = NULL, err[256];
	struct rg_check *c;

	for (size_t i = 0; i < x->cfg->n_supernets && sc.n_prefixes < 2 * RG_POD_ROUTES_MAX; i++)
		prefixes[sc.n_prefixes++] = x->cfg->supernets[i];
	for (size_t i = 0; i < x->cfg->computenet.n_frontend && sc.n_prefixes < 2 * RG_POD_ROUTES_MAX; i++)
		prefixes[sc.n_prefixes++] = x->cfg->computenet.frontend[i];
	for (size_t i = 0; i < n; i++)
		names[sc.n_ifnames++] = prs[i].a.ifname;
	if (rg_doctor_nft_ruleset(pod->netns_fd, &json, err, sizeof(err))) {
		if ((c = rg_checks_add(cs, "policy", 4, RG_CHECK_WARN, pod->label))) {
			rg_check_set(c->summary, "cannot read the pod's nftables ruleset");
			rg_check_set(c->evidence, "%s", err);
		}
		return;
	}
	rg_doctor_judge_nft(json, &sc, cs);
	free(json);
}

/* The scenario a lost probe points at.  Frames that left by the wrong
 * rail (spoofed) or not at all for want of a route belong to whatever the
 * interface's route check found (1, 3 or 5). */
static int scenario_of(const struct rg_probe_cell *c, const struct rg_check *route_check,
		       const struct rg_config *cfg)
{
	int routes = route_check && route_check->status == RG_CHECK_FAIL && route_check->scenario
		     ? route_check->scenario : 1;

	switch (c->died) {
	case RG_DIED_NEVER_LEFT_POD: return c->send_errno == EPERM ? 4 : routes;
	case RG_DIED_SPOOFED:        return routes;
	case RG_DIED_NO_ROUTE:       return 1;
	case RG_DIED_TTL_EXCEEDED:   return 5;
	case RG_DIED_NO_EGRESS:      return 0;
	case RG_DIED_UPLINK_NO_ANSWER:
		for (size_t r = 0; r < cfg->n_rails; r++)
			if (rg_cidr_contains(cfg->rails[r].subnet, c->src.addr) && cfg->rails[r].vlan >= 0)
				return 6;
		return 2;
	default:                     return 2;
	}
}

static void check_probe(const struct rg_doctor_ctx *x, const struct rg_doctor_pod *pod,
			const struct pod_rail *prs, size_t n, struct rg_checks *cs)
{
	struct rg_probe_source srcs[POD_MAX_ADDRS];
	struct rg_probe_opts po = { .netns_fd = pod->netns_fd, .srcs = srcs, .n_srcs = n,
				    .targets = x->cfg->probe_targets, .n_targets = x->cfg->n_probe_targets,
				    .count = DOCTOR_PROBES, .timeout_ms = DOCTOR_WAIT_MS,
				    .udp_port = (uint16_t)(x->cfg->probe_port ? x->cfg->probe_port : RG_PROBE_UDP_PORT),
				    .maps = x->up ? &x->dp->maps : NULL };
	struct rg_rail rails[RG_MAX_RAILS];
	struct rg_probe_cell *cells = NULL;
	size_t n_cells = 0;
	char err[256];

	if (x->up)
		rg_datapath_active_rails(x->dp, rails);
	for (size_t i = 0; i < n; i++) {
		snprintf(srcs[i].dev, sizeof(srcs[i].dev), "%s", prs[i].a.ifname);
		srcs[i].addr = prs[i].a.addr;
		srcs[i].rail = -1;
		for (int r = 0; x->up && r < RG_MAX_RAILS; r++)
			if ((rails[r].flags & RG_RAIL_F_VALID) &&
			    (prs[i].a.addr & rails[r].mask) == rails[r].subnet)
				srcs[i].rail = r;
	}
	if (rg_probe_run(&po, &cells, &n_cells, err, sizeof(err)))
		return;
	for (size_t i = 0; i < n; i++) {
		char what[RG_CHECK_TEXT_LEN] = "", ip[RG_IP_STR_LEN];
		const struct rg_probe_cell *first = NULL;
		size_t used = 0, lost = 0, total = 0;
		const struct rg_check *route_check = rg_checks_find(cs, "pod.routes", prs[i].target);
		struct rg_check *c;

		for (size_t k = 0; k < n_cells; k++) {
			const struct rg_probe_cell *cell = &cells[k];

			if (strcmp(cell->src.dev, prs[i].a.ifname))
				continue;
			total++;
			if (cell->died == RG_DIED_NONE)
				continue;
			lost++;
			first = first ? first : cell;
			used += (size_t)snprintf(what + used, used < sizeof(what) ? sizeof(what) - used : 0,
						 "%s%s %s %d/%d %s", used ? ", " : "", rg_probe_proto_name(cell->proto),
						 rg_ip_str(cell->to, ip), cell->received, cell->sent,
						 rg_probe_died_name(cell->died));
		}
		c = rg_checks_add(cs, "pod.probe", first ? scenario_of(first, route_check, x->cfg) : 2,
				  first ? RG_CHECK_FAIL : RG_CHECK_PASS, prs[i].target);
		if (!c)
			continue;
		if (!first) {
			rg_check_set(c->summary, "every probe from %s was answered", prs[i].a.ifname);
			rg_check_set(c->evidence, "%zu cell(s) of %d probes each", total, DOCTOR_PROBES);
			continue;
		}
		rg_check_set(c->summary, "%zu of %zu probe cells from %s lost probes; the first died %s",
			     lost, total, prs[i].a.ifname, rg_probe_died_name(first->died));
		rg_check_set(c->evidence, "%s", what);
		if (c->scenario == 6)
			rg_check_set(c->fix_text, "frames of a tagged rail go out on the uplink and nothing comes back: the switch's trunk port toward the node must carry the VLAN of rail %s (%d) and of every rail that answers; railgate probe %s shows the matrix",
				     prs[i].rail->name, prs[i].rail->vlan, pod->railgate_arg);
		else
			rg_check_set(c->fix_text, "see the other checks of this scenario; railgate probe %s shows the matrix", pod->railgate_arg);
	}
	free(cells);
}

void rg_doctor_pod(const struct rg_doctor_ctx *x, const struct rg_doctor_pod *pod,
		   struct rg_checks *cs)
{
	struct rg_pod_addr addrs[POD_MAX_ADDRS];
	struct pod_rail prs[POD_MAX_ADDRS];
	char err[256];
	size_t n = 0;
	int k = rg_pod_list_addrs(pod->netns_fd, NULL, addrs, POD_MAX_ADDRS, err, sizeof(err));
	struct rg_check *c;

	if (k < 0) {
		if ((c = rg_checks_add(cs, "pod", 0, RG_CHECK_FAIL, pod->label))) {
			rg_check_set(c->summary, "cannot read the pod's addresses");
			rg_check_set(c->evidence, "%s", err);
		}
		return;
	}
	for (int i = 0; i < k; i++)
		for (size_t r = 0; r < x->cfg->n_rails; r++)
			if (rg_cidr_contains(x->cfg->rails[r].subnet, addrs[i].addr)) {
				prs[n] = (struct pod_rail){ .a = addrs[i], .rail = &x->cfg->rails[r], .index = r };
				snprintf(prs[n].target, sizeof(prs[n].target), "%s %s", pod->label, addrs[i].ifname);
				n++;
				break;
			}
	if (!n) {
		if ((c = rg_checks_add(cs, "pod", 0, RG_CHECK_WARN, pod->label))) {
			rg_check_set(c->summary, "the pod has no address in any rail of the config");
			rg_check_set(c->evidence, "%d IPv4 address(es), none inside a rail subnet", k);
		}
		return;
	}
	for (size_t i = 0; i < n; i++)
		check_routes(x, pod, &prs[i], cs);
	check_mtu(x, pod, prs, n, cs);
	check_policy(x, pod, prs, n, cs);
	if (x->cfg->n_probe_targets)
		check_probe(x, pod, prs, n, cs);
}
