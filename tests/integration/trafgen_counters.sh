#!/usr/bin/env bash
# The trafgen configs of tools/trafgen (netsniff-ng's generator, for a real
# NIC) on one node (tests/lib/onenode.sh): each one, run in pod0 on its VF
# the way docs/performance.md tells, bounded to N frames and 20 seconds,
# moves exactly the counter its header promises by N (cross_rail, drop
# no_route, drop spoofed on rail0); the dropped ones never reach the uplink;
# a config run without the MACs it needs refuses to start.  trafgen runs with
# --no-sock-mem --notouch-irq: it would otherwise tune the socket memory sysctls and the IRQ
# affinities, which are the machine's.
source "$(dirname "$0")/../lib/integration.sh" onenode rgtgn
onenode_up
N=50
onenode_config "$TMP/railgate.yaml" tc 3
check "railgate up" rg up -c "$TMP/railgate.yaml"
pod_mac=$(ip -n "$ON-pod0" -o link show net1 | grep -oE 'link/ether [0-9a-f:]+' | awk '{print $2}')

# counter RAIL STAT: packets of one counter
counter() { rg stats --json | jq -r ".rails[] | select(.rail==\"$1\") | .counters.$2.packets // 0"; }
uplink_rx() { ip -n "$ON-sw" -s -j link show up0 | jq '.[0].stats64.rx.packets'; }
trafgen_run() {      # trafgen_run CFG [DEFINES...]: N frames from pod0's net1
	local cfg=$1
	shift
	timeout 20 ip netns exec "$ON-pod0" trafgen --cpp "$@" --dev net1 --conf "tools/trafgen/$cfg.cfg" \
		--num "$N" -P1 --no-sock-mem --notouch-irq --no-cpu-stats >"$TMP/trafgen.log" 2>&1
}

# expect CFG STAT UPLINK: N frames of CFG add N to rail0's STAT; UPLINK
# "reaches" when they leave by the uplink, "stays" when they must not.
expect() {
	local cfg=$1 stat=$2 uplink=$3 before rx rc
	before=$(counter rail0 "$stat")
	rx=$(uplink_rx)
	trafgen_run "$cfg" -D SRC_MAC="$pod_mac" -D GW_MAC="$GW_MAC_RAIL"; rc=$?
	check_eq "$cfg.cfg: trafgen sends $N frames and exits" 0 "$rc"
	[ "$rc" = 0 ] || sed 's/^/# /' "$TMP/trafgen.log"
	check_eq "$cfg.cfg: rail0 $stat +$N" "$N" $(( $(counter rail0 "$stat") - before ))
	rx=$(( $(uplink_rx) - rx ))
	if [ "$uplink" = reaches ]; then
		check "$cfg.cfg: the $N frames reached the switch by the uplink ($rx)" test "$rx" -ge "$N"
	else
		check "$cfg.cfg: they did not reach the uplink ($rx frames there, all of them other traffic)" test "$rx" -lt "$N"
	fi
}
expect cross_rail cross_rail reaches
expect no_route no_route stays
expect spoofed spoofed stays

out=$(timeout 20 ip netns exec "$ON-pod0" trafgen --cpp -D GW_MAC="$GW_MAC_RAIL" --dev net1 \
	--conf tools/trafgen/cross_rail.cfg --num 1 -P1 --no-sock-mem --notouch-irq --no-cpu-stats 2>&1); rc=$?
check "without SRC_MAC the config refuses to start" test "$rc" -ne 0
check "and says what to give" grep -q "give -D SRC_MAC" <<<"$out"
rg down >/dev/null
tap_done
