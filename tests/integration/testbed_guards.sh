#!/usr/bin/env bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# railgate's guards on the testbed, in native XDP and in TC: a pod that
# spoofs another rail's source is dropped and counted `spoofed`; a routing
# loop through a representor dies on the TTL guard (`ttl_exceeded`) without
# disturbing other traffic; 9000-byte MTU jumbo frames cross rails whole;
# a rail with a VLAN reaches the switch tagged.
source "$(dirname "$0")/../lib/integration.sh" testbed

NODES=3
RAILS=3
readonly JUMBO_MTU=9000
readonly JUMBO_PAYLOAD=8000      # ICMP payload: an 8028-byte IP packet
readonly SPOOF_ADDR=10.0.1.250   # a rail-1 address put on a rail-0 pod
readonly LOOP_DST=10.0.1.99      # the /32 the switch sends round in circles
readonly LOOP_TTL=64

tb_begin $NODES $RAILS $JUMBO_MTU
if [ ! -x "$RAILGATE" ]; then
	fail "build/railgate exists (make build/railgate)"
	tap_done
	exit 1
fi

delta_is() {
	check_eq "$1" "$2" "$(($4 - $3))"
}

# A rail-0 pod (n0-p0) sends from a rail-1 address: railgate must drop it
# at n0's representor, before the uplink.
spoofed_source_dropped() {
	local m=$1 before rx_before
	check "[$m] honest cross-rail ping n0-p0 -> n2-p2 first" tb_ping n0-p0 "$(tb_pod_ip 2 2)"
	tb exec n0-p0 ip addr add "$SPOOF_ADDR/32" dev net1
	before=$(tb_stat n0 spoofed rail0)
	rx_before=$(tb_rx_packets sw up-n0)
	check_fails "[$m] ping -I $SPOOF_ADDR from the rail-0 pod gets no answer" \
		tb exec n0-p0 ping -n -q -c 3 -i 0.2 -W 1 -I "$SPOOF_ADDR" "$(tb_pod_ip 2 2)"
	delta_is "[$m] n0 rail0 counted 3 spoofed" 3 "$before" "$(tb_stat n0 spoofed rail0)"
	check_eq "[$m] no spoofed frame reached the switch" \
		"$rx_before" "$(tb_rx_packets sw up-n0)"
	tb exec n0-p0 ip addr del "$SPOOF_ADDR/32" dev net1
	check "[$m] the pod's own address still crosses" tb_ping n0-p0 "$(tb_pod_ip 2 2)"
}

# The loop: the switch routes LOOP_DST (rail 1) to pod n1-p0 (rail 0),
# which forwards it back to its gateway; n1's railgate sends it to the
# uplink as cross-rail, the switch routes it to n1-p0 again, and so on.
# Each round takes 3 from the TTL (switch, pod, railgate); from TTL 64
# railgate sees it arrive with TTL 1 and drops it: ttl_exceeded.
loop_setup() {
	tb exec n1-p0 sysctl -qw net.ipv4.ip_forward=1 \
		net.ipv4.conf.all.send_redirects=0 net.ipv4.conf.net1.send_redirects=0
	tb exec sw ip route replace "$LOOP_DST/32" via "$(tb_pod_ip 1 0)"
}

loop_teardown() {
	tb exec sw ip route del "$LOOP_DST/32"
	tb exec n1-p0 sysctl -qw net.ipv4.ip_forward=0
}

# settled NAME IF: the interface's rx counter does not move for 0.5 s.
settled() {
	local a b
	a=$(tb_rx_packets "$1" "$2")
	sleep 0.5
	b=$(tb_rx_packets "$1" "$2")
	[ "$a" = "$b" ] || { echo "$2 rx moved $a -> $b"; return 1; }
}

routing_loop_dies() {
	local m=$1 before rx_before rounds
	loop_setup
	before=$(tb_stat n1 ttl_exceeded rail0)
	rx_before=$(tb_rx_packets sw up-n1)
	check_fails "[$m] 3 pings into the loop get no answer" \
		tb exec n0-p0 ping -n -q -c 3 -i 0.2 -W 1 -t $LOOP_TTL "$LOOP_DST"
	check "[$m] the loop stops (switch uplink from n1 quiet)" settled sw up-n1
	# n1's railgate forwards each frame at TTL 61, 58, ..., 4: 20 rounds.
	rounds=$(($(tb_rx_packets sw up-n1) - rx_before))
	check "[$m] the frames did circle: 3 x 20 rounds through n1's uplink (got $rounds)" \
		test "$rounds" -ge 60 -a "$rounds" -le 63
	delta_is "[$m] n1 rail0 counted each looping frame once as ttl_exceeded" 3 \
		"$before" "$(tb_stat n1 ttl_exceeded rail0)"
	check "[$m] other cross-rail traffic undisturbed (n2-p2 -> n0-p1)" \
		tb_ping n2-p2 "$(tb_pod_ip 0 1)"
	loop_teardown
}

jumbo_crosses() {
	local m=$1 before after
	before=$(tb_railgate n0 stats --json | jq '.rails[] | select(.rail == "rail0") | .counters.cross_rail.bytes')
	check "[$m] ping -s $JUMBO_PAYLOAD -M do n0-p0 -> n1-p1 (MTU $JUMBO_MTU)" \
		tb_ping n0-p0 "$(tb_pod_ip 1 1)" -s $JUMBO_PAYLOAD -M "do"
	after=$(tb_railgate n0 stats --json | jq '.rails[] | select(.rail == "rail0") | .counters.cross_rail.bytes')
	check "[$m] n0 counted a whole jumbo frame as cross_rail bytes" \
		test $((after - before)) -ge $((JUMBO_PAYLOAD + 28))
	check "[$m] jumbo TCP n1-p2 -> n2-p0 for 2 s, received what was sent" \
		tb_tcp_transfer n2-p0 n1-p2
}

# capture_tagged VID: one echo request from n0-p0 (rail 0, tagged VID by
# n0's railgate) arrives at the switch port of n0's uplink carrying the
# tag (a capture sees it before the switch's trunk program pops it,
# docs/testbed.md).
capture_tagged() {
	local vid=$1 pcap="$TB_STATE/vlan.txt" tpid i
	ip netns exec "$TB_PREFIX-sw" timeout 5 tcpdump -l -nn -e -c 1 -Q in -i up-n0 \
		"vlan $vid and icmp" >"$pcap" 2>"$pcap.err" &
	tpid=$!
	for ((i = 0; i < 30; i++)); do
		grep -q 'listening on' "$pcap.err" 2>/dev/null && break
		sleep 0.1
	done
	tb_ping n0-p0 "$(tb_pod_ip 1 1)" >/dev/null
	wait "$tpid"
	grep -q "vlan $vid, .* > 10.0.1.11: ICMP echo request" "$pcap" ||
		{ cat "$pcap" "$pcap.err"; return 1; }
}

vlan_tagged() {
	local m=$1 cfg="$TB_STATE/railgate-n0-vlan.yaml"
	MODE=$m VLAN=1 tb config n0 >"$cfg"
	check "[$m] reload n0 with VLAN 100+r" tb_railgate n0 up -c "$cfg"
	check "[$m] rail0's cross-rail frames reach the switch tagged 100" capture_tagged 100
	check "[$m] reload n0 untagged" tb_railgate_up n0 "$m"
	check "[$m] untagged again: n0-p0 -> n1-p1 answers" tb_ping n0-p0 "$(tb_pod_ip 1 1)"
}

for mode in xdp tc; do
	if out=$(tb_railgate_all $NODES up $mode 2>&1); then
		ok "[$mode] railgate up on every node (MTU $JUMBO_MTU)"
	else
		fail "[$mode] railgate up on every node (MTU $JUMBO_MTU)"
		printf '%s\n' "$out" | tail -20 | sed 's/^/# /'
		tb_railgate_all $NODES down >/dev/null 2>&1
		continue
	fi
	spoofed_source_dropped $mode
	routing_loop_dies $mode
	jumbo_crosses $mode
	vlan_tagged $mode
	check "[$mode] railgate down on every node" tb_railgate_all $NODES down
done

tap_done
