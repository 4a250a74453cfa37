// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * A config meets a node (loader/kernel/facts.c gathers its facts,
 * loader/plan/resolve.c plans from them) and is applied to it
 * (loader/datapath/apply.c, datapath.c), against the real kernel in private
 * namespaces: the group setup unshares the network and mount namespaces
 * and mounts a bpffs of its own, so every link, filter and pin below
 * exists only for this process and vanishes with it.  Topology:
 *
 *   up0 10.1.255.10/24 <-veth-> sw0   the uplink; the gateway 10.1.255.1 is
 *                                     a permanent neighbour on up0
 *   pf0vf0, pf0vf1, pf1vf0, pf2vf0, pf3vf0 <-veth-> p0vf0 ...   representors
 *
 * The rollback's failure is a real one, no fake kernel: a foreign tc
 * filter in railgate's clsact slot on pf3vf0, which railgate refuses to
 * replace, after pf2vf0 was already classified and attached by the apply.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/mount.h>
#include <cmocka.h>

#include "loader/datapath/apply.h"
#include "loader/kernel/attach.h"
#include "loader/datapath/datapath.h"
#include "loader/kernel/netlink.h"
#include "loader/plan/resolve.h"
#include "tests/lib/netns.h"

#define GATEWAY_MAC { 0x02, 0x00, 0x00, 0x00, 0x99, 0x01 }

struct fixture {
	char bpffs[64];              /* our own bpffs mount */
	char pin_root[96];
	struct rg_nl *nl;
};

/* ---- the node -------------------------------------------------------------- */

static int make_node(void)
{
	static const char *const reps[] = { "pf0vf0", "pf0vf1", "pf1vf0", "pf2vf0", "pf3vf0" };

	if (test_sh("ip link set lo up") ||
	    test_sh("ip link add up0 type veth peer name sw0") ||
	    test_sh("ip addr add 10.1.255.10/24 dev up0 && ip link set up0 up && "
		    "ip link set sw0 up") ||
	    test_sh("ip neigh add 10.1.255.1 lladdr 02:00:00:00:99:01 dev up0 nud permanent"))
		return -1;
	for (size_t i = 0; i < sizeof(reps) / sizeof(reps[0]); i++)
		if (test_sh("ip link add %s type veth peer name p%s && ip link set %s up && "
			    "ip link set p%s up", reps[i], reps[i] + 2, reps[i], reps[i] + 2))
			return -1;
	return 0;
}

/* A veth takes XDP redirects only while its peer has GRO (or XDP) on. */
static void uplink_takes_redirects(bool on)
{
	assert_int_equal(test_sh("ethtool -K sw0 gro %s >/dev/null", on ? "on" : "off"), 0);
}

static int group_setup(void **state)
{
	static struct fixture fx;
	char err[256] = "";

	if (unshare(CLONE_NEWNET | CLONE_NEWNS) < 0) {
		fprintf(stderr, "# unshare: %s (needs root)\n", strerror(errno));
		return -1;
	}
	snprintf(fx.bpffs, sizeof(fx.bpffs), "/tmp/rg-test-apply-XXXXXX");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) || !mkdtemp(fx.bpffs) ||
	    mount("bpf", fx.bpffs, "bpf", 0, NULL)) {
		fprintf(stderr, "# a private bpffs: %s\n", strerror(errno));
		return -1;
	}
	snprintf(fx.pin_root, sizeof(fx.pin_root), "%s/railgate", fx.bpffs);
	if (make_node() || rg_nl_open(&fx.nl, err, sizeof(err))) {
		fprintf(stderr, "# building the test node failed %s\n", err);
		return -1;
	}
	*state = &fx;
	return 0;
}

static int group_teardown(void **state)
{
	struct fixture *fx = *state;
	struct rg_datapath dp;
	char err[256];

	if (!fx)
		return 0;
	if (!rg_datapath_lock(&dp, fx->pin_root, err, sizeof(err)))
		rg_datapath_down(&dp, NULL, err, sizeof(err));
	rg_datapath_close(&dp);
	rg_nl_close(fx->nl);
	umount(fx->bpffs);
	rmdir(fx->bpffs);
	return 0;
}

/* ---- configs ----------------------------------------------------------------- */

#define CONFIG_HEAD                                   \
	"apiVersion: railgate.dev/v1alpha1\n"         \
	"kind: RailConfig\n"                          \
	"metadata: {name: t}\n"                       \
	"spec:\n"                                     \
	"  supernets: [10.0.0.0/16]\n"                \
	"  computenet: {uplink: %s, gateway: 10.1.255.1}\n" \
	"  datapath: {mode: %s}\n"                    \
	"  rails:\n"
/* rail R with its representors (a YAML flow list's inside) and more keys. */
#define RAIL_FMT "    - {name: rail%d, subnet: 10.0.%d.0/24, gateway: 10.0.%d.1, " \
		 "representors: [%s]%s}\n"

struct rail_spec {
	const char *reps;
	const char *extra;           /* more keys of the rail, ", mtu: 9000"; NULL: none */
};

/* Parse a config of rails 0.. (a NULL reps ends the list; "" skips an id). */
static void make_config(struct rg_config *cfg, const char *uplink, const char *mode,
			const struct rail_spec *rails)
{
	char yaml[2048];
	struct rg_diags d = { 0 };
	int len = snprintf(yaml, sizeof(yaml), CONFIG_HEAD, uplink, mode);

	for (int r = 0; rails[r].reps; r++)
		if (*rails[r].reps)
			len += snprintf(yaml + len, sizeof(yaml) - (size_t)len, RAIL_FMT, r, r, r,
					rails[r].reps, rails[r].extra ? rails[r].extra : "");
	if (rg_config_parse("t.yaml", yaml, (size_t)len, cfg, &d)) {
		for (size_t i = 0; i < d.count; i++)
			fprintf(stderr, "# %s\n", d.msgs[i]);
		fail_msg("the test's config does not parse");
	}
	rg_diags_free(&d);
}

/* ---- what library code logs, caught ----------------------------------------- */

struct caught {
	int warnings;
	char last[256];              /* the last line of any level */
};

static void catch_line(const struct rg_log *log, enum rg_log_level level, const char *event,
		       const char *msg)
{
	struct caught *c = log->ctx;

	c->warnings += level == RG_LOG_WARN;
	snprintf(c->last, sizeof(c->last), "%s", msg);
}

static struct rg_log catching(struct caught *c)
{
	struct rg_log log;

	rg_log_init(&log, NULL, RG_LOG_PLAIN);
	log.print = catch_line;
	log.ctx = c;
	return log;
}

/* ---- resolve: config meets the node ------------------------------------------ */

static int resolve(struct fixture *fx, const struct rg_config *cfg, struct rg_plan *plan,
		   struct caught *c, char *err, size_t err_len)
{
	struct rg_log log = catching(c);
	struct rg_node_facts facts;
	int ret;

	memset(plan, 0, sizeof(*plan));
	err[0] = '\0';
	rg_facts_gather(fx->nl, cfg, &facts);
	ret = rg_resolve_plan(cfg, cfg->mode, &facts, NULL, plan, &log, err, err_len);
	rg_facts_free(&facts);
	return ret;
}

/* Globs match every present interface, sorted; names match exactly. */
static void test_resolve_globs_and_names(void **state)
{
	static const struct rail_spec rails[] = { { .reps = "pf0vf*" }, { .reps = "pf1vf0" }, { .reps = NULL } };
	const uint8_t gw_mac[6] = GATEWAY_MAC;
	struct caught c = { 0 };
	struct rg_config cfg;
	struct rg_plan plan;
	char err[256];

	setenv(RG_TC_ATTACH_ENV, "tcx", 1);
	make_config(&cfg, "up0", "tc", rails);
	assert_int_equal(resolve(*state, &cfg, &plan, &c, err, sizeof(err)), 0);
	assert_int_equal(plan.n_reps, 3);
	assert_string_equal(plan.reps[0].name, "pf0vf0");
	assert_string_equal(plan.reps[1].name, "pf0vf1");
	assert_string_equal(plan.reps[2].name, "pf1vf0");
	for (size_t i = 0; i < plan.n_reps; i++)
		assert_int_equal(plan.reps[i].ifindex, if_nametoindex(plan.reps[i].name));
	assert_int_equal(plan.reps[0].rail_id, rg_plan_rail_id(&plan, "rail0"));
	assert_int_equal(plan.reps[1].rail_id, rg_plan_rail_id(&plan, "rail0"));
	assert_int_equal(plan.reps[2].rail_id, rg_plan_rail_id(&plan, "rail1"));
	assert_int_equal(plan.egress.uplink_ifindex, if_nametoindex("up0"));
	assert_memory_equal(plan.egress.gateway_mac, gw_mac, 6);
	assert_int_equal(c.warnings, 0);
	rg_plan_free(&plan);
	rg_config_free(&cfg);
}

/* A name that is not there fails the whole plan; a glob matching nothing
 * yet (a VF created later) is no error; a missing uplink is. */
static void test_resolve_missing_interfaces(void **state)
{
	static const struct rail_spec named[] = { { .reps = "pf0vf0" }, { .reps = "pf9vf0" }, { .reps = NULL } };
	static const struct rail_spec globbed[] = { { .reps = "pf0vf0" }, { .reps = "pf7vf*" }, { .reps = NULL } };
	static const struct rail_spec plain[] = { { .reps = "pf0vf0" }, { .reps = NULL } };
	struct caught c = { 0 };
	struct rg_config cfg;
	struct rg_plan plan;
	char err[256];

	setenv(RG_TC_ATTACH_ENV, "tcx", 1);
	make_config(&cfg, "up0", "tc", named);
	assert_int_equal(resolve(*state, &cfg, &plan, &c, err, sizeof(err)), -ENODEV);
	assert_string_equal(err, "rail rail1: representor pf9vf0: no such interface");
	assert_null(plan.reps);                       /* freed on failure */
	rg_config_free(&cfg);

	make_config(&cfg, "up0", "tc", globbed);
	assert_int_equal(resolve(*state, &cfg, &plan, &c, err, sizeof(err)), 0);
	assert_int_equal(plan.n_reps, 1);
	assert_string_equal(c.last, "rail rail1: nothing matches pf7vf* yet");
	rg_plan_free(&plan);
	rg_config_free(&cfg);

	make_config(&cfg, "eth-none", "tc", plain);
	assert_int_equal(resolve(*state, &cfg, &plan, &c, err, sizeof(err)), -ENODEV);
	assert_string_equal(err, "computenet.uplink eth-none: no such interface");
	rg_config_free(&cfg);
}

/* A glob that resolves to the uplink (here found by `uplink: auto`, so
 * validation cannot know its name) fails the plan: attached, the uplink
 * would drop computenet traffic as spoofed or send it back out. */
static void test_resolve_refuses_the_uplink(void **state)
{
	static const struct rail_spec rails[] = { { .reps = "pf0vf0, \"up*\"" }, { .reps = NULL } };
	struct caught c = { 0 };
	struct rg_config cfg;
	struct rg_plan plan;
	char err[256];

	setenv(RG_TC_ATTACH_ENV, "tcx", 1);
	make_config(&cfg, "auto", "tc", rails);
	assert_int_equal(resolve(*state, &cfg, &plan, &c, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "rail rail0: representor up* matches up0, the computenet uplink: "
			    "the uplink is never a representor");
	assert_null(plan.reps);
	rg_config_free(&cfg);
}

/* A rail's mtu is checked against every representor it matches. */
static void test_resolve_mtu_mismatch(void **state)
{
	static const struct rail_spec rails[] = { { .reps = "pf0vf0", .extra = ", mtu: 9000" }, { .reps = NULL } };
	struct caught c = { 0 };
	struct rg_config cfg;
	struct rg_plan plan;
	char err[256];

	make_config(&cfg, "up0", "tc", rails);
	assert_int_equal(resolve(*state, &cfg, &plan, &c, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "rail rail0: pf0vf0 has MTU 1500, the config says 9000");
	rg_config_free(&cfg);
}

struct mode_case {
	const char *config_mode;     /* inside datapath's flow mapping: "tc, tcAttach: tcx" */
	const char *tc_attach;       /* RAILGATE_TC_ATTACH; NULL: unset */
	bool uplink_redirects;       /* the uplink takes XDP redirects */
	int want;                    /* an enum rg_attach_mode, or -errno */
	const char *err_has;         /* for a -errno */
	int warnings;
};

/* Every config mode becomes the attach mode the kernel will use, in one place. */
static void test_resolve_modes(void **state)
{
	static const struct rail_spec rails[] = { { .reps = "pf0vf0" }, { .reps = NULL } };
	static const struct mode_case cases[] = {
		{ .config_mode = "tc", .tc_attach = "tcx", .uplink_redirects = true,
		  .want = RG_MODE_TC },
		{ .config_mode = "tc", .tc_attach = "clsact", .uplink_redirects = true,
		  .want = RG_MODE_TC_CLSACT },
		{ .config_mode = "tc", .tc_attach = "bogus", .uplink_redirects = true,
		  .want = -EINVAL,
		  .err_has = "RAILGATE_TC_ATTACH=bogus: expected tcx, clsact or auto" },
		{ .config_mode = "xdp-generic", .tc_attach = "tcx", .uplink_redirects = true,
		  .want = RG_MODE_XDP_GENERIC },
		{ .config_mode = "xdp", .tc_attach = "tcx", .uplink_redirects = true,
		  .want = RG_MODE_XDP },
		{ .config_mode = "auto", .tc_attach = "tcx", .uplink_redirects = true,
		  .want = RG_MODE_XDP },
		/* native XDP would drop every cross-rail frame: tc, and a warning */
		{ .config_mode = "auto", .tc_attach = "clsact", .uplink_redirects = false,
		  .want = RG_MODE_TC_CLSACT, .warnings = 1 },
		{ .config_mode = "xdp", .tc_attach = "tcx", .uplink_redirects = false,
		  .want = -EOPNOTSUPP, .err_has = "uplink up0 does not accept XDP redirects" },
		{ .config_mode = "xdp-generic", .tc_attach = "tcx", .uplink_redirects = false,
		  .want = RG_MODE_XDP_GENERIC },
		/* datapath.tcAttach; the variable, when set, replaces it */
		{ .config_mode = "tc", .uplink_redirects = true, .want = RG_MODE_TC },
		{ .config_mode = "tc, tcAttach: auto", .uplink_redirects = true, .want = RG_MODE_TC },
		{ .config_mode = "tc, tcAttach: tcx", .uplink_redirects = true, .want = RG_MODE_TC },
		{ .config_mode = "tc, tcAttach: clsact", .uplink_redirects = true,
		  .want = RG_MODE_TC_CLSACT },
		{ .config_mode = "auto, tcAttach: clsact", .uplink_redirects = false,
		  .want = RG_MODE_TC_CLSACT, .warnings = 1 },
		{ .config_mode = "tc, tcAttach: clsact", .tc_attach = "tcx", .uplink_redirects = true,
		  .want = RG_MODE_TC },
		{ .config_mode = "tc, tcAttach: tcx", .tc_attach = "clsact", .uplink_redirects = true,
		  .want = RG_MODE_TC_CLSACT },
		{ .config_mode = "tc, tcAttach: clsact", .tc_attach = "", .uplink_redirects = true,
		  .want = RG_MODE_TC_CLSACT },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct mode_case *mc = &cases[i];
		struct caught c = { 0 };
		struct rg_config cfg;
		struct rg_plan plan;
		char err[256];
		int ret;

		fprintf(stderr, "# mode %s, %s=%s, uplink %s redirects\n", mc->config_mode,
			RG_TC_ATTACH_ENV, mc->tc_attach ? mc->tc_attach : "(unset)",
			mc->uplink_redirects ? "takes" : "refuses");
		if (mc->tc_attach)
			setenv(RG_TC_ATTACH_ENV, mc->tc_attach, 1);
		else
			unsetenv(RG_TC_ATTACH_ENV);
		uplink_takes_redirects(mc->uplink_redirects);
		make_config(&cfg, "up0", mc->config_mode, rails);
		ret = resolve(*state, &cfg, &plan, &c, err, sizeof(err));
		if (mc->want < 0) {
			assert_int_equal(ret, mc->want);
			assert_non_null(strstr(err, mc->err_has));
		} else {
			assert_int_equal(ret, 0);
			assert_int_equal(plan.n_reps, 1);
			assert_int_equal(plan.reps[0].mode, mc->want);
			rg_plan_free(&plan);
		}
		assert_int_equal(c.warnings, mc->warnings);
		rg_config_free(&cfg);
	}
	uplink_takes_redirects(true);
}

/*
 * The netlink work of a resolve does not grow with the names a config
 * lists (issue 14: a link dump per name made 256 names cost 100,000
 * recvmsg calls): 8 and 64 named representors take the same requests, one
 * link dump among them.
 */
static int count_resolve(struct fixture *fx, int names, struct rg_nl_counters *c)
{
	char reps[64 * 8] = "";
	struct rail_spec rails[] = { { .reps = reps }, { .reps = NULL } };
	struct caught caught = { 0 };
	struct rg_config cfg;
	struct rg_plan plan;
	char err[256];
	size_t len = 0;
	int ret;

	for (int i = 0; i < names; i++)
		len += (size_t)snprintf(reps + len, sizeof(reps) - len, "%srgn%d", i ? ", " : "", i);
	make_config(&cfg, "up0", "tc, tcAttach: tcx", rails);
	rg_nl_reset_counters(fx->nl);
	ret = resolve(fx, &cfg, &plan, &caught, err, sizeof(err));
	rg_nl_get_counters(fx->nl, c);
	if (!ret) {
		ret = plan.n_reps == (size_t)names ? 0 : -EINVAL;
		rg_plan_free(&plan);
	}
	rg_config_free(&cfg);
	return ret;
}

static void test_resolve_requests_flat_in_names(void **state)
{
	struct rg_nl_counters eight, sixty_four;

	unsetenv(RG_TC_ATTACH_ENV);
	assert_int_equal(test_sh("for i in $(seq 0 63); do echo \"link add rgn$i type veth peer "
				 "name rgp$i\"; done | ip -batch -"), 0);
	assert_int_equal(count_resolve(*state, 8, &eight), 0);
	assert_int_equal(count_resolve(*state, 64, &sixty_four), 0);
	fprintf(stderr, "# netlink requests of a resolve: %lu for 8 names, %lu for 64\n",
		eight.requests, sixty_four.requests);
	assert_int_equal(eight.link_dumps, 1);
	assert_int_equal(sixty_four.link_dumps, 1);
	assert_int_equal(eight.requests, sixty_four.requests);
	assert_int_equal(test_sh("for i in $(seq 0 63); do echo \"link del rgn$i\"; done | "
				 "ip -batch -"), 0);
}

/* ---- the hitless apply's rollback ---------------------------------------------- */

struct running {
	uint64_t config_generation;
	unsigned active_gen;
	uint8_t digest[32];
	int valid_rails;
	__u32 tc_prog_id;
};

static void read_running(struct fixture *fx, struct running *r)
{
	struct rg_rail rails[RG_MAX_RAILS];
	struct rg_datapath dp;
	char err[256];

	memset(r, 0, sizeof(*r));
	assert_int_equal(rg_datapath_lock(&dp, fx->pin_root, err, sizeof(err)), 0);
	assert_int_equal(rg_datapath_open(&dp, false, err, sizeof(err)), 0);
	r->config_generation = dp.maps.state->config_generation;
	r->active_gen = rg_map_set_active_gen(&dp.maps);
	memcpy(r->digest, dp.maps.state->config_digest, 32);
	assert_int_equal(rg_datapath_active_rails(&dp, rails), 0);
	for (int i = 0; i < RG_MAX_RAILS; i++)
		r->valid_rails += !!(rails[i].flags & RG_RAIL_F_VALID);
	r->tc_prog_id = rg_prog_id(dp.prog_fd[RG_PROG_TC]);
	rg_datapath_close(&dp);
}

/* The active generation's entry for ifname: its rail id, or -1 when not VALID. */
static int active_rail_of(struct fixture *fx, const char *ifname)
{
	struct rg_representor rep;
	struct rg_datapath dp;
	char err[256];
	int ret;

	assert_int_equal(rg_datapath_lock(&dp, fx->pin_root, err, sizeof(err)), 0);
	assert_int_equal(rg_datapath_open(&dp, false, err, sizeof(err)), 0);
	assert_int_equal(rg_map_set_get_representor(&dp.maps, rg_map_set_active_gen(&dp.maps),
						    if_nametoindex(ifname), &rep), 0);
	ret = (rep.flags & RG_REP_F_VALID) ? rep.rail_id : -1;
	rg_datapath_close(&dp);
	return ret;
}

static bool has_our_filter(const struct running *r, const char *ifname)
{
	return rg_clsact_query((int)if_nametoindex(ifname), r->tc_prog_id) == 1;
}

static int apply(struct fixture *fx, const struct rg_config *cfg, char *err, size_t err_len)
{
	struct rg_apply_result res;

	err[0] = '\0';
	return rg_apply_config(fx->pin_root, cfg, NULL, NULL, &res, err, err_len);
}

/*
 * A failure before the flip leaves the old config running: its generation,
 * its digest, its rails and its representors; and what the failed apply
 * had already done is undone: pf2vf0, classified in the running generation
 * and attached before pf3vf0 failed, is neither attached nor classified.
 * Then the same config applies once the obstacle is gone.
 */
static void test_apply_rolls_back_before_the_flip(void **state)
{
	static const struct rail_spec old_rails[] = { { .reps = "pf0vf0" }, { .reps = "pf1vf0" }, { .reps = NULL } };
	static const struct rail_spec new_rails[] = {
		{ .reps = "pf0vf0" }, { .reps = "pf1vf0, pf2vf0" }, { .reps = "" }, { .reps = "pf3vf0" }, { .reps = NULL },
	};
	struct fixture *fx = *state;
	struct rg_config old_cfg, new_cfg;
	struct running before, after;
	char err[512];

	setenv(RG_TC_ATTACH_ENV, "clsact", 1);
	make_config(&old_cfg, "up0", "tc", old_rails);
	make_config(&new_cfg, "up0", "tc", new_rails);
	assert_int_equal(apply(fx, &old_cfg, err, sizeof(err)), 0);
	read_running(fx, &before);
	assert_memory_equal(before.digest, old_cfg.sha256, 32);
	assert_int_equal(before.valid_rails, 2);
	assert_true(has_our_filter(&before, "pf0vf0") && has_our_filter(&before, "pf1vf0"));

	/* someone else's filter in railgate's slot: railgate never replaces it */
	assert_int_equal(test_sh("tc qdisc add dev pf3vf0 clsact && tc filter add dev pf3vf0 "
				 "ingress pref %d handle 0x%x bpf bytecode '1,6 0 0 0,'",
				 RG_TC_PRIORITY, RG_TC_HANDLE), 0);
	assert_int_equal(apply(fx, &new_cfg, err, sizeof(err)), -EEXIST);
	assert_non_null(strstr(err, "pf3vf0: another tc filter holds railgate's handle"));

	read_running(fx, &after);
	assert_int_equal(after.config_generation, before.config_generation);
	assert_int_equal(after.active_gen, before.active_gen);
	assert_memory_equal(after.digest, old_cfg.sha256, 32);
	assert_int_equal(after.valid_rails, 2);
	assert_true(has_our_filter(&after, "pf0vf0") && has_our_filter(&after, "pf1vf0"));
	assert_int_equal(active_rail_of(fx, "pf0vf0"), 0);
	assert_int_equal(active_rail_of(fx, "pf1vf0"), 1);
	assert_false(has_our_filter(&after, "pf2vf0"));
	assert_int_equal(active_rail_of(fx, "pf2vf0"), -1);
	assert_int_equal(test_sh("tc filter show dev pf3vf0 ingress | grep -q bytecode"), 0);

	assert_int_equal(test_sh("tc filter del dev pf3vf0 ingress pref %d handle 0x%x bpf",
				 RG_TC_PRIORITY, RG_TC_HANDLE), 0);
	assert_int_equal(apply(fx, &new_cfg, err, sizeof(err)), 0);
	read_running(fx, &after);
	assert_int_equal(after.config_generation, before.config_generation + 1);
	assert_memory_equal(after.digest, new_cfg.sha256, 32);
	assert_int_equal(after.valid_rails, 3);
	assert_true(has_our_filter(&after, "pf2vf0") && has_our_filter(&after, "pf3vf0"));
	assert_int_equal(active_rail_of(fx, "pf2vf0"), 1);
	rg_config_free(&old_cfg);
	rg_config_free(&new_cfg);
}

/* The attachments of ifname, as `status` lists them: how many, and the
 * mode of the last (attached ones only). */
static int attachments_of(struct fixture *fx, const char *ifname, enum rg_attach_mode *mode)
{
	struct rg_attached *links = NULL;
	struct rg_datapath dp;
	size_t n = 0;
	char err[256];
	int count = 0;

	assert_int_equal(rg_datapath_lock(&dp, fx->pin_root, err, sizeof(err)), 0);
	assert_int_equal(rg_datapath_open(&dp, false, err, sizeof(err)), 0);
	assert_int_equal(rg_datapath_links(&dp, &links, &n), 0);
	for (size_t i = 0; i < n; i++) {
		if (links[i].ifindex == (int)if_nametoindex(ifname) && links[i].alive) {
			*mode = links[i].mode;
			count++;
		}
	}
	free(links);
	rg_datapath_close(&dp);
	return count;
}

/*
 * A reload that changes datapath.tcAttach moves every tc representor to the
 * other kind (the new one attached before the old one goes, so no frame
 * meets neither), and nothing of the old kind stays: no tcx link pinned
 * after a move to clsact, no filter after a move to tcx.
 */
static void test_reload_switches_tc_attach(void **state)
{
	static const struct rail_spec rails[] = { { .reps = "pf0vf0" }, { .reps = "pf1vf0" }, { .reps = NULL } };
	struct fixture *fx = *state;
	struct rg_config tcx, clsact;
	enum rg_attach_mode mode = RG_MODE_NONE;
	struct running r;
	char err[512];

	unsetenv(RG_TC_ATTACH_ENV);
	make_config(&tcx, "up0", "tc, tcAttach: tcx", rails);
	make_config(&clsact, "up0", "tc, tcAttach: clsact", rails);
	for (int round = 0; round < 2; round++) {
		assert_int_equal(apply(fx, &clsact, err, sizeof(err)), 0);
		read_running(fx, &r);
		assert_int_equal(attachments_of(fx, "pf0vf0", &mode), 1);
		assert_int_equal(mode, RG_MODE_TC_CLSACT);
		assert_true(has_our_filter(&r, "pf0vf0") && has_our_filter(&r, "pf1vf0"));
		assert_int_equal(test_sh("! ls %s/v%d/links | grep -q .", fx->pin_root, RG_ABI_VERSION), 0);

		assert_int_equal(apply(fx, &tcx, err, sizeof(err)), 0);
		read_running(fx, &r);
		assert_int_equal(attachments_of(fx, "pf0vf0", &mode), 1);
		assert_int_equal(mode, RG_MODE_TC);
		assert_int_equal(attachments_of(fx, "pf1vf0", &mode), 1);
		assert_int_equal(mode, RG_MODE_TC);
		assert_false(has_our_filter(&r, "pf0vf0") || has_our_filter(&r, "pf1vf0"));
		assert_int_equal(test_sh("test -e %s/v%d/links/if%u-tc", fx->pin_root, RG_ABI_VERSION,
					 if_nametoindex("pf0vf0")), 0);
	}
	rg_config_free(&tcx);
	rg_config_free(&clsact);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resolve_globs_and_names),
		cmocka_unit_test(test_resolve_missing_interfaces),
		cmocka_unit_test(test_resolve_mtu_mismatch),
		cmocka_unit_test(test_resolve_refuses_the_uplink),
		cmocka_unit_test(test_resolve_modes),
		cmocka_unit_test(test_resolve_requests_flat_in_names),
		cmocka_unit_test(test_apply_rolls_back_before_the_flip),
		cmocka_unit_test(test_reload_switches_tc_attach),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
