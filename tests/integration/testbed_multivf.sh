#!/usr/bin/env bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Multi-VF pods, the shape GPU clusters run most: an all-rails pod (a VF on
# every rail, the 8-GPU pod) and a two-rail pod on each node, wired through
# the real CNI chain (Debian's host-device and static IPAM, then
# railgate-cni) by libcni itself, one conflist per rail as Multus runs them,
# in any order.  With railgate on the nodes, every rail interface reaches
# every rail of the other node, same-node pods on other rails and the
# front-end, with ICMP, UDP and TCP, sockets bound to the rail's address,
# bound to its device, and unbound; each by its expected path, never
# dropped as spoofed.  Then CHECK, DEL in any order, a pod whose table ids
# are taken, and a hardened pod with all.rp_filter=1.
#
# The full matrix is small here (2 nodes x 3 rails): it runs whole in
# `make test`.  MULTIVF_RAILS=8 runs the 8-rail shape (make test-full).
source "$(dirname "$0")/../lib/integration.sh" testbed

NODES=2
RAILS=${MULTIVF_RAILS:-3}
PORT=7777
SP=$TB_REPO/build/sockprobe
tb_begin $NODES $RAILS

in_pod() { local pod=$1; shift; ip netns exec "$TB_PREFIX-$pod" "$@"; }
rules_of() { ip -n "$TB_PREFIX-$1" -4 rule show | grep ' proto 82' | sed 's/ *$//'; }
routes82_of() { ip -n "$TB_PREFIX-$1" -4 route show table all proto 82 | sed 's/ *$//'; }

# The rails a pod holds and its address on each (the testbed's plan).
pod_rails() {
	case "$1" in
	*-all) seq 0 $((RAILS - 1)) ;;
	*-two) seq $((RAILS - 2)) $((RAILS - 1)) ;;
	esac
}
pod_addr() {   # pod_addr POD RAIL
	local node=${1%%-*} host
	case "$1" in *-all) host=150 ;; *-two) host=200 ;; esac
	echo "10.0.$2.$((host + ${node#n}))"
}
# (not `pod_rails | grep -q`: under pipefail grep's early exit can SIGPIPE seq)
has_rail() { [[ " $(pod_rails "$1" | tr '\n' ' ') " == *" $2 "* ]]; }
lowest_rail() { pod_rails "$1" | head -1; }

# ---- the pods, through libcni --------------------------------------------

out=$(tb pod add n0 all 2>&1) && ok "n0: an all-rails pod through libcni, rails in order" ||
	{ fail "n0: an all-rails pod through libcni, rails in order"; printf '%s\n' "$out" | tail -5 | sed 's/^/# /'; }
order=$(seq $((RAILS - 1)) -1 0 | tr '\n' ' ')
check "n1: an all-rails pod, attachments in reverse order ($order)" tb pod add n1 all $order
check "n0: a two-rail pod" tb pod add n0 two
# A hardened image: strict reverse-path filtering before the chain runs.
ip netns add "$TB_PREFIX-n1-two" && ip -n "$TB_PREFIX-n1-two" link set lo up &&
	in_pod n1-two sysctl -qw net.ipv4.conf.all.rp_filter=1 net.ipv4.conf.default.rp_filter=1 \
		net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
check "n1: a two-rail pod in a namespace with all.rp_filter=1" tb pod add n1 two
want="" got=""
for r in $(pod_rails n1-two); do
	want+="2 1 2;"
	got+="$(in_pod n1-two sysctl -n net.ipv4.conf.net$r.rp_filter net.ipv4.conf.net$r.arp_ignore net.ipv4.conf.net$r.arp_announce | tr '\n' ' ' | sed 's/ $//');"
done
check_eq "n1-two: loose rp_filter, arp_ignore 1, arp_announce 2 on each rail interface" "$want" "$got"

want="" 
for r in $(pod_rails n0-all); do want+="$((1000 + r)):	from $(pod_addr n0-all "$r") lookup $((1000 + r)) proto 82;"; done
check_eq "n0-all: one rule per rail, table and priority 1000 + the rail's index" "$want" "$(rules_of n0-all | tr '\n' ';')"
check "CHECK through libcni passes on the all-rails pod" tb pod check n0 all
check "CHECK through libcni passes on the two-rail pod" tb pod check n1 two

# The way back for railgate's ICMP errors: n0's uplink address (the
# config has no icmpSource) via each rail's gateway, in main and the rail's table.
icmp_routes_of() {
	local r
	for r in $(pod_rails n0-all); do
		tb exec n0-all ip -4 route show 10.1.255.10/32 dev "net$r" | grep -c "via 10.0.$r.1"
		tb exec n0-all ip -4 route show table $((1000 + r)) 10.1.255.10/32 | grep -c "via 10.0.$r.1"
	done | paste -sd' '
}
want=$(for r in $(pod_rails n0-all); do echo "1 1"; done | paste -sd' ')
check_eq "n0-all: a route to n0's uplink address (the ICMP source) via each rail, main and rail table" \
	"$want" "$(icmp_routes_of)"

# ---- ip route get: every (source, device, destination) -------------------

# expect_way POD MODE RAIL DST DSTRAIL: "via GW dev IF" or "dev IF".
expect_way() {
	local pod=$1 mode=$2 i=$3 dst_rail=$5 r
	if [ "$mode" = unbound ]; then
		if [ -n "$dst_rail" ] && has_rail "$pod" "$dst_rail"; then
			echo "dev net$dst_rail"
			return
		fi
		r=$(lowest_rail "$pod")
		echo "via 10.0.$r.1 dev net$r"
	elif [ "$dst_rail" = "$i" ]; then
		echo "dev net$i"
	else
		echo "via 10.0.$i.1 dev net$i"
	fi
}

# way_of "ip route get" output: the same two words.
way_of() {
	sed -n '1{s/.* via \([0-9.]*\) dev \([^ ]*\).*/via \1 dev \2/p;t;s/.* dev \([^ ]*\).*/dev \1/p}'
}

route_get_matrix() {
	local pod=$1 bad=0 n=0 i j dst got want
	for j in $(seq 0 $((RAILS - 1))) fe; do
		if [ "$j" = fe ]; then dst=192.168.0.10 dr=""; else dst=10.0.$j.77 dr=$j; fi
		for i in $(pod_rails "$pod"); do
			got=$(ip -n "$TB_PREFIX-$pod" route get "$dst" from "$(pod_addr "$pod" "$i")" | way_of)
			want=$(expect_way "$pod" addr "$i" "$dst" "$dr")
			n=$((n + 1))
			[ "$got" = "$want" ] || { bad=$((bad + 1)); echo "# from $(pod_addr "$pod" "$i") to $dst: $got, want $want"; }
			got=$(ip -n "$TB_PREFIX-$pod" route get "$dst" oif "net$i" | way_of)
			want=$(expect_way "$pod" dev "$i" "$dst" "$dr")
			n=$((n + 1))
			[ "$got" = "$want" ] || { bad=$((bad + 1)); echo "# oif net$i to $dst: $got, want $want"; }
		done
		got=$(ip -n "$TB_PREFIX-$pod" route get "$dst" | way_of)
		want=$(expect_way "$pod" unbound "" "$dst" "$dr")
		n=$((n + 1))
		[ "$got" = "$want" ] || { bad=$((bad + 1)); echo "# unbound to $dst: $got, want $want"; }
	done
	echo "# $pod: $n route lookups, $bad wrong"
	[ "$bad" -eq 0 ]
}
check "ip route get: the all-rails pod, every source, device and destination" route_get_matrix n0-all
check "ip route get: the two-rail pod" route_get_matrix n0-two

# ---- traffic -------------------------------------------------------------

check "railgate up on every node" tb_railgate_all $NODES up tc
for srv in n1-all n1-two fe $(for j in $(seq 0 $((RAILS - 1))); do echo "n0-p$j"; done); do
	in_pod "$srv" timeout 150 "$SP" serve $PORT 140 >/dev/null 2>&1 &
done
servers_up() {
	local srv
	for srv in n1-all n1-two fe n0-p0; do tb_wait_listen "$srv" $PORT || return 1; done
}
check "echo servers listen" servers_up

# targets: "LABEL ADDRESS DSTRAIL" (DSTRAIL empty for the front-end)
targets() {
	local j
	for j in $(seq 0 $((RAILS - 1))); do echo "n1-all:net$j $(pod_addr n1-all "$j") $j"; done
	for j in $(pod_rails n1-two); do echo "n1-two:net$j $(pod_addr n1-two "$j") $j"; done
	for j in $(seq 0 $((RAILS - 1))); do echo "n0-p$j(same-node) 10.0.$j.10 $j"; done
	echo "front-end 192.168.0.10 "
}

# stat_sum NODE STAT [RAIL]
stat_of() { tb_stat "$@" 2>/dev/null || echo 0; }

# probe POD MODE RAIL PROTO DST: 0 when the answer comes back from the
# source the mode must use.
probe() {
	local pod=$1 mode=$2 i=$3 proto=$4 dst=$5 dr=$6 want_src bind=()
	case "$mode" in
	addr) bind=(--src "$(pod_addr "$pod" "$i")"); want_src=$(pod_addr "$pod" "$i") ;;
	dev) bind=(--dev "net$i"); want_src=$(pod_addr "$pod" "$i") ;;
	unbound)
		if [ -n "$dr" ] && has_rail "$pod" "$dr"; then want_src=$(pod_addr "$pod" "$dr")
		else want_src=$(pod_addr "$pod" "$(lowest_rail "$pod")"); fi ;;
	esac
	if [ "$proto" = icmp ]; then
		local pb=()
		[ "$mode" = addr ] && pb=(-I "$(pod_addr "$pod" "$i")")
		[ "$mode" = dev ] && pb=(-I "net$i")
		in_pod "$pod" ping -n -q -c 1 -W 1 "${pb[@]}" "$dst" >/dev/null 2>&1
		return
	fi
	[ "$(in_pod "$pod" "$SP" "$proto" "$dst" $PORT "${bind[@]}" --timeout 1000 2>/dev/null)" = "from $want_src" ]
}

# matrix POD: every target, every mode and protocol; prints the
# reachability matrix.
matrix() {
	local pod=$1 label dst dr i mode proto cell row bad=0 total=0
	echo "# $pod reachability: icmp/udp/tcp, bound to the rail's address | bound to its device"
	while read -r label dst dr; do
		row=$(printf '%-22s' "$label")
		for i in $(pod_rails "$pod"); do
			cell=""
			for mode in addr dev; do
				for proto in icmp udp tcp; do
					total=$((total + 1))
					if probe "$pod" "$mode" "$i" "$proto" "$dst" "$dr"; then cell+="+"
					else cell+="-"; bad=$((bad + 1)); fi
				done
				[ "$mode" = addr ] && cell+="|"
			done
			row+=" net$i $cell"
		done
		cell=""
		for proto in icmp udp tcp; do
			total=$((total + 1))
			if probe "$pod" unbound "" "$proto" "$dst" "$dr"; then cell+="+"
			else cell+="-"; bad=$((bad + 1)); fi
		done
		echo "# $row  unbound $cell"
	done < <(targets)
	echo "# $pod: $((total - bad)) of $total probes arrived from the expected source"
	[ "$bad" -eq 0 ]
}

# The bound probes that cross rails leave by their own rail: railgate on
# that rail's representor counts them cross_rail (or frontend), and nothing
# is dropped as spoofed anywhere.
# Per rail i: 6 bound probes (3 protocols x address/device) to every target
# not on rail i, each at least one frame through railgate on rail i.
crossed_by_rail() {
	local pod=$1 i before after want bad=0
	for i in $(pod_rails "$pod"); do
		want=$(( 6 * $(targets | awk -v i="$i" '$3 != i' | wc -l) ))
		after=$(( $(stat_of n0 cross_rail "rail$i") + $(stat_of n0 frontend "rail$i") ))
		before=${BASE[$i]}
		echo "# rail$i: $((after - before)) frames forwarded by railgate, at least $want expected"
		[ $((after - before)) -ge "$want" ] || bad=1
	done
	return $bad
}
declare -A BASE
snapshot() {
	local i
	for i in $(seq 0 $((RAILS - 1))); do
		BASE[$i]=$(( $(stat_of n0 cross_rail "rail$i") + $(stat_of n0 frontend "rail$i") ))
	done
}

# check_shown NAME CMD...: like check, but the command's output (the
# matrix) always goes to the log.
check_shown() {
	local name=$1
	shift
	if "$@"; then ok "$name"; else fail "$name"; fi
}
snapshot
check_shown "all-rails pod: every rail reaches every target, bound to address, device, or unbound" matrix n0-all
check_shown "all-rails pod: each rail's bound cross-rail probes went through railgate on that rail" crossed_by_rail n0-all
snapshot
check_shown "two-rail pod: every rail reaches every target" matrix n0-two
check_shown "two-rail pod: its bound cross-rail probes went through railgate on their rail" crossed_by_rail n0-two
check_eq "nothing was dropped as spoofed on either node" "0 0" "$(stat_of n0 spoofed) $(stat_of n1 spoofed)"
check "the hardened pod (all.rp_filter=1) answers every rail of the all-rails pod" \
	bash -c 'for r in $(seq 0 '"$((RAILS - 1))"'); do ip netns exec '"$TB_PREFIX"'-n0-all ping -n -q -c 1 -W 1 -I 10.0.$r.150 '"$(pod_addr n1-two $((RAILS - 1)))"' >/dev/null || exit 1; done'

# ---- CHECK and DEL, one interface at a time --------------------------------

mid=$((RAILS - 2))
ip -n "$TB_PREFIX-n0-all" rule del priority $((1000 + mid))
out=$(tb pod check n0 all $mid 2>&1)
check_eq "CHECK fails when one rule is gone" "1|yes" \
	"$?|$(grep -q "rule from $(pod_addr n0-all $mid)/32" <<<"$out" && echo yes)"
check "DEL of that one interface through libcni" tb pod del n0 all $mid
check "ADD it again through libcni" tb pod add n0 all $mid
check "CHECK passes again" tb pod check n0 all
ip -n "$TB_PREFIX-n0-all" route del 10.0.0.0/16 table 1000
out=$(tb pod check n0 all 0 2>&1)
check_eq "CHECK fails when one table route is gone" "1|yes" \
	"$?|$(grep -q "table 1000 is missing" <<<"$out" && echo yes)"
ip -n "$TB_PREFIX-n0-all" route del 10.0.0.0/16 metric $((1000 + mid))
# (host-device, first in the chain, already checks the result's main
# routes; railgate's own CHECK of them is in cni_plugin.sh)
out=$(tb pod check n0 all $mid 2>&1)
check_eq "CHECK fails when one main route is gone" "1|yes" \
	"$?|$(grep -qE "10.0.0.0/16 via 10.0.$mid.1 dev net$mid is missing|Route \{Dst:\{IP:10.0.0.0 Mask:ffff0000\} GW:10.0.$mid.1\} not found" <<<"$out" && echo yes)"

last=$((RAILS - 1))
check "two-rail pod: DEL of its last rail first" tb pod del n0 two $last
check_eq "the other rail keeps its rule" "$((1000 + mid)):	from $(pod_addr n0-two $mid) lookup $((1000 + mid)) proto 82" \
	"$(rules_of n0-two)"
check "the other rail still crosses rails bound to its address" \
	in_pod n0-two ping -n -q -c 1 -W 1 -I "$(pod_addr n0-two $mid)" "$(pod_addr n1-all 0)"
check "two-rail pod: DEL of the other rail" tb pod del n0 two $mid
check_eq "two-rail pod: no railgate rule or route is left" "|" "$(rules_of n0-two)|$(routes82_of n0-two)"
check "all-rails pod on n1: DEL in a shuffled order" tb pod del n1 all 1 $last 0 $(seq 2 $((RAILS - 2)))
check_eq "all-rails pod on n1: no railgate rule or route is left" "|" "$(rules_of n1-all)|$(routes82_of n1-all)"

# ---- a pod whose table ids are taken ----------------------------------------
# (an application or another plugin uses table 1000 + mid): the default
# onConflict refuses with code 100 naming the table; with onConflict warn
# the rail takes the next free table and works.
ip -n "$TB_PREFIX-n0-two" route add 10.99.0.0/16 dev lo table $((1000 + mid))
check "two-rail pod: its other rail first" tb pod add n0 two $last
out=$(tb pod add n0 two $mid 2>&1)
check_eq "a taken table is refused (code 100, the table named)" "1|yes" \
	"$?|$(grep -q "routing table $((1000 + mid)) already holds routes" <<<"$out" && echo yes)"
tb pod del n0 two $mid >/dev/null 2>&1
conf=$TB_STATE/cni/conf/n0-two-rail$mid.conflist
jq '.plugins[1].onConflict = "warn"' "$conf" >"$conf.tmp" && mv "$conf.tmp" "$conf"
check "with onConflict warn the ADD goes through" tb pod add n0 two $mid
free=$(rules_of n0-two | sed -n "s/^$((1000 + mid)):.* lookup \([0-9]*\) .*/\1/p")
check_eq "the rail took a free table, not its own and not its neighbour's" "yes" \
	"$([ -n "$free" ] && [ "$free" != $((1000 + mid)) ] && [ "$free" != $((1000 + last)) ] && echo yes)"
check "bound to that rail's address it still crosses rails" \
	in_pod n0-two ping -n -q -c 1 -W 1 -I "$(pod_addr n0-two $mid)" "$(pod_addr n1-two $last)"
check "CHECK passes through libcni" tb pod check n0 two

# ---- the shipped NetworkAttachmentDefinitions ---------------------------------
# deploy/nad-railgate.yaml's railgate plugins (rail0 by railConfig, rail1
# inline) chained on one pod holding both rails: what an operator deploys.
nad_railgate() {   # nad_railgate N: the railgate plugin of the N-th NAD, 1-based
	awk -v want="$1" '/^  config: \|/ { n++; grab = (n == want); next } /^---/ { grab = 0 } grab' \
		deploy/nad-railgate.yaml | jq -c --arg rc "$TB_STATE/cni/rails.yaml" \
		'.plugins[] | select(.type == "railgate") | if .railConfig then .railConfig = $rc else . end'
}
nad_ok=1
tb pod del n0 all 0 1 >/dev/null 2>&1 || nad_ok=0
for r in 0 1; do
	conf=$TB_STATE/cni/conf/n0-all-rail$r.conflist
	plugin=$(nad_railgate $((r + 1))) && [ -n "$plugin" ] || nad_ok=0
	jq --argjson p "${plugin:-null}" '.plugins[1] = $p' "$conf" >"$conf.tmp" && mv "$conf.tmp" "$conf"
done
check_eq "the shipped NADs' railgate plugins were read" 1 "$nad_ok"
check "the shipped NADs chain on a pod holding rail0 and rail1" tb pod add n0 all 0 1
for r in 0 1; do
	check "shipped NAD rail$r: bound to its address, the pod reaches rail $((1 - r)) of the other node" \
		in_pod n0-all ping -n -q -c 1 -W 1 -I "$(pod_addr n0-all $r)" "$(pod_addr n1-two $((RAILS - 1)))"
done
check "CHECK passes with the shipped NADs" tb pod check n0 all 0 1

tap_done
