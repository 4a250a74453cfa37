/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * A connected libnl socket: the one way railgate opens one (the loader's
 * route and generic netlink handles, a pod's view through tools/pod_routes/).
 * Needs only libnl-3 (generic netlink is connected with nl_connect, which is
 * all genl_connect does), so a binary linking -lnl-3 alone can call it.
 */
#ifndef RAILGATE_NLSOCK_H
#define RAILGATE_NLSOCK_H

#include <stddef.h>

struct nl_sock;

/* A libnl socket connected to protocol (NETLINK_ROUTE, NETLINK_GENERIC) in
 * the caller's network namespace; the caller frees it (nl_socket_free).
 * 0, or -ENOMEM / -EIO with "netlink: why" in err and *out NULL. */
int rg_nlsock_open(int protocol, struct nl_sock **out, char *err, size_t err_len);

#endif
