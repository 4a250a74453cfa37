// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The datapath's packet and side counters seen from user space (see
 * map_set.h): summed over the CPUs, reset, carried over from an older
 * version at a takeover.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "maps/map_set.h"
#include "maps/pins.h"
#include "lib/errbuf.h"

/*
 * Per-CPU values come back as ncpus consecutive rg_counters per key (16
 * bytes is already 8-aligned).  One batch syscall reads the whole map.
 */
int rg_map_set_read_stats(const struct rg_map_set *ms, struct rg_counter *out,
			  char *err, size_t err_len)
{
	int ncpus = libbpf_num_possible_cpus();
	struct rg_counter *vals;
	uint32_t *keys, out_batch = 0, count = RG_STAT_SLOTS;
	int rc = 0;

	if (ncpus <= 0)
		return rg_err(err, err_len, ncpus ? ncpus : -EINVAL, "cannot count possible CPUs");
	keys = calloc(RG_STAT_SLOTS, sizeof(*keys));
	vals = calloc((size_t)RG_STAT_SLOTS * ncpus, sizeof(*vals));
	if (!keys || !vals) {
		rc = rg_err(err, err_len, -ENOMEM, "out of memory reading %s", RG_MAP_STATS);
		goto out;
	}
	/* ENOENT means "that was the last batch", not a failure. */
	if (bpf_map_lookup_batch(ms->fd[RG_MAPID_STATS], NULL, &out_batch, keys, vals,
				 &count, NULL) && errno != ENOENT) {
		rc = rg_err(err, err_len, -errno, "read %s: %s", RG_MAP_STATS, strerror(errno));
		goto out;
	}
	memset(out, 0, sizeof(*out) * RG_STAT_SLOTS);
	for (uint32_t i = 0; i < count; i++) {
		if (keys[i] >= RG_STAT_SLOTS)
			continue;
		for (int cpu = 0; cpu < ncpus; cpu++) {
			out[keys[i]].packets += vals[(size_t)i * ncpus + cpu].packets;
			out[keys[i]].bytes += vals[(size_t)i * ncpus + cpu].bytes;
		}
	}
out:
	free(keys);
	free(vals);
	return rc;
}

int rg_map_set_read_side_stats(const struct rg_map_set *ms, struct rg_counter *out,
			       char *err, size_t err_len)
{
	int ncpus = libbpf_num_possible_cpus();
	struct rg_counter *vals;
	int rc = 0;

	if (ncpus <= 0)
		return rg_err(err, err_len, ncpus ? ncpus : -EINVAL, "cannot count possible CPUs");
	vals = calloc((size_t)ncpus, sizeof(*vals));
	if (!vals)
		return rg_err(err, err_len, -ENOMEM, "out of memory reading %s", RG_MAP_SIDE_STATS);
	memset(out, 0, sizeof(*out) * RG_SIDE_MAX);
	for (uint32_t key = 0; key < RG_SIDE_MAX && !rc; key++) {
		if (bpf_map_lookup_elem(ms->fd[RG_MAPID_SIDE_STATS], &key, vals)) {
			rc = rg_err(err, err_len, -errno, "read %s: %s", RG_MAP_SIDE_STATS,
				    strerror(errno));
			break;
		}
		for (int cpu = 0; cpu < ncpus; cpu++) {
			out[key].packets += vals[cpu].packets;
			out[key].bytes += vals[cpu].bytes;
		}
	}
	free(vals);
	return rc;
}

/* The side counters of rg_side_stats back to zero on every CPU. */
static int reset_side_stats(struct rg_map_set *ms, char *err, size_t err_len)
{
	int ncpus = libbpf_num_possible_cpus();
	struct rg_counter *zero = calloc((size_t)(ncpus > 0 ? ncpus : 1), sizeof(*zero));
	int rc = 0;

	if (!zero)
		return rg_err(err, err_len, -ENOMEM, "out of memory resetting %s", RG_MAP_SIDE_STATS);
	for (uint32_t key = 0; key < RG_SIDE_MAX && !rc; key++)
		if (bpf_map_update_elem(ms->fd[RG_MAPID_SIDE_STATS], &key, zero, BPF_ANY))
			rc = rg_err(err, err_len, -errno, "reset %s: %s", RG_MAP_SIDE_STATS,
				    strerror(errno));
	free(zero);
	return rc;
}

int rg_map_set_reset_stats(struct rg_map_set *ms, char *err, size_t err_len)
{
	int ncpus = libbpf_num_possible_cpus();
	struct rg_counter *zero;
	uint32_t *keys, count = RG_STAT_SLOTS;
	int rc = 0;

	if (ncpus <= 0)
		return rg_err(err, err_len, ncpus ? ncpus : -EINVAL, "cannot count possible CPUs");
	keys = calloc(RG_STAT_SLOTS, sizeof(*keys));
	zero = calloc((size_t)RG_STAT_SLOTS * ncpus, sizeof(*zero));
	if (!keys || !zero) {
		rc = rg_err(err, err_len, -ENOMEM, "out of memory resetting %s", RG_MAP_STATS);
		goto out;
	}
	for (uint32_t i = 0; i < RG_STAT_SLOTS; i++)
		keys[i] = i;
	if (bpf_map_update_batch(ms->fd[RG_MAPID_STATS], keys, zero, &count, NULL))
		rc = rg_err(err, err_len, -errno, "reset %s: %s", RG_MAP_STATS, strerror(errno));
	if (!rc)
		rc = reset_side_stats(ms, err, err_len);
out:
	free(keys);
	free(zero);
	return rc;
}

/*
 * Add another version's packet counters to ours, CPU by CPU, when its
 * rg_stats has the shape of this ABI's (the same stats in the same slots).
 * Each slot is added once, and only slots that counted something are
 * written; the side counters are not carried.
 */
int rg_map_set_carry_stats(struct rg_map_set *ms, const char *old_vdir)
{
	struct bpf_map_info info = {};
	uint32_t len = sizeof(info);
	char pin[PATH_MAX];
	int ncpu = libbpf_num_possible_cpus();
	struct rg_counter *old = NULL, *cur = NULL;
	int fd, rc = rg_pin_map(pin, sizeof(pin), old_vdir, RG_MAP_STATS, NULL, 0);

	if (rc)
		return rc;
	fd = bpf_obj_get(pin);
	if (fd < 0)
		return -errno;
	rc = -EPROTO;
	if (ncpu <= 0 || bpf_obj_get_info_by_fd(fd, &info, &len) ||
	    info.type != BPF_MAP_TYPE_PERCPU_ARRAY || info.key_size != sizeof(uint32_t) ||
	    info.value_size != sizeof(struct rg_counter) || info.max_entries != RG_STAT_SLOTS)
		goto out;
	rc = -ENOMEM;
	old = calloc((size_t)ncpu, sizeof(*old));
	cur = calloc((size_t)ncpu, sizeof(*cur));
	if (!old || !cur)
		goto out;
	rc = 0;
	for (uint32_t key = 0; key < RG_STAT_SLOTS && !rc; key++) {
		bool any = false;

		if (bpf_map_lookup_elem(fd, &key, old)) {
			rc = -errno;
			break;
		}
		for (int c = 0; c < ncpu; c++)
			any |= old[c].packets != 0;
		if (!any)
			continue;
		if (bpf_map_lookup_elem(ms->fd[RG_MAPID_STATS], &key, cur)) {
			rc = -errno;
			break;
		}
		for (int c = 0; c < ncpu; c++) {
			cur[c].packets += old[c].packets;
			cur[c].bytes += old[c].bytes;
		}
		if (bpf_map_update_elem(ms->fd[RG_MAPID_STATS], &key, cur, BPF_EXIST))
			rc = -errno;
	}
out:
	free(old);
	free(cur);
	close(fd);
	return rc;
}
