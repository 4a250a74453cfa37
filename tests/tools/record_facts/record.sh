#!/usr/bin/env bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# record.sh [CASE...]: record the facts and the plan of every case of
# tests/unit/facts/cases (or of the CASEs named) with build/rg-record-facts,
# on the nodes they name: a testbed of 2 nodes x 4 rails
# (tools/testbed/testbed.sh) and the one node of pf_discovery.sh, whose
# sysfs is a fake tree.  Both are brought up here in namespaces of their
# own and removed on exit.  Writes tests/unit/facts/NAME.facts.json and
# NAME.maps.json (OUT=DIR elsewhere); docs/testing.md says when to.
set -euo pipefail
cd "$(dirname "$0")/../../.."
CASES=tests/unit/facts
OUT=${OUT:-$CASES}
REC=$PWD/${RG_BUILD:-build}/rg-record-facts
# a fixed path: the facts and the error of a missing PF name it
SYSFS=/tmp/rg-record-facts/sys
[ -x "$REC" ] || { echo "record.sh: $REC is missing: run make" >&2; exit 1; }

ON=rgrec$$
source tests/lib/onenode.sh
source tests/lib/testbed.sh
cleanup() {
	onenode_down
	tb_teardown
	rm -rf "${SYSFS%/sys}"
}
trap cleanup EXIT

# The fake switchdev tree pf_discovery.sh uses too.
RG_FAKE_SYSFS=$SYSFS
source tests/lib/fake_sysfs.sh

pf_node() {
	onenode_up
	rm -rf "$SYSFS"
	fake_netdev nic0 b8cef60300a1b2c2 p0 0000:17:00.0 2
	fake_netdev pf0vf0 b8cef60300a1b2c2 pf0vf0 0000:17:00.0
	fake_netdev nic1 b8cef60300a1c3d4 p0 0000:31:00.0 1
	fake_netdev pf1vf0 b8cef60300a1c3d4 pf0vf0 0000:31:00.0
	fake_netdev nic9 "" "" 0000:5e:00.0 8
}

# record NAME NODE CONFIG NODE_NAME MODE PREV TC_ATTACH
record() {
	local name=$1 node=$2 config=$3 node_name=$4 mode=$5 prev=$6 tc=$7 ns args=() env=()
	if [ "$tc" = - ]; then env+=(-u RAILGATE_TC_ATTACH); else env+=("RAILGATE_TC_ATTACH=$tc"); fi
	case $node in
	tb:*) ns=$TB_PREFIX-${node#tb:} ;;
	pf | pf/nogro) ns=$ON-node; env+=("RAILGATE_SYSFS=$SYSFS") ;;
	*) echo "record.sh: $name: unknown node $node" >&2; return 1 ;;
	esac
	[ "$node_name" = - ] || args+=(-n "$node_name")
	[ "$mode" = - ] || args+=(-m "$mode")
	[ "$prev" = - ] || args+=(-r "$OUT/$prev.maps.json")
	# pf/nogro: the uplink's peer without GRO, so the uplink takes no XDP redirects
	[ "$node" = pf/nogro ] && ip netns exec "$ON-sw" ethtool -K up0 gro off >/dev/null
	ip netns exec "$ns" env "${env[@]}" "$REC" -c "$CASES/$config" "${args[@]}" \
		"$OUT/$name.facts.json" "$OUT/$name.maps.json"
	[ "$node" = pf/nogro ] && ip netns exec "$ON-sw" ethtool -K up0 gro on >/dev/null
	echo "recorded $name on $node: $(jq -c '.error.msg // "ok"' "$OUT/$name.maps.json")"
}

NODES=2 RAILS=4 TB_OWNER_PID=$$ tb up
pf_node
mkdir -p "$OUT"
while read -r name node config node_name mode prev tc; do
	[[ -z "$name" || "$name" == \#* ]] && continue
	if [ "$#" -gt 0 ] && [[ " $* " != *" $name "* ]]; then continue; fi
	record "$name" "$node" "$config" "$node_name" "$mode" "$prev" "$tc"
done <"$CASES/cases"
