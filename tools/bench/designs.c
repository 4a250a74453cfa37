// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The designs under test and how each is driven.  The generator always
 * runs first (bench_gen.bpf.c) and then, by tail call, either the
 * forwarder itself (the XDP designs: live frames run the program given to
 * BPF_PROG_RUN, with ingress = the representor) or XDP_PASS, which hands
 * the frame to the stack as an skb on the representor, where the TC
 * program, the generic-mode XDP program or Linux forwarding takes it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "tools/bench/bench.h"
#include "bench_baseline.skel.h"
#include "bench_fwd.skel.h"
#include "bench_gen.skel.h"
#include "bench_sink.skel.h"
#include "railgate.skel.h"
#include "loader/kernel/attach.h"

const struct design_info bench_designs[D_COUNT] = {
	[D_XDP_REDIRECT]   = { "xdp_redirect", "bare XDP redirect", D_XDP_REDIRECT },
	[D_TC_REDIRECT]    = { "tc_redirect", "bare TC redirect", D_TC_REDIRECT },
	[D_KERNEL]         = { "kernel", "Linux IPv4 forwarding", D_KERNEL },
	[D_FIB]            = { "fib_lookup", "bpf_fib_lookup forwarder (XDP)", D_XDP_REDIRECT },
	[D_RG_XDP]         = { "railgate_xdp", "railgate native XDP", D_XDP_REDIRECT },
	[D_RG_XDP_GENERIC] = { "railgate_xdp_generic", "railgate generic XDP", D_XDP_REDIRECT },
	[D_RG_TC]          = { "railgate_tc", "railgate TC (tcx)", D_TC_REDIRECT },
};

/* How the generator reaches a design. */
struct drive {
	bool frags;                   /* the target is an xdp.frags program */
	int  target_fd;               /* what the generator tail-calls */
	int  attach_fd;               /* attached to the representor, or -1 */
	enum rg_attach_mode attach_mode;
};

static struct drive drive_of(const struct bench_env *env, enum bench_design d)
{
	int pass = bpf_program__fd(env->base->progs.bench_pass);
	struct drive v = { .frags = false, .target_fd = pass, .attach_fd = -1,
			   .attach_mode = RG_MODE_NONE };

	switch (d) {
	case D_XDP_REDIRECT:
		v.target_fd = bpf_program__fd(env->base->progs.bench_redirect);
		break;
	case D_FIB:
		v.target_fd = bpf_program__fd(env->fwd->progs.fwd_xdp);
		break;
	case D_RG_XDP:
		v.frags = true;
		v.target_fd = bpf_program__fd(env->rg->progs.railgate_xdp);
		break;
	case D_TC_REDIRECT:
		v.attach_fd = bpf_program__fd(env->fwd->progs.tc_redirect);
		v.attach_mode = RG_MODE_TC;
		break;
	case D_RG_XDP_GENERIC:
		v.attach_fd = bpf_program__fd(env->rg->progs.railgate_xdp);
		v.attach_mode = RG_MODE_XDP_GENERIC;
		break;
	case D_RG_TC:
		v.attach_fd = bpf_program__fd(env->rg->progs.railgate_tc);
		v.attach_mode = RG_MODE_TC;
		break;
	case D_KERNEL:
	case D_COUNT:
		break;
	}
	return v;
}

int bench_design_start(struct bench_env *env, enum bench_design d, int *gen_fd,
		       char *err, size_t err_len)
{
	struct drive v = drive_of(env, d);
	struct bpf_map *next = v.frags ? env->gen->maps.gen_next_frags : env->gen->maps.gen_next;
	uint32_t key = 0;
	int ret;

	if (bpf_map_update_elem(bpf_map__fd(next), &key, &v.target_fd, BPF_ANY)) {
		ret = -errno;
		snprintf(err, err_len, "%s: cannot put the design into the generator's prog array: %s",
			 bench_designs[d].name, strerror(-ret));
		return ret;
	}
	*gen_fd = bpf_program__fd(v.frags ? env->gen->progs.gen_xdp_frags
					  : env->gen->progs.gen_xdp);
	if (v.attach_fd < 0)
		return 0;
	return rg_attach_link(v.attach_fd, env->rep_ifindex, v.attach_mode,
			      &env->design_link, err, err_len);
}

void bench_design_stop(struct bench_env *env)
{
	if (env->design_link >= 0)
		close(env->design_link);    /* an unpinned link detaches with its fd */
	env->design_link = -1;
}

static int put_devmap(int map_fd, int ifindex, const char *what, char *err, size_t err_len)
{
	struct bpf_devmap_val val = { .ifindex = (uint32_t)ifindex };
	uint32_t key = (uint32_t)ifindex;

	if (!bpf_map_update_elem(map_fd, &key, &val, BPF_ANY))
		return 0;
	snprintf(err, err_len, "%s: cannot add the uplink to its devmap: %s", what, strerror(errno));
	return -errno;
}

static int load_generator(struct bench_env *env, char *err, size_t err_len)
{
	env->gen = bench_gen__open();
	if (!env->gen)
		goto fail;
	memcpy((void *)env->gen->rodata->gen_eth_dst, env->rep_mac, 6);
	/* A locally administered MAC for "the pod". */
	memcpy((void *)env->gen->rodata->gen_eth_src, "\x02\x00\x00\x00\x0a\x0a", 6);
	env->gen->rodata->gen_saddr = htonl(env->pod_ip);
	if (bench_gen__load(env->gen))
		goto fail;
	return 0;
fail:
	snprintf(err, err_len, "cannot load the generator (bench_gen.bpf.o): %s", strerror(errno));
	return -errno ? -errno : -EINVAL;
}

static int load_baselines(struct bench_env *env, char *err, size_t err_len)
{
	env->base = bench_baseline__open();
	env->fwd = bench_fwd__open();
	env->sink = bench_sink__open_and_load();
	if (!env->base || !env->fwd || !env->sink)
		goto fail;
	env->base->rodata->bench_uplink_ifindex = (uint32_t)env->uplink_ifindex;
	env->fwd->rodata->tc_uplink_ifindex = (uint32_t)env->uplink_ifindex;
	if (bench_baseline__load(env->base) || bench_fwd__load(env->fwd))
		goto fail;
	if (put_devmap(bpf_map__fd(env->base->maps.bench_tx_ports), env->uplink_ifindex,
		       "bench_redirect", err, err_len) ||
	    put_devmap(bpf_map__fd(env->fwd->maps.fwd_tx_ports), env->uplink_ifindex,
		       "fwd_xdp", err, err_len))
		return -EIO;
	return 0;
fail:
	snprintf(err, err_len, "cannot load the baselines (bench_baseline, bench_fwd, bench_sink): %s",
		 strerror(errno));
	return -errno ? -errno : -EINVAL;
}

/* railgate's object with its maps, as loader/datapath/datapath.c would fill them:
 * the uplink in the tx ports (the representor entry, in rail 0, is part of
 * every generation bench_rg_table writes). */
static int load_railgate(struct bench_env *env, char *err, size_t err_len)
{
	int64_t before = bench_kernel_mem_bytes();
	int ret;

	env->rg = railgate__open_and_load();
	env->rg_kernel_bytes = bench_kernel_mem_bytes() - before;
	if (!env->rg) {
		ret = -errno;
		snprintf(err, err_len, "cannot load railgate.bpf.o: %s", strerror(-ret));
		return ret;
	}
	ret = rg_map_set_from_object(&env->ms, env->rg->obj, err, err_len);
	if (!ret)
		ret = rg_map_set_put_tx_port(&env->ms, (uint32_t)env->uplink_ifindex, err, err_len);
	return ret;
}

int bench_load(struct bench_env *env, const struct bench_opts *o, char *err, size_t err_len)
{
	int ret;

	env->sink_link = env->design_link = -1;
	for (unsigned p = 0; p < C_HELD_PROGS; p++)
		env->hold_link[p] = -1;
	rg_map_set_init(&env->ms);
	env->rep_ifindex = (int)if_nametoindex(o->rep_dev);
	env->uplink_ifindex = (int)if_nametoindex(o->uplink_dev);
	if (!env->rep_ifindex || !env->uplink_ifindex) {
		snprintf(err, err_len, "%s or %s: no such interface in netns %s", o->rep_dev,
			 o->uplink_dev, o->node_ns);
		return -ENODEV;
	}
	ret = bench_if_mac(o->rep_dev, env->rep_mac, err, err_len);
	if (!ret)
		ret = bench_if_mac(o->uplink_dev, env->uplink_mac, err, err_len);
	if (!ret)
		ret = load_generator(env, err, err_len);
	if (!ret)
		ret = load_baselines(env, err, err_len);
	if (!ret)
		ret = load_railgate(env, err, err_len);
	if (!ret)
		ret = bench_attach_sink(env, o, err, err_len);
	if (!ret)
		ret = bench_cost_hold(env, o, err, err_len);
	return ret;
}

void bench_unload(struct bench_env *env)
{
	bench_design_stop(env);
	bench_cost_release(env);
	if (env->sink_link >= 0)
		close(env->sink_link);
	env->sink_link = -1;
	rg_map_set_close(&env->ms);
	railgate__destroy(env->rg);
	bench_sink__destroy(env->sink);
	bench_fwd__destroy(env->fwd);
	bench_baseline__destroy(env->base);
	bench_gen__destroy(env->gen);
	env->rg = NULL;
	env->sink = NULL;
	env->fwd = NULL;
	env->base = NULL;
	env->gen = NULL;
}
