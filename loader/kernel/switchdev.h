/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * A rail's representors found by their PF, the way switchdev shows them in
 * sysfs (the SR-IOV Network Operator selects VFs by PF the same way):
 *
 *   class/net/PF/phys_port_name      "p0", "p1": the PF (uplink representor)
 *   class/net/PF/phys_switch_id      its eswitch; absent or unreadable when
 *                                    the eswitch is in legacy mode
 *   class/net/PF/device              -> the PCI device, 0000:17:00.0
 *   class/net/PF/device/sriov_numvfs VFs enabled on the PF
 *   class/net/REP/phys_switch_id     the same id as its PF
 *   class/net/REP/phys_port_name     "pf0vf3" (or "c1pf0vf3": a VF of an
 *                                    external host, a BlueField's view)
 *
 * A representor belongs to PF p when it shares p's switch id and its
 * pfN is p's number: both ports of a dual-port NIC share one switch id, so
 * the switch id alone would give a rail the other port's VFs.  The PF's
 * number is N of its phys_port_name "pN", else its PCI function.
 *
 * The root is a parameter so tests run against fake trees; railgate reads
 * $RAILGATE_SYSFS, or /sys (rg_sysfs_root).
 */
#ifndef RAILGATE_SWITCHDEV_H
#define RAILGATE_SWITCHDEV_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>

#define RG_PCI_ADDR_LEN 32

struct rg_pf {
	char   name[IF_NAMESIZE];
	char   pci[RG_PCI_ADDR_LEN];   /* "" when the netdev has no PCI device */
	int    numvfs;                 /* device/sriov_numvfs, -1 when absent */
	char (*reps)[IF_NAMESIZE];     /* its VF representors, by VF number */
	size_t n_reps;
};

/* $RAILGATE_SYSFS when set and non-empty, else "/sys". */
const char *rg_sysfs_root(void);

/*
 * The PFs that sel (a netdev name or a PCI address, shell globs allowed; a
 * ':' makes it a PCI address) matches under root, each with its VF
 * representors, sorted by name.  Representors are never PFs, so a glob such
 * as ens1f0* does not take them for one.  0 with *n = 0 when nothing
 * matches; -EOPNOTSUPP with a message when a matching PF has no switch id
 * (legacy mode: no representors to attach); -errno with a message when
 * root/class/net cannot be read.  Free with rg_pfs_free.
 */
int  rg_switchdev_pfs(const char *root, const char *sel, struct rg_pf **out, size_t *n,
		      char *err, size_t err_len);
void rg_pfs_free(struct rg_pf *pfs, size_t n);

/* What sysfs says about one netdev, as far as PFs and representors go. */
struct rg_netdev {
	char name[IF_NAMESIZE];
	char switch_id[64];          /* "" when absent: not switchdev */
	char port_name[32];          /* "" when absent */
	char pci[RG_PCI_ADDR_LEN];   /* basename of device/, "" when none */
	bool has_numvfs;
	int  numvfs;
};

/*
 * Every netdev under root/class/net, read once (a few attributes each), so
 * that one apply resolves all its rails by pf from one scan instead of one
 * scan per rail.  A snapshot, plain data: the node's facts record it
 * (loader/kernel/facts.h) and a recorded one answers rg_switchdev_pfs_of
 * as the live one did.  rg_switchdev_read: 0, or -errno with a message
 * when root/class/net cannot be read.
 */
struct rg_netdevs {
	struct rg_netdev *all;       /* sorted by name */
	size_t n;
};
int  rg_switchdev_read(const char *root, struct rg_netdevs **out, char *err, size_t err_len);
void rg_netdevs_free(struct rg_netdevs *nd);
/* rg_switchdev_pfs over a snapshot: the same answers and errors. */
int  rg_switchdev_pfs_of(const struct rg_netdevs *nd, const char *sel, struct rg_pf **out,
			 size_t *n, char *err, size_t err_len);

/* The VF representors of every PF sel matches, one array (free() it). */
int  rg_switchdev_rep_names(const char *root, const char *sel, char (**names)[IF_NAMESIZE],
			    size_t *n, char *err, size_t err_len);

/* Whether ifname is a VF representor of a PF that sel matches (false on
 * any error: the caller's full resolve reports it). */
bool rg_switchdev_is_rep_of(const char *root, const char *sel, const char *ifname);

struct rg_config_rail;

/*
 * The interface patterns a rail's representors match, for whoever looks
 * them up (the daemon's readiness, doctor): the rail's representors (names,
 * globs) or, for a rail by pf, the names of the VF representors present now
 * under root.  0 with *pats malloc'd (rg_rail_patterns_free), or -errno with
 * a message.
 */
int  rg_rail_patterns(const struct rg_config_rail *rail, const char *root, char ***pats,
		      size_t *n, char *err, size_t err_len);
void rg_rail_patterns_free(char **pats, size_t n);

#endif
