/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * railgate probe: bounded ICMP echo and UDP probes from each rail
 * interface of a pod, each socket bound to the interface's address (as
 * NCCL binds), to targets beyond the switch; the loss and round-trip time
 * of every (interface, target, protocol) cell; and, for a cell that lost
 * probes, where the frames died, read from the node's counters during the
 * cell's round.
 *
 * Rounds go target by target; within a round every source interface sends
 * at once.  The counters are per ingress rail, so one round's deltas on a
 * rail belong to that rail's two cells (ICMP and UDP to one target).  A UDP
 * probe counts as answered when the target echoes it or says its port is
 * closed (ICMP port unreachable from the target itself): either way the
 * frame got there and back.
 */
#ifndef RAILGATE_DOCTOR_PROBE_H
#define RAILGATE_DOCTOR_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <net/if.h>

#include "maps/rg_abi.h"

struct rg_map_set;

enum rg_probe_proto { RG_PROBE_ICMP, RG_PROBE_UDP, RG_PROBE_NPROTO };

/* Where the frames of a cell that lost probes died (docs/commands.md). */
enum rg_probe_died {
	RG_DIED_NONE = 0,            /* every probe answered: JSON null */
	RG_DIED_NEVER_LEFT_POD,      /* the pod refused to send (no route, a policy) */
	RG_DIED_SPOOFED,             /* railgate dropped them: source outside the rail */
	RG_DIED_NO_ROUTE,            /* railgate dropped them: in a supernet, in no rail */
	RG_DIED_TTL_EXCEEDED,        /* railgate dropped them: the loop guard */
	RG_DIED_NO_EGRESS,           /* railgate could not send them: no uplink or gateway MAC */
	RG_DIED_UPLINK_NO_ANSWER,    /* railgate sent them to the uplink; nothing came back */
	RG_DIED_LEFT_ON_RAIL,        /* they left on the rail unredirected (no railgate, or passed) */
};

struct rg_probe_source {
	char     dev[IF_NAMESIZE];
	uint32_t addr;               /* host order */
	int      rail;               /* the datapath's rail id of addr, -1 when unknown */
};

/* What one cell's round showed: the probes, and the counter deltas of
 * the source's rail (own) and of every rail (any), when railgate is up. */
struct rg_probe_evidence {
	int      sent;
	int      received;
	int      send_errors;        /* sends the pod's stack refused */
	bool     counters;           /* railgate is up: own/any are valid */
	uint64_t own[RG_STAT_MAX];
	uint64_t any[RG_STAT_MAX];
};

struct rg_probe_cell {
	struct rg_probe_source src;
	uint32_t to;
	enum rg_probe_proto proto;
	int      sent, received, send_errors;
	double   rtt_ms;             /* median of the answered probes; < 0: none */
	enum rg_probe_died died;
	int      send_errno;         /* the first refused send's errno, 0 if none */
};

struct rg_probe_opts {
	int      netns_fd;           /* the pod */
	const struct rg_probe_source *srcs;
	size_t   n_srcs;
	const uint32_t *targets;
	size_t   n_targets;
	int      count;              /* probes per cell, 1..RG_PROBE_MAX_COUNT */
	int      timeout_ms;         /* wait after the last send of a round */
	uint16_t udp_port;
	const struct rg_map_set *maps; /* the node's pinned maps, or NULL */
};

#define RG_PROBE_MAX_COUNT 100
#define RG_PROBE_UDP_PORT  33434 /* traceroute's first port: closed on most hosts */

/* The pure judgement, tested on recorded evidence. */
enum rg_probe_died rg_probe_classify(const struct rg_probe_evidence *e);
const char *rg_probe_died_name(enum rg_probe_died d);  /* NULL for NONE */
const char *rg_probe_proto_name(enum rg_probe_proto p);

/*
 * The pod's rail interfaces: every IPv4 address inside one of rails[]
 * (n_rails subnets; rail_ids[i] the datapath's id of rails[i], or -1), in
 * interface order.  *out is malloc'd.  0, or -errno with a message.
 */
struct rg_cidr;
int rg_probe_sources(int netns_fd, const struct rg_cidr *rails, const int *rail_ids,
		     size_t n_rails, struct rg_probe_source **out, size_t *n,
		     char *err, size_t err_len);

/* Run every round; *cells (malloc'd) holds n_srcs x n_targets x 2 cells,
 * target-major.  0, or -errno with a message (nothing half-printed). */
int rg_probe_run(const struct rg_probe_opts *o, struct rg_probe_cell **cells, size_t *n,
		 char *err, size_t err_len);

#endif
