// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Config + the node's facts -> plan, with no I/O; see resolve.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/plan/resolve.h"
#include "lib/addr.h"
#include "lib/mac.h"
#include "loader/kernel/switchdev.h"
#include "lib/errbuf.h"

static bool is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* What the facts say the route to dst leaves by: 0, its -errno, or
 * -ENODATA when it was not asked (facts gathered for another config). */
static int route_oif_of(const struct rg_node_facts *f, uint32_t dst)
{
	if (!f->route_oif.asked || f->route_oif.dst != dst)
		return -ENODATA;
	return f->route_oif.ret;
}

static int find_uplink(const struct rg_node_facts *f, const struct rg_config *cfg,
		       struct rg_link_info *up, char *err, size_t err_len)
{
	const struct rg_link_info *l;
	char gw[RG_IP_STR_LEN];
	int ret;

	if (cfg->computenet.uplink_discover) {
		ret = route_oif_of(f, cfg->computenet.gateway);
		if (ret)
			return rg_err(err, err_len, ret, "computenet.uplink auto: no route to the gateway %s: %s",
				      rg_ip_str(cfg->computenet.gateway, gw), strerror(-ret));
	}
	l = rg_facts_uplink(f, cfg);
	if (!l)
		return rg_err(err, err_len, -ENODEV, "computenet.uplink %s: no such interface",
			      cfg->computenet.uplink);
	*up = *l;
	return 0;
}

/* The gateway's neighbour entry on the uplink, as the facts hold it. */
static int gateway_fact(const struct rg_node_facts *f, int ifindex, uint32_t ip,
			uint8_t mac[6], const char **why)
{
	const struct rg_neigh_fact *g = &f->gateway;

	*why = "";
	if (!g->asked || g->ifindex != ifindex || g->ip != ip)
		return -ENODATA;
	*why = g->why;
	if (!g->ret)
		memcpy(mac, g->mac, 6);
	return g->ret;
}

static int gateway_mac(const struct rg_node_facts *f, const struct rg_config *cfg,
		       const struct rg_link_info *up, uint8_t mac[6], const struct rg_log *log,
		       char *err, size_t err_len)
{
	char gw[RG_IP_STR_LEN], mac_str[RG_MAC_STR_LEN];
	const char *why;
	int ret;

	if (cfg->computenet.has_gateway_mac) {
		memcpy(mac, cfg->computenet.gateway_mac, 6);
		return 0;
	}
	ret = gateway_fact(f, up->ifindex, cfg->computenet.gateway, mac, &why);
	if (ret) {
		rg_set_err(err, err_len, "cannot resolve the MAC of the computenet gateway %s on %s: %s "
			   "(set computenet.gatewayMAC to skip resolution)",
			   rg_ip_str(cfg->computenet.gateway, gw), up->name, why[0] ? why : strerror(-ret));
		return ret;
	}
	rg_log_info(log, "gateway %s is %s on %s", rg_ip_str(cfg->computenet.gateway, gw),
		    rg_mac_str(mac, mac_str), up->name);
	return 0;
}

int rg_tc_attach_mode(enum rg_config_tc_attach want, const struct rg_node_facts *f,
		      const char **why, char *err, size_t err_len)
{
	const char *env = f->tc_attach_env, *from = "datapath.tcAttach";
	const char *ignored;
	bool has_tcx;

	if (!why)
		why = &ignored;
	if (*env) {
		if (rg_config_tc_attach_parse(env, &want))
			return rg_err(err, err_len, -EINVAL,
				      "%s=%s: expected tcx, clsact or auto", RG_TC_ATTACH_ENV, env);
		from = RG_TC_ATTACH_ENV;
	}
	if (want == RG_CONFIG_TC_ATTACH_CLSACT) {
		*why = from;
		return RG_MODE_TC_CLSACT;
	}
	has_tcx = f->kernel_has_tcx;
	if (want == RG_CONFIG_TC_ATTACH_TCX && !has_tcx)
		return rg_err(err, err_len, -EOPNOTSUPP, "%s tcx: this kernel has no tcx (Linux 6.6 "
			      "or later); use auto or clsact", from);
	if (want == RG_CONFIG_TC_ATTACH_TCX) {
		*why = from;
		return RG_MODE_TC;
	}
	*why = has_tcx ? "auto: the kernel has tcx" : "auto: the kernel has no tcx";
	return has_tcx ? RG_MODE_TC : RG_MODE_TC_CLSACT;
}

/*
 * What the node offers every representor alike: whether the uplink takes
 * XDP redirects, and how this kernel runs the tc program (a tcx link, or a
 * clsact filter before 6.6: rg_tc_attach_mode), decided once per plan when
 * the first representor needs it, so every entry records the same flavour
 * and the decision is logged once; and the uplink itself, which is never a
 * representor.
 */
struct node_modes {
	const struct rg_node_facts *facts;
	int  uplink_ifindex;
	bool uplink_takes_xdp;
	enum rg_config_tc_attach tc_attach;   /* datapath.tcAttach */
	int  tc_mode;                /* RG_MODE_TC, RG_MODE_TC_CLSACT; 0: not decided yet */
	const struct rg_log *log;
};

static int tc_mode(struct node_modes *nm, char *err, size_t err_len)
{
	const char *why = "";

	if (nm->tc_mode)
		return nm->tc_mode;
	nm->tc_mode = rg_tc_attach_mode(nm->tc_attach, nm->facts, &why, err, err_len);
	if (nm->tc_mode > 0)
		rg_log_info(nm->log, "tc mode attaches %s (%s)",
			    nm->tc_mode == RG_MODE_TC ? "tcx links" : "clsact filters", why);
	return nm->tc_mode;
}

/*
 * The attach mode for one representor, as the kernel will attach it: the
 * one place that turns a config mode into an enum rg_attach_mode.  -errno
 * when the mode cannot be had.
 */
static int choose_mode(enum rg_config_mode mode, const struct rg_link_info *l,
		       struct node_modes *nm, char *err, size_t err_len)
{
	switch (mode) {
	case RG_CONFIG_MODE_TC:
		return tc_mode(nm, err, err_len);
	case RG_CONFIG_MODE_XDP_GENERIC:
		return RG_MODE_XDP_GENERIC;
	case RG_CONFIG_MODE_XDP:
		if (l->xdp_features_known && !rg_link_has_native_xdp(l)) {
			rg_set_err(err, err_len, "%s: the driver has no native XDP (mode: xdp); use "
				   "mode auto or tc", l->name);
			return -EOPNOTSUPP;
		}
		return RG_MODE_XDP;
	case RG_CONFIG_MODE_AUTO:
		/* Never generic unasked: it linearises every skb and is slower
		 * than tc (docs/lessons.md, datapath #1). */
		if (l->xdp_features_known && rg_link_has_native_xdp(l) && nm->uplink_takes_xdp)
			return RG_MODE_XDP;
		return tc_mode(nm, err, err_len);
	}
	return rg_err(err, err_len, -EINVAL, "unknown mode");
}

/* Attached, the uplink would take the computenet's own traffic for a rail's
 * and drop it as spoofed or send it back out.  Validation refuses the names
 * it can see; a glob meeting an `uplink: auto`, a PF's representor list or
 * another name of the same interface ends here. */
static int not_the_uplink(const struct rg_config_rail *rail, const char *pat,
			  const struct rg_link_info *l, const struct node_modes *nm,
			  char *err, size_t err_len)
{
	if (l->ifindex != nm->uplink_ifindex)
		return 0;
	return rg_err(err, err_len, -EINVAL, "rail %s: representor %s matches %s, the computenet uplink: "
		      "the uplink is never a representor", rail->name, pat, l->name);
}

/*
 * Link l joins rail (by name: ids are the plan's, rg_plan_assemble) in
 * mode m.  Checked here, as each one is decided, and not only when the plan
 * is assembled: the first representor the datapath cannot hold (its
 * ifindex) or that two rails claim stops the plan before any later one is
 * looked at or logged.  The messages are rg_plan_add_rep's.
 */
static int node_add_rep(struct rg_node_plan *np, const char *rail, const struct rg_link_info *l,
			int m, char *err, size_t err_len)
{
	struct rg_node_rep *reps;

	if (l->ifindex <= 0 || l->ifindex >= RG_MAX_IFINDEX)
		return rg_err(err, err_len, -ERANGE,
			      "%s: ifindex %d is outside the datapath's table (1..%d)",
			      l->name, l->ifindex, RG_MAX_IFINDEX - 1);
	for (size_t i = 0; i < np->n_reps; i++)
		if (np->reps[i].ifindex == l->ifindex)
			return rg_err(err, err_len, -EINVAL,
				      "%s matches the representors of two rails (%s and %s)",
				      l->name, np->reps[i].rail, rail);
	reps = realloc(np->reps, (np->n_reps + 1) * sizeof(*reps));
	if (!reps)
		return rg_err(err, err_len, -ENOMEM, "out of memory");
	np->reps = reps;
	memset(&reps[np->n_reps], 0, sizeof(reps[0]));
	snprintf(reps[np->n_reps].name, sizeof(reps[0].name), "%s", l->name);
	snprintf(reps[np->n_reps].rail, sizeof(reps[0].rail), "%s", rail);
	reps[np->n_reps].ifindex = l->ifindex;
	reps[np->n_reps].mode = (uint8_t)m;
	np->n_reps++;
	return 0;
}

/* Every interface pat (a name or a glob) matches joins rail.
 * must_exist: a name that matches nothing is an error (else logged). */
static int add_pattern(const struct rg_link_table *lt, struct rg_node_plan *np,
		       const struct rg_config_rail *rail, const char *pat,
		       bool must_exist, enum rg_config_mode mode, struct node_modes *nm,
		       const struct rg_log *log, char *err, size_t err_len)
{
	struct rg_link_info *links = NULL;
	size_t nl_count = 0;
	int ret = rg_link_table_match(lt, pat, &links, &nl_count);

	if (ret)
		return rg_err(err, err_len, ret, "rail %s: matching interfaces for %s: %s", rail->name,
			      pat, strerror(-ret));
	if (!nl_count && must_exist)
		return rg_err(err, err_len, -ENODEV, "rail %s: representor %s: no such interface",
			      rail->name, pat);
	if (!nl_count)
		rg_log_info(log, "rail %s: nothing matches %s yet", rail->name, pat);
	for (size_t j = 0; j < nl_count; j++) {
		int m = not_the_uplink(rail, pat, &links[j], nm, err, err_len);

		if (!m)
			m = choose_mode(mode, &links[j], nm, err, err_len);

		if (m >= 0 && rail->mtu > 0 && links[j].mtu != (unsigned)rail->mtu) {
			rg_set_err(err, err_len, "rail %s: %s has MTU %u, the config says %d",
				   rail->name, links[j].name, links[j].mtu, rail->mtu);
			m = -EINVAL;
		}
		if (m >= 0)
			m = node_add_rep(np, rail->name, &links[j], m, err, err_len);
		if (m < 0) {
			free(links);
			return m;
		}
	}
	free(links);
	return 0;
}

/* The PFs sel matches among the netdevs sysfs showed: rg_switchdev_pfs_of
 * over the facts' snapshot, or the error reading it gave (-ENODATA when it
 * was not read: facts gathered for a config with no rail by pf). */
static int pfs_of(const struct rg_sysfs_fact *sysfs, const char *sel, struct rg_pf **pfs,
		  size_t *n_pfs, char *why, size_t n)
{
	if (!sysfs->asked)
		return rg_err(why, n, -ENODATA, "sysfs was not read with the node's facts");
	if (sysfs->ret)
		return rg_err(why, n, sysfs->ret, "%s", sysfs->why);
	return rg_switchdev_pfs_of(&sysfs->netdevs, sel, pfs, n_pfs, why, n);
}

/*
 * A rail by pf: the VF representors sysfs shows for the PFs it matches
 * (loader/switchdev.h), from the one snapshot of the facts.  A PF named
 * without a glob must exist; VFs created later are attached by the daemon
 * when their representors appear.
 */
static int add_pf_reps(const struct rg_link_table *lt, struct rg_node_plan *np,
		       const struct rg_config_rail *rail, enum rg_config_mode mode,
		       struct node_modes *nm, const struct rg_log *log, char *err, size_t err_len)
{
	const char *root = nm->facts->sysfs.root;
	struct rg_pf *pfs = NULL;
	size_t n_pfs = 0;
	char why[512];
	int ret = pfs_of(&nm->facts->sysfs, rail->pf, &pfs, &n_pfs, why, sizeof(why));

	if (ret)
		return rg_err(err, err_len, ret, "rail %s: pf %s: %s", rail->name, rail->pf, why);
	if (!n_pfs && !is_glob(rail->pf)) {
		rg_pfs_free(pfs, n_pfs);     /* an empty array, still allocated */
		return rg_err(err, err_len, -ENODEV, "rail %s: pf %s: no such PF (no SR-IOV netdev or PCI address by that name under %s/class/net)",
			      rail->name, rail->pf, root);
	}
	if (!n_pfs)
		rg_log_info(log, "rail %s: no PF matches %s yet", rail->name, rail->pf);
	for (size_t i = 0; !ret && i < n_pfs; i++) {
		if (pfs[i].numvfs >= 0)
			rg_log_info(log, "rail %s: PF %s (%s): %zu VF representors of %d VFs", rail->name,
				    pfs[i].name, pfs[i].pci, pfs[i].n_reps, pfs[i].numvfs);
		else
			rg_log_info(log, "rail %s: PF %s: %zu VF representors", rail->name,
				    pfs[i].name, pfs[i].n_reps);
		/* sysfs and netlink may disagree for a moment (a VF going
		 * away): a representor netlink does not show is skipped */
		for (size_t r = 0; !ret && r < pfs[i].n_reps; r++)
			ret = add_pattern(lt, np, rail, pfs[i].reps[r], false, mode, nm,
					  log, err, err_len);
	}
	rg_pfs_free(pfs, n_pfs);
	return ret;
}

static int add_matching_reps(const struct rg_link_table *lt, struct rg_node_plan *np,
			     const struct rg_config_rail *rail, enum rg_config_mode mode,
			     struct node_modes *nm, const struct rg_log *log,
			     char *err, size_t err_len)
{
	int ret = 0;

	if (rail->pf[0])
		return add_pf_reps(lt, np, rail, mode, nm, log, err, err_len);
	for (size_t i = 0; !ret && i < rail->n_representors; i++)
		ret = add_pattern(lt, np, rail, rail->representors[i],
				  !is_glob(rail->representors[i]), mode, nm, log, err, err_len);
	return ret;
}

int rg_resolve_icmp_source(const struct rg_node_facts *f, const struct rg_config *cfg,
			   uint32_t *src)
{
	*src = cfg->computenet.icmp_source;
	if (*src)
		return 0;
	if (!f->route_src.asked || f->route_src.dst != cfg->computenet.gateway)
		return -ENODATA;
	*src = f->route_src.ret ? 0 : f->route_src.src;
	return f->route_src.ret;
}

/* The node's part of the ICMP answers: their source (without one the
 * datapath answers nothing, and says why) and the CPUs the config's rate
 * is split over. */
static void decide_icmp(const struct rg_node_facts *f, const struct rg_config *cfg,
			const struct rg_link_info *up, struct rg_node_plan *np,
			const struct rg_log *log)
{
	uint32_t src;

	if (rg_resolve_icmp_source(f, cfg, &src)) {
		rg_log_warn(log, "uplink %s has no IPv4 address toward the gateway: no ICMP "
			    "errors (set computenet.icmpSource)", up->name);
		src = 0;
	}
	np->icmp_source = src;
	np->ncpus = f->ncpus > 0 ? (unsigned)f->ncpus : 1;
}

/* The uplink and the gateway behind it: egress and the MTU check. */
static int decide_uplink(const struct rg_node_facts *f, const struct rg_config *cfg,
			 struct rg_link_info *up, struct rg_node_plan *np,
			 const struct rg_log *log, char *err, size_t err_len)
{
	int ret = find_uplink(f, cfg, up, err, err_len);

	if (!ret && up->ifindex >= RG_MAX_IFINDEX) {
		rg_set_err(err, err_len, "uplink %s: ifindex %d is beyond %d", up->name, up->ifindex,
			   RG_MAX_IFINDEX - 1);
		ret = -ERANGE;
	}
	if (!ret)
		ret = gateway_mac(f, cfg, up, np->gateway_mac, log, err, err_len);
	if (ret)
		return ret;
	np->uplink_ifindex = up->ifindex;
	memcpy(np->uplink_mac, up->mac, sizeof(np->uplink_mac));
	np->uplink_mtu = up->mtu;
	return 0;
}

static void node_plan_free(struct rg_node_plan *np)
{
	free(np->reps);
	np->reps = NULL;
	np->n_reps = 0;
}

/*
 * Everything the node contributes to cfg's plan, decided from the facts
 * in the order the config asks: the uplink, the gateway's MAC, the ICMP
 * source, whether the uplink takes XDP redirects, then each rail's
 * representors with their modes.  The first error stops it; every
 * decision is logged as it is taken.
 */
static int decide_node(const struct rg_config *cfg, enum rg_config_mode mode,
		       const struct rg_node_facts *facts, struct rg_node_plan *np,
		       const struct rg_log *log, char *err, size_t err_len)
{
	struct node_modes nm = { .facts = facts };
	const struct rg_link_table *lt = &facts->links;
	struct rg_link_info up;
	int ret;

	/* one snapshot of the node's links for every name, glob and PF below */
	ret = facts->links_ret;
	if (ret)
		return rg_err(err, err_len, ret, "listing the node's interfaces: %s", strerror(-ret));
	ret = decide_uplink(facts, cfg, &up, np, log, err, err_len);
	if (ret)
		return ret;
	decide_icmp(facts, cfg, &up, np, log);

	/* Native XDP_REDIRECT needs a target that takes redirected frames (a
	 * veth only while its peer has GRO or XDP): without it, native XDP on
	 * the representors would drop every cross-rail frame.  Generic XDP
	 * transmits through the stack and has no such need. */
	nm.uplink_ifindex = up.ifindex;
	nm.tc_attach = cfg->tc_attach;
	nm.log = log;
	nm.uplink_takes_xdp = !up.xdp_features_known || rg_link_accepts_redirect(&up);
	if (!nm.uplink_takes_xdp && mode == RG_CONFIG_MODE_XDP)
		return rg_err(err, err_len, -EOPNOTSUPP, "uplink %s does not accept XDP redirects "
			      "(for a veth: enable GRO or XDP on its peer); use mode tc or auto",
			      up.name);
	/* a slower mode than the node could have: the operator may fix the uplink */
	if (!nm.uplink_takes_xdp && mode == RG_CONFIG_MODE_AUTO)
		rg_log_warn(log, "uplink %s does not accept XDP redirects: auto mode uses tc",
			    up.name);

	for (size_t i = 0; !ret && i < cfg->n_rails; i++)
		ret = add_matching_reps(lt, np, &cfg->rails[i], mode, &nm, log, err, err_len);
	return ret;
}

/* Decide, then assemble once: the node's part from the facts, then the
 * whole plan from the config, that part and the rail ids running now. */
int rg_resolve_plan(const struct rg_config *cfg, enum rg_config_mode mode,
		    const struct rg_node_facts *facts, const struct rg_rail_ids *prev,
		    struct rg_plan *plan, const struct rg_log *log, char *err, size_t err_len)
{
	struct rg_node_plan node = { 0 };
	int ret = decide_node(cfg, mode, facts, &node, log, err, err_len);

	memset(plan, 0, sizeof(*plan));
	if (!ret)
		ret = rg_plan_assemble(plan, cfg, &node, prev, err, err_len);
	node_plan_free(&node);
	return ret;
}
