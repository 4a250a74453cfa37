// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Taking over a node from an older railgate; see takeover.h. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "loader/datapath/takeover.h"
#include "loader/kernel/attach.h"
#include "lib/ifname.h"
#include "lib/errbuf.h"

void rg_takeover_init(struct rg_takeover *t)
{
	memset(t, 0, sizeof(*t));
	for (int i = 0; i < RG_PROG_COUNT; i++)
		t->old_prog_fd[i] = -1;
}

void rg_takeover_free(struct rg_takeover *t)
{
	for (int i = 0; i < RG_PROG_COUNT; i++)
		if (t->old_prog_fd[i] >= 0)
			close(t->old_prog_fd[i]);
	free(t->links);
	rg_takeover_init(t);
}

static int add_link(struct rg_takeover *t, int ifindex, enum rg_attach_mode mode, const char *pin)
{
	struct rg_old_link *nl = realloc(t->links, (t->n_links + 1) * sizeof(*nl));

	if (!nl)
		return -ENOMEM;
	t->links = nl;
	nl = &t->links[t->n_links++];
	memset(nl, 0, sizeof(*nl));
	nl->ifindex = ifindex;
	nl->mode = mode;
	snprintf(nl->pin, sizeof(nl->pin), "%s", pin);
	return 0;
}

/* The old version's links and programs (the programs: to put a moved link
 * back, and to replace only a link that still runs the old one). */
static int read_old(struct rg_takeover *t, char *err, size_t n)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;

	for (int i = 0; i < RG_PROG_COUNT; i++) {
		snprintf(path, sizeof(path), "%s/progs/%s", t->dir, rg_prog_pin_name(i));
		t->old_prog_fd[i] = bpf_obj_get(path);
	}
	t->old_tc_prog_id = rg_prog_id(t->old_prog_fd[RG_PROG_TC]);
	snprintf(path, sizeof(path), "%s/links", t->dir);
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? 0 : rg_err(err, n, -errno, "cannot read %s: %s", path,
						    strerror(errno));
	while ((de = readdir(d))) {
		char pin[PATH_MAX];
		int ifindex;
		enum rg_attach_mode mode = rg_link_pin_name_parse(de->d_name, &ifindex);

		if (mode == RG_MODE_NONE)
			continue;
		snprintf(pin, sizeof(pin), "%s/%s", path, de->d_name);
		if (add_link(t, ifindex, mode, pin)) {
			closedir(d);
			return rg_err(err, n, -ENOMEM, "out of memory");
		}
	}
	closedir(d);
	return 0;
}

int rg_takeover_scan(const char *root, struct rg_takeover *t, char *err, size_t n)
{
	struct dirent *de;
	DIR *d;

	rg_takeover_init(t);
	d = opendir(root);
	if (!d)
		return errno == ENOENT ? 0 : rg_err(err, n, -errno, "cannot read %s: %s", root,
						    strerror(errno));
	while ((de = readdir(d))) {
		int ver = rg_pin_version_of(de->d_name);

		if (!ver || ver == RG_ABI_VERSION)
			continue;
		if (ver > RG_ABI_VERSION) {
			/* the message before closedir: de lives in d's buffer */
			rg_err(err, n, -EEXIST,
			       "a newer railgate (map ABI v%d, pins under %s/%s) runs this node; "
			       "this one (ABI v%d) never takes a node from a newer one: run the "
			       "newer binary, or its `railgate down` first",
			       ver, root, de->d_name, RG_ABI_VERSION);
			closedir(d);
			return -EEXIST;
		}
		if (ver > t->abi) {
			t->abi = ver;
			snprintf(t->dir, sizeof(t->dir), "%s/%s", root, de->d_name);
		}
	}
	closedir(d);
	if (!t->abi)
		return 0;
	return read_old(t, err, n);
}

bool rg_takeover_holds(const struct rg_takeover *t, int ifindex, enum rg_attach_mode mode)
{
	if (!t || !t->abi)
		return false;
	if (mode == RG_MODE_TC_CLSACT)
		return t->old_tc_prog_id && rg_clsact_prog_id(ifindex) == t->old_tc_prog_id;
	for (size_t i = 0; i < t->n_links; i++)
		if (t->links[i].ifindex == ifindex && t->links[i].mode == mode)
			return true;
	return false;
}

const struct rg_old_link *rg_takeover_other_xdp(const struct rg_takeover *t, int ifindex,
						enum rg_attach_mode mode)
{
	for (size_t i = 0; t && !rg_attach_mode_is_tc(mode) && i < t->n_links; i++)
		if (t->links[i].ifindex == ifindex && !rg_attach_mode_is_tc(t->links[i].mode) &&
		    t->links[i].mode != mode)
			return &t->links[i];
	return NULL;
}

static int old_prog_of(const struct rg_takeover *t, enum rg_attach_mode mode)
{
	return t->old_prog_fd[rg_attach_mode_is_tc(mode) ? RG_PROG_TC : RG_PROG_XDP];
}

/* Swap the program of the link pinned at pin from old_fd to new_fd. */
static int link_swap(const char *pin, int new_fd, int old_fd)
{
	LIBBPF_OPTS(bpf_link_update_opts, opts);
	int ret, fd = bpf_obj_get(pin);

	if (fd < 0)
		return -errno;
	if (old_fd >= 0) {
		opts.flags = BPF_F_REPLACE;
		opts.old_prog_fd = old_fd;
	}
	ret = bpf_link_update(fd, new_fd, &opts);
	close(fd);
	return ret ? -errno : 0;
}

/* Move one attachment the plan keeps in its mode onto new_fd. */
static int move_one(struct rg_takeover *t, struct rg_old_link *l, struct rg_datapath *dp,
		    int new_fd, char *err, size_t n)
{
	char name[IF_NAMESIZE];
	int ret;

	rg_ifname_str(l->ifindex, name);
	if (l->mode == RG_MODE_TC_CLSACT) {
		/* railgate_tc at railgate's slot is railgate's: replaced in place */
		ret = rg_clsact_attach(new_fd, l->ifindex, err, n);
		l->moved = !ret;
		return ret;
	}
	ret = link_swap(l->pin, new_fd, old_prog_of(t, l->mode));
	if (ret)
		return rg_err(err, n, ret, "%s: cannot move railgate ABI v%d's %s link to this "
			      "version's program: %s", name, t->abi, rg_attach_mode_name(l->mode),
			      strerror(-ret));
	l->moved = true;
	rg_datapath_link_pin_path(dp, l->ifindex, l->mode, l->new_pin, sizeof(l->new_pin));
	ret = rg_link_pin_copy(l->pin, l->new_pin);
	if (ret)
		return rg_err(err, n, ret, "cannot pin %s: %s", l->new_pin, strerror(-ret));
	return 0;
}

int rg_takeover_move(struct rg_takeover *t, struct rg_datapath *dp, const struct rg_plan *plan,
		     const struct rg_log *log, char *err, size_t n)
{
	size_t moved = 0;
	int ret;

	/* The clsact filters the plan keeps: recorded now, moved below. */
	for (size_t r = 0; r < plan->n_reps; r++) {
		const struct rg_plan_rep *pr = &plan->reps[r];

		if (pr->mode == RG_MODE_TC_CLSACT &&
		    rg_takeover_holds(t, pr->ifindex, RG_MODE_TC_CLSACT) &&
		    add_link(t, pr->ifindex, RG_MODE_TC_CLSACT, ""))
			return rg_err(err, n, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < t->n_links; i++) {
		struct rg_old_link *l = &t->links[i];
		int new_fd = dp->prog_fd[rg_attach_mode_is_tc(l->mode) ? RG_PROG_TC : RG_PROG_XDP];
		bool planned = false;

		for (size_t r = 0; r < plan->n_reps && !planned; r++)
			planned = plan->reps[r].ifindex == l->ifindex &&
				  (enum rg_attach_mode)plan->reps[r].mode == l->mode;
		if (!planned)
			continue;     /* rg_takeover_finish detaches it */
		ret = move_one(t, l, dp, new_fd, err, n);
		if (ret) {
			rg_takeover_revert(t);
			snprintf(err + strlen(err), n - strlen(err),
				 " (every interface is back on railgate ABI v%d)", t->abi);
			return ret;
		}
		moved++;
	}
	rg_log_info(log, "took over %zu interface(s) from railgate ABI v%d, each in one atomic "
		    "program swap", moved, t->abi);
	return 0;
}

void rg_takeover_revert(struct rg_takeover *t)
{
	char why[256];

	for (size_t i = 0; i < t->n_links; i++) {
		struct rg_old_link *l = &t->links[i];
		int prog = old_prog_of(t, l->mode);
		int fd;

		if (!l->moved)
			continue;
		l->moved = false;
		if (l->mode == RG_MODE_TC_CLSACT) {
			if (prog >= 0)
				rg_clsact_attach(prog, l->ifindex, why, sizeof(why));
			continue;
		}
		fd = bpf_obj_get(l->pin);
		if (fd >= 0 && prog >= 0)
			bpf_link_update(fd, prog, NULL);
		if (fd >= 0)
			close(fd);
		if (l->new_pin[0])
			unlink(l->new_pin);
		l->new_pin[0] = '\0';
	}
}

/*
 * Add the old version's packet counters to the new ones, CPU by CPU, when
 * both maps have the shape of this ABI's rg_stats (the same stats in the
 * same slots): `railgate stats` and the metrics then go on counting
 * instead of starting from zero.  Side counters start from zero.
 */
static bool carry_counters(const struct rg_takeover *t, struct rg_datapath *dp)
{
	struct bpf_map_info info;
	__u32 len = sizeof(info);
	char pin[PATH_MAX];
	int ncpu = libbpf_num_possible_cpus();
	struct rg_counter *old = NULL, *cur = NULL;
	bool carried = false;
	int fd;

	snprintf(pin, sizeof(pin), "%s/maps/%s", t->dir, RG_MAP_STATS);
	fd = bpf_obj_get(pin);
	memset(&info, 0, sizeof(info));
	if (fd < 0 || ncpu <= 0 || bpf_obj_get_info_by_fd(fd, &info, &len) ||
	    info.type != BPF_MAP_TYPE_PERCPU_ARRAY || info.key_size != sizeof(__u32) ||
	    info.value_size != sizeof(struct rg_counter) || info.max_entries != RG_STAT_SLOTS)
		goto out;
	old = calloc((size_t)ncpu, sizeof(*old));
	cur = calloc((size_t)ncpu, sizeof(*cur));
	if (!old || !cur)
		goto out;
	for (__u32 key = 0; key < RG_STAT_SLOTS; key++) {
		bool any = false;

		if (bpf_map_lookup_elem(fd, &key, old))
			goto out;
		for (int c = 0; c < ncpu; c++)
			any |= old[c].packets != 0;
		if (!any)
			continue;
		if (bpf_map_lookup_elem(dp->maps.fd[RG_MAPID_STATS], &key, cur))
			goto out;
		for (int c = 0; c < ncpu; c++) {
			cur[c].packets += old[c].packets;
			cur[c].bytes += old[c].bytes;
		}
		if (bpf_map_update_elem(dp->maps.fd[RG_MAPID_STATS], &key, cur, BPF_EXIST))
			goto out;
	}
	carried = true;
out:
	free(old);
	free(cur);
	if (fd >= 0)
		close(fd);
	return carried;
}

void rg_takeover_finish(struct rg_takeover *t, struct rg_datapath *dp, const struct rg_log *log)
{
	char name[IF_NAMESIZE];

	/* What did not move still runs the old program: stop it first. */
	for (size_t i = 0; i < t->n_links; i++) {
		if (t->links[i].moved || t->links[i].mode == RG_MODE_TC_CLSACT)
			continue;
		rg_pin_detach(t->links[i].pin);
		rg_log_info(log, "detached %s (%s, railgate ABI v%d): not in this config in that mode",
			    rg_ifname_str(t->links[i].ifindex, name),
			    rg_attach_mode_name(t->links[i].mode), t->abi);
	}
	/* The old clsact filters that were not replaced (the new program's stay). */
	rg_datapath_detach_clsact_in(t->dir, 0, rg_prog_id(dp->prog_fd[RG_PROG_TC]));
	if (!carry_counters(t, dp))
		rg_log_info(log, "railgate ABI v%d's counters have another shape: the counters start "
			    "from zero", t->abi);
	/* The moved links are pinned under the new version too: removing the
	 * old pins leaves them attached. */
	rg_pin_tree_remove(t->dir);
	rg_log_info(log, "railgate ABI v%d is gone: its pins under %s are removed", t->abi, t->dir);
}
