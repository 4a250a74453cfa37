/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Taking over a node that an older railgate runs (another map ABI, so
 * other pins: root/v<N> beside this loader's root/v<RG_ABI_VERSION>).
 *
 * This is how an upgrade of the DaemonSet's image stays hitless: the new
 * binary's first `up` (or `railgate run`) loads its own datapath beside
 * the old one, writes and activates its tables, and only then moves every
 * interface over, each in one atomic step:
 *   - a pinned link (xdp, xdp-generic, tcx) of the old version gets the new
 *     program with bpf_link_update (BPF_F_REPLACE: only if it still runs
 *     the old one) and is pinned under the new version's links/;
 *   - railgate's clsact filter is replaced in place (rg_clsact_attach
 *     recognises a filter of railgate_tc as its own).
 * Until its interface moves, a frame meets the old program and the old
 * tables; after, the new ones, whose generation is already active.  Then
 * the old version's leftovers (interfaces the new config no longer has, or
 * has in another mode) are detached, its packet counters are added to the
 * new ones when both maps have the same shape, and its pins are removed.
 *
 * A failure before the old pins are removed puts every moved link back on
 * the old program: the old version keeps running, untouched.  A NEWER
 * version's pins make the load refuse: an older binary never takes a node
 * from a newer one (the new layout is one it cannot know).
 */
#ifndef RAILGATE_TAKEOVER_H
#define RAILGATE_TAKEOVER_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "lib/log.h"
#include "maps/map_set.h"
#include "maps/pins.h"
#include "loader/plan/plan.h"

/* One attachment of the old version: a pinned link, or (mode
 * RG_MODE_TC_CLSACT, no pin) its clsact filter on an interface the plan
 * has in clsact mode. */
struct rg_old_link {
	int  ifindex;
	enum rg_attach_mode mode;
	bool moved;                  /* runs the new program now */
	char pin[PATH_MAX];          /* under the old version's links/; "" for clsact */
	char new_pin[PATH_MAX];      /* where the moved link is pinned now */
};

struct rg_takeover {
	int  abi;                    /* the old map ABI version; 0: nothing to take over */
	char dir[PATH_MAX];          /* root/v<abi> */
	int  old_prog_fd[RG_PROG_COUNT];
	__u32 old_tc_prog_id;       /* what the old clsact filters run */
	struct rg_old_link *links;
	size_t n_links;
};

void rg_takeover_init(struct rg_takeover *t);

/*
 * Look under root for another ABI version's pins.  The newest older one
 * becomes t (t->abi 0 when there is none).  -EEXIST with a message when a
 * newer version's pins are there.  Reads only.
 */
int  rg_takeover_scan(const char *root, struct rg_takeover *t, char *err, size_t err_len);

/* Does the old version hold ifindex in mode (a link, or for clsact the
 * filter running its program)?  Then the move after the flip attaches it. */
bool rg_takeover_holds(const struct rg_takeover *t, int ifindex, enum rg_attach_mode mode);

/* The old version's pinned link on ifindex in an XDP mode other than mode
 * (native and generic XDP cannot coexist: it must go before mode attaches),
 * or NULL. */
const struct rg_old_link *rg_takeover_other_xdp(const struct rg_takeover *t, int ifindex,
						enum rg_attach_mode mode);

/*
 * After the new generation is active: move every old link whose interface
 * the plan has in the same mode onto the new version's program (prog_fd,
 * by enum rg_prog_id) and pin it under its directory vdir (vdir/links).
 * On failure every link moved so far goes back.
 */
int  rg_takeover_move(struct rg_takeover *t, const char *vdir, const int prog_fd[RG_PROG_COUNT],
		      const struct rg_plan *plan, const struct rg_log *log, char *err, size_t err_len);

/* Put every moved link back on the old program and drop its new pin. */
void rg_takeover_revert(struct rg_takeover *t);

/* After a successful apply: detach what did not move (the clsact filters
 * running the new tc program, tc_prog_id, stay), carry the counters over
 * into maps (the new version's), remove the old pins.  Logs what it did. */
void rg_takeover_finish(struct rg_takeover *t, struct rg_map_set *maps, __u32 tc_prog_id,
			const struct rg_log *log);

void rg_takeover_free(struct rg_takeover *t);   /* closes fds; safe twice */

#endif /* RAILGATE_TAKEOVER_H */
