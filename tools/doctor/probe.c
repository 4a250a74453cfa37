// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/errqueue.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>
#include <sys/socket.h>

#include "tools/doctor/probe.h"
#include "lib/netns.h"
#include "loader/config/config.h"
#include "lib/errbuf.h"
#include "maps/map_set.h"
#include "tools/pod_routes/pod_routes.h"

#define PROBE_MAGIC       0x52475052u   /* "RGPR" */
#define PROBE_INTERVAL_MS 10            /* between the probes of a round */
#define MAX_POD_ADDRS     64

/* What every probe carries (ICMP payload, UDP datagram): an echo brings it
 * back, an ICMP error quotes it. */
struct probe_payload {
	uint32_t magic;
	uint32_t seq;
};

/* ---- the judgement --------------------------------------------------- */

static const char *const died_names[] = {
	[RG_DIED_NONE]             = NULL,
	[RG_DIED_NEVER_LEFT_POD]   = "never_left_pod",
	[RG_DIED_SPOOFED]          = "spoofed",
	[RG_DIED_NO_ROUTE]         = "no_route",
	[RG_DIED_TTL_EXCEEDED]     = "ttl_exceeded",
	[RG_DIED_NO_EGRESS]        = "no_egress",
	[RG_DIED_UPLINK_NO_ANSWER] = "uplink_no_answer",
	[RG_DIED_LEFT_ON_RAIL]     = "left_on_rail",
};

const char *rg_probe_died_name(enum rg_probe_died d)
{
	return (unsigned)d < sizeof(died_names) / sizeof(died_names[0]) ? died_names[d] : NULL;
}

const char *rg_probe_proto_name(enum rg_probe_proto p)
{
	return p == RG_PROBE_ICMP ? "icmp" : "udp";
}

/* A drop reason that grew in these deltas, most telling first. */
static enum rg_probe_died drop_of(const uint64_t d[RG_STAT_MAX])
{
	if (d[RG_DROP_SPOOFED])
		return RG_DIED_SPOOFED;
	if (d[RG_DROP_NO_ROUTE])
		return RG_DIED_NO_ROUTE;
	if (d[RG_DROP_TTL_EXCEEDED])
		return RG_DIED_TTL_EXCEEDED;
	if (d[RG_DROP_NO_EGRESS] || d[RG_DROP_REDIRECT_FAILED])
		return RG_DIED_NO_EGRESS;
	return RG_DIED_NONE;
}

/*
 * Where the lost probes died.  The pod's own refusals first (they never
 * reached a wire); then the source rail's counters (drops, then
 * redirects: sent on, never answered); then a drop on any rail (a frame
 * bound to this rail's address that the pod routed out of another rail
 * interface is counted there); else the frames left on the rail without
 * railgate taking them.
 */
enum rg_probe_died rg_probe_classify(const struct rg_probe_evidence *e)
{
	enum rg_probe_died d;

	if (e->received >= e->sent)
		return RG_DIED_NONE;
	if (e->send_errors && e->send_errors >= e->sent - e->received)
		return RG_DIED_NEVER_LEFT_POD;
	if (!e->counters)
		return RG_DIED_LEFT_ON_RAIL;
	if ((d = drop_of(e->own)) != RG_DIED_NONE)
		return d;
	if (e->own[RG_VERDICT_CROSS_RAIL] || e->own[RG_VERDICT_FRONTEND])
		return RG_DIED_UPLINK_NO_ANSWER;
	if ((d = drop_of(e->any)) != RG_DIED_NONE)
		return d;
	return RG_DIED_LEFT_ON_RAIL;
}

/* ---- sources ----------------------------------------------------------- */

int rg_probe_sources(int netns_fd, const struct rg_cidr *rails, const int *rail_ids,
		     size_t n_rails, struct rg_probe_source **out, size_t *n,
		     char *err, size_t err_len)
{
	struct rg_pod_addr addrs[MAX_POD_ADDRS];
	int k = rg_pod_list_addrs(netns_fd, NULL, addrs, MAX_POD_ADDRS, err, err_len);

	*out = NULL;
	*n = 0;
	if (k < 0)
		return k;
	*out = calloc((size_t)k + 1, sizeof(**out));
	if (!*out)
		return rg_err(err, err_len, -ENOMEM, "out of memory");
	for (int i = 0; i < k; i++)
		for (size_t r = 0; r < n_rails; r++) {
			struct rg_probe_source *s;

			if (!rg_cidr_contains(rails[r], addrs[i].addr))
				continue;
			s = &(*out)[(*n)++];
			snprintf(s->dev, sizeof(s->dev), "%s", addrs[i].ifname);
			s->addr = addrs[i].addr;
			s->rail = rail_ids ? rail_ids[r] : -1;
			break;
		}
	return 0;
}

/* ---- one round: every source to one target ------------------------------ */

struct slot {
	int      fd;
	size_t   cell;               /* index in the result */
	enum rg_probe_proto proto;
	uint16_t ident;              /* ICMP echo id */
	int64_t  sent_ns[RG_PROBE_MAX_COUNT];
	bool     answered[RG_PROBE_MAX_COUNT];
	double   rtt[RG_PROBE_MAX_COUNT];
	int      n_rtt;
	int      connect_errno;      /* UDP: why the pod could not route it */
};

struct round {
	const struct rg_probe_opts *o;
	uint32_t to;
	struct slot *slots;
	size_t n_slots;
	char *err;
	size_t errlen;
};

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static struct sockaddr_in sin_of(uint32_t addr, uint16_t port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(addr) };
	return a;
}

static int open_slot(struct round *rd, struct slot *s, uint32_t from)
{
	struct sockaddr_in src = sin_of(from, 0), dst = sin_of(rd->to, rd->o->udp_port);
	int on = 1;

	s->fd = s->proto == RG_PROBE_ICMP
		? socket(AF_INET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_ICMP)
		: socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (s->fd < 0)
		return rg_err(rd->err, rd->errlen, -errno, "cannot open a %s socket in the pod: %s",
			      rg_probe_proto_name(s->proto), strerror(errno));
	if (bind(s->fd, (struct sockaddr *)&src, sizeof(src)))
		return rg_err(rd->err, rd->errlen, -errno, "cannot bind to the pod's address: %s",
			      strerror(errno));
	if (s->proto == RG_PROBE_UDP &&
	    setsockopt(s->fd, IPPROTO_IP, IP_RECVERR, &on, sizeof(on)))
		return rg_err(rd->err, rd->errlen, -errno, "IP_RECVERR: %s", strerror(errno));
	/* No route: every send of this cell fails with connect's reason. */
	if (s->proto == RG_PROBE_UDP && connect(s->fd, (struct sockaddr *)&dst, sizeof(dst)))
		s->connect_errno = errno;
	return 0;
}

/* In the pod; open_slot writes its message in rd->err, the caller's err. */
static int open_slots(void *arg, char *err, size_t err_len)
{
	struct round *rd = arg;

	for (size_t i = 0; i < rd->n_slots; i++) {
		int ret = open_slot(rd, &rd->slots[i], rd->o->srcs[i / RG_PROBE_NPROTO].addr);

		if (ret)
			return ret;
	}
	return 0;
}

static uint16_t icmp_sum(const void *p, size_t len)
{
	const uint16_t *w = p;
	uint32_t sum = 0;

	for (; len > 1; len -= 2)
		sum += *w++;
	if (len)
		sum += *(const uint8_t *)w;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* Send probe seq; false when the pod's stack refused it. */
static bool send_probe(struct round *rd, struct slot *s, int seq, int *err_no)
{
	struct probe_payload pl = { htonl(PROBE_MAGIC), htonl((uint32_t)seq) };
	struct sockaddr_in dst = sin_of(rd->to, 0);
	ssize_t n;

	s->sent_ns[seq] = now_ns();
	if (s->connect_errno) {
		if (!*err_no)
			*err_no = s->connect_errno;
		return false;
	}
	if (s->proto == RG_PROBE_ICMP) {
		struct { struct icmphdr h; struct probe_payload pl; } m = { 0 };

		m.h.type = ICMP_ECHO;
		m.h.un.echo.id = htons(s->ident);
		m.h.un.echo.sequence = htons((uint16_t)seq);
		m.pl = pl;
		m.h.checksum = icmp_sum(&m, sizeof(m));
		n = sendto(s->fd, &m, sizeof(m), 0, (struct sockaddr *)&dst, sizeof(dst));
	} else {
		n = send(s->fd, &pl, sizeof(pl), 0);
	}
	if (n < 0 && !*err_no)
		*err_no = errno;
	return n >= 0;
}

static void answer(struct slot *s, int seq, int count)
{
	if (seq < 0 || seq >= count || s->answered[seq] || !s->sent_ns[seq])
		return;
	s->answered[seq] = true;
	s->rtt[s->n_rtt++] = (double)(now_ns() - s->sent_ns[seq]) / 1e6;
}

/* The oldest probe still unanswered: an ICMP error that quotes too little
 * of the datagram is taken for it. */
static int oldest_open(const struct slot *s, int count)
{
	for (int i = 0; i < count; i++)
		if (s->sent_ns[i] && !s->answered[i])
			return i;
	return -1;
}

static int seq_of(const void *p, size_t len)
{
	struct probe_payload pl;

	if (len < sizeof(pl))
		return -1;
	memcpy(&pl, p, sizeof(pl));
	return ntohl(pl.magic) == PROBE_MAGIC ? (int)ntohl(pl.seq) : -1;
}

static void read_icmp(struct round *rd, struct slot *s)
{
	uint8_t buf[1500];
	ssize_t n;

	while ((n = recv(s->fd, buf, sizeof(buf), 0)) > 0) {
		const struct iphdr *ip = (const void *)buf;
		size_t hl = (size_t)ip->ihl * 4;
		const struct icmphdr *h = (const void *)(buf + hl);

		if ((size_t)n < hl + sizeof(*h) || ntohl(ip->saddr) != rd->to ||
		    h->type != ICMP_ECHOREPLY || ntohs(h->un.echo.id) != s->ident)
			continue;
		answer(s, seq_of(h + 1, (size_t)n - hl - sizeof(*h)), rd->o->count);
	}
}

/* An ICMP error for a UDP probe: port unreachable from the target itself
 * is an answer (the frame got there); anything else is not. */
static void read_udp_errors(struct round *rd, struct slot *s)
{
	uint8_t data[512], ctl[512];
	struct iovec iov = { data, sizeof(data) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	for (;;) {
		struct cmsghdr *c;

		m.msg_control = ctl;
		m.msg_controllen = sizeof(ctl);
		n = recvmsg(s->fd, &m, MSG_ERRQUEUE);
		if (n < 0)
			return;
		for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
			const struct sock_extended_err *ee = (const void *)CMSG_DATA(c);
			const struct sockaddr_in *from = (const void *)SO_EE_OFFENDER(ee);
			int seq;

			if (c->cmsg_level != IPPROTO_IP || c->cmsg_type != IP_RECVERR ||
			    ee->ee_origin != SO_EE_ORIGIN_ICMP || ee->ee_type != ICMP_DEST_UNREACH ||
			    ee->ee_code != ICMP_PORT_UNREACH || ntohl(from->sin_addr.s_addr) != rd->to)
				continue;
			seq = seq_of(data, (size_t)n);
			answer(s, seq >= 0 ? seq : oldest_open(s, rd->o->count), rd->o->count);
		}
	}
}

static void read_slot(struct round *rd, struct slot *s, short revents)
{
	uint8_t buf[64];
	ssize_t n;

	if (s->proto == RG_PROBE_ICMP) {
		read_icmp(rd, s);
		return;
	}
	if (revents & POLLERR)
		read_udp_errors(rd, s);
	/* A connected socket hears the target alone: an echo names its probe,
	 * any other answer (a responder's own text) is taken for the oldest. */
	while ((n = recv(s->fd, buf, sizeof(buf), 0)) >= 0) {
		int seq = seq_of(buf, (size_t)n);

		answer(s, seq >= 0 ? seq : oldest_open(s, rd->o->count), rd->o->count);
	}
}

static bool all_answered(const struct round *rd, const struct rg_probe_cell *cells)
{
	for (size_t i = 0; i < rd->n_slots; i++) {
		const struct rg_probe_cell *c = &cells[rd->slots[i].cell];

		if (rd->slots[i].n_rtt + c->send_errors < c->sent)
			return false;
	}
	return true;
}

/* Wait for answers until deadline (or everything is in). */
static void collect(struct round *rd, const struct rg_probe_cell *cells, int64_t deadline)
{
	struct pollfd pfd[2 * 64 * RG_PROBE_NPROTO];
	size_t n = rd->n_slots < sizeof(pfd) / sizeof(pfd[0]) ? rd->n_slots
							       : sizeof(pfd) / sizeof(pfd[0]);

	for (;;) {
		int64_t left = deadline - now_ns();

		if (left <= 0 || all_answered(rd, cells))
			return;
		for (size_t i = 0; i < n; i++)
			pfd[i] = (struct pollfd){ .fd = rd->slots[i].fd, .events = POLLIN };
		if (poll(pfd, n, (int)(left / 1000000) + 1) <= 0)
			continue;
		for (size_t i = 0; i < n; i++)
			if (pfd[i].revents)
				read_slot(rd, &rd->slots[i], pfd[i].revents);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	if (!n)
		return -1;
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int read_counters(const struct rg_probe_opts *o, struct rg_counter *c,
			 char *err, size_t err_len)
{
	return o->maps ? rg_map_set_read_stats(o->maps, c, err, err_len) : 0;
}

/* The deltas of one cell's round: its own rail and every rail. */
static void evidence_of(const struct rg_probe_cell *cell, bool counters,
			const struct rg_counter *c0, const struct rg_counter *c1,
			struct rg_probe_evidence *e)
{
	memset(e, 0, sizeof(*e));
	e->sent = cell->sent;
	e->received = cell->received;
	e->send_errors = cell->send_errors;
	e->counters = counters;
	if (!counters)
		return;
	for (int slot = 0; slot <= RG_RAIL_UNKNOWN; slot++)
		for (int s = 0; s < RG_STAT_MAX; s++) {
			uint64_t d = c1[RG_STAT_INDEX(slot, s)].packets - c0[RG_STAT_INDEX(slot, s)].packets;

			e->any[s] += d;
			if (slot == cell->src.rail)
				e->own[s] += d;
		}
}

static int run_round(const struct rg_probe_opts *o, size_t t, struct rg_probe_cell *cells,
		     struct rg_counter *c0, struct rg_counter *c1, char *err, size_t err_len)
{
	struct round rd = { .o = o, .to = o->targets[t], .n_slots = o->n_srcs * RG_PROBE_NPROTO,
			    .err = err, .errlen = err_len };
	int ret;

	rd.slots = calloc(rd.n_slots, sizeof(*rd.slots));
	if (!rd.slots)
		return rg_err(err, err_len, -ENOMEM, "out of memory");
	for (size_t i = 0; i < rd.n_slots; i++) {
		struct slot *s = &rd.slots[i];

		s->fd = -1;
		s->proto = (enum rg_probe_proto)(i % RG_PROBE_NPROTO);
		s->cell = t * rd.n_slots + i;
		s->ident = (uint16_t)(getpid() * 31 + t * 131 + i);
		cells[s->cell] = (struct rg_probe_cell){ .src = o->srcs[i / RG_PROBE_NPROTO],
							 .to = rd.to, .proto = s->proto, .rtt_ms = -1 };
	}
	ret = rg_in_netns(o->netns_fd, open_slots, &rd, err, err_len);
	if (!ret)
		ret = read_counters(o, c0, err, err_len);
	for (int seq = 0; !ret && seq < o->count; seq++) {
		for (size_t i = 0; i < rd.n_slots; i++) {
			struct rg_probe_cell *c = &cells[rd.slots[i].cell];

			c->sent++;
			if (!send_probe(&rd, &rd.slots[i], seq, &c->send_errno))
				c->send_errors++;
		}
		collect(&rd, cells, now_ns() + (int64_t)PROBE_INTERVAL_MS * 1000000);
	}
	if (!ret) {
		collect(&rd, cells, now_ns() + (int64_t)o->timeout_ms * 1000000);
		ret = read_counters(o, c1, err, err_len);
	}
	for (size_t i = 0; !ret && i < rd.n_slots; i++) {
		struct slot *s = &rd.slots[i];
		struct rg_probe_cell *c = &cells[s->cell];
		struct rg_probe_evidence e;

		c->received = s->n_rtt;
		c->rtt_ms = median(s->rtt, s->n_rtt);
		evidence_of(c, o->maps != NULL, c0, c1, &e);
		c->died = rg_probe_classify(&e);
	}
	for (size_t i = 0; i < rd.n_slots; i++)
		if (rd.slots[i].fd >= 0)
			close(rd.slots[i].fd);
	free(rd.slots);
	return ret;
}

int rg_probe_run(const struct rg_probe_opts *o, struct rg_probe_cell **cells, size_t *n,
		 char *err, size_t err_len)
{
	size_t total = o->n_srcs * o->n_targets * RG_PROBE_NPROTO;
	struct rg_counter *c0 = calloc(RG_STAT_SLOTS, sizeof(*c0));
	struct rg_counter *c1 = calloc(RG_STAT_SLOTS, sizeof(*c1));
	int ret = 0;

	*n = 0;
	*cells = calloc(total ? total : 1, sizeof(**cells));
	if (!*cells || !c0 || !c1)
		ret = rg_err(err, err_len, -ENOMEM, "out of memory");
	else if (o->count < 1 || o->count > RG_PROBE_MAX_COUNT)
		ret = rg_err(err, err_len, -EINVAL, "count %d: need 1..%d", o->count, RG_PROBE_MAX_COUNT);
	else if (o->n_srcs > 64)
		ret = rg_err(err, err_len, -E2BIG, "%zu rail interfaces: at most 64", o->n_srcs);
	for (size_t t = 0; !ret && t < o->n_targets; t++)
		ret = run_round(o, t, *cells, c0, c1, err, err_len);
	free(c0);
	free(c1);
	if (ret) {
		free(*cells);
		*cells = NULL;
		return ret;
	}
	*n = total;
	return 0;
}
