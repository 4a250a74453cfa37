/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Network namespaces by file descriptor: is this one ours, enter one for
 * good, or run a function inside one and come back whatever it returns
 * (sockets and netlink handles it opens stay in that namespace, the caller
 * never does).  The one way railgate's tools enter a namespace: the
 * doctor and the probe enter a pod, pod routing (the CNI plugin, `railgate
 * route`) too, the benchmark its topology's namespaces.
 */
#ifndef RAILGATE_NETNS_H
#define RAILGATE_NETNS_H

#include <stddef.h>

/* What runs inside: its return value comes back, a message goes in err. */
typedef int (*rg_netns_fn)(void *arg, char *err, size_t err_len);

/* An fd of the namespace this thread runs in, or -errno with a message. */
int rg_netns_open_self(char *err, size_t err_len);

/* 1 when netns_fd is the namespace this thread runs in, 0 when it is
 * another, -errno when either cannot be looked at. */
int rg_netns_is_self(int netns_fd);

/* Move this thread into netns_fd for good.  0, or -errno with a message. */
int rg_netns_enter(int netns_fd, char *err, size_t err_len);

/* fn's return value, or -errno with a message when the namespace cannot
 * be entered or left (leaving failing is fatal to the caller's view).
 * Already there (an init container naming its own pod): fn runs without a
 * setns, which would need CAP_SYS_ADMIN for nothing. */
int rg_in_netns(int netns_fd, rg_netns_fn fn, void *arg, char *err, size_t err_len);

#endif
