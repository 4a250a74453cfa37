/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * What the loader and the daemon need to know about the kernel's network
 * state, read through libnl-3:
 *
 *   - links by name, by index or by shell glob, with the XDP features the
 *     driver announces (the "netdev" generic netlink family, kernel >= 6.3),
 *     so that `mode: auto` can pick native XDP or TC per interface and the
 *     uplink can be checked to accept XDP redirects;
 *   - IPv4 neighbours: lookup, and resolution the way Cilium does it
 *     (RTM_NEWNEIGH with NTF_USE makes the kernel send the ARP request);
 *   - the interface a destination is routed through (uplink discovery);
 *   - a subscription to link and neighbour events for `railgate run`.
 *
 * Everything happens in the network namespace the calling thread is in
 * when the handle is opened.  Addresses are host byte order, as everywhere
 * in railgate.  Functions return 0 or a negative errno and never print.
 * A handle is not thread-safe: one per thread.
 */
#ifndef RAILGATE_NETLINK_H
#define RAILGATE_NETLINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <net/if.h>

#include "loader/kernel/link_table.h"

/* libnl sockets (route and generic netlink) bound to one network namespace. */
struct rg_nl;

/*
 * Open the handle.  A kernel without the "netdev" genl family (< 6.3) is not
 * an error: links then come back with xdp_features_known = false.
 * Returns 0, or -errno with a message in err.
 */
int rg_nl_open(struct rg_nl **out, char *err, size_t err_len);
void rg_nl_close(struct rg_nl *nl);

/* Returns 0, -ENODEV when no such link exists, -EINVAL for an invalid name. */
int rg_nl_link_by_name(struct rg_nl *nl, const char *name, struct rg_link_info *out);
/* Returns 0 or -ENODEV. */
int rg_nl_link_by_index(struct rg_nl *nl, int ifindex, struct rg_link_info *out);

/* 0, or -errno (-EIO when libnl failed) with *t empty. */
int rg_nl_link_table(struct rg_nl *nl, struct rg_link_table *t);
/*
 * What a handle sent, for tests that hold the netlink work of an operation
 * flat: counted per handle from rg_nl_open or the last reset.
 */
struct rg_nl_counters {
	unsigned long requests;      /* every request sent (dumps included) */
	unsigned long link_dumps;    /* RTM_GETLINK dumps */
};

void rg_nl_get_counters(const struct rg_nl *nl, struct rg_nl_counters *out);
void rg_nl_reset_counters(struct rg_nl *nl);

/*
 * The MAC of IPv4 neighbour ip on ifindex, when the kernel holds a usable
 * entry (REACHABLE, STALE, DELAY, PROBE, PERMANENT or NOARP, with an
 * Ethernet address).  Returns 0, -ENOENT when there is none, -ENODEV for an
 * unknown ifindex.
 */
int rg_nl_neigh_lookup(struct rg_nl *nl, int ifindex, uint32_t ip,
		       uint8_t mac[RG_MAC_LEN]);

/*
 * Like rg_nl_neigh_lookup, but when there is no usable entry, ask the kernel
 * to resolve one (it sends ARP requests) and wait up to timeout_ms.
 * Returns 0; -ETIMEDOUT when no answer came in time (the entry stays
 * INCOMPLETE and the kernel keeps trying); -EHOSTUNREACH when the kernel gave
 * up (entry FAILED); other -errno.  Every failure leaves a message in err.
 */
int rg_nl_neigh_resolve(struct rg_nl *nl, int ifindex, uint32_t ip,
			uint8_t mac[RG_MAC_LEN], int timeout_ms,
			char *err, size_t err_len);

/*
 * The output interface the kernel would use for a packet to dst (policy
 * rules and the main table, as `ip route get`).  A local address routes
 * through lo.  Returns 0, -ENETUNREACH when there is no route, or -errno.
 */
int rg_nl_route_get_oif(struct rg_nl *nl, uint32_t dst, int *ifindex);

/* The source address the kernel would pick for a packet to dst (the
 * route's preferred source): 0, -ENETUNREACH, -EADDRNOTAVAIL (no address
 * on the way), or -errno. */
int rg_nl_route_get_src(struct rg_nl *nl, uint32_t dst, uint32_t *src);

/*
 * Link and neighbour events (RTNLGRP_LINK, RTNLGRP_NEIGH) for the daemon.
 * The watch has its own socket; its fd is non-blocking: poll() it for
 * POLLIN, then call rg_nl_watch_next until it returns 0.
 */
struct rg_nl_watch;

enum rg_nl_event_type {
	RG_NL_LINK_NEW = 1,          /* a link appeared or changed (RTM_NEWLINK) */
	RG_NL_LINK_DEL,              /* a link is gone */
	RG_NL_NEIGH_CHANGE,          /* an IPv4 neighbour entry was added, changed or removed */
};

struct rg_nl_event {
	enum rg_nl_event_type type;
	int      ifindex;
	char     name[IF_NAMESIZE];   /* link events */
	bool     up, oper_up;         /* RG_NL_LINK_NEW, as in rg_link_info */
	unsigned mtu;                 /* RG_NL_LINK_NEW; 0 when not reported */
	uint32_t ip;                  /* RG_NL_NEIGH_CHANGE, host order */
	uint8_t  mac[RG_MAC_LEN];     /* link address, or neighbour's when it has one */
	bool     usable;              /* RG_NL_NEIGH_CHANGE: rg_nl_neigh_lookup would succeed */
};

/* Returns 0, or -errno with a message in err. */
int rg_nl_watch_open(struct rg_nl_watch **out, char *err, size_t err_len);
int rg_nl_watch_fd(const struct rg_nl_watch *w);
/*
 * Returns 1 with *ev filled, 0 when no event is pending, -ENOBUFS when the
 * kernel dropped events (socket overrun): the caller must re-read the state
 * it follows, then keep calling.  Other -errno are fatal for the watch.
 */
int rg_nl_watch_next(struct rg_nl_watch *w, struct rg_nl_event *ev);
void rg_nl_watch_close(struct rg_nl_watch *w);

#endif /* RAILGATE_NETLINK_H */
