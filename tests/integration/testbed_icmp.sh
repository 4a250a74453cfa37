#!/usr/bin/env bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# railgate's ICMP errors on the testbed, in native XDP and in TC: Debian's
# `traceroute -n` and `tracepath -n` from a pod across rails show railgate
# (the node's uplink address) as hop 1, a pod with rp_filter 1 takes them
# through the route back railgate-cni gives it (and not without it), and a
# 9000-byte pod behind a 1500-byte uplink learns the smaller path MTU from
# railgate's Fragmentation Needed.
source "$(dirname "$0")/../lib/integration.sh" testbed

NODES=2
RAILS=2
readonly JUMBO_MTU=9000
readonly UPLINK_MTU=1500
readonly SRC_POD=n0-p0
readonly HOP1=10.1.255.10          # n0's uplink0: railgate's ICMP source
DST=$(tb_pod_ip 1 1)
readonly DST

tb_begin $NODES $RAILS $JUMBO_MTU
if [ ! -x "$RAILGATE" ] || ! command -v traceroute >/dev/null || ! command -v tracepath >/dev/null; then
	fail "build/railgate, traceroute and tracepath exist (make; tools/install-deps.sh)"
	tap_done
	exit 1
fi

# n0's uplink (and the switch port facing it) at 1500, every pod at 9000;
# the source pod checks the reverse path strictly.
tb exec n0 ip link set dev uplink0 mtu $UPLINK_MTU
tb exec sw ip link set dev up-n0 mtu $UPLINK_MTU
tb exec $SRC_POD sysctl -qw net.ipv4.conf.all.rp_filter=1 net.ipv4.conf.net1.rp_filter=1

# hop1 CMD...: the first hop line of traceroute/tracepath output names HOP1.
traceroute_hop1() {
	local out
	out=$(tb exec $SRC_POD timeout 15 traceroute -n -q 1 -w 1 -m 3 "$DST" 2>&1)
	printf '%s\n' "$out" | sed 's/^/# /' >&2
	grep -Eq "^ 1  $HOP1 " <<<"$out"
}

tracepath_hop1() {
	local out
	out=$(tb exec $SRC_POD timeout 15 tracepath -n -m 3 "$DST" 2>&1)
	printf '%s\n' "$out" | sed 's/^/# /' >&2
	grep -Eq "^ 1:  $HOP1 " <<<"$out"
}

# The pod learns the uplink's MTU: ping -M do with 3000 bytes is refused
# with railgate's Fragmentation Needed, and the route cache then holds it.
learns_pmtu() {
	local out
	tb exec $SRC_POD ip route flush cache
	out=$(tb exec $SRC_POD ping -n -c 2 -i 0.3 -W 1 -M do -s 3000 "$DST" 2>&1)
	printf '%s\n' "$out" | sed 's/^/# /' >&2
	grep -q "From $HOP1 .*mtu = $UPLINK_MTU" <<<"$out" || return 1
	tb exec $SRC_POD ip route get "$DST" | grep -q "mtu $UPLINK_MTU"
}

tracepath_pmtu() {
	local out
	tb exec $SRC_POD ip route flush cache
	out=$(tb exec $SRC_POD timeout 15 tracepath -n -m 3 "$DST" 2>&1)
	printf '%s\n' "$out" | sed 's/^/# /' >&2
	grep -q "pmtu $UPLINK_MTU" <<<"$out" && grep -q "reached" <<<"$out"
}

side() {
	tb_railgate n0 stats --json | jq -r --arg s "$1" '.side[$s].packets'
}

for mode in xdp tc; do
	if out=$(tb_railgate_all $NODES up $mode 2>&1); then
		ok "[$mode] railgate up on every node (uplink of n0 at $UPLINK_MTU)"
	else
		fail "[$mode] railgate up on every node"
		printf '%s\n' "$out" | tail -20 | sed 's/^/# /'
		tb_railgate_all $NODES down >/dev/null 2>&1
		continue
	fi
	sent=$(side icmp_sent)
	ttl=$(tb_stat n0 ttl_exceeded rail0)
	check "[$mode] traceroute -n $SRC_POD -> $DST: hop 1 is $HOP1" traceroute_hop1
	check "[$mode] tracepath -n $SRC_POD -> $DST: hop 1 is $HOP1" tracepath_hop1
	check "[$mode] n0 counted the expired probes ttl_exceeded" \
		test "$(tb_stat n0 ttl_exceeded rail0)" -gt "$ttl"
	check "[$mode] n0 counted icmp_sent" test "$(side icmp_sent)" -gt "$sent"
	too_big=$(tb_stat n0 too_big rail0)
	check "[$mode] a $JUMBO_MTU-byte pod learns the uplink's MTU $UPLINK_MTU (ping -M do)" learns_pmtu
	check "[$mode] tracepath finds pmtu $UPLINK_MTU and reaches $DST" tracepath_pmtu
	check "[$mode] n0 counted too_big" test "$(tb_stat n0 too_big rail0)" -gt "$too_big"
	check "[$mode] after the MTU is learnt, DF pings of 1400 bytes cross" \
		tb_ping $SRC_POD "$DST" -s 1400 -M "do"
	# Without the route back, rp_filter 1 drops the answer: the route matters.
	tb exec $SRC_POD ip route del "$HOP1/32"
	check_fails "[$mode] without the route to $HOP1, rp_filter 1 drops the answer" traceroute_hop1
	tb exec $SRC_POD ip route replace "$HOP1/32" via 10.0.0.1 dev net1
	tb_railgate_all $NODES down >/dev/null 2>&1
done

tap_done
