#!/usr/bin/env bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The first remedy of docs/failure-scenarios.md end to end: pods come up WITHOUT the supernet route
# (the IPAM never adds one: Scenarios 1 and 3), railgate-cni runs as the
# chained plugin for every pod (CNI ADD with the prevResult the IPAM would
# have returned), and with railgate on the nodes the pods reach other rails
# and the front-end.  CNI DEL takes the routes away again.
source "$(dirname "$0")/../lib/integration.sh" testbed

NODES=2
RAILS=3
RG_CNI="$TB_REPO/build/railgate-cni"
export ROUTES=none
tb_begin $NODES $RAILS
RAILCFG="$TB_STATE/cni-rails.yaml"
tb config n0 >"$RAILCFG"

# cni_pod CMD NODE RAIL: run the plugin for one pod as libcni would.
cni_pod() {
	local cmd=$1 n=$2 r=$3 ns="/run/netns/$TB_PREFIX-n$2-p$3" ip
	ip=$(tb_pod_ip "$n" "$r")
	jq -n -c --arg f "$RAILCFG" --arg ns "$ns" --arg ip "$ip/24" --arg name "rail$r" '{
		cniVersion: "1.0.0", name: $name, type: "railgate", railConfig: $f,
		prevResult: {cniVersion: "1.0.0",
			interfaces: [{name: "net1", sandbox: $ns}],
			ips: [{address: $ip, interface: 0}]}}' |
		env CNI_COMMAND="$cmd" CNI_CONTAINERID="tb-n$n-p$r" CNI_NETNS="$ns" \
			CNI_IFNAME=net1 CNI_PATH="$TB_REPO/build" "$RG_CNI"
}

pod_routes() { ip -n "$TB_PREFIX-n$1-p$2" -4 route show proto 82 | sort | tr '\n' ';'; }

check_eq "before the plugin, Scenario 1: no route to another rail" \
	"ping: connect: Network is unreachable" "$(tb_ping_error n0-p0 "$(tb_pod_ip 1 1)")"

all_added=0
for ((n = 0; n < NODES; n++)); do
	for ((r = 0; r < RAILS; r++)); do
		cni_pod ADD $n $r >/dev/null 2>&1 || all_added=1
	done
done
check_eq "CNI ADD succeeds for every pod" 0 "$all_added"
check_eq "n0-p0 got the supernet and front-end routes via its rail gateway" \
	"10.0.0.0/16 via 10.0.0.1 dev net1 metric 1000 ;192.168.0.0/16 via 10.0.0.1 dev net1 metric 1000 ;" \
	"$(pod_routes 0 0)"
check_eq "n1-p2 got them via rail 2's gateway" \
	"10.0.0.0/16 via 10.0.2.1 dev net1 metric 1002 ;192.168.0.0/16 via 10.0.2.1 dev net1 metric 1002 ;" \
	"$(pod_routes 1 2)"
check "CNI CHECK passes on a pod" cni_pod CHECK 1 1
check_fails "Scenario 2: with the route but no accelerator, n0-p0 -> n1-p1 fails" \
	tb_ping n0-p0 "$(tb_pod_ip 1 1)"

check "railgate up on every node" tb_railgate_all $NODES up tc
check "cross-rail through the CNI's routes: n0-p0 -> n1-p1" tb_ping n0-p0 "$(tb_pod_ip 1 1)"
check "cross-rail through the CNI's routes: n1-p2 -> n0-p0" tb_ping n1-p2 "$(tb_pod_ip 0 0)"
check "the front-end is reached from n0-p1" tb_ping n0-p1 192.168.0.10

check "CNI DEL on n0-p0" cni_pod DEL 0 0
check_eq "DEL removed exactly the routes ADD added" "" "$(pod_routes 0 0)"
check_eq "after DEL, n0-p0 has no route to other rails again" \
	"ping: connect: Network is unreachable" "$(tb_ping_error n0-p0 "$(tb_pod_ip 1 1)")"
check "CNI DEL again is fine (idempotent)" cni_pod DEL 0 0

tap_done
