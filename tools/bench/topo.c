// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The benchmark's place in the world: the namespaces tools/bench/topology.sh
 * built, the interfaces in them, and the sink on the uplink's peer.
 * Everything that changes the network happens after bench_enter_netns has
 * proved we are no longer in the machine's own namespace.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <net/if.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "tools/bench/bench.h"
#include "bench_sink.skel.h"
#include "loader/kernel/attach.h"
#include "lib/netns.h"

int bench_netns_fd(const char *name, char *err, size_t err_len)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fd = -errno;
		snprintf(err, err_len, "netns %s: %s (build the topology with tools/bench/topology.sh)",
			 name, strerror(-fd));
	}
	return fd;
}

/*
 * name's namespace, refusing the one we run in: the benchmark adds routes
 * and attaches programs, so it must never act in the namespace it was
 * started in (the machine's, under make bench).
 */
static int open_other_netns(const char *name, char *err, size_t err_len)
{
	int fd = bench_netns_fd(name, err, err_len), same;

	if (fd < 0)
		return fd;
	same = rg_netns_is_self(fd);
	if (same) {
		snprintf(err, err_len, "netns %s: %s", name, same < 0 ? strerror(-same)
			 : "it is the namespace we run in: refusing");
		close(fd);
		return same < 0 ? same : -EPERM;
	}
	return fd;
}

/* setns into name for good, once open_other_netns has proved it is not
 * where we started. */
int bench_enter_netns(const char *name, char *err, size_t err_len)
{
	int fd = open_other_netns(name, err, err_len), ret;

	if (fd < 0)
		return fd;
	ret = rg_netns_enter(fd, NULL, 0);
	if (ret)
		snprintf(err, err_len, "setns %s: %s", name, strerror(-ret));
	close(fd);
	return ret;
}

int bench_if_mac(const char *dev, uint8_t mac[6], char *err, size_t err_len)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), ret = 0;

	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr)) {
		ret = -errno;
		snprintf(err, err_len, "%s: cannot read its MAC: %s", dev, strerror(-ret));
	} else {
		memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	}
	close(fd);
	return ret;
}

struct sink_attach {
	struct bench_env *env;
	const struct bench_opts *o;
};

/* In the sink namespace: the sink's MAC, then its program on the peer. */
static int attach_sink_here(void *arg, char *err, size_t err_len)
{
	struct sink_attach *sa = arg;
	int ifindex, ret;

	ret = bench_if_mac(sa->o->sink_dev, sa->env->sink_mac, err, err_len);
	ifindex = (int)if_nametoindex(sa->o->sink_dev);
	if (!ret && !ifindex) {
		ret = -ENODEV;
		snprintf(err, err_len, "%s in netns %s: no such interface", sa->o->sink_dev,
			 sa->o->sink_ns);
	}
	if (!ret)
		ret = rg_attach_link(bpf_program__fd(sa->env->sink->progs.sink_xdp), ifindex,
				     RG_MODE_XDP, &sa->env->sink_link, err, err_len);
	return ret;
}

/* Attach the sink to the uplink's peer in the sink namespace, then come
 * back: the link keeps working across namespaces and dies with our fd. */
int bench_attach_sink(struct bench_env *env, const struct bench_opts *o, char *err, size_t err_len)
{
	struct sink_attach sa = { .env = env, .o = o };
	int fd = open_other_netns(o->sink_ns, err, err_len), ret;

	if (fd < 0)
		return fd;
	ret = rg_in_netns(fd, attach_sink_here, &sa, err, err_len);
	close(fd);
	return ret;
}

int bench_read_sink(const struct bench_env *env, uint64_t *frames, uint64_t *ttl254)
{
	int ncpu = libbpf_num_possible_cpus(), fd = bpf_map__fd(env->sink->maps.sink_counts);
	uint64_t *v, sum[SINK_COUNTERS] = { 0 };

	if (ncpu <= 0)
		return -EINVAL;
	v = calloc((size_t)ncpu, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (uint32_t key = 0; key < SINK_COUNTERS; key++) {
		if (bpf_map_lookup_elem(fd, &key, v)) {
			free(v);
			return -errno;
		}
		for (int c = 0; c < ncpu; c++)
			sum[key] += v[c];
	}
	free(v);
	*frames = sum[SINK_FRAMES];
	*ttl254 = sum[SINK_TTL_254];
	return 0;
}
