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

#include "loader/config/config.h"
#include "maps/fib.h"
#include "loader/plan/plan.h"
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

/*
 * Mutated YAML is rarely a valid config (5 of 1133 inputs a 10-minute run
 * kept), so the table check would hardly run: an input starting with 0xff
 * (never YAML: not UTF-8) is instead read as numbers from which a config
 * is written, disjoint supernets, rails inside them and front-end prefixes
 * outside, most of which validate.
 */
struct bytes {
	const uint8_t *p;
	size_t n;
};

static uint32_t take(struct bytes *b, unsigned width)
{
	uint32_t v = 0;

	for (unsigned i = 0; i < width; i++, b->n = b->n ? b->n - 1 : 0)
		v = v << 8 | (b->n ? *b->p++ : 0);
	return v;
}

static void add_cidr(FILE *f, uint32_t addr, uint8_t plen)
{
	fprintf(f, "%u.%u.%u.%u/%u", addr >> 24, (addr >> 16) & 0xff, (addr >> 8) & 0xff,
		addr & 0xff, plen);
}

static char *generated_config(const uint8_t *data, size_t size, size_t *len)
{
	struct bytes b = { data, size };
	struct rg_cidr sn[4];
	size_t n_sn = 1 + take(&b, 1) % 4, n_rails = 1 + take(&b, 1) % 24;
	size_t n_fe = take(&b, 1) % 12;
	char *yaml = NULL;
	FILE *f = open_memstream(&yaml, len);

	require(f);
	fprintf(f, "apiVersion: railgate.dev/v1alpha1\nkind: RailConfig\nmetadata: {name: g}\n"
		   "spec:\n  supernets: [");
	for (size_t i = 0; i < n_sn; i++) {
		sn[i].len = (uint8_t)(8 + take(&b, 1) % 17);
		sn[i].addr = ((10u + (uint32_t)i) << 24 | (take(&b, 3) & 0xffffff)) &
			     rg_ref_mask(sn[i].len);
		fprintf(f, "%s", i ? ", " : "");
		add_cidr(f, sn[i].addr, sn[i].len);
	}
	fprintf(f, "]\n  computenet:\n    uplink: eth1\n    gateway: 198.51.100.1\n    frontend: [");
	for (size_t i = 0; i < n_fe; i++) {
		uint8_t plen = (uint8_t)(8 + take(&b, 1) % 25);
		uint32_t addr = ((192u + take(&b, 1) % 8) << 24 | (take(&b, 3) & 0xffffff)) &
				rg_ref_mask(plen);

		fprintf(f, "%s", i ? ", " : "");
		add_cidr(f, addr, plen);
	}
	fprintf(f, "]\n  rails:\n");
	for (size_t i = 0; i < n_rails; i++) {
		const struct rg_cidr *in = &sn[take(&b, 1) % n_sn];
		uint8_t plen = (uint8_t)(in->len + take(&b, 1) % (31 - in->len));
		uint32_t addr = (in->addr | (take(&b, 4) & ~rg_ref_mask(in->len))) &
				rg_ref_mask(plen);

		fprintf(f, "    - {name: r%zu, subnet: ", i);
		add_cidr(f, addr, plen);
		fprintf(f, ", gateway: %u.%u.%u.%u, representors: [v%zu]}\n", (addr + 1) >> 24,
			((addr + 1) >> 16) & 0xff, ((addr + 1) >> 8) & 0xff, (addr + 1) & 0xff, i);
	}
	require(fclose(f) == 0);
	return yaml;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rg_diags d = { 0 };
	struct rg_config cfg;
	char *generated = NULL;
	int ret;

	if (size && data[0] == 0xff) {
		generated = generated_config(data + 1, size - 1, &size);
		data = (const uint8_t *)generated;
	}
	ret = rg_config_parse(FILE_NAME, (const char *)data, size, &cfg, &d);
	free(generated);
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
