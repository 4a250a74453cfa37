/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Attaching the datapath to one interface, always through a BPF link so
 * that it can be pinned and outlives the command: an XDP link (native or
 * skb mode) or a tcx ingress link (kernel >= 6.6), which runs beside other
 * tc programs instead of replacing them.
 */
#ifndef RAILGATE_ATTACH_H
#define RAILGATE_ATTACH_H

#include <stddef.h>

#include "../maps/rg_abi.h"

/* Attach prog_fd to ifindex in mode; on success *link_fd is the new link. */
int rg_attach_link(int prog_fd, int ifindex, enum rg_attach_mode mode, int *link_fd,
		   char *err, size_t errlen);

/* The ifindex a link is attached to (0 when its device is gone), or -errno. */
int rg_link_ifindex(int link_fd);

#endif /* RAILGATE_ATTACH_H */
