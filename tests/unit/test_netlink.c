// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * loader/kernel/netlink against a real kernel, in a private network namespace.
 *
 * The group setup unshares the network namespace first, so every link,
 * address, neighbour and route below exists only inside this process's
 * namespace and vanishes with it.  Topology:
 *
 *   pf0vf0 <-veth-> pf0vf1     MACs and MTU 9000 set here, both up
 *   pf1vf0                     ifb (this kernel has no dummy), down
 *   rgup 10.99.0.1/24 <-veth-> rgpeer 10.99.0.2/24 in a child namespace,
 *                              held by a forked child that dies with us:
 *                              the side that answers ARP
 *   rgdead0 10.98.0.1/24 <-veth-> rgdead1   nobody answers, 1 fast probe
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "loader/kernel/link_table.h"
#include "loader/kernel/netlink.h"
#include "tests/lib/netns.h"

#define VF0_MAC   { 0x02, 0x00, 0x00, 0x00, 0x0a, 0x01 }
#define PEER_MAC  { 0x02, 0x00, 0x00, 0x00, 0x0b, 0x02 }
#define STATIC_MAC { 0x02, 0x00, 0x00, 0x00, 0x0c, 0x50 }
#define VF_MTU    9000

/* Bound on every wait for the kernel (events, ARP on a local veth). */
#define WAIT_MS   2000

struct fixture {
	struct rg_nl *nl;
	pid_t peer;              /* child holding the namespace of rgpeer */
};

static uint32_t ip4(const char *s)
{
	struct in_addr a;

	if (inet_pton(AF_INET, s, &a) != 1)
		fail_msg("bad address in test: %s", s);
	return ntohl(a.s_addr);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int write_file(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -errno;
	ret = fputs(val, f) < 0 ? -EIO : 0;
	if (fclose(f) != 0)
		ret = -errno;
	return ret;
}

/*
 * The answering side: a child in its own namespace.  It tells the parent
 * when its namespace exists, waits for rgpeer to be moved in, configures it
 * and reports ready.  PDEATHSIG ends it with the test, however that ends.
 */
static void peer_main(pid_t parent, int to_parent, int from_parent)
{
	char c = 0;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent || unshare(CLONE_NEWNET) < 0)
		_exit(1);
	if (write(to_parent, "u", 1) != 1 || read(from_parent, &c, 1) != 1)
		_exit(1);
	if (test_sh("ip link set lo up && ip link set rgpeer address 02:00:00:00:0b:02 up && "
	       "ip addr add 10.99.0.2/24 dev rgpeer") != 0)
		_exit(1);
	if (write(to_parent, "r", 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

static int start_peer(struct fixture *fx)
{
	pid_t parent = getpid();
	int up[2], down[2];
	char c;

	if (pipe(up) < 0 || pipe(down) < 0)
		return -1;
	fx->peer = fork();
	if (fx->peer < 0)
		return -1;
	if (fx->peer == 0) {
		close(up[0]);
		close(down[1]);
		peer_main(parent, up[1], down[0]);
	}
	close(up[1]);
	close(down[0]);
	if (read(up[0], &c, 1) != 1 || c != 'u')
		return -1;
	if (test_sh("ip link add rgup type veth peer name rgpeer netns %d", fx->peer) != 0)
		return -1;
	if (write(down[1], "g", 1) != 1 || read(up[0], &c, 1) != 1 || c != 'r')
		return -1;
	close(up[0]);
	close(down[1]);
	return 0;
}

static int make_links(void)
{
	return test_sh("ip link set lo up") ||
	       test_sh("ip link add pf0vf0 address 02:00:00:00:0a:01 mtu %d type veth "
		  "peer name pf0vf1 address 02:00:00:00:0a:02 mtu %d", VF_MTU, VF_MTU) ||
	       test_sh("ip link set pf0vf0 up && ip link set pf0vf1 up") ||
	       test_sh("ip link add pf1vf0 type ifb") ||
	       test_sh("ip addr add 10.99.0.1/24 dev rgup && ip link set rgup up") ||
	       test_sh("ip link add rgdead0 type veth peer name rgdead1") ||
	       test_sh("ip addr add 10.98.0.1/24 dev rgdead0 && "
		  "ip link set rgdead0 up && ip link set rgdead1 up");
}

/* rgdead0 gives up on a neighbour after one probe of 50 ms. */
static int make_probes_fast(void)
{
	return write_file("/proc/sys/net/ipv4/neigh/rgdead0/mcast_solicit", "1") ||
	       write_file("/proc/sys/net/ipv4/neigh/rgdead0/ucast_solicit", "0") ||
	       write_file("/proc/sys/net/ipv4/neigh/rgdead0/app_solicit", "0") ||
	       write_file("/proc/sys/net/ipv4/neigh/rgdead0/retrans_time_ms", "50");
}

static int group_setup(void **state)
{
	static struct fixture fx;
	char err[256] = "";

	if (unshare(CLONE_NEWNET) < 0) {
		fprintf(stderr, "# unshare(CLONE_NEWNET): %s (needs root)\n", strerror(errno));
		return -1;
	}
	if (start_peer(&fx) < 0 || make_links() != 0 || make_probes_fast() != 0) {
		fprintf(stderr, "# building the test namespace failed\n");
		return -1;
	}
	if (rg_nl_open(&fx.nl, err, sizeof(err)) < 0) {
		fprintf(stderr, "# rg_nl_open: %s\n", err);
		return -1;
	}
	*state = &fx;
	return 0;
}

static int group_teardown(void **state)
{
	struct fixture *fx = *state;

	if (!fx)
		return 0;
	rg_nl_close(fx->nl);
	if (fx->peer > 0) {
		kill(fx->peer, SIGKILL);
		waitpid(fx->peer, NULL, 0);
	}
	return 0;
}

/* ---- links ------------------------------------------------------------- */

static void test_link_by_name_reports_what_was_set(void **state)
{
	struct fixture *fx = *state;
	const uint8_t mac[RG_MAC_LEN] = VF0_MAC;
	struct rg_link_info l;

	assert_int_equal(rg_nl_link_by_name(fx->nl, "pf0vf0", &l), 0);
	assert_int_equal(l.ifindex, if_nametoindex("pf0vf0"));
	assert_string_equal(l.name, "pf0vf0");
	assert_memory_equal(l.mac, mac, RG_MAC_LEN);
	assert_int_equal(l.mtu, VF_MTU);
	assert_string_equal(l.kind, "veth");
	assert_true(l.up);
	assert_true(l.oper_up);

	/* the ifb was never set up */
	assert_int_equal(rg_nl_link_by_name(fx->nl, "pf1vf0", &l), 0);
	assert_string_equal(l.kind, "ifb");
	assert_false(l.up);
	assert_false(l.oper_up);
}

static void test_link_by_index_matches_by_name(void **state)
{
	struct fixture *fx = *state;
	struct rg_link_info by_name, by_index;

	assert_int_equal(rg_nl_link_by_name(fx->nl, "pf0vf1", &by_name), 0);
	assert_int_equal(rg_nl_link_by_index(fx->nl, by_name.ifindex, &by_index), 0);
	assert_string_equal(by_index.name, "pf0vf1");
	assert_memory_equal(by_index.mac, by_name.mac, RG_MAC_LEN);
	assert_int_equal(by_index.mtu, by_name.mtu);
}

static void test_missing_link_is_enodev(void **state)
{
	struct fixture *fx = *state;
	struct rg_link_info l;

	assert_int_equal(rg_nl_link_by_name(fx->nl, "nosuchlink0", &l), -ENODEV);
	assert_int_equal(rg_nl_link_by_index(fx->nl, 99999, &l), -ENODEV);
	assert_int_equal(rg_nl_link_by_name(fx->nl, "name-longer-than-15", &l), -EINVAL);
	assert_int_equal(rg_nl_link_by_name(fx->nl, "", &l), -EINVAL);
}

static void test_table_globs_sorted_by_name(void **state)
{
	struct fixture *fx = *state;
	struct rg_link_table t;
	struct rg_link_info *links;
	size_t n;

	assert_int_equal(rg_nl_link_table(fx->nl, &t), 0);
	assert_int_equal(rg_link_table_match(&t, "pf0vf*", &links, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(links[0].name, "pf0vf0");
	assert_string_equal(links[1].name, "pf0vf1");
	assert_int_equal(links[0].ifindex, if_nametoindex("pf0vf0"));
	assert_true(links[0].xdp_features_known);
	free(links);

	assert_int_equal(rg_link_table_match(&t, "pf1vf*", &links, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(links[0].name, "pf1vf0");
	free(links);

	/* a plain name is itself, and nothing else */
	assert_int_equal(rg_link_table_match(&t, "pf0vf1", &links, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(links[0].name, "pf0vf1");
	free(links);

	assert_int_equal(rg_link_table_match(&t, "pf9vf*", &links, &n), 0);
	assert_int_equal(n, 0);
	assert_null(links);
	assert_int_equal(rg_link_table_match(&t, "pf0vf", &links, &n), 0);
	assert_int_equal(n, 0);
	assert_null(links);
	rg_link_table_free(&t);
}

/* Whether every link's operstate in t is what a single query says now:
 * the kernel's link watch moves it asynchronously, up to a second after
 * a carrier change (rgup's peer came up in the group setup). */
static bool operstates_settled(struct rg_nl *nl, const struct rg_link_table *t)
{
	struct rg_link_info one;

	for (size_t i = 0; i < t->n; i++)
		if (rg_nl_link_by_index(nl, t->links[i].ifindex, &one) ||
		    one.oper_up != t->links[i].oper_up)
			return false;
	return true;
}

/* The table is what a single RTM_GETLINK and NETDEV_CMD_DEV_GET of each
 * link say: the dumps lose nothing, the XDP features included. */
static void test_table_agrees_with_single_queries(void **state)
{
	struct fixture *fx = *state;
	struct rg_link_table t;
	struct rg_link_info one;

	assert_int_equal(test_sh("ethtool -K pf0vf1 gro on"), 0);
	assert_int_equal(rg_nl_link_table(fx->nl, &t), 0);
	for (int tries = 0; tries < 30 && !operstates_settled(fx->nl, &t); tries++) {
		rg_link_table_free(&t);
		usleep(100 * 1000);
		assert_int_equal(rg_nl_link_table(fx->nl, &t), 0);
	}
	assert_true(t.n >= 4);
	for (size_t i = 0; i < t.n; i++) {
		const struct rg_link_info *l = &t.links[i];

		if (i)
			assert_true(strcmp(t.links[i - 1].name, l->name) < 0);
		assert_ptr_equal(rg_link_table_by_name(&t, l->name), l);
		assert_ptr_equal(rg_link_table_by_index(&t, l->ifindex), l);
		assert_int_equal(rg_nl_link_by_index(fx->nl, l->ifindex, &one), 0);
		assert_string_equal(l->name, one.name);
		assert_memory_equal(l->mac, one.mac, RG_MAC_LEN);
		assert_int_equal(l->mtu, one.mtu);
		assert_int_equal(l->up, one.up);
		assert_int_equal(l->oper_up, one.oper_up);
		assert_string_equal(l->kind, one.kind);
		assert_int_equal(l->xdp_features_known, one.xdp_features_known);
		assert_int_equal(l->xdp_features, one.xdp_features);
	}
	/* the one that changed: pf0vf0 takes redirects while its peer has GRO */
	assert_true(rg_link_accepts_redirect(rg_link_table_by_name(&t, "pf0vf0")));
	assert_null(rg_link_table_by_name(&t, "nosuchlink0"));
	assert_null(rg_link_table_by_index(&t, 99999));
	rg_link_table_free(&t);
	assert_int_equal(test_sh("ethtool -K pf0vf1 gro off"), 0);
}

/* A table costs two requests (the link dump, the XDP features dump),
 * whatever is looked up in it afterwards; the counters reset. */
static void test_table_is_two_requests(void **state)
{
	struct fixture *fx = *state;
	struct rg_nl_counters c;
	struct rg_link_table t;
	struct rg_link_info *links, one;
	size_t n;

	rg_nl_reset_counters(fx->nl);
	rg_nl_get_counters(fx->nl, &c);
	assert_int_equal(c.requests, 0);
	assert_int_equal(c.link_dumps, 0);
	assert_int_equal(rg_nl_link_table(fx->nl, &t), 0);
	for (int i = 0; i < 100; i++) {
		assert_int_equal(rg_link_table_match(&t, i % 2 ? "pf*" : "pf0vf0", &links, &n), 0);
		free(links);
	}
	rg_nl_get_counters(fx->nl, &c);
	assert_int_equal(c.link_dumps, 1);
	assert_int_equal(c.requests, 2);
	rg_link_table_free(&t);
	assert_int_equal(rg_nl_link_by_name(fx->nl, "pf0vf0", &one), 0);
	rg_nl_get_counters(fx->nl, &c);
	assert_int_equal(c.link_dumps, 1);
	assert_int_equal(c.requests, 4);   /* the link and its XDP features */
}

/* ---- XDP features ------------------------------------------------------ */

static void test_veth_has_native_xdp(void **state)
{
	struct fixture *fx = *state;
	struct rg_link_info l;

	assert_int_equal(rg_nl_link_by_name(fx->nl, "pf0vf0", &l), 0);
	assert_true(l.xdp_features_known);
	assert_true(rg_link_has_native_xdp(&l));
}

/* What a representor without ndo_bpf looks like: TC, never generic XDP. */
static void test_ifb_and_lo_have_no_native_xdp(void **state)
{
	struct fixture *fx = *state;
	struct rg_link_info l;

	assert_int_equal(rg_nl_link_by_name(fx->nl, "pf1vf0", &l), 0);
	assert_true(l.xdp_features_known);
	assert_false(rg_link_has_native_xdp(&l));
	assert_false(rg_link_accepts_redirect(&l));

	assert_int_equal(rg_nl_link_by_name(fx->nl, "lo", &l), 0);
	assert_true(l.xdp_features_known);
	assert_false(rg_link_has_native_xdp(&l));
}

/*
 * The uplink check of docs/lessons.md, datapath #5: a veth takes redirected frames only
 * while its peer runs NAPI (GRO or an XDP program).
 */
static void test_veth_accepts_redirect_only_with_peer_gro(void **state)
{
	struct fixture *fx = *state;
	struct rg_link_info l;

	assert_int_equal(test_sh("ethtool -K pf0vf1 gro off"), 0);
	assert_int_equal(rg_nl_link_by_name(fx->nl, "pf0vf0", &l), 0);
	assert_false(rg_link_accepts_redirect(&l));

	assert_int_equal(test_sh("ethtool -K pf0vf1 gro on"), 0);
	assert_int_equal(rg_nl_link_by_name(fx->nl, "pf0vf0", &l), 0);
	assert_true(rg_link_accepts_redirect(&l));
	assert_int_equal(test_sh("ethtool -K pf0vf1 gro off"), 0);
}

/* ---- neighbours -------------------------------------------------------- */

static void test_neigh_lookup_permanent_entry(void **state)
{
	struct fixture *fx = *state;
	const uint8_t want[RG_MAC_LEN] = STATIC_MAC;
	int rgup = if_nametoindex("rgup");
	char err[256] = "";
	uint8_t mac[RG_MAC_LEN] = {};

	assert_int_equal(test_sh("ip neigh replace 10.99.0.50 lladdr 02:00:00:00:0c:50 "
			    "dev rgup nud permanent"), 0);
	assert_int_equal(rg_nl_neigh_lookup(fx->nl, rgup, ip4("10.99.0.50"), mac), 0);
	assert_memory_equal(mac, want, RG_MAC_LEN);

	/* the entry belongs to rgup only */
	assert_int_equal(rg_nl_neigh_lookup(fx->nl, if_nametoindex("pf0vf0"),
					    ip4("10.99.0.50"), mac), -ENOENT);
	assert_int_equal(rg_nl_neigh_lookup(fx->nl, rgup, ip4("10.99.0.51"), mac), -ENOENT);
	assert_int_equal(rg_nl_neigh_lookup(fx->nl, 99999, ip4("10.99.0.50"), mac), -ENODEV);

	/* resolve answers from the table without waiting */
	memset(mac, 0, sizeof(mac));
	assert_int_equal(rg_nl_neigh_resolve(fx->nl, rgup, ip4("10.99.0.50"), mac, 0,
					     err, sizeof(err)), 0);
	assert_memory_equal(mac, want, RG_MAC_LEN);
}

static void test_neigh_resolve_sends_arp(void **state)
{
	struct fixture *fx = *state;
	const uint8_t want[RG_MAC_LEN] = PEER_MAC;
	int rgup = if_nametoindex("rgup");
	uint8_t mac[RG_MAC_LEN] = {};
	char err[256] = "";

	/* nothing has talked to the peer yet */
	assert_int_equal(rg_nl_neigh_lookup(fx->nl, rgup, ip4("10.99.0.2"), mac), -ENOENT);

	if (rg_nl_neigh_resolve(fx->nl, rgup, ip4("10.99.0.2"), mac, WAIT_MS,
				err, sizeof(err)) != 0)
		fail_msg("resolve: %s", err);
	assert_memory_equal(mac, want, RG_MAC_LEN);

	/* and the kernel keeps the answer */
	memset(mac, 0, sizeof(mac));
	assert_int_equal(rg_nl_neigh_lookup(fx->nl, rgup, ip4("10.99.0.2"), mac), 0);
	assert_memory_equal(mac, want, RG_MAC_LEN);
}

static void test_neigh_resolve_times_out(void **state)
{
	struct fixture *fx = *state;
	int rgup = if_nametoindex("rgup");
	uint8_t mac[RG_MAC_LEN];
	char err[256] = "";
	int64_t start, took;

	start = now_ms();
	assert_int_equal(rg_nl_neigh_resolve(fx->nl, rgup, ip4("10.99.0.77"), mac, 300,
					     err, sizeof(err)), -ETIMEDOUT);
	took = now_ms() - start;
	assert_true(took >= 290);
	assert_true(took < 1000);
	assert_non_null(strstr(err, "10.99.0.77"));
	assert_non_null(strstr(err, "300 ms"));
	assert_non_null(strstr(err, "rgup"));

	/* the INCOMPLETE entry left behind is not usable */
	assert_int_equal(rg_nl_neigh_lookup(fx->nl, rgup, ip4("10.99.0.77"), mac), -ENOENT);
}

static void test_neigh_resolve_reports_failed(void **state)
{
	struct fixture *fx = *state;
	uint8_t mac[RG_MAC_LEN];
	char err[256] = "";
	int64_t start;

	start = now_ms();
	assert_int_equal(rg_nl_neigh_resolve(fx->nl, if_nametoindex("rgdead0"),
					     ip4("10.98.0.78"), mac, WAIT_MS,
					     err, sizeof(err)), -EHOSTUNREACH);
	/* the kernel gave up after its one probe, long before our timeout */
	assert_true(now_ms() - start < WAIT_MS);
	assert_non_null(strstr(err, "10.98.0.78"));
	assert_non_null(strstr(err, "FAILED"));
}

/* ---- routes ------------------------------------------------------------ */

static void test_route_get_oif(void **state)
{
	struct fixture *fx = *state;
	int rgup = if_nametoindex("rgup");
	int oif = 0;

	assert_int_equal(rg_nl_route_get_oif(fx->nl, ip4("10.99.0.2"), &oif), 0);
	assert_int_equal(oif, rgup);
	assert_int_equal(rg_nl_route_get_oif(fx->nl, ip4("10.98.0.9"), &oif), 0);
	assert_int_equal(oif, if_nametoindex("rgdead0"));

	/* a gateway behind a router, as computenet.gateway is */
	assert_int_equal(test_sh("ip route replace 10.1.0.0/16 via 10.99.0.2"), 0);
	oif = 0;
	assert_int_equal(rg_nl_route_get_oif(fx->nl, ip4("10.1.255.1"), &oif), 0);
	assert_int_equal(oif, rgup);

	/* our own address routes through lo */
	assert_int_equal(rg_nl_route_get_oif(fx->nl, ip4("10.99.0.1"), &oif), 0);
	assert_int_equal(oif, if_nametoindex("lo"));

	/* the private namespace has no default route */
	assert_int_equal(rg_nl_route_get_oif(fx->nl, ip4("192.0.2.1"), &oif), -ENETUNREACH);
}

/* ---- watch ------------------------------------------------------------- */

typedef bool (*event_pred)(const struct rg_nl_event *ev, const void *want);

/* Poll the watch until pred matches or WAIT_MS pass. */
static bool wait_event(struct rg_nl_watch *w, event_pred pred, const void *want,
		       struct rg_nl_event *out)
{
	int64_t deadline = now_ms() + WAIT_MS;
	struct pollfd pfd = { .fd = rg_nl_watch_fd(w), .events = POLLIN };

	for (;;) {
		int64_t left;
		int ret;

		while ((ret = rg_nl_watch_next(w, out)) == 1)
			if (pred(out, want))
				return true;
		if (ret < 0) {
			print_error("# rg_nl_watch_next: %s\n", strerror(-ret));
			return false;
		}
		left = deadline - now_ms();
		if (left <= 0)
			return false;
		poll(&pfd, 1, (int)left);
	}
}

static bool is_link_event(const struct rg_nl_event *ev, const void *want)
{
	const struct rg_nl_event *w = want;

	return ev->type == w->type && strcmp(ev->name, w->name) == 0;
}

static bool is_neigh_event(const struct rg_nl_event *ev, const void *want)
{
	const struct rg_nl_event *w = want;

	return ev->type == RG_NL_NEIGH_CHANGE && ev->ip == w->ip &&
	       ev->usable == w->usable;
}

static struct rg_nl_watch *open_drained_watch(void)
{
	struct rg_nl_watch *w = NULL;
	struct rg_nl_event ev;
	char err[256] = "";
	int64_t start;
	int ret;

	if (rg_nl_watch_open(&w, err, sizeof(err)) != 0)
		fail_msg("rg_nl_watch_open: %s", err);
	/* non-blocking: draining whatever is queued returns 0 at once */
	start = now_ms();
	while ((ret = rg_nl_watch_next(w, &ev)) == 1)
		;
	assert_int_equal(ret, 0);
	assert_true(now_ms() - start < 500);
	return w;
}

static void test_watch_sees_link_created_and_deleted(void **state)
{
	struct rg_nl_watch *w = open_drained_watch();
	struct rg_nl_event want = { .type = RG_NL_LINK_NEW, .name = "rgwatch0" };
	struct rg_nl_event ev;
	int ifindex;

	assert_int_equal(test_sh("ip link add rgwatch0 address 02:00:00:00:0d:01 type ifb"), 0);
	ifindex = if_nametoindex("rgwatch0");
	assert_true(wait_event(w, is_link_event, &want, &ev));
	assert_int_equal(ev.ifindex, ifindex);
	assert_memory_equal(ev.mac, ((uint8_t[]){ 0x02, 0, 0, 0, 0x0d, 0x01 }), RG_MAC_LEN);

	assert_int_equal(test_sh("ip link del rgwatch0"), 0);
	want.type = RG_NL_LINK_DEL;
	assert_true(wait_event(w, is_link_event, &want, &ev));
	assert_int_equal(ev.ifindex, ifindex);

	rg_nl_watch_close(w);
}

static void test_watch_sees_neighbour_changes(void **state)
{
	struct rg_nl_watch *w = open_drained_watch();
	struct rg_nl_event want = { .ip = ip4("10.99.0.60"), .usable = true };
	const uint8_t mac[RG_MAC_LEN] = { 0x02, 0, 0, 0, 0x0c, 0x60 };
	struct rg_nl_event ev;

	assert_int_equal(test_sh("ip neigh add 10.99.0.60 lladdr 02:00:00:00:0c:60 "
			    "dev rgup nud permanent"), 0);
	assert_true(wait_event(w, is_neigh_event, &want, &ev));
	assert_int_equal(ev.ifindex, if_nametoindex("rgup"));
	assert_memory_equal(ev.mac, mac, RG_MAC_LEN);

	assert_int_equal(test_sh("ip neigh del 10.99.0.60 dev rgup"), 0);
	want.usable = false;
	assert_true(wait_event(w, is_neigh_event, &want, &ev));

	rg_nl_watch_close(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_link_by_name_reports_what_was_set),
		cmocka_unit_test(test_link_by_index_matches_by_name),
		cmocka_unit_test(test_missing_link_is_enodev),
		cmocka_unit_test(test_table_globs_sorted_by_name),
		cmocka_unit_test(test_table_agrees_with_single_queries),
		cmocka_unit_test(test_table_is_two_requests),
		cmocka_unit_test(test_veth_has_native_xdp),
		cmocka_unit_test(test_ifb_and_lo_have_no_native_xdp),
		cmocka_unit_test(test_veth_accepts_redirect_only_with_peer_gro),
		cmocka_unit_test(test_neigh_lookup_permanent_entry),
		cmocka_unit_test(test_neigh_resolve_sends_arp),
		cmocka_unit_test(test_neigh_resolve_times_out),
		cmocka_unit_test(test_neigh_resolve_reports_failed),
		cmocka_unit_test(test_route_get_oif),
		cmocka_unit_test(test_watch_sees_link_created_and_deleted),
		cmocka_unit_test(test_watch_sees_neighbour_changes),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
