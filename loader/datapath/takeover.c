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
#include "maps/pins.h"
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
	snprintf(nl->pin, sizeof(nl->pin), "%s", pin);   /* a copy: pin fits, it is as big */
	return 0;
}

/* The old version's links and programs (the programs: to put a moved link
 * back, and to replace only a link that still runs the old one). */
static int read_old(struct rg_takeover *t, char *err, size_t err_len)
{
	char path[PATH_MAX];
	struct dirent *de;
	int ret;
	DIR *d;

	for (int i = 0; i < RG_PROG_COUNT; i++) {
		ret = rg_pin_prog(path, sizeof(path), t->dir, i, err, err_len);
		if (ret)
			return ret;
		t->old_prog_fd[i] = bpf_obj_get(path);
	}
	t->old_tc_prog_id = rg_prog_id(t->old_prog_fd[RG_PROG_TC]);
	ret = rg_pin_links_dir(path, sizeof(path), t->dir, err, err_len);
	if (ret)
		return ret;
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? 0 : rg_err(err, err_len, -errno, "cannot read %s: %s", path,
						    strerror(errno));
	while ((de = readdir(d))) {
		char pin[PATH_MAX];
		int ifindex;
		enum rg_attach_mode mode = rg_link_pin_name_parse(de->d_name, &ifindex);

		if (mode == RG_MODE_NONE || rg_pin_child(pin, sizeof(pin), path, de->d_name, NULL, 0))
			continue;
		if (add_link(t, ifindex, mode, pin)) {
			closedir(d);
			return rg_err(err, err_len, -ENOMEM, "out of memory");
		}
	}
	closedir(d);
	return 0;
}

int rg_takeover_scan(const char *root, struct rg_takeover *t, char *err, size_t err_len)
{
	struct dirent *de;
	DIR *d;

	rg_takeover_init(t);
	d = opendir(root);
	if (!d)
		return errno == ENOENT ? 0 : rg_err(err, err_len, -errno, "cannot read %s: %s", root,
						    strerror(errno));
	while ((de = readdir(d))) {
		int ver = rg_pin_version_of(de->d_name);

		if (!ver || ver == RG_ABI_VERSION)
			continue;
		if (ver > RG_ABI_VERSION) {
			/* the message before closedir: de lives in d's buffer */
			rg_err(err, err_len, -EEXIST,
			       "a newer railgate (map ABI v%d, pins under %s/%s) runs this node; "
			       "this one (ABI v%d) never takes a node from a newer one: run the "
			       "newer binary, or its `railgate down` first",
			       ver, root, de->d_name, RG_ABI_VERSION);
			closedir(d);
			return -EEXIST;
		}
		if (ver > t->abi && !rg_pin_child(t->dir, sizeof(t->dir), root, de->d_name, NULL, 0))
			t->abi = ver;
	}
	closedir(d);
	if (!t->abi)
		return 0;
	return read_old(t, err, err_len);
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
static int move_one(struct rg_takeover *t, struct rg_old_link *l, const char *vdir,
		    int new_fd, char *err, size_t err_len)
{
	char name[IF_NAMESIZE];
	int ret;

	rg_ifname_str(l->ifindex, name);
	if (l->mode == RG_MODE_TC_CLSACT) {
		/* railgate_tc at railgate's slot is railgate's: replaced in place */
		ret = rg_clsact_attach(new_fd, l->ifindex, err, err_len);
		l->moved = !ret;
		return ret;
	}
	ret = link_swap(l->pin, new_fd, old_prog_of(t, l->mode));
	if (ret)
		return rg_err(err, err_len, ret, "%s: cannot move railgate ABI v%d's %s link to this "
			      "version's program: %s", name, t->abi, rg_attach_mode_name(l->mode),
			      strerror(-ret));
	l->moved = true;
	ret = rg_pin_link(l->new_pin, sizeof(l->new_pin), vdir, l->ifindex, l->mode, err, err_len);
	if (ret)
		return ret;
	ret = rg_link_pin_copy(l->pin, l->new_pin);
	if (ret)
		return rg_err(err, err_len, ret, "cannot pin %s: %s", l->new_pin, strerror(-ret));
	return 0;
}

int rg_takeover_move(struct rg_takeover *t, const char *vdir, const int prog_fd[RG_PROG_COUNT],
		     const struct rg_plan *plan, const struct rg_log *log, char *err, size_t err_len)
{
	size_t moved = 0;
	int ret;

	/* The clsact filters the plan keeps: recorded now, moved below. */
	for (size_t r = 0; r < plan->n_reps; r++) {
		const struct rg_plan_rep *pr = &plan->reps[r];

		if (pr->mode == RG_MODE_TC_CLSACT &&
		    rg_takeover_holds(t, pr->ifindex, RG_MODE_TC_CLSACT) &&
		    add_link(t, pr->ifindex, RG_MODE_TC_CLSACT, ""))
			return rg_err(err, err_len, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < t->n_links; i++) {
		struct rg_old_link *l = &t->links[i];
		int new_fd = prog_fd[rg_attach_mode_is_tc(l->mode) ? RG_PROG_TC : RG_PROG_XDP];
		bool planned = false;

		for (size_t r = 0; r < plan->n_reps && !planned; r++)
			planned = plan->reps[r].ifindex == l->ifindex &&
				  (enum rg_attach_mode)plan->reps[r].mode == l->mode;
		if (!planned)
			continue;     /* rg_takeover_finish detaches it */
		ret = move_one(t, l, vdir, new_fd, err, err_len);
		if (ret) {
			rg_takeover_revert(t);
			snprintf(err + strlen(err), err_len - strlen(err),
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

/* The old version's clsact filters that were not replaced: those that do
 * not run keep_prog_id (the new tc program). */
static void detach_old_clsact(const struct rg_takeover *t, __u32 keep_prog_id)
{
	size_t count;
	int *ifindexes;

	if (!rg_map_pins_clsact_ifindexes(t->dir, &ifindexes, &count))
		rg_clsact_detach_each(ifindexes, count, t->old_tc_prog_id, 0, keep_prog_id);
	free(ifindexes);
}

void rg_takeover_finish(struct rg_takeover *t, struct rg_map_set *maps, __u32 tc_prog_id,
			const struct rg_log *log)
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
	detach_old_clsact(t, tc_prog_id);
	/* `railgate stats` and the metrics go on counting from the old ones */
	if (rg_map_set_carry_stats(maps, t->dir))
		rg_log_info(log, "railgate ABI v%d's counters have another shape: the counters start "
			    "from zero", t->abi);
	/* The moved links are pinned under the new version too: removing the
	 * old pins leaves them attached. */
	rg_pin_tree_remove(t->dir);
	rg_log_info(log, "railgate ABI v%d is gone: its pins under %s are removed", t->abi, t->dir);
}
