// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Attach through links; see attach.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <net/if.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>

#include "attach.h"

/* Debian 12's UAPI headers are 6.1; tcx arrived in 6.6. Values from the
 * kernel's include/uapi/linux/bpf.h. */
#ifndef BPF_TCX_INGRESS
#define RG_BPF_TCX_INGRESS 46
#else
#define RG_BPF_TCX_INGRESS BPF_TCX_INGRESS
#endif

static const char *ifname_or_index(int ifindex, char *buf)
{
	if (!if_indextoname((unsigned)ifindex, buf))
		snprintf(buf, IF_NAMESIZE, "ifindex %d", ifindex);
	return buf;
}

static int attach_xdp(int prog_fd, int ifindex, __u32 flags, int *link_fd,
		      char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_link_create_opts, opts, .flags = flags);
	char name[IF_NAMESIZE];
	int fd = bpf_link_create(prog_fd, ifindex, BPF_XDP, &opts);

	if (fd >= 0) {
		*link_fd = fd;
		return 0;
	}
	fd = -errno;
	ifname_or_index(ifindex, name);
	if (fd == -EBUSY || fd == -EEXIST)
		snprintf(err, errlen, "%s: another XDP program is attached (not railgate's); "
			 "railgate never replaces it", name);
	else if (fd == -EOPNOTSUPP && (flags & XDP_FLAGS_DRV_MODE))
		snprintf(err, errlen, "%s: the driver has no native XDP", name);
	else
		snprintf(err, errlen, "%s: attaching XDP (%s mode) failed: %s", name,
			 (flags & XDP_FLAGS_SKB_MODE) ? "generic" : "native", strerror(-fd));
	return fd;
}

static int attach_tcx(int prog_fd, int ifindex, int *link_fd, char *err, size_t errlen)
{
	char name[IF_NAMESIZE];
	int fd = bpf_link_create(prog_fd, ifindex, RG_BPF_TCX_INGRESS, NULL);

	if (fd >= 0) {
		*link_fd = fd;
		return 0;
	}
	fd = -errno;
	snprintf(err, errlen, "%s: attaching the tc (tcx ingress) program failed: %s%s",
		 ifname_or_index(ifindex, name), strerror(-fd),
		 fd == -EINVAL ? " (tcx needs Linux 6.6 or later)" : "");
	return fd;
}

int rg_attach_link(int prog_fd, int ifindex, enum rg_attach_mode mode, int *link_fd,
		   char *err, size_t errlen)
{
	switch (mode) {
	case RG_MODE_XDP:
		return attach_xdp(prog_fd, ifindex, XDP_FLAGS_DRV_MODE, link_fd, err, errlen);
	case RG_MODE_XDP_GENERIC:
		return attach_xdp(prog_fd, ifindex, XDP_FLAGS_SKB_MODE, link_fd, err, errlen);
	case RG_MODE_TC:
		return attach_tcx(prog_fd, ifindex, link_fd, err, errlen);
	case RG_MODE_NONE:
		break;
	}
	snprintf(err, errlen, "no attach mode chosen for ifindex %d", ifindex);
	return -EINVAL;
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
