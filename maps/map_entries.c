// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * One entry at a time, outside a full write (see map_set.h): a representor
 * entry put, cleared or read; the clsact interfaces the entries record;
 * the uplinks in rg_tx_ports.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "maps/map_set.h"
#include "maps/map_layout.h"
#include "maps/pins.h"
#include "lib/errbuf.h"

/* Checks shared by the single-entry accessors. */
static int rep_args_ok(const struct rg_map_set *ms, unsigned gen, uint32_t ifindex,
		       char *err, size_t err_len)
{
	if (gen >= RG_GENERATIONS)
		return rg_err(err, err_len, -EINVAL, "generation %u out of range", gen);
	if (ifindex >= RG_MAX_IFINDEX)
		return rg_err(err, err_len, -ERANGE,
			       "ifindex %u is too high for the datapath (max %u)", ifindex,
			       RG_MAX_IFINDEX - 1);
	if (!ms->reps)
		return rg_err(err, err_len, -EBADF, "map set is not open");
	return 0;
}

int rg_map_set_put_representor(struct rg_map_set *ms, unsigned gen, uint32_t ifindex,
			       const struct rg_representor *rep, char *err, size_t err_len)
{
	struct rg_representor *slot, body = *rep;
	int rc = rep_args_ok(ms, gen, ifindex, err, err_len);

	if (rc)
		return rc;
	/*
	 * The datapath may read a live entry while it is written: the flags
	 * (VALID) go in last, so a frame that finds VALID finds the rest.
	 * The loader only ever writes entries that are not VALID yet (a new
	 * interface) or not read (the inactive generation).
	 */
	slot = rep_slot(ms, gen, ifindex);
	body.flags = 0;
	*slot = body;
	__atomic_store_n(&slot->flags, rep->flags, __ATOMIC_RELEASE);
	return 0;
}

int rg_map_set_del_representor(struct rg_map_set *ms, unsigned gen, uint32_t ifindex,
			       char *err, size_t err_len)
{
	int rc = rep_args_ok(ms, gen, ifindex, err, err_len);

	if (rc)
		return rc;
	/* An ARRAY entry cannot be deleted: clearing VALID retires it. */
	__atomic_store_n(&rep_slot(ms, gen, ifindex)->flags, 0, __ATOMIC_RELEASE);
	memset(rep_slot(ms, gen, ifindex), 0, sizeof(struct rg_representor));
	return 0;
}

int rg_map_set_get_representor(const struct rg_map_set *ms, unsigned gen, uint32_t ifindex,
			       struct rg_representor *rep)
{
	int rc = rep_args_ok(ms, gen, ifindex, NULL, 0);

	if (!rc)
		*rep = *rep_slot(ms, gen, ifindex);
	return rc;
}

/*
 * The interfaces whose representor entry says clsact in either generation
 * of reps (a filter has no pin: the entries are its record).  Both
 * generations, so that one the new config dropped is still found, and
 * retired, after the flip.
 */
static int clsact_ifindexes(const struct rg_representor *reps, int **out, size_t *count)
{
	int *list = malloc(RG_MAX_IFINDEX * sizeof(*list));
	size_t found = 0;

	*out = list;
	*count = 0;
	if (!list)
		return -ENOMEM;
	for (uint32_t ifindex = 1; ifindex < RG_MAX_IFINDEX; ifindex++) {
		for (unsigned gen = 0; gen < RG_GENERATIONS; gen++) {
			if (reps[rg_rep_key(gen, ifindex)].mode == RG_MODE_TC_CLSACT) {
				list[found++] = (int)ifindex;
				break;
			}
		}
	}
	*count = found;
	return 0;
}

int rg_map_set_clsact_ifindexes(const struct rg_map_set *ms, int **out, size_t *count)
{
	*out = NULL;
	*count = 0;
	return ms->reps ? clsact_ifindexes(ms->reps, out, count) : 0;
}

int rg_map_pins_clsact_ifindexes(const char *vdir, int **out, size_t *count)
{
	struct bpf_map_info info = {};
	uint32_t len = sizeof(info);
	char pin[PATH_MAX];
	void *reps;
	int fd, rc;

	*out = NULL;
	*count = 0;
	rc = rg_pin_map(pin, sizeof(pin), vdir, RG_MAP_REPRESENTORS, NULL, 0);
	if (rc)
		return rc;
	fd = bpf_obj_get(pin);
	if (fd < 0)
		return -errno;
	/* Another ABI's entries are read only if they have this one's layout. */
	if (bpf_obj_get_info_by_fd(fd, &info, &len) ||
	    info.value_size != sizeof(struct rg_representor) ||
	    info.max_entries != RG_GENERATIONS * RG_MAX_IFINDEX) {
		close(fd);
		return -EPROTO;
	}
	reps = mmap(NULL, RG_REPS_BYTES, PROT_READ, MAP_SHARED, fd, 0);
	rc = reps == MAP_FAILED ? -errno : clsact_ifindexes(reps, out, count);
	if (reps != MAP_FAILED)
		munmap(reps, RG_REPS_BYTES);
	close(fd);
	return rc;
}

int rg_map_set_put_tx_port(struct rg_map_set *ms, uint32_t ifindex, char *err, size_t err_len)
{
	struct bpf_devmap_val val = { .ifindex = ifindex }, cur;

	/*
	 * Already there: leave it.  The kernel replaces a DEVMAP_HASH entry by
	 * unlinking the old node and then linking the new one, so a redirect
	 * on another CPU in between misses the uplink (redirect_failed): every
	 * reload re-putting the same uplink dropped an in-flight frame now and
	 * then (test_reload_differential caught it).
	 */
	if (!bpf_map_lookup_elem(ms->fd[RG_MAPID_TX_PORTS], &ifindex, &cur) &&
	    cur.ifindex == ifindex && !cur.bpf_prog.fd)
		return 0;
	if (bpf_map_update_elem(ms->fd[RG_MAPID_TX_PORTS], &ifindex, &val, BPF_ANY))
		return rg_err(err, err_len, -errno, "write %s[%u]: %s", RG_MAP_TX_PORTS, ifindex,
			       strerror(errno));
	return 0;
}

int rg_map_set_del_tx_port(struct rg_map_set *ms, uint32_t ifindex, char *err, size_t err_len)
{
	if (bpf_map_delete_elem(ms->fd[RG_MAPID_TX_PORTS], &ifindex) && errno != ENOENT)
		return rg_err(err, err_len, -errno, "delete %s[%u]: %s", RG_MAP_TX_PORTS, ifindex,
			       strerror(errno));
	return 0;
}

int rg_map_set_read_tx_ports(const struct rg_map_set *ms, uint32_t ifindexes[RG_MAX_UPLINKS],
			     size_t *count, char *err, size_t err_len)
{
	uint32_t key, next;

	*count = 0;
	for (void *prev = NULL; *count < RG_MAX_UPLINKS; prev = &key) {
		if (bpf_map_get_next_key(ms->fd[RG_MAPID_TX_PORTS], prev, &next)) {
			if (errno == ENOENT)
				return 0;
			return rg_err(err, err_len, -errno, "walk %s: %s", RG_MAP_TX_PORTS,
				       strerror(errno));
		}
		ifindexes[(*count)++] = next;
		key = next;
	}
	return 0;
}
