// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * What a frame costs the datapath, measured with BPF_PROG_TEST_RUN's
 * duration (the kernel's average ns per repetition): the cheapest XDP
 * program, a bare devmap redirect, and railgate's cross-rail verdict with
 * 16, 1k and 64k prefixes.  Prints "# cost ..." and "# size ..." lines and
 * asserts only that the runs succeed and give the expected verdict: timing
 * on a shared 2-core machine is a number to read, not to gate on.
 *
 * The target (shared task): cross-rail <= 2x a bare redirect, flat in the
 * table size.  Destinations are spread over the table, one per call; each
 * call repeats at most RUN_REPEAT times, since the program decrements the
 * TTL of the same buffer on every repetition (TTL starts at 255).
 */
#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench_baseline.skel.h"
#include "railgate.skel.h"
#include "maps/fib.h"
#include "maps/map_set.h"
#include "tests/lib/frames.h"

#define RUN_REPEAT  250
/* A test_run with repeat > 1 flips the XDP dispatcher static key twice
 * (~16 ms here): keep the number of calls small. */
#define RUN_CALLS   100
#define FRAME_LEN   98

static struct {
	int rep_ifindex, uplink_ifindex;
	struct bench_baseline *base;
	struct railgate *rg;
	struct rg_map_set ms;
} B;

static int group_setup(void **state)
{
	char err[256];

	if (unshare(CLONE_NEWNET) ||
	    system("ip link add rgc-rep0 type veth peer name rgc-rep0p") ||
	    system("ip link add rgc-up type veth peer name rgc-upp"))
		return -1;
	B.rep_ifindex = (int)if_nametoindex("rgc-rep0");
	B.uplink_ifindex = (int)if_nametoindex("rgc-up");

	B.base = bench_baseline__open();
	if (!B.base)
		return -1;
	B.base->rodata->bench_uplink_ifindex = (uint32_t)B.uplink_ifindex;
	if (bench_baseline__load(B.base))
		return -1;
	{
		struct bpf_devmap_val val = { .ifindex = (uint32_t)B.uplink_ifindex };
		uint32_t key = (uint32_t)B.uplink_ifindex;

		if (bpf_map_update_elem(bpf_map__fd(B.base->maps.bench_tx_ports), &key, &val,
					BPF_ANY))
			return -1;
	}

	B.rg = railgate__open_and_load();
	if (!B.rg || rg_map_set_from_object(&B.ms, B.rg->obj, err, sizeof(err)) ||
	    rg_map_set_put_tx_port(&B.ms, (uint32_t)B.uplink_ifindex, err, sizeof(err)))
		return -1;
	return 0;
}

static int group_teardown(void **state)
{
	rg_map_set_close(&B.ms);
	railgate__destroy(B.rg);
	bench_baseline__destroy(B.base);
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * RUN_CALLS test_runs of RUN_REPEAT repetitions, the destination of call i
 * from dst_of(i) (NULL: one fixed frame).  Returns the 10th percentile of
 * the per-call averages (ns per frame) and stores the median; every call
 * must return want.
 */
static uint32_t measure(int prog_fd, uint32_t (*dst_of)(unsigned i), int want,
			uint32_t *median)
{
	static uint32_t ns[RUN_CALLS];
	struct rg_frame_spec s;
	uint8_t frame[FRAME_LEN + 64];
	uint32_t len;

	rg_frame_spec_default(&s);
	s.ttl = 255;
	for (unsigned i = 0; i < RUN_CALLS; i++) {
		struct xdp_md ctx = { .ingress_ifindex = (uint32_t)B.rep_ifindex };
		LIBBPF_OPTS(bpf_test_run_opts, opts, .repeat = RUN_REPEAT);

		if (dst_of)
			s.daddr = dst_of(i);
		len = (uint32_t)rg_frame_build(frame, sizeof(frame), &s);
		ctx.data_end = len;
		opts.data_in = frame;
		opts.data_size_in = len;
		opts.ctx_in = &ctx;
		opts.ctx_size_in = sizeof(ctx);
		assert_int_equal(bpf_prog_test_run_opts(prog_fd, &opts), 0);
		assert_int_equal(opts.retval, want);
		ns[i] = opts.duration;
	}
	qsort(ns, RUN_CALLS, sizeof(ns[0]), cmp_u32);
	/* The 10th percentile: on a shared machine the slow calls measure the
	 * neighbours; the median is printed beside it. */
	*median = ns[RUN_CALLS / 2];
	return ns[RUN_CALLS / 10];
}

static void test_baselines(void **state)
{
	uint32_t p10, median;

	p10 = measure(bpf_program__fd(B.base->progs.bench_pass), NULL, XDP_PASS, &median);
	print_message("# cost xdp_pass %u ns/frame (median %u)\n", p10, median);
	p10 = measure(bpf_program__fd(B.base->progs.bench_redirect), NULL, XDP_REDIRECT,
		      &median);
	print_message("# cost bare_redirect %u ns/frame (median %u)\n", p10, median);
}

/* The table of the current measurement: prefix i is 10.(i>>8).(i&255).0/24
 * (i >= 1: 10.0.0.0/24 is the ingress rail), every 64th a /28 instead. */
static unsigned n_prefixes;

static uint32_t prefix_addr(unsigned i)
{
	return 0x0a000000u | i << 8;
}

static uint8_t prefix_len(unsigned i)
{
	return i % 64 == 0 ? 28 : 24;
}

static uint32_t spread_dst(unsigned call)
{
	/* A cheap scramble so consecutive calls hit unrelated slots. */
	unsigned i = 1 + (unsigned)((call * 2654435761u) % n_prefixes);

	return prefix_addr(i) | (prefix_len(i) == 28 ? 5 : (call * 7) & 0xff);
}

static void load_table(unsigned n)
{
	struct rg_route *routes = calloc(n + 2, sizeof(*routes));
	struct rg_rail rails[RG_MAX_RAILS] = { 0 };
	struct rg_egress eg = { .uplink_ifindex = (uint32_t)B.uplink_ifindex,
				.flags = RG_EGRESS_F_VALID | RG_EGRESS_F_ANTI_SPOOF,
				.uplink_mac = { 2, 0, 0, 0, 0, 2 },
				.gateway_mac = { 2, 0, 0, 0, 0, 1 } };
	const struct rg_rep_binding rep = { .ifindex = (uint32_t)B.rep_ifindex, .rail_id = 0,
					    .mode = RG_MODE_XDP };
	struct rg_fib_image img = { 0 };
	unsigned gen = rg_map_set_active_gen(&B.ms) ^ 1;
	size_t k = 0;
	char err[256];

	assert_non_null(routes);
	n_prefixes = n;
	routes[k++] = (struct rg_route){ 0x0a000000, 8, RG_ROUTE(RG_ROUTE_BLACKHOLE, 0) };
	routes[k++] = (struct rg_route){ 0x0a000000, 24, RG_ROUTE(RG_ROUTE_RAIL, 0) };
	for (unsigned i = 1; i <= n && i < 65536; i++)
		routes[k++] = (struct rg_route){ prefix_addr(i), prefix_len(i),
						 RG_ROUTE(RG_ROUTE_RAIL, 1 + i % 254) };
	if (rg_fib_compile(routes, k, &img, err, sizeof(err)))
		fail_msg("compile %u prefixes: %s", n, err);
	rails[0] = (struct rg_rail){ .subnet = 0x0a000000, .mask = 0xffffff00,
				     .flags = RG_RAIL_F_VALID };
	if (B.ms.state->config_generation == 0)
		gen = 0;
	if (rg_map_set_write_generation(&B.ms, gen, &img, rails, &eg, NULL, &rep, 1, err, sizeof(err)))
		fail_msg("write: %s", err);
	assert_int_equal(rg_map_set_activate(&B.ms, gen, NULL), 0);
	rg_fib_image_free(&img);
	free(routes);
}

static void test_railgate_cross_rail(void **state)
{
	static const unsigned sizes[] = { 16, 1024, 65535 };
	int fd = bpf_program__fd(B.rg->progs.railgate_xdp);

	uint32_t p10, median;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		load_table(sizes[i]);
		p10 = measure(fd, spread_dst, XDP_REDIRECT, &median);
		print_message("# cost railgate_xdp cross_rail %u prefixes %u ns/frame "
			      "(median %u)\n", sizes[i] + 2, p10, median);
	}
}

static void print_size(const char *name, int fd)
{
	struct bpf_prog_info info = { 0 };
	uint32_t len = sizeof(info);

	assert_int_equal(bpf_obj_get_info_by_fd(fd, &info, &len), 0);
	print_message("# size %s xlated %u B (%u insns) jited %u B\n", name,
		      info.xlated_prog_len, info.xlated_prog_len / 8, info.jited_prog_len);
}

static void test_program_sizes(void **state)
{
	print_size("railgate_xdp", bpf_program__fd(B.rg->progs.railgate_xdp));
	print_size("railgate_tc", bpf_program__fd(B.rg->progs.railgate_tc));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_baselines),
		cmocka_unit_test(test_railgate_cross_rail),
		cmocka_unit_test(test_program_sizes),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
