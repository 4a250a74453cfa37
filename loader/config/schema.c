// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The railgate config: YAML in, a validated struct rg_config out, or every
 * mistake in the file reported as "FILE:LINE:COL: message", in source order.
 *
 * Schema (docs/config.md):
 *
 *   apiVersion: railgate.dev/v1alpha1      required, exactly this
 *   kind: RailConfig                       required, exactly this
 *   metadata:                              required
 *     name: STRING                         required, non-empty
 *     namespace: STRING                    optional, ignored (ConfigMap/CRD)
 *     labels: {...}                        optional mapping, ignored
 *     annotations: {...}                   optional mapping, ignored
 *   spec:                                  required
 *     supernets: [CIDR, ...]               required, non-empty, /8 or longer,
 *                                          no two overlapping
 *     computenet:                          required
 *       uplink: IFNAME | auto              required (see below)
 *       gateway: IPV4                      required, outside every supernet
 *       gatewayMAC: MAC                    optional, unicast
 *       frontend: [CIDR, ...]              optional, overlapping neither a
 *                                          supernet nor each other
 *       icmpSource: IPV4                   optional, a unicast address; default
 *                                          the uplink's address (loader/plan/resolve.c)
 *       icmpRate: 0..1000000               optional, ICMP errors per second,
 *                                          default 1000 (0: none)
 *       icmpBurst: 1..1000000              optional, default 50
 *     rails:                               required, 1..RG_MAX_RAILS entries
 *       - name: NAME                       required, [a-z0-9-], starts and ends
 *                                          alphanumeric, < RG_RAIL_NAME_LEN
 *         subnet: CIDR                     required, inside a supernet, at most
 *                                          /30, overlapping no other rail
 *         gateway: IPV4                    required, a host of subnet
 *         representors: [IFNAME|GLOB, ...] non-empty, each name or glob in
 *                                          one rail only; or instead:
 *         pf: IFNAME|PCI-ADDRESS|GLOB      the PF whose VF representors the
 *                                          rail takes (loader/kernel/switchdev.h)
 *         vlan: 1..4094                    optional, default none (-1)
 *         mtu: 68..65535                   optional, default 0 (not checked)
 *     datapath:                            optional
 *       mode: auto|xdp|xdp-generic|tc      default auto
 *       tcAttach: auto|tcx|clsact          default auto (tcx where the kernel
 *                                          has it); RAILGATE_TC_ATTACH wins
 *       antiSpoof: true|false              default true (YAML 1.2 booleans
 *                                          only: "yes"/"on" are refused)
 *     probe:                               optional (railgate probe)
 *       targets: [IPV4, ...]               addresses beyond the switch that
 *                                          answer probes, each in a rail or a
 *                                          front-end prefix, never a rail's
 *                                          gateway, no duplicates
 *       port: 1..65535                     UDP port of the targets' responder,
 *                                          default 33434 (0 in the struct)
 *     nodes:                               optional (per-node daemon)
 *       - name: NODE                       required, unique
 *         uplink: IFNAME | auto            optional override
 *         gateway: IPV4                    optional override
 *         gatewayMAC: MAC                  optional override
 *         rails:                           optional, a rail's own selection:
 *           - name: RAIL                   required, a rail of spec.rails
 *             pf: ... | representors: [...]  exactly one, replacing the rail's
 *
 * Two additions to the first schema, for `railgate run` as a DaemonSet where
 * one ConfigMap serves every node:
 *   - computenet.uplink: auto discovers the uplink as the interface that
 *     routes to computenet.gateway (cfg->computenet.uplink_discover = true,
 *     uplink = "").
 *   - spec.nodes lists per-node overrides, applied by
 *     rg_config_apply_node(cfg, NODE_NAME).  A node overriding the gateway
 *     without a gatewayMAC drops the global gatewayMAC: it belonged to the
 *     other gateway, and a stale MAC would black-hole every cross-rail frame.
 *
 * Every key at every level is checked against the schema: an unknown key
 * is an error, because a typo ("represntors") silently ignored is a rail
 * with no interfaces.  Parsing goes on after an error so that one run
 * reports everything; the semantic checks (overlaps, containment) only use
 * the values that parsed.
 *
 * This file is the schema: the keys of each mapping, what each value must
 * be, and the parse of each section into struct rg_config.  The checks
 * across fields are in checks.c; the YAML reading under both in yaml_doc.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "loader/config/schema.h"
#include "lib/addr.h"
#include "lib/mac.h"

#define RG_CONFIG_API_VERSION "railgate.dev/v1alpha1"

enum {
	VLAN_MIN             = 1,
	VLAN_MAX             = 4094,
	MTU_MIN              = 68,      /* IPv4 minimum, RFC 791 */
	MTU_MAX              = 65535,
	RAIL_MAX_PREFIX      = 30,      /* network, gateway, a host, broadcast */
	K8S_NODE_NAME_MAX    = 253,     /* a DNS subdomain */
	PROBE_TARGETS_MAX    = 64,      /* a probe run sends to each from every rail */
};

/* ---- typed values ------------------------------------------------------ */

/* "10.0.0.0/33": an address and a number, but a length beyond /32. */
static bool prefix_length_too_long(const char *s)
{
	const char *slash = strrchr(s, '/');
	char addr[sizeof("255.255.255.255")];
	uint32_t unused;
	size_t len;

	if (!slash || (size_t)(slash - s) >= sizeof(addr) || !slash[1])
		return false;
	len = (size_t)(slash - s);
	memcpy(addr, s, len);
	addr[len] = '\0';
	if (rg_ipv4_parse(addr, &unused))
		return false;
	return strspn(slash + 1, "0123456789") == strlen(slash + 1);
}

static bool parse_cidr_node(struct parser *p, const yaml_node_t *n,
			    const char *label, struct rg_cidr *out)
{
	const char *s = expect_string(&p->doc, n, label);
	struct rg_cidr network;

	if (!s)
		return false;
	if (!rg_cidr_parse(s, out, false))
		return true;
	if (!rg_cidr_parse(s, &network, true))
		error_node(&p->doc, n, "%s has host bits set; did you mean %s?", s,
			   rg_cidr_text(network).s);
	else if (prefix_length_too_long(s))
		error_node(&p->doc, n, "prefix length of %s is out of range 0..32", s);
	else
		error_node(&p->doc, n, "invalid CIDR '%s' (expected A.B.C.D/LEN, such as 10.0.0.0/16)",
			   s);
	return false;
}

static bool parse_ipv4_node(struct parser *p, const yaml_node_t *n,
			    const char *label, uint32_t *out)
{
	const char *s = expect_string(&p->doc, n, label);

	if (!s)
		return false;
	if (rg_ipv4_parse(s, out)) {
		error_node(&p->doc, n, "invalid IPv4 address '%s' (expected A.B.C.D)", s);
		return false;
	}
	return true;
}

/* A gateway MAC: frames are unicast to it, so multicast or zero is a typo. */
static bool parse_gateway_mac_node(struct parser *p, const yaml_node_t *n,
				   const char *label, uint8_t mac[6])
{
	static const uint8_t zero[6];
	const char *s = expect_string(&p->doc, n, label);

	if (!s)
		return false;
	if (rg_mac_parse(s, mac)) {
		error_node(&p->doc, n, "invalid MAC address '%s' (expected six hex pairs such as 0c:42:a1:00:00:01)",
			   s);
		return false;
	}
	if (mac[0] & 1) {
		error_node(&p->doc, n, "gatewayMAC %s is a multicast address; the gateway needs a unicast MAC",
			   s);
		return false;
	}
	if (!memcmp(mac, zero, sizeof(zero))) {
		error_node(&p->doc, n, "gatewayMAC %s is the zero address", s);
		return false;
	}
	return true;
}

/*
 * An interface name or a shell glob over interface names: what the kernel's
 * dev_valid_name() accepts (1..IFNAMSIZ-1 bytes, no '/', ':' or
 * whitespace, not "." or "..").
 */
static bool check_ifname(struct parser *p, const yaml_node_t *n, const char *s)
{
	size_t len = strlen(s);

	if (len == 0) {
		error_node(&p->doc, n, "interface name must not be empty");
		return false;
	}
	if (len >= IF_NAMESIZE) {
		error_node(&p->doc, n, "interface name '%s' is too long (%zu characters, at most %d)",
			   s, len, IF_NAMESIZE - 1);
		return false;
	}
	if (strpbrk(s, "/: \t\n\r\v\f") || !strcmp(s, ".") || !strcmp(s, "..")) {
		error_node(&p->doc, n, "invalid interface name '%s' (no '/', ':' or whitespace)", s);
		return false;
	}
	return true;
}

static bool is_lower_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* A Kubernetes-style name (RFC 1123 label, shorter than RG_RAIL_NAME_LEN):
 * it becomes a metrics label and a map value. */
static bool check_rail_name(struct parser *p, const yaml_node_t *n, const char *s)
{
	size_t i, len = strlen(s);

	if (len == 0) {
		error_node(&p->doc, n, "rail name must not be empty");
		return false;
	}
	if (len >= RG_RAIL_NAME_LEN) {
		error_node(&p->doc, n, "rail name '%s' is too long (%zu characters, at most %d)",
			   s, len, RG_RAIL_NAME_LEN - 1);
		return false;
	}
	for (i = 0; i < len; i++)
		if (!is_lower_alnum(s[i]) && s[i] != '-')
			break;
	if (i < len || s[0] == '-' || s[len - 1] == '-') {
		error_node(&p->doc, n, "rail name '%s' is invalid: use lowercase letters, digits and '-', starting and ending with a letter or digit",
			   s);
		return false;
	}
	return true;
}

/* Kubernetes node names are DNS subdomains; NODE_NAME never has capitals,
 * so a name with one would silently never match. */
static bool check_node_name(struct parser *p, const yaml_node_t *n, const char *s)
{
	size_t len = strlen(s);

	if (len == 0) {
		error_node(&p->doc, n, "node name must not be empty");
		return false;
	}
	if (len > K8S_NODE_NAME_MAX) {
		error_node(&p->doc, n, "node name is too long (%zu characters, at most %d)",
			   len, K8S_NODE_NAME_MAX);
		return false;
	}
	if (strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789-.") != len) {
		error_node(&p->doc, n, "node name '%s' is invalid: Kubernetes node names are lowercase letters, digits, '-' and '.'",
			   s);
		return false;
	}
	return true;
}

/* A list of CIDRs; the ones that parse are kept, with their nodes.
 * Returns true when every entry parsed. */
static bool parse_cidr_list(struct parser *p, const yaml_node_t *list,
			    const char *key, struct rg_cidr **out, size_t *count,
			    const yaml_node_t ***nodes)
{
	size_t i, n = list_length(list);
	bool all_ok = true;
	char label[64];

	entry_label(label, sizeof(label), key);
	*out = doc_calloc(&p->doc, n, sizeof(**out));
	*nodes = doc_calloc(&p->doc, n, sizeof(**nodes));
	if (!*out || !*nodes)
		return false;
	for (i = 0; i < n; i++) {
		const yaml_node_t *item = list_item(&p->doc, list, i);

		if (parse_cidr_node(p, item, label, &(*out)[*count]))
			(*nodes)[(*count)++] = item;
		else
			all_ok = false;
	}
	return all_ok;
}

/* ---- sections ---------------------------------------------------------- */

enum metadata_key { META_NAME, META_NAMESPACE, META_LABELS, META_ANNOTATIONS, META_NKEYS };
static const struct key_spec metadata_keys[META_NKEYS] = {
	[META_NAME]        = { "name", true },
	[META_NAMESPACE]   = { "namespace", false },
	[META_LABELS]      = { "labels", false },
	[META_ANNOTATIONS] = { "annotations", false },
};

static void parse_metadata(struct parser *p, const yaml_node_t *map)
{
	const yaml_node_t *v[META_NKEYS];
	const char *name;

	if (!expect_type(&p->doc, map, YAML_MAPPING_NODE, "'metadata'"))
		return;
	collect_keys(&p->doc, map, "in metadata", metadata_keys, META_NKEYS, v);

	if (v[META_NAME] && (name = expect_string(&p->doc, v[META_NAME], "'name'"))) {
		if (!name[0])
			error_node(&p->doc, v[META_NAME], "metadata.name must not be empty");
		else if (strlen(name) >= sizeof(p->cfg->name))
			error_node(&p->doc, v[META_NAME], "metadata.name is too long (at most %zu characters)",
				   sizeof(p->cfg->name) - 1);
		else
			strcpy(p->cfg->name, name);
	}
	if (v[META_NAMESPACE])
		expect_string(&p->doc, v[META_NAMESPACE], "'namespace'");
	if (v[META_LABELS])
		expect_type(&p->doc, v[META_LABELS], YAML_MAPPING_NODE, "'labels'");
	if (v[META_ANNOTATIONS])
		expect_type(&p->doc, v[META_ANNOTATIONS], YAML_MAPPING_NODE, "'annotations'");
}

/* "auto" or an interface name into a char[IF_NAMESIZE]. */
static bool parse_uplink_node(struct parser *p, const yaml_node_t *n,
			      char uplink[IF_NAMESIZE], bool *discover)
{
	const char *s = expect_string(&p->doc, n, "'uplink'");

	if (!s)
		return false;
	if (!strcmp(s, "auto")) {
		uplink[0] = '\0';
		*discover = true;
		return true;
	}
	if (!check_ifname(p, n, s))
		return false;
	strcpy(uplink, s);
	*discover = false;
	return true;
}

enum computenet_key { CN_UPLINK, CN_GATEWAY, CN_GATEWAY_MAC, CN_FRONTEND, CN_ICMP_SOURCE,
		      CN_ICMP_RATE, CN_ICMP_BURST, CN_NKEYS };
static const struct key_spec computenet_keys[CN_NKEYS] = {
	[CN_UPLINK]      = { "uplink", true },
	[CN_GATEWAY]     = { "gateway", true },
	[CN_GATEWAY_MAC] = { "gatewayMAC", false },
	[CN_FRONTEND]    = { "frontend", false },
	[CN_ICMP_SOURCE] = { "icmpSource", false },
	[CN_ICMP_RATE]   = { "icmpRate", false },
	[CN_ICMP_BURST]  = { "icmpBurst", false },
};

/*
 * icmpSource: the source of the datapath's ICMP errors, which pods must
 * accept, so a unicast address: not 0.0.0.0, loopback, multicast, class E
 * or broadcast.
 */
static void parse_icmp_source_node(struct parser *p, const yaml_node_t *n, uint32_t *out)
{
	uint32_t a;

	if (!parse_ipv4_node(p, n, "'icmpSource'", &a))
		return;
	if (a == 0 || (a >> 24) == 127 || (a >> 28) >= 0xe) {
		error_node(&p->doc, n, "icmpSource must be a unicast address the node owns, got %s",
			   describe(n).s);
		return;
	}
	*out = a;
}

static void parse_computenet(struct parser *p, const yaml_node_t *map)
{
	typeof(p->cfg->computenet) *cn = &p->cfg->computenet;
	const yaml_node_t *v[CN_NKEYS];

	if (!expect_type(&p->doc, map, YAML_MAPPING_NODE, "'computenet'"))
		return;
	collect_keys(&p->doc, map, "in computenet", computenet_keys, CN_NKEYS, v);

	if (v[CN_UPLINK] && parse_uplink_node(p, v[CN_UPLINK], cn->uplink, &cn->uplink_discover) &&
	    !cn->uplink_discover)
		p->uplink_node = v[CN_UPLINK];
	if (v[CN_GATEWAY] && parse_ipv4_node(p, v[CN_GATEWAY], "'gateway'", &cn->gateway))
		p->gateway_node = v[CN_GATEWAY];
	if (v[CN_GATEWAY_MAC])
		cn->has_gateway_mac = parse_gateway_mac_node(p, v[CN_GATEWAY_MAC],
							     "'gatewayMAC'", cn->gateway_mac);
	if (v[CN_FRONTEND] && expect_list(&p->doc, v[CN_FRONTEND], "frontend", false) &&
	    list_within_cap(&p->doc, v[CN_FRONTEND], "frontend prefixes", RG_CONFIG_MAX_FRONTEND))
		parse_cidr_list(p, v[CN_FRONTEND], "frontend", &cn->frontend,
				&cn->n_frontend, &p->frontend_nodes);
	if (v[CN_ICMP_SOURCE])
		parse_icmp_source_node(p, v[CN_ICMP_SOURCE], &cn->icmp_source);
	if (v[CN_ICMP_RATE])
		parse_int_node(&p->doc, v[CN_ICMP_RATE], "icmpRate", 0, RG_ICMP_RATE_MAX, &cn->icmp_rate);
	if (v[CN_ICMP_BURST])
		parse_int_node(&p->doc, v[CN_ICMP_BURST], "icmpBurst", 1, RG_ICMP_BURST_MAX,
			       &cn->icmp_burst);
}

/* The cap counts all rails together: reported once, at the list that
 * crosses it; that list and the later ones are not examined. */
static bool representors_within_cap(struct parser *p, const yaml_node_t *list)
{
	p->n_representors += list_length(list);
	if (p->n_representors <= RG_CONFIG_MAX_REPRESENTORS)
		return true;
	if (!p->representors_over)
		error_node(&p->doc, list, "too many representors (%zu in this and earlier rails, at most %d in all)",
			   p->n_representors, RG_CONFIG_MAX_REPRESENTORS);
	p->representors_over = true;
	return false;
}

/* A list of interface names or globs into *out; nodes (may be NULL) gets
 * each kept entry's YAML node, for the cross-rail checks. */
static void parse_representors(struct parser *p, const yaml_node_t *list, char ***out,
			       size_t *count, const yaml_node_t ***nodes)
{
	size_t i, n = list_length(list);
	char label[64];

	entry_label(label, sizeof(label), "representors");
	*out = doc_calloc(&p->doc, n, sizeof(**out));
	if (nodes)
		*nodes = doc_calloc(&p->doc, n, sizeof(**nodes));
	if (!*out || (nodes && !*nodes))
		return;
	for (i = 0; i < n; i++) {
		const yaml_node_t *item = list_item(&p->doc, list, i);
		const char *s = expect_string(&p->doc, item, label);
		char *copy;

		if (!s || !check_ifname(p, item, s))
			continue;
		copy = strdup(s);
		if (!copy) {
			p->doc.oom = true;
			return;
		}
		if (nodes)
			(*nodes)[*count] = item;
		(*out)[(*count)++] = copy;
	}
}

/*
 * A PF selector: a netdev name (as check_ifname) or a PCI address such as
 * 0000:17:00.0, either with shell globs (ens*f0np0, 0000:*:00.0).  A ':'
 * tells the two apart: netdev names cannot hold one.
 */
static bool parse_pf_node(struct parser *p, const yaml_node_t *n, char out[RG_PF_SEL_LEN])
{
	const char *s = expect_string(&p->doc, n, "'pf'");

	if (!s)
		return false;
	if (strchr(s, ':')) {
		if (strlen(s) >= RG_PF_SEL_LEN ||
		    strspn(s, "0123456789abcdefABCDEF:.*?[]!-") != strlen(s)) {
			error_node(&p->doc, n, "pf '%s' is neither an interface name nor a PCI address like 0000:17:00.0", s);
			return false;
		}
	} else if (!check_ifname(p, n, s)) {
		return false;
	}
	strcpy(out, s);
	return true;
}

/* A rail (or a node's rail override) selects by pf or by representors, one
 * of them: two selections would leave which one wins to the reader. */
static void check_one_selection(struct parser *p, const yaml_node_t *map, const char *where,
				const yaml_node_t *pf, const yaml_node_t *reps)
{
	if (pf && reps)
		error_node(&p->doc, pf, "both 'pf' and 'representors' %s: a rail selects its representors one way", where);
	else if (!pf && !reps)
		error_node(&p->doc, map, "missing key 'representors' or 'pf' %s", where);
}

enum rail_key { RAIL_NAME, RAIL_SUBNET, RAIL_GATEWAY, RAIL_REPRESENTORS,
		RAIL_PF, RAIL_VLAN, RAIL_MTU, RAIL_NKEYS };
static const struct key_spec rail_keys[RAIL_NKEYS] = {
	[RAIL_NAME]         = { "name", true },
	[RAIL_SUBNET]       = { "subnet", true },
	[RAIL_GATEWAY]      = { "gateway", true },
	[RAIL_REPRESENTORS] = { "representors", false },  /* or pf: check_one_selection */
	[RAIL_PF]           = { "pf", false },
	[RAIL_VLAN]         = { "vlan", false },
	[RAIL_MTU]          = { "mtu", false },
};

static void parse_rail(struct parser *p, const yaml_node_t *map,
		       struct rg_config_rail *rail, struct rail_source *src)
{
	const yaml_node_t *v[RAIL_NKEYS];
	const char *s;

	rail->vlan = -1;
	if (!expect_type(&p->doc, map, YAML_MAPPING_NODE, "each entry of 'rails'"))
		return;
	src->map = map;
	rail->pos = node_pos(map);
	collect_keys(&p->doc, map, "in rail", rail_keys, RAIL_NKEYS, v);

	if (v[RAIL_NAME] && (s = expect_string(&p->doc, v[RAIL_NAME], "'name'")) &&
	    check_rail_name(p, v[RAIL_NAME], s)) {
		strcpy(rail->name, s);
		src->name = v[RAIL_NAME];
	}
	if (v[RAIL_SUBNET] && parse_cidr_node(p, v[RAIL_SUBNET], "'subnet'", &rail->subnet)) {
		if (rail->subnet.len > RAIL_MAX_PREFIX)
			error_node(&p->doc, v[RAIL_SUBNET], "rail subnet %s is too small (prefix length at most /%d: network, gateway, a pod, broadcast)",
				   rg_cidr_text(rail->subnet).s, RAIL_MAX_PREFIX);
		else
			src->subnet = v[RAIL_SUBNET];
	}
	if (v[RAIL_GATEWAY] && parse_ipv4_node(p, v[RAIL_GATEWAY], "'gateway'", &rail->gateway))
		src->gateway = v[RAIL_GATEWAY];
	check_one_selection(p, map, "in rail", v[RAIL_PF], v[RAIL_REPRESENTORS]);
	if (v[RAIL_REPRESENTORS] && expect_list(&p->doc, v[RAIL_REPRESENTORS], "representors", true) &&
	    representors_within_cap(p, v[RAIL_REPRESENTORS]))
		parse_representors(p, v[RAIL_REPRESENTORS], &rail->representors,
				   &rail->n_representors, &src->representors);
	if (v[RAIL_PF] && parse_pf_node(p, v[RAIL_PF], rail->pf))
		src->pf = v[RAIL_PF];
	if (v[RAIL_VLAN])
		parse_int_node(&p->doc, v[RAIL_VLAN], "vlan", VLAN_MIN, VLAN_MAX, &rail->vlan);
	if (v[RAIL_MTU])
		parse_int_node(&p->doc, v[RAIL_MTU], "mtu", MTU_MIN, MTU_MAX, &rail->mtu);
}

static void parse_rails(struct parser *p, const yaml_node_t *list)
{
	size_t i, n;

	if (!expect_list(&p->doc, list, "rails", true))
		return;
	if (!list_within_cap(&p->doc, list, "rails", RG_MAX_RAILS))
		return;
	n = list_length(list);
	p->cfg->rails = doc_calloc(&p->doc, n, sizeof(*p->cfg->rails));
	p->rails = doc_calloc(&p->doc, n, sizeof(*p->rails));
	if (!p->cfg->rails || !p->rails)
		return;
	p->cfg->n_rails = n;
	for (i = 0; i < n; i++)
		parse_rail(p, list_item(&p->doc, list, i), &p->cfg->rails[i], &p->rails[i]);
}

enum datapath_key { DP_MODE, DP_TC_ATTACH, DP_ANTI_SPOOF, DP_NKEYS };
static const struct key_spec datapath_keys[DP_NKEYS] = {
	[DP_MODE]       = { "mode", false },
	[DP_TC_ATTACH]  = { "tcAttach", false },
	[DP_ANTI_SPOOF] = { "antiSpoof", false },
};

static void parse_tc_attach(struct parser *p, const yaml_node_t *n)
{
	const char *s = expect_string(&p->doc, n, "'tcAttach'");

	if (s && rg_config_tc_attach_parse(s, &p->cfg->tc_attach))
		error_node(&p->doc, n, "unknown datapath tcAttach '%s' (expected one of: auto, tcx, clsact)", s);
}

static void parse_mode(struct parser *p, const yaml_node_t *n)
{
	const char *s = expect_string(&p->doc, n, "'mode'");

	if (s && rg_config_mode_parse(s, &p->cfg->mode))
		error_node(&p->doc, n, "unknown datapath mode '%s' (expected one of: auto, xdp, xdp-generic, tc)", s);
}

static void parse_datapath(struct parser *p, const yaml_node_t *map)
{
	const yaml_node_t *v[DP_NKEYS];

	if (!expect_type(&p->doc, map, YAML_MAPPING_NODE, "'datapath'"))
		return;
	collect_keys(&p->doc, map, "in datapath", datapath_keys, DP_NKEYS, v);
	if (v[DP_MODE])
		parse_mode(p, v[DP_MODE]);
	if (v[DP_TC_ATTACH])
		parse_tc_attach(p, v[DP_TC_ATTACH]);
	if (v[DP_ANTI_SPOOF])
		parse_bool_node(&p->doc, v[DP_ANTI_SPOOF], "antiSpoof", &p->cfg->anti_spoof);
}

enum node_key { NODE_NAME, NODE_UPLINK, NODE_GATEWAY, NODE_GATEWAY_MAC, NODE_RAILS,
		NODE_NKEYS };
static const struct key_spec node_keys[NODE_NKEYS] = {
	[NODE_NAME]        = { "name", true },
	[NODE_UPLINK]      = { "uplink", false },
	[NODE_GATEWAY]     = { "gateway", false },
	[NODE_GATEWAY_MAC] = { "gatewayMAC", false },
	[NODE_RAILS]       = { "rails", false },
};

enum node_rail_key { NR_NAME, NR_PF, NR_REPRESENTORS, NR_NKEYS };
static const struct key_spec node_rail_keys[NR_NKEYS] = {
	[NR_NAME]         = { "name", true },
	[NR_PF]           = { "pf", false },
	[NR_REPRESENTORS] = { "representors", false },
};

/* One entry of spec.nodes[].rails; the rail name is checked against
 * spec.rails later (check_nodes), when every rail has parsed. */
static void parse_node_rail(struct parser *p, const yaml_node_t *map,
			    struct rg_config_node_rail *nr, const yaml_node_t **name_node)
{
	const yaml_node_t *v[NR_NKEYS];

	if (!expect_type(&p->doc, map, YAML_MAPPING_NODE, "each entry of a node's 'rails'"))
		return;
	collect_keys(&p->doc, map, "in a node's rail", node_rail_keys, NR_NKEYS, v);
	check_one_selection(p, map, "in a node's rail", v[NR_PF], v[NR_REPRESENTORS]);
	if (v[NR_NAME] && expect_string(&p->doc, v[NR_NAME], "'name'"))
		*name_node = v[NR_NAME];
	if (v[NR_REPRESENTORS] && expect_list(&p->doc, v[NR_REPRESENTORS], "representors", true))
		parse_representors(p, v[NR_REPRESENTORS], &nr->representors,
				   &nr->n_representors, NULL);
	if (v[NR_PF])
		parse_pf_node(p, v[NR_PF], nr->pf);
}

static void parse_node_rails(struct parser *p, const yaml_node_t *list,
			     struct rg_config_node *node, struct node_source *src)
{
	size_t i, n;

	/* each override is checked against every earlier one: bounded */
	if (!expect_list(&p->doc, list, "rails", false) ||
	    !list_within_cap(&p->doc, list, "rails on a node", RG_MAX_RAILS))
		return;
	n = list_length(list);
	node->rails = doc_calloc(&p->doc, n, sizeof(*node->rails));
	src->rail_names = doc_calloc(&p->doc, n, sizeof(*src->rail_names));
	if (!node->rails || !src->rail_names)
		return;
	node->n_rails = n;
	for (i = 0; i < n; i++)
		parse_node_rail(p, list_item(&p->doc, list, i), &node->rails[i], &src->rail_names[i]);
}

static void parse_node(struct parser *p, const yaml_node_t *map,
		       struct rg_config_node *node, struct node_source *src)
{
	const yaml_node_t *v[NODE_NKEYS];
	const char *s;
	bool discover;

	if (!expect_type(&p->doc, map, YAML_MAPPING_NODE, "each entry of 'nodes'"))
		return;
	collect_keys(&p->doc, map, "in node", node_keys, NODE_NKEYS, v);

	if (v[NODE_NAME] && (s = expect_string(&p->doc, v[NODE_NAME], "'name'")) &&
	    check_node_name(p, v[NODE_NAME], s)) {
		strcpy(node->name, s);
		src->name = v[NODE_NAME];
	}
	/* "auto" is kept as the word: rg_config_apply_node turns it into
	 * uplink discovery, "" means "not overridden". */
	if (v[NODE_UPLINK] && parse_uplink_node(p, v[NODE_UPLINK], node->uplink, &discover)) {
		if (discover)
			strcpy(node->uplink, "auto");
		else
			src->uplink = v[NODE_UPLINK];
	}
	if (v[NODE_GATEWAY] && parse_ipv4_node(p, v[NODE_GATEWAY], "'gateway'", &node->gateway)) {
		node->has_gateway = true;
		src->gateway = v[NODE_GATEWAY];
	}
	if (v[NODE_GATEWAY_MAC])
		node->has_gateway_mac = parse_gateway_mac_node(p, v[NODE_GATEWAY_MAC],
							       "'gatewayMAC'", node->gateway_mac);
	if (v[NODE_RAILS])
		parse_node_rails(p, v[NODE_RAILS], node, src);
}

static void parse_nodes(struct parser *p, const yaml_node_t *list)
{
	size_t i, n;

	if (!expect_list(&p->doc, list, "nodes", false) ||
	    !list_within_cap(&p->doc, list, "nodes", RG_CONFIG_MAX_NODES))
		return;
	n = list_length(list);
	p->cfg->nodes = doc_calloc(&p->doc, n, sizeof(*p->cfg->nodes));
	p->nodes = doc_calloc(&p->doc, n, sizeof(*p->nodes));
	if (!p->cfg->nodes || !p->nodes)
		return;
	p->cfg->n_nodes = n;
	for (i = 0; i < n; i++)
		parse_node(p, list_item(&p->doc, list, i), &p->cfg->nodes[i], &p->nodes[i]);
}

enum probe_key { PROBE_TARGETS, PROBE_PORT, PROBE_NKEYS };
static const struct key_spec probe_keys[PROBE_NKEYS] = {
	[PROBE_TARGETS] = { "targets", false },
	[PROBE_PORT]    = { "port", false },
};

static void parse_probe(struct parser *p, const yaml_node_t *map)
{
	const yaml_node_t *v[PROBE_NKEYS], *list;
	struct rg_config *c = p->cfg;
	size_t i, n;
	char label[64];

	if (!expect_type(&p->doc, map, YAML_MAPPING_NODE, "'probe'"))
		return;
	collect_keys(&p->doc, map, "in probe", probe_keys, PROBE_NKEYS, v);
	if (v[PROBE_PORT])
		parse_int_node(&p->doc, v[PROBE_PORT], "port", 1, 65535, &c->probe_port);
	list = v[PROBE_TARGETS];
	if (!list || !expect_list(&p->doc, list, "targets", false))
		return;
	n = list_length(list);
	if (n > PROBE_TARGETS_MAX) {
		error_node(&p->doc, list, "too many probe targets (%zu, at most %d)", n, PROBE_TARGETS_MAX);
		return;
	}
	entry_label(label, sizeof(label), "targets");
	c->probe_targets = doc_calloc(&p->doc, n, sizeof(*c->probe_targets));
	p->probe_nodes = doc_calloc(&p->doc, n, sizeof(*p->probe_nodes));
	if (!c->probe_targets || !p->probe_nodes)
		return;
	for (i = 0; i < n; i++) {
		const yaml_node_t *item = list_item(&p->doc, list, i);

		if (parse_ipv4_node(p, item, label, &c->probe_targets[c->n_probe_targets]))
			p->probe_nodes[c->n_probe_targets++] = item;
	}
}

enum spec_key { SPEC_SUPERNETS, SPEC_COMPUTENET, SPEC_RAILS, SPEC_DATAPATH,
		SPEC_NODES, SPEC_PROBE, SPEC_NKEYS };
static const struct key_spec spec_keys[SPEC_NKEYS] = {
	[SPEC_SUPERNETS]  = { "supernets", true },
	[SPEC_COMPUTENET] = { "computenet", true },
	[SPEC_RAILS]      = { "rails", true },
	[SPEC_DATAPATH]   = { "datapath", false },
	[SPEC_NODES]      = { "nodes", false },
	[SPEC_PROBE]      = { "probe", false },
};

static void parse_spec(struct parser *p, const yaml_node_t *map)
{
	const yaml_node_t *v[SPEC_NKEYS];
	struct rg_config *c = p->cfg;

	if (!expect_type(&p->doc, map, YAML_MAPPING_NODE, "'spec'"))
		return;
	collect_keys(&p->doc, map, "in spec", spec_keys, SPEC_NKEYS, v);

	if (v[SPEC_SUPERNETS] && expect_list(&p->doc, v[SPEC_SUPERNETS], "supernets", true) &&
	    list_within_cap(&p->doc, v[SPEC_SUPERNETS], "supernets", RG_CONFIG_MAX_SUPERNETS))
		p->supernets_complete =
			parse_cidr_list(p, v[SPEC_SUPERNETS], "supernets", &c->supernets,
					&c->n_supernets, &p->supernet_nodes);
	if (v[SPEC_COMPUTENET])
		parse_computenet(p, v[SPEC_COMPUTENET]);
	if (v[SPEC_RAILS])
		parse_rails(p, v[SPEC_RAILS]);
	if (v[SPEC_DATAPATH])
		parse_datapath(p, v[SPEC_DATAPATH]);
	if (v[SPEC_NODES])
		parse_nodes(p, v[SPEC_NODES]);
	if (v[SPEC_PROBE])
		parse_probe(p, v[SPEC_PROBE]);
}

enum root_key { ROOT_API_VERSION, ROOT_KIND, ROOT_METADATA, ROOT_SPEC, ROOT_NKEYS };
static const struct key_spec root_keys[ROOT_NKEYS] = {
	[ROOT_API_VERSION] = { "apiVersion", true },
	[ROOT_KIND]        = { "kind", true },
	[ROOT_METADATA]    = { "metadata", true },
	[ROOT_SPEC]        = { "spec", true },
};

static void expect_exact(struct parser *p, const yaml_node_t *n, const char *key,
			 const char *want)
{
	char label[64];
	const char *s;

	quote_key(label, sizeof(label), key);
	s = expect_string(&p->doc, n, label);
	if (s && strcmp(s, want))
		error_node(&p->doc, n, "%s must be %s, got '%s'", key, want, s);
}

void parse_root(struct parser *p, const yaml_node_t *root)
{
	const yaml_node_t *v[ROOT_NKEYS];

	if (!expect_type(&p->doc, root, YAML_MAPPING_NODE, "the config"))
		return;
	collect_keys(&p->doc, root, "at the top level", root_keys, ROOT_NKEYS, v);
	if (v[ROOT_API_VERSION])
		expect_exact(p, v[ROOT_API_VERSION], "apiVersion", RG_CONFIG_API_VERSION);
	if (v[ROOT_KIND])
		expect_exact(p, v[ROOT_KIND], "kind", RG_CONFIG_KIND);
	if (v[ROOT_METADATA])
		parse_metadata(p, v[ROOT_METADATA]);
	if (v[ROOT_SPEC])
		parse_spec(p, v[ROOT_SPEC]);
}
