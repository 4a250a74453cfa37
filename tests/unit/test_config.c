// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * loader/config/: the config users write.  A table of broken configs with
 * the exact "FILE:LINE:COL: message" lines each must produce (the message
 * IS the user interface of a validator), the docs/config.md example parsed
 * field by field, defaults and per-node overrides.  The address parsers'
 * edge cases are in test_addr.c.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <openssl/evp.h>

#include "loader/config/config.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_ERRORS 4

/*
 * Building blocks for inline configs.  Line numbers matter in the expected
 * messages, so each block says which lines it occupies when used in order.
 */
#define HEADER                               /* lines 1-5 */ \
	"apiVersion: railgate.dev/v1alpha1\n"                \
	"kind: RailConfig\n"                                 \
	"metadata:\n"                                        \
	"  name: t\n"                                        \
	"spec:\n"
#define SUPERNETS "  supernets: [10.0.0.0/16]\n"         /* line 6 */
#define COMPUTENET                           /* lines 7-9 */ \
	"  computenet:\n"                                    \
	"    uplink: eth1\n"                                 \
	"    gateway: 10.1.255.1\n"
#define RAILS "  rails:\n"                               /* line 10 */
#define RAIL0                                /* lines 11-14 */ \
	"    - name: rail0\n"                                \
	"      subnet: 10.0.0.0/24\n"                        \
	"      gateway: 10.0.0.1\n"                          \
	"      representors: [pf0vf*]\n"
#define RAIL1                                /* lines 15-18 */ \
	"    - name: rail1\n"                                \
	"      subnet: 10.0.1.0/24\n"                        \
	"      gateway: 10.0.1.1\n"                          \
	"      representors: [pf1vf*]\n"
/* A valid config of 18 lines; cases append at line 19. */
#define GOOD HEADER SUPERNETS COMPUTENET RAILS RAIL0 RAIL1
/* Everything before the rails (lines 1-10): cases write their own rails. */
#define BEFORE_RAILS HEADER SUPERNETS COMPUTENET RAILS

/* A valid config whose rail0 has one more line (line 15). */
#define GOOD_RAIL_WITH(option) BEFORE_RAILS RAIL0 "      " option "\n"

struct bad_case {
	const char *name;
	const char *yaml;
	const char *errors[MAX_ERRORS];  /* exact, in order; NULL-terminated */
};

static const struct bad_case bad_cases[] = {
	/* ---- the file as a whole ---- */
	{ "empty file", "",
	  { "t.yaml:1:1: the config is empty (expected a RailConfig object)" } },
	{ "only comments", "# nothing here\n\n",
	  { "t.yaml:1:1: the config is empty (expected a RailConfig object)" } },
	{ "YAML syntax error: mapping value in a plain scalar",
	  "apiVersion: a: b\n",
	  { "t.yaml:1:14: YAML syntax error: mapping values are not allowed in this context" } },
	{ "YAML syntax error: unclosed flow list",
	  HEADER "  supernets: [10.0.0.0/16\n" COMPUTENET,
	  { "t.yaml:7:13: YAML syntax error: did not find expected ',' or ']' (while parsing a flow sequence at line 6, column 14)" } },
	{ "YAML syntax error: tab indentation",
	  HEADER "\tsupernets: [10.0.0.0/16]\n",
	  { "t.yaml:6:1: YAML syntax error: found character that cannot start any token (while scanning for the next token at line 6, column 1)" } },
	{ "invalid UTF-8", "apiVersion: x\nb: \xff\n",
	  { "t.yaml:2:4: YAML syntax error: invalid leading UTF-8 octet (byte 17)" } },
	{ "a list as a mapping key", GOOD "  ? [a, b]\n  : c\n",
	  { "t.yaml:19:5: keys in spec must be strings, got a list" } },
	{ "two documents", GOOD "---\nkind: RailConfig\n",
	  { "t.yaml:20:1: only one YAML document is allowed in a config" } },
	{ "root is a list", "- apiVersion: railgate.dev/v1alpha1\n",
	  { "t.yaml:1:1: the config must be a mapping, got a list" } },

	/* ---- top level and metadata ---- */
	{ "wrong apiVersion",
	  "apiVersion: v1\nkind: RailConfig\nmetadata: {name: t}\nspec: {supernets: [10.0.0.0/16], computenet: {uplink: eth1, gateway: 10.1.255.1}, rails: [{name: r, subnet: 10.0.0.0/24, gateway: 10.0.0.1, representors: [a]}]}\n",
	  { "t.yaml:1:13: apiVersion must be railgate.dev/v1alpha1, got 'v1'" } },
	{ "wrong kind",
	  "apiVersion: railgate.dev/v1alpha1\nkind: ConfigMap\nmetadata: {name: t}\nspec: {supernets: [10.0.0.0/16], computenet: {uplink: eth1, gateway: 10.1.255.1}, rails: [{name: r, subnet: 10.0.0.0/24, gateway: 10.0.0.1, representors: [a]}]}\n",
	  { "t.yaml:2:7: kind must be RailConfig, got 'ConfigMap'" } },
	{ "missing spec", "apiVersion: railgate.dev/v1alpha1\nkind: RailConfig\nmetadata:\n  name: t\n",
	  { "t.yaml:1:1: missing required key 'spec' at the top level" } },
	{ "unknown top-level key", GOOD "status: {}\n",
	  { "t.yaml:19:1: unknown key 'status' at the top level (expected one of: apiVersion, kind, metadata, spec)" } },
	{ "metadata without name",
	  "apiVersion: railgate.dev/v1alpha1\nkind: RailConfig\nmetadata:\n  labels: {a: b}\nspec:\n" SUPERNETS COMPUTENET RAILS RAIL0,
	  { "t.yaml:4:3: missing required key 'name' in metadata" } },
	{ "metadata.name is a list",
	  "apiVersion: railgate.dev/v1alpha1\nkind: RailConfig\nmetadata:\n  name: [a, b]\nspec:\n" SUPERNETS COMPUTENET RAILS RAIL0,
	  { "t.yaml:4:9: 'name' must be a string, got a list" } },

	/* ---- spec structure ---- */
	{ "unknown key in spec (typo)", HEADER SUPERNETS COMPUTENET "  rail:\n" RAIL0,
	  { "t.yaml:6:3: missing required key 'rails' in spec",
	    "t.yaml:10:3: unknown key 'rail' in spec (expected one of: supernets, computenet, rails, datapath, nodes, probe)" } },
	{ "unknown key in rail (typo): reported with the key it lacks",
	  BEFORE_RAILS "    - name: rail0\n      subnet: 10.0.0.0/24\n      gateway: 10.0.0.1\n      represntors: [pf0vf*]\n",
	  { "t.yaml:11:7: missing key 'representors' or 'pf' in rail",
	    "t.yaml:14:7: unknown key 'represntors' in rail (expected one of: name, subnet, gateway, representors, pf, vlan, mtu)" } },
	{ "unknown key in computenet",
	  HEADER SUPERNETS COMPUTENET "    gatewayMac: 0c:42:a1:00:00:01\n" RAILS RAIL0,
	  { "t.yaml:10:5: unknown key 'gatewayMac' in computenet (expected one of: uplink, gateway, gatewayMAC, frontend, icmpSource, icmpRate, icmpBurst)" } },
	{ "unknown key in datapath", GOOD "  datapath:\n    antispoof: false\n",
	  { "t.yaml:20:5: unknown key 'antispoof' in datapath (expected one of: mode, tcAttach, antiSpoof)" } },
	{ "duplicate key in a rail",
	  BEFORE_RAILS "    - name: rail0\n      subnet: 10.0.0.0/24\n      subnet: 10.0.2.0/24\n      gateway: 10.0.0.1\n      representors: [pf0vf*]\n",
	  { "t.yaml:13:7: duplicate key 'subnet' in rail (first at line 12)" } },
	{ "rail without gateway",
	  BEFORE_RAILS "    - name: rail0\n      subnet: 10.0.0.0/24\n      representors: [pf0vf*]\n",
	  { "t.yaml:11:7: missing required key 'gateway' in rail" } },
	{ "computenet is a string", HEADER SUPERNETS "  computenet: eth1\n" RAILS RAIL0,
	  { "t.yaml:7:15: 'computenet' must be a mapping, got 'eth1'" } },
	{ "uplink is a list where a string is expected",
	  HEADER SUPERNETS "  computenet:\n    uplink: [eth1, eth2]\n    gateway: 10.1.255.1\n" RAILS RAIL0,
	  { "t.yaml:8:13: 'uplink' must be a string, got a list" } },
	{ "uplink left empty",
	  HEADER SUPERNETS "  computenet:\n    uplink:\n    gateway: 10.1.255.1\n" RAILS RAIL0,
	  { "t.yaml:8:12: 'uplink' must be a string, got an empty value" } },
	{ "uplink longer than IFNAMSIZ",
	  HEADER SUPERNETS "  computenet:\n    uplink: enp65s0f0np0-uplink\n    gateway: 10.1.255.1\n" RAILS RAIL0,
	  { "t.yaml:8:13: interface name 'enp65s0f0np0-uplink' is too long (19 characters, at most 15)" } },

	/* ---- lists ---- */
	{ "empty supernets", HEADER "  supernets: []\n" COMPUTENET RAILS RAIL0,
	  { "t.yaml:6:14: 'supernets' must not be empty" } },
	{ "supernets is a string, not a list", HEADER "  supernets: 10.0.0.0/16\n" COMPUTENET RAILS RAIL0,
	  { "t.yaml:6:14: 'supernets' must be a list, got '10.0.0.0/16'" } },
	{ "supernet entry is a mapping", HEADER "  supernets: [{cidr: 10.0.0.0/16}]\n" COMPUTENET RAILS RAIL0,
	  { "t.yaml:6:15: each entry of 'supernets' must be a string, got a mapping" } },
	{ "empty rails", HEADER SUPERNETS COMPUTENET "  rails: []\n",
	  { "t.yaml:10:10: 'rails' must not be empty" } },
	{ "empty representors",
	  BEFORE_RAILS "    - name: rail0\n      subnet: 10.0.0.0/24\n      gateway: 10.0.0.1\n      representors: []\n",
	  { "t.yaml:14:21: 'representors' must not be empty" } },

	/* ---- addresses ---- */
	{ "CIDR short form", HEADER "  supernets: [10.0/16]\n" COMPUTENET RAILS RAIL0,
	  { "t.yaml:6:15: invalid CIDR '10.0/16' (expected A.B.C.D/LEN, such as 10.0.0.0/16)" } },
	{ "CIDR without a length", HEADER "  supernets: [10.0.0.0]\n" COMPUTENET RAILS RAIL0,
	  { "t.yaml:6:15: invalid CIDR '10.0.0.0' (expected A.B.C.D/LEN, such as 10.0.0.0/16)" } },
	{ "CIDR host bits set",
	  BEFORE_RAILS "    - name: rail0\n      subnet: 10.0.1.5/24\n      gateway: 10.0.1.1\n      representors: [pf0vf*]\n",
	  { "t.yaml:12:15: 10.0.1.5/24 has host bits set; did you mean 10.0.1.0/24?" } },
	{ "prefix length out of range", HEADER "  supernets: [10.0.0.0/33]\n" COMPUTENET RAILS RAIL0,
	  { "t.yaml:6:15: prefix length of 10.0.0.0/33 is out of range 0..32" } },
	{ "supernet wider than /8", HEADER "  supernets: [10.0.0.0/16, 64.0.0.0/4]\n" COMPUTENET RAILS RAIL0,
	  { "t.yaml:6:28: supernet 64.0.0.0/4 is too wide (prefix length at least /8)" } },
	{ "rail subnet too small for a gateway",
	  BEFORE_RAILS "    - name: rail0\n      subnet: 10.0.0.0/31\n      gateway: 10.0.0.1\n      representors: [pf0vf*]\n",
	  { "t.yaml:12:15: rail subnet 10.0.0.0/31 is too small (prefix length at most /30: network, gateway, a pod, broadcast)" } },
	{ "IPv4 octet out of range",
	  BEFORE_RAILS "    - name: rail0\n      subnet: 10.0.0.0/24\n      gateway: 10.0.0.256\n      representors: [pf0vf*]\n",
	  { "t.yaml:13:16: invalid IPv4 address '10.0.0.256' (expected A.B.C.D)" } },
	{ "IPv4 short form",
	  HEADER SUPERNETS "  computenet:\n    uplink: eth1\n    gateway: 10.1.255\n" RAILS RAIL0,
	  { "t.yaml:9:14: invalid IPv4 address '10.1.255' (expected A.B.C.D)" } },
	{ "MAC syntax",
	  HEADER SUPERNETS COMPUTENET "    gatewayMAC: 0c:42:a1:00:00\n" RAILS RAIL0,
	  { "t.yaml:10:17: invalid MAC address '0c:42:a1:00:00' (expected six hex pairs such as 0c:42:a1:00:00:01)" } },
	{ "MAC multicast",
	  HEADER SUPERNETS COMPUTENET "    gatewayMAC: 01:00:5e:00:00:01\n" RAILS RAIL0,
	  { "t.yaml:10:17: gatewayMAC 01:00:5e:00:00:01 is a multicast address; the gateway needs a unicast MAC" } },

	{ "icmpSource multicast",
	  HEADER SUPERNETS COMPUTENET "    icmpSource: 224.0.0.1\n" RAILS RAIL0,
	  { "t.yaml:10:17: icmpSource must be a unicast address the node owns, got '224.0.0.1'" } },
	{ "icmpSource zero",
	  HEADER SUPERNETS COMPUTENET "    icmpSource: 0.0.0.0\n" RAILS RAIL0,
	  { "t.yaml:10:17: icmpSource must be a unicast address the node owns, got '0.0.0.0'" } },
	{ "icmpSource not an address",
	  HEADER SUPERNETS COMPUTENET "    icmpSource: uplink\n" RAILS RAIL0,
	  { "t.yaml:10:17: invalid IPv4 address 'uplink' (expected A.B.C.D)" } },
	{ "icmpRate out of range",
	  HEADER SUPERNETS COMPUTENET "    icmpRate: 1000001\n" RAILS RAIL0,
	  { "t.yaml:10:15: icmpRate 1000001 is out of range 0..1000000" } },
	{ "icmpBurst zero",
	  HEADER SUPERNETS COMPUTENET "    icmpBurst: 0\n" RAILS RAIL0,
	  { "t.yaml:10:16: icmpBurst 0 is out of range 1..1000000" } },

	/* ---- relations between prefixes ---- */
	{ "rail outside every supernet",
	  BEFORE_RAILS RAIL0 "    - name: rail1\n      subnet: 10.2.1.0/24\n      gateway: 10.2.1.1\n      representors: [pf1vf*]\n",
	  { "t.yaml:16:15: rail rail1 subnet 10.2.1.0/24 is not inside any supernet (10.0.0.0/16)" } },
	{ "rails overlap",
	  BEFORE_RAILS RAIL0 "    - name: rail1\n      subnet: 10.0.0.0/23\n      gateway: 10.0.1.1\n      representors: [pf1vf*]\n",
	  { "t.yaml:16:15: rail rail1 subnet 10.0.0.0/23 overlaps rail rail0 subnet 10.0.0.0/24" } },
	/* found by fuzz_config: valid by validation, then the plan's two routes
	 * for one prefix (the supernet's black hole and the rail) failed the
	 * FIB compile with "route 10.0.0.0/16: duplicate prefix" */
	{ "rail subnet is the whole supernet",
	  BEFORE_RAILS "    - name: rail0\n      subnet: 10.0.0.0/16\n      gateway: 10.0.0.1\n      representors: [pf0vf*]\n",
	  { "t.yaml:12:15: rail rail0 subnet 10.0.0.0/16 is the whole supernet 10.0.0.0/16; a rail must be smaller than its supernet" } },
	{ "supernets overlap", HEADER "  supernets: [10.0.0.0/16, 10.0.128.0/17]\n" COMPUTENET RAILS RAIL0,
	  { "t.yaml:6:28: supernet 10.0.128.0/17 overlaps supernet 10.0.0.0/16 (line 6)" } },
	{ "frontend overlaps a supernet",
	  HEADER SUPERNETS COMPUTENET "    frontend: [10.0.0.0/8]\n" RAILS RAIL0,
	  { "t.yaml:10:16: frontend prefix 10.0.0.0/8 overlaps supernet 10.0.0.0/16" } },
	{ "frontend prefixes overlap",
	  HEADER SUPERNETS COMPUTENET "    frontend:\n      - 192.168.0.0/16\n      - 192.168.7.0/24\n" RAILS RAIL0,
	  { "t.yaml:12:9: frontend prefix 192.168.7.0/24 overlaps frontend prefix 192.168.0.0/16 (line 11)" } },
	{ "rail gateway outside its subnet",
	  BEFORE_RAILS "    - name: rail0\n      subnet: 10.0.0.0/24\n      gateway: 10.0.1.1\n      representors: [pf0vf*]\n",
	  { "t.yaml:13:16: rail rail0 gateway 10.0.1.1 is outside its subnet 10.0.0.0/24" } },
	{ "rail gateway is the network address",
	  BEFORE_RAILS "    - name: rail0\n      subnet: 10.0.0.0/24\n      gateway: 10.0.0.0\n      representors: [pf0vf*]\n",
	  { "t.yaml:13:16: rail rail0 gateway 10.0.0.0 is the network address of its subnet 10.0.0.0/24" } },
	{ "rail gateway is the broadcast address",
	  BEFORE_RAILS "    - name: rail0\n      subnet: 10.0.0.0/24\n      gateway: 10.0.0.255\n      representors: [pf0vf*]\n",
	  { "t.yaml:13:16: rail rail0 gateway 10.0.0.255 is the broadcast address of its subnet 10.0.0.0/24" } },
	{ "computenet gateway inside a supernet",
	  HEADER SUPERNETS "  computenet:\n    uplink: eth1\n    gateway: 10.0.255.1\n" RAILS RAIL0,
	  { "t.yaml:9:14: computenet gateway 10.0.255.1 is inside supernet 10.0.0.0/16; it must be outside every supernet" } },

	/* ---- finding 9: front-end prefixes that are no network behind a switch ---- */
	{ "frontend multicast",
	  HEADER SUPERNETS COMPUTENET "    frontend: [224.0.0.0/4]\n" RAILS RAIL0,
	  { "t.yaml:10:16: frontend prefix 224.0.0.0/4 overlaps 224.0.0.0/4 (multicast), never a front-end network" } },
	{ "frontend inside multicast",
	  HEADER SUPERNETS COMPUTENET "    frontend: [239.1.0.0/16]\n" RAILS RAIL0,
	  { "t.yaml:10:16: frontend prefix 239.1.0.0/16 overlaps 224.0.0.0/4 (multicast), never a front-end network" } },
	{ "frontend loopback",
	  HEADER SUPERNETS COMPUTENET "    frontend: [127.0.0.0/8]\n" RAILS RAIL0,
	  { "t.yaml:10:16: frontend prefix 127.0.0.0/8 overlaps 127.0.0.0/8 (loopback), never a front-end network" } },
	{ "frontend this-network",
	  HEADER SUPERNETS COMPUTENET "    frontend: [0.0.0.0/8]\n" RAILS RAIL0,
	  { "t.yaml:10:16: frontend prefix 0.0.0.0/8 overlaps 0.0.0.0/8 (this network), never a front-end network" } },
	{ "frontend link-local",
	  HEADER SUPERNETS COMPUTENET "    frontend: [169.254.169.0/24]\n" RAILS RAIL0,
	  { "t.yaml:10:16: frontend prefix 169.254.169.0/24 overlaps 169.254.0.0/16 (link-local), never a front-end network" } },
	{ "frontend broadcast",
	  HEADER SUPERNETS COMPUTENET "    frontend: [255.255.255.255/32]\n" RAILS RAIL0,
	  { "t.yaml:10:16: frontend prefix 255.255.255.255/32 overlaps 255.255.255.255/32 (broadcast), never a front-end network" } },
	{ "frontend wide enough to hold multicast",
	  HEADER SUPERNETS COMPUTENET "    frontend: [192.168.0.0/16, 160.0.0.0/3]\n" RAILS RAIL0,
	  { "t.yaml:10:32: frontend prefix 160.0.0.0/3 overlaps 169.254.0.0/16 (link-local), never a front-end network" } },

	/* ---- finding 9: YAML tags (vlan: !!str 100 was read as 100) ---- */
	{ "a tag on a number", GOOD_RAIL_WITH("vlan: !!str 100"),
	  { "t.yaml:15:13: YAML tags are not supported ('!!str'): write the value without one" } },
	{ "a tag that agrees with the value", GOOD_RAIL_WITH("mtu: !!int 9000"),
	  { "t.yaml:15:12: YAML tags are not supported ('!!int'): write the value without one" } },
	{ "a local tag", GOOD_RAIL_WITH("mtu: !mtu 9000"),
	  { "t.yaml:15:12: YAML tags are not supported ('!mtu'): write the value without one" } },
	{ "a tag on a mapping", GOOD "  datapath: !!map {mode: tc}\n",
	  { "t.yaml:19:13: YAML tags are not supported ('!!map'): write the value without one" } },
	{ "a tag on a list item", HEADER "  supernets: [!!str 10.0.0.0/16]\n" COMPUTENET RAILS RAIL0,
	  { "t.yaml:6:15: YAML tags are not supported ('!!str'): write the value without one" } },

	/* ---- rails ---- */
	{ "duplicate rail names",
	  BEFORE_RAILS RAIL0 "    - name: rail0\n      subnet: 10.0.1.0/24\n      gateway: 10.0.1.1\n      representors: [pf1vf*]\n",
	  { "t.yaml:15:13: duplicate rail name 'rail0' (first at line 11)" } },
	{ "duplicate representor across rails",
	  BEFORE_RAILS RAIL0 "    - name: rail1\n      subnet: 10.0.1.0/24\n      gateway: 10.0.1.1\n      representors: [pf1vf*, pf0vf*]\n",
	  { "t.yaml:18:30: duplicate representor 'pf0vf*' (first in rail rail0 at line 14)" } },
	{ "representor claimed by another rail's glob",
	  BEFORE_RAILS RAIL0 "    - name: rail1\n      subnet: 10.0.1.0/24\n      gateway: 10.0.1.1\n      representors: [pf0vf3]\n",
	  { "t.yaml:18:22: representor 'pf0vf3' of rail rail1 also matches 'pf0vf*' of rail rail0 (line 14)" } },
	/* each entry reports the first earlier one it clashes with, in file
	 * order, whichever way round the glob is, and within a rail only
	 * duplicates count */
	{ "a later rail's glob claims earlier names; a duplicate in one rail",
	  BEFORE_RAILS "    - name: rail0\n      subnet: 10.0.0.0/24\n      gateway: 10.0.0.1\n"
	  "      representors: [ens1, ens2, ens1, \"en*\"]\n"
	  "    - name: rail1\n      subnet: 10.0.1.0/24\n      gateway: 10.0.1.1\n"
	  "      representors: [\"ens?\", ens2]\n",
	  { "t.yaml:14:34: duplicate representor 'ens1' (first in rail rail0 at line 14)",
	    "t.yaml:18:22: representor 'ens?' of rail rail1 also matches 'ens1' of rail rail0 (line 14)",
	    "t.yaml:18:30: duplicate representor 'ens2' (first in rail rail0 at line 14)" } },
	/* finding 4: the uplink attached as a representor sends computenet
	 * traffic back out or drops it as spoofed */
	{ "the uplink as a representor",
	  BEFORE_RAILS "    - name: rail0\n      subnet: 10.0.0.0/24\n      gateway: 10.0.0.1\n      representors: [pf0vf0, eth1]\n",
	  { "t.yaml:14:30: representor 'eth1' of rail rail0 is the computenet uplink (line 8)" } },
	{ "a glob matching the uplink",
	  BEFORE_RAILS "    - name: rail0\n      subnet: 10.0.0.0/24\n      gateway: 10.0.0.1\n      representors: [\"eth*\"]\n",
	  { "t.yaml:14:22: representor 'eth*' of rail rail0 matches the computenet uplink 'eth1' (line 8)" } },
	{ "a node's uplink is a representor", GOOD "  nodes:\n    - name: gpu-1\n      uplink: pf1vf3\n",
	  { "t.yaml:21:15: uplink 'pf1vf3' of node gpu-1 matches representor 'pf1vf*' of rail rail1 (line 18)" } },
	{ "rail name too long",
	  BEFORE_RAILS "    - name: rail-with-a-name-longer-than-32c\n      subnet: 10.0.0.0/24\n      gateway: 10.0.0.1\n      representors: [pf0vf*]\n",
	  { "t.yaml:11:13: rail name 'rail-with-a-name-longer-than-32c' is too long (32 characters, at most 31)" } },
	{ "rail name not a Kubernetes name",
	  BEFORE_RAILS "    - name: Rail_0\n      subnet: 10.0.0.0/24\n      gateway: 10.0.0.1\n      representors: [pf0vf*]\n",
	  { "t.yaml:11:13: rail name 'Rail_0' is invalid: use lowercase letters, digits and '-', starting and ending with a letter or digit" } },
	{ "VLAN 0", GOOD_RAIL_WITH("vlan: 0"),
	  { "t.yaml:15:13: vlan 0 is out of range 1..4094" } },
	{ "VLAN 4095", GOOD_RAIL_WITH("vlan: 4095"),
	  { "t.yaml:15:13: vlan 4095 is out of range 1..4094" } },
	{ "VLAN not a number", GOOD_RAIL_WITH("vlan: 0x10"),
	  { "t.yaml:15:13: 'vlan' must be an integer, got '0x10'" } },
	{ "MTU below IPv4 minimum", GOOD_RAIL_WITH("mtu: 67"),
	  { "t.yaml:15:12: mtu 67 is out of range 68..65535" } },
	{ "MTU above 65535", GOOD_RAIL_WITH("mtu: 99999999999"),
	  { "t.yaml:15:12: mtu 99999999999 is out of range 68..65535" } },

	/* ---- datapath ---- */
	{ "unknown mode", GOOD "  datapath:\n    mode: native\n",
	  { "t.yaml:20:11: unknown datapath mode 'native' (expected one of: auto, xdp, xdp-generic, tc)" } },
	{ "unknown tcAttach", GOOD "  datapath:\n    tcAttach: tc\n",
	  { "t.yaml:20:15: unknown datapath tcAttach 'tc' (expected one of: auto, tcx, clsact)" } },
	{ "tcAttach not a string", GOOD "  datapath:\n    tcAttach: [tcx]\n",
	  { "t.yaml:20:15: 'tcAttach' must be a string, got a list" } },
	{ "antiSpoof yes (YAML 1.1 boolean)", GOOD "  datapath:\n    antiSpoof: yes\n",
	  { "t.yaml:20:16: 'antiSpoof' must be true or false, got 'yes'" } },
	{ "antiSpoof quoted", GOOD "  datapath:\n    antiSpoof: \"false\"\n",
	  { "t.yaml:20:16: 'antiSpoof' must be true or false, got 'false'" } },

	/* ---- nodes ---- */
	{ "duplicate node names", GOOD "  nodes:\n    - name: gpu-1\n    - name: gpu-1\n      uplink: eth2\n",
	  { "t.yaml:21:13: duplicate node name 'gpu-1' (first at line 20)" } },
	{ "node without a name", GOOD "  nodes:\n    - uplink: eth2\n",
	  { "t.yaml:20:7: missing required key 'name' in node" } },
	{ "unknown key in node", GOOD "  nodes:\n    - name: gpu-1\n      uplnk: eth2\n",
	  { "t.yaml:21:7: unknown key 'uplnk' in node (expected one of: name, uplink, gateway, gatewayMAC, rails)" } },

	/* ---- rails by PF, and a node's own selection ---- */
	{ "pf and representors in one rail", GOOD_RAIL_WITH("pf: ens1f0np0"),
	  { "t.yaml:15:11: both 'pf' and 'representors' in rail: a rail selects its representors one way" } },
	{ "pf neither a name nor a PCI address",
	  BEFORE_RAILS "    - name: rail0\n      subnet: 10.0.0.0/24\n      gateway: 10.0.0.1\n      pf: 0000:17:00.0/x\n",
	  { "t.yaml:14:11: pf '0000:17:00.0/x' is neither an interface name nor a PCI address like 0000:17:00.0" } },
	{ "pf too long for an interface name",
	  BEFORE_RAILS "    - name: rail0\n      subnet: 10.0.0.0/24\n      gateway: 10.0.0.1\n      pf: ens1f0np0ens1f0np0\n",
	  { "t.yaml:14:11: interface name 'ens1f0np0ens1f0np0' is too long (18 characters, at most 15)" } },
	{ "the same pf in two rails",
	  BEFORE_RAILS "    - name: rail0\n      subnet: 10.0.0.0/24\n      gateway: 10.0.0.1\n      pf: ens1f0np0\n"
	  "    - name: rail1\n      subnet: 10.0.1.0/24\n      gateway: 10.0.1.1\n      pf: ens1f0np0\n",
	  { "t.yaml:18:11: pf 'ens1f0np0' of rail rail1 is rail rail0's too (line 14)" } },
	{ "node overrides a rail that does not exist",
	  GOOD "  nodes:\n    - name: gpu-1\n      rails:\n        - name: rail7\n          pf: ens2f0np0\n",
	  { "t.yaml:22:17: node gpu-1 overrides rail 'rail7', which spec.rails does not have" } },
	{ "node overrides a rail twice",
	  GOOD "  nodes:\n    - name: gpu-1\n      rails:\n        - {name: rail0, pf: ens2f0np0}\n"
	  "        - {name: rail0, representors: [eth9]}\n",
	  { "t.yaml:23:18: rail 'rail0' overridden twice on node gpu-1 (first at line 22)" } },
	{ "node rail override without a selection",
	  GOOD "  nodes:\n    - name: gpu-1\n      rails:\n        - name: rail0\n",
	  { "t.yaml:22:11: missing key 'representors' or 'pf' in a node's rail" } },
	{ "node rail override with both",
	  GOOD "  nodes:\n    - name: gpu-1\n      rails:\n        - {name: rail0, pf: ens2f0np0, representors: [eth9]}\n",
	  { "t.yaml:22:29: both 'pf' and 'representors' in a node's rail: a rail selects its representors one way" } },
	{ "node gateway inside a supernet", GOOD "  nodes:\n    - name: gpu-1\n      gateway: 10.0.9.1\n",
	  { "t.yaml:21:16: computenet gateway 10.0.9.1 is inside supernet 10.0.0.0/16; it must be outside every supernet" } },
	{ "node name with capitals never matches", GOOD "  nodes:\n    - name: GPU-1\n",
	  { "t.yaml:20:13: node name 'GPU-1' is invalid: Kubernetes node names are lowercase letters, digits, '-' and '.'" } },

	/* ---- spec.probe ---- */
	{ "probe target is a rail's gateway", GOOD "  probe:\n    targets: [10.0.1.20, 10.0.1.1]\n",
	  { "t.yaml:20:26: probe target 10.0.1.1 is the gateway of rail rail1: the switch answers its own addresses even when it does not route between rails; name an address beyond it" } },
	{ "probe target in no rail", GOOD "  probe:\n    targets: [10.0.9.20]\n",
	  { "t.yaml:20:15: probe target 10.0.9.20 is in no rail and no front-end prefix" } },
	{ "probe target twice", GOOD "  probe:\n    targets:\n      - 10.0.0.20\n      - 10.0.0.20\n",
	  { "t.yaml:22:9: duplicate probe target 10.0.0.20 (first at line 21)" } },
	{ "probe target not an address", GOOD "  probe:\n    targets: [10.0.0.x]\n",
	  { "t.yaml:20:15: invalid IPv4 address '10.0.0.x' (expected A.B.C.D)" } },
	{ "probe port out of range", GOOD "  probe:\n    port: 0\n",
	  { "t.yaml:20:11: port 0 is out of range 1..65535" } },
	{ "probe with an unknown key", GOOD "  probe:\n    target: [10.0.0.20]\n",
	  { "t.yaml:20:5: unknown key 'target' in probe (expected one of: targets, port)" } },

	/* ---- several errors, all reported, in source order ---- */
	{ "three errors in one file",
	  HEADER SUPERNETS "  computenet:\n    uplink: eth1\n    gateway: 10.0.255.1\n" RAILS
	  "    - name: rail0\n      subnet: 10.0.1.5/24\n      gateway: 10.0.1.1\n      representors: [pf0vf*]\n"
	  "  datapath:\n    mode: fast\n",
	  { "t.yaml:9:14: computenet gateway 10.0.255.1 is inside supernet 10.0.0.0/16; it must be outside every supernet",
	    "t.yaml:12:15: 10.0.1.5/24 has host bits set; did you mean 10.0.1.0/24?",
	    "t.yaml:16:11: unknown datapath mode 'fast' (expected one of: auto, xdp, xdp-generic, tc)" } },
};

#define FILE_NAME "t.yaml"
#define IP(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

static void print_diags(const struct rg_diags *d)
{
	size_t i;

	for (i = 0; i < d->count; i++)
		print_message("# got: %s\n", d->msgs[i]);
}

static bool is_zeroed(const struct rg_config *cfg)
{
	static const struct rg_config zero;

	return !memcmp(cfg, &zero, sizeof(zero));
}

/* A broken config: exactly the expected lines, and nothing filled in. */
static void test_bad_config(void **state)
{
	const struct bad_case *bc = *state;
	struct rg_diags d = { 0 };
	struct rg_config cfg;
	size_t want = 0, i;
	int ret;

	memset(&cfg, 0xa5, sizeof(cfg));        /* must come back zeroed */
	ret = rg_config_parse(FILE_NAME, bc->yaml, strlen(bc->yaml), &cfg, &d);
	while (want < MAX_ERRORS && bc->errors[want])
		want++;
	if (d.count != want)
		print_diags(&d);
	assert_int_equal(ret, -1);
	assert_true(is_zeroed(&cfg));
	assert_int_equal(d.count, want);
	for (i = 0; i < want; i++)
		assert_string_equal(d.msgs[i], bc->errors[i]);
	rg_diags_free(&d);
}

static void parse_ok(const char *yaml, struct rg_config *cfg)
{
	struct rg_diags d = { 0 };
	int ret;

	ret = rg_config_parse(FILE_NAME, yaml, strlen(yaml), cfg, &d);
	print_diags(&d);
	assert_int_equal(d.count, 0);
	assert_int_equal(ret, 0);
	rg_diags_free(&d);
}

/* The example of docs/config.md, verbatim, comments included. */
static const char interface_md_example[] =
	"apiVersion: railgate.dev/v1alpha1\n"
	"kind: RailConfig\n"
	"metadata:\n"
	"  name: gpu-cluster\n"
	"spec:\n"
	"  supernets: [10.0.0.0/16]          # one or more CIDRs covering all rails\n"
	"  computenet:\n"
	"    uplink: eth1                    # interface toward the computenet switch\n"
	"    gateway: 10.1.255.1             # the switch's address there (outside the supernets); MAC from the neighbour table\n"
	"    # gatewayMAC: 0c:42:a1:00:00:01 # optional: skip resolution\n"
	"    frontend: [192.168.0.0/16]      # optional: front-end networks reached through the switch\n"
	"  rails:\n"
	"    - name: rail0\n"
	"      subnet: 10.0.0.0/24           # must lie inside a supernet; rails may not overlap\n"
	"      gateway: 10.0.0.1             # the switch's address on this rail: pods route the supernets via it\n"
	"      representors: [pf0vf0, pf0vf1] # netdevs to attach to; shell globs such as pf0vf* allowed\n"
	"      # vlan: 100                   # optional 802.1Q tag on frames sent to the uplink\n"
	"      # mtu: 9000                   # optional: checked against the interfaces\n"
	"    - name: rail1\n"
	"      subnet: 10.0.1.0/24\n"
	"      gateway: 10.0.1.1\n"
	"      representors: [pf1vf*]\n"
	"  datapath:\n"
	"    mode: auto                      # auto | xdp | xdp-generic | tc (auto: native XDP where the driver has it, else TC; never generic unasked)\n"
	"    antiSpoof: true\n";

static void test_interface_md_example(void **state)
{
	struct rg_config cfg;
	const struct rg_config_rail *r;

	parse_ok(interface_md_example, &cfg);

	assert_string_equal(cfg.path, FILE_NAME);
	assert_string_equal(cfg.name, "gpu-cluster");
	assert_int_equal(cfg.n_supernets, 1);
	assert_int_equal(cfg.supernets[0].addr, IP(10, 0, 0, 0));
	assert_int_equal(cfg.supernets[0].len, 16);

	assert_string_equal(cfg.computenet.uplink, "eth1");
	assert_false(cfg.computenet.uplink_discover);
	assert_int_equal(cfg.computenet.gateway, IP(10, 1, 255, 1));
	assert_false(cfg.computenet.has_gateway_mac);
	assert_int_equal(cfg.computenet.n_frontend, 1);
	assert_int_equal(cfg.computenet.frontend[0].addr, IP(192, 168, 0, 0));
	assert_int_equal(cfg.computenet.frontend[0].len, 16);

	assert_int_equal(cfg.n_rails, 2);
	r = &cfg.rails[0];
	assert_string_equal(r->name, "rail0");
	assert_int_equal(r->subnet.addr, IP(10, 0, 0, 0));
	assert_int_equal(r->subnet.len, 24);
	assert_int_equal(r->gateway, IP(10, 0, 0, 1));
	assert_int_equal(r->n_representors, 2);
	assert_string_equal(r->representors[0], "pf0vf0");
	assert_string_equal(r->representors[1], "pf0vf1");
	assert_int_equal(r->vlan, -1);
	assert_int_equal(r->mtu, 0);
	assert_int_equal(r->pos.line, 13);
	assert_int_equal(r->pos.col, 7);
	r = &cfg.rails[1];
	assert_string_equal(r->name, "rail1");
	assert_int_equal(r->subnet.addr, IP(10, 0, 1, 0));
	assert_int_equal(r->subnet.len, 24);
	assert_int_equal(r->gateway, IP(10, 0, 1, 1));
	assert_int_equal(r->n_representors, 1);
	assert_string_equal(r->representors[0], "pf1vf*");
	assert_int_equal(r->vlan, -1);
	assert_int_equal(r->mtu, 0);
	assert_int_equal(r->pos.line, 19);
	assert_int_equal(r->pos.col, 7);

	assert_int_equal(cfg.n_nodes, 0);
	assert_null(cfg.nodes);
	assert_int_equal(cfg.mode, RG_CONFIG_MODE_AUTO);
	assert_int_equal(cfg.tc_attach, RG_CONFIG_TC_ATTACH_AUTO);
	assert_true(cfg.anti_spoof);
	/* ICMP answers: from the uplink's address, at the kernel's default rate */
	assert_int_equal(cfg.computenet.icmp_source, 0);
	assert_int_equal(cfg.computenet.icmp_rate, 1000);
	assert_int_equal(cfg.computenet.icmp_burst, 50);

	rg_config_free(&cfg);
	assert_true(is_zeroed(&cfg));
}

/* computenet.icmpSource, icmpRate and icmpBurst as written. */
static void test_icmp_keys(void **state)
{
	static const char text[] = HEADER SUPERNETS COMPUTENET
		"    icmpSource: 10.1.0.7\n    icmpRate: 0\n    icmpBurst: 7\n" RAILS RAIL0;
	struct rg_config cfg;

	(void)state;
	parse_ok(text, &cfg);
	assert_int_equal(cfg.computenet.icmp_source, IP(10, 1, 0, 7));
	assert_int_equal(cfg.computenet.icmp_rate, 0);
	assert_int_equal(cfg.computenet.icmp_burst, 7);
	rg_config_free(&cfg);
}

/* tests/unit/configs/example.yaml, read from disk as the CLI does. */
static void test_example_file(void **state)
{
	char path[512], *slash;
	struct rg_diags d = { 0 };
	struct rg_config cfg;
	int ret;

	snprintf(path, sizeof(path), "%s", __FILE__);
	slash = strrchr(path, '/');
	snprintf(slash ? slash + 1 : path, sizeof(path) - (size_t)(slash ? slash + 1 - path : 0),
		 "configs/example.yaml");

	ret = rg_config_load(path, &cfg, &d);
	print_diags(&d);
	assert_int_equal(ret, 0);
	assert_int_equal(d.count, 0);
	assert_string_equal(cfg.path, path);
	assert_string_equal(cfg.name, "gpu-cluster");
	assert_int_equal(cfg.n_rails, 2);
	assert_string_equal(cfg.rails[0].representors[0], "pf0vf*");
	assert_string_equal(cfg.rails[1].representors[0], "pf1vf*");
	assert_int_equal(cfg.computenet.n_frontend, 1);
	rg_config_free(&cfg);
}

static void test_defaults(void **state)
{
	struct rg_config cfg;

	parse_ok(GOOD, &cfg);
	assert_int_equal(cfg.mode, RG_CONFIG_MODE_AUTO);
	assert_true(cfg.anti_spoof);
	assert_int_equal(cfg.rails[0].vlan, -1);
	assert_int_equal(cfg.rails[0].mtu, 0);
	assert_int_equal(cfg.rails[1].vlan, -1);
	assert_int_equal(cfg.rails[1].mtu, 0);
	assert_int_equal(cfg.computenet.n_frontend, 0);
	assert_false(cfg.computenet.has_gateway_mac);
	assert_false(cfg.computenet.uplink_discover);
	assert_int_equal(cfg.n_nodes, 0);
	assert_int_equal(cfg.n_probe_targets, 0);
	rg_config_free(&cfg);
}

/* spec.probe.targets: rail and front-end addresses, kept in order. */
static void test_probe_targets(void **state)
{
	struct rg_config cfg;

	parse_ok(HEADER SUPERNETS COMPUTENET "    frontend: [192.168.0.0/16]\n" RAILS RAIL0 RAIL1
		 "  probe:\n    targets: [10.0.1.11, 192.168.0.10, 10.0.0.11]\n    port: 7777\n", &cfg);
	assert_int_equal(cfg.n_probe_targets, 3);
	assert_int_equal(cfg.probe_port, 7777);
	assert_int_equal(cfg.probe_targets[0], IP(10, 0, 1, 11));
	assert_int_equal(cfg.probe_targets[1], IP(192, 168, 0, 10));
	assert_int_equal(cfg.probe_targets[2], IP(10, 0, 0, 11));
	rg_config_free(&cfg);
}

/* Every optional field set, in flow style and with quoting. */
static void test_all_options(void **state)
{
	static const uint8_t mac[6] = { 0x0c, 0x42, 0xa1, 0x00, 0x00, 0x01 };
	struct rg_config cfg;

	parse_ok("apiVersion: \"railgate.dev/v1alpha1\"\n"
		 "kind: RailConfig\n"
		 "metadata: {name: lab, namespace: kube-system, labels: {app: railgate}}\n"
		 "spec:\n"
		 "  supernets: [10.0.0.0/16, 10.8.0.0/16]\n"
		 "  computenet:\n"
		 "    uplink: auto\n"
		 "    gateway: 10.1.255.1\n"
		 "    gatewayMAC: 0C:42:a1:00:00:01\n"
		 "    frontend: [192.168.0.0/16, 172.16.0.0/12]\n"
		 "  rails:\n"
		 "    - {name: r0, subnet: 10.0.0.0/24, gateway: 10.0.0.254, representors: [pf0vf0, 'pf0vf[12]'], vlan: 100, mtu: 9000}\n"
		 "    - {name: r1-name-of-31-characters-xxxxxx, subnet: 10.8.0.0/17, gateway: 10.8.0.1, representors: [pf1vf0], vlan: 4094, mtu: 68}\n"
		 "  datapath:\n"
		 "    mode: xdp-generic\n"
		 "    antiSpoof: False\n", &cfg);

	assert_string_equal(cfg.name, "lab");
	assert_int_equal(cfg.n_supernets, 2);
	assert_int_equal(cfg.supernets[1].addr, IP(10, 8, 0, 0));
	assert_true(cfg.computenet.uplink_discover);
	assert_string_equal(cfg.computenet.uplink, "");
	assert_true(cfg.computenet.has_gateway_mac);
	assert_memory_equal(cfg.computenet.gateway_mac, mac, 6);
	assert_int_equal(cfg.computenet.n_frontend, 2);
	assert_int_equal(cfg.computenet.frontend[1].addr, IP(172, 16, 0, 0));
	assert_int_equal(cfg.computenet.frontend[1].len, 12);
	assert_int_equal(cfg.rails[0].vlan, 100);
	assert_int_equal(cfg.rails[0].mtu, 9000);
	assert_string_equal(cfg.rails[0].representors[1], "pf0vf[12]");
	assert_int_equal(cfg.rails[0].gateway, IP(10, 0, 0, 254));
	assert_string_equal(cfg.rails[1].name, "r1-name-of-31-characters-xxxxxx");
	assert_int_equal(cfg.rails[1].vlan, 4094);
	assert_int_equal(cfg.rails[1].mtu, 68);
	assert_int_equal(cfg.rails[1].subnet.len, 17);
	assert_int_equal(cfg.rails[1].pos.line, 13);
	assert_int_equal(cfg.rails[1].pos.col, 7);
	assert_int_equal(cfg.mode, RG_CONFIG_MODE_XDP_GENERIC);
	assert_false(cfg.anti_spoof);
	rg_config_free(&cfg);
}

static void test_modes(void **state)
{
	static const struct {
		const char *text;
		enum rg_config_mode mode;
	} modes[] = {
		{ "auto", RG_CONFIG_MODE_AUTO },
		{ "xdp", RG_CONFIG_MODE_XDP },
		{ "xdp-generic", RG_CONFIG_MODE_XDP_GENERIC },
		{ "tc", RG_CONFIG_MODE_TC },
	};
	enum rg_config_mode mode;
	struct rg_config cfg;
	char yaml[1024];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		snprintf(yaml, sizeof(yaml), GOOD "  datapath:\n    mode: %s\n", modes[i].text);
		parse_ok(yaml, &cfg);
		assert_int_equal(cfg.mode, modes[i].mode);
		assert_string_equal(rg_config_mode_name(cfg.mode), modes[i].text);
		rg_config_free(&cfg);
		assert_int_equal(rg_config_mode_parse(modes[i].text, &mode), 0);
		assert_int_equal(mode, modes[i].mode);
	}
	mode = RG_CONFIG_MODE_TC;
	assert_int_equal(rg_config_mode_parse("XDP", &mode), -EINVAL);
	assert_int_equal(rg_config_mode_parse("", &mode), -EINVAL);
	assert_int_equal(rg_config_mode_parse(NULL, &mode), -EINVAL);
	assert_int_equal(mode, RG_CONFIG_MODE_TC);      /* untouched on an error */
}

static void test_tc_attach(void **state)
{
	static const struct {
		const char *text;
		enum rg_config_tc_attach value;
	} values[] = {
		{ "auto", RG_CONFIG_TC_ATTACH_AUTO },
		{ "tcx", RG_CONFIG_TC_ATTACH_TCX },
		{ "clsact", RG_CONFIG_TC_ATTACH_CLSACT },
	};
	enum rg_config_tc_attach v = RG_CONFIG_TC_ATTACH_TCX;
	struct rg_config cfg;
	char yaml[1024];

	for (size_t i = 0; i < ARRAY_SIZE(values); i++) {
		snprintf(yaml, sizeof(yaml), GOOD "  datapath:\n    mode: tc\n    tcAttach: %s\n",
			 values[i].text);
		parse_ok(yaml, &cfg);
		assert_int_equal(cfg.tc_attach, values[i].value);
		assert_string_equal(rg_config_tc_attach_name(cfg.tc_attach), values[i].text);
		rg_config_free(&cfg);
	}
	assert_int_equal(rg_config_tc_attach_parse("TCX", &v), -EINVAL);
	assert_int_equal(rg_config_tc_attach_parse("", &v), -EINVAL);
	assert_int_equal(rg_config_tc_attach_parse(NULL, &v), -EINVAL);
	assert_int_equal(v, RG_CONFIG_TC_ATTACH_TCX);   /* untouched on an error */
}

static const char nodes_config[] =
	HEADER SUPERNETS
	"  computenet:\n"
	"    uplink: eth1\n"
	"    gateway: 10.1.255.1\n"
	"    gatewayMAC: 0c:42:a1:00:00:01\n"
	RAILS RAIL0
	"  nodes:\n"
	"    - name: gpu-1\n"
	"      uplink: eth2\n"
	"    - name: gpu-2.rack-b\n"
	"      gateway: 10.2.255.1\n"
	"    - name: gpu-3\n"
	"      gatewayMAC: 0c:42:a1:00:00:03\n"
	"    - name: gpu-4\n"
	"      uplink: auto\n"
	"      gateway: 10.3.255.1\n"
	"      gatewayMAC: 0c:42:a1:00:00:04\n";

static void test_node_overrides(void **state)
{
	static const uint8_t mac1[6] = { 0x0c, 0x42, 0xa1, 0, 0, 0x01 };
	static const uint8_t mac3[6] = { 0x0c, 0x42, 0xa1, 0, 0, 0x03 };
	static const uint8_t mac4[6] = { 0x0c, 0x42, 0xa1, 0, 0, 0x04 };
	struct rg_config cfg;

	/* A node not listed, or no node name: the global values stand. */
	parse_ok(nodes_config, &cfg);
	assert_int_equal(cfg.n_nodes, 4);
	rg_config_apply_node(&cfg, "gpu-9");
	rg_config_apply_node(&cfg, NULL);
	assert_string_equal(cfg.computenet.uplink, "eth1");
	assert_int_equal(cfg.computenet.gateway, IP(10, 1, 255, 1));
	assert_true(cfg.computenet.has_gateway_mac);
	assert_memory_equal(cfg.computenet.gateway_mac, mac1, 6);
	rg_config_free(&cfg);

	/* Uplink only. */
	parse_ok(nodes_config, &cfg);
	rg_config_apply_node(&cfg, "gpu-1");
	assert_string_equal(cfg.computenet.uplink, "eth2");
	assert_false(cfg.computenet.uplink_discover);
	assert_int_equal(cfg.computenet.gateway, IP(10, 1, 255, 1));
	assert_memory_equal(cfg.computenet.gateway_mac, mac1, 6);
	rg_config_free(&cfg);

	/* Another gateway without a MAC: the global MAC was the other
	 * gateway's, so it must be resolved again, not reused. */
	parse_ok(nodes_config, &cfg);
	rg_config_apply_node(&cfg, "gpu-2.rack-b");
	assert_string_equal(cfg.computenet.uplink, "eth1");
	assert_int_equal(cfg.computenet.gateway, IP(10, 2, 255, 1));
	assert_false(cfg.computenet.has_gateway_mac);
	rg_config_free(&cfg);

	/* MAC only. */
	parse_ok(nodes_config, &cfg);
	rg_config_apply_node(&cfg, "gpu-3");
	assert_int_equal(cfg.computenet.gateway, IP(10, 1, 255, 1));
	assert_true(cfg.computenet.has_gateway_mac);
	assert_memory_equal(cfg.computenet.gateway_mac, mac3, 6);
	rg_config_free(&cfg);

	/* Everything, with uplink discovery. */
	parse_ok(nodes_config, &cfg);
	rg_config_apply_node(&cfg, "gpu-4");
	assert_true(cfg.computenet.uplink_discover);
	assert_string_equal(cfg.computenet.uplink, "");
	assert_int_equal(cfg.computenet.gateway, IP(10, 3, 255, 1));
	assert_true(cfg.computenet.has_gateway_mac);
	assert_memory_equal(cfg.computenet.gateway_mac, mac4, 6);
	rg_config_free(&cfg);
}

/* Rails by PF, and nodes whose PFs are named differently sharing the one
 * config: a node's own pf or representors replace the rail's selection. */
static const char pf_config[] =
	BEFORE_RAILS
	"    - name: rail0\n      subnet: 10.0.0.0/24\n      gateway: 10.0.0.1\n      pf: ens1f0np0\n"
	"    - name: rail1\n      subnet: 10.0.1.0/24\n      gateway: 10.0.1.1\n      pf: \"0000:31:00.*\"\n"
	"  nodes:\n"
	"    - name: gpu-1\n"
	"      rails:\n"
	"        - {name: rail0, pf: ens5f0np0}\n"
	"        - {name: rail1, representors: [eth1_*, eth2_0]}\n"
	"    - name: gpu-2\n"
	"      uplink: eth2\n";

static void test_rails_by_pf(void **state)
{
	struct rg_config cfg;

	parse_ok(pf_config, &cfg);
	assert_string_equal(cfg.rails[0].pf, "ens1f0np0");
	assert_int_equal(cfg.rails[0].n_representors, 0);
	assert_string_equal(cfg.rails[1].pf, "0000:31:00.*");
	rg_config_apply_node(&cfg, "gpu-2");        /* no rails of its own */
	assert_string_equal(cfg.rails[0].pf, "ens1f0np0");
	assert_string_equal(cfg.rails[1].pf, "0000:31:00.*");
	rg_config_free(&cfg);

	parse_ok(pf_config, &cfg);
	rg_config_apply_node(&cfg, "gpu-1");
	assert_string_equal(cfg.rails[0].pf, "ens5f0np0");
	assert_int_equal(cfg.rails[0].n_representors, 0);
	/* representors replace the pf: the rail selects one way */
	assert_string_equal(cfg.rails[1].pf, "");
	assert_int_equal(cfg.rails[1].n_representors, 2);
	assert_string_equal(cfg.rails[1].representors[0], "eth1_*");
	assert_string_equal(cfg.rails[1].representors[1], "eth2_0");
	/* applying again changes nothing (the selection moved once) */
	rg_config_apply_node(&cfg, "gpu-1");
	assert_string_equal(cfg.rails[0].pf, "ens5f0np0");
	assert_int_equal(cfg.rails[1].n_representors, 2);
	rg_config_free(&cfg);

	/* a node giving representors where the rail had them too */
	parse_ok(GOOD "  nodes:\n    - name: gpu-3\n      rails:\n        - {name: rail1, pf: ens9f1np1}\n",
		 &cfg);
	rg_config_apply_node(&cfg, "gpu-3");
	assert_int_equal(cfg.rails[0].n_representors, 1);
	assert_string_equal(cfg.rails[1].pf, "ens9f1np1");
	assert_int_equal(cfg.rails[1].n_representors, 0);
	assert_null(cfg.rails[1].representors);
	rg_config_free(&cfg);
}

/* n rails r0.. in 10.0.0.0/8, one /24 each. */
static char *config_with_rails(size_t n)
{
	static const char head[] =
		"apiVersion: railgate.dev/v1alpha1\nkind: RailConfig\nmetadata: {name: t}\n"
		"spec:\n  supernets: [10.0.0.0/8]\n"
		"  computenet: {uplink: eth1, gateway: 192.0.2.1}\n  rails:\n";
	size_t cap = sizeof(head) + n * 128, used;
	char *yaml = malloc(cap);
	size_t i;

	assert_non_null(yaml);
	used = (size_t)snprintf(yaml, cap, "%s", head);
	for (i = 0; i < n; i++)
		used += (size_t)snprintf(yaml + used, cap - used,
			"    - {name: r%zu, subnet: 10.%zu.%zu.0/24, gateway: 10.%zu.%zu.1, representors: [v%zu]}\n",
			i, i / 256, i % 256, i / 256, i % 256, i);
	return yaml;
}

static void test_rail_count_limit(void **state)
{
	struct rg_diags d = { 0 };
	struct rg_config cfg;
	char *yaml;

	yaml = config_with_rails(RG_MAX_RAILS);
	parse_ok(yaml, &cfg);
	assert_int_equal(cfg.n_rails, RG_MAX_RAILS);
	rg_config_free(&cfg);
	free(yaml);

	yaml = config_with_rails(RG_MAX_RAILS + 1);
	assert_int_equal(rg_config_parse(FILE_NAME, yaml, strlen(yaml), &cfg, &d), -1);
	if (d.count != 1)
		print_diags(&d);
	assert_int_equal(d.count, 1);
	assert_string_equal(d.msgs[0], "t.yaml:8:5: too many rails (257, at most 256)");
	assert_true(is_zeroed(&cfg));
	rg_diags_free(&d);
	free(yaml);
}

/* ---- bounds: every input costs work in proportion to its size ---------- */

/* A growing string for generated configs (no big files committed). */
struct text {
	char  *s;
	size_t len, cap;
};

static void text_add(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void text_add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
		va_end(ap);
		assert_true(n >= 0);
		if (t->s && t->len + (size_t)n < t->cap)
			break;
		t->cap = (t->cap + (size_t)n + 1) * 2;
		t->s = realloc(t->s, t->cap);
		assert_non_null(t->s);
	}
	t->len += (size_t)n;
}

/* Parse a generated config that must fail; the diagnostics stay in *d. */
static void parse_fails(const struct text *t, struct rg_diags *d)
{
	struct rg_config cfg;

	memset(&cfg, 0xa5, sizeof(cfg));
	assert_int_equal(rg_config_parse(FILE_NAME, t->s, t->len, &cfg, d), -1);
	assert_true(is_zeroed(&cfg));
}

/* The whole list is exactly want[] (NULL-terminated). */
static void assert_diags(const struct rg_diags *d, const char *const *want)
{
	size_t n = 0, i;

	while (want[n])
		n++;
	if (d->count != n)
		print_diags(d);
	assert_int_equal(d->count, n);
	for (i = 0; i < n; i++)
		assert_string_equal(d->msgs[i], want[i]);
}

/* The first lines of a config up to "  supernets: " (line 5, column 14). */
#define FLOW_HEAD \
	"apiVersion: railgate.dev/v1alpha1\nkind: RailConfig\nmetadata: {name: t}\nspec:\n" \
	"  supernets: "

/* Finding 1: 4000 duplicate supernets were 8 M "overlaps" lines; a list
 * longer than the datapath can use is now one error, and nothing in it is
 * compared. */
static void test_too_many_supernets(void **state)
{
	struct text t = { 0 };
	struct rg_diags d = { 0 };
	char want[128];
	size_t i;

	text_add(&t, FLOW_HEAD "[");
	for (i = 0; i < 4000; i++)
		text_add(&t, "%s10.0.0.0/16", i ? ", " : "");
	text_add(&t, "]\n  computenet: {uplink: eth1, gateway: 192.0.2.1}\n"
		     "  rails: [{name: r, subnet: 10.0.0.0/24, gateway: 10.0.0.1, representors: [a]}]\n");
	parse_fails(&t, &d);
	snprintf(want, sizeof(want), "t.yaml:5:14: too many supernets (4000, at most %d)",
		 RG_CONFIG_MAX_SUPERNETS);
	assert_diags(&d, (const char *[]){ want, NULL });
	rg_diags_free(&d);
	free(t.s);
}

/* Within the cap, 200 duplicates are 199 errors (one per duplicate, not
 * one per pair), of which the first RG_CONFIG_MAX_ERRORS are shown. */
static void test_duplicate_supernets_capped(void **state)
{
	struct text t = { 0 };
	struct rg_diags d = { 0 };
	char trailer[128];
	size_t i;

	text_add(&t, FLOW_HEAD "\n");
	for (i = 0; i < 200; i++)
		text_add(&t, "    - 10.0.0.0/16\n");
	text_add(&t, "  computenet: {uplink: eth1, gateway: 192.0.2.1}\n"
		     "  rails: [{name: r, subnet: 10.0.0.0/24, gateway: 10.0.0.1, representors: [a]}]\n");
	parse_fails(&t, &d);
	if (d.count != RG_CONFIG_MAX_ERRORS + 1)
		print_diags(&d);
	assert_int_equal(d.count, RG_CONFIG_MAX_ERRORS + 1);
	/* In source order: the second entry (line 7) is the first duplicate. */
	assert_string_equal(d.msgs[0], "t.yaml:7:7: supernet 10.0.0.0/16 overlaps supernet 10.0.0.0/16 (line 6)");
	assert_string_equal(d.msgs[RG_CONFIG_MAX_ERRORS - 1],
			    "t.yaml:26:7: supernet 10.0.0.0/16 overlaps supernet 10.0.0.0/16 (line 6)");
	snprintf(trailer, sizeof(trailer), "t.yaml: and %d more errors left out (the first %d are shown)",
		 199 - RG_CONFIG_MAX_ERRORS, RG_CONFIG_MAX_ERRORS);
	assert_string_equal(d.msgs[RG_CONFIG_MAX_ERRORS], trailer);
	rg_diags_free(&d);
	free(t.s);
}

/* 20k rails took 11 s of validation past "too many rails": now that one
 * line is all, and no rail is looked at (these 20k are one rail and 19999
 * aliases of it, to stay under the size cap: looked at, they were 20k
 * errors). */
static void test_twenty_thousand_rails(void **state)
{
	struct text t = { 0 };
	struct rg_diags d = { 0 };
	size_t i;

	text_add(&t, FLOW_HEAD "[10.0.0.0/16]\n  computenet: {uplink: eth1, gateway: 192.0.2.1}\n  rails:\n"
		     "    - &r {name: r, subnet: 10.0.0.0/24, gateway: 10.0.0.1, representors: [v]}\n");
	for (i = 1; i < 20000; i++)
		text_add(&t, "    - *r\n");
	parse_fails(&t, &d);
	assert_diags(&d, (const char *[]){ "t.yaml:8:5: too many rails (20000, at most 256)", NULL });
	rg_diags_free(&d);
	free(t.s);
}

/* 100k-deep nesting took 49 s inside libyaml: the guard in front of it
 * stops at the first level too deep. */
static void test_deep_nesting(void **state)
{
	struct text t = { 0 };
	struct rg_diags d = { 0 };
	char want[128];
	size_t i;

	text_add(&t, FLOW_HEAD);
	for (i = 0; i < 100000; i++)
		text_add(&t, "[");
	for (i = 0; i < 100000; i++)
		text_add(&t, "]");
	text_add(&t, "\n");
	parse_fails(&t, &d);
	/* Levels: the root mapping, spec, then the brackets from column 14. */
	snprintf(want, sizeof(want), "t.yaml:5:%d: YAML nesting deeper than %d levels",
		 14 + RG_CONFIG_MAX_DEPTH - 2, RG_CONFIG_MAX_DEPTH);
	assert_diags(&d, (const char *[]){ want, NULL });
	rg_diags_free(&d);
	free(t.s);
}

/* The other lists: one error each past its cap, entries not examined. */
static void test_list_caps(void **state)
{
	struct text t = { 0 };
	struct rg_diags d = { 0 };
	char want[160];
	size_t i;

	text_add(&t, FLOW_HEAD "[10.0.0.0/16]\n  computenet:\n    uplink: eth1\n"
		     "    gateway: 192.0.2.1\n    frontend: [");
	for (i = 0; i <= RG_CONFIG_MAX_FRONTEND; i++)
		text_add(&t, "%s1.0.0.0/32", i ? "," : "");
	text_add(&t, "]\n  rails:\n    - {name: r, subnet: 10.0.0.0/24, gateway: 10.0.0.1, representors: [");
	for (i = 0; i <= RG_CONFIG_MAX_REPRESENTORS; i++)
		text_add(&t, "%sv%zu", i ? "," : "", i);
	text_add(&t, "]}\n  nodes:\n");
	for (i = 0; i <= RG_CONFIG_MAX_NODES; i++)
		text_add(&t, "    - {name: n}\n");
	parse_fails(&t, &d);
	if (d.count != 3)
		print_diags(&d);
	assert_int_equal(d.count, 3);
	snprintf(want, sizeof(want), "t.yaml:9:15: too many frontend prefixes (%d, at most %d)",
		 RG_CONFIG_MAX_FRONTEND + 1, RG_CONFIG_MAX_FRONTEND);
	assert_string_equal(d.msgs[0], want);
	snprintf(want, sizeof(want), "t.yaml:11:71: too many representors (%d in this and earlier rails, at most %d in all)",
		 RG_CONFIG_MAX_REPRESENTORS + 1, RG_CONFIG_MAX_REPRESENTORS);
	assert_string_equal(d.msgs[1], want);
	snprintf(want, sizeof(want), "t.yaml:13:5: too many nodes (%d, at most %d)",
		 RG_CONFIG_MAX_NODES + 1, RG_CONFIG_MAX_NODES);
	assert_string_equal(d.msgs[2], want);
	rg_diags_free(&d);
	free(t.s);
}

/* A node's rail overrides (spec.nodes[].rails) name rails of spec.rails,
 * each once: more than RG_MAX_RAILS is one error, and none is compared
 * (each override is checked against every earlier one). */
static void test_node_rail_overrides_capped(void **state)
{
	struct text t = { 0 };
	struct rg_diags d = { 0 };
	char want[128];
	size_t i;

	text_add(&t, "%s", GOOD "  nodes:\n    - name: gpu-1\n      rails:\n");
	for (i = 0; i <= RG_MAX_RAILS; i++)
		text_add(&t, "        - {name: rail0, representors: [v%zu]}\n", i);
	parse_fails(&t, &d);
	snprintf(want, sizeof(want), "t.yaml:22:9: too many rails on a node (%d, at most %d)",
		 RG_MAX_RAILS + 1, RG_MAX_RAILS);
	assert_diags(&d, (const char *[]){ want, NULL });
	rg_diags_free(&d);
	free(t.s);
}

/* Many independent mistakes: the first RG_CONFIG_MAX_ERRORS in source
 * order, then how many more there were. */
static void test_error_count_capped(void **state)
{
	struct text t = { 0 };
	struct rg_diags d = { 0 };
	char want[128];
	size_t i;

	text_add(&t, HEADER SUPERNETS COMPUTENET RAILS);
	for (i = 0; i < 50; i++)
		text_add(&t, "    - {name: r%zu, subnet: 10.0.%zu.0/24, gateway: 10.0.%zu.1, representors: [v%zu], vlan: 0}\n",
			 i, i, i, i);
	parse_fails(&t, &d);
	assert_int_equal(d.count, RG_CONFIG_MAX_ERRORS + 1);
	for (i = 0; i < RG_CONFIG_MAX_ERRORS; i++)
		assert_non_null(strstr(d.msgs[i], "vlan 0 is out of range 1..4094"));
	assert_int_equal(strncmp(d.msgs[0], "t.yaml:11:", 10), 0);
	snprintf(want, sizeof(want), "t.yaml:%d:", 11 + RG_CONFIG_MAX_ERRORS - 1);
	assert_int_equal(strncmp(d.msgs[RG_CONFIG_MAX_ERRORS - 1], want, strlen(want)), 0);
	snprintf(want, sizeof(want), "t.yaml: and %d more errors left out (the first %d are shown)",
		 50 - RG_CONFIG_MAX_ERRORS, RG_CONFIG_MAX_ERRORS);
	assert_string_equal(d.msgs[RG_CONFIG_MAX_ERRORS], want);
	assert_int_equal(rg_diags_errors(&d), 50);
	rg_diags_free(&d);
	free(t.s);
}

/* A file of exactly RG_CONFIG_MAX_BYTES is read; one byte more is refused
 * before any parsing (the file is valid YAML: only its size is wrong). */
static void test_file_size_cap(void **state)
{
	char path[] = "/tmp/rg-test-config-XXXXXX";
	struct rg_diags d = { 0 };
	struct rg_config cfg;
	char *text, want[PATH_MAX + 128];
	size_t good = strlen(GOOD);
	int fd;

	text = malloc(RG_CONFIG_MAX_BYTES + 1);
	assert_non_null(text);
	memcpy(text, GOOD, good);
	text[good] = '#';
	memset(text + good + 1, 'x', RG_CONFIG_MAX_BYTES - good - 1);
	text[RG_CONFIG_MAX_BYTES - 1] = '\n';
	text[RG_CONFIG_MAX_BYTES] = '\n';

	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, RG_CONFIG_MAX_BYTES), RG_CONFIG_MAX_BYTES);
	assert_int_equal(rg_config_load(path, &cfg, &d), 0);
	print_diags(&d);
	rg_config_free(&cfg);

	assert_int_equal(write(fd, "\n", 1), 1);
	close(fd);
	assert_int_equal(rg_config_load(path, &cfg, &d), -EFBIG);
	unlink(path);
	snprintf(want, sizeof(want), "%s: cannot read: larger than %d bytes, the limit of a config",
		 path, RG_CONFIG_MAX_BYTES);
	assert_diags(&d, (const char *[]){ want, NULL });
	rg_diags_free(&d);

	/* The same cap for text handed over whole (the daemon, the fuzzer). */
	assert_int_equal(rg_config_parse(FILE_NAME, text, RG_CONFIG_MAX_BYTES + 1, &cfg, &d), -EFBIG);
	snprintf(want, sizeof(want), "t.yaml:1:1: the config is larger than %d bytes, the limit of a config",
		 RG_CONFIG_MAX_BYTES);
	assert_diags(&d, (const char *[]){ want, NULL });
	rg_diags_free(&d);
	free(text);
}

static void test_unreadable_file(void **state)
{
	struct rg_diags d = { 0 };
	struct rg_config cfg;

	assert_int_equal(rg_config_load("/nonexistent/railgate.yaml", &cfg, &d), -ENOENT);
	assert_int_equal(d.count, 1);
	assert_string_equal(d.msgs[0],
			    "/nonexistent/railgate.yaml: cannot read: No such file or directory");
	assert_true(is_zeroed(&cfg));

	/* Errors accumulate in the caller's list. */
	assert_int_equal(rg_config_load("/", &cfg, &d), -EISDIR);
	assert_int_equal(d.count, 2);
	assert_string_equal(d.msgs[1], "/: cannot read: Is a directory");
	rg_diags_free(&d);
	assert_int_equal(d.count, 0);
	assert_null(d.msgs);
}

/* Errors from a file name the file as the user gave it. */
static void test_load_names_the_file(void **state)
{
	char path[] = "/tmp/rg-test-config-XXXXXX";
	static const char text[] = GOOD "  datapath: {mode: fast}\n";
	struct rg_diags d = { 0 };
	struct rg_config cfg;
	char want[256];
	int fd;

	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);

	assert_int_equal(rg_config_load(path, &cfg, &d), -1);
	unlink(path);
	snprintf(want, sizeof(want),
		 "%s:19:20: unknown datapath mode 'fast' (expected one of: auto, xdp, xdp-generic, tc)",
		 path);
	if (d.count != 1)
		print_diags(&d);
	assert_int_equal(d.count, 1);
	assert_string_equal(d.msgs[0], want);
	rg_diags_free(&d);
}

/* SHA-256 of text, computed here: the oracle for a config's digest. */
static void sha256_of(const char *text, size_t len, uint8_t out[32])
{
	unsigned int out_len = 32;

	assert_true(EVP_Digest(text, len, out, &out_len, EVP_sha256(), NULL));
}

/*
 * A config carries the digest of the bytes it was parsed from, the one
 * `status` shows.  Read from a pipe, which gives its bytes once: a digest
 * taken by reading the path again would be that of empty input.
 */
static void test_digest_is_of_the_bytes_parsed(void **state)
{
	struct rg_diags d = { 0 };
	struct rg_config cfg;
	uint8_t want[32];
	char path[64];
	int fds[2];

	sha256_of(GOOD, strlen(GOOD), want);
	parse_ok(GOOD, &cfg);
	assert_memory_equal(cfg.sha256, want, 32);
	rg_config_free(&cfg);

	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], GOOD, strlen(GOOD)), (ssize_t)strlen(GOOD));
	close(fds[1]);
	snprintf(path, sizeof(path), "/dev/fd/%d", fds[0]);
	assert_int_equal(rg_config_load(path, &cfg, &d), 0);
	close(fds[0]);
	assert_memory_equal(cfg.sha256, want, 32);
	rg_config_free(&cfg);
	rg_diags_free(&d);
}

static void test_diags_add(void **state)
{
	struct rg_diags d = { 0 };

	rg_diags_add(&d, "a.yaml", (struct rg_pos){ 3, 7 }, "rail %s: %d", "r0", 5);
	rg_diags_add(&d, "a.yaml", (struct rg_pos){ 1, 1 }, "second");
	assert_int_equal(d.count, 2);
	assert_string_equal(d.msgs[0], "a.yaml:3:7: rail r0: 5");
	assert_string_equal(d.msgs[1], "a.yaml:1:1: second");
	rg_diags_free(&d);
}

static const struct CMUnitTest fixed_tests[] = {
	cmocka_unit_test(test_interface_md_example),
	cmocka_unit_test(test_example_file),
	cmocka_unit_test(test_defaults),
	cmocka_unit_test(test_all_options),
	cmocka_unit_test(test_probe_targets),
	cmocka_unit_test(test_modes),
	cmocka_unit_test(test_tc_attach),
	cmocka_unit_test(test_node_overrides),
	cmocka_unit_test(test_rails_by_pf),
	cmocka_unit_test(test_rail_count_limit),
	cmocka_unit_test(test_too_many_supernets),
	cmocka_unit_test(test_duplicate_supernets_capped),
	cmocka_unit_test(test_twenty_thousand_rails),
	cmocka_unit_test(test_deep_nesting),
	cmocka_unit_test(test_list_caps),
	cmocka_unit_test(test_node_rail_overrides_capped),
	cmocka_unit_test(test_error_count_capped),
	cmocka_unit_test(test_file_size_cap),
	cmocka_unit_test(test_unreadable_file),
	cmocka_unit_test(test_load_names_the_file),
	cmocka_unit_test(test_digest_is_of_the_bytes_parsed),
	cmocka_unit_test(test_diags_add),
	cmocka_unit_test(test_icmp_keys),
};

/* The fixed tests, then one test per row of bad_cases. */
static struct CMUnitTest tests[ARRAY_SIZE(fixed_tests) + ARRAY_SIZE(bad_cases)];

int main(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fixed_tests); i++)
		tests[i] = fixed_tests[i];
	for (i = 0; i < ARRAY_SIZE(bad_cases); i++) {
		struct CMUnitTest *t = &tests[ARRAY_SIZE(fixed_tests) + i];

		t->name = bad_cases[i].name;
		t->test_func = test_bad_config;
		t->initial_state = (void *)&bad_cases[i];
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
