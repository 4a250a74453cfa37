#!/usr/bin/env bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The testbed without railgate reproduces the field report's failures
# (docs/failure-scenarios.md): intra-rail works, cross-rail fails with no
# supernet route (Scenario 1, unreachable) and with it (Scenario 2, the
# switch drops rail-to-rail), the front-end is out of reach; and `down`
# leaves nothing behind.
source "$(dirname "$0")/../lib/integration.sh" testbed

NODES=3
RAILS=3

tb_begin $NODES $RAILS
check_eq "every namespace exists" $((3 + NODES + NODES * RAILS)) \
	"$(ip netns list | grep -c "^$TB_PREFIX-")"
check "nothing is configured in the caller's namespace" \
	bash -c "! ip -o link | grep -qE ' (pf[0-9]+vf0|uplink0|leg[0-9]+|cnet)[@:]'"

check "intra-rail: n0-p1 pings n2-p1" tb_ping n0-p1 "$(tb_pod_ip 2 1)"
check "intra-rail: n1-p0 pings n0-p0" tb_ping n1-p0 "$(tb_pod_ip 0 0)"
check "a pod pings its rail gateway" tb_ping n2-p2 10.0.2.1

rx_before=$(tb_uplink_rx_total)
check "intra-rail ping burst (3 packets)" \
	tb exec n0-p2 ping -n -q -c 3 -i 0.2 -W 1 "$(tb_pod_ip 1 2)"
check_eq "intra-rail traffic does not reach the switch uplinks" \
	"$rx_before" "$(tb_uplink_rx_total)"

# Scenario 2: the supernet route is there, the switch will not route
# rail to rail.
leg_before=$(tb_rx_packets sw leg0)
check_fails "scenario 2: n0-p0 -> n1-p1 times out" tb_ping n0-p0 "$(tb_pod_ip 1 1)"
check "  the echo request reached the switch (leg0) and died there" \
	test "$(tb_rx_packets sw leg0)" -gt "$leg_before"
check_fails "scenario 2: n2-p2 -> n0-p1 times out" tb_ping n2-p2 "$(tb_pod_ip 0 1)"
check_fails "front-end unreachable from a pod without railgate" tb_ping n0-p0 192.168.0.10

# Scenario 1: no supernet route, the pod cannot even try.
check "routes none" tb routes none
check_eq "scenario 1: n0-p0 -> n1-p1 says Network is unreachable" \
	"ping: connect: Network is unreachable" "$(tb_ping_error n0-p0 "$(tb_pod_ip 1 1)")"
check "intra-rail still works without the supernet route" tb_ping n0-p0 "$(tb_pod_ip 1 0)"
check "routes supernet" tb routes supernet
check_eq "the supernet route is back in a pod" "10.0.0.0/16 via 10.0.1.1 dev net1" \
	"$(tb exec n2-p1 ip -4 route show 10.0.0.0/16 | sed 's/ *$//')"

check "down" tb down
check_eq "down leaves no namespace" 0 "$(ip netns list | grep -c "^$TB_PREFIX-")"
check_eq "down leaves no state dir" no "$([ -e "$TB_STATE" ] && echo yes || echo no)"
check "down is idempotent" tb down

# gc: a testbed whose owner died is a leftover, one whose owner lives is not.
sleep 30 &
owner=$!
TB_EXTRA_SUFFIXES+=(g)
NODES=1 RAILS=1 TB_PREFIX="${TB_PREFIX}g" TB_STATE="${TB_STATE}g" TB_OWNER_PID=$owner tb up >/dev/null
check "gc keeps a testbed whose owner lives" tb gc
check_eq "  it is still there" 5 "$(ip netns list | grep -c "^${TB_PREFIX}g-")"
kill "$owner"
wait "$owner" 2>/dev/null
check "gc removes a testbed whose owner died" tb gc
check_eq "  it is gone" 0 "$(ip netns list | grep -c "^${TB_PREFIX}g-")"

tap_done
