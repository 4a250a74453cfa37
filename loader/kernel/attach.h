/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Attaching the datapath to one interface.  Where the kernel has links,
 * always through a BPF link so that it can be pinned and outlives the
 * command: an XDP link (native or skb mode) or a tcx ingress link (Linux
 * >= 6.6), which runs beside other tc programs instead of replacing them.
 *
 * Kernels without tcx (RHEL 9's 5.14, Ubuntu 22.04's 5.15), where tc is
 * still the hook on VF representors, get a clsact ingress filter instead
 * (RG_MODE_TC_CLSACT).  A filter is no BPF object and cannot be pinned:
 * railgate recognises its own by a fixed handle and priority and by the
 * name of the program it runs, and never touches any other filter.
 */
#ifndef RAILGATE_ATTACH_H
#define RAILGATE_ATTACH_H

#include <stdbool.h>
#include <stddef.h>

#include "maps/rg_abi.h"

/* Attach prog_fd to ifindex in mode; on success *link_fd is the new link. */
int rg_attach_link(int prog_fd, int ifindex, enum rg_attach_mode mode, int *link_fd,
		   char *err, size_t err_len);

/* The ifindex a link is attached to (0 when its device is gone), or -errno. */
int rg_link_ifindex(int link_fd);

/*
 * railgate's clsact filter: handle 0x4a47 ("RG") at priority 0xc047.  The
 * priority sorts after the filters an operator adds without a `pref`
 * (tc numbers those from 0xc000 downwards), so railgate runs after them
 * and never collides with the first of them: two filters of different
 * kinds cannot share a priority.
 */
#define RG_TC_HANDLE      0x4a47
#define RG_TC_PRIORITY    0xc047
/* The name the kernel reports for the tc entry point (bpf/railgate.bpf.c):
 * a filter at our handle and priority running neither our program nor one
 * of this name is not ours (rg_clsact_query). */
#define RG_TC_PROG_NAME   "railgate_tc"

/* Whether this kernel has tcx (Linux 6.6+), asked on probe_ifindex (lo
 * when 0) with a read-only query, which older kernels refuse with EINVAL. */
bool rg_kernel_has_tcx(int probe_ifindex);

/* RG_MODE_TC or RG_MODE_TC_CLSACT: the modes that run the tc program. */
bool rg_attach_mode_is_tc(enum rg_attach_mode mode);

/*
 * Attach prog_fd as railgate's clsact ingress filter on ifindex, creating
 * the clsact qdisc when the device has none.  A filter of ours already
 * there is replaced (atomically: frames see the old or the new program);
 * a foreign filter at our handle and priority is an error (-EEXIST).
 */
int rg_clsact_attach(int prog_fd, int ifindex, char *err, size_t err_len);

/* The id of a loaded program, 0 when prog_fd is not one. */
__u32 rg_prog_id(int prog_fd);

/*
 * 1 when railgate's filter is on ifindex's ingress, 0 when not (or the
 * device is gone), -errno when tc cannot be asked.  Railgate's: running
 * our_prog_id (rg_prog_id of the pinned tc program; 0 if unknown) or a
 * program named RG_TC_PROG_NAME (that check needs CAP_SYS_ADMIN).
 */
int rg_clsact_query(int ifindex, __u32 our_prog_id);

/* The id of the program at railgate's clsact handle and priority on
 * ifindex (whoever put it there), 0 when none. */
__u32 rg_clsact_prog_id(int ifindex);

/*
 * Remove railgate's filter from ifindex's ingress: only ours, never another
 * filter, and never the clsact qdisc (it may have been there before us, and
 * an empty one is harmless).  0 also when there was nothing to remove.
 */
int rg_clsact_detach(int ifindex, __u32 our_prog_id);

/* rg_clsact_detach on each of ifindexes, except the filters not running
 * only_prog_id (when set) or running keep_prog_id (when set). */
void rg_clsact_detach_each(const int *ifindexes, size_t count, __u32 our_prog_id,
			   __u32 only_prog_id, __u32 keep_prog_id);

/*
 * The pins an attachment leaves in bpffs (their names: maps/pins.h).  A
 * link's pin keeps it attached after the command exits; detaching one
 * means detaching the link, then unpinning it.
 */
int  rg_link_pin_copy(const char *from, const char *to);  /* pin the link at from also at to */
void rg_pin_detach(const char *pin);          /* detach the link pinned there, unpin it */
void rg_pin_tree_remove(const char *path);    /* unpin everything under path, path too */

#endif /* RAILGATE_ATTACH_H */
