# The apply-time benchmark of a whole node (issue 14): `railgate up`,
# a reload and `railgate down` against N veth representors, 8 rails of
# N/8 each, in namespaces only (never the machine's own).  Source it, then
# scale_topo_up PREFIX N; trap 'scale_topo_down PREFIX' EXIT.
#
#   PREFIX-scale    pf<r>vf<i> ........... v<r>_<i>     PREFIX-scalevf
#                   (N representors)       (their "VFs": no traffic)
#                   sup0 ..... sup1        (the uplink and its peer, both
#                                           here; GRO on sup1 so that the
#                                           uplink takes XDP redirects)
#
# No frame is sent: the figures are the time the commands take.
SCALE_UPLINK=sup0
SCALE_GATEWAY=172.31.254.1
SCALE_RAILS=8

scale_topo_down() {
	local p=$1 ns
	for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^$p-(scale|scalevf)$"); do
		ip netns del "$ns" 2>/dev/null || true
	done
	return 0
}

# scale_topo_up PREFIX N: N representors (a multiple of 8), created with
# one `ip -batch` (a command per device would be N forks).
scale_topo_up() {
	local p=$1 n=$2 per r i
	per=$((n / SCALE_RAILS))
	scale_topo_down "$p"
	ip netns add "$p-scale"
	ip netns add "$p-scalevf"
	for r in $(seq 0 $((SCALE_RAILS - 1))); do
		for i in $(seq 0 $((per - 1))); do
			echo "link add pf${r}vf$i type veth peer name v${r}_$i netns $p-scalevf"
		done
	done | ip -n "$p-scale" -batch -
	ip -n "$p-scale" link add "$SCALE_UPLINK" type veth peer name sup1
	ip -n "$p-scale" addr add 172.31.254.10/24 dev "$SCALE_UPLINK"
	ip -n "$p-scale" link set lo up
	ip -n "$p-scale" link set "$SCALE_UPLINK" up
	ip -n "$p-scale" link set sup1 up
	ip netns exec "$p-scale" ethtool -K sup1 gro on >/dev/null
}

# scale_config FILE N MODE TCATTACH NAMED [FRONTEND]: 8 rails of N/8
# representors each, as one glob per rail (pf<r>vf*) or, NAMED=1, every
# name listed; TCATTACH "" leaves the key out.
scale_config() {
	local file=$1 n=$2 mode=$3 tcattach=$4 named=$5 frontend=${6:-} per r i reps
	per=$((n / SCALE_RAILS))
	{
		cat <<YAML
apiVersion: railgate.dev/v1alpha1
kind: RailConfig
metadata:
  name: bench-scale
spec:
  supernets: [10.0.0.0/16]
  computenet:
    uplink: $SCALE_UPLINK
    gateway: $SCALE_GATEWAY
    gatewayMAC: 02:00:00:00:00:01
YAML
		[ -n "$frontend" ] && echo "    frontend: [$frontend]"
		echo "  rails:"
		for ((r = 0; r < SCALE_RAILS; r++)); do
			if [ "$named" = 1 ]; then
				reps=$(for ((i = 0; i < per; i++)); do printf 'pf%dvf%d,' $r $i; done)
				reps="[${reps%,}]"
			else
				reps="[pf${r}vf*]"
			fi
			cat <<YAML
    - name: rail$r
      subnet: 10.0.$r.0/24
      gateway: 10.0.$r.1
      representors: $reps
YAML
		done
		echo "  datapath:"
		echo "    mode: $mode"
		[ -n "$tcattach" ] && echo "    tcAttach: $tcattach"
		true
	} >"$file"
}

# scale_ms CMD...: run CMD, print its wall time in ms; its output goes to
# $SCALE_LAST (the caller checks what it said).
scale_ms() {
	local t0 t1
	t0=$(date +%s%N)
	"$@" >"$SCALE_LAST" 2>&1 || { cat "$SCALE_LAST" >&2; return 1; }
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}

# scale_run PREFIX DIR N KIND NAMED: `up` of a fresh config, a reload of a
# changed one (a front-end prefix added: the other generation written and
# flipped, every representor kept) and `down`, in ms, as "UP RELOAD DOWN".
# KIND: xdp, tcx or clsact.  RAILGATE and RAILGATE_PIN_DIR must be set.
scale_run() {
	local p=$1 dir=$2 n=$3 kind=$4 named=$5 mode=tc tca up re dn
	case $kind in
	xdp) mode=xdp tca="" ;;
	*) tca=$kind ;;
	esac
	SCALE_LAST="$dir/scale.out"
	scale_config "$dir/a.yaml" "$n" "$mode" "$tca" "$named"
	scale_config "$dir/b.yaml" "$n" "$mode" "$tca" "$named" 192.168.0.0/16
	up=$(scale_ms ip netns exec "$p-scale" "$RAILGATE" up -c "$dir/a.yaml") || return 1
	grep -q "railgate is up: $SCALE_RAILS rails, $n representors" "$SCALE_LAST" || {
		echo "apply_scale: up of $n $kind representors said: $(cat "$SCALE_LAST")" >&2
		return 1
	}
	re=$(scale_ms ip netns exec "$p-scale" "$RAILGATE" up -c "$dir/b.yaml") || return 1
	dn=$(scale_ms ip netns exec "$p-scale" "$RAILGATE" down) || return 1
	echo "$up $re $dn"
}
