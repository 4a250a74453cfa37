# The benchmark's topology, in namespaces only (never the machine's own).
# Source it, then: bench_topo_up PREFIX; trap 'bench_topo_down PREFIX' EXIT.
#
#   PREFIX-pod    net1 10.0.0.10/24 ........ rep0 10.0.0.1/24     PREFIX-node
#                 (the pod's VF)             (its "representor": where the
#                                            design under test sits)
#   PREFIX-node   uplink0 172.31.255.10/24 .. up0 172.31.255.1/24  PREFIX-sink
#                 (the computenet uplink)     (XDP sink: counts, drops)
#
# Two more veth pairs in the node, hold0..hold3, carry no traffic: the
# per-packet cost programs sit on them (native XDP) so that the kernel's
# XDP dispatcher already holds them, and a BPF_PROG_TEST_RUN call does not
# rebuild the dispatcher and wait for RCU twice (tens of ms per call here).
#
# The node forwards IPv4 (for Linux forwarding and bpf_fib_lookup), has no
# reverse-path filter (frames come from the generator, not from a pod
# with routes) and knows the sink's MAC as a permanent neighbour, so no
# ARP ever runs during a measurement.
BENCH_REP=rep0
BENCH_UPLINK=uplink0
BENCH_SINK_DEV=up0
BENCH_GATEWAY=172.31.255.1
BENCH_HOLD_DEVS=hold0,hold1,hold2,hold3

bench_topo_down() {
	local p=$1 ns
	for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^$p-(node|pod|sink)$"); do
		ip netns del "$ns" 2>/dev/null || true
	done
	return 0
}

bench_topo_up() {
	local p=$1 node="$1-node" pod="$1-pod" sink="$1-sink" mac
	bench_topo_down "$p"
	ip netns add "$node"
	ip netns add "$pod"
	ip netns add "$sink"
	for ns in "$node" "$pod" "$sink"; do
		ip -n "$ns" link set lo up
	done
	ip -n "$node" link add "$BENCH_REP" type veth peer name net1 netns "$pod"
	ip -n "$node" link add "$BENCH_UPLINK" type veth peer name "$BENCH_SINK_DEV" netns "$sink"
	ip -n "$node" link add hold0 type veth peer name hold1
	ip -n "$node" link add hold2 type veth peer name hold3
	ip -n "$node" addr add 10.0.0.1/24 dev "$BENCH_REP"
	ip -n "$pod" addr add 10.0.0.10/24 dev net1
	ip -n "$node" addr add 172.31.255.10/24 dev "$BENCH_UPLINK"
	ip -n "$sink" addr add "$BENCH_GATEWAY/24" dev "$BENCH_SINK_DEV"
	ip -n "$node" link set "$BENCH_REP" up
	ip -n "$node" link set "$BENCH_UPLINK" up
	ip -n "$pod" link set net1 up
	ip -n "$sink" link set "$BENCH_SINK_DEV" up
	ip netns exec "$node" sysctl -qw net.ipv4.ip_forward=1 \
		net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0 \
		"net.ipv4.conf.$BENCH_REP.rp_filter=0"
	mac=$(ip -n "$sink" -j link show "$BENCH_SINK_DEV" | jq -r '.[0].address')
	ip -n "$node" neigh replace "$BENCH_GATEWAY" lladdr "$mac" dev "$BENCH_UPLINK" nud permanent
}

# bench_topo_args PREFIX: the railgate-bench arguments for this topology.
bench_topo_args() {
	echo --node "$1-node" --sink "$1-sink" --rep "$BENCH_REP" --uplink "$BENCH_UPLINK" \
		--sink-dev "$BENCH_SINK_DEV" --gateway "$BENCH_GATEWAY" --hold-devs "$BENCH_HOLD_DEVS"
}
