// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * One forwarding table per size, the same for every design: inside the
 * supernet 10.0.0.0/8, the ingress rail 10.0.0.0/24 and size - 1 /24
 * destination prefixes spread evenly over the /8 (stride 65536 / size),
 * each mapped onto one of the other rails.  railgate gets it through the
 * FIB compiler and map_set (the config allows at most 256 rails, so 64k
 * prefixes cannot come from a config); the kernel gets the same /24s as
 * static routes via the uplink's gateway, for Linux forwarding and the
 * bpf_fib_lookup forwarder.
 *
 * The generator's destinations visit every prefix, in a shuffled order,
 * with varying host bytes: many flows, the whole table warm and cold.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "tools/bench/bench.h"
#include "bench_gen.skel.h"
#include "maps/fib.h"

#define SUPERNET      0x0a000000u     /* 10.0.0.0/8 */
#define SUPERNET_LEN  8
#define INGRESS_RAIL  0
#define SLASH24_IN_8  65536u

unsigned bench_table_routes(unsigned size)
{
	return size - 1;
}

/* Destination prefix i (1 <= i < size) of a table of size prefixes. */
static uint32_t prefix_addr(unsigned size, unsigned i)
{
	return SUPERNET | (i * (SLASH24_IN_8 / size)) << 8;
}

/* A small deterministic PRNG (xorshift32): the same flows every run. */
static uint32_t next_rand(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

int bench_fill_dsts(struct bench_env *env, unsigned size, char *err, size_t err_len)
{
	int fd = bpf_map__fd(env->gen->maps.gen_dsts);
	unsigned routes = bench_table_routes(size);
	uint32_t seed = 0x9e3779b9u;

	for (unsigned j = 0; j < BENCH_DSTS; j++) {
		uint32_t host = 1 + (j * 7) % 250;

		env->dsts[j] = htonl(prefix_addr(size, 1 + j % routes) | host);
	}
	for (unsigned j = BENCH_DSTS - 1; j > 0; j--) {      /* Fisher-Yates */
		unsigned k = next_rand(&seed) % (j + 1);
		uint32_t t = env->dsts[j];

		env->dsts[j] = env->dsts[k];
		env->dsts[k] = t;
	}
	for (uint32_t j = 0; j < BENCH_DSTS; j++) {
		if (bpf_map_update_elem(fd, &j, &env->dsts[j], BPF_ANY)) {
			snprintf(err, err_len, "gen_dsts[%u]: %s", j, strerror(errno));
			return -errno;
		}
	}
	return 0;
}

static int rg_routes(unsigned size, struct rg_route **out, size_t *count)
{
	unsigned routes = bench_table_routes(size);
	struct rg_route *r = calloc(routes + 2, sizeof(*r));
	size_t k = 0;

	if (!r)
		return -ENOMEM;
	r[k++] = (struct rg_route){ SUPERNET, SUPERNET_LEN, RG_ROUTE(RG_ROUTE_BLACKHOLE, 0) };
	r[k++] = (struct rg_route){ SUPERNET, 24, RG_ROUTE(RG_ROUTE_RAIL, INGRESS_RAIL) };
	for (unsigned i = 1; i <= routes; i++)
		r[k++] = (struct rg_route){ prefix_addr(size, i), 24,
					    RG_ROUTE(RG_ROUTE_RAIL, 1 + i % (RG_MAX_RAILS - 1)) };
	*out = r;
	*count = k;
	return 0;
}

static void rg_rails_and_egress(const struct bench_env *env, struct rg_rail *rails,
				struct rg_egress *eg)
{
	memset(rails, 0, sizeof(*rails) * RG_MAX_RAILS);
	for (unsigned r = 0; r < RG_MAX_RAILS; r++) {
		rails[r] = (struct rg_rail){ .subnet = SUPERNET | r << 8, .mask = 0xffffff00,
					     .flags = RG_RAIL_F_VALID };
		snprintf(rails[r].name, sizeof(rails[r].name), "rail%u", r);
	}
	*eg = (struct rg_egress){ .uplink_ifindex = (uint32_t)env->uplink_ifindex,
				  .flags = RG_EGRESS_F_VALID | RG_EGRESS_F_ANTI_SPOOF };
	memcpy(eg->uplink_mac, env->uplink_mac, 6);
	memcpy(eg->gateway_mac, env->sink_mac, 6);
}

/*
 * Compile and apply the table of size prefixes the way the loader does a
 * reload: write the inactive generation, then flip.  The two phases are
 * timed separately (ms).
 */
int bench_rg_table(struct bench_env *env, unsigned size, double *compile_ms,
		   double *write_ms, char *err, size_t err_len)
{
	static struct rg_rail rails[RG_MAX_RAILS];
	const struct rg_rep_binding rep = { .ifindex = (uint32_t)env->rep_ifindex,
					    .rail_id = 0, .mode = RG_MODE_XDP };
	struct rg_fib_image img = { 0 };
	struct rg_egress eg;
	struct rg_route *routes;
	size_t count;
	unsigned gen;
	double t0, t1;
	int ret;

	ret = rg_routes(size, &routes, &count);
	if (ret) {
		snprintf(err, err_len, "%u prefixes: out of memory", size);
		return ret;
	}
	rg_rails_and_egress(env, rails, &eg);
	t0 = bench_now();
	ret = rg_fib_compile(routes, count, &img, err, err_len);
	t1 = bench_now();
	free(routes);
	if (ret)
		return ret;
	/* Before any activation both generations are empty: write 0. */
	gen = env->ms.state->config_generation ? rg_map_set_active_gen(&env->ms) ^ 1 : 0;
	ret = rg_map_set_write_generation(&env->ms, gen, &img, rails, &eg, NULL, &rep, 1, err, err_len);
	if (!ret)
		ret = rg_map_set_activate(&env->ms, gen, NULL);
	*compile_ms = (t1 - t0) * 1e3;
	*write_ms = (bench_now() - t1) * 1e3;
	rg_fib_image_free(&img);
	if (ret && !err[0])
		snprintf(err, err_len, "activate generation %u: %s", gen, strerror(-ret));
	return ret;
}

/*
 * The same table in the kernel FIB of the node namespace (we are in it:
 * bench_enter_netns checked), as routes of protocol BENCH_ROUTE_PROTO,
 * through one `ip -batch`.  The previous size's routes are flushed first.
 */
int bench_kernel_routes(const struct bench_opts *o, unsigned size, char *err, size_t err_len)
{
	char cmd[128], gw[INET_ADDRSTRLEN];
	struct in_addr a = { .s_addr = htonl(o->gateway_ip) };
	FILE *ip;
	int rc;

	snprintf(cmd, sizeof(cmd), "ip route flush proto %d", BENCH_ROUTE_PROTO);
	if (system(cmd)) {
		snprintf(err, err_len, "`%s` failed", cmd);
		return -EIO;
	}
	inet_ntop(AF_INET, &a, gw, sizeof(gw));
	ip = popen("ip -batch -", "w");
	if (!ip) {
		snprintf(err, err_len, "cannot run ip: %s", strerror(errno));
		return -errno;
	}
	for (unsigned i = 1; i <= bench_table_routes(size); i++) {
		uint32_t p = prefix_addr(size, i);

		fprintf(ip, "route add %u.%u.%u.0/24 via %s dev %s proto %d\n", p >> 24,
			(p >> 16) & 0xff, (p >> 8) & 0xff, gw, o->uplink_dev, BENCH_ROUTE_PROTO);
	}
	rc = pclose(ip);
	if (rc) {
		snprintf(err, err_len, "ip -batch: adding %u routes failed (status %d)",
			 bench_table_routes(size), rc);
		return -EIO;
	}
	return 0;
}
