/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * railgate doctor's checks (docs/failure-scenarios.md says what each
 * scenario means on a node): node.c reads the pins, the node's links and
 * neighbours; pod.c a pod's routes (through tools/pod_routes/, the one
 * route reader), its MTUs and the CNI result caches; nft.c the nftables
 * rulesets through libnftables' JSON API.  Each check adds entries to a
 * struct rg_checks (report.h); the judgements are pure functions over
 * recorded inputs, so the unit tests feed them what the testbed cannot
 * produce.
 *
 * The checks live in tools/, not loader/: the pod checks stand on
 * tools/pod_routes/, and a library in loader/ may not reach up there.
 */
#ifndef RAILGATE_DOCTOR_H
#define RAILGATE_DOCTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tools/doctor/report.h"
#include "loader/config/config.h"
#include "maps/rg_abi.h"

struct rg_datapath;

#define RG_CNI_RESULTS_DIR        "/var/lib/cni/results"
#define RG_CNI_MULTUS_RESULTS_DIR "/var/lib/cni/multus/results"
#define RG_DOCTOR_MAX_CNI_DIRS    8

/* What every check may use. */
struct rg_doctor_ctx {
	const struct rg_config *cfg;     /* the node's config, or NULL */
	const char *config_path;         /* as the fix commands name it */
	struct rg_datapath *dp;          /* open when up */
	bool up;
	int sample_ms;                   /* how long node.drops watches the counters */
	const char *cni_dirs[RG_DOCTOR_MAX_CNI_DIRS];
	size_t n_cni_dirs;
};

/* How the fix commands name a pod: "--netns NAME" / "--pid PID" for
 * railgate, a prefix that runs a command in it ("ip netns exec NAME",
 * "nsenter -t PID -n"). */
struct rg_doctor_pod {
	int netns_fd;
	const char *label;               /* "pod NAME" in targets */
	const char *railgate_arg;
	const char *exec_prefix;
};

void rg_doctor_node(const struct rg_doctor_ctx *x, struct rg_checks *cs);
void rg_doctor_pod(const struct rg_doctor_ctx *x, const struct rg_doctor_pod *pod,
		   struct rg_checks *cs);

/* ---- judgements on recorded inputs ------------------------------------- */

/* node.drops: the counters c0 then c1 (RG_STAT_SLOTS each) a sample apart. */
void rg_doctor_judge_drops(const struct rg_rail rails[RG_MAX_RAILS], const struct rg_counter *c0,
			   const struct rg_counter *c1, double seconds, const char *config_path,
			   struct rg_checks *cs);

/* What traffic between rails is, for the policy check. */
struct rg_nft_scope {
	const struct rg_cidr *prefixes;  /* supernets and front-end prefixes */
	size_t n_prefixes;
	const char *const *ifnames;      /* the rail interfaces (pod) or representors (node) */
	size_t n_ifnames;
	const char *target;              /* "pod NAME" or "node" */
	const char *exec_prefix;         /* for the fix command; "" on the node */
};

/* Scenario 4 on `list ruleset` in libnftables' JSON: 0, or -EINVAL when
 * the text is no nftables JSON (a check entry says so). */
int rg_doctor_judge_nft(const char *json, const struct rg_nft_scope *scope, struct rg_checks *cs);
/* The ruleset of a namespace (-1: the caller's) as JSON; *out malloc'd. */
int rg_doctor_nft_ruleset(int netns_fd, char **out, char *err, size_t err_len);

/* A CNI result cache entry (libcni's cniCacheV1) for one attachment. */
struct rg_cni_attachment {
	char path[512];
	char network[128];
	bool has_railgate;               /* railgate(-cni) in the chain */
	bool result_routes_supernet;     /* the final result routes a supernet */
};

/* Find the entry of ifname holding addr under dirs: 1 found, 0 none, -errno. */
int rg_doctor_cni_lookup(const char *const *dirs, size_t n_dirs, const char *ifname,
			 uint32_t addr, const struct rg_config *cfg,
			 struct rg_cni_attachment *out);

#endif
