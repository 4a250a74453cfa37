/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The node's links as plain data: one link's facts (struct rg_link_info)
 * and a snapshot of all of them (struct rg_link_table), with the pure
 * queries the plan asks of them (by name, by index, by glob, XDP
 * features).  No I/O: loader/kernel/netlink.h fills the table
 * (rg_nl_link_table), loader/kernel/facts_json.h reads it back from a
 * recorded file.
 */
#ifndef RAILGATE_LINK_TABLE_H
#define RAILGATE_LINK_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <net/if.h>

#define RG_MAC_LEN 6

struct rg_link_info {
	int      ifindex;
	char     name[IF_NAMESIZE];
	uint8_t  mac[RG_MAC_LEN];     /* zeros when the link has no Ethernet address */
	unsigned mtu;
	bool     up;                  /* administratively up (IFF_UP) */
	bool     oper_up;             /* operstate UP, or UNKNOWN and running (as netif_oper_up) */
	char     kind[16];            /* rtnl link kind: "veth", "dummy", ...; "" for physical NICs */
	uint64_t xdp_features;        /* NETDEV_XDP_ACT_* bits, valid when xdp_features_known */
	bool     xdp_features_known;  /* false on kernels without the netdev genl family */
};

/*
 * Every link of the namespace, read at once: one RTM_GETLINK dump and, where
 * the kernel has the netdev family, one NETDEV_CMD_DEV_GET dump for the XDP
 * features.  What an apply (and the daemon's readiness, doctor) resolves
 * every name, glob and PF representor from, so that its netlink work is a
 * constant number of dumps however many names a config lists (issue 14: a
 * dump per name made 256 names cost 100,000 recvmsg calls).  A snapshot: it
 * does not follow the kernel.  Links are sorted by name.
 */
struct rg_link_table {
	struct rg_link_info *links;
	size_t n;
};

/* Sort by name, as the queries below expect: whoever fills a table calls
 * it once filled (rg_nl_link_table, the recorded facts' reader). */
void rg_link_table_sort(struct rg_link_table *t);
void rg_link_table_free(struct rg_link_table *t);

/* The link of that name, NULL when there is none (a binary search). */
const struct rg_link_info *rg_link_table_by_name(const struct rg_link_table *t,
						 const char *name);
/* The link of that ifindex, NULL when there is none. */
const struct rg_link_info *rg_link_table_by_index(const struct rg_link_table *t, int ifindex);

/*
 * The links whose name matches the fnmatch(3) pattern glob (e.g. "pf0vf*";
 * a plain name matches itself), in name order.  *out is a malloc'd array
 * the caller frees (NULL when nothing matched, which is not an error).
 * 0 or -ENOMEM.
 */
int rg_link_table_match(const struct rg_link_table *t, const char *glob,
			struct rg_link_info **out, size_t *n);

/* The driver runs XDP programs natively (NETDEV_XDP_ACT_BASIC). */
bool rg_link_has_native_xdp(const struct rg_link_info *l);
/*
 * Frames can be XDP_REDIRECTed into this link (NETDEV_XDP_ACT_NDO_XMIT).
 * A veth only has it while its peer has GRO on or an XDP program attached.
 */
bool rg_link_accepts_redirect(const struct rg_link_info *l);

#endif /* RAILGATE_LINK_TABLE_H */
