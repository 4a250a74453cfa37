// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The datapath's maps seen from user space (see map_set.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <arpa/inet.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "maps/map_set.h"
#include "maps/map_layout.h"
#include "maps/pins.h"
#include "lib/errbuf.h"
#include "lib/files.h"

/* The RG_MAP_* name of each map id (also its pin file name). */
static const char *const rg_map_names[RG_MAPID_COUNT] = {
	[RG_MAPID_STATE]        = RG_MAP_STATE,
	[RG_MAPID_GENERATION]   = RG_MAP_GENERATION,
	[RG_MAPID_TBL24]        = RG_MAP_TBL24,
	[RG_MAPID_TBL8]         = RG_MAP_TBL8,
	[RG_MAPID_LPM]          = RG_MAP_LPM,
	[RG_MAPID_RAILS]        = RG_MAP_RAILS,
	[RG_MAPID_REPRESENTORS] = RG_MAP_REPRESENTORS,
	[RG_MAPID_TX_PORTS]     = RG_MAP_TX_PORTS,
	[RG_MAPID_STATS]        = RG_MAP_STATS,
	[RG_MAPID_SIDE_STATS]   = RG_MAP_SIDE_STATS,
	[RG_MAPID_ICMP_BUCKETS] = RG_MAP_ICMP_BUCKETS,
	[RG_MAPID_EVENT_RINGS]  = RG_MAP_EVENT_RINGS,
	[RG_MAPID_MONITOR_BUCKETS] = RG_MAP_MONITOR_BUCKETS,
};


/* Copy route entries into (out of) an mmap()ed rg_tbl24 / rg_tbl8 at
 * entry first: elements are rg_route_pair, 8 bytes, which is the kernel's
 * stride, so the mmap is a dense array of entries (maps/rg_abi.h). */
_Static_assert(sizeof(struct rg_route_pair) == RG_ROUTES_PER_ELEM * sizeof(uint32_t),
	       "rg_tbl24 / rg_tbl8 mmap: dense entries");

static void mmap_slots_write(uint32_t *mm, size_t first, const uint32_t *src, size_t count)
{
	memcpy(mm + first, src, count * sizeof(*src));
}

static void mmap_slots_read(const uint32_t *mm, size_t first, uint32_t *dst, size_t count)
{
	memcpy(dst, mm + first, count * sizeof(*dst));
}

/* mmap() length: the kernel maps whole pages. */
static size_t page_round(size_t bytes)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return (bytes + page - 1) / page * page;
}

void rg_map_set_init(struct rg_map_set *ms)
{
	for (int i = 0; i < RG_MAPID_COUNT; i++)
		ms->fd[i] = -1;
	ms->state = NULL;
	ms->tbl24 = NULL;
	ms->tbl8 = NULL;
	ms->reps = NULL;
}

static void *map_mmap(int fd, size_t bytes)
{
	void *p = mmap(NULL, page_round(bytes), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

static void map_munmap(void *p, size_t bytes)
{
	if (p)
		munmap(p, page_round(bytes));
}

void rg_map_set_close(struct rg_map_set *ms)
{
	map_munmap(ms->state, RG_STATE_BYTES);
	map_munmap(ms->tbl24, RG_TBL24_BYTES);
	map_munmap(ms->tbl8, RG_TBL8_BYTES);
	map_munmap(ms->reps, RG_REPS_BYTES);
	for (int i = 0; i < RG_MAPID_COUNT; i++)
		if (ms->fd[i] >= 0)
			close(ms->fd[i]);
	rg_map_set_init(ms);
}

/*
 * Check that fd is the map the ABI says (type, value size, max_entries):
 * a pin left by another railgate build must not be written through a
 * layout it does not have.
 */
static int check_map_layout(int fd, enum rg_map_id id, char *err, size_t err_len)
{
	static const struct {
		enum bpf_map_type type;
		uint32_t value_size;
		uint32_t max_entries;
	} want[RG_MAPID_COUNT] = {
		[RG_MAPID_STATE]        = { BPF_MAP_TYPE_ARRAY, sizeof(struct rg_state), 1 },
		[RG_MAPID_GENERATION]   = { BPF_MAP_TYPE_ARRAY, sizeof(struct rg_generation),
					    RG_GENERATIONS },
		[RG_MAPID_TBL24]        = { BPF_MAP_TYPE_ARRAY, sizeof(struct rg_route_pair),
					    RG_GENERATIONS * RG_TBL24_SLOTS / RG_ROUTES_PER_ELEM },
		[RG_MAPID_TBL8]         = { BPF_MAP_TYPE_ARRAY, sizeof(struct rg_route_pair),
					    RG_GENERATIONS * RG_TBL8_GROUPS * RG_TBL8_GROUP_SIZE /
					    RG_ROUTES_PER_ELEM },
		[RG_MAPID_LPM]          = { BPF_MAP_TYPE_LPM_TRIE, sizeof(uint32_t),
					    RG_LPM_MAX_ENTRIES },
		[RG_MAPID_RAILS]        = { BPF_MAP_TYPE_ARRAY, sizeof(struct rg_rail),
					    RG_GENERATIONS * RG_MAX_RAILS },
		[RG_MAPID_REPRESENTORS] = { BPF_MAP_TYPE_ARRAY, sizeof(struct rg_representor),
					    RG_GENERATIONS * RG_MAX_IFINDEX },
		[RG_MAPID_TX_PORTS]     = { BPF_MAP_TYPE_DEVMAP_HASH,
					    sizeof(struct bpf_devmap_val), RG_MAX_UPLINKS },
		[RG_MAPID_STATS]        = { BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(struct rg_counter),
					    RG_STAT_SLOTS },
		[RG_MAPID_SIDE_STATS]   = { BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(struct rg_counter),
					    RG_SIDE_MAX },
		[RG_MAPID_ICMP_BUCKETS] = { BPF_MAP_TYPE_PERCPU_ARRAY,
					    sizeof(struct rg_icmp_bucket), 1 },
		/* the value of a map-in-map is the inner map's id */
		[RG_MAPID_EVENT_RINGS]  = { BPF_MAP_TYPE_ARRAY_OF_MAPS, sizeof(uint32_t),
					    RG_MONITOR_SLOTS },
		[RG_MAPID_MONITOR_BUCKETS] = { BPF_MAP_TYPE_PERCPU_ARRAY,
					       sizeof(struct rg_monitor_bucket), 1 },
	};
	struct bpf_map_info info = {};
	uint32_t len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return rg_err(err, err_len, -errno, "map %s: cannot read its info: %s",
			       rg_map_names[id], strerror(errno));
	if (info.type != want[id].type || info.value_size != want[id].value_size ||
	    info.max_entries != want[id].max_entries)
		return rg_err(err, err_len, -EPROTO,
			       "map %s: layout (type %u, value %u B, %u entries) is not "
			       "ABI v%d's (type %u, value %u B, %u entries)",
			       rg_map_names[id], info.type, info.value_size, info.max_entries,
			       RG_ABI_VERSION, want[id].type, want[id].value_size,
			       want[id].max_entries);
	return 0;
}

/* Check every map's layout and mmap the MMAPABLE ones. */
static int finish_open(struct rg_map_set *ms, char *err, size_t err_len)
{
	int rc;

	for (int i = 0; i < RG_MAPID_COUNT; i++) {
		rc = check_map_layout(ms->fd[i], i, err, err_len);
		if (rc)
			return rc;
	}
	ms->state = map_mmap(ms->fd[RG_MAPID_STATE], RG_STATE_BYTES);
	if (!ms->state)
		return rg_err(err, err_len, -errno, "mmap %s: %s", RG_MAP_STATE, strerror(errno));
	ms->tbl24 = map_mmap(ms->fd[RG_MAPID_TBL24], RG_TBL24_BYTES);
	if (!ms->tbl24)
		return rg_err(err, err_len, -errno, "mmap %s: %s", RG_MAP_TBL24, strerror(errno));
	ms->tbl8 = map_mmap(ms->fd[RG_MAPID_TBL8], RG_TBL8_BYTES);
	if (!ms->tbl8)
		return rg_err(err, err_len, -errno, "mmap %s: %s", RG_MAP_TBL8, strerror(errno));
	ms->reps = map_mmap(ms->fd[RG_MAPID_REPRESENTORS], RG_REPS_BYTES);
	if (!ms->reps)
		return rg_err(err, err_len, -errno, "mmap %s: %s", RG_MAP_REPRESENTORS,
			       strerror(errno));
	return 0;
}

int rg_map_set_from_object(struct rg_map_set *ms, struct bpf_object *obj,
			   char *err, size_t err_len)
{
	int rc;

	rg_map_set_init(ms);
	for (int i = 0; i < RG_MAPID_COUNT; i++) {
		struct bpf_map *map = bpf_object__find_map_by_name(obj, rg_map_names[i]);
		int fd = map ? bpf_map__fd(map) : -1;

		if (fd < 0) {
			rg_map_set_close(ms);
			return rg_err(err, err_len, -ENOENT, "the BPF object has no loaded map %s",
				       rg_map_names[i]);
		}
		/* Own a copy: the set outlives the object in the loader. */
		ms->fd[i] = fcntl(fd, F_DUPFD_CLOEXEC, 0);
		if (ms->fd[i] < 0) {
			rc = rg_err(err, err_len, -errno, "dup map %s: %s", rg_map_names[i],
				     strerror(errno));
			rg_map_set_close(ms);
			return rc;
		}
	}
	rc = finish_open(ms, err, err_len);
	if (rc)
		rg_map_set_close(ms);
	return rc;
}

int rg_map_set_reuse_in_object(const struct rg_map_set *ms, struct bpf_object *obj,
			       char *err, size_t err_len)
{
	for (int i = 0; i < RG_MAPID_COUNT; i++) {
		struct bpf_map *map = bpf_object__find_map_by_name(obj, rg_map_names[i]);
		int rc;

		if (!map)
			return rg_err(err, err_len, -ENOENT, "the BPF object has no map %s",
				       rg_map_names[i]);
		rc = bpf_map__reuse_fd(map, ms->fd[i]);
		if (rc)
			return rg_err(err, err_len, rc, "cannot reuse pinned map %s: %s",
				       rg_map_names[i], strerror(-rc));
	}
	return 0;
}

int rg_map_set_from_pins(struct rg_map_set *ms, const char *vdir, char *err, size_t err_len)
{
	char path[PATH_MAX];
	int rc;

	rg_map_set_init(ms);
	for (int i = 0; i < RG_MAPID_COUNT; i++) {
		rc = rg_pin_map(path, sizeof(path), vdir, rg_map_names[i], err, err_len);
		if (rc) {
			rg_map_set_close(ms);
			return rc;
		}
		ms->fd[i] = bpf_obj_get(path);
		if (ms->fd[i] < 0) {
			rc = rg_err(err, err_len, -errno, "open pinned map %s: %s", path,
				     strerror(errno));
			rg_map_set_close(ms);
			return rc;
		}
	}
	rc = finish_open(ms, err, err_len);
	if (rc)
		rg_map_set_close(ms);
	return rc;
}

int rg_map_set_pin(const struct rg_map_set *ms, const char *vdir, char *err, size_t err_len)
{
	char dir[PATH_MAX], path[PATH_MAX];
	int rc = rg_pin_maps_dir(dir, sizeof(dir), vdir, err, err_len);

	if (!rc)
		rc = rg_mkdir_p(dir, 0700, err, err_len);
	if (rc)
		return rc;
	for (int i = 0; i < RG_MAPID_COUNT; i++) {
		rc = rg_pin_map(path, sizeof(path), vdir, rg_map_names[i], err, err_len);
		if (rc)
			return rc;
		if (bpf_obj_pin(ms->fd[i], path))
			return rg_err(err, err_len, -errno, "pin map %s at %s: %s", rg_map_names[i],
				       path, strerror(errno));
	}
	return 0;
}

/* The kernel's id of the map fd names, 0 when it names none. */
static uint32_t map_id(int fd)
{
	struct bpf_map_info info = {};
	uint32_t len = sizeof(info);

	return fd >= 0 && !bpf_obj_get_info_by_fd(fd, &info, &len) ? info.id : 0;
}

bool rg_map_set_is_pinned(const struct rg_map_set *ms, const char *vdir)
{
	char path[PATH_MAX];
	uint32_t id;
	int fd;

	if (rg_pin_map(path, sizeof(path), vdir, RG_MAP_STATE, NULL, 0))
		return false;
	fd = bpf_obj_get(path);
	id = map_id(fd);
	if (fd >= 0)
		close(fd);
	return id && id == map_id(ms->fd[RG_MAPID_STATE]);
}

unsigned rg_map_set_active_gen(const struct rg_map_set *ms)
{
	if (!ms->state)
		return 0;
	/* Pairs with the release store in rg_map_set_activate. */
	return __atomic_load_n(&ms->state->active_gen, __ATOMIC_ACQUIRE) & 1;
}

static int write_generation_value(struct rg_map_set *ms, unsigned gen,
				  const struct rg_egress *egress, const struct rg_icmp_conf *icmp,
				  const struct rg_zone_set *zones, char *err, size_t err_len)
{
	struct rg_generation value = { .egress = *egress, .zones = *zones };

	if (icmp)
		value.icmp = *icmp;
	uint32_t key = gen;

	if (bpf_map_update_elem(ms->fd[RG_MAPID_GENERATION], &key, &value, BPF_ANY))
		return rg_err(err, err_len, -errno, "write %s[%u]: %s", RG_MAP_GENERATION, gen,
			       strerror(errno));
	return 0;
}

int rg_map_set_read_generation(const struct rg_map_set *ms, unsigned gen,
			       struct rg_generation *out, char *err, size_t err_len)
{
	uint32_t key = gen;

	if (gen >= RG_GENERATIONS)
		return rg_err(err, err_len, -EINVAL, "generation %u out of range", gen);
	if (bpf_map_lookup_elem(ms->fd[RG_MAPID_GENERATION], &key, out))
		return rg_err(err, err_len, -errno, "read %s[%u]: %s", RG_MAP_GENERATION, gen,
			       strerror(errno));
	return 0;
}

struct rg_representor rg_representor_of(uint16_t rail_id, const struct rg_rail *rail,
					 enum rg_attach_mode mode)
{
	struct rg_representor rep = { .rail_id = rail_id, .mode = (uint8_t)mode };

	if (!(rail->flags & RG_RAIL_F_VALID))
		return rep;
	rep.subnet = rail->subnet;
	rep.mask = rail->mask;
	rep.flags = RG_REP_F_VALID;
	if (rail->flags & RG_RAIL_F_VLAN) {
		rep.flags |= RG_REP_F_VLAN;
		rep.vlan = rail->vlan;
	}
	return rep;
}

/* The generation's slice, cleared, then one entry per binding (not VALID
 * when rails does not have its rail: frames from it pass as unknown). */
static int write_representors(struct rg_map_set *ms, unsigned gen,
			      const struct rg_rail rails[RG_MAX_RAILS],
			      const struct rg_rep_binding *reps, size_t n_reps,
			      char *err, size_t err_len)
{
	for (size_t i = 0; i < n_reps; i++) {
		if (reps[i].ifindex >= RG_MAX_IFINDEX)
			return rg_err(err, err_len, -ERANGE,
				       "ifindex %u is too high for the datapath (max %u)",
				       reps[i].ifindex, RG_MAX_IFINDEX - 1);
		if (reps[i].rail_id >= RG_MAX_RAILS)
			return rg_err(err, err_len, -EINVAL,
				       "representor ifindex %u: rail id %u out of range (max %u)",
				       reps[i].ifindex, reps[i].rail_id, RG_MAX_RAILS - 1);
	}
	memset(rep_slot(ms, gen, 0), 0, RG_MAX_IFINDEX * sizeof(struct rg_representor));
	for (size_t i = 0; i < n_reps; i++)
		*rep_slot(ms, gen, reps[i].ifindex) =
			rg_representor_of(reps[i].rail_id, &rails[reps[i].rail_id],
					  reps[i].mode);
	return 0;
}

/* tbl24 and tbl8 through the mmap: only the slots the image uses; the
 * zones of this generation never point past them. */
static int write_tables(struct rg_map_set *ms, unsigned gen,
			const struct rg_fib_image *img, char *err, size_t err_len)
{
	size_t tbl8_entries = (size_t)img->tbl8_groups_used * RG_TBL8_GROUP_SIZE;

	if (img->tbl24_used > RG_TBL24_SLOTS || img->tbl8_groups_used > RG_TBL8_GROUPS)
		return rg_err(err, err_len, -E2BIG,
			       "FIB image uses %u tbl24 slots and %u tbl8 groups (max %u, %u)",
			       img->tbl24_used, img->tbl8_groups_used, RG_TBL24_SLOTS,
			       RG_TBL8_GROUPS);
	mmap_slots_write(ms->tbl24, rg_tbl24_key(gen, 0), img->tbl24, img->tbl24_used);
	mmap_slots_write(ms->tbl8, rg_tbl8_key(gen, 0, 0), img->tbl8, tbl8_entries);
	return 0;
}

/*
 * Delete every rg_lpm key of generation gen.  Keys are collected first and
 * deleted afterwards: deleting while walking with get_next_key restarts
 * the walk from the top of the trie.
 */
static int clear_lpm_generation(struct rg_map_set *ms, unsigned gen, char *err, size_t err_len)
{
	int fd = ms->fd[RG_MAPID_LPM];
	struct rg_lpm_key *keys, key, next;
	size_t count = 0;
	int rc = 0;

	keys = calloc(RG_LPM_MAX_ENTRIES, sizeof(*keys));
	if (!keys)
		return rg_err(err, err_len, -ENOMEM, "out of memory listing %s", RG_MAP_LPM);
	for (void *prev = NULL; count < RG_LPM_MAX_ENTRIES; prev = &key) {
		if (bpf_map_get_next_key(fd, prev, &next)) {
			if (errno != ENOENT)
				rc = rg_err(err, err_len, -errno, "walk %s: %s", RG_MAP_LPM,
					     strerror(errno));
			break;
		}
		if (next.gen == gen)
			keys[count++] = next;
		key = next;
	}
	for (size_t i = 0; !rc && i < count; i++)
		if (bpf_map_delete_elem(fd, &keys[i]) && errno != ENOENT)
			rc = rg_err(err, err_len, -errno, "delete stale %s key: %s", RG_MAP_LPM,
				     strerror(errno));
	free(keys);
	return rc;
}

static int write_lpm(struct rg_map_set *ms, unsigned gen,
		     const struct rg_fib_image *img, char *err, size_t err_len)
{
	int rc = clear_lpm_generation(ms, gen, err, err_len);

	for (size_t i = 0; !rc && i < img->lpm_count; i++) {
		const struct rg_fib_lpm_entry *e = &img->lpm[i];
		struct rg_lpm_key key = rg_lpm_key_of(gen, htonl(e->addr), e->len);

		if (bpf_map_update_elem(ms->fd[RG_MAPID_LPM], &key, &e->entry, BPF_ANY))
			rc = rg_err(err, err_len, -errno, "write %s %u.%u.%u.%u/%u: %s", RG_MAP_LPM,
				     e->addr >> 24, (e->addr >> 16) & 0xff,
				     (e->addr >> 8) & 0xff, e->addr & 0xff, e->len,
				     strerror(errno));
	}
	return rc;
}

/* All RG_MAX_RAILS entries of the generation in one batch syscall. */
static int write_rails(struct rg_map_set *ms, unsigned gen,
		       const struct rg_rail rails[RG_MAX_RAILS], char *err, size_t err_len)
{
	uint32_t keys[RG_MAX_RAILS];
	uint32_t count = RG_MAX_RAILS;

	for (uint32_t i = 0; i < RG_MAX_RAILS; i++)
		keys[i] = rg_rail_key(gen, i);
	if (bpf_map_update_batch(ms->fd[RG_MAPID_RAILS], keys, rails, &count, NULL))
		return rg_err(err, err_len, -errno, "write %s of generation %u: %s", RG_MAP_RAILS,
			       gen, strerror(errno));
	return 0;
}

int rg_map_set_read_rails(const struct rg_map_set *ms, unsigned gen,
			  struct rg_rail rails[RG_MAX_RAILS], char *err, size_t err_len)
{
	if (gen >= RG_GENERATIONS)
		return rg_err(err, err_len, -EINVAL, "generation %u out of range", gen);
	for (uint32_t i = 0; i < RG_MAX_RAILS; i++) {
		uint32_t key = rg_rail_key(gen, i);

		if (bpf_map_lookup_elem(ms->fd[RG_MAPID_RAILS], &key, &rails[i]))
			return rg_err(err, err_len, -errno, "read %s[%u]: %s", RG_MAP_RAILS, key,
				       strerror(errno));
	}
	return 0;
}

int rg_map_set_write_generation(struct rg_map_set *ms, unsigned gen,
				const struct rg_fib_image *img,
				const struct rg_rail rails[RG_MAX_RAILS],
				const struct rg_egress *egress, const struct rg_icmp_conf *icmp,
				const struct rg_rep_binding *reps, size_t n_reps,
				char *err, size_t err_len)
{
	int rc;

	if (gen >= RG_GENERATIONS)
		return rg_err(err, err_len, -EINVAL, "generation %u out of range", gen);
	if (!ms->state)
		return rg_err(err, err_len, -EBADF, "map set is not open");
	if (gen == rg_map_set_active_gen(ms) && ms->state->config_generation)
		return rg_err(err, err_len, -EBUSY,
			       "generation %u is active: the datapath reads it", gen);
	rc = write_representors(ms, gen, rails, reps, n_reps, err, err_len);
	if (!rc)
		rc = write_tables(ms, gen, img, err, err_len);
	if (!rc)
		rc = write_lpm(ms, gen, img, err, err_len);
	if (!rc)
		rc = write_rails(ms, gen, rails, err, err_len);
	/* Zones last: they are what makes the tables above reachable. */
	if (!rc)
		rc = write_generation_value(ms, gen, egress, icmp, &img->zones, err, err_len);
	return rc;
}

int rg_map_set_activate(struct rg_map_set *ms, unsigned gen, const uint8_t digest[32])
{
	struct rg_state *st = ms->state;

	if (gen >= RG_GENERATIONS)
		return -EINVAL;
	if (!st)
		return -EBADF;
	if (digest)
		memcpy(st->config_digest, digest, sizeof(st->config_digest));
	st->abi_version = RG_ABI_VERSION;
	__atomic_fetch_add(&st->config_generation, 1, __ATOMIC_RELAXED);
	/*
	 * The flip: one aligned 32-bit release store.  Every table of gen was
	 * written before (mmap stores and map syscalls alike), so a frame that
	 * reads the new value finds a complete generation.
	 */
	__atomic_store_n(&st->active_gen, gen, __ATOMIC_RELEASE);
	return 0;
}

/* Append generation gen's rg_lpm entries to img->lpm. */
static int read_lpm(const struct rg_map_set *ms, unsigned gen, struct rg_fib_image *img,
		    char *err, size_t err_len)
{
	int fd = ms->fd[RG_MAPID_LPM];
	struct rg_lpm_key key, next;
	size_t cap = 0;

	for (void *prev = NULL; ; prev = &key) {
		uint32_t entry, addr_be;

		if (bpf_map_get_next_key(fd, prev, &next)) {
			if (errno == ENOENT)
				return 0;
			return rg_err(err, err_len, -errno, "walk %s: %s", RG_MAP_LPM, strerror(errno));
		}
		key = next;
		if (key.gen != gen)
			continue;
		/* Gone since the walk found it: a writer deleted it. */
		if (bpf_map_lookup_elem(fd, &key, &entry))
			continue;
		if (img->lpm_count == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			struct rg_fib_lpm_entry *l = realloc(img->lpm, ncap * sizeof(*l));

			if (!l)
				return rg_err(err, err_len, -ENOMEM, "out of memory reading %s", RG_MAP_LPM);
			img->lpm = l;
			cap = ncap;
		}
		memcpy(&addr_be, key.addr, sizeof(addr_be));
		img->lpm[img->lpm_count++] = (struct rg_fib_lpm_entry){
			.addr = ntohl(addr_be),
			.len = (uint8_t)(key.prefixlen - RG_LPM_GEN_BITS),
			.entry = entry,
		};
	}
}

int rg_map_set_read_image(const struct rg_map_set *ms, unsigned gen, struct rg_fib_image *img,
			  char *err, size_t err_len)
{
	const size_t tbl8_slots = (size_t)RG_TBL8_GROUPS * RG_TBL8_GROUP_SIZE;
	struct rg_generation g;
	int rc;

	memset(img, 0, sizeof(*img));
	if (!ms->tbl24 || !ms->tbl8)
		return rg_err(err, err_len, -EBADF, "map set is not open");
	rc = rg_map_set_read_generation(ms, gen, &g, err, err_len);
	if (rc)
		return rc;
	img->zones = g.zones;
	img->tbl24 = calloc(RG_TBL24_SLOTS, sizeof(uint32_t));
	img->tbl8 = calloc(tbl8_slots, sizeof(uint32_t));
	if (!img->tbl24 || !img->tbl8) {
		rg_fib_image_free(img);
		return rg_err(err, err_len, -ENOMEM, "out of memory copying the tables");
	}
	/* Only the slots the zones reach hold this generation's routes. */
	for (uint32_t i = 0; i < img->zones.count && i < RG_MAX_ZONES; i++) {
		const struct rg_zone *z = &img->zones.zones[i];

		if (z->base + z->span > RG_TBL24_SLOTS)
			continue;
		mmap_slots_read(ms->tbl24, rg_tbl24_key(gen, z->base), img->tbl24 + z->base,
				z->span);
		if (z->base + z->span > img->tbl24_used)
			img->tbl24_used = z->base + z->span;
	}
	/* Which groups are in use is not recorded: all of them are copied. */
	mmap_slots_read(ms->tbl8, rg_tbl8_key(gen, 0, 0), img->tbl8, tbl8_slots);
	img->tbl8_groups_used = RG_TBL8_GROUPS;
	rc = read_lpm(ms, gen, img, err, err_len);
	if (rc)
		rg_fib_image_free(img);
	return rc;
}
