#!/usr/bin/env bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# `make demo`: the cross-rail failures of docs/failure-scenarios.md on a namespace cluster, and
# railgate fixing them, then railgate doctor diagnosing a broken pod.  About a minute; every packet is bounded (ping -c N
# -W 1); the cluster is torn down on exit, on failure and on Ctrl-C.
#   NODES=16 RAILS=8 by default; DEMO_PAUSE=SECS between screens (default 3).
set -euo pipefail

REPO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
readonly REPO_DIR
readonly TB="$REPO_DIR/tools/testbed/testbed.sh"
readonly RAILGATE="$REPO_DIR/build/railgate"
export NODES=${NODES:-16}
export RAILS=${RAILS:-8}
export TB_PREFIX=${TB_PREFIX:-rgdemo$(od -An -N2 -tx1 /dev/urandom | tr -d ' \n')}
export TB_OWNER_PID=$$
readonly PAUSE=${DEMO_PAUSE:-3}
# Pods that send the cross-rail sample: every rail of these nodes pings
# every other rail of the next node.
mapfile -t SAMPLE_NODES < <(printf '%s\n' 0 $((NODES / 2)) $((NODES - 1)) | sort -un)
readonly SAMPLE_NODES
# The rail of the intra-rail screen: rail 3 when there is one (any rail would do).
readonly INTRA_RAIL=$((RAILS > 3 ? 3 : RAILS - 1))

tb() { "$TB" "$@"; }
pod_ip() { echo "10.0.$2.$((10 + $1))"; }   # node rail

screen() {
	sleep "$PAUSE"
	printf '\n\033[1m== %s ==\033[0m\n' "$*"
}

# show CMD...: print the command, run it; a failure is shown, not fatal.
show() {
	local rc=0 cmd="$*"
	cmd=${cmd/#"$TB"/testbed.sh}
	cmd=${cmd//"$RAILGATE"/railgate}
	printf '\033[2m$ %s\033[0m\n' "$cmd"
	"$@" || rc=$?
	[ $rc -eq 0 ] || echo "FAILED (exit $rc)"
}

teardown() {
	local rc=$?
	trap - EXIT INT TERM
	echo
	echo "tearing down $TB_PREFIX ..."
	tb down || true
	exit "$rc"
}

# A ping that is expected to fail: show its last words, never abort.
ping_fails() {
	local from=$1 dst=$2 out
	printf '\033[2m$ testbed.sh exec %s ping -c 2 -W 1 %s\033[0m\n' "$from" "$dst"
	if out=$(tb exec "$from" ping -n -c 2 -W 1 "$dst" 2>&1); then
		echo "$out"
		echo "UNEXPECTED: the ping answered"
		return 1
	fi
	grep -E 'unreachable|packet loss' <<<"$out" | tail -1
}

topology() {
	screen "Topology: $NODES nodes x $RAILS rails in network namespaces ($TB_PREFIX-*)"
	cat <<EOF
  pod  n<n>-p<r>   one pod per GPU, net1 = 10.0.<r>.<10+n>/24 (rail r)
  node n<n>        pf<r>vf0 (VF representor) + rail<r> in bridge br<r>  (the NIC eswitch)
                   uplink0 10.1.255.<10+n>/24 to the computenet switch
  fab              one bridge per rail joining every node's rail<r>     (rail switches)
  sw               computenet switch: 10.0.<r>.1 on each rail, 10.1.255.1 on the uplinks,
                   192.168.0.1 to the front-end; it does not route rail to rail
                   on its rail ports (Scenario 2), only traffic from uplinks
  fe               front-end host 192.168.0.10
EOF
	echo "  $(ip netns list | grep -c "^$TB_PREFIX-") namespaces up."
}

scenario_1() {
	screen "Scenario 1: pods without the supernet route"
	TB_QUIET=1 tb routes none
	show "$TB" exec n0-p0 ip route
	ping_fails n0-p0 "$(pod_ip 1 1)"
}

scenario_2() {
	screen "Scenario 2: the route is there (10.0.0.0/16 via the rail gateway), no accelerator"
	TB_QUIET=1 tb routes supernet
	show "$TB" exec n0-p0 ip route
	ping_fails n0-p0 "$(pod_ip 1 1)"
	echo "(the switch receives it on its rail-0 port and will not route it to rail 1)"
}

railgate_up_everywhere() {
	local n cfg start=$SECONDS
	screen "railgate up on every node"
	for ((n = 0; n < NODES; n++)); do
		cfg="$TB_STATE/railgate-n$n.yaml"
		tb config "n$n" >"$cfg"
		tb exec "n$n" "$RAILGATE" up -c "$cfg" >/dev/null
	done
	echo "railgate is up on $NODES nodes ($((SECONDS - start)) s), each with this config:"
	printf '\033[2m$ %s\033[0m\n' "testbed.sh config n0   (rails 2 and up elided)"
	# Two rails tell the shape; the rest differ only in their numbers.
	tb config n0 | awk '/- name: rail2$/ { skip = 1; print "    # ... rail2 to rail'"$((RAILS - 1))"' alike" }
		/^  datapath:/ { skip = 0 } !skip'
	echo "Node 0 chose its attach modes:"
	show "$TB" exec n0 "$RAILGATE" status
}

cross_rail_now() {
	screen "The same ping, now"
	show "$TB" exec n0-p0 ping -n -c 2 -W 1 "$(pod_ip 1 1)"
}

# Every rail of a few nodes to every other rail of the next node, one
# bounded ping each, the sources in parallel.
cross_rail_sample() {
	local dir="$TB_STATE/sample" n s d next pairs=0 passed
	screen "A sample of cross-rail pairs"
	mkdir -p "$dir"
	for n in "${SAMPLE_NODES[@]}"; do
		next=$(((n + 1) % NODES))
		for ((s = 0; s < RAILS; s++)); do
			(
				for ((d = 0; d < RAILS; d++)); do
					[ "$d" -eq "$s" ] && continue
					if tb exec "n$n-p$s" ping -n -q -c 1 -W 1 "$(pod_ip "$next" "$d")" >/dev/null 2>&1; then
						echo "ok n$n-p$s -> n$next-p$d"
					else
						echo "FAIL n$n-p$s -> n$next-p$d"
					fi
				done >"$dir/n$n-p$s"
			) &
			pairs=$((pairs + RAILS - 1))
		done
	done
	wait
	passed=$(cat "$dir"/* | grep -c '^ok ' || true)
	grep -h '^FAIL' "$dir"/* | head -5 || true
	echo "$passed of $pairs cross-rail pairs answered (nodes ${SAMPLE_NODES[*]}, every rail to every other rail of the next node)"
}

# The 8-GPU job: a pod with a VF on every rail on nodes 0 and 1, wired
# through the real CNI chain (host-device, static IPAM, railgate-cni) by
# libcni, one chain per rail as Multus runs them.
all_rails_pods() {
	screen "An all-rails pod (a VF on every rail) on n0 and n1, through the CNI chain"
	show "$TB" pod add n0 all
	show "$TB" pod add n1 all
	echo "Each rail interface has its own table and a rule for its address:"
	show "$TB" exec n0-all ip rule
	show "$TB" exec n0-all ip route show table 1001
}

# Every rail of n0's all-rails pod to every rail of n1's, the socket bound
# to the source rail's address (as NCCL binds it), the rows in parallel.
all_rails_matrix() {
	local dir="$TB_STATE/matrix" s d row passed
	screen "The all-rails pod: each rail, bound to its address, to every rail of node 1"
	mkdir -p "$dir"
	for ((s = 0; s < RAILS; s++)); do
		(
			row=$(printf 'from 10.0.%d.150 ' "$s")
			for ((d = 0; d < RAILS; d++)); do
				if tb exec n0-all ping -n -q -c 1 -W 1 -I "10.0.$s.150" "10.0.$d.151" >/dev/null 2>&1; then
					row+=" ok"
				else
					row+=" --"
				fi
			done
			echo "$row"
		) >"$dir/$s" &
	done
	wait
	printf '%-17s' "to 10.0.<r>.151:"
	for ((d = 0; d < RAILS; d++)); do printf ' r%d' "$d"; done
	echo
	for ((s = 0; s < RAILS; s++)); do cat "$dir/$s"; done
	passed=$(cat "$dir"/* | grep -o ' ok' | wc -l)
	echo "$passed of $((RAILS * RAILS)) rail pairs answered, each leaving by its own rail (off-diagonal: cross-rail through railgate)"
}

uplink_rx_total() {
	ip -n "$TB_PREFIX-sw" -s -j link show master cnet | jq '[.[] | .stats64.rx.packets] | add'
}

intra_rail() {
	local before after
	screen "Intra-rail traffic stays on the rail"
	before=$(uplink_rx_total)
	show "$TB" exec "n0-p$INTRA_RAIL" ping -n -q -c 3 -i 0.2 -W 1 "$(pod_ip $((NODES - 1)) "$INTRA_RAIL")"
	after=$(uplink_rx_total)
	echo "packets the switch received from all node uplinks meanwhile: $((after - before))"
}

front_end() {
	screen "The front-end network from a pod"
	show "$TB" exec n0-p0 ping -n -c 2 -W 1 192.168.0.10
}

stats() {
	screen "railgate stats on node 0"
	show "$TB" exec n0 "$RAILGATE" stats
}

# railgate doctor on a broken pod: n0's all-rails pod gets its first rail
# attached again through a chain without railgate-cni (Scenario 3, as
# testbed.sh break 3 does it); doctor names it, the fix it prints is run
# as is, doctor passes.
doctor_cmd() {
	tb exec n0 "$RAILGATE" doctor -c "$TB_STATE/doctor-n0.yaml" --netns "$TB_PREFIX-n0-all" \
		--cni-results "$TB_STATE/cni/cache/results" --sample 0.5 "$@"
}
doctor_shown() {
	local out rc=0
	printf '\033[2m$ testbed.sh exec n0 railgate doctor -c doctor-n0.yaml --netns %s-n0-all --cni-results ...\033[0m\n' "$TB_PREFIX"
	out=$(doctor_cmd) || rc=$?
	grep -v '^ok ' <<<"$out" | cut -c1-180 || true
	echo "(exit $rc; the ok lines are left out)"
}
doctor() {
	local fix
	screen "railgate doctor: a pod attached without railgate-cni (Scenario 3)"
	{
		cat "$TB_STATE/railgate-n0.yaml"
		echo "  probe:"
		# node 1's pods on its first and last rail (distinct for any RAILS >= 2,
		# which the demo needs), and the front-end
		echo "    targets: [$(pod_ip 1 0), $(pod_ip 1 $((RAILS - 1))), 192.168.0.10]"
	} >"$TB_STATE/doctor-n0.yaml"
	show "$TB" break 3 n0-all
	doctor_shown
	# doctor exits 1 while something fails: the JSON is what counts here
	fix=$(doctor_cmd --json | jq -r 'first(.checks[] | select(.status == "fail" and .fix.command != null) | .fix.command) // ""') || true
	echo "The fix doctor printed, run as is:"
	[ -n "$fix" ] && show "$TB" exec n0 sh -c "$fix"
	doctor_shown
}

main() {
	"$REPO_DIR/tools/install-deps.sh"
	[ -x "$RAILGATE" ] || { echo "demo: $RAILGATE is missing: run make" >&2; exit 1; }
	trap teardown EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	export TB_STATE=/run/railgate-testbed/$TB_PREFIX
	TB_QUIET=0 tb up >/dev/null
	topology
	all_rails_pods
	scenario_1
	scenario_2
	railgate_up_everywhere
	cross_rail_now
	cross_rail_sample
	all_rails_matrix
	intra_rail
	front_end
	stats
	doctor
}

main "$@"
