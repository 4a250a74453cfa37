// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Attach through links, or clsact filters where tcx is missing; see attach.h. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "loader/kernel/attach.h"
#include "maps/pins.h"
#include "lib/ifname.h"
#include "lib/errbuf.h"

/* Debian 12's UAPI headers are 6.1; tcx arrived in 6.6. Values from the
 * kernel's include/uapi/linux/bpf.h. */
#ifndef BPF_TCX_INGRESS
#define RG_BPF_TCX_INGRESS 46
#else
#define RG_BPF_TCX_INGRESS BPF_TCX_INGRESS
#endif

static int attach_xdp(int prog_fd, int ifindex, __u32 flags, int *link_fd,
		      char *err, size_t err_len)
{
	LIBBPF_OPTS(bpf_link_create_opts, opts, .flags = flags);
	char name[IF_NAMESIZE];
	int fd = bpf_link_create(prog_fd, ifindex, BPF_XDP, &opts);

	if (fd >= 0) {
		*link_fd = fd;
		return 0;
	}
	fd = -errno;
	rg_ifname_str(ifindex, name);
	if (fd == -EBUSY || fd == -EEXIST)
		rg_set_err(err, err_len, "%s: another XDP program is attached (not railgate's); "
			   "railgate never replaces it", name);
	else if (fd == -EOPNOTSUPP && (flags & XDP_FLAGS_DRV_MODE))
		rg_set_err(err, err_len, "%s: the driver has no native XDP", name);
	else
		rg_set_err(err, err_len, "%s: attaching XDP (%s mode) failed: %s", name,
			   (flags & XDP_FLAGS_SKB_MODE) ? "generic" : "native", strerror(-fd));
	return fd;
}

static int attach_tcx(int prog_fd, int ifindex, int *link_fd, char *err, size_t err_len)
{
	char name[IF_NAMESIZE];
	int fd = bpf_link_create(prog_fd, ifindex, RG_BPF_TCX_INGRESS, NULL);

	if (fd >= 0) {
		*link_fd = fd;
		return 0;
	}
	fd = -errno;
	rg_set_err(err, err_len, "%s: attaching the tc (tcx ingress) program failed: %s%s",
		   rg_ifname_str(ifindex, name), strerror(-fd),
		   fd == -EINVAL ? " (tcx needs Linux 6.6 or later)" : "");
	return fd;
}

int rg_attach_link(int prog_fd, int ifindex, enum rg_attach_mode mode, int *link_fd,
		   char *err, size_t err_len)
{
	switch (mode) {
	case RG_MODE_XDP:
		return attach_xdp(prog_fd, ifindex, XDP_FLAGS_DRV_MODE, link_fd, err, err_len);
	case RG_MODE_XDP_GENERIC:
		return attach_xdp(prog_fd, ifindex, XDP_FLAGS_SKB_MODE, link_fd, err, err_len);
	case RG_MODE_TC:
		return attach_tcx(prog_fd, ifindex, link_fd, err, err_len);
	case RG_MODE_TC_CLSACT:
		rg_set_err(err, err_len, "ifindex %d: a clsact filter is not a link "
			   "(use rg_clsact_attach)", ifindex);
		return -EINVAL;
	case RG_MODE_NONE:
		break;
	}
	return rg_err(err, err_len, -EINVAL, "no attach mode chosen for ifindex %d", ifindex);
}

int rg_link_ifindex(int link_fd)
{
	struct bpf_link_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(link_fd, &info, &len))
		return -errno;
	/* xdp.ifindex and tcx.ifindex share the union's first word. */
	return (int)info.xdp.ifindex;
}

/* ---- tc without tcx: railgate's clsact filter ----------------------------- */

bool rg_attach_mode_is_tc(enum rg_attach_mode mode)
{
	return mode == RG_MODE_TC || mode == RG_MODE_TC_CLSACT;
}

/* Kernels before 6.6 know no tcx attach type and refuse even a query of it
 * with EINVAL; the query changes nothing on the device. */
bool rg_kernel_has_tcx(int probe_ifindex)
{
	__u32 count = 0;
	/* lo (ifindex 1) exists in every namespace when there is nothing to probe */
	int ifindex = probe_ifindex > 0 ? probe_ifindex : 1;

	return bpf_prog_query(ifindex, RG_BPF_TCX_INGRESS, 0, NULL, NULL, &count) == 0 ||
	       errno != EINVAL;
}

static void ingress_hook(struct bpf_tc_hook *hook, int ifindex)
{
	memset(hook, 0, sizeof(*hook));
	hook->sz = sizeof(*hook);
	hook->ifindex = ifindex;
	hook->attach_point = BPF_TC_INGRESS;
}

static void our_filter(struct bpf_tc_opts *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->sz = sizeof(*opts);
	opts->handle = RG_TC_HANDLE;
	opts->priority = RG_TC_PRIORITY;
}

/*
 * libbpf prints the kernel's extended ack of every refused tc request on
 * stderr.  Asking whether a filter or a qdisc is there is refused whenever
 * it is not, which is no error: those questions go out with that one kind
 * of message muted, everything else still reaches the previous printer.
 * Only the thread that applies a config asks, so the swap does not race.
 */
static libbpf_print_fn_t loud_print;

static int print_but_kernel_acks(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_WARN && strstr(fmt, "Kernel error message"))
		return 0;
	return loud_print ? loud_print(level, fmt, ap) : 0;
}

static void mute_kernel_acks(void)
{
	loud_print = libbpf_set_print(print_but_kernel_acks);
}

static void unmute_kernel_acks(void)
{
	libbpf_set_print(loud_print);
}

__u32 rg_prog_id(int prog_fd)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (prog_fd < 0 || bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return 0;
	return info.id;
}

/*
 * Ours: the program railgate runs now, or one called railgate_tc (a filter
 * left by an earlier load of the programs).  The name needs
 * BPF_PROG_GET_FD_BY_ID, which takes CAP_SYS_ADMIN: the capability-only
 * DaemonSet recognises its own filter by the id alone.
 */
static bool prog_is_ours(__u32 prog_id, __u32 our_prog_id)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	int fd;
	bool ours;

	if (our_prog_id && prog_id == our_prog_id)
		return true;
	fd = bpf_prog_get_fd_by_id(prog_id);
	if (fd < 0)
		return false;
	memset(&info, 0, sizeof(info));
	ours = !bpf_obj_get_info_by_fd(fd, &info, &len) &&
	       !strncmp(info.name, RG_TC_PROG_NAME, sizeof(info.name));
	close(fd);
	return ours;
}

/* What sits at railgate's handle and priority on ifindex's ingress. */
enum filter_slot { SLOT_EMPTY, SLOT_OURS, SLOT_FOREIGN };

/* The program id at railgate's handle and priority on ifindex, by tc. */
static int query_filter(int ifindex, __u32 *prog_id)
{
	struct bpf_tc_hook hook;
	struct bpf_tc_opts opts;
	int ret;

	ingress_hook(&hook, ifindex);
	our_filter(&opts);
	mute_kernel_acks();
	ret = bpf_tc_query(&hook, &opts);
	unmute_kernel_acks();
	*prog_id = ret ? 0 : opts.prog_id;
	return ret;
}

static int query_slot(int ifindex, __u32 our_prog_id, enum filter_slot *slot)
{
	__u32 prog_id;
	int ret = query_filter(ifindex, &prog_id);

	if (ret == -ENOENT || ret == -EINVAL || ret == -ENODEV) {
		/* no filter there, no clsact qdisc (EINVAL), or no device */
		*slot = SLOT_EMPTY;
		return 0;
	}
	if (ret)
		return ret;
	*slot = prog_is_ours(prog_id, our_prog_id) ? SLOT_OURS : SLOT_FOREIGN;
	return 0;
}

int rg_clsact_query(int ifindex, __u32 our_prog_id)
{
	enum filter_slot slot;
	int ret = query_slot(ifindex, our_prog_id, &slot);

	return ret ? ret : slot == SLOT_OURS;
}

__u32 rg_clsact_prog_id(int ifindex)
{
	__u32 prog_id;

	query_filter(ifindex, &prog_id);
	return prog_id;
}

static int foreign_slot_err(const char *name, char *err, size_t err_len)
{
	rg_set_err(err, err_len, "%s: another tc filter holds railgate's handle 0x%x and "
		   "priority 0x%x; railgate never replaces it", name, RG_TC_HANDLE, RG_TC_PRIORITY);
	return -EEXIST;
}

int rg_clsact_attach(int prog_fd, int ifindex, char *err, size_t err_len)
{
	struct bpf_tc_hook hook;
	struct bpf_tc_opts opts;
	enum filter_slot slot;
	char name[IF_NAMESIZE];
	int ret;

	rg_ifname_str(ifindex, name);
	ingress_hook(&hook, ifindex);
	/* clsact may be there already (another tool's, or ours): reuse it */
	mute_kernel_acks();
	ret = bpf_tc_hook_create(&hook);
	unmute_kernel_acks();
	if (ret && ret != -EEXIST)
		return rg_err(err, err_len, ret, "%s: cannot create the clsact qdisc: %s", name,
			      strerror(-ret));
	ret = query_slot(ifindex, rg_prog_id(prog_fd), &slot);
	if (ret)
		return rg_err(err, err_len, ret, "%s: cannot list the tc ingress filters: %s", name,
			      strerror(-ret));
	if (slot == SLOT_FOREIGN)
		return foreign_slot_err(name, err, err_len);
	our_filter(&opts);
	opts.prog_fd = prog_fd;
	if (slot == SLOT_OURS)
		opts.flags = BPF_TC_F_REPLACE;
	ret = bpf_tc_attach(&hook, &opts);
	/* a filter tc cannot describe as eBPF (classic BPF) looks empty to
	 * query_slot; the exclusive create still refuses to replace it */
	if (ret == -EEXIST)
		return foreign_slot_err(name, err, err_len);
	if (ret)
		rg_set_err(err, err_len, "%s: attaching the tc (clsact ingress) filter failed: %s",
			   name, strerror(-ret));
	return ret;
}

int rg_clsact_detach(int ifindex, __u32 our_prog_id)
{
	struct bpf_tc_hook hook;
	struct bpf_tc_opts opts;
	enum filter_slot slot;
	int ret = query_slot(ifindex, our_prog_id, &slot);

	if (ret || slot != SLOT_OURS)
		return ret;
	ingress_hook(&hook, ifindex);
	our_filter(&opts);
	ret = bpf_tc_detach(&hook, &opts);
	return ret == -ENOENT ? 0 : ret;
}

void rg_clsact_detach_each(const int *ifindexes, size_t count, __u32 our_prog_id,
			   __u32 only_prog_id, __u32 keep_prog_id)
{
	for (size_t i = 0; i < count; i++) {
		__u32 running = rg_clsact_prog_id(ifindexes[i]);

		if ((only_prog_id && running != only_prog_id) ||
		    (keep_prog_id && running == keep_prog_id))
			continue;
		rg_clsact_detach(ifindexes[i], our_prog_id);
	}
}

void rg_pin_detach(const char *pin)
{
	/* Detach explicitly before unpinning: dropping the last reference
	 * frees the link only when the pin's inode is evicted, later, so the
	 * program would still run for a moment after `down` returned. */
	int fd = bpf_obj_get(pin);

	if (fd >= 0) {
		bpf_link_detach(fd);
		close(fd);
	}
	unlink(pin);
}

int rg_link_pin_copy(const char *from, const char *to)
{
	int ret = 0, fd = bpf_obj_get(from);

	if (fd < 0)
		return -errno;
	unlink(to);
	if (bpf_obj_pin(fd, to))
		ret = -errno;
	close(fd);
	return ret;
}

void rg_pin_tree_remove(const char *path)
{
	struct dirent *de;
	DIR *d = opendir(path);

	if (!d) {
		unlink(path);
		return;
	}
	while ((de = readdir(d))) {
		char child[PATH_MAX];

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (!rg_pin_child(child, sizeof(child), path, de->d_name, NULL, 0))
			rg_pin_tree_remove(child);
	}
	closedir(d);
	rmdir(path);
}
