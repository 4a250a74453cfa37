// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * railgate monitor: the datapath's events as they happen (drops by
 * default, every verdict with --all), from a ring of this process's own.
 *
 * The monitor takes a lease (maps/map_set.h, rg_map_set_monitor_claim):
 * a slot in rg_state and its ring in rg_event_rings, renewed every second;
 * killed, the lease runs out within RG_MONITOR_LEASE_NS and the datapath
 * stops writing.  It writes nothing else and takes no lock: a reader, like
 * `stats`.  The JSON fields are documented in docs/commands.md.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>

#include "tools/railgate/commands.h"
#include "tools/railgate/cli.h"
#include "loader/datapath/datapath.h"

#define POLL_MS          200
#define LOSS_REPORT_NS   (5 * RG_NSEC_PER_SEC)

struct monitor_opts {
	enum rg_monitor_scope scope;
	const char *rail;
	bool json;
	long count;                  /* 0: until a signal */
};

struct monitor {
	struct monitor_opts o;
	struct rg_datapath dp;
	struct rg_rail rails[RG_MAX_RAILS];
	int rail_id;                 /* --rail, or -1 */
	int64_t wall_minus_mono_ns;  /* CLOCK_REALTIME - CLOCK_MONOTONIC */
	long printed;
	bool done;                   /* --count reached */
	struct rg_counter side0[RG_SIDE_MAX];      /* at the start */
	struct rg_counter side_shown[RG_SIDE_MAX]; /* at the last loss report */
};

static volatile sig_atomic_t stop_monitor;

static void on_signal(int sig)
{
	(void)sig;
	stop_monitor = 1;
}

static uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * RG_NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* What the datapath's event budget is: the figures come from maps/rg_abi.h. */
static void write_monitor_about(FILE *f)
{
	fprintf(f,
"Print the datapath's events as they happen, one line each: time, rail,\n"
"representor, hook, verdict or drop reason, protocol, source and destination\n"
"(with ports, or ICMP type and code), TTL and length.  The datapath writes\n"
"events only while a monitor runs (a lease renewed every second: a monitor\n"
"killed with SIGKILL stops them within %u s); up to %u monitors at once, each\n"
"with a ring of its own.  Events are rate-limited for the node (%u/s,\n"
"burst %u, shared by all monitors); with --all the verdicts that are no\n"
"drops are sampled 1 in %u per CPU.  Events refused by the rate limit or lost\n"
"to a full ring are counted (monitor_ratelimited, monitor_lost in `stats`) and\n"
"reported every 5 s when they grew, and at exit.\n",
		(unsigned)(RG_MONITOR_LEASE_NS / RG_NSEC_PER_SEC), (unsigned)RG_MONITOR_SLOTS,
		RG_MONITOR_RATE, RG_MONITOR_BURST, RG_MONITOR_SAMPLE);
}

struct monitor_args {
	struct monitor_opts o;
	bool drops, all;
};

static const struct rg_opt monitor_options[] = {
	{ .name = "drops", .short_name = 'd', .kind = RG_OPT_FLAG,
	  .offset = offsetof(struct monitor_args, drops), .help = "drop reasons only (the default)" },
	{ .name = "all", .short_name = 'a', .kind = RG_OPT_FLAG, .offset = offsetof(struct monitor_args, all),
	  .help = "every verdict: forwarded and passed frames too (sampled)" },
	{ .name = "rail", .short_name = 'r', .arg = "NAME", .kind = RG_OPT_STRING,
	  .offset = offsetof(struct monitor_args, o.rail), .help = "only events of frames from this rail" },
	{ .name = "json", .short_name = 'j', .kind = RG_OPT_FLAG, .offset = offsetof(struct monitor_args, o.json),
	  .help = "one JSON object per line (JSON Lines): \"type\":\"event\" for\n"
		  "an event, \"loss\" and \"summary\" for the counts\n"
		  "(docs/commands.md names every field)" },
	{ .name = "count", .short_name = 'n', .arg = "N", .kind = RG_OPT_LONG,
	  .offset = offsetof(struct monitor_args, o.count), .min = 1, .max = LONG_MAX,
	  .bad = "--count wants a positive number, not '%s'", .help = "exit after N events" },
	{ 0 },
};

const struct rg_cmd_opts rg_monitor_opts = {
	.name = "monitor",
	.usage = "usage: railgate monitor [--drops | --all] [--rail NAME] [--json] [--count N]",
	.write_about = write_monitor_about,
	.opts = monitor_options,
	.args_size = sizeof(struct monitor_args),
	.trailer = "Exit status: 0 at --count, SIGINT or SIGTERM; 1 when railgate is not up (or is\n"
		   "taken down while the monitor runs), the rail is unknown or every monitor slot\n"
		   "is taken; 2 for bad usage.",
	.after = RG_AFTER_HINT,
	.unknown = "unknown option or missing argument: %s",
	.quiet = true,
};

/* 0, 1 (--help printed) or 2 (bad usage, said why). */
static int parse_monitor_opts(struct rg_global_opts *g, int argc, char **argv, struct monitor_opts *o)
{
	struct monitor_args a = { .o = { .scope = RG_MONITOR_DROPS } };
	int first;
	enum rg_opts_result r = cli_parse(&rg_monitor_opts, g, argc, argv, &a, &first);

	if (r != RG_OPTS_RUN)
		return r == RG_OPTS_HELP ? 1 : 2;
	*o = a.o;
	if (first < argc)
		return cli_usage_error("monitor", "unexpected argument '%s'", argv[first]);
	if (a.drops && a.all)
		return cli_usage_error("monitor", "--drops and --all exclude each other");
	if (a.all)
		o->scope = RG_MONITOR_ALL;
	if (o->rail && !*o->rail)
		return cli_usage_error("monitor", "--rail wants a rail name");
	return 0;
}

static const char *rail_name(const struct monitor *m, uint32_t slot, char buf[16])
{
	if (slot < RG_MAX_RAILS && (m->rails[slot].flags & RG_RAIL_F_VALID))
		return m->rails[slot].name;
	if (slot == RG_RAIL_UNKNOWN)
		return "unknown";
	snprintf(buf, 16, "#%u", slot);
	return buf;
}

/* The active rails again (a reload may rename or add), and --rail's id. */
static int refresh_rails(struct monitor *m)
{
	rg_datapath_active_rails(&m->dp, m->rails);
	if (!m->o.rail)
		return 0;
	for (int i = 0; i < RG_MAX_RAILS; i++) {
		if ((m->rails[i].flags & RG_RAIL_F_VALID) && !strcmp(m->rails[i].name, m->o.rail)) {
			m->rail_id = i;
			return 0;
		}
	}
	return -ENOENT;
}

static const char *protocol_name(uint8_t p, char buf[8])
{
	switch (p) {
	case IPPROTO_TCP:  return "tcp";
	case IPPROTO_UDP:  return "udp";
	case IPPROTO_ICMP: return "icmp";
	default:
		snprintf(buf, 8, "proto%u", p);
		return buf;
	}
}

/* ISO 8601 UTC with microseconds, from the event's CLOCK_MONOTONIC time. */
static const char *event_time(const struct monitor *m, uint64_t mono_ns, char buf[40])
{
	int64_t wall = (int64_t)mono_ns + m->wall_minus_mono_ns;
	time_t secs = (time_t)(wall / (int64_t)RG_NSEC_PER_SEC);
	struct tm tm;
	size_t len;

	gmtime_r(&secs, &tm);
	len = strftime(buf, 40, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + len, 40 - len, ".%06ldZ", (long)(wall % (int64_t)RG_NSEC_PER_SEC) / 1000);
	return buf;
}

static bool is_icmp(const struct rg_event *ev)
{
	return ev->protocol == IPPROTO_ICMP;
}

static void print_event_json(const struct monitor *m, const struct rg_event *ev)
{
	struct json_object *o = json_object_new_object();
	char tbuf[40], rbuf[16], ibuf[IF_NAMESIZE], a[RG_IP_STR_LEN];
	bool ipv4 = ev->flags & RG_EVENT_F_IPV4, l4 = ev->flags & RG_EVENT_F_L4;

	json_object_object_add(o, "type", json_object_new_string("event"));
	json_object_object_add(o, "time", json_object_new_string(event_time(m, ev->time_ns, tbuf)));
	json_object_object_add(o, "monotonic_ns", json_object_new_int64((int64_t)ev->time_ns));
	json_object_object_add(o, "rail", json_object_new_string(rail_name(m, ev->rail_slot, rbuf)));
	json_object_object_add(o, "rail_id", ev->rail_slot < RG_MAX_RAILS
			       ? json_object_new_int(ev->rail_slot) : NULL);
	json_object_object_add(o, "interface",
			       json_object_new_string(rg_ifname_str((int)ev->ifindex, ibuf)));
	json_object_object_add(o, "ifindex", json_object_new_int64(ev->ifindex));
	json_object_object_add(o, "hook", json_object_new_string(rg_hook_name(ev->hook)));
	json_object_object_add(o, "verdict", json_object_new_string(rg_stat_name(ev->stat)));
	json_object_object_add(o, "drop", json_object_new_boolean(rg_stat_is_drop(ev->stat)));
	json_object_object_add(o, "icmp_answered",
			       json_object_new_boolean(ev->flags & RG_EVENT_F_ANSWERED));
	json_object_object_add(o, "ethertype", json_object_new_int(ev->eth_proto));
	json_object_object_add(o, "src", ipv4 ? json_object_new_string(rg_ip_str(ntohl(ev->saddr), a))
					      : NULL);
	json_object_object_add(o, "dst", ipv4 ? json_object_new_string(rg_ip_str(ntohl(ev->daddr), a))
					      : NULL);
	json_object_object_add(o, "protocol", ipv4 ? json_object_new_int(ev->protocol) : NULL);
	json_object_object_add(o, "ttl", ipv4 ? json_object_new_int(ev->ttl) : NULL);
	if (l4 && is_icmp(ev)) {
		json_object_object_add(o, "icmp_type", json_object_new_int(ev->sport));
		json_object_object_add(o, "icmp_code", json_object_new_int(ev->dport));
	} else if (l4) {
		json_object_object_add(o, "sport", json_object_new_int(ev->sport));
		json_object_object_add(o, "dport", json_object_new_int(ev->dport));
	}
	json_object_object_add(o, "len", json_object_new_int64(ev->len));
	printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
						       JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

/* TIME RAIL INTERFACE HOOK [drop ]VERDICT PROTO SRC[:PORT] -> DST[:PORT] ... */
static void print_event_text(const struct monitor *m, const struct rg_event *ev)
{
	char tbuf[40], rbuf[16], ibuf[IF_NAMESIZE], a[RG_IP_STR_LEN], b[RG_IP_STR_LEN], p[8];
	bool l4 = ev->flags & RG_EVENT_F_L4;

	printf("%s %s %s %s %s%s", event_time(m, ev->time_ns, tbuf), rail_name(m, ev->rail_slot, rbuf),
	       rg_ifname_str((int)ev->ifindex, ibuf), rg_hook_name(ev->hook),
	       rg_stat_is_drop(ev->stat) ? "drop " : "", rg_stat_name(ev->stat));
	if (!(ev->flags & RG_EVENT_F_IPV4)) {
		printf(" ethertype 0x%04x len %u\n", ev->eth_proto, ev->len);
		return;
	}
	rg_ip_str(ntohl(ev->saddr), a);
	rg_ip_str(ntohl(ev->daddr), b);
	if (l4 && !is_icmp(ev))
		printf(" %s %s:%u -> %s:%u", protocol_name(ev->protocol, p), a, ev->sport, b, ev->dport);
	else
		printf(" %s %s -> %s", protocol_name(ev->protocol, p), a, b);
	if (l4 && is_icmp(ev))
		printf(" type %u code %u", ev->sport, ev->dport);
	printf(" ttl %u len %u%s\n", ev->ttl, ev->len,
	       (ev->flags & RG_EVENT_F_ANSWERED) ? " (ICMP error sent back)" : "");
}

static int on_event(void *ctx, void *data, size_t size)
{
	struct monitor *m = ctx;
	const struct rg_event *ev = data;

	if (size < sizeof(*ev) || m->done)
		return 0;
	if (m->rail_id >= 0 && ev->rail_slot != m->rail_id)
		return 0;
	if (m->o.json)
		print_event_json(m, ev);
	else
		print_event_text(m, ev);
	fflush(stdout);
	m->printed++;
	if (m->o.count && m->printed >= m->o.count) {
		m->done = true;
		return -ECANCELED;     /* stop this poll: the count is reached */
	}
	return 0;
}

static uint64_t side_delta(const struct monitor *m, const struct rg_counter *now, enum rg_side s)
{
	return now[s].packets - m->side0[s].packets;
}

/*
 * The node's monitor counters since this monitor started (all monitors'
 * together: the rate limit and the counters are the node's).  final: the
 * summary at exit; otherwise only when something was refused or lost
 * since the last report.
 */
static void report_counts(struct monitor *m, bool final)
{
	struct rg_counter now[RG_SIDE_MAX];
	uint64_t limited, lost;

	if (rg_map_set_read_side_stats(&m->dp.maps, now, NULL, 0))
		return;
	limited = side_delta(m, now, RG_SIDE_MONITOR_RATELIMITED);
	lost = side_delta(m, now, RG_SIDE_MONITOR_LOST);
	if (!final && now[RG_SIDE_MONITOR_RATELIMITED].packets ==
		      m->side_shown[RG_SIDE_MONITOR_RATELIMITED].packets &&
	    now[RG_SIDE_MONITOR_LOST].packets == m->side_shown[RG_SIDE_MONITOR_LOST].packets)
		return;
	memcpy(m->side_shown, now, sizeof(now));
	if (m->o.json) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "type", json_object_new_string(final ? "summary" : "loss"));
		if (final)
			json_object_object_add(o, "printed", json_object_new_int64(m->printed));
		json_object_object_add(o, "monitor_events", json_object_new_int64(
			(int64_t)side_delta(m, now, RG_SIDE_MONITOR_EVENTS)));
		json_object_object_add(o, "monitor_ratelimited", json_object_new_int64((int64_t)limited));
		json_object_object_add(o, "monitor_lost", json_object_new_int64((int64_t)lost));
		printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
		fflush(stdout);
	} else {
		fprintf(stderr, "railgate monitor: %s%ld events printed; on the node since the "
			"start: %llu rate-limited, %llu lost (a ring was full)\n",
			final ? "" : "so far ", m->printed, (unsigned long long)limited,
			(unsigned long long)lost);
	}
}

/* Are the pinned maps still the ones we hold a lease in?  `down` (and a
 * fresh `up` after it) replaces the maps: our ring would get nothing more. */
static bool datapath_same(const struct monitor *m)
{
	return rg_map_set_is_pinned(&m->dp.maps, m->dp.dir);
}

/* Renew the lease; a slot lost after a stall is claimed again. */
static int renew(struct monitor *m, struct rg_monitor_lease *lease, int ring_fd)
{
	uint64_t now = clock_ns(CLOCK_MONOTONIC);
	char err[256];

	if (!rg_map_set_monitor_renew(&m->dp.maps, lease, now, err, sizeof(err)))
		return 0;
	fprintf(stderr, "railgate monitor: %s; taking another\n", err);
	if (rg_map_set_monitor_claim(&m->dp.maps, m->o.scope, now, ring_fd, (uint32_t)getpid(),
				     lease, err, sizeof(err))) {
		fprintf(stderr, "railgate monitor: %s\n", err);
		return -1;
	}
	return 0;
}

static int run_monitor(struct monitor *m)
{
	struct rg_monitor_lease lease = { .slot = -1 };
	uint64_t next_renew, next_report;
	struct ring_buffer *rb = NULL;
	char err[256];
	int ring_fd, ret = RG_EXIT_FAIL;

	ring_fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "rg_monitor", 0, 0, RG_EVENTS_RING_BYTES, NULL);
	if (ring_fd < 0) {
		fprintf(stderr, "railgate monitor: cannot create a ring buffer: %s\n", strerror(errno));
		return RG_EXIT_FAIL;
	}
	rb = ring_buffer__new(ring_fd, on_event, m, NULL);
	if (!rb) {
		fprintf(stderr, "railgate monitor: cannot map the ring buffer: %s\n", strerror(errno));
		goto out;
	}
	rg_map_set_read_side_stats(&m->dp.maps, m->side0, NULL, 0);
	memcpy(m->side_shown, m->side0, sizeof(m->side0));
	if (rg_map_set_monitor_claim(&m->dp.maps, m->o.scope, clock_ns(CLOCK_MONOTONIC), ring_fd,
				     (uint32_t)getpid(), &lease, err, sizeof(err))) {
		fprintf(stderr, "railgate monitor: %s\n", err);
		goto out;
	}
	next_renew = clock_ns(CLOCK_MONOTONIC) + RG_MONITOR_RENEW_NS;
	next_report = clock_ns(CLOCK_MONOTONIC) + LOSS_REPORT_NS;
	while (!stop_monitor && !m->done) {
		uint64_t now;
		int n = ring_buffer__poll(rb, POLL_MS);

		if (n < 0 && n != -EINTR && n != -ECANCELED) {
			fprintf(stderr, "railgate monitor: reading the ring: %s\n", strerror(-n));
			goto out;
		}
		now = clock_ns(CLOCK_MONOTONIC);
		if (now >= next_renew && !m->done) {
			if (!datapath_same(m)) {
				fprintf(stderr, "railgate monitor: the datapath under %s was taken down "
					"or loaded anew; run the monitor again\n", m->dp.dir);
				goto out;
			}
			if (renew(m, &lease, ring_fd))
				goto out;
			m->wall_minus_mono_ns = (int64_t)(clock_ns(CLOCK_REALTIME) - now);
			refresh_rails(m);
			next_renew = now + RG_MONITOR_RENEW_NS;
		}
		if (now >= next_report) {
			report_counts(m, false);
			next_report = now + LOSS_REPORT_NS;
		}
	}
	report_counts(m, true);
	ret = RG_EXIT_OK;
out:
	/* Our slot back at once; the summary lease runs out by itself. */
	rg_map_set_monitor_release(&m->dp.maps, &lease);
	ring_buffer__free(rb);
	close(ring_fd);
	return ret;
}

int rg_cmd_monitor(struct rg_global_opts *g, int argc, char **argv)
{
	struct monitor m = { .rail_id = -1 };
	struct sigaction sa = { .sa_handler = on_signal };   /* no SA_RESTART: poll returns */
	char err[512];
	int ret = parse_monitor_opts(g, argc, argv, &m.o);

	if (ret)
		return ret == 1 ? RG_EXIT_OK : RG_EXIT_USAGE;
	if (cli_open_datapath(g->pin_dir, &m.dp, err, sizeof(err))) {
		fprintf(stderr, "railgate monitor: %s\n", err);
		rg_datapath_close(&m.dp);
		return RG_EXIT_FAIL;
	}
	if (refresh_rails(&m)) {
		fprintf(stderr, "railgate monitor: no rail named '%s' in the running config (rails:",
			m.o.rail);
		for (int i = 0; i < RG_MAX_RAILS; i++)
			if (m.rails[i].flags & RG_RAIL_F_VALID)
				fprintf(stderr, " %s", m.rails[i].name);
		fprintf(stderr, ")\n");
		rg_datapath_close(&m.dp);
		return RG_EXIT_FAIL;
	}
	m.wall_minus_mono_ns = (int64_t)(clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_MONOTONIC));
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	ret = run_monitor(&m);
	rg_datapath_close(&m.dp);
	return ret;
}
