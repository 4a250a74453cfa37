/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The datapath's life on a node: load it or adopt what is pinned, apply a
 * plan hitlessly (with rollback), and take it all down.
 *
 * Pins under the pin root (default /sys/fs/bpf/railgate; their names and
 * paths: maps/pins.h): v<ABI>/maps/<map>, v<ABI>/progs/xdp and tc, and
 * v<ABI>/links/if<N>-<mode>, one link per attached interface (ifindex N).
 * A clsact filter (tc mode without tcx, RG_MODE_TC_CLSACT) has no link to
 * pin: the representor entries record its mode, and the filter is found by
 * asking tc for railgate's handle and priority on those interfaces.
 * The ABI version in the path means a loader never reuses maps whose
 * layout it does not know.  Concurrent loaders serialise on flock(root);
 * the root is never removed (down empties it), so every loader locks the
 * same inode.  A fresh load pins into root/staging-v<ABI> and renames it
 * to v<ABI>: v<ABI> is complete or absent.  Readers take no lock.
 */
#ifndef RAILGATE_DATAPATH_H
#define RAILGATE_DATAPATH_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "lib/log.h"
#include "maps/map_set.h"
#include "maps/pins.h"
#include "loader/plan/plan.h"

struct railgate;                 /* the libbpf skeleton */
struct rg_takeover;              /* takeover.h */

struct rg_datapath {
	char root[PATH_MAX];         /* pin root */
	char dir[PATH_MAX];          /* root/v<ABI> */
	int  lock_fd;
	bool open;                   /* maps and progs below are valid */
	struct rg_map_set maps;
	int  prog_fd[RG_PROG_COUNT];
	struct railgate *skel;       /* set when this process loaded the object */
	struct rg_takeover *takeover; /* an older ABI's node this apply takes over, or NULL */
};

/* An interface the datapath is attached to, as read from the link pins
 * and, for clsact filters, from the representor entries and tc. */
struct rg_attached {
	int  ifindex;
	enum rg_attach_mode mode;
	bool alive;                  /* the link still has its device; the filter is there */
	char pin[PATH_MAX];          /* "" for a clsact filter */
};

/* Lock the pin root exclusively (creating it): what a writer (up, down, the
 * daemon's applies) does before rg_datapath_open. */
int  rg_datapath_lock(struct rg_datapath *dp, const char *root, char *err, size_t err_len);
/* A reader's open (status, stats, lookup, metrics, readiness): adopt the
 * pins without the lock, so it never waits behind a reload, and without
 * creating anything.  -ENOENT when nothing is pinned. */
int  rg_datapath_open_readonly(struct rg_datapath *dp, const char *root, char *err, size_t err_len);
/* Adopt the pinned maps and programs; with create, load and pin them when
 * nothing is pinned.  -ENOENT when nothing is pinned and !create. */
int  rg_datapath_open(struct rg_datapath *dp, bool create, char *err, size_t err_len);
void rg_datapath_close(struct rg_datapath *dp);   /* unlock, close fds; safe twice */

/* The rails table of the active generation. */
int  rg_datapath_active_rails(const struct rg_datapath *dp, struct rg_rail rails[RG_MAX_RAILS]);
int  rg_datapath_active_egress(const struct rg_datapath *dp, struct rg_egress *eg);
int  rg_datapath_links(const struct rg_datapath *dp, struct rg_attached **out, size_t *n);

/*
 * Make the datapath do what plan says: write the inactive generation,
 * attach new representors, flip, then retire what the plan dropped.  The
 * plan's modes are final (rg_resolve_plan chose them): RG_MODE_TC is a
 * tcx link, RG_MODE_TC_CLSACT railgate's clsact filter.  Any
 * failure before the flip rolls back: the old config keeps running.  Each
 * change is logged as it is made (log may be NULL).
 */
int  rg_datapath_apply(struct rg_datapath *dp, const struct rg_plan *plan,
		       const uint8_t digest[32], const struct rg_log *log, char *err, size_t err_len);

/* After an apply that took over an older version's node (dp->takeover):
 * its leftovers detached, its counters carried over, its pins removed
 * (rg_takeover_finish). */
void rg_datapath_finish_takeover(struct rg_datapath *dp, const struct rg_log *log);

/* Undo a first load that failed: detach this version's links and filters
 * and remove dp->dir, and nothing else (another version's pins stay). */
int  rg_datapath_discard(struct rg_datapath *dp);

/* Detach everything and remove every pin under root (all ABI versions and
 * a fresh load's staging directory), keeping root itself, the lock's inode.
 * Safe to run twice and on a half-broken state.  Needs the lock. */
int  rg_datapath_down(struct rg_datapath *dp, const struct rg_log *log, char *err, size_t err_len);

#endif /* RAILGATE_DATAPATH_H */
