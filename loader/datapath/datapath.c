// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Load or adopt, apply, take down; see datapath.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <net/if.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "loader/datapath/datapath.h"
#include "maps/pins.h"
#include "loader/kernel/attach.h"
#include "lib/ifname.h"
#include "loader/datapath/takeover.h"
#include "railgate.skel.h"
#include "lib/errbuf.h"
#include "lib/files.h"

#define BPF_FS_MAGIC_NUMBER 0xcafe4a11

/* The pin tree's directories are root's alone; the callers say which
 * directory could not be made. */
static int mkdir_p(const char *path)
{
	return rg_mkdir_p(path, 0700, NULL, 0);
}

/* A closed datapath of root: nothing open, nothing locked.  -ENAMETOOLONG
 * when root is too long for the pin paths under it. */
static int datapath_init(struct rg_datapath *dp, const char *root, char *err, size_t err_len)
{
	memset(dp, 0, sizeof(*dp));
	dp->lock_fd = -1;
	for (int i = 0; i < RG_PROG_COUNT; i++)
		dp->prog_fd[i] = -1;
	rg_map_set_init(&dp->maps);
	snprintf(dp->root, sizeof(dp->root), "%s", root);
	return rg_pin_version_dir(dp->dir, sizeof(dp->dir), root, RG_ABI_VERSION, err, err_len);
}

static bool same_inode(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/*
 * flock the pin root.  The lock belongs to the directory's inode, so it
 * serialises loaders only while the root is never replaced: `down` keeps it.
 * A loader that waited on a root removed meanwhile (by something else: an
 * older railgate's down, a person) holds a lock nobody else takes, so the
 * lock is taken again on the directory the path names now.
 */
static int lock_root(const char *root, char *err, size_t err_len)
{
	for (int attempt = 0; attempt < 8; attempt++) {
		struct stat locked, now;
		int ret, fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (fd < 0 && errno == ENOENT) {
			ret = mkdir_p(root);
			if (ret)
				return rg_err(err, err_len, ret, "cannot create pin directory %s: %s", root,
					      strerror(-ret));
			continue;
		}
		if (fd < 0 || flock(fd, LOCK_EX) || fstat(fd, &locked)) {
			ret = -errno;
			if (fd >= 0)
				close(fd);
			return rg_err(err, err_len, ret, "cannot lock %s: %s", root, strerror(-ret));
		}
		if (!stat(root, &now) && same_inode(&locked, &now))
			return fd;
		close(fd);   /* replaced while we waited: lock the new one */
	}
	return rg_err(err, err_len, -EAGAIN, "cannot lock %s: it keeps being removed", root);
}

int rg_datapath_lock(struct rg_datapath *dp, const char *root, char *err, size_t err_len)
{
	struct statfs st;
	int ret;

	ret = datapath_init(dp, root, err, err_len);
	if (ret)
		return ret;
	ret = mkdir_p(root);
	if (ret)
		return rg_err(err, err_len, ret, "cannot create pin directory %s: %s", root, strerror(-ret));
	if (statfs(root, &st) || st.f_type != BPF_FS_MAGIC_NUMBER)
		return rg_err(err, err_len, -ENOTSUP,
			      "%s is not on a bpf filesystem (mount -t bpf bpf /sys/fs/bpf)", root);
	ret = lock_root(root, err, err_len);
	if (ret < 0)
		return ret;
	dp->lock_fd = ret;
	return 0;
}

int rg_datapath_open_readonly(struct rg_datapath *dp, const char *root, char *err, size_t err_len)
{
	int ret = datapath_init(dp, root, err, err_len);

	return ret ? ret : rg_datapath_open(dp, false, err, err_len);
}

static bool exists(const char *path)
{
	return access(path, F_OK) == 0;
}

static int pin_progs(struct rg_datapath *dp, const char *vdir, char *err, size_t err_len)
{
	char dir[PATH_MAX], path[PATH_MAX];
	int ret;

	ret = rg_pin_progs_dir(dir, sizeof(dir), vdir, err, err_len);
	if (ret)
		return ret;
	ret = mkdir_p(dir);
	if (ret)
		return rg_err(err, err_len, ret, "cannot create %s: %s", dir, strerror(-ret));
	for (int i = 0; i < RG_PROG_COUNT; i++) {
		ret = rg_pin_prog(path, sizeof(path), vdir, i, err, err_len);
		if (ret)
			return ret;
		unlink(path);
		if (bpf_obj_pin(dp->prog_fd[i], path)) {
			ret = -errno;
			return rg_err(err, err_len, ret, "cannot pin %s: %s", path, strerror(-ret));
		}
	}
	return 0;
}

/* Load the object, reusing whatever maps are pinned, and pin the rest
 * under vdir (dp->dir, or the staging directory of a fresh load). */
static int load_object(struct rg_datapath *dp, bool maps_pinned, const char *vdir,
		       char *err, size_t err_len)
{
	struct railgate *skel;
	int ret;

	skel = railgate__open();
	if (!skel) {
		ret = -errno;
		return rg_err(err, err_len, ret, "cannot open the BPF object: %s", strerror(-ret));
	}
	if (maps_pinned) {
		ret = rg_map_set_reuse_in_object(&dp->maps, skel->obj, err, err_len);
		if (ret)
			goto fail;
	}
	ret = railgate__load(skel);
	if (ret) {
		rg_set_err(err, err_len, "the kernel refused the BPF programs: %s (run with "
			   "LIBBPF_LOG=1 for the verifier log)", strerror(-ret));
		goto fail;
	}
	if (!maps_pinned) {
		ret = rg_map_set_from_object(&dp->maps, skel->obj, err, err_len);
		if (ret)
			goto fail;
		ret = rg_map_set_pin(&dp->maps, vdir, err, err_len);
		if (ret)
			goto fail;
	}
	dp->prog_fd[RG_PROG_XDP] = dup(bpf_program__fd(skel->progs.railgate_xdp));
	dp->prog_fd[RG_PROG_TC] = dup(bpf_program__fd(skel->progs.railgate_tc));
	dp->skel = skel;
	return pin_progs(dp, vdir, err, err_len);
fail:
	railgate__destroy(skel);
	return ret;
}

/*
 * A fresh load is pinned into a staging directory beside v<ABI> and renamed
 * into place in one step, so v<ABI> appears complete or not at all: an
 * `up` killed half-way leaves a staging directory, which the next fresh
 * load (under the same lock, so nobody else can be using it) or `down`
 * removes.  bpffs refuses dots in names, hence no ".tmp".
 */

static int load_fresh(struct rg_datapath *dp, char *err, size_t err_len)
{
	char staging[PATH_MAX];
	int ret;

	ret = rg_pin_staging_dir(staging, sizeof(staging), dp->root, RG_ABI_VERSION, err, err_len);
	if (ret)
		return ret;
	rg_pin_tree_remove(staging);
	ret = mkdir_p(staging);
	if (ret)
		return rg_err(err, err_len, ret, "cannot create %s: %s", staging, strerror(-ret));
	ret = load_object(dp, false, staging, err, err_len);
	if (ret)
		goto fail;
	rmdir(dp->dir);   /* an empty leftover would make the rename fail */
	if (rename(staging, dp->dir)) {
		ret = -errno;
		rg_set_err(err, err_len, "cannot move %s to %s: %s", staging, dp->dir, strerror(-ret));
		goto fail;
	}
	return 0;
fail:
	rg_pin_tree_remove(staging);
	return ret;
}

/* "Not up", and whether another ABI's railgate is (the takeover's case,
 * takeover.h): its version and what to do. */
static int not_up_err(const struct rg_datapath *dp, char *err, size_t err_len)
{
	char other_dir[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(dp->root);
	int other = 0;

	while (d && (de = readdir(d))) {
		int ver = rg_pin_version_of(de->d_name);

		if (ver && ver != RG_ABI_VERSION)
			other = ver;
	}
	if (d)
		closedir(d);
	if (!other)
		return rg_err(err, err_len, -ENOENT, "railgate is not up (nothing pinned under %s)", dp->dir);
	rg_pin_version_dir(other_dir, sizeof(other_dir), dp->root, other, NULL, 0);
	return rg_err(err, err_len, -ENOENT,
		      "this railgate (map ABI v%d) is not up: railgate ABI v%d runs this node "
		      "(pins under %s); %s", RG_ABI_VERSION, other, other_dir,
		      other < RG_ABI_VERSION ? "this release's `railgate up` takes it over hitlessly"
					     : "use the newer binary");
}

int rg_datapath_open(struct rg_datapath *dp, bool create, char *err, size_t err_len)
{
	char maps_dir[PATH_MAX], path[PATH_MAX];
	bool maps_pinned, progs_pinned = true;
	int ret;

	ret = rg_pin_maps_dir(maps_dir, sizeof(maps_dir), dp->dir, err, err_len);
	if (ret)
		return ret;
	maps_pinned = exists(maps_dir);
	if (maps_pinned) {
		ret = rg_map_set_from_pins(&dp->maps, dp->dir, err, err_len);
		if (ret) {
			rg_set_err(err + strlen(err), err_len - strlen(err),
				   " (the pinned state under %s is incomplete: run `railgate down`)",
				   dp->dir);
			return ret;
		}
	} else if (!create) {
		return not_up_err(dp, err, err_len);
	}

	for (int i = 0; i < RG_PROG_COUNT; i++) {
		ret = rg_pin_prog(path, sizeof(path), dp->dir, i, err, err_len);
		if (ret)
			return ret;
		dp->prog_fd[i] = maps_pinned ? bpf_obj_get(path) : -1;
		if (dp->prog_fd[i] < 0)
			progs_pinned = false;
	}
	if (!progs_pinned) {
		for (int i = 0; i < RG_PROG_COUNT; i++) {
			if (dp->prog_fd[i] >= 0)
				close(dp->prog_fd[i]);
			dp->prog_fd[i] = -1;
		}
		if (!create) {
			rg_pin_progs_dir(path, sizeof(path), dp->dir, NULL, 0);
			return rg_err(err, err_len, -ENOENT, "the programs are not pinned under %s "
				      "(half-broken state: run `railgate down`)", path);
		}
		ret = maps_pinned ? load_object(dp, true, dp->dir, err, err_len) : load_fresh(dp, err, err_len);
		if (ret)
			return ret;
	}
	dp->open = true;
	return 0;
}

void rg_datapath_close(struct rg_datapath *dp)
{
	rg_map_set_close(&dp->maps);
	for (int i = 0; i < RG_PROG_COUNT; i++) {
		if (dp->prog_fd[i] >= 0)
			close(dp->prog_fd[i]);
		dp->prog_fd[i] = -1;
	}
	if (dp->skel)
		railgate__destroy(dp->skel);
	dp->skel = NULL;
	if (dp->lock_fd >= 0)
		close(dp->lock_fd);  /* releases the flock */
	dp->lock_fd = -1;
	dp->open = false;
}

int rg_datapath_active_rails(const struct rg_datapath *dp, struct rg_rail rails[RG_MAX_RAILS])
{
	return rg_map_set_read_rails(&dp->maps, rg_map_set_active_gen(&dp->maps), rails, NULL, 0);
}

int rg_datapath_active_egress(const struct rg_datapath *dp, struct rg_egress *eg)
{
	struct rg_generation g;
	int ret = rg_map_set_read_generation(&dp->maps, rg_map_set_active_gen(&dp->maps), &g,
					     NULL, 0);

	if (!ret)
		*eg = g.egress;
	return ret;
}

static int attached_cmp(const void *a, const void *b)
{
	const struct rg_attached *x = a, *y = b;

	return x->ifindex != y->ifindex ? x->ifindex - y->ifindex : (int)x->mode - (int)y->mode;
}

/* The list's room doubles (16, 32, 64...: it grows when n reaches one of
 * them): an entry is 4 KiB with its pin path, and growing it by one for
 * each of 1024 representors copied megabytes. */
static int append_attached(struct rg_attached **list, size_t *n, const struct rg_attached *a)
{
	size_t have = *n;

	if (have < 16 ? have == 0 : !(have & (have - 1))) {
		struct rg_attached *nl = realloc(*list, (have < 16 ? 16 : 2 * have) * sizeof(*nl));

		if (!nl)
			return -ENOMEM;
		*list = nl;
	}
	(*list)[(*n)++] = *a;
	return 0;
}

/* Add railgate's clsact filters (alive: the filter is there, running ours). */
static int list_clsact(const struct rg_datapath *dp, struct rg_attached **list, size_t *n)
{
	int *ifindexes;
	size_t found;
	__u32 prog_id;
	int ret = rg_map_set_clsact_ifindexes(&dp->maps, &ifindexes, &found);

	if (ret)
		return ret;
	prog_id = rg_prog_id(dp->prog_fd[RG_PROG_TC]);   /* once, not once per filter */
	for (size_t i = 0; i < found && !ret; i++) {
		struct rg_attached a = { .ifindex = ifindexes[i], .mode = RG_MODE_TC_CLSACT };

		a.alive = rg_clsact_query(a.ifindex, prog_id) == 1;
		ret = append_attached(list, n, &a);
	}
	free(ifindexes);
	return ret;
}

/* Add the links pinned under dp->dir/links. */
static int list_pinned_links(const struct rg_datapath *dp, struct rg_attached **list, size_t *n)
{
	char dir[PATH_MAX];
	struct dirent *de;
	DIR *d;

	if (rg_pin_links_dir(dir, sizeof(dir), dp->dir, NULL, 0))
		return -ENAMETOOLONG;
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		struct rg_attached a = { 0 };
		int fd;

		if (!rg_link_pin_name_ifindex(de->d_name, &a.ifindex) ||
		    rg_pin_child(a.pin, sizeof(a.pin), dir, de->d_name, NULL, 0))
			continue;
		a.mode = rg_link_pin_name_parse(de->d_name, &a.ifindex);  /* NONE: a mode we do not know */
		fd = bpf_obj_get(a.pin);
		a.alive = fd >= 0 && rg_link_ifindex(fd) == a.ifindex;
		if (fd >= 0)
			close(fd);
		if (append_attached(list, n, &a)) {
			closedir(d);
			return -ENOMEM;
		}
	}
	closedir(d);
	return 0;
}

int rg_datapath_links(const struct rg_datapath *dp, struct rg_attached **out, size_t *count)
{
	struct rg_attached *list = NULL;
	size_t n = 0;
	int ret;

	*out = NULL;
	*count = 0;
	ret = list_pinned_links(dp, &list, &n);
	if (!ret)
		ret = list_clsact(dp, &list, &n);
	if (ret) {
		free(list);
		return ret;
	}
	if (n)
		qsort(list, n, sizeof(*list), attached_cmp);
	*out = list;
	*count = n;
	return 0;
}

static const struct rg_attached *find_link(const struct rg_attached *links, size_t n,
					   int ifindex, enum rg_attach_mode mode)
{
	for (size_t i = 0; i < n; i++)
		if (links[i].ifindex == ifindex && links[i].mode == mode && links[i].alive)
			return &links[i];
	return NULL;
}

static const struct rg_plan_rep *find_rep(const struct rg_plan *plan, int ifindex)
{
	for (size_t i = 0; i < plan->n_reps; i++)
		if (plan->reps[i].ifindex == ifindex)
			return &plan->reps[i];
	return NULL;
}

/* Representor entries of the ACTIVE generation: the ones frames read now. */
static int rep_write(struct rg_datapath *dp, int ifindex, const struct rg_representor *r)
{
	return rg_map_set_put_representor(&dp->maps, rg_map_set_active_gen(&dp->maps),
					  (uint32_t)ifindex, r, NULL, 0);
}

static int rep_read(struct rg_datapath *dp, int ifindex, struct rg_representor *r)
{
	return rg_map_set_get_representor(&dp->maps, rg_map_set_active_gen(&dp->maps),
					  (uint32_t)ifindex, r);
}

/*
 * The active generation's entry for a representor the plan attaches now:
 * its rail as the running config has it (rail ids survive reloads by name,
 * rg_plan_build), so the first frame after the attach finds its rail.  A
 * rail the running config does not have yet gives an entry that is not
 * VALID: frames pass (unknown interface) until the flip.
 */
static struct rg_representor rep_in_active(const struct rg_plan *plan,
					   const struct rg_plan_rep *pr,
					   const struct rg_rail active[RG_MAX_RAILS])
{
	const struct rg_rail *rail = &active[pr->rail_id];
	static const struct rg_rail none;

	if (strcmp(rail->name, plan->rails[pr->rail_id].name))
		rail = &none;
	return rg_representor_of(pr->rail_id, rail, (enum rg_attach_mode)pr->mode);
}

/* The plan's representors as map_set takes them. */
static struct rg_rep_binding *plan_bindings(const struct rg_plan *plan)
{
	struct rg_rep_binding *b = calloc(plan->n_reps + 1, sizeof(*b));

	for (size_t i = 0; b && i < plan->n_reps; i++)
		b[i] = (struct rg_rep_binding){ .ifindex = (uint32_t)plan->reps[i].ifindex,
						.rail_id = plan->reps[i].rail_id,
						.mode = plan->reps[i].mode };
	return b;
}

/* One representor newly attached by this apply, and the entry it had
 * before: what a rollback restores. */
struct rg_new_link {
	struct rg_attached at;
	struct rg_representor old_rep;
};

/* Take one attachment away: a pinned link, or railgate's clsact filter. */
static void detach_attachment(const struct rg_datapath *dp, const struct rg_attached *a)
{
	if (a->mode == RG_MODE_TC_CLSACT)
		rg_clsact_detach(a->ifindex, rg_prog_id(dp->prog_fd[RG_PROG_TC]));
	else
		rg_pin_detach(a->pin);
}

static int uplink_add(struct rg_datapath *dp, uint32_t ifindex, char *err, size_t err_len)
{
	char why[256], name[IF_NAMESIZE];
	int ret = rg_map_set_put_tx_port(&dp->maps, ifindex, why, sizeof(why));

	if (ret)
		return rg_err(err, err_len, ret, "cannot add uplink %s to the redirect map: %s",
			      rg_ifname_str((int)ifindex, name), why);
	return 0;
}

/* Remove every uplink but keep from the redirect map. */
static void uplinks_retire(struct rg_datapath *dp, uint32_t keep)
{
	uint32_t ports[RG_MAX_UPLINKS];
	size_t count;

	if (rg_map_set_read_tx_ports(&dp->maps, ports, &count, NULL, 0))
		return;
	for (size_t i = 0; i < count; i++)
		if (ports[i] != keep)
			rg_map_set_del_tx_port(&dp->maps, ports[i], NULL, 0);
}

/* Attach the program of a->mode to a->ifindex; a link is pinned at a->pin. */
static int attach_one(struct rg_datapath *dp, struct rg_attached *a, char *err, size_t err_len)
{
	int prog_fd = dp->prog_fd[rg_attach_mode_is_tc(a->mode) ? RG_PROG_TC : RG_PROG_XDP];
	int link_fd, ret;

	if (a->mode == RG_MODE_TC_CLSACT)
		return rg_clsact_attach(prog_fd, a->ifindex, err, err_len);
	ret = rg_pin_link(a->pin, sizeof(a->pin), dp->dir, a->ifindex, a->mode, err, err_len);
	if (!ret)
		ret = rg_attach_link(prog_fd, a->ifindex, a->mode, &link_fd, err, err_len);
	if (ret)
		return ret;
	unlink(a->pin);
	if (bpf_obj_pin(link_fd, a->pin)) {
		ret = -errno;
		rg_set_err(err, err_len, "cannot pin %s: %s", a->pin, strerror(-ret));
		a->pin[0] = '\0';
	}
	close(link_fd);     /* pinned: the pin holds it; not pinned: closing detaches it */
	return ret;
}

static int attach_new_reps(struct rg_datapath *dp, const struct rg_plan *plan,
			   const struct rg_attached *links, size_t n_links,
			   struct rg_new_link *added, size_t *n_added, const struct rg_log *log,
			   char *err, size_t err_len)
{
	static struct rg_rail active[RG_MAX_RAILS];
	char dir[PATH_MAX], name[IF_NAMESIZE];
	int ret;

	ret = rg_datapath_active_rails(dp, active);
	if (ret) {
		rg_set_err(err, err_len, "cannot read the running rails: %s", strerror(-ret));
		return ret;
	}

	ret = rg_pin_links_dir(dir, sizeof(dir), dp->dir, err, err_len);
	if (ret)
		return ret;
	ret = mkdir_p(dir);
	if (ret)
		return rg_err(err, err_len, ret, "cannot create %s: %s", dir, strerror(-ret));
	for (size_t i = 0; i < plan->n_reps; i++) {
		const struct rg_plan_rep *pr = &plan->reps[i];
		struct rg_new_link *nl = &added[*n_added];
		const struct rg_old_link *old_xdp;
		struct rg_representor rep;

		if (find_link(links, n_links, pr->ifindex, pr->mode))
			continue;   /* already attached in this mode: never twice */
		/* An older railgate runs it in this mode: its program is swapped
		 * after the flip (rg_takeover_move), so no frame meets tables
		 * that are not active yet. */
		if (rg_takeover_holds(dp->takeover, pr->ifindex, (enum rg_attach_mode)pr->mode))
			continue;
		old_xdp = rg_takeover_other_xdp(dp->takeover, pr->ifindex,
						(enum rg_attach_mode)pr->mode);
		if (old_xdp) {
			rg_pin_detach(old_xdp->pin);
			rg_log_warn(log, "%s: detached the older railgate's XDP program to switch XDP "
				    "mode: frames pass unrouted until the new mode is attached", pr->name);
		}

		memset(nl, 0, sizeof(*nl));
		ret = rep_read(dp, pr->ifindex, &nl->old_rep);
		/*
		 * Classify before attaching, in the generation frames read now:
		 * the first frame already finds its rail.  An interface the
		 * running config knows (an XDP mode change) keeps its entry.
		 */
		if (!ret && !(nl->old_rep.flags & RG_REP_F_VALID)) {
			rep = rep_in_active(plan, pr, active);
			ret = rep_write(dp, pr->ifindex, &rep);
		}
		if (ret)
			return rg_err(err, err_len, ret, "%s: cannot write the representor entry: %s",
				      pr->name, strerror(-ret));

		/* Native and generic XDP cannot coexist on one device: an XDP
		 * mode change detaches first (a short gap, said in the log). */
		for (size_t j = 0; j < n_links; j++) {
			if (links[j].ifindex == pr->ifindex && !rg_attach_mode_is_tc(links[j].mode) &&
			    !rg_attach_mode_is_tc(pr->mode) && links[j].mode != pr->mode) {
				rg_pin_detach(links[j].pin);
				rg_log_warn(log, "%s: detached %s to switch XDP mode: frames pass "
					    "unrouted until the new mode is attached", pr->name,
					    rg_attach_mode_name(links[j].mode));
			}
		}
		nl->at = (struct rg_attached){ .ifindex = pr->ifindex, .alive = true,
					       .mode = (enum rg_attach_mode)pr->mode };
		ret = attach_one(dp, &nl->at, err, err_len);
		if (ret) {
			rep_write(dp, pr->ifindex, &nl->old_rep);
			return ret;
		}
		(*n_added)++;
		rg_log_info(log, "attached %s (rail %s) in %s mode", rg_ifname_str(pr->ifindex, name),
			    plan->rails[pr->rail_id].name, rg_attach_mode_name(pr->mode));
	}
	return 0;
}

static void rollback_new_links(struct rg_datapath *dp, struct rg_new_link *added, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		detach_attachment(dp, &added[i].at);
		rep_write(dp, added[i].at.ifindex, &added[i].old_rep);
	}
}

/*
 * After the flip: detach what the plan no longer has.  The new generation
 * has no entry for it; the retired generation's entry is cleared too, so no
 * generation names an interface railgate left.
 */
static void retire_links(struct rg_datapath *dp, const struct rg_plan *plan,
			 const struct rg_attached *links, size_t n_links, const struct rg_log *log)
{
	unsigned retired_gen = rg_map_set_active_gen(&dp->maps) ^ 1;
	char name[IF_NAMESIZE];

	for (size_t i = 0; i < n_links; i++) {
		const struct rg_plan_rep *pr = find_rep(plan, links[i].ifindex);

		/* kept, or re-attached at the same pin by attach_new_reps */
		if (pr && pr->mode == links[i].mode)
			continue;
		detach_attachment(dp, &links[i]);
		if (!pr) {
			rg_map_set_del_representor(&dp->maps, retired_gen,
						   (uint32_t)links[i].ifindex, NULL, 0);
			rg_log_info(log, "detached %s (%s)", rg_ifname_str(links[i].ifindex, name),
				    links[i].alive ? rg_attach_mode_name(links[i].mode) : "device gone");
		} else {
			rg_log_info(log, "detached %s from %s (now %s)", rg_ifname_str(links[i].ifindex, name),
				    rg_attach_mode_name(links[i].mode), rg_attach_mode_name(pr->mode));
		}
	}
}

int rg_datapath_apply(struct rg_datapath *dp, const struct rg_plan *plan,
		      const uint8_t digest[32], const struct rg_log *log, char *err, size_t err_len)
{
	struct rg_fib_image img = { 0 };
	struct rg_attached *links = NULL;
	struct rg_new_link *added = NULL;
	struct rg_rep_binding *bindings = NULL;
	struct rg_egress old_eg = { 0 };
	size_t n_links = 0, n_added = 0;
	unsigned next_gen;
	bool uplink_new;
	int ret;

	ret = rg_fib_compile(plan->routes, plan->n_routes, &img, err, err_len);
	if (ret)
		return ret;
	ret = rg_datapath_links(dp, &links, &n_links);
	if (ret) {
		rg_set_err(err, err_len, "cannot list the pinned links: %s", strerror(-ret));
		goto out;
	}
	added = calloc(plan->n_reps + 1, sizeof(*added));
	bindings = plan_bindings(plan);
	if (!added || !bindings) {
		ret = -ENOMEM;
		rg_set_err(err, err_len, "out of memory");
		goto out;
	}
	rg_datapath_active_egress(dp, &old_eg);
	next_gen = rg_map_set_active_gen(&dp->maps) ^ 1;

	/* 1. the new generation, invisible to the datapath until the flip */
	ret = rg_map_set_write_generation(&dp->maps, next_gen, &img, plan->rails,
					  &plan->egress, &plan->icmp, bindings, plan->n_reps, err, err_len);
	if (ret)
		goto out;
	/* 2. the uplink must accept redirects before any frame is sent there */
	uplink_new = !(old_eg.flags & RG_EGRESS_F_VALID) ||
		     old_eg.uplink_ifindex != plan->egress.uplink_ifindex;
	ret = uplink_add(dp, plan->egress.uplink_ifindex, err, err_len);
	if (ret)
		goto out;
	/* 3. new representors: entry in the running generation, then the link */
	ret = attach_new_reps(dp, plan, links, n_links, added, &n_added, log, err, err_len);
	if (ret) {
		rollback_new_links(dp, added, n_added);
		if (uplink_new)
			uplinks_retire(dp, old_eg.uplink_ifindex);
		goto out;
	}
	/* 4. the flip: one aligned store, from here on the new config runs */
	ret = rg_map_set_activate(&dp->maps, next_gen, digest);
	if (ret) {
		rg_set_err(err, err_len, "cannot activate the new tables: %s", strerror(-ret));
		rollback_new_links(dp, added, n_added);
		goto out;
	}
	/* 4b. an older railgate's interfaces: onto this program, now that
	 * its tables are active (on failure they all go back) */
	if (dp->takeover) {
		ret = rg_takeover_move(dp->takeover, dp->dir, dp->prog_fd, plan, log, err, err_len);
		if (ret) {
			rollback_new_links(dp, added, n_added);
			goto out;
		}
	}
	/* 5. retire what the old config had and the new one does not */
	retire_links(dp, plan, links, n_links, log);
	uplinks_retire(dp, plan->egress.uplink_ifindex);
	ret = 0;
out:
	free(bindings);
	free(added);
	free(links);
	rg_fib_image_free(&img);
	return ret;
}

void rg_datapath_finish_takeover(struct rg_datapath *dp, const struct rg_log *log)
{
	rg_takeover_finish(dp->takeover, &dp->maps, rg_prog_id(dp->prog_fd[RG_PROG_TC]), log);
}

/* Detach every link pinned in dir (synchronously, see rg_pin_detach). */
static void detach_links_in(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		char pin[PATH_MAX];

		if (de->d_name[0] == '.' || rg_pin_child(pin, sizeof(pin), dir, de->d_name, NULL, 0))
			continue;
		rg_pin_detach(pin);
	}
	closedir(d);
}

/* Detach the links pinned under vdir/links and unpin them. */
static void detach_version_links(const char *vdir)
{
	char links[PATH_MAX];

	if (rg_pin_links_dir(links, sizeof(links), vdir, NULL, 0))
		return;
	detach_links_in(links);
	rg_pin_tree_remove(links);
}

/*
 * Remove railgate's clsact filters from the interfaces that the pinned
 * representor map of version dir vdir records as clsact (except those not
 * running only_prog_id or running keep_prog_id, when set).  Only this map
 * is opened, so a half-broken state (another pin missing) still comes
 * down.  The clsact qdiscs stay: railgate cannot tell one it created from
 * one that was there before, and an empty clsact costs nothing.
 */
static void detach_clsact_in(const char *vdir, __u32 only_prog_id, __u32 keep_prog_id)
{
	char pin[PATH_MAX];
	__u32 prog_id = 0;
	size_t count;
	int *ifindexes;
	int fd;

	/* the pinned program's id, when its pin is still there (see rg_clsact_query) */
	if (!rg_pin_prog(pin, sizeof(pin), vdir, RG_PROG_TC, NULL, 0)) {
		fd = bpf_obj_get(pin);
		if (fd >= 0) {
			prog_id = rg_prog_id(fd);
			close(fd);
		}
	}
	/* any version whose representor entries have this ABI's layout */
	if (!rg_map_pins_clsact_ifindexes(vdir, &ifindexes, &count))
		rg_clsact_detach_each(ifindexes, count, prog_id, only_prog_id, keep_prog_id);
	free(ifindexes);
}

int rg_datapath_discard(struct rg_datapath *dp)
{
	char links[PATH_MAX];

	if (!rg_pin_links_dir(links, sizeof(links), dp->dir, NULL, 0))
		detach_links_in(links);
	/* exactly this load's filters: a filter put back on an older
	 * version's program (rg_takeover_revert) is that version's */
	detach_clsact_in(dp->dir, rg_prog_id(dp->prog_fd[RG_PROG_TC]), 0);
	rg_pin_tree_remove(dp->dir);
	return 0;
}

int rg_datapath_down(struct rg_datapath *dp, const struct rg_log *log, char *err, size_t err_len)
{
	struct dirent *de;
	DIR *d;
	int found = 0;

	d = opendir(dp->root);
	if (!d) {
		if (errno == ENOENT)
			return 0;
		rg_set_err(err, err_len, "cannot read %s: %s", dp->root, strerror(errno));
		return -errno;
	}
	/* Links first, so frames stop going through the program before its
	 * maps disappear; then every versioned directory. */
	while ((de = readdir(d))) {
		char dir[PATH_MAX];

		if ((!rg_pin_is_staging(de->d_name) && !rg_pin_looks_versioned(de->d_name)) ||
		    rg_pin_child(dir, sizeof(dir), dp->root, de->d_name, NULL, 0))
			continue;
		if (rg_pin_is_staging(de->d_name)) {
			rg_pin_tree_remove(dir);   /* a fresh load killed before its rename: no links */
			continue;
		}
		detach_version_links(dir);
		detach_clsact_in(dir, 0, 0);
		rg_pin_tree_remove(dir);
		found++;
	}
	closedir(d);
	/* The root stays: it is what loaders lock (lock_root). */
	rg_log_info(log, found ? "railgate is down: detached and unpinned everything under %s"
			       : "railgate was not up (nothing pinned under %s)", dp->root);
	return 0;
}
