#!/usr/bin/env bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# railgate on the testbed, in each attach mode: cross-rail ICMP, UDP and
# TCP between pods of different nodes and rails; intra-rail traffic stays
# off the uplink; the front-end is reached; the counters say so; and
# `railgate down` brings Scenario 2 back.
source "$(dirname "$0")/../lib/integration.sh" testbed

NODES=3
RAILS=3
readonly UDP_RATE=20M            # iperf3 -b: bounded, far below what veth carries
readonly MAX_UDP_LOSS_PERCENT=5

tb_begin $NODES $RAILS
if [ ! -x "$RAILGATE" ]; then
	fail "build/railgate exists (make build/railgate)"
	tap_done
	exit 1
fi

# status_has_mode NODE MODE: every interface `railgate status --json`
# lists on NODE is attached in MODE.
status_has_mode() {
	tb_railgate "$1" status --json |
		jq -e --arg m "$2" '.interfaces | length > 0 and all(.mode == $m and .attached)'
}

# delta_is NAME EXPECTED BEFORE AFTER: one TAP line for a counter move.
delta_is() {
	check_eq "$1" "$2" "$(($4 - $3))"
}

cross_rail_icmp() {
	local m=$1 n0_before n1_before
	n0_before=$(tb_stat n0 cross_rail rail0)
	n1_before=$(tb_stat n1 cross_rail rail1)
	check "[$m] cross-rail ping n0-p0 -> n1-p1 (3 echoes)" \
		tb exec n0-p0 ping -n -q -c 3 -i 0.2 -W 1 "$(tb_pod_ip 1 1)"
	delta_is "[$m] n0 rail0 counted the 3 requests as cross_rail" 3 \
		"$n0_before" "$(tb_stat n0 cross_rail rail0)"
	delta_is "[$m] n1 rail1 counted the 3 replies as cross_rail" 3 \
		"$n1_before" "$(tb_stat n1 cross_rail rail1)"
	check "[$m] cross-rail ping n2-p2 -> n0-p1" tb_ping n2-p2 "$(tb_pod_ip 0 1)"
	check "[$m] cross-rail ping n1-p0 -> n1-p2 (same node)" tb_ping n1-p0 "$(tb_pod_ip 1 2)"
}

cross_rail_udp() {
	local m=$1 json
	if json=$(tb_iperf n1-p2 n0-p0 -u -b $UDP_RATE -t 2); then
		check "[$m] UDP n0-p0 -> n1-p2 delivered datagrams" \
			jq -e '.end.sum.packets > 0' <<<"$json"
		check "[$m] UDP loss under $MAX_UDP_LOSS_PERCENT%" \
			jq -e ".end.sum.lost_percent < $MAX_UDP_LOSS_PERCENT" <<<"$json"
	else
		fail "[$m] UDP iperf3 n0-p0 -> n1-p2 ran"
		jq -r '.error // empty' <<<"$json" | sed 's/^/# /'
	fi
}

cross_rail_tcp() {
	check "[$1] TCP n1-p2 -> n2-p0 for 2 s, received what was sent" tb_tcp_transfer n2-p0 n1-p2
}

intra_rail_stays_local() {
	local m=$1 rx_before local_before
	rx_before=$(tb_uplink_rx_total)
	local_before=$(tb_stat n0 pass_local rail1)
	check "[$m] intra-rail ping n0-p1 -> n2-p1 (3 echoes)" \
		tb exec n0-p1 ping -n -q -c 3 -i 0.2 -W 1 "$(tb_pod_ip 2 1)"
	check_eq "[$m] the switch uplinks received nothing for it" \
		"$rx_before" "$(tb_uplink_rx_total)"
	check "[$m] n0 rail1 counted it pass_local" \
		test "$(tb_stat n0 pass_local rail1)" -ge $((local_before + 3))
}

frontend_reached() {
	local m=$1 before
	before=$(tb_stat n1 frontend rail2)
	check "[$m] front-end ping from n1-p2" tb_ping n1-p2 192.168.0.10
	delta_is "[$m] n1 rail2 counted it frontend" 1 "$before" "$(tb_stat n1 frontend rail2)"
}

down_restores_scenario_2() {
	local m=$1 left
	check "[$m] railgate down on n0" tb_railgate n0 down
	left=$(find "$TB_STATE/bpffs/n0" -mindepth 1 2>/dev/null | head -3)
	check_eq "[$m] down removed n0's pins" "" "$left"
	check_fails "[$m] after down, n0-p0 -> n1-p1 times out again (Scenario 2)" \
		tb_ping n0-p0 "$(tb_pod_ip 1 1)"
	check "[$m] after down, intra-rail n0-p0 -> n1-p0 still works" \
		tb_ping n0-p0 "$(tb_pod_ip 1 0)"
	check "[$m] n1-p1 -> n2-p2 still crosses (railgate on n1, n2)" \
		tb_ping n1-p1 "$(tb_pod_ip 2 2)"
}

railgate_down_rest() {
	tb_railgate n1 down && tb_railgate n2 down
}

for mode in xdp xdp-generic tc; do
	if out=$(tb_railgate_all $NODES up $mode 2>&1); then
		ok "[$mode] railgate up on every node"
	else
		fail "[$mode] railgate up on every node"
		printf '%s\n' "$out" | tail -20 | sed 's/^/# /'
		tb_railgate_all $NODES down >/dev/null 2>&1
		continue
	fi
	check "[$mode] status reports mode $mode" status_has_mode n0 $mode
	cross_rail_icmp $mode
	cross_rail_udp $mode
	cross_rail_tcp $mode
	intra_rail_stays_local $mode
	frontend_reached $mode
	down_restores_scenario_2 $mode
	check "[$mode] railgate down on the other nodes" railgate_down_rest
done

tap_done
