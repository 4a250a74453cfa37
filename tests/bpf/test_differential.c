// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The differential frame test: random and mutated frames through both
 * hooks of the datapath that `railgate up` loaded, against a model of the
 * verdict table of docs/design.md written here from the document, not from
 * the code: the verdict, every output byte, exactly one counter moved, the
 * same verdict in XDP and TC.
 *
 * The tables are filled by railgate up's own code path: a RailConfig in
 * YAML goes through rg_config_load and rg_apply_config (resolve against
 * the devices, plan, FIB compile, load, pin, write the generation, attach,
 * flip) in the test's own network and mount namespaces, on its own bpffs;
 * the programs under test are the pinned ones.  The model knows the same
 * config as a table of its own (cfg_a below): the
 * YAML and the table say the same thing twice, on purpose.
 *
 * Frames: lengths 14..9100 (XDP: beyond a page as frags; TC test_run takes
 * at most TC_MAX_LEN), broadcast and multicast MACs, 802.1Q/802.1ad tags,
 * other ethertypes, IHL 0..15, versions, total-length lies, fragments,
 * TTLs 0..255, addresses inside, around and between the rails, supernets
 * and front-end prefixes; a fifth of them then get random bytes flipped in
 * their headers.  Frame i comes from its own seed (seed, i), so any one is
 * replayed alone.
 *
 * The second test sends frames while a child process reloads config A and
 * config B back to back (test_reload_differential, below): each output
 * must be A's or B's for that frame.
 *
 *   RG_DIFF_SEED=S     the seed (default: from the clock; always printed)
 *   RG_DIFF_FRAMES=N   how many frames (default 50000, make test; millions by hand)
 *   RG_DIFF_FIRST=I    start at frame I (replay: RG_DIFF_FIRST=I RG_DIFF_FRAMES=1)
 *   RG_DIFF_RELOADS=N  reloads in the second test (default 100, make test)
 *   RG_DIFF_RELOAD_FIRST=I  its first frame number (replay, timing permitting)
 */
#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <cmocka.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "loader/datapath/apply.h"
#include "loader/config/config.h"
#include "loader/datapath/datapath.h"
#include "tests/lib/frames.h"
#include "tests/lib/netns.h"
#include "tests/lib/rng.h"

#define FRAME_MAX     9100
#define TC_MAX_LEN    3000      /* what TC test_run takes on 6.18 (test_datapath.c) */
#define CHECK_ALL_EVERY 512     /* full counter comparison every this many frames */

enum hook { HOOK_XDP, HOOK_TC, HOOK_COUNT };
static const char *const hook_names[HOOK_COUNT] = { "xdp", "tc" };

static const uint8_t gateway_mac[6] = { 0x0c, 0x42, 0xa1, 0x00, 0x00, 0x01 };

/* ---- the configs, twice: as YAML for railgate, as tables for the model --- */

/*
 * Two configs: A, the one the first test runs, and B, which the reload test
 * applies back to back with A.  B keeps the rails' names and representors
 * (rail ids, so counter slots, are kept by name across reloads) and changes
 * what is decided for some destinations: rail1's VLAN 100 -> 200 (a
 * forward from rail1 leaves XDP with another tag), rail2 10.0.2.128/25 ->
 * 10.0.2.0/24 (sources and destinations in 10.0.2.0/25 change from
 * spoofed / no_route to rail2's), front-end 192.168.0.0/16 -> 192.168.128.0/17,
 * 4.0.0.0/6 (the LPM fallback) removed, 198.18.0.0/15 added.
 */
#define CONFIG_HEAD(name)                                                       \
	"apiVersion: railgate.dev/v1alpha1\n"                                  \
	"kind: RailConfig\n"                                                   \
	"metadata:\n"                                                          \
	"  name: " name "\n"                                                   \
	"spec:\n"                                                              \
	"  supernets: [10.0.0.0/16, 172.20.0.0/14]\n"                          \
	"  computenet:\n"                                                      \
	"    uplink: rgd-up\n"                                                 \
	"    gateway: 10.1.255.1\n"
/* the model knows the verdicts; the ICMP answers are test_datapath's */
#define CONFIG_TAIL                                                             \
	"  datapath:\n"                                                        \
	"    mode: tc\n"                                                       \
	"    antiSpoof: true\n"

static const char config_a_yaml[] =
	CONFIG_HEAD("differential")
	"    frontend: [192.168.0.0/16, 4.0.0.0/6, 100.64.0.0/10]\n"
	"    icmpRate: 0\n"
	"  rails:\n"
	"    - name: rail0\n"
	"      subnet: 10.0.0.0/24\n"
	"      gateway: 10.0.0.1\n"
	"      representors: [rgd-rep0]\n"
	"    - name: rail1\n"
	"      subnet: 10.0.1.0/24\n"
	"      gateway: 10.0.1.1\n"
	"      vlan: 100\n"
	"      representors: [rgd-rep1]\n"
	"    - name: rail2\n"
	"      subnet: 10.0.2.128/25\n"
	"      gateway: 10.0.2.129\n"
	"      representors: [rgd-rep2]\n"
	"    - name: rail3\n"
	"      subnet: 172.20.8.0/21\n"
	"      gateway: 172.20.8.1\n"
	"      vlan: 4094\n"
	"      representors: [rgd-rep3]\n"
	CONFIG_TAIL;

static const char config_b_yaml[] =
	CONFIG_HEAD("differential")
	"    frontend: [192.168.128.0/17, 100.64.0.0/10, 198.18.0.0/15]\n"
	"    icmpRate: 0\n"
	"  rails:\n"
	"    - name: rail0\n"
	"      subnet: 10.0.0.0/24\n"
	"      gateway: 10.0.0.1\n"
	"      representors: [rgd-rep0]\n"
	"    - name: rail1\n"
	"      subnet: 10.0.1.0/24\n"
	"      gateway: 10.0.1.1\n"
	"      vlan: 200\n"
	"      representors: [rgd-rep1]\n"
	"    - name: rail2\n"
	"      subnet: 10.0.2.0/24\n"
	"      gateway: 10.0.2.129\n"
	"      representors: [rgd-rep2]\n"
	"    - name: rail3\n"
	"      subnet: 172.20.8.0/21\n"
	"      gateway: 172.20.8.1\n"
	"      vlan: 4094\n"
	"      representors: [rgd-rep3]\n"
	CONFIG_TAIL;

#define N_RAILS 4
#define MAX_PREFIXES 16
struct model_rail {
	const char *name, *dev;
	uint32_t subnet;
	unsigned len;
	int vlan;                 /* -1: untagged */
};

enum model_kind { M_RAIL, M_FRONTEND, M_SUPERNET };
struct model_prefix {
	uint32_t addr;
	unsigned len;
	enum model_kind kind;
	int rail;
};

/* One config as the model knows it. */
static const struct model_cfg {
	const char *name, *yaml;
	struct model_rail rails[N_RAILS];
	struct model_prefix prefixes[MAX_PREFIXES];
	size_t n_prefixes;
} cfg_a = {
	"A", config_a_yaml,
	{
		{ "rail0", "rgd-rep0", 0x0a000000, 24, -1 },
		{ "rail1", "rgd-rep1", 0x0a000100, 24, 100 },
		{ "rail2", "rgd-rep2", 0x0a000280, 25, -1 },
		{ "rail3", "rgd-rep3", 0xac140800, 21, 4094 },
	},
	{
		{ 0x0a000000, 24, M_RAIL, 0 },
		{ 0x0a000100, 24, M_RAIL, 1 },
		{ 0x0a000280, 25, M_RAIL, 2 },
		{ 0xac140800, 21, M_RAIL, 3 },
		{ 0x0a000000, 16, M_SUPERNET, -1 },
		{ 0xac140000, 14, M_SUPERNET, -1 },
		{ 0xc0a80000, 16, M_FRONTEND, -1 },
		{ 0x04000000, 6,  M_FRONTEND, -1 },
		{ 0x64400000, 10, M_FRONTEND, -1 },
	},
	9,
}, cfg_b = {
	"B", config_b_yaml,
	{
		{ "rail0", "rgd-rep0", 0x0a000000, 24, -1 },
		{ "rail1", "rgd-rep1", 0x0a000100, 24, 200 },
		{ "rail2", "rgd-rep2", 0x0a000200, 24, -1 },
		{ "rail3", "rgd-rep3", 0xac140800, 21, 4094 },
	},
	{
		{ 0x0a000000, 24, M_RAIL, 0 },
		{ 0x0a000100, 24, M_RAIL, 1 },
		{ 0x0a000200, 24, M_RAIL, 2 },
		{ 0xac140800, 21, M_RAIL, 3 },
		{ 0x0a000000, 16, M_SUPERNET, -1 },
		{ 0xac140000, 14, M_SUPERNET, -1 },
		{ 0xc0a88000, 17, M_FRONTEND, -1 },
		{ 0x64400000, 10, M_FRONTEND, -1 },
		{ 0xc6120000, 15, M_FRONTEND, -1 },
	},
	9,
};

/* Ingress devices: the rails' representors, then two that are none. */
enum { DEV_OTHER = N_RAILS, DEV_UPLINK, DEV_COUNT };
static const char *const dev_names[DEV_COUNT] = {
	"rgd-rep0", "rgd-rep1", "rgd-rep2", "rgd-rep3", "rgd-other", "rgd-up",
};

static struct {
	char dir[64], pin_root[96];       /* the bpffs mount, the pin root in it */
	char cfg_dir[64];                 /* the YAML (bpffs holds no plain files) */
	struct rg_datapath dp;
	int ifindex[DEV_COUNT];
	int prog_fd[HOOK_COUNT];
	uint8_t uplink_mac[6];
	int ncpus;
	struct rg_counter *want;          /* the model's counters, RG_STAT_SLOTS */
	struct rg_counter *got;
	uint64_t seed;
	unsigned long first, frames;
	unsigned long reloads, reload_first;
} T;

/* ---- the model: docs/design.md's verdict table ---------------------------- */

/* The uplink rgd-up keeps a veth's default MTU. */
#define MODEL_UPLINK_MTU 1500

struct expect {
	enum rg_stat stat;
	uint32_t slot;
	int vid;                  /* the tag a forward pushes, -1 none */
};

static uint32_t mask_of(unsigned len)
{
	return len ? ~0u << (32 - len) : 0;
}

static uint32_t be32_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Longest prefix first; -1 when nothing matches. */
static int model_lookup(const struct model_cfg *c, uint32_t dst)
{
	int best = -1;

	for (size_t i = 0; i < c->n_prefixes; i++) {
		const struct model_prefix *p = &c->prefixes[i];

		if ((dst & mask_of(p->len)) == p->addr &&
		    (best < 0 || p->len > c->prefixes[best].len))
			best = (int)i;
	}
	return best;
}

/* The table's rows in its order, under config c; dev is the ingress device. */
static struct expect model(const struct model_cfg *c, const uint8_t *f, uint32_t len, int dev)
{
	const struct model_rail *rail;
	uint16_t type, tot;
	unsigned ihl;
	int route;

	if (dev >= N_RAILS)
		return (struct expect){ RG_VERDICT_PASS_UNKNOWN_IF, RG_RAIL_UNKNOWN, -1 };
	rail = &c->rails[dev];
#define VERDICT(s) return (struct expect){ (s), (uint32_t)dev, -1 }
	if (len < 14)
		VERDICT(RG_DROP_MALFORMED);
	if (f[0] & 1)
		VERDICT(RG_VERDICT_PASS_L2_MULTI);
	type = (uint16_t)(f[12] << 8 | f[13]);
	if (type == 0x8100 || type == 0x88a8)
		VERDICT(RG_VERDICT_PASS_TAGGED);
	if (type != 0x0800)
		VERDICT(RG_VERDICT_PASS_NOT_IPV4);
	if (len < 14 + 20)
		VERDICT(RG_DROP_MALFORMED);
	ihl = f[14] & 0x0f;
	if (f[14] >> 4 != 4 || ihl < 5 || 14 + ihl * 4 > len)
		VERDICT(RG_DROP_MALFORMED);
	tot = (uint16_t)(f[16] << 8 | f[17]);
	if (tot < ihl * 4 || tot > len - 14)
		VERDICT(RG_DROP_MALFORMED);
	if ((be32_at(f + 26) & mask_of(rail->len)) != rail->subnet)
		VERDICT(RG_DROP_SPOOFED);
	route = model_lookup(c, be32_at(f + 30));
	if (route < 0)
		VERDICT(RG_VERDICT_PASS_OTHER);
	switch (c->prefixes[route].kind) {
	case M_SUPERNET:
		VERDICT(RG_DROP_NO_ROUTE);
	case M_RAIL:
		if (c->prefixes[route].rail == dev)
			VERDICT(RG_VERDICT_PASS_LOCAL);
		break;
	case M_FRONTEND:
		break;
	}
	if (f[14 + 8] <= 1)
		VERDICT(RG_DROP_TTL_EXCEEDED);
	/* what would leave the uplink, Ethernet padding included */
	if (len - 14 > MODEL_UPLINK_MTU)
		VERDICT(RG_DROP_TOO_BIG);
#undef VERDICT
	return (struct expect){ c->prefixes[route].kind == M_RAIL ? RG_VERDICT_CROSS_RAIL
								     : RG_VERDICT_FRONTEND,
				(uint32_t)dev, rail->vlan };
}

static bool forwarded(enum rg_stat s)
{
	return s == RG_VERDICT_CROSS_RAIL || s == RG_VERDICT_FRONTEND;
}

static bool dropped(enum rg_stat s)
{
	return s == RG_DROP_MALFORMED || s == RG_DROP_SPOOFED || s == RG_DROP_NO_ROUTE ||
	       s == RG_DROP_TTL_EXCEEDED || s == RG_DROP_NO_EGRESS || s == RG_DROP_REDIRECT_FAILED ||
	       s == RG_DROP_TOO_BIG;
}

static int model_action(enum hook h, enum rg_stat s)
{
	if (h == HOOK_XDP)
		return forwarded(s) ? XDP_REDIRECT : dropped(s) ? XDP_DROP : XDP_PASS;
	return forwarded(s) ? TC_ACT_REDIRECT : dropped(s) ? TC_ACT_SHOT : TC_ACT_OK;
}

/* One's complement sum of two 16-bit words, end-around carry. */
static uint16_t oc_add(uint16_t a, uint16_t b)
{
	uint32_t s = (uint32_t)a + b;

	return (uint16_t)((s & 0xffff) + (s >> 16));
}

/*
 * The checksum after TTL - 1, by RFC 1624 eqn. 3, HC' = ~(~HC + ~m + m'),
 * m being the 16-bit word holding TTL and protocol: an update, not a
 * recomputation, so a checksum that was wrong stays exactly as wrong.
 */
static void model_ttl_dec(uint8_t *ip)
{
	uint16_t hc = (uint16_t)(ip[10] << 8 | ip[11]);
	uint16_t m = (uint16_t)(ip[8] << 8 | ip[9]), m2 = (uint16_t)(m - 0x0100);
	uint16_t hc2 = (uint16_t)~oc_add(oc_add((uint16_t)~hc, (uint16_t)~m), m2);

	ip[8]--;
	ip[10] = (uint8_t)(hc2 >> 8);
	ip[11] = (uint8_t)hc2;
}

/* The forwarded frame: the MACs, the tag after them (vid >= 0), TTL - 1
 * with its checksum update, every other byte as it came. */
static uint32_t model_rewrite(const uint8_t *in, uint32_t len, int vid, uint8_t *out)
{
	uint32_t tag = vid >= 0 ? 4 : 0;
	uint8_t *ip = out + 14 + tag;

	memcpy(out, gateway_mac, 6);
	memcpy(out + 6, T.uplink_mac, 6);
	if (tag) {
		out[12] = 0x81;
		out[13] = 0x00;
		out[14] = (uint8_t)(vid >> 8);
		out[15] = (uint8_t)vid;
	}
	memcpy(out + 12 + tag, in + 12, len - 12);
	model_ttl_dec(ip);
	return len + tag;
}

/* ---- frames ------------------------------------------------------------------ */

static bool chance(uint64_t *s, unsigned percent)
{
	return test_rnd(s, 100) < percent;
}

/* A host of prefix (addr, len), the edges included. */
static uint32_t in_prefix(uint64_t *s, uint32_t addr, unsigned len)
{
	uint32_t size_mask = ~mask_of(len);

	switch (test_rnd(s, 4)) {
	case 0: return addr;
	case 1: return addr | size_mask;
	default: return addr | ((uint32_t)test_rnd64(s) & size_mask);
	}
}

/* An address the verdict table of config c cares about. */
static uint32_t pick_addr(uint64_t *s, const struct model_cfg *c)
{
	const struct model_prefix *p = &c->prefixes[test_rnd(s, (uint32_t)c->n_prefixes)];

	switch (test_rnd(s, 6)) {
	case 0:
		return (uint32_t)test_rnd64(s);
	case 1:           /* just outside the prefix */
		return p->addr - 1 - test_rnd(s, 2);
	case 2:
		return (p->addr | ~mask_of(p->len)) + 1 + test_rnd(s, 2);
	default:
		return in_prefix(s, p->addr, p->len);
	}
}

static const uint8_t ttls[] = { 0, 1, 2, 3, 64, 128, 254, 255 };

/*
 * Frame i of the run: into buf, its length returned, its ingress in *dev.
 * reload: a frame of the reload test, its own sequence, with addresses
 * around config A's and config B's prefixes alike; otherwise config A's
 * only (the first test's frames, as they always were).
 */
static uint32_t make_frame(unsigned long i, uint8_t *buf, int *dev, bool reload)
{
	uint64_t s = T.seed ^ (i * 0xd1b54a32d192ed03ull) ^ (reload ? 0x7f4a7c159e3779b9ull : 0);
	const struct model_cfg *src = &cfg_a, *dst = &cfg_a;
	struct rg_frame_spec spec;
	uint32_t len, target;

	test_rnd64(&s);
	if (reload) {
		src = chance(&s, 50) ? &cfg_a : &cfg_b;
		dst = chance(&s, 50) ? &cfg_a : &cfg_b;
	}
	*dev = chance(&s, 85) ? (int)test_rnd(&s, N_RAILS) : (int)(DEV_OTHER + test_rnd(&s, 2));
	rg_frame_spec_default(&spec);
	if (*dev < N_RAILS && chance(&s, 75))
		spec.saddr = in_prefix(&s, src->rails[*dev].subnet, src->rails[*dev].len);
	else
		spec.saddr = pick_addr(&s, src);
	spec.daddr = pick_addr(&s, dst);
	spec.ttl = chance(&s, 50) ? ttls[test_rnd(&s, sizeof(ttls))] : (uint8_t)test_rnd(&s, 256);
	if (chance(&s, 5))
		memset(spec.dst_mac, 0xff, 6);
	else if (chance(&s, 5))
		spec.dst_mac[0] |= 1;
	if (chance(&s, 6)) {
		spec.vlan_tpid = chance(&s, 50) ? 0x8100 : 0x88a8;
		spec.vlan_tci = (uint16_t)test_rnd(&s, 4096);
	}
	if (chance(&s, 5))
		spec.ethertype = chance(&s, 50) ? 0x86dd : (uint16_t)test_rnd64(&s);
	if (chance(&s, 20))
		spec.ihl = (uint8_t)(6 + test_rnd(&s, 10));
	if (chance(&s, 15))
		spec.frag = (uint16_t)test_rnd64(&s) & 0x3fff;
	spec.protocol = (uint8_t)(chance(&s, 80) ? 17 : test_rnd64(&s));

	/* The frame's length: mostly ordinary, some short, some jumbo. */
	switch (test_rnd(&s, 10)) {
	case 0: target = 14 + test_rnd(&s, 60); break;
	case 1: case 2: target = 1000 + test_rnd(&s, TC_MAX_LEN - 1000); break;
	case 3: target = TC_MAX_LEN + test_rnd(&s, FRAME_MAX - TC_MAX_LEN + 1); break;
	default: target = 34 + test_rnd(&s, 300); break;
	}
	spec.payload_len = 0;
	len = (uint32_t)rg_frame_len(&spec);
	if (target > len)
		spec.payload_len = target - len;
	if (chance(&s, 10))
		spec.padding = test_rnd(&s, 40);
	if (chance(&s, 10))
		spec.tot_len_delta = (int)test_rnd(&s, 81) - 40;
	len = (uint32_t)rg_frame_build(buf, FRAME_MAX + 64, &spec);
	if (len > FRAME_MAX)
		len = FRAME_MAX;
	if (target < len)
		len = target < 14 ? 14 : target;     /* cut short: truncations */

	/* Mutations: flip bytes in the headers. */
	if (chance(&s, 20)) {
		unsigned flips = 1 + test_rnd(&s, 3);

		for (unsigned k = 0; k < flips; k++)
			buf[test_rnd(&s, len < 74 ? len : 74)] ^= (uint8_t)(1 + test_rnd(&s, 255));
	}
	if (chance(&s, 3) && len >= 18)
		buf[14] = (uint8_t)test_rnd64(&s);     /* any version and IHL */
	return len;
}

/* ---- running one frame ----------------------------------------------------- */

static uint8_t out_buf[FRAME_MAX + 64];

static int run_hook(enum hook h, const uint8_t *in, uint32_t len, int dev, uint32_t *out_len)
{
	struct xdp_md xdp_ctx = { .data_end = len, .ingress_ifindex = (uint32_t)T.ifindex[dev] };
	struct __sk_buff skb_ctx = { .ingress_ifindex = (uint32_t)T.ifindex[dev],
				     .ifindex = (uint32_t)T.ifindex[dev] };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = in, .data_size_in = len,
		    .data_out = out_buf, .data_size_out = sizeof(out_buf), .repeat = 1);

	if (h == HOOK_XDP) {
		opts.ctx_in = &xdp_ctx;
		opts.ctx_size_in = sizeof(xdp_ctx);
	} else {
		opts.ctx_in = &skb_ctx;
		opts.ctx_size_in = sizeof(skb_ctx);
	}
	if (bpf_prog_test_run_opts(T.prog_fd[h], &opts))
		return -errno;
	*out_len = opts.data_size_out;
	return (int)opts.retval;
}

static int read_slot(uint32_t slot, struct rg_counter *sum)
{
	struct rg_counter vals[T.ncpus];

	if (bpf_map_lookup_elem(T.dp.maps.fd[RG_MAPID_STATS], &slot, vals))
		return -errno;
	memset(sum, 0, sizeof(*sum));
	for (int c = 0; c < T.ncpus; c++) {
		sum->packets += vals[c].packets;
		sum->bytes += vals[c].bytes;
	}
	return 0;
}

static void print_frame(const uint8_t *f, uint32_t len)
{
	char hex[2 * 80 + 1];
	uint32_t n = len < 80 ? len : 80;

	for (uint32_t i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", f[i]);
	print_message("# frame (%u bytes, first %u): %s\n", len, n, hex);
}

static void replay_hint(unsigned long i)
{
	print_message("# replay: RG_DIFF_SEED=%llu RG_DIFF_FIRST=%lu RG_DIFF_FRAMES=1 "
		      "build/tests/bpf/test_differential\n", (unsigned long long)T.seed, i);
}

/* What one hook returned (ret, out_len bytes in out_buf) against one
 * expectation: true when equal, otherwise what was wrong, into why. */
static bool output_matches(enum hook h, int ret, uint32_t out_len, const uint8_t *in,
			   uint32_t len, const struct expect *e, char *why, size_t n)
{
	static uint8_t want[FRAME_MAX + 64];
	uint32_t want_len = len;

	why[0] = '\0';
	if (ret < 0) {
		snprintf(why, n, "%s test_run: %s", hook_names[h], strerror(-ret));
		return false;
	}
	if (ret != model_action(h, e->stat)) {
		snprintf(why, n, "%s: action %d, the model says %d (%s)", hook_names[h], ret,
			 model_action(h, e->stat), rg_stat_name(e->stat));
		return false;
	}
	/* TC: the tag goes into skb metadata, which test_run does not copy out. */
	if (forwarded(e->stat))
		want_len = model_rewrite(in, len, h == HOOK_XDP ? e->vid : -1, want);
	else
		memcpy(want, in, len);
	if (forwarded(e->stat) && rg_ipv4_csum_ok(in + 14) &&
	    !rg_ipv4_csum_ok(out_buf + want_len - len + 14)) {
		snprintf(why, n, "%s: a valid checksum came out invalid", hook_names[h]);
		return false;
	}
	if (out_len != want_len) {
		snprintf(why, n, "%s: %u bytes out, the model says %u", hook_names[h], out_len,
			 want_len);
		return false;
	}
	for (uint32_t b = 0; b < want_len; b++) {
		if (out_buf[b] != want[b]) {
			snprintf(why, n, "%s: byte %u is %02x, the model says %02x (%s)",
				 hook_names[h], b, out_buf[b], want[b], rg_stat_name(e->stat));
			return false;
		}
	}
	return true;
}

/* One frame through one hook; "" or what was wrong, into why. */
static void check_hook(enum hook h, const uint8_t *in, uint32_t len, int dev,
		       const struct expect *e, char *why, size_t n)
{
	uint32_t out_len = 0, slot = RG_STAT_INDEX(e->slot, e->stat);
	struct rg_counter got = { 0 };
	int ret = run_hook(h, in, len, dev, &out_len);

	if (!output_matches(h, ret, out_len, in, len, e, why, n))
		return;
	T.want[slot].packets++;
	T.want[slot].bytes += len;
	if (read_slot(slot, &got) || got.packets != T.want[slot].packets ||
	    got.bytes != T.want[slot].bytes)
		snprintf(why, n, "%s: counter rail %u %s is %llu/%llu, the model says %llu/%llu "
			 "(the frame was counted elsewhere)", hook_names[h], e->slot,
			 rg_stat_name(e->stat), (unsigned long long)got.packets,
			 (unsigned long long)got.bytes,
			 (unsigned long long)T.want[slot].packets,
			 (unsigned long long)T.want[slot].bytes);
}

/* Every counter equals the model's: with the per-frame check of the
 * expected slot, no frame moved any other counter. */
static bool all_counters_match(char *why, size_t n)
{
	char err[256];

	if (rg_map_set_read_stats(&T.dp.maps, T.got, err, sizeof(err))) {
		snprintf(why, n, "read stats: %s", err);
		return false;
	}
	for (uint32_t i = 0; i < RG_STAT_SLOTS; i++) {
		if (T.got[i].packets != T.want[i].packets || T.got[i].bytes != T.want[i].bytes) {
			snprintf(why, n, "counter rail %u %s is %llu/%llu, the model says %llu/%llu",
				 i / RG_STAT_MAX, rg_stat_name(i % RG_STAT_MAX),
				 (unsigned long long)T.got[i].packets,
				 (unsigned long long)T.got[i].bytes,
				 (unsigned long long)T.want[i].packets,
				 (unsigned long long)T.want[i].bytes);
			return false;
		}
	}
	return true;
}

/* ---- setup ------------------------------------------------------------------ */

/* The devices are up and railgate is attached to them: no IPv6, so the
 * kernel sends no frame of its own (MLD, DAD) into a counter. */
static int make_devices(void)
{
	if (test_sh("sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1"))
		return -1;
	for (int i = 0; i < DEV_COUNT; i++) {
		if (test_sh("ip link add %s type veth peer name %sp && ip link set %s up && "
		       "ip link set %sp up", dev_names[i], dev_names[i], dev_names[i], dev_names[i]))
			return -1;
		T.ifindex[i] = (int)if_nametoindex(dev_names[i]);
		if (!T.ifindex[i])
			return -1;
	}
	return test_sh("ip addr add 10.1.255.10/24 dev rgd-up && "
		  "ip neigh add 10.1.255.1 lladdr 0c:42:a1:00:00:01 dev rgd-up nud permanent");
}

/* SIOCGIFHWADDR: /sys/class/net shows the namespace sysfs was mounted in. */
static int read_uplink_mac(void)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), ret;

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev_names[DEV_UPLINK]);
	ret = fd < 0 ? -1 : ioctl(fd, SIOCGIFHWADDR, &ifr);
	if (fd >= 0)
		close(fd);
	if (!ret)
		memcpy(T.uplink_mac, ifr.ifr_hwaddr.sa_data, 6);
	return ret;
}

static unsigned long env_ul(const char *name, unsigned long dflt)
{
	const char *v = getenv(name);

	return v && *v ? strtoul(v, NULL, 0) : dflt;
}

static void cfg_path(const struct model_cfg *c, char *path, size_t n)
{
	snprintf(path, n, "%s/differential-%s.yaml", T.cfg_dir, c->name);
}

/* Config c's YAML into its file. */
static int write_config(const struct model_cfg *c)
{
	char path[128];
	FILE *f;

	cfg_path(c, path, sizeof(path));
	f = fopen(path, "w");
	if (!f)
		return -1;
	if (fputs(c->yaml, f) < 0) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

/* railgate up, as the command does it, on config c's file. */
static int railgate_up(const struct model_cfg *c)
{
	struct rg_config cfg = { 0 };
	struct rg_diags diags = { 0 };
	struct rg_apply_result res;
	struct rg_log log;
	char path[128], err[512];
	FILE *devnull = fopen("/dev/null", "w");
	int ret;

	cfg_path(c, path, sizeof(path));
	if (!devnull)
		return -1;
	if (rg_config_load(path, &cfg, &diags)) {
		for (size_t i = 0; i < diags.count; i++)
			fprintf(stderr, "# %s\n", diags.msgs[i]);
		rg_diags_free(&diags);
		fclose(devnull);
		return -1;
	}
	rg_log_init(&log, devnull, RG_LOG_BARE);
	ret = rg_apply_config(T.pin_root, &cfg, NULL, &log, &res, err, sizeof(err));
	if (ret)
		fprintf(stderr, "# railgate up (config %s): %s\n", c->name, err);
	rg_config_free(&cfg);
	fclose(devnull);
	return ret;
}

/* The rails got the ids the model counts them under (config order). */
static int rail_ids_as_modelled(void)
{
	static struct rg_rail rails[RG_MAX_RAILS];

	if (rg_datapath_active_rails(&T.dp, rails))
		return -1;
	for (int r = 0; r < N_RAILS; r++)
		if (strcmp(rails[r].name, cfg_a.rails[r].name))
			return -1;
	return 0;
}

static int group_setup(void **state)
{
	char err[256];

	if (unshare(CLONE_NEWNET | CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		fprintf(stderr, "# unshare: %s\n", strerror(errno));
		return -1;
	}
	snprintf(T.dir, sizeof(T.dir), "/tmp/rgdiff-XXXXXX");
	if (!mkdtemp(T.dir) || mount("bpf", T.dir, "bpf", 0, NULL)) {
		fprintf(stderr, "# bpffs at %s: %s\n", T.dir, strerror(errno));
		return -1;
	}
	snprintf(T.pin_root, sizeof(T.pin_root), "%s/railgate", T.dir);
	if (make_devices() || read_uplink_mac()) {
		fprintf(stderr, "# cannot create the test devices\n");
		return -1;
	}
	snprintf(T.cfg_dir, sizeof(T.cfg_dir), "/tmp/rgdiff-cfg-XXXXXX");
	if (!mkdtemp(T.cfg_dir))
		return -1;
	if (write_config(&cfg_a) || write_config(&cfg_b) || railgate_up(&cfg_a))
		return -1;
	if (rg_datapath_open_readonly(&T.dp, T.pin_root, err, sizeof(err))) {
		fprintf(stderr, "# open the pins: %s\n", err);
		return -1;
	}
	if (rail_ids_as_modelled()) {
		fprintf(stderr, "# the rails are not numbered in config order\n");
		return -1;
	}
	T.prog_fd[HOOK_XDP] = T.dp.prog_fd[RG_PROG_XDP];
	T.prog_fd[HOOK_TC] = T.dp.prog_fd[RG_PROG_TC];
	T.ncpus = libbpf_num_possible_cpus();
	T.want = calloc(RG_STAT_SLOTS, sizeof(*T.want));
	T.got = calloc(RG_STAT_SLOTS, sizeof(*T.got));
	if (T.ncpus <= 0 || !T.want || !T.got)
		return -1;
	T.seed = env_ul("RG_DIFF_SEED", (unsigned long)time(NULL) ^ (unsigned long)getpid() << 16);
	T.frames = env_ul("RG_DIFF_FRAMES", 50000);
	T.first = env_ul("RG_DIFF_FIRST", 0);
	T.reloads = env_ul("RG_DIFF_RELOADS", 100);
	T.reload_first = env_ul("RG_DIFF_RELOAD_FIRST", 0);
	print_message("# seed %llu, frames %lu..%lu (RG_DIFF_SEED, RG_DIFF_FIRST, RG_DIFF_FRAMES); "
		      "%lu reloads (RG_DIFF_RELOADS)\n", (unsigned long long)T.seed, T.first,
		      T.first + T.frames - 1, T.reloads);
	return rg_map_set_reset_stats(&T.dp.maps, err, sizeof(err));
}

static int group_teardown(void **state)
{
	char path[128];

	rg_datapath_close(&T.dp);
	cfg_path(&cfg_a, path, sizeof(path));
	unlink(path);
	cfg_path(&cfg_b, path, sizeof(path));
	unlink(path);
	rmdir(T.cfg_dir);
	umount(T.dir);
	rmdir(T.dir);
	free(T.want);
	free(T.got);
	/* the namespaces, the devices, the bpffs and the links die with the process */
	return 0;
}

/* ---- the test ---------------------------------------------------------------- */

static void test_differential(void **state)
{
	static uint8_t frame[FRAME_MAX + 64];
	unsigned long stat_seen[RG_STAT_MAX] = { 0 }, tc_skipped = 0;
	char why[HOOK_COUNT][256], all[256];

	for (unsigned long i = T.first; i < T.first + T.frames; i++) {
		int dev;
		uint32_t len = make_frame(i, frame, &dev, false);
		struct expect e = model(&cfg_a, frame, len, dev);
		/* TC test_run refuses an IPv4 or IPv6 skb without a whole
		 * network header, and anything beyond TC_MAX_LEN: those go
		 * through XDP only. */
		uint16_t type = (uint16_t)(frame[12] << 8 | frame[13]);
		bool tc = len <= TC_MAX_LEN && !(type == 0x0800 && len < 14 + 20) &&
			  !(type == 0x86dd && len < 14 + 40);

		check_hook(HOOK_XDP, frame, len, dev, &e, why[HOOK_XDP], sizeof(why[0]));
		why[HOOK_TC][0] = '\0';
		if (tc)
			check_hook(HOOK_TC, frame, len, dev, &e, why[HOOK_TC], sizeof(why[0]));
		else
			tc_skipped++;
		stat_seen[e.stat]++;
		for (int h = 0; h < HOOK_COUNT; h++) {
			if (!why[h][0])
				continue;
			print_message("# frame %lu on %s: %s\n", i, dev_names[dev], why[h]);
			print_frame(frame, len);
			replay_hint(i);
			fail_msg("frame %lu differs from the model (seed %llu)", i,
				 (unsigned long long)T.seed);
		}
		if ((i - T.first + 1) % CHECK_ALL_EVERY == 0 && !all_counters_match(all, sizeof(all))) {
			print_message("# after frame %lu: %s\n", i, all);
			print_message("# replay: RG_DIFF_SEED=%llu RG_DIFF_FIRST=%lu RG_DIFF_FRAMES=%d "
				      "build/tests/bpf/test_differential\n", (unsigned long long)T.seed,
				      i + 1 - CHECK_ALL_EVERY, CHECK_ALL_EVERY);
			fail_msg("a counter the model did not expect moved (seed %llu)",
				 (unsigned long long)T.seed);
		}
	}
	if (!all_counters_match(all, sizeof(all)))
		fail_msg("at the end: %s (seed %llu)", all, (unsigned long long)T.seed);
	print_message("# %lu frames (%lu through XDP only), verdicts:", T.frames, tc_skipped);
	for (unsigned st = 0; st < RG_STAT_MAX; st++)
		if (stat_seen[st])
			print_message(" %s %lu", rg_stat_name(st), stat_seen[st]);
	print_message("\n");
	/* A generator that stopped reaching a row would make the test hollow. */
	for (unsigned st = 0; st < RG_STAT_MAX && T.frames >= 10000; st++) {
		if (st == RG_DROP_NO_EGRESS || st == RG_DROP_REDIRECT_FAILED)
			continue;   /* not reachable with a valid egress and the uplink in the devmap */
		if (!stat_seen[st])
			fail_msg("no frame reached %s", rg_stat_name(st));
	}
}

/* ---- the test during reloads ------------------------------------------------ */

/*
 * Frames during back-to-back reloads.  A child process applies config B
 * and config A in turn, RG_DIFF_RELOADS times, through railgate up's own
 * code path (railgate_up: rg_config_load, rg_apply_config), while this
 * process sends frames through both pinned programs.  Each output must be
 * config A's or config B's for that frame, whole: the action and every
 * byte as one of the two models says, never a mix, never anything else.
 * XDP and TC are two test_runs, so a flip may fall between them: each hook
 * is held to A or B on its own, and XDP/TC parity is the first test's.
 * After the last reload, RELOAD_AFTER more frames must match the config
 * applied last, and no other.
 *
 * The counters cannot be held per frame while the reloads run: a frame's
 * slot is its verdict's, and which config decided it shows only when A's
 * and B's outputs differ (pass_local under one and pass_other under the
 * other leave the same untouched frame).  So the counters are held in
 * total: at the end, the packets counted in all slots together grew by
 * exactly the hook runs, the bytes by their lengths.
 *
 * Frames come from their own sequence (seed, i), addresses around both
 * configs' prefixes; frame numbers start at RG_DIFF_RELOAD_FIRST.
 */
#define RELOAD_AFTER 2000

static pid_t reloader = -1;

static void stop_reloader(void)
{
	if (reloader > 0) {
		kill(reloader, SIGKILL);
		waitpid(reloader, NULL, 0);
	}
	reloader = -1;
}

/* All slots together. */
static int stat_totals(uint64_t *packets, uint64_t *bytes)
{
	char err[256];

	if (rg_map_set_read_stats(&T.dp.maps, T.got, err, sizeof(err))) {
		print_message("# read stats: %s\n", err);
		return -1;
	}
	*packets = *bytes = 0;
	for (uint32_t i = 0; i < RG_STAT_SLOTS; i++) {
		*packets += T.got[i].packets;
		*bytes += T.got[i].bytes;
	}
	return 0;
}

static void reload_fail_report(unsigned long i, const char *phase, const uint8_t *frame,
			       uint32_t len, int dev, const struct expect e[2])
{
	print_message("# frame %lu on %s (%s): config A says %s, config B says %s\n", i,
		      dev_names[dev], phase, rg_stat_name(e[0].stat), rg_stat_name(e[1].stat));
	print_frame(frame, len);
	print_message("# replay: RG_DIFF_SEED=%llu RG_DIFF_RELOAD_FIRST=%lu "
		      "build/tests/bpf/test_differential (frame %lu is then the first sent; "
		      "which config it meets depends on timing: rerun, or RG_DIFF_RELOADS=N "
		      "for more)\n", (unsigned long long)T.seed, i, i);
}

static void test_reload_differential(void **state)
{
	static uint8_t frame[FRAME_MAX + 64];
	const struct model_cfg *const cfgs[2] = { &cfg_a, &cfg_b };
	/* B first: A is running; the last reload leaves cfgs[last] running */
	unsigned last = T.reloads % 2 ? 1 : 0;
	unsigned long i, during = 0, after = 0, runs = 0, told[2] = { 0 }, differ = 0;
	uint64_t pk0, by0, pk1, by1, bytes = 0;
	struct timespec t0, t1;
	char why[2][256];
	bool done = false;
	int status = -1;

	assert_int_equal(stat_totals(&pk0, &by0), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	fflush(stdout);
	fflush(stderr);
	reloader = fork();
	assert_true(reloader >= 0);
	if (reloader == 0) {
		for (unsigned long k = 0; k < T.reloads; k++)
			if (railgate_up(cfgs[k % 2 ? 0 : 1]))
				_exit(1);
		_exit(0);
	}
	for (i = T.reload_first; !done || after < RELOAD_AFTER; i++) {
		int dev;
		uint32_t len = make_frame(i, frame, &dev, true);
		struct expect e[2] = { model(&cfg_a, frame, len, dev), model(&cfg_b, frame, len, dev) };
		uint16_t type = (uint16_t)(frame[12] << 8 | frame[13]);
		/* as in the first test: what TC test_run refuses goes through XDP only */
		bool tc = len <= TC_MAX_LEN && !(type == 0x0800 && len < 14 + 20) &&
			  !(type == 0x86dd && len < 14 + 40);
		const char *phase = done ? "after the last reload" : "during the reloads";
		bool frame_differs = false;

		if (!done && waitpid(reloader, &status, WNOHANG) == reloader) {
			reloader = -1;
			done = true;
			if (!WIFEXITED(status) || WEXITSTATUS(status))
				fail_msg("the reloads failed (status %#x, seed %llu)", status,
					 (unsigned long long)T.seed);
			phase = "after the last reload";
		}
		for (int h = 0; h < HOOK_COUNT; h++) {
			uint32_t out_len = 0;
			bool ok[2];
			int ret;

			if (h == HOOK_TC && !tc)
				continue;
			ret = run_hook((enum hook)h, frame, len, dev, &out_len);
			for (int c = 0; c < 2; c++)
				ok[c] = output_matches((enum hook)h, ret, out_len, frame, len, &e[c],
						       why[c], sizeof(why[c]));
			runs++;
			bytes += len;
			if (done ? !ok[last] : !ok[0] && !ok[1]) {
				stop_reloader();
				reload_fail_report(i, phase, frame, len, dev, e);
				if (done) {
					print_message("# config %s was applied last: %s\n",
						      cfgs[last]->name, why[last]);
					fail_msg("frame %lu after the last reload is not config %s's "
						 "(seed %llu)", i, cfgs[last]->name,
						 (unsigned long long)T.seed);
				}
				print_message("# against config A: %s\n# against config B: %s\n",
					      why[0], why[1]);
				fail_msg("frame %lu during the reloads matches neither config "
					 "(seed %llu)", i, (unsigned long long)T.seed);
			}
			if (!done && ok[0] != ok[1]) {
				told[ok[1]]++;
				frame_differs = true;
			}
		}
		if (done)
			after++;
		else
			during++;
		differ += frame_differs;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_int_equal(stat_totals(&pk1, &by1), 0);
	print_message("# %lu reloads in %.2f s; %lu frames during them (%lu told A from B: "
		      "%lu hook runs A's, %lu B's), %lu after the last (config %s); "
		      "%lu hook runs\n", T.reloads,
		      (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
		      during, differ, told[0], told[1], after, cfgs[last]->name, runs);
	if (pk1 - pk0 != runs || by1 - by0 != bytes)
		fail_msg("the counters grew by %llu packets / %llu bytes, the frames were %lu / "
			 "%llu (seed %llu)", (unsigned long long)(pk1 - pk0),
			 (unsigned long long)(by1 - by0), runs, (unsigned long long)bytes,
			 (unsigned long long)T.seed);
	/* Reloads the datapath never showed would make the test hollow. */
	if (T.reloads >= 2 && (!told[0] || !told[1]))
		fail_msg("during %lu reloads no frame came out as config %s's (seed %llu)",
			 T.reloads, told[0] ? "B" : "A", (unsigned long long)T.seed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_differential),
		cmocka_unit_test(test_reload_differential),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
