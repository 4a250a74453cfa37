#!/usr/bin/env bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# testbed.sh: a multi-rail GPU cluster in network namespaces
# (docs/testbed.md).  Every namespace is named "$TB_PREFIX-...";
# nothing is ever configured in the caller's own network namespace.
#
#   testbed.sh up                     build the cluster (removes leftovers first)
#   testbed.sh down                   remove it (idempotent)
#   testbed.sh exec NAME CMD...       run CMD in n<n>, n<n>-p<r>, sw, fab or fe
#   testbed.sh config NODE            print the railgate RailConfig for node n<n>
#   testbed.sh routes none|supernet   remove/add the pods' supernet, frontend, ICMP-source routes
#   testbed.sh pod add|check|del NODE all|two [RAIL...]
#                                     a multi-VF pod through the real CNI chain
#   testbed.sh break SCENARIO [TARGET] put the cluster into a failure scenario
#   testbed.sh heal                   undo every break, last first
#   testbed.sh list                   show the running testbed
#   testbed.sh gc                     remove testbeds whose owner process died
#
# Environment:
#   TB_PREFIX   namespace prefix (default rgtb<4 random hex> at up; later
#               verbs default to the most recent testbed)
#   NODES RAILS MTU ROUTES            size, link MTU, pod routes at up
#                                     (defaults 16, 8, 1500, supernet)
#   TB_STATE    state dir (default /run/railgate-testbed/$TB_PREFIX)
#   TB_OWNER_PID                      the process whose death makes this
#                                     testbed a leftover for gc (default:
#                                     the caller of `up`)
#   MODE VLAN   for `config`: datapath mode (default auto); VLAN=1 tags
#               rail r with 100+r
#   TB_CNI_PLUGIN  for `pod`: the railgate-cni binary the chains run
#               (default build/railgate-cni; another build to compare)
#
# Model, node n and rail r both 0-based:
#   pod  $P-n<n>-p<r>  net1 10.0.<r>.<10+n>/24 (veth to the node)
#   node $P-n<n>       pf<r>vf0 (representor) + rail<r> in bridge br<r>;
#                      uplink0 10.1.255.<10+n>/24 to the switch
#   fab  $P-fab        bridge r<r>: n<n>r<r> (node rail ports) + sw<r>
#   sw   $P-sw         leg<r> 10.0.<r>.1/24; bridge cnet 10.1.255.1/24 over
#                      up-n<n>; fe0 192.168.0.1/24; leg<r> does not route
#   fe   $P-fe         eth0 192.168.0.10/24
#
# Multi-VF pods (`pod add`), node n < 50, wired per rail by libcni
# (build/libcni-client) through host-device + static IPAM + railgate-cni,
# one conflist per rail as Multus runs them:
#   all  $P-n<n>-all   net<r> 10.0.<r>.<150+n>/24 on every rail (an 8-GPU pod)
#   two  $P-n<n>-two   net<r> 10.0.<r>.<200+n>/24 on the last two rails
#   representors pf<r>vf1 (all) and pf<r>vf2 (two) in the node's br<r>
set -euo pipefail

readonly TB_RUN_DIR=/run/railgate-testbed
readonly TB_CURRENT_LINK=$TB_RUN_DIR/current
REPO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
readonly REPO_DIR

# Addressing plan (docs/testbed.md).
readonly SUPERNET=10.0.0.0/16
readonly FRONTEND_NET=192.168.0.0/16
readonly CNET_GW=10.1.255.1
readonly CNET_LEN=24
readonly FE_SW_ADDR=192.168.0.1
readonly FE_ADDR=192.168.0.10
readonly FE_LEN=24
readonly HOST_OFFSET=10           # pod n and node uplink n use host .<10+n>
# The gateway MAC is fixed so that nodes can carry a permanent neighbour
# entry for it: the loader reads the gateway MAC from the neighbour table.
readonly CNET_MAC=02:52:47:01:ff:01
readonly MAX_NODES=200
readonly MAX_RAILS=64
readonly MULTI_MAX_NODE=50        # multi-VF pods: hosts .150+n and .200+n
readonly CNI_PLUGINS=/usr/lib/cni  # Debian's containernetworking-plugins
# The pods' VFs run it (pods_send_wire_frames); make builds it.
VF_XDP_OBJ=${VF_XDP_OBJ:-$REPO_DIR/build/vf_xdp.bpf.o}

die() {
	echo "testbed: $*" >&2
	exit 1
}

say() {
	[ "${TB_QUIET:-0}" = 1 ] || echo "testbed: $*" >&2
}

usage() {
	sed -n '4,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

pod_addr() { echo "10.0.$2.$((HOST_OFFSET + $1))"; }   # node rail
rail_gw() { echo "10.0.$1.1"; }
uplink_addr() { echo "10.1.255.$((HOST_OFFSET + $1))"; }

is_uint() { [[ "$1" =~ ^[0-9]+$ ]]; }

# ---- state -----------------------------------------------------------

# The state file holds KEY=VALUE lines written by `up`; read them without
# sourcing so that a damaged file cannot run code.
state_get() {
	local key=$1 file=$2
	sed -n "s/^$key=//p" "$file" | tail -1
}

# Start time of a process (field 22 of /proc/PID/stat), so that gc does
# not mistake a recycled pid for a live owner.
proc_start_time() {
	local stat
	stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	stat=${stat##*) }
	# after the comm: state is field 3, start time field 22
	awk '{ print $20 }' <<<"$stat"
}

write_state() {
	local owner=${TB_OWNER_PID:-$PPID} start
	start=$(proc_start_time "$owner" || echo 0)
	mkdir -p "$TB_STATE"
	cat >"$TB_STATE/env" <<EOF
TB_PREFIX=$P
NODES=$NODES
RAILS=$RAILS
MTU=$MTU
ROUTES=$ROUTES
OWNER_PID=$owner
OWNER_START=$start
CREATED=$(date +%s)
EOF
	ln -sfn "$TB_STATE" "$TB_CURRENT_LINK"
}

# Find the testbed a verb other than `up` talks about: TB_PREFIX, else
# TB_STATE, else the most recent `up`.
load_state() {
	if [ -n "${TB_PREFIX:-}" ]; then
		TB_STATE=${TB_STATE:-$TB_RUN_DIR/$TB_PREFIX}
	elif [ -z "${TB_STATE:-}" ]; then
		[ -e "$TB_CURRENT_LINK/env" ] ||
			die "no testbed is up (set TB_PREFIX or run 'testbed.sh up')"
		TB_STATE=$(readlink -f "$TB_CURRENT_LINK")
	fi
	[ -f "$TB_STATE/env" ] || die "no testbed state in $TB_STATE (is it up?)"
	P=$(state_get TB_PREFIX "$TB_STATE/env")
	NODES=$(state_get NODES "$TB_STATE/env")
	RAILS=$(state_get RAILS "$TB_STATE/env")
	MTU=$(state_get MTU "$TB_STATE/env")
	ROUTES=$(state_get ROUTES "$TB_STATE/env")
	if [ -z "$P" ] || ! is_uint "$NODES" || ! is_uint "$RAILS"; then
		die "$TB_STATE/env is damaged"
	fi
}

random_prefix() {
	echo "rgtb$(od -An -N2 -tx1 /dev/urandom | tr -d ' \n')"
}

check_params() {
	[[ "$P" =~ ^[a-zA-Z0-9_.]+$ ]] || die "TB_PREFIX '$P': letters, digits, '_' and '.' only"
	in_range "$NODES" 1 $MAX_NODES || die "NODES=$NODES: need 1..$MAX_NODES"
	in_range "$RAILS" 1 $MAX_RAILS || die "RAILS=$RAILS: need 1..$MAX_RAILS"
	in_range "$MTU" 1280 65535 || die "MTU=$MTU: need 1280..65535"
	[ -f "$VF_XDP_OBJ" ] || die "$VF_XDP_OBJ is missing: run make"
	case "$ROUTES" in
	none | supernet) ;;
	*) die "ROUTES=$ROUTES: need none or supernet" ;;
	esac
}

# in_range VALUE MIN MAX: VALUE is an unsigned integer in [MIN, MAX].
in_range() {
	is_uint "$1" && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]
}

# ---- namespaces ----------------------------------------------------------

# Every namespace of prefix $1 (the trailing dash keeps rgt1 from matching
# rgt12-...).
prefix_namespaces() {
	ip netns list | awk -v p="$1-" 'index($1, p) == 1 { print $1 }'
}

all_namespace_names() {
	local n r
	printf '%s\n' "$P-sw" "$P-fab" "$P-fe"
	for ((n = 0; n < NODES; n++)); do
		echo "$P-n$n"
		for ((r = 0; r < RAILS; r++)); do
			echo "$P-n$n-p$r"
		done
	done
}

# Kill what still runs inside the namespaces (iperf3 servers, railgate
# run, ...): a process keeps a deleted namespace and its veths alive.
kill_namespace_processes() {
	local -A inode_of_ns=()
	local ns ino pids=() line pid
	for ns in "$@"; do
		ino=$(stat -L -c %i "/run/netns/$ns" 2>/dev/null) || continue
		inode_of_ns[$ino]=1
	done
	[ ${#inode_of_ns[@]} -gt 0 ] || return 0
	# "lrwxrwxrwx ... /proc/123/ns/net -> net:[4026532xyz]"
	while read -r line; do
		ino=${line##*net:[}
		ino=${ino%]}
		[ -n "${inode_of_ns[$ino]:-}" ] || continue
		pid=${line#*/proc/}
		pid=${pid%%/*}
		[ "$pid" != $$ ] && pids+=("$pid")
	done < <(ls -l /proc/[0-9]*/ns/net 2>/dev/null)
	[ ${#pids[@]} -gt 0 ] || return 0
	say "stopping ${#pids[@]} process(es) left in the namespaces: ${pids[*]}"
	kill -TERM "${pids[@]}" 2>/dev/null || true
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		kill -0 "${pids[@]}" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -KILL "${pids[@]}" 2>/dev/null || true
}

# Remove every trace of prefix $P.  Idempotent.
teardown() {
	local nss=() ns
	mapfile -t nss < <(prefix_namespaces "$P")
	if [ ${#nss[@]} -gt 0 ]; then
		kill_namespace_processes "${nss[@]}"
		for ns in "${nss[@]}"; do
			echo "netns del $ns"
		done | ip -force -batch - 2>/dev/null || true
	fi
	if mountpoint -q "$TB_STATE/bpffs" 2>/dev/null; then
		umount "$TB_STATE/bpffs" 2>/dev/null || umount -l "$TB_STATE/bpffs"
	fi
	if [ "$(readlink -f "$TB_CURRENT_LINK" 2>/dev/null)" = "$(readlink -f "$TB_STATE" 2>/dev/null)" ]; then
		rm -f "$TB_CURRENT_LINK"
	fi
	rm -rf "$TB_STATE"
	mapfile -t nss < <(prefix_namespaces "$P")
	[ ${#nss[@]} -eq 0 ] || die "could not remove: ${nss[*]}"
}

# ---- building ------------------------------------------------------------

# One batch for the caller's namespace: it only creates namespaces and
# veth pairs whose two ends are born directly inside testbed namespaces.
gen_create_batch() {
	local ns n r mtu="mtu $MTU"
	while read -r ns; do
		echo "netns add $ns"
	done < <(all_namespace_names)
	for ((n = 0; n < NODES; n++)); do
		for ((r = 0; r < RAILS; r++)); do
			echo "link add name net1 netns $P-n$n-p$r $mtu type veth peer name pf${r}vf0 netns $P-n$n $mtu"
			echo "link add name rail$r netns $P-n$n $mtu type veth peer name n${n}r$r netns $P-fab $mtu"
		done
		echo "link add name uplink0 netns $P-n$n $mtu type veth peer name up-n$n netns $P-sw $mtu"
	done
	for ((r = 0; r < RAILS; r++)); do
		echo "link add name leg$r netns $P-sw $mtu type veth peer name sw$r netns $P-fab $mtu"
	done
	echo "link add name fe0 netns $P-sw $mtu type veth peer name eth0 netns $P-fe $mtu"
}

# "link set" lines bringing interfaces up without IPv6 link-local
# addresses: no router solicitations or MLD reports, so interface counters
# move only with the traffic a test sends.
quiet_up() {
	local dev
	for dev in "$@"; do
		echo "link set dev $dev addrgenmode none"
		echo "link set dev $dev up"
	done
}

gen_pod_batch() {
	local n=$1 r=$2
	quiet_up lo net1
	echo "address add $(pod_addr "$n" "$r")/24 dev net1"
	[ "$ROUTES" = supernet ] && gen_pod_routes replace "$n" "$r"
	return 0
}

# The pod routes railgate-cni gives a pod: the supernet and the front-end
# through the rail, and the way back to the source of railgate's ICMP
# errors (the node's uplink address), so the pod accepts them under any
# rp_filter.
gen_pod_routes() {
	local verb=$1 n=$2 r=$3
	if [ "$verb" = replace ]; then
		echo "route replace $SUPERNET via $(rail_gw "$r") dev net1"
		echo "route replace $FRONTEND_NET via $(rail_gw "$r") dev net1"
		echo "route replace $(uplink_addr "$n")/32 via $(rail_gw "$r") dev net1"
	else
		echo "route flush exact $SUPERNET"
		echo "route flush exact $FRONTEND_NET"
		echo "route flush exact $(uplink_addr "$n")/32"
	fi
}

gen_node_batch() {
	local n=$1 r
	quiet_up lo
	for ((r = 0; r < RAILS; r++)); do
		echo "link add name br$r mtu $MTU type bridge"
		echo "link set dev pf${r}vf0 master br$r"
		echo "link set dev rail$r master br$r"
		quiet_up "br$r" "pf${r}vf0" "rail$r"
	done
	quiet_up uplink0
	echo "address add $(uplink_addr "$n")/$CNET_LEN dev uplink0"
	echo "neighbour replace $CNET_GW lladdr $CNET_MAC dev uplink0 nud permanent"
}

gen_fab_batch() {
	local n r
	quiet_up lo
	for ((r = 0; r < RAILS; r++)); do
		echo "link add name r$r mtu $MTU type bridge"
		echo "link set dev sw$r master r$r"
		for ((n = 0; n < NODES; n++)); do
			echo "link set dev n${n}r$r master r$r"
			quiet_up "n${n}r$r"
		done
		quiet_up "r$r" "sw$r"
	done
}

gen_sw_batch() {
	local n r
	quiet_up lo
	echo "link add name cnet mtu $MTU address $CNET_MAC type bridge"
	for ((n = 0; n < NODES; n++)); do
		echo "link set dev up-n$n master cnet"
		quiet_up "up-n$n"
	done
	quiet_up cnet fe0
	echo "address add $CNET_GW/$CNET_LEN dev cnet"
	echo "address add $FE_SW_ADDR/$FE_LEN dev fe0"
	for ((r = 0; r < RAILS; r++)); do
		quiet_up "leg$r"
		echo "address add $(rail_gw "$r")/24 dev leg$r"
		# Scenario 2: rail-facing ports do not route rail to rail.  The
		# local table (priority 0) still answers pings to 10.0.r.1.
		echo "rule add iif leg$r blackhole"
	done
}

gen_fe_batch() {
	quiet_up lo eth0
	echo "address add $FE_ADDR/$FE_LEN dev eth0"
	echo "route add $SUPERNET via $FE_SW_ADDR dev eth0"
}

run_batch() {
	local ns=$1 file=$2
	ip -n "$ns" -batch "$file" || die "configuring $ns failed (batch $file)"
}

# Kernel settings need a process inside the namespace: one per namespace
# that needs any, not one per setting.
set_switch_sysctls() {
	local ups=() n
	for ((n = 0; n < NODES; n++)); do
		ups+=("up-n$n")
	done
	# shellcheck disable=SC2016  # expanded by the inner shell
	ip netns exec "$P-sw" bash -euc '
		sysctl -qw net.ipv4.ip_forward=1
		for f in /proc/sys/net/ipv4/conf/*/rp_filter; do echo 0 >"$f"; done
		# A veth hands XDP_REDIRECTed frames to its peer only when the
		# peer runs XDP or has GRO on (veth NAPI): the node uplinks
		# redirect into these ports.
		for dev in "$@"; do ethtool -K "$dev" gro on; done
	' testbed-sw "${ups[@]}"
}

set_node_sysctls() {
	local n
	for ((n = 0; n < NODES; n++)); do
		ip netns exec "$P-n$n" sysctl -qw net.ipv4.ip_forward=0
	done
}

# A VF hands its representor wire frames: checksummed by the NIC and cut
# to the MTU.  A veth would hand over CHECKSUM_PARTIAL and GSO super-frames
# instead, which no SR-IOV representor sees and which an XDP program
# (it sees bytes, not skb metadata) must not be asked to forward.  So the
# pods' net1 computes checksums and segments in software.  And a VF takes
# what its representor transmits: railgate's ICMP errors in xdp mode leave
# the representor by XDP_TX, which a veth flushes to its peer only when the
# peer runs XDP (with GRO alone they wait for the next skb), so net1 runs
# an XDP_PASS program (tools/testbed/vf_xdp.bpf.c).
pods_send_wire_frames() {
	local n r
	for ((n = 0; n < NODES; n++)); do
		for ((r = 0; r < RAILS; r++)); do
			nsenter --net="/run/netns/$P-n$n-p$r" ethtool -K net1 tx off gso off >/dev/null ||
				die "ethtool -K net1 tx off gso off in $P-n$n-p$r failed"
			vf_takes_xdp_tx "$P-n$n-p$r" net1
		done
	done
}

# vf_takes_xdp_tx NS DEV: the XDP_PASS program on a pod's VF (see above).
vf_takes_xdp_tx() {
	ip -force -n "$1" link set dev "$2" xdpdrv obj "$VF_XDP_OBJ" sec xdp.frags ||
		die "attaching $VF_XDP_OBJ to $2 in $1 failed"
}

# bridge_forwarding NS: every port of every bridge in NS forwards.
bridge_forwarding() {
	bridge -n "$1" -j link show | jq -e 'all(.state == "forwarding")' >/dev/null
}

# A veth end that came up before its peer gets its carrier from linkwatch,
# which runs up to a second later; until then its bridge port is disabled
# and drops frames (the first ARP of a test would vanish).  Wait for every
# rail bridge port, bounded.
wait_bridges_forwarding() {
	local ns n deadline=$((SECONDS + 5))
	while read -r ns; do
		until bridge_forwarding "$ns"; do
			[ $SECONDS -lt $deadline ] || die "bridge ports in $ns are not forwarding after 5 s"
			sleep 0.1
		done
	done < <(echo "$P-fab"; for ((n = 0; n < NODES; n++)); do echo "$P-n$n"; done)
}

# The switch's trunk ports: tools/testbed/trunk.bpf.c on tc ingress of
# every up-n<n> pops the tag of a tagged rail's frames whose VID the trunk
# carries (rail r: VID 100+r, what `config` with VLAN=1 gives railgate)
# and drops the rest.  One program, pinned in the testbed's bpffs, shared
# by every port; its VID map decides what the trunk carries.
readonly VLAN_BASE=100
TRUNK_OBJ=$REPO_DIR/build/trunk.bpf.o
trunk_dir() { echo "$TB_STATE/bpffs/sw"; }

# vid_entry VID RAIL|none: the bpftool batch line admitting (or not) VID.
vid_entry() {
	local vid=$1 r=$2 val="0 0 0 0 0 0 0 0"
	[ "$r" = none ] || val="10 0 $r 0 255 255 255 0"
	echo "map update pinned $(trunk_dir)/maps/trunk_vids key $((vid & 255)) $((vid >> 8)) 0 0 value $val"
}

attach_trunk() {
	local d n r
	d=$(trunk_dir)
	[ -f "$TRUNK_OBJ" ] || die "build/trunk.bpf.o is missing: run make"
	mkdir -p "$d/maps"
	bpftool prog load "$TRUNK_OBJ" "$d/trunk" type classifier pinmaps "$d/maps" ||
		die "loading the switch's trunk program failed"
	for ((r = 0; r < RAILS; r++)); do
		vid_entry $((VLAN_BASE + r)) "$r"
	done | bpftool batch file - >/dev/null || die "filling the trunk's VID map failed"
	for ((n = 0; n < NODES; n++)); do
		echo "qdisc add dev up-n$n clsact"
		echo "filter add dev up-n$n ingress bpf direct-action object-pinned $d/trunk"
	done | ip netns exec "$P-sw" tc -batch - || die "attaching the trunk program to the switch's ports failed"
}

mount_bpffs() {
	local n
	mkdir -p "$TB_STATE/bpffs"
	mountpoint -q "$TB_STATE/bpffs" || mount -t bpf bpf "$TB_STATE/bpffs"
	for ((n = 0; n < NODES; n++)); do
		mkdir -p "$TB_STATE/bpffs/n$n"
	done
}

build() {
	local b=$TB_STATE/batch n r
	mkdir -p "$b"
	gen_create_batch >"$b/create.ip"
	ip -batch "$b/create.ip" || die "creating namespaces and links failed (batch $b/create.ip)"

	gen_sw_batch >"$b/sw.ip"
	gen_fab_batch >"$b/fab.ip"
	gen_fe_batch >"$b/fe.ip"
	run_batch "$P-sw" "$b/sw.ip"
	run_batch "$P-fab" "$b/fab.ip"
	run_batch "$P-fe" "$b/fe.ip"
	for ((n = 0; n < NODES; n++)); do
		gen_node_batch "$n" >"$b/n$n.ip"
		run_batch "$P-n$n" "$b/n$n.ip"
		for ((r = 0; r < RAILS; r++)); do
			gen_pod_batch "$n" "$r" >"$b/n$n-p$r.ip"
			run_batch "$P-n$n-p$r" "$b/n$n-p$r.ip"
		done
	done
	set_switch_sysctls
	set_node_sysctls
	pods_send_wire_frames
	wait_bridges_forwarding
	mount_bpffs
	attach_trunk
}

up_failed() {
	trap - EXIT
	say "up failed, tearing down $P"
	TB_QUIET=1 teardown || true
	exit "$1"
}

cmd_up() {
	P=${TB_PREFIX:-$(random_prefix)}
	NODES=${NODES:-16}
	RAILS=${RAILS:-8}
	MTU=${MTU:-1500}
	ROUTES=${ROUTES:-supernet}
	TB_STATE=${TB_STATE:-$TB_RUN_DIR/$P}
	check_params
	[ "$#" -eq 0 ] || usage

	local start=$SECONDS
	TB_QUIET=1 teardown
	# From here a failure or an interrupt must not leave half a cluster.
	trap 'up_failed $?' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	write_state
	build
	trap - EXIT INT TERM
	say "up: $P, $NODES nodes x $RAILS rails, mtu $MTU, routes $ROUTES, $((SECONDS - start))s (state $TB_STATE)"
	echo "$P"
}

cmd_down() {
	[ "$#" -eq 0 ] || usage
	if [ -n "${TB_PREFIX:-}" ]; then
		P=$TB_PREFIX
		TB_STATE=${TB_STATE:-$TB_RUN_DIR/$P}
	elif [ -n "${TB_STATE:-}" ] && [ -f "$TB_STATE/env" ]; then
		P=$(state_get TB_PREFIX "$TB_STATE/env")
	elif [ -e "$TB_CURRENT_LINK/env" ]; then
		TB_STATE=$(readlink -f "$TB_CURRENT_LINK")
		P=$(state_get TB_PREFIX "$TB_STATE/env")
	else
		say "down: no testbed is up"
		return 0
	fi
	[ -n "$P" ] || die "down: cannot tell the prefix (set TB_PREFIX)"
	teardown
	say "down: $P removed"
}

# exec NAME CMD...: NAME is n<n>, n<n>-p<r>, sw, fab or fe.
cmd_exec() {
	[ "$#" -ge 2 ] || usage
	local name=$1
	shift
	load_state
	local ns=$P-$name pin_env=()
	[ -e "/run/netns/$ns" ] || die "exec: no namespace $ns (names: n<n>, n<n>-p<r>, sw, fab, fe)"
	if [[ "$name" =~ ^n[0-9]+$ ]]; then
		# railgate pins into this node's own directory of the testbed's
		# bpffs (ip netns exec hides the machine's /sys/fs/bpf).
		mkdir -p "$TB_STATE/bpffs/$name"
		pin_env=("RAILGATE_PIN_DIR=$TB_STATE/bpffs/$name")
	fi
	exec ip netns exec "$ns" env "PATH=$REPO_DIR/build:$PATH" "${pin_env[@]}" \
		"TB_PREFIX=$P" "TB_STATE=$TB_STATE" "$@"
}

cmd_config() {
	[ "$#" -eq 1 ] || usage
	local node=$1 r mode=${MODE:-auto}
	load_state
	if ! [[ "$node" =~ ^n([0-9]+)$ ]] || ! in_range "${BASH_REMATCH[1]}" 0 $((NODES - 1)); then
		die "config: NODE must be n0..n$((NODES - 1)), got '$node'"
	fi
	case "$mode" in
	auto | xdp | xdp-generic | tc) ;;
	*) die "config: MODE=$mode: need auto, xdp, xdp-generic or tc" ;;
	esac
	cat <<EOF
# railgate config for testbed $P node $node (testbed.sh config $node)
apiVersion: railgate.dev/v1alpha1
kind: RailConfig
metadata:
  name: testbed-$P-$node
spec:
  supernets: [$SUPERNET]
  computenet:
    uplink: uplink0
    gateway: $CNET_GW
    frontend: [$FRONTEND_NET]
  rails:
EOF
	for ((r = 0; r < RAILS; r++)); do
		cat <<EOF
    - name: rail$r
      subnet: 10.0.$r.0/24
      gateway: $(rail_gw "$r")
      representors: ["pf${r}vf*"]
EOF
		[ "${VLAN:-0}" = 1 ] && echo "      vlan: $((VLAN_BASE + r))"
	done
	cat <<EOF
  datapath:
    mode: $mode
    antiSpoof: true
EOF
}

cmd_routes() {
	[ "$#" -eq 1 ] || usage
	local want=$1 verb n r
	case "$want" in
	supernet) verb=replace ;;
	none) verb=flush ;;
	*) usage ;;
	esac
	load_state
	for ((n = 0; n < NODES; n++)); do
		for ((r = 0; r < RAILS; r++)); do
			gen_pod_routes "$verb" "$n" "$r" | ip -n "$P-n$n-p$r" -batch - ||
				die "routes $want: $P-n$n-p$r failed"
		done
	done
	sed -i "s/^ROUTES=.*/ROUTES=$want/" "$TB_STATE/env"
	say "routes: $want in $((NODES * RAILS)) pods"
}

# ---- multi-VF pods through the CNI chain -----------------------------------

shape_rails() {   # shape_rails SHAPE: the rails a pod of that shape holds
	local r
	case "$1" in
	all) for ((r = 0; r < RAILS; r++)); do echo "$r"; done ;;
	two) for ((r = RAILS >= 2 ? RAILS - 2 : 0; r < RAILS; r++)); do echo "$r"; done ;;
	esac
}
shape_host() { case "$1" in all) echo 150 ;; two) echo 200 ;; esac; }
shape_vf() { case "$1" in all) echo 1 ;; two) echo 2 ;; esac; }
multi_pod_addr() { echo "10.0.$3.$(($(shape_host "$2") + $1))"; }   # node shape rail

# The CNI set-up every chain shares: the rail config (all nodes share one
# rail layout), the plugin directory (railgate-cni under its type name),
# libcni's result cache (never the machine's /var/lib/cni).
cni_setup() {
	local d=$TB_STATE/cni
	mkdir -p "$d/bin" "$d/cache" "$d/conf"
	[ -f "$d/rails.yaml" ] || cmd_config n0 >"$d/rails.yaml"
	ln -sfn "${TB_CNI_PLUGIN:-$REPO_DIR/build/railgate-cni}" "$d/bin/railgate"
	[ -x "$REPO_DIR/build/libcni-client" ] || die "pod: build/libcni-client is missing: run make"
	[ -x "$CNI_PLUGINS/host-device" ] || die "pod: $CNI_PLUGINS/host-device is missing (containernetworking-plugins)"
}

# The conflist of one attachment: the VF moved in and addressed by the
# rail IPAM, then railgate, exactly the NetworkAttachmentDefinition of docs/cni.md.
gen_conflist() {
	local vf=$1 addr=$2 r=$3
	jq -n --arg vf "$vf" --arg a "$addr/24" --arg gw "$(rail_gw "$r")" \
		--arg rc "$TB_STATE/cni/rails.yaml" --arg name "rail$r" '{
		cniVersion: "1.0.0", name: $name,
		plugins: [
			{type: "host-device", device: $vf,
			 ipam: {type: "static", addresses: [{address: $a, gateway: $gw}]}},
			{type: "railgate", railConfig: $rc}]}'
}

# libcni VERB NODE POD RAIL: one chain through libcni, run in the node.
# The plugins' logs go to cni/log; on failure its last lines are shown.
libcni() {
	local verb=$1 n=$2 pod=$3 r=$4 log=$TB_STATE/cni/log rc=0
	ip netns exec "$P-n$n" env CNI_PATH="$TB_STATE/cni/bin:$CNI_PLUGINS" \
		LIBCNI_CACHE_DIR="$TB_STATE/cni/cache" "$REPO_DIR/build/libcni-client" "$verb" \
		"$TB_STATE/cni/conf/$pod-rail$r.conflist" "/run/netns/$P-$pod" "net$r" "$P-$pod" \
		2>"$log.last" || rc=$?
	cat "$log.last" >>"$log"
	[ $rc -eq 0 ] || grep -v '^railgate-cni: ' "$log.last" | tail -5 >&2
	return $rc
}

# pod add NODE SHAPE [RAIL...]: create the pod and its VFs, then one
# chain per rail, in the order given (default: the shape's rails).
pod_add() {
	local n=$1 shape=$2 pod=n$1-$2 k r vf rep
	shift 2
	cni_setup
	k=$(shape_vf "$shape")
	if [ ! -e "/run/netns/$P-$pod" ]; then
		ip netns add "$P-$pod"
		ip -n "$P-$pod" link set lo up
		# no IPv6 link-local chatter: counters move only with test traffic
		ip netns exec "$P-$pod" sysctl -qw net.ipv6.conf.default.disable_ipv6=1 net.ipv6.conf.all.disable_ipv6=1
	fi
	for r in $(shape_rails "$shape"); do
		vf=vf$shape$r rep=pf${r}vf$k
		ip -n "$P-n$n" link show "$rep" >/dev/null 2>&1 && continue
		{
			echo "link add name $vf mtu $MTU type veth peer name $rep mtu $MTU"
			echo "link set dev $rep master br$r"
			quiet_up "$rep"
		} | ip -n "$P-n$n" -batch - || die "pod add: VF $vf on rail $r of n$n failed"
		gen_conflist "$vf" "$(multi_pod_addr "$n" "$shape" "$r")" "$r" \
			>"$TB_STATE/cni/conf/$pod-rail$r.conflist"
	done
	[ "$#" -gt 0 ] || set -- $(shape_rails "$shape")
	for r in "$@"; do
		libcni add "$n" "$pod" "$r" >"$TB_STATE/cni/$pod-rail$r.result" ||
			die "pod add: CNI ADD of net$r in $pod failed"
		# wire frames, as a VF hands its representor (see pods_send_wire_frames)
		nsenter --net="/run/netns/$P-$pod" ethtool -K "net$r" tx off gso off >/dev/null
		vf_takes_xdp_tx "$P-$pod" "net$r"
	done
}

cmd_pod() {
	[ "$#" -ge 3 ] || usage
	local verb=$1 node=$2 shape=$3 n r
	shift 3
	load_state
	n=${node#n}
	if ! [[ "$node" =~ ^n[0-9]+$ ]] || ! in_range "$n" 0 $((NODES - 1)); then
		die "pod: NODE must be n0..n$((NODES - 1)), got '$node'"
	fi
	[ "$n" -lt $MULTI_MAX_NODE ] || die "pod: multi-VF pods live on nodes below n$MULTI_MAX_NODE"
	case "$shape" in
	all | two) ;;
	*) die "pod: SHAPE is all or two, got '$shape'" ;;
	esac
	for r in "$@"; do
		# (no pipe into grep -q: under pipefail its early exit can SIGPIPE the writer)
		[[ " $(shape_rails "$shape" | tr '\n' ' ') " == *" $r "* ]] || die "pod: a $shape pod has no rail $r"
	done
	case "$verb" in
	add) pod_add "$n" "$shape" "$@" ;;
	check | del)
		[ "$#" -gt 0 ] || set -- $(shape_rails "$shape")
		for r in "$@"; do
			libcni "$verb" "$n" "n$n-$shape" "$r" || die "pod $verb: net$r of n$n-$shape failed"
		done
		;;
	*) die "pod: verb is add, check or del, got '$verb'" ;;
	esac
}

# ---- breaking it: the field report's scenarios -------------------------------
#
# break SCENARIO [TARGET] puts the running cluster into a scenario of
# docs/failure-scenarios.md the way it happens in a real cluster, and
# records it in $TB_STATE/breaks; heal undoes every recorded break, last
# first (each undo is idempotent: healing what an operator already fixed
# is fine).  TARGET is a pod (n<n>-all, n<n>-two, n<n>-p<r>) or a node
# (n<n>); the default is n0-all (n0 for node scenarios).
#   1 POD    the pod's first rail interface loses its supernet routes
#   2 NODE   railgate is not running on the node (railgate down)
#   3 POD    the pod's first rail is attached again without railgate-cni
#   4 POD    an iptables(-nft) REJECT of traffic to rail 1 in the pod
#   5 POD    a default route through the pod's first rail interface
#   6 NODE   the node's uplink MTU below the rails' (the MTU half)
#   6-vlan RAIL  the switch's trunk ports stop carrying the rail's VID
#            (default rail 1; railgate tags rail r with 100+r given VLAN=1)

# pod_ns POD: the namespace of a pod name, or die.
pod_ns() {
	[[ "$1" =~ ^n[0-9]+-(all|two|p[0-9]+)$ ]] || die "break: POD is n<n>-all, n<n>-two or n<n>-p<r>, got '$1'"
	[ -e "/run/netns/$P-$1" ] || die "break: no pod $1 (testbed.sh pod add ...)"
	echo "$P-$1"
}

# pod_first_rail POD: the rail index and interface of the pod's first rail.
pod_first_rail() {
	case "$1" in
	*-all) echo "0 net0" ;;
	*-two) echo "$((RAILS >= 2 ? RAILS - 2 : 0)) net$((RAILS >= 2 ? RAILS - 2 : 0))" ;;
	*-p*) echo "${1##*-p} net1" ;;
	esac
}

node_of() { echo "${1%%-*}"; }

# The config railgate runs with on a node (`testbed.sh config`), kept in
# the state directory so a heal and an operator name the same file.
node_config() {
	local f=$TB_STATE/railgate-$1.yaml
	[ -f "$f" ] || cmd_config "$1" >"$f"
	echo "$f"
}

in_node() { local n=$1; shift; ip netns exec "$P-$n" env "RAILGATE_PIN_DIR=$TB_STATE/bpffs/$n" "$@"; }

break_1() {
	local ns r dev
	ns=$(pod_ns "$1")
	read -r r dev < <(pod_first_rail "$1")
	case "$1" in
	*-p*) gen_pod_routes flush "$r" | ip -n "$ns" -batch - ;;
	*) in_node "$(node_of "$1")" "$REPO_DIR/build/railgate" route del --netns "$ns" --dev "$dev" >/dev/null ;;
	esac
}
heal_1() {
	local ns r dev
	ns=$(pod_ns "$1")
	read -r r dev < <(pod_first_rail "$1")
	case "$1" in
	*-p*) gen_pod_routes replace "$r" | ip -n "$ns" -batch - ;;
	*) in_node "$(node_of "$1")" "$REPO_DIR/build/railgate" route add --netns "$ns" --dev "$dev" \
		-c "$TB_STATE/cni/rails.yaml" >/dev/null ;;
	esac
}

break_2() {
	in_node "$1" "$REPO_DIR/build/railgate" down >/dev/null
}
heal_2() {
	in_node "$1" "$REPO_DIR/build/railgate" up -c "$(node_config "$1")" >/dev/null
}

# Scenario 3: the attachment's chain without railgate-cni, as a cluster
# whose NetworkAttachmentDefinition lacks it; the IPAM (static) gives no
# supernet route.
reattach() {   # reattach POD WITH_RAILGATE: DEL and ADD the first rail's chain
	local pod=$1 with=$2 r dev n conf
	read -r r dev < <(pod_first_rail "$pod")
	n=$(node_of "$pod")
	n=${n#n}
	conf=$TB_STATE/cni/conf/$pod-rail$r.conflist
	[ -f "$conf" ] || die "break 3: $pod is not a multi-VF pod (testbed.sh pod add)"
	libcni del "$n" "$pod" "$r" || die "break 3: CNI DEL of $dev in $pod failed"
	[ -f "$conf.with-railgate" ] || cp "$conf" "$conf.with-railgate"
	if [ "$with" = yes ]; then
		cp "$conf.with-railgate" "$conf"
	else
		jq '.plugins |= map(select(.type != "railgate"))' "$conf.with-railgate" >"$conf"
	fi
	libcni add "$n" "$pod" "$r" >"$TB_STATE/cni/$pod-rail$r.result" ||
		die "break 3: CNI ADD of $dev in $pod failed"
	nsenter --net="/run/netns/$P-$pod" ethtool -K "$dev" tx off gso off >/dev/null
}
break_3() { pod_ns "$1" >/dev/null && reattach "$1" no; }
heal_3() { pod_ns "$1" >/dev/null && reattach "$1" yes; }

# Scenario 4: the shape a multi-network policy controller writes, through
# iptables-nft (libnftables shows its target as {"xt": ...}).
break_4() {
	local ns
	ns=$(pod_ns "$1")
	ip netns exec "$ns" iptables -w -A OUTPUT -d 10.0.1.0/24 -j REJECT
}
heal_4() {
	local ns
	ns=$(pod_ns "$1")
	while ip netns exec "$ns" iptables -w -D OUTPUT -d 10.0.1.0/24 -j REJECT 2>/dev/null; do :; done
}

break_5() {
	local ns r dev
	ns=$(pod_ns "$1")
	read -r r dev < <(pod_first_rail "$1")
	ip -n "$ns" route add default via "$(rail_gw "$r")" dev "$dev"
}
heal_5() {
	local ns r dev
	ns=$(pod_ns "$1")
	read -r r dev < <(pod_first_rail "$1")
	ip -n "$ns" route del default via "$(rail_gw "$r")" dev "$dev" 2>/dev/null || true
}

readonly BREAK_MTU=1400
break_6() { ip -n "$P-$1" link set dev uplink0 mtu $BREAK_MTU; }
heal_6() { ip -n "$P-$1" link set dev uplink0 mtu "$MTU"; }

# Scenario 6's VLAN half: the trunk toward the nodes does not carry one
# rail's VLAN; its tagged frames die at the switch.
break_6vlan() { vid_entry $((VLAN_BASE + $1)) none | bpftool batch file - >/dev/null; }
heal_6vlan() { vid_entry $((VLAN_BASE + $1)) "$1" | bpftool batch file - >/dev/null; }

cmd_break() {
	[ "$#" -ge 1 ] && [ "$#" -le 2 ] || usage
	local s=$1 target=${2:-}
	load_state
	case "$s" in
	1 | 3 | 4 | 5) target=${target:-n0-all} ;;
	2 | 6)
		target=${target:-n0}
		[[ "$target" =~ ^n([0-9]+)$ ]] && in_range "${BASH_REMATCH[1]}" 0 $((NODES - 1)) ||
			die "break $s: TARGET is a node n0..n$((NODES - 1)), got '$target'"
		;;
	6-vlan)
		target=${target:-1}
		in_range "$target" 0 $((RAILS - 1)) || die "break 6-vlan: TARGET is a rail 0..$((RAILS - 1)), got '$target'"
		;;
	*) die "break: SCENARIO is 1..6 or 6-vlan, got '$s'" ;;
	esac
	"break_${s/-/}" "$target"
	echo "$s $target" >>"$TB_STATE/breaks"
	say "break: scenario $s on $target (testbed.sh heal undoes it)"
}

cmd_heal() {
	[ "$#" -eq 0 ] || usage
	load_state
	local lines=() i s target
	[ -f "$TB_STATE/breaks" ] && mapfile -t lines <"$TB_STATE/breaks"
	for ((i = ${#lines[@]} - 1; i >= 0; i--)); do
		read -r s target <<<"${lines[$i]}"
		[[ "$s" =~ ^([1-6]|6-vlan)$ ]] || continue
		"heal_${s/-/}" "$target"
	done
	rm -f "$TB_STATE/breaks"
	say "heal: undid ${#lines[@]} break(s)"
}

cmd_list() {
	[ "$#" -eq 0 ] || usage
	load_state
	local nss=()
	mapfile -t nss < <(prefix_namespaces "$P")
	echo "testbed $P: $NODES nodes x $RAILS rails, mtu $MTU, pod routes $ROUTES"
	echo "state $TB_STATE, bpffs $TB_STATE/bpffs, owner pid $(state_get OWNER_PID "$TB_STATE/env")"
	echo "${#nss[@]} namespaces:"
	printf '  %s\n' "${nss[@]}"
}

owner_alive() {
	local env=$1 pid start now
	pid=$(state_get OWNER_PID "$env")
	start=$(state_get OWNER_START "$env")
	is_uint "$pid" || return 1
	now=$(proc_start_time "$pid") || return 1
	[ "$now" = "$start" ]
}

# Remove testbeds whose owner (the process that ran `up`) is gone.
cmd_gc() {
	[ "$#" -eq 0 ] || usage
	local dir removed=0
	for dir in "$TB_RUN_DIR"/*/; do
		[ -f "$dir/env" ] || continue
		[ -L "${dir%/}" ] && continue
		owner_alive "$dir/env" && continue
		P=$(state_get TB_PREFIX "$dir/env")
		[ -n "$P" ] || continue
		TB_STATE=${dir%/}
		say "gc: removing $P (owner $(state_get OWNER_PID "$dir/env") is gone)"
		teardown
		removed=$((removed + 1))
	done
	say "gc: removed $removed testbed(s)"
}

main() {
	[ "$#" -ge 1 ] || usage
	[ "$(id -u)" -eq 0 ] || die "needs root (network namespaces)"
	local verb=$1
	shift
	case "$verb" in
	up) cmd_up "$@" ;;
	down) cmd_down "$@" ;;
	exec) cmd_exec "$@" ;;
	config) cmd_config "$@" ;;
	routes) cmd_routes "$@" ;;
	pod) cmd_pod "$@" ;;
	break) cmd_break "$@" ;;
	heal) cmd_heal "$@" ;;
	list) cmd_list "$@" ;;
	gc) cmd_gc "$@" ;;
	-h | --help | help) usage ;;
	*) echo "testbed: unknown verb '$verb'" >&2 && usage ;;
	esac
}

main "$@"
