/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * What a parsed config is: struct rg_config and its parts, its bounds, and
 * the names of its enum values.  Below the schema that fills it and the
 * entry points that return it (loader/config/config.h, which includes this
 * header: the rest of the tree includes config.h).
 *
 * All addresses are host byte order.
 */
#ifndef RAILGATE_CONFIG_MODEL_H
#define RAILGATE_CONFIG_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <net/if.h>

#include "lib/digest.h"
#include "maps/rg_abi.h"
#include "lib/addr.h"       /* struct rg_cidr and its arithmetic */
#include "loader/config/diags.h"   /* struct rg_pos */

/* A PF selector: a netdev name or a PCI address ("0000:17:00.0"), globs allowed. */
#define RG_PF_SEL_LEN 64

struct rg_config_rail {
	char     name[RG_RAIL_NAME_LEN];
	struct rg_cidr subnet;
	uint32_t gateway;            /* the switch's address on this rail */
	/* A rail selects its representors one way: by name, or by PF (the VF
	 * representors switchdev shows for it, loader/kernel/switchdev.h). */
	char   **representors;       /* interface names or shell globs; 0 with pf */
	size_t   n_representors;
	char     pf[RG_PF_SEL_LEN];  /* "" with representors */
	int      vlan;               /* 1..4094, or -1 for untagged */
	int      mtu;                /* 0: not checked */
	struct rg_pos pos;           /* of the rail's mapping */
};

enum rg_config_mode {
	RG_CONFIG_MODE_AUTO = 0,     /* native XDP where the driver has it, else TC */
	RG_CONFIG_MODE_XDP,
	RG_CONFIG_MODE_XDP_GENERIC,
	RG_CONFIG_MODE_TC,
};

/* How tc mode attaches (datapath.tcAttach); RAILGATE_TC_ATTACH, when set,
 * overrides it (loader/plan/resolve.h, rg_tc_attach_mode: the one place that
 * decides). */
enum rg_config_tc_attach {
	RG_CONFIG_TC_ATTACH_AUTO = 0,  /* tcx where the kernel has it (6.6+), else clsact */
	RG_CONFIG_TC_ATTACH_TCX,       /* a tcx link; refused on a kernel without tcx */
	RG_CONFIG_TC_ATTACH_CLSACT,    /* railgate's clsact filter */
};

/* A node's own selection for one rail: pf or representors, replacing the rail's. */
struct rg_config_node_rail {
	size_t   rail;               /* index into rg_config.rails */
	char   **representors;
	size_t   n_representors;
	char     pf[RG_PF_SEL_LEN];
};

/* Per-node override (railgate run, one ConfigMap for many nodes). */
struct rg_config_node {
	char     name[256];          /* node name (NODE_NAME) */
	char     uplink[IF_NAMESIZE];/* "" = not overridden */
	bool     has_gateway;
	uint32_t gateway;
	bool     has_gateway_mac;
	uint8_t  gateway_mac[6];
	struct rg_config_node_rail *rails;
	size_t   n_rails;
};

struct rg_config {
	char    *path;               /* as given, for messages */
	uint8_t  sha256[RG_SHA256_LEN]; /* of the bytes parsed: the digest `status` shows */
	char     name[256];          /* metadata.name */

	struct rg_cidr *supernets;
	size_t   n_supernets;

	struct {
		char     uplink[IF_NAMESIZE]; /* "" with uplinkDiscover */
		bool     uplink_discover;     /* uplink: auto -> the interface routing to gateway */
		uint32_t gateway;
		bool     has_gateway_mac;
		uint8_t  gateway_mac[6];
		struct rg_cidr *frontend;
		size_t   n_frontend;
		uint32_t icmp_source;         /* 0: the uplink's address */
		int      icmp_rate;           /* ICMP errors per second for the node; 0: none */
		int      icmp_burst;
	} computenet;

	struct rg_config_rail *rails;
	size_t   n_rails;

	struct rg_config_node *nodes; /* spec.nodes: per-node overrides */
	size_t   n_nodes;

	enum rg_config_mode mode;
	enum rg_config_tc_attach tc_attach;
	bool     anti_spoof;          /* default true */

	uint32_t *probe_targets;      /* spec.probe.targets: what `railgate probe` sends to */
	size_t   n_probe_targets;
	int      probe_port;          /* spec.probe.port: the targets' UDP responder, 0 = default */
};

/*
 * The bounds of a config (docs/config.md, "Limits"): validation costs time
 * in proportion to the file, whatever is in it.  A list longer than its cap
 * is one error and its entries are not examined.
 */
enum {
	RG_CONFIG_MAX_BYTES        = 1 << 20, /* a config is a few KiB; refuse a log file */
	RG_CONFIG_MAX_DEPTH        = 32,      /* the schema nests 5 deep; labels a few more */
	/* RG_CONFIG_MAX_ERRORS: loader/config/diags.h */
	/* every rail lies in one supernet: more than rails cannot be used */
	RG_CONFIG_MAX_SUPERNETS    = RG_MAX_RAILS,
	/* rails, supernets and frontend prefixes all fit the LPM fallback,
	 * even when no zone expands (maps/fib.c) */
	RG_CONFIG_MAX_FRONTEND     = RG_LPM_MAX_ENTRIES - 2 * RG_MAX_RAILS,
	/* names and globs in all rails together (a glob covers any number
	 * of VFs); each is matched against the others' globs */
	RG_CONFIG_MAX_REPRESENTORS = 1024,
	RG_CONFIG_MAX_NODES        = 5000,    /* Kubernetes' largest supported cluster */
};

const char *rg_config_mode_name(enum rg_config_mode mode);
/* The value of a mode name (auto, xdp, xdp-generic, tc): 0, or -EINVAL. */
int rg_config_mode_parse(const char *s, enum rg_config_mode *out);
const char *rg_config_tc_attach_name(enum rg_config_tc_attach a);
/* The value of a tcAttach name (auto, tcx, clsact): 0, or -EINVAL. */
int rg_config_tc_attach_parse(const char *s, enum rg_config_tc_attach *out);

#endif /* RAILGATE_CONFIG_MODEL_H */
