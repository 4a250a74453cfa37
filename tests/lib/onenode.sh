# A one-node topology for the `railgate` command tests (the full cluster is
# tools/testbed).  The preamble sources it (tests/lib/integration.sh
# onenode PREFIX) and runs onenode_down on exit; the script calls
# onenode_up.  Namespaces (all named "$ON-..."):
#   $ON-node  representors pf0vf0, pf1vf0, pf2vf0; uplink0 10.1.255.10/24
#   $ON-pod0  net1 10.0.0.10/24  (peer pf0vf0)   routes 10.0.0.0/16 via 10.0.0.1
#   $ON-pod1  net1 10.0.1.10/24  (peer pf1vf0)   routes 10.0.0.0/16 via 10.0.1.1
#   $ON-pod2  net1 10.0.2.10/24  (peer pf2vf0)   routes 10.0.0.0/16 via 10.0.2.1
#   $ON-sw    up0 10.1.255.1/24 (peer uplink0, GRO on); it plays the computenet
#             switch and owns 10.0.1.10 and 10.0.2.20 too (on lo), so frames that
#             railgate sends it for pod1/pod2 are received there by udpseq.
# Pods reach "their gateway" through a permanent neighbour (no switch on
# the rails here), so every frame they send for the supernet is railgate's.
ON=${ON:-rgon$$}
ON_PIN=""
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
RAILGATE="$REPO/${RG_BUILD:-build}/railgate"
UDPSEQ="$REPO/${RG_BUILD:-build}/udpseq"
GW_MAC_RAIL=02:00:00:00:00:01

onenode_up() {
	onenode_down
	local n="$ON-node" sw="$ON-sw"
	ip netns add "$n"
	ip netns add "$sw"
	ip -n "$n" link set lo up
	ip -n "$sw" link set lo up
	ip -n "$n" link add uplink0 type veth peer name up0 netns "$sw"
	ip -n "$n" addr add 10.1.255.10/24 dev uplink0
	ip -n "$n" link set uplink0 up
	ip -n "$sw" addr add 10.1.255.1/24 dev up0
	ip -n "$sw" link set up0 up
	ip netns exec "$sw" ethtool -K up0 gro on >/dev/null
	ip -n "$sw" addr add 10.0.1.10/32 dev lo
	ip -n "$sw" addr add 10.0.2.20/32 dev lo
	ip netns exec "$sw" sysctl -qw net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.up0.rp_filter=0
	for r in 0 1 2; do
		onenode_add_pod "$r"
	done
	ON_PIN=$(mktemp -d "/tmp/$ON-pins.XXXX")
	mount -t bpf bpf "$ON_PIN"
	export RAILGATE_PIN_DIR="$ON_PIN/railgate"
	# where this build pins: v<RG_ABI_VERSION> under the pin directory
	RG_PINS="$RAILGATE_PIN_DIR/v$(sed -n 's/^#define RG_ABI_VERSION //p' maps/rg_abi.h)"
}

# onenode_add_pod R: pod R (net1 10.0.R.10/24) and its representor pfRvf0 on
# the node; also how a test adds the VF of a pod scheduled later.
onenode_add_pod() {
	local r=$1 p="$ON-pod$1"
	ip netns add "$p"
	ip -n "$p" link set lo up
	ip -n "$ON-node" link add "pf${r}vf0" type veth peer name net1 netns "$p"
	ip -n "$ON-node" link set "pf${r}vf0" up
	ip -n "$p" addr add "10.0.$r.10/24" dev net1
	ip -n "$p" link set net1 up
	# A VF's NIC finishes checksums before the wire; a veth leaves them
	# partial in skb metadata, which native XDP does not carry.
	ip netns exec "$p" ethtool -K net1 tx off >/dev/null
	ip -n "$p" neigh add "10.0.$r.1" lladdr "$GW_MAC_RAIL" dev net1 nud permanent
	ip -n "$p" route add 10.0.0.0/16 via "10.0.$r.1" dev net1
}

onenode_down() {
	local ns
	for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^$ON-"); do
		ip netns del "$ns" 2>/dev/null
	done
	if [ -n "$ON_PIN" ] && mountpoint -q "$ON_PIN"; then
		umount "$ON_PIN"
		rmdir "$ON_PIN"
	fi
	return 0
}

# onenode_config FILE [MODE] [RAILS] [EXTRA]: a RailConfig for this node.
onenode_config() {
	local file=$1 mode=${2:-tc} rails=${3:-2} r
	{
		cat <<YAML
apiVersion: railgate.dev/v1alpha1
kind: RailConfig
metadata:
  name: onenode
spec:
  supernets: [10.0.0.0/16]
  computenet:
    uplink: uplink0
    gateway: 10.1.255.1
  rails:
YAML
		for ((r = 0; r < rails; r++)); do
			cat <<YAML
    - name: rail$r
      subnet: 10.0.$r.0/24
      gateway: 10.0.$r.1
      representors: [pf${r}vf*]
YAML
		done
		cat <<YAML
  datapath:
    mode: $mode
    antiSpoof: true
YAML
	} >"$file"
}

rg() { ip netns exec "$ON-node" "$RAILGATE" "$@"; }

# stream_start POD DST COUNT RATE PORT: numbered datagrams from a pod; the
# receiver runs in the switch namespace.  stream_wait checks all arrived.
stream_start() {
	local pod=$1 dst=$2 count=$3 rate=$4 port=$5
	STREAM_LOG=$(mktemp "/tmp/$ON-stream.XXXX")
	ip netns exec "$ON-sw" "$UDPSEQ" recv "$port" "$count" $((count / rate + 5)) >"$STREAM_LOG" 2>&1 &
	STREAM_RECV=$!
	for _ in $(seq 50); do grep -q listening "$STREAM_LOG" && break; sleep 0.05; done
	ip netns exec "$ON-$pod" "$UDPSEQ" send "$dst" "$port" "$count" "$rate" &
	STREAM_SEND=$!
}

stream_wait() {
	wait "$STREAM_SEND"
	wait "$STREAM_RECV"
	local rc=$?
	tail -1 "$STREAM_LOG"
	rm -f "$STREAM_LOG"
	return $rc
}

# check_stream NAME: stream_wait as a TAP check.  Not through `check`: that
# runs its command in a subshell, which cannot wait for our children.
check_stream() {
	local rc
	stream_wait >"/tmp/$ON-last-stream" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then ok "$1"; else fail "$1"; sed 's/^/# /' "/tmp/$ON-last-stream"; fi
	rm -f "/tmp/$ON-last-stream"
}

# The ids of this node's programs (each pin dir loads its own), and the
# number of live links that run them: other tests' links never count.
ours_prog_ids() {
	local p
	for p in xdp tc; do
		bpftool -j prog show pinned "$RG_PINS/progs/$p" 2>/dev/null | jq -r .id
	done | paste -sd, -
}

links_of_ours() {
	local ids=${OUR_PROG_IDS:-}
	[ -n "$ids" ] || { echo 0; return; }
	bpftool -j link show | jq "[.[] | select(IN(.prog_id; $ids))] | length"
}

jq_status() { rg status --json | jq -r "$1"; }

# check_hitless_reloads TWO THREE: with TWO (rails 0-1) running, reload to
# THREE (rails 0-2), back, and to THREE again while pod0 streams 1500
# numbered frames to rail 1: none may be lost, and each reload counts.
check_hitless_reloads() {
	local two=$1 three=$2 gen0
	gen0=$(jq_status .config_generation)
	stream_start pod0 10.0.1.10 1500 1000 9200
	sleep 0.3
	check "reload adding rail2 and pf2vf0 during traffic" rg up -c "$three"
	sleep 0.3
	check "reload removing them again during traffic" rg up -c "$two"
	sleep 0.3
	check "reload adding them once more" rg up -c "$three"
	check_stream "no numbered frame lost across three reloads"
	check_eq "config generation advanced by three" $((gen0 + 3)) "$(jq_status .config_generation)"
}
