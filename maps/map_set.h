/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * User space's handle on the datapath's maps (maps/rg_abi.h), and the only
 * code that reaches them: open them from a loaded object or from pins (their
 * paths: maps/pins.h), write a whole generation of tables, flip the active
 * generation (map_set.c); one entry at a time (map_entries.c); the per-CPU
 * counters, and their carry from an older version (map_counters.c); the
 * monitor's lease (map_monitor.c).
 *
 * The MMAPABLE maps (rg_state, rg_tbl24, rg_tbl8, rg_representors) are
 * mmap()ed, so filling a 64k-prefix table is a memcpy, not 64k syscalls.  Errors come back as
 * -errno with a human message in the caller's err buffer; nothing here
 * prints or exits.
 */
#ifndef RAILGATE_MAP_SET_H
#define RAILGATE_MAP_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "maps/rg_abi.h"
#include "maps/fib.h"

struct bpf_object;

enum rg_map_id {
	RG_MAPID_STATE = 0,
	RG_MAPID_GENERATION,
	RG_MAPID_TBL24,
	RG_MAPID_TBL8,
	RG_MAPID_LPM,
	RG_MAPID_RAILS,
	RG_MAPID_REPRESENTORS,
	RG_MAPID_TX_PORTS,
	RG_MAPID_STATS,
	RG_MAPID_SIDE_STATS,
	RG_MAPID_ICMP_BUCKETS,
	RG_MAPID_EVENT_RINGS,
	RG_MAPID_MONITOR_BUCKETS,
	RG_MAPID_COUNT,
};

struct rg_map_set {
	int fd[RG_MAPID_COUNT];      /* -1 when not open */
	struct rg_state *state;      /* mmap of rg_state[0] */
	uint32_t *tbl24;             /* mmap: RG_GENERATIONS * RG_TBL24_SLOTS slots, */
	uint32_t *tbl8;              /* ... * RG_TBL8_GROUPS * 256; dense (rg_route_pair elements) */
	struct rg_representor *reps; /* mmap: [rg_rep_key(gen, ifindex)] */
};

/* One representor of a generation: the interface, its rail, its mode. */
struct rg_rep_binding {
	uint32_t ifindex;
	uint16_t rail_id;
	uint8_t  mode;               /* enum rg_attach_mode */
};

/* A map set with every fd -1 and nothing mapped (what close leaves). */
void rg_map_set_init(struct rg_map_set *ms);

/* Take the maps of a loaded object (fds are dup()ed: the set owns its own). */
int  rg_map_set_from_object(struct rg_map_set *ms, struct bpf_object *obj,
			    char *err, size_t err_len);
/* Give an object that is opened but not loaded the set's maps (pinned
 * ones, on a reload), so the programs it loads read the running state. */
int  rg_map_set_reuse_in_object(const struct rg_map_set *ms, struct bpf_object *obj,
				char *err, size_t err_len);
/* Open the maps pinned under a version's directory, vdir/maps/<name> (the
 * RG_MAP_* names, maps/pins.h). */
int  rg_map_set_from_pins(struct rg_map_set *ms, const char *vdir, char *err, size_t err_len);
/* Pin every map as vdir/maps/<name> (the directory is created, parents
 * too). -EEXIST when a pin is already there. */
int  rg_map_set_pin(const struct rg_map_set *ms, const char *vdir, char *err, size_t err_len);
/* Whether ms holds the maps pinned under vdir now (its rg_state is the
 * pinned one): `down`, and a fresh `up` after it, replace the maps, and a
 * holder of the old ones would write and read what no datapath uses. */
bool rg_map_set_is_pinned(const struct rg_map_set *ms, const char *vdir);
/* munmap and close; safe twice. */
void rg_map_set_close(struct rg_map_set *ms);

/* The generation the datapath reads now (0 or 1). */
unsigned rg_map_set_active_gen(const struct rg_map_set *ms);

/*
 * Write a full generation: representor entries (the generation's slice is
 * cleared, then one entry per binding, carrying its rail's subnet, mask and
 * VLAN from rails), tbl24/tbl8 (only the used slots), lpm (that
 * generation's stale keys are deleted first), rails (all RG_MAX_RAILS
 * entries), and last rg_generation (egress and zones).  Never touches the
 * other generation.  Writing the active generation is refused (-EBUSY) once
 * a config has been activated (config_generation > 0): the datapath reads
 * it.  Before that both generations are empty and either may be written.
 * A binding whose rail rails does not have gets an entry that is not
 * VALID; a rail id or ifindex out of range is refused (-EINVAL, -ERANGE).
 * icmp NULL: the generation answers no frame with an ICMP error.
 */
int  rg_map_set_write_generation(struct rg_map_set *ms, unsigned gen,
				 const struct rg_fib_image *img,
				 const struct rg_rail rails[RG_MAX_RAILS],
				 const struct rg_egress *egress, const struct rg_icmp_conf *icmp,
				 const struct rg_rep_binding *reps, size_t n_reps,
				 char *err, size_t err_len);

/* Egress and zones of generation gen. */
int  rg_map_set_read_generation(const struct rg_map_set *ms, unsigned gen,
				struct rg_generation *out, char *err, size_t err_len);
/* The rails table of generation gen (all RG_MAX_RAILS entries, by id). */
int  rg_map_set_read_rails(const struct rg_map_set *ms, unsigned gen,
			   struct rg_rail rails[RG_MAX_RAILS], char *err, size_t err_len);
/*
 * Generation gen's route tables copied back out as a FIB image: its zones,
 * the tbl24 slots they reach, every tbl8 group and its rg_lpm entries, so
 * that rg_fib_image_lookup answers what the datapath reads (`railgate
 * lookup` asks it).  Free with rg_fib_image_free; on error *img is empty.
 */
int  rg_map_set_read_image(const struct rg_map_set *ms, unsigned gen,
			   struct rg_fib_image *img, char *err, size_t err_len);

/*
 * Make gen the active generation: stores digest (may be NULL) and the ABI
 * version, bumps config_generation, then flips active_gen with one release
 * store.  -EINVAL for a gen out of range.
 */
int  rg_map_set_activate(struct rg_map_set *ms, unsigned gen, const uint8_t digest[32]);

/* The entry of a representor of rail rail_id (as rails[rail_id] describes
 * it) attached in mode; not VALID when the rail is not. */
struct rg_representor rg_representor_of(uint16_t rail_id, const struct rg_rail *rail,
					 enum rg_attach_mode mode);

/*
 * One representor entry of generation gen, outside a full write: the
 * loader classifies a new interface in the active generation before it
 * attaches it, and clears a retired one.  -ERANGE for an ifindex of
 * RG_MAX_IFINDEX or more, -EINVAL for a gen out of range.
 */
int  rg_map_set_put_representor(struct rg_map_set *ms, unsigned gen, uint32_t ifindex,
				const struct rg_representor *rep, char *err, size_t err_len);
int  rg_map_set_del_representor(struct rg_map_set *ms, unsigned gen, uint32_t ifindex,
				char *err, size_t err_len);
/* Read it: 0 (entry copied, VALID or not), -ERANGE, -EINVAL, -EBADF. */
int  rg_map_set_get_representor(const struct rg_map_set *ms, unsigned gen, uint32_t ifindex,
				struct rg_representor *rep);

/*
 * The interfaces whose representor entry says clsact in either generation
 * (a clsact filter has no pin: these entries are its record), ascending,
 * into *out (malloc()ed, RG_MAX_IFINDEX room: free it), *count of them.
 * Of ms (none when it is not open), or of the representor map pinned
 * under vdir, which may be another version's: read only when it has this
 * ABI's layout (-EPROTO when not, -ENOENT when there is none).
 */
int  rg_map_set_clsact_ifindexes(const struct rg_map_set *ms, int **out, size_t *count);
int  rg_map_pins_clsact_ifindexes(const char *vdir, int **out, size_t *count);

/* Uplink entries of rg_tx_ports (not generation-scoped): add one, remove
 * one (a missing one is fine), list them all (*count of them). */
int  rg_map_set_put_tx_port(struct rg_map_set *ms, uint32_t ifindex, char *err, size_t err_len);
int  rg_map_set_del_tx_port(struct rg_map_set *ms, uint32_t ifindex, char *err, size_t err_len);
int  rg_map_set_read_tx_ports(const struct rg_map_set *ms, uint32_t ifindexes[RG_MAX_UPLINKS],
			      size_t *count, char *err, size_t err_len);

/* Sum the per-CPU counters: out has RG_STAT_SLOTS entries, indexed by
 * RG_STAT_INDEX(rail, stat). */
int  rg_map_set_read_stats(const struct rg_map_set *ms, struct rg_counter *out,
			   char *err, size_t err_len);
/* Sum the per-CPU side counters: out has RG_SIDE_MAX entries (enum rg_side). */
int  rg_map_set_read_side_stats(const struct rg_map_set *ms, struct rg_counter *out,
				char *err, size_t err_len);
/* Zero every counter, side counters too (tests, `stats --reset`). */
int  rg_map_set_reset_stats(struct rg_map_set *ms, char *err, size_t err_len);
/*
 * A takeover's counter carry: add the packet counters pinned under
 * old_vdir (an older version's rg_stats) into ms's, CPU by CPU, so that
 * `railgate stats` and the metrics go on counting instead of starting from
 * zero.  Only when both maps have this ABI's shape (the same stats in the
 * same slots): -EPROTO when not.  Side counters are not carried.
 */
int  rg_map_set_carry_stats(struct rg_map_set *ms, const char *old_vdir);

/*
 * The drop monitor's lease (maps/rg_abi.h, struct rg_monitor_slot), held
 * through the mmap of rg_state.  Times are CLOCK_MONOTONIC ns, the clock
 * bpf_ktime_get_ns reads.
 */
struct rg_monitor_lease {
	int      slot;               /* -1: none */
	uint64_t until_ns;           /* what this holder last wrote */
	enum rg_monitor_scope scope;
};

/*
 * Take a slot whose lease is not live at now_ns (compare-and-swap: two
 * monitors never get the same one), for scope until now_ns +
 * RG_MONITOR_LEASE_NS; put ring_fd (a BPF_MAP_TYPE_RINGBUF of
 * RG_EVENTS_RING_BYTES) into rg_event_rings[slot]; write the node's rate,
 * burst (divided over the possible CPUs) and sample; raise the summary
 * lease of scope.  -EBUSY when every slot is held, -EINVAL for a bad scope.
 */
int  rg_map_set_monitor_claim(struct rg_map_set *ms, enum rg_monitor_scope scope, uint64_t now_ns,
			      int ring_fd, uint32_t pid, struct rg_monitor_lease *lease,
			      char *err, size_t err_len);
/* Extend the lease to now_ns + RG_MONITOR_LEASE_NS and raise the summary.
 * -ESTALE when the slot is no longer ours (it ran out and was taken). */
int  rg_map_set_monitor_renew(struct rg_map_set *ms, struct rg_monitor_lease *lease,
			      uint64_t now_ns, char *err, size_t err_len);
/* Give the slot back (its lease to 0, its ring out of rg_event_rings); the
 * summary lease is left to run out, since other monitors may rely on it. */
void rg_map_set_monitor_release(struct rg_map_set *ms, struct rg_monitor_lease *lease);
/* Raise *field to until_ns unless it is already later (compare-and-swap). */
void rg_monitor_raise(__u64 *field, uint64_t until_ns);

#endif /* RAILGATE_MAP_SET_H */
