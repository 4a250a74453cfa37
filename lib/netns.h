/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Run a function inside a pod's network namespace and come back, whatever
 * it returns: sockets and netlink handles it opens stay in the pod, the
 * caller never does.  The one way tools/doctor/ enters a pod.
 */
#ifndef RAILGATE_DOCTOR_NETNS_H
#define RAILGATE_DOCTOR_NETNS_H

#include <stddef.h>

/* fn's return value, or -errno with a message when the namespace cannot
 * be entered or left (leaving failing is fatal to the caller's view). */
int rg_in_netns(int netns_fd, int (*fn)(void *arg), void *arg, char *err, size_t n);

#endif
