// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loader/config/config.h"
#include "loader/kernel/switchdev.h"
#include "lib/errbuf.h"

const char *rg_sysfs_root(void)
{
	const char *r = getenv("RAILGATE_SYSFS");

	return r && *r ? r : "/sys";
}

/* One line of a sysfs attribute, without the newline; "" when it cannot be
 * read (phys_switch_id fails with EOPNOTSUPP in legacy mode). */
static void read_attr(const char *root, const char *dev, const char *attr, char *buf, size_t n)
{
	char path[PATH_MAX];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/class/net/%s/%s", root, dev, attr);
	f = fopen(path, "re");
	if (!f)
		return;
	if (!fgets(buf, (int)n, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

static void read_netdev(const char *root, const char *name, struct rg_netdev *a)
{
	char path[PATH_MAX], target[PATH_MAX], numvfs[16];
	const char *base;
	ssize_t len;

	memset(a, 0, sizeof(*a));
	snprintf(a->name, sizeof(a->name), "%s", name);
	read_attr(root, name, "phys_switch_id", a->switch_id, sizeof(a->switch_id));
	read_attr(root, name, "phys_port_name", a->port_name, sizeof(a->port_name));
	snprintf(path, sizeof(path), "%s/class/net/%s/device", root, name);
	len = readlink(path, target, sizeof(target) - 1);
	if (len > 0) {
		target[len] = '\0';
		base = strrchr(target, '/');
		base = base ? base + 1 : target;
		/* a PCI device, not a platform or virtio one */
		if (strchr(base, ':'))
			snprintf(a->pci, sizeof(a->pci), "%s", base);
	}
	read_attr(root, name, "device/sriov_numvfs", numvfs, sizeof(numvfs));
	a->has_numvfs = numvfs[0] != '\0';
	a->numvfs = a->has_numvfs ? atoi(numvfs) : -1;
}

/* "p3" -> 3; -1 when the port name is not a PF's. */
static int pf_port_number(const char *port_name)
{
	char *end;
	long v;

	if (port_name[0] != 'p' || port_name[1] < '0' || port_name[1] > '9')
		return -1;
	v = strtol(port_name + 1, &end, 10);
	return *end || v > 255 ? -1 : (int)v;
}

/* "pf0vf3" or "c1pf0vf3" -> pf 0, vf 3; false for anything else (the PF
 * itself "p0", a BlueField's host PF "c1pf0", sub-functions "pf0sf1"). */
static bool parse_vf_port(const char *s, int *pf, int *vf)
{
	char *end;

	if (s[0] == 'c') {
		strtol(s + 1, &end, 10);
		if (end == s + 1)
			return false;
		s = end;
	}
	if (strncmp(s, "pf", 2) || s[2] < '0' || s[2] > '9')
		return false;
	*pf = (int)strtol(s + 2, &end, 10);
	if (strncmp(end, "vf", 2) || end[2] < '0' || end[2] > '9')
		return false;
	*vf = (int)strtol(end + 2, &end, 10);
	return *end == '\0';
}

/* A PF: its port name says so, or (no port name: legacy mode, no
 * representors yet) it can have VFs. */
static bool is_pf(const struct rg_netdev *a)
{
	return pf_port_number(a->port_name) >= 0 || (!a->port_name[0] && a->has_numvfs);
}

/* The number representors use for this PF: pN, else the PCI function. */
static int pf_number(const struct rg_netdev *a)
{
	int n = pf_port_number(a->port_name);
	const char *dot = strrchr(a->pci, '.');

	if (n >= 0)
		return n;
	return dot ? atoi(dot + 1) : 0;
}

static bool sel_matches(const char *sel, const struct rg_netdev *a)
{
	if (strchr(sel, ':'))
		return a->pci[0] && !fnmatch(sel, a->pci, 0);
	return !fnmatch(sel, a->name, 0);
}

struct rep_slot {
	int vf;
	char name[IF_NAMESIZE];
};

static int cmp_rep(const void *a, const void *b)
{
	const struct rep_slot *x = a, *y = b;

	return x->vf != y->vf ? (x->vf > y->vf) - (x->vf < y->vf) : strcmp(x->name, y->name);
}

/* The representors of pf among every netdev, by VF number. */
static int collect_reps(const struct rg_netdev *pf, const struct rg_netdev *all, size_t n_all,
			struct rg_pf *out)
{
	struct rep_slot *slots = calloc(n_all ? n_all : 1, sizeof(*slots));
	int want = pf_number(pf), rpf, vf;
	size_t n = 0;

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < n_all; i++)
		if (all[i].switch_id[0] && !strcmp(all[i].switch_id, pf->switch_id) &&
		    parse_vf_port(all[i].port_name, &rpf, &vf) && rpf == want) {
			slots[n].vf = vf;
			memcpy(slots[n].name, all[i].name, sizeof(slots[n].name));
			n++;
		}
	qsort(slots, n, sizeof(*slots), cmp_rep);
	out->reps = calloc(n ? n : 1, sizeof(*out->reps));
	if (!out->reps) {
		free(slots);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		memcpy(out->reps[i], slots[i].name, IF_NAMESIZE);
	out->n_reps = n;
	free(slots);
	return 0;
}

/* Every netdev under root/class/net, sorted by name. */
int rg_switchdev_read(const char *root, struct rg_netdevs **out, char *err, size_t err_len)
{
	char path[PATH_MAX];
	struct dirent **ents;
	struct rg_netdevs *nd;
	int count;

	*out = NULL;
	snprintf(path, sizeof(path), "%s/class/net", root);
	count = scandir(path, &ents, NULL, alphasort);
	if (count < 0)
		return rg_err(err, err_len, -errno, "%s: %s", path, strerror(errno));
	nd = calloc(1, sizeof(*nd));
	if (nd)
		nd->all = calloc(count ? (size_t)count : 1, sizeof(*nd->all));
	for (int i = 0; i < count; i++) {
		if (nd && nd->all && ents[i]->d_name[0] != '.' && strlen(ents[i]->d_name) < IF_NAMESIZE)
			read_netdev(root, ents[i]->d_name, &nd->all[nd->n++]);
		free(ents[i]);
	}
	free(ents);
	if (!nd || !nd->all) {
		rg_netdevs_free(nd);
		return rg_err(err, err_len, -ENOMEM, "out of memory");
	}
	*out = nd;
	return 0;
}

void rg_netdevs_free(struct rg_netdevs *nd)
{
	if (!nd)
		return;
	free(nd->all);
	free(nd);
}

int rg_switchdev_pfs_of(const struct rg_netdevs *nd, const char *sel, struct rg_pf **out,
			size_t *n, char *err, size_t err_len)
{
	const struct rg_netdev *all = nd->all;
	size_t n_all = nd->n, n_pfs = 0;
	struct rg_pf *pfs;
	int ret = 0;

	*out = NULL;
	*n = 0;
	pfs = calloc(n_all ? n_all : 1, sizeof(*pfs));
	if (!pfs)
		ret = rg_err(err, err_len, -ENOMEM, "out of memory");
	for (size_t i = 0; !ret && i < n_all; i++) {
		const struct rg_netdev *a = &all[i];
		struct rg_pf *pf = &pfs[n_pfs];

		if (!is_pf(a) || !sel_matches(sel, a))
			continue;
		if (!a->switch_id[0]) {
			ret = rg_err(err, err_len, -EOPNOTSUPP,
				     "PF %s%s%s%s has no phys_switch_id: its eswitch is not in switchdev mode, so it has no VF representors (devlink dev eswitch set pci/%s mode switchdev)",
				     a->name, a->pci[0] ? " (" : "", a->pci, a->pci[0] ? ")" : "",
				     a->pci[0] ? a->pci : "ADDRESS");
			break;
		}
		memcpy(pf->name, a->name, sizeof(pf->name));
		memcpy(pf->pci, a->pci, sizeof(pf->pci));
		pf->numvfs = a->numvfs;
		ret = collect_reps(a, all, n_all, pf);
		if (ret)
			rg_set_err(err, err_len, "out of memory");
		else
			n_pfs++;
	}
	if (ret) {
		rg_pfs_free(pfs, n_pfs);
		return ret;
	}
	*out = pfs;
	*n = n_pfs;
	return 0;
}

int rg_switchdev_pfs(const char *root, const char *sel, struct rg_pf **out, size_t *n,
		     char *err, size_t err_len)
{
	struct rg_netdevs *nd;
	int ret = rg_switchdev_read(root, &nd, err, err_len);

	*out = NULL;
	*n = 0;
	if (ret)
		return ret;
	ret = rg_switchdev_pfs_of(nd, sel, out, n, err, err_len);
	rg_netdevs_free(nd);
	return ret;
}

void rg_pfs_free(struct rg_pf *pfs, size_t n)
{
	for (size_t i = 0; pfs && i < n; i++)
		free(pfs[i].reps);
	free(pfs);
}

int rg_switchdev_rep_names(const char *root, const char *sel, char (**names)[IF_NAMESIZE],
			   size_t *n, char *err, size_t err_len)
{
	struct rg_pf *pfs;
	size_t n_pfs, total = 0;
	int ret = rg_switchdev_pfs(root, sel, &pfs, &n_pfs, err, err_len);

	*names = NULL;
	*n = 0;
	if (ret)
		return ret;
	for (size_t i = 0; i < n_pfs; i++)
		total += pfs[i].n_reps;
	*names = calloc(total ? total : 1, sizeof(**names));
	if (!*names) {
		rg_pfs_free(pfs, n_pfs);
		return rg_err(err, err_len, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < n_pfs; i++)
		for (size_t r = 0; r < pfs[i].n_reps; r++)
			memcpy((*names)[(*n)++], pfs[i].reps[r], IF_NAMESIZE);
	rg_pfs_free(pfs, n_pfs);
	return 0;
}

bool rg_switchdev_is_rep_of(const char *root, const char *sel, const char *ifname)
{
	char (*names)[IF_NAMESIZE];
	struct rg_netdev a;
	size_t n;
	bool found = false;
	int pf, vf;

	/* The daemon asks on every link event: a netdev that is no VF
	 * representor at all is answered from its own two attributes,
	 * without reading every netdev of the node. */
	if (strlen(ifname) >= IF_NAMESIZE || strchr(ifname, '/'))
		return false;
	read_netdev(root, ifname, &a);
	if (!a.switch_id[0] || !parse_vf_port(a.port_name, &pf, &vf))
		return false;
	if (rg_switchdev_rep_names(root, sel, &names, &n, NULL, 0))
		return false;
	for (size_t i = 0; i < n && !found; i++)
		found = !strcmp(names[i], ifname);
	free(names);
	return found;
}

void rg_rail_patterns_free(char **pats, size_t n)
{
	for (size_t i = 0; pats && i < n; i++)
		free(pats[i]);
	free(pats);
}

int rg_rail_patterns(const struct rg_config_rail *rail, const char *root, char ***pats,
		     size_t *n, char *err, size_t err_len)
{
	char (*names)[IF_NAMESIZE] = NULL;
	size_t count = rail->n_representors;
	int ret = 0;

	*pats = NULL;
	*n = 0;
	if (rail->pf[0]) {
		ret = rg_switchdev_rep_names(root, rail->pf, &names, &count, err, err_len);
		if (ret)
			return ret;
	}
	*pats = calloc(count ? count : 1, sizeof(**pats));
	for (size_t i = 0; *pats && i < count; i++) {
		(*pats)[i] = strdup(names ? names[i] : rail->representors[i]);
		if (!(*pats)[i])
			break;
		(*n)++;
	}
	free(names);
	if (!*pats || *n < count) {
		rg_rail_patterns_free(*pats, *n);
		*pats = NULL;
		*n = 0;
		return rg_err(err, err_len, -ENOMEM, "out of memory");
	}
	return 0;
}
