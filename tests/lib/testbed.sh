# shellcheck shell=bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Helpers for integration tests on the namespace testbed
# (tools/testbed/testbed.sh).  Source it after tests/lib/tap.sh, then call
# tb_begin with the testbed size.  All traffic is bounded: ping -c N -W 1,
# iperf3 with -t/-n and timeouts.

TB_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TB="$TB_REPO/tools/testbed/testbed.sh"
RAILGATE="$TB_REPO/${RG_BUILD:-build}/railgate"
# A prefix unique to this test process: rgt<pid>.
export TB_PREFIX="rgt$$"
export TB_STATE="/run/railgate-testbed/$TB_PREFIX"
export TB_QUIET=1

tb() { "$TB" "$@"; }

# Further testbeds a test brings up (prefix TB_PREFIX<suffix>), also
# removed on exit.
TB_EXTRA_SUFFIXES=()

# tb_teardown: remove this test's testbeds (idempotent).  The preamble
# (tests/lib/integration.sh) runs it on exit.
tb_teardown() {
	local s
	tb down >/dev/null 2>&1 || true
	for s in "${TB_EXTRA_SUFFIXES[@]}"; do
		TB_PREFIX=$TB_PREFIX$s TB_STATE=$TB_STATE$s tb down >/dev/null 2>&1 || true
	done
}

# The EXIT trap of a script that sources this file without the preamble.
tb_cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	tb_teardown
	exit "$rc"
}

# tb_begin NODES RAILS [MTU]: bring a testbed up, torn down when the test
# exits, passes or fails.  Prints a TAP line; on failure the test ends.
# Call it directly, not under check: check runs in a subshell.
tb_begin() {
	local out
	# Under the preamble its EXIT trap tears the testbed down; a script
	# without it gets this file's own traps.
	if ! declare -F on_exit >/dev/null; then
		trap tb_cleanup EXIT
		trap 'exit 130' INT
		trap 'exit 143' TERM
	fi
	if out=$(NODES=$1 RAILS=$2 MTU=${3:-1500} TB_OWNER_PID=$$ TB_QUIET=0 tb up 2>&1); then
		ok "testbed up: $1 nodes x $2 rails, mtu ${3:-1500}"
	else
		fail "testbed up: $1 nodes x $2 rails, mtu ${3:-1500}"
		printf '%s\n' "$out" | tail -20 | sed 's/^/# /'
		tap_done
		exit 1
	fi
}

# The address of the pod of node $1 on rail $2.
tb_pod_ip() { echo "10.0.$2.$((10 + $1))"; }

# tb_ping FROM DST [ping args]: FROM is a testbed name (n0-p1, fe, ...).
tb_ping() {
	local from=$1 dst=$2
	shift 2
	tb exec "$from" ping -n -q -c 1 -W 1 "$@" "$dst"
}

# tb_ping_error FROM DST: the first line ping prints on stderr, e.g.
# "ping: connect: Network is unreachable".
tb_ping_error() {
	tb exec "$1" ping -n -q -c 1 -W 1 "$2" 2>&1 >/dev/null | head -1
}

# tb_rx_packets NAME IFNAME: packets received on an interface of a
# testbed namespace.
tb_rx_packets() {
	ip -n "$TB_PREFIX-$1" -s -j link show dev "$2" | jq '.[0].stats64.rx.packets'
}

# Packets the switch received from all node uplinks together.
tb_uplink_rx_total() {
	ip -n "$TB_PREFIX-sw" -s -j link show master cnet |
		jq '[.[] | .stats64.rx.packets] | add'
}

# tb_railgate NODE ARGS...: run railgate in node NODE (n0, n1, ...) with
# its own pin directory.
tb_railgate() {
	local node=$1
	shift
	tb exec "$node" "$RAILGATE" "$@"
}

# tb_railgate_up NODE MODE [VLAN]: write the node's config and apply it.
tb_railgate_up() {
	local node=$1 mode=$2 cfg="$TB_STATE/railgate-$1.yaml"
	MODE=$mode VLAN=${3:-0} tb config "$node" >"$cfg" || return 1
	tb_railgate "$node" up -c "$cfg"
}

# tb_railgate_all NODES VERB [MODE]: up (in MODE) or down on nodes 0..N-1.
tb_railgate_all() {
	local nodes=$1 verb=$2 mode=${3:-auto} n rc=0
	for ((n = 0; n < nodes; n++)); do
		if [ "$verb" = up ]; then
			tb_railgate_up "n$n" "$mode" || rc=1
		else
			tb_railgate "n$n" down || rc=1
		fi
	done
	return $rc
}

# tb_stat NODE STAT [RAIL]: packets counted for STAT (cross_rail, spoofed,
# ...) on NODE, in total or for one rail name.
tb_stat() {
	local json
	json=$(tb_railgate "$1" stats --json) || return 1
	if [ -n "${3:-}" ]; then
		jq -r --arg s "$2" --arg r "$3" \
			'.rails[] | select(.rail == $r) | .counters[$s].packets // 0' <<<"$json"
	else
		jq -r --arg s "$2" '.total[$s].packets // 0' <<<"$json"
	fi
}

# tb_wait_listen NAME PORT: wait (up to 3 s) for a TCP listener.
tb_wait_listen() {
	local i
	for ((i = 0; i < 30; i++)); do
		ip netns exec "$TB_PREFIX-$1" ss -Hltn "sport = :$2" | grep -q . && return 0
		sleep 0.1
	done
	return 1
}

# tb_iperf SERVER CLIENT ARGS...: one bounded iperf3 run from pod CLIENT to
# pod SERVER's address; prints the client's JSON report.  The server
# serves one test (-1) and dies after 20 s at the latest.
tb_iperf() {
	local server=$1 client=$2 port=5201 addr spid rc=0
	shift 2
	[[ "$server" =~ ^n([0-9]+)-p([0-9]+)$ ]] || return 2
	addr=$(tb_pod_ip "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}")
	tb exec "$server" timeout 20 iperf3 -s -1 -p $port >/dev/null 2>&1 &
	spid=$!
	tb_wait_listen "$server" $port || { kill "$spid" 2>/dev/null; return 1; }
	tb exec "$client" timeout 15 iperf3 -c "$addr" -p $port --json "$@" || rc=$?
	wait "$spid" 2>/dev/null || true
	return $rc
}

# tb_tcp_transfer SERVER CLIENT: 2 s of TCP from pod CLIENT to pod SERVER
# moved at least 1 MiB, and the receiver got (almost) all the sender wrote:
# iperf3 stops counting at the end of the test, so the last bytes in
# flight may miss the receiver's tally.
tb_tcp_transfer() {
	local json
	json=$(tb_iperf "$1" "$2" -t 2) || { jq -r '.error // empty' <<<"$json"; return 1; }
	jq -e '.end.sum_received.bytes >= 1048576 and
	       .end.sum_received.bytes >= 0.95 * .end.sum_sent.bytes' <<<"$json" >/dev/null ||
		{ jq -c '.end | {sent: .sum_sent.bytes, received: .sum_received.bytes}' <<<"$json"; return 1; }
}
