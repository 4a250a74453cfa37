// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The drop monitor's lease in rg_state (see map_set.h): claimed, renewed
 * and released with compare-and-swap through the mmap.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "maps/map_set.h"
#include "lib/errbuf.h"

void rg_monitor_raise(__u64 *field, uint64_t until_ns)
{
	__u64 cur = __atomic_load_n(field, __ATOMIC_ACQUIRE);

	/* A failed exchange reloads cur; stop once it is at least ours. */
	while (cur < until_ns &&
	       !__atomic_compare_exchange_n(field, &cur, until_ns, false, __ATOMIC_ACQ_REL,
					    __ATOMIC_ACQUIRE))
		;
}

/* The summary lease of a scope: what every frame looks at. */
static __u64 *summary_lease(struct rg_state *st, enum rg_monitor_scope scope)
{
	return scope == RG_MONITOR_ALL ? &st->monitor_all_until_ns : &st->monitor_drops_until_ns;
}

/* The node's budget as this CPU's share; every monitor writes the same. */
static void write_monitor_budget(struct rg_state *st)
{
	int ncpus = libbpf_num_possible_cpus();
	uint32_t cpus = ncpus > 0 ? (uint32_t)ncpus : 1;

	__atomic_store_n(&st->monitor_cpu_rate, RG_MONITOR_RATE / cpus ?: 1, __ATOMIC_RELAXED);
	__atomic_store_n(&st->monitor_cpu_burst, RG_MONITOR_BURST / cpus ?: 1, __ATOMIC_RELAXED);
	__atomic_store_n(&st->monitor_sample, RG_MONITOR_SAMPLE, __ATOMIC_RELAXED);
}

int rg_map_set_monitor_claim(struct rg_map_set *ms, enum rg_monitor_scope scope, uint64_t now_ns,
			     int ring_fd, uint32_t pid, struct rg_monitor_lease *lease,
			     char *err, size_t err_len)
{
	uint64_t until = now_ns + RG_MONITOR_LEASE_NS;

	lease->slot = -1;
	if (scope != RG_MONITOR_DROPS && scope != RG_MONITOR_ALL)
		return rg_err(err, err_len, -EINVAL, "monitor scope %d is neither drops nor all", scope);
	if (!ms->state)
		return rg_err(err, err_len, -EBADF, "map set is not open");
	for (int i = 0; i < RG_MONITOR_SLOTS; i++) {
		struct rg_monitor_slot *slot = &ms->state->monitor_slots[i];
		__u64 cur = __atomic_load_n(&slot->until_ns, __ATOMIC_ACQUIRE);
		uint32_t key = (uint32_t)i;

		if (cur > now_ns ||
		    !__atomic_compare_exchange_n(&slot->until_ns, &cur, until, false,
						 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			continue;      /* live, or someone else took it just now */
		__atomic_store_n(&slot->scope, (uint32_t)scope, __ATOMIC_RELEASE);
		__atomic_store_n(&slot->owner_pid, pid, __ATOMIC_RELAXED);
		if (bpf_map_update_elem(ms->fd[RG_MAPID_EVENT_RINGS], &key, &ring_fd, BPF_ANY)) {
			int rc = rg_err(err, err_len, -errno, "put the ring into %s[%d]: %s",
					RG_MAP_EVENT_RINGS, i, strerror(errno));

			__atomic_store_n(&slot->until_ns, 0, __ATOMIC_RELEASE);
			return rc;
		}
		write_monitor_budget(ms->state);
		rg_monitor_raise(summary_lease(ms->state, scope), until);
		*lease = (struct rg_monitor_lease){ .slot = i, .until_ns = until, .scope = scope };
		return 0;
	}
	return rg_err(err, err_len, -EBUSY, "all %d monitor slots are held by running monitors",
		      RG_MONITOR_SLOTS);
}

int rg_map_set_monitor_renew(struct rg_map_set *ms, struct rg_monitor_lease *lease,
			     uint64_t now_ns, char *err, size_t err_len)
{
	__u64 until = now_ns + RG_MONITOR_LEASE_NS, mine = lease->until_ns;
	struct rg_monitor_slot *slot;

	if (!ms->state || lease->slot < 0 || lease->slot >= RG_MONITOR_SLOTS)
		return rg_err(err, err_len, -EBADF, "no monitor lease held");
	slot = &ms->state->monitor_slots[lease->slot];
	if (!__atomic_compare_exchange_n(&slot->until_ns, &mine, until, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return rg_err(err, err_len, -ESTALE, "monitor slot %d ran out and was taken",
			      lease->slot);
	lease->until_ns = until;
	rg_monitor_raise(summary_lease(ms->state, lease->scope), until);
	return 0;
}

void rg_map_set_monitor_release(struct rg_map_set *ms, struct rg_monitor_lease *lease)
{
	__u64 mine = lease->until_ns;
	uint32_t key;

	if (!ms->state || lease->slot < 0 || lease->slot >= RG_MONITOR_SLOTS)
		return;
	key = (uint32_t)lease->slot;
	/* Only while it is still ours: a lapsed slot may be someone else's. */
	if (__atomic_compare_exchange_n(&ms->state->monitor_slots[key].until_ns, &mine, 0, false,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		bpf_map_delete_elem(ms->fd[RG_MAPID_EVENT_RINGS], &key);
	lease->slot = -1;
}
