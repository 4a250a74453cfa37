// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * libFuzzer: a config's bytes through everything `railgate check` runs
 * before the kernel: rg_config_parse, the per-node overrides, rg_plan_build
 * and rg_fib_compile.  Besides what ASan and UBSan catch, it checks:
 *
 *  - the diagnostics: none on success; on failure at least one and at most
 *    RG_CONFIG_MAX_ERRORS + 1, each naming the file;
 *  - a config that validates also plans and compiles (validation refused
 *    nothing the datapath cannot hold);
 *  - the compiled table answers like the tests' reference longest-prefix
 *    match (tests/lib/ref_lpm.c) over the plan's routes, at every route's
 *    edges and just outside them.
 *
 * Any failed check aborts: libFuzzer keeps the input as a crash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/config.h"
#include "maps/fib.h"
#include "loader/plan.h"
#include "tests/lib/ref_lpm.h"

#define FILE_NAME "fuzz.yaml"
/* Probes per input: the reference is linear, so a 65k-route table gets
 * evenly spaced routes' edges, not all of them. */
#define MAX_PROBED_ROUTES 256

#define require(cond) do { if (!(cond)) { \
	fprintf(stderr, "fuzz_config: %s:%d: %s\n", __FILE__, __LINE__, #cond); abort(); } } while (0)

static void probe(const struct rg_fib_image *img, const struct rg_route *r, size_t n,
		  uint32_t dst)
{
	uint32_t got = rg_fib_image_lookup(img, dst), want = rg_ref_lpm_lookup(r, n, dst);

	if (got != want) {
		fprintf(stderr, "fuzz_config: %u.%u.%u.%u: table 0x%08x, reference 0x%08x\n",
			dst >> 24, (dst >> 16) & 0xff, (dst >> 8) & 0xff, dst & 0xff, got, want);
		abort();
	}
}

static void check_diags(const struct rg_diags *d, int ret)
{
	if (!ret) {
		require(d->count == 0);
		return;
	}
	require(d->count >= 1 && d->count <= RG_CONFIG_MAX_ERRORS + 1);
	for (size_t i = 0; i < d->count; i++)
		require(!strncmp(d->msgs[i], FILE_NAME ":", strlen(FILE_NAME) + 1));
}

static void check_table(const struct rg_config *cfg)
{
	struct rg_fib_image img = { 0 };
	struct rg_plan plan;
	char err[256];
	size_t step;

	memset(&plan, 0, sizeof(plan));
	require(rg_plan_build(&plan, cfg, NULL, err, sizeof(err)) == 0);
	if (rg_fib_compile(plan.routes, plan.n_routes, &img, err, sizeof(err))) {
		fprintf(stderr, "fuzz_config: a valid config does not compile: %s\n", err);
		abort();
	}
	step = plan.n_routes / MAX_PROBED_ROUTES + 1;
	for (size_t i = 0; i < plan.n_routes; i += step) {
		const struct rg_route *r = &plan.routes[i];
		uint32_t last = r->addr | ~rg_ref_mask(r->len);

		probe(&img, plan.routes, plan.n_routes, r->addr);
		probe(&img, plan.routes, plan.n_routes, last);
		probe(&img, plan.routes, plan.n_routes, r->addr - 1);
		probe(&img, plan.routes, plan.n_routes, last + 1);
		probe(&img, plan.routes, plan.n_routes, r->addr + (last - r->addr) / 2);
	}
	rg_fib_image_free(&img);
	rg_plan_free(&plan);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rg_diags d = { 0 };
	struct rg_config cfg;
	int ret;

	ret = rg_config_parse(FILE_NAME, (const char *)data, size, &cfg, &d);
	check_diags(&d, ret);
	rg_diags_free(&d);
	if (ret)
		return 0;
	check_table(&cfg);
	/* a node's overrides keep the config whole */
	for (size_t i = 0; i < cfg.n_nodes && i < 4; i++)
		rg_config_apply_node(&cfg, cfg.nodes[i].name);
	check_table(&cfg);
	rg_config_free(&cfg);
	return 0;
}
