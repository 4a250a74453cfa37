#!/usr/bin/env bash
# `railgate run`, the node daemon, on one node (tests/lib/onenode.sh): a VF
# created later is attached and forwards within a second; a ConfigMap-style
# symlink swap adds a rail with no numbered frame lost on the old ones; a
# broken config changes nothing and is logged and counted; a gateway MAC
# change is followed; kill -9 under traffic and a restart lose nothing and
# the counters go on; /metrics passes promtool and agrees with `stats`;
# SIGTERM keeps the datapath with --keep and takes it down without; one
# config serves nodes through spec.nodes overrides and `uplink: auto`.
source "$(dirname "$0")/../lib/integration.sh" onenode rgdmn
METRICS=127.0.0.1:9464
CM="$TMP/cm"                      # the ConfigMap volume, as the kubelet lays it out
CONF="$CM/railgate.yaml"

onenode_up

in_node() { ip netns exec "$ON-node" "$@"; }
http_code() { in_node curl -s -m 2 -o /dev/null -w '%{http_code}' "http://$METRICS$1"; }
scrape() { in_node curl -sf -m 2 "http://$METRICS/metrics"; }
# metric NAME{LABELS}: one sample's value from a fresh scrape.
metric() { scrape | awk -v m="$1" '$1 == m { print $2 }'; }
cross_rail_of() {
	rg stats --json | jq ".rails[] | select(.rail==\"$1\") | .counters.cross_rail.packets"
}

# A ConfigMap volume: railgate.yaml -> ..data/railgate.yaml, ..data -> ..<version>.
# cm_publish FILE VERSION swaps ..data the way the kubelet does (rename over).
cm_publish() {
	local file=$1 version=$2
	mkdir -p "$CM/..$version"
	cp "$file" "$CM/..$version/railgate.yaml"
	ln -sfn "..$version" "$CM/..data_tmp"
	mv -T "$CM/..data_tmp" "$CM/..data"
	[ -L "$CONF" ] || ln -s ..data/railgate.yaml "$CONF"
}


# daemon_start ARGS...: railgate run in the node namespace, log in $LOG.
daemon_start() {
	LOG="$TMP/daemon.log"
	# not through in_node: $! must be the daemon (ip netns exec execs it)
	ip netns exec "$ON-node" ${DAEMON_WRAP:-} "$RAILGATE" run -c "$CONF" --metrics "$METRICS" \
		--log-format json "$@" 2>>"$LOG" &
	DAEMON_PID=$!
}

is_ready() { [ "$(http_code /readyz)" = 200 ]; }
rep_rail_is() { [ "$(jq_status ".interfaces[] | select(.name==\"$1\" and .attached) | .rail")" = "$2" ]; }
rep_gone() { [ -z "$(jq_status ".interfaces[] | select(.name==\"$1\") | .name")" ]; }
gateway_mac_is() { [ "$(jq_status .gateway.mac)" = "$1" ]; }
uplink_mtu_is() { [ "$(jq_status .uplink.mtu)" = "$1" ]; }
log_has() { grep -q "$1" "$LOG"; }
links_are() { [ "$(links_of_ours)" = "$1" ]; }
metric_is() { [ "$(metric "$1")" = "$2" ]; }
daemon_exited() { ! kill -0 "$DAEMON_PID" 2>/dev/null; }

# ---- start: uplink discovered, rail3's glob matches nothing yet ------------
onenode_config "$TMP/four.yaml" tc 4
sed -i 's/uplink: uplink0/uplink: auto/' "$TMP/four.yaml"
cm_publish "$TMP/four.yaml" 2026_01_01
check "run --check-args accepts the command line and the config" \
	"$RAILGATE" run -c "$CONF" --metrics 0.0.0.0:9464 --keep --log-format json --check-args
check_fails "run --check-args refuses a bad metrics address" \
	"$RAILGATE" run -c "$CONF" --metrics 127.0.0.1:0 --check-args
daemon_start --keep
check "the daemon is ready within 5 s" wait_for 5 is_ready
check_eq "/healthz answers 200" 200 "$(http_code /healthz)"
OUR_PROG_IDS=$(ours_prog_ids)
check_eq "uplink: auto found uplink0 (route to the gateway)" uplink0 "$(jq_status .uplink.name)"
check_eq "three representors attached at start" 3 "$(links_of_ours)"
check_eq "reloads_total{result=\"ok\"} starts at 0" 0 "$(metric 'railgate_reloads_total{result="ok"}')"
check_eq "the start's load applied: config_last_reload_successful 1" 1 "$(metric railgate_config_last_reload_successful)"
start_ts=$(metric railgate_config_last_reload_success_timestamp_seconds)
check "and its timestamp is the Unix time of the start" \
	awk -v t="$start_ts" -v now="$(date +%s)" 'BEGIN { exit !(t > now - 600 && t <= now + 1) }' 

# ---- a pod scheduled later: its VF appears and is attached within a second ---
start=$(now_ms)
onenode_add_pod 3   # the VF of a pod scheduled after the daemon started
wait_for 3 rep_rail_is pf3vf0 rail3
elapsed=$(( $(now_ms) - start ))
if rep_rail_is pf3vf0 rail3 && [ "$elapsed" -le 1000 ]; then
	ok "pf3vf0 attached to rail3 ${elapsed} ms after it appeared"
else
	fail "pf3vf0 attached to rail3 within 1 s (took ${elapsed} ms)"
fi
check "the log says it matched a rail" log_has 'pf3vf0 (ifindex [0-9]*) matches a rail'
stream_start pod3 10.0.1.10 200 1000 9601
check_stream "the new pod's cross-rail frames all arrive"
check "ready again once pf3vf0 is attached" wait_for 2 is_ready
ip netns del "$ON-pod3"
check "pf3vf0 forgotten once it vanished" wait_for 2 rep_gone pf3vf0
check "three links of ours left" wait_for 2 links_are 3

# ---- ConfigMap update adding rail4, under traffic on rail0 -----------------------
onenode_add_pod 4
onenode_config "$TMP/five.yaml" tc 5
sed -i 's/uplink: uplink0/uplink: auto/' "$TMP/five.yaml"
gen0=$(jq_status .config_generation)
stream_start pod0 10.0.1.10 2000 1000 9602
sleep 0.5
cm_publish "$TMP/five.yaml" 2026_01_02
check "rail4's pf4vf0 attached after the symlink swap" wait_for 3 rep_rail_is pf4vf0 rail4
check_stream "no numbered frame lost on rail0 across the ConfigMap update"
stream_start pod4 10.0.2.20 200 1000 9603
check_stream "the new rail4 forwards cross-rail"
check "config generation advanced" test "$(jq_status .config_generation)" -gt "$gen0"
check_eq "reloads_total{result=\"ok\"} is 1" 1 "$(metric 'railgate_reloads_total{result="ok"}')"
check "the daemon is ready with five rails" wait_for 2 is_ready

# ---- a broken ConfigMap update changes nothing -----------------------------------
digest=$(jq_status .config_digest)
gen1=$(jq_status .config_generation)
sed 's/subnet: 10.0.1.0\/24/subnet: 10.0.1.5\/24/' "$TMP/five.yaml" >"$TMP/broken.yaml"
stream_start pod0 10.0.1.10 1000 1000 9604
sleep 0.2
cm_publish "$TMP/broken.yaml" 2026_01_03
check "the error is logged with FILE:LINE:COL" \
	wait_for 3 log_has 'railgate.yaml:[0-9]*:[0-9]*: .*10.0.1.5/24 has host bits set'
check_stream "frames keep flowing through the rejected update"
check_eq "reloads_total{result=\"error\"} is 1" 1 "$(metric 'railgate_reloads_total{result="error"}')"
check_eq "config_last_reload_successful is 0" 0 "$(metric railgate_config_last_reload_successful)"
bad_ts=$(metric railgate_config_last_reload_success_timestamp_seconds)
check_eq "the running config is untouched" "$digest" "$(jq_status .config_digest)"
check_eq "the config generation did not move" "$gen1" "$(jq_status .config_generation)"
check_eq "still four links of ours" 4 "$(links_of_ours)"
check "every log line is one JSON object with time, level, event, msg" \
	jq -e -s 'all(.[]; has("time") and has("level") and has("event") and has("msg"))' "$LOG"
# The node changes while the file is still broken: the reconcile applies the
# running config again, and status must go on naming that config's digest,
# not the digest of the rejected file.
ip -n "$ON-node" link add pf1vf1 type veth peer name net2 netns "$ON-pod1"
ip -n "$ON-node" link set pf1vf1 up
check "a representor appearing after the rejected update is attached" \
	wait_for 3 rep_rail_is pf1vf1 rail1
check_eq "status still shows the running config's digest, not the rejected file's" \
	"$digest" "$(jq_status .config_digest)"
ip -n "$ON-node" link del pf1vf1
check "and forgotten when it goes" wait_for 2 rep_gone pf1vf1
cm_publish "$TMP/five.yaml" 2026_01_04
check "the repaired config is applied" wait_for 3 metric_is 'railgate_reloads_total{result="ok"}' 2
check_eq "config_last_reload_successful is 1 again" 1 "$(metric railgate_config_last_reload_successful)"
check "the success timestamp moved past the one the failure left" \
	awk -v a="$bad_ts" -v b="$(metric railgate_config_last_reload_success_timestamp_seconds)" 'BEGIN { exit !(b > a) }' 

# ---- a library warning reaches the log as a warning, when it happens ---------
# Native and generic XDP cannot share a device: switching between them
# detaches first, a short gap in routing that the datapath layer warns about.
sed 's/mode: tc/mode: xdp-generic/' "$TMP/five.yaml" >"$TMP/five-generic.yaml"
sed 's/mode: tc/mode: xdp/' "$TMP/five.yaml" >"$TMP/five-xdp.yaml"
all_modes_are() { [ "$(jq_status '[.interfaces[] | select(.attached) | .mode] | unique | join(" ")')" = "$1" ]; }
cm_publish "$TMP/five-generic.yaml" 2026_01_05
check "the representors move to xdp-generic" wait_for 3 all_modes_are xdp-generic
cm_publish "$TMP/five-xdp.yaml" 2026_01_06
check "and to native xdp" wait_for 3 all_modes_are xdp
check "the detach before the mode switch is logged at level warn" \
	jq -e -s 'any(.[]; .level == "warn" and .event == "reload" and
		(.msg | test("pf0vf0: detached xdp-generic to switch XDP mode")))' "$LOG"
check_fails "and never at level info" \
	jq -e -s 'any(.[]; .level == "info" and (.msg | test("to switch XDP mode")))' "$LOG"
cm_publish "$TMP/five.yaml" 2026_01_07
check "back to tc" wait_for 3 all_modes_are tc

# ---- the gateway moves to another MAC (switch failover) ----------------------
NEW_MAC=02:00:00:00:99:01
ip -n "$ON-sw" link set up0 address "$NEW_MAC"
ip -n "$ON-node" neigh replace 10.1.255.1 lladdr "$NEW_MAC" dev uplink0 nud reachable
check "the maps follow the new gateway MAC" wait_for 2 gateway_mac_is "$NEW_MAC"
check "the log says the gateway moved" log_has "gateway 10.1.255.1 moved to $NEW_MAC"
stream_start pod0 10.0.1.10 200 1000 9605
check_stream "frames follow the gateway to its new MAC"

# ---- the uplink's MTU changes: the too_big check and its answers follow ---------
old_mtu=$(jq_status .uplink.mtu)
ip -n "$ON-node" link set uplink0 mtu 1400
check "the maps follow the uplink's new MTU" wait_for 3 uplink_mtu_is 1400
check "the log says the uplink's MTU changed" log_has "uplink uplink0 MTU $old_mtu -> 1400"
ip -n "$ON-node" link set uplink0 mtu "$old_mtu"
check "and back to $old_mtu" wait_for 3 uplink_mtu_is "$old_mtu"

# ---- the uplink going down is reported -------------------------------------------
ip -n "$ON-node" link set uplink0 down
check "railgate_uplink_up drops to 0" wait_for 2 metric_is 'railgate_uplink_up{interface="uplink0"}' 0
check "the log says the uplink is down" log_has 'uplink uplink0 is down'
ip -n "$ON-node" link set uplink0 up
check "railgate_uplink_up back to 1" wait_for 3 metric_is 'railgate_uplink_up{interface="uplink0"}' 1

# ---- metrics: promtool, and the same numbers as `railgate stats` ---------------------
scrape >"$TMP/metrics.txt"
check "promtool check metrics accepts /metrics" promtool check metrics <"$TMP/metrics.txt"
check_eq "scraped cross_rail of rail0 equals stats --json" "$(cross_rail_of rail0)" \
	"$(awk '$1 == "railgate_packets_total{rail=\"rail0\",verdict=\"cross_rail\"}" { print $2 }' "$TMP/metrics.txt")"
check_eq "config generation metric equals status" "$(jq_status .config_generation)" \
	"$(awk '$1 == "railgate_config_generation" { print $2 }' "$TMP/metrics.txt")"
check "railgate_attached shows pf4vf0 on rail4 in tc mode" \
	grep -qx 'railgate_attached{interface="pf4vf0",rail="rail4",mode="tc"} 1' "$TMP/metrics.txt"
check "railgate_build_info is exported" grep -q '^railgate_build_info{version=".*"} 1$' "$TMP/metrics.txt"
check_eq "an unknown path is 404" 404 "$(http_code /nope)"

# ---- kill -9 under traffic, restart: nothing lost, counters go on ------------------
links_before=$(bpftool -j link show | jq -c "[.[] | select(IN(.prog_id; $OUR_PROG_IDS)) | .id] | sort")
before=$(cross_rail_of rail0)
stream_start pod0 10.0.1.10 3000 1000 9606
sleep 0.5
kill -9 "$DAEMON_PID"
wait "$DAEMON_PID" 2>/dev/null
daemon_start --keep
check "the restarted daemon is ready" wait_for 5 is_ready
check_stream "no numbered frame lost across kill -9 and restart"
check_eq "cross_rail counters continue across the restart" $((before + 3000)) "$(cross_rail_of rail0)"
check_eq "the restart re-attached nothing (same link ids)" "$links_before" \
	"$(bpftool -j link show | jq -c "[.[] | select(IN(.prog_id; $OUR_PROG_IDS)) | .id] | sort")"
check "the restart adopted the pins" log_has '"event":"start","msg":"config .* (hitless, over the pinned datapath)'

# ---- SIGHUP reloads -------------------------------------------------------------------
ok_before=$(metric 'railgate_reloads_total{result="ok"}')
kill -HUP "$DAEMON_PID"
check "SIGHUP reloads the config" wait_for 3 metric_is 'railgate_reloads_total{result="ok"}' $((ok_before + 1))

# ---- SIGTERM with --keep leaves the datapath --------------------------------------------
kill -TERM "$DAEMON_PID"
check "SIGTERM ends the daemon" wait_for 5 daemon_exited
wait "$DAEMON_PID"
check_eq "it exits 0" 0 "$?"
DAEMON_PID=""
check "with --keep the datapath stays up" rg status
check_eq "with --keep every link stays" 4 "$(links_of_ours)"
stream_start pod0 10.0.1.10 200 1000 9607
check_stream "forwarding goes on with no daemon"

# ---- per-node overrides (spec.nodes), and SIGTERM without --keep -------------------
sed 's/uplink: auto/uplink: eth-not-here/' "$TMP/five.yaml" >"$TMP/nodes.yaml"
cat >>"$TMP/nodes.yaml" <<YAML
  nodes:
    - name: gpu-node-07
      uplink: uplink0
YAML
cm_publish "$TMP/nodes.yaml" 2026_01_08
check_fails "without NODE_NAME the global uplink (absent here) is used" \
	in_node "$RAILGATE" up -c "$CONF"
NODE_NAME=gpu-node-07 daemon_start
check "with NODE_NAME=gpu-node-07 the override applies and the node is ready" wait_for 5 is_ready
check_eq "the uplink comes from spec.nodes" uplink0 "$(jq_status .uplink.name)"
stream_start pod4 10.0.1.10 200 1000 9608
check_stream "forwarding with the per-node config"
kill -TERM "$DAEMON_PID"
check "SIGTERM ends the daemon" wait_for 5 daemon_exited
DAEMON_PID=""
check_fails "without --keep the datapath is down" rg status
check_eq "without --keep nothing of ours is attached" 0 "$(links_of_ours)"
check "the log says so" log_has 'datapath taken down'

# ---- the capability-only DaemonSet's set is enough ----------------------------------
caps=$(awk '/capabilities:/ { c = 1 } c && /add:/ { a = 1; next }
	a && /^ *- [A-Z_]+/ { printf "%s+%s", sep, tolower($2); sep = "," ; next } a { exit }' \
	deploy/overlays/capabilities/daemonset-capabilities.yaml)
check "deploy/overlays/capabilities/daemonset-capabilities.yaml adds capabilities ($caps)" test -n "$caps"
NODE_NAME=gpu-node-07 DAEMON_WRAP="setpriv --bounding-set -all,$caps" daemon_start
check "with only those capabilities the daemon gets ready" wait_for 5 is_ready
stream_start pod0 10.0.1.10 200 1000 9609
check_stream "and forwards cross-rail"
kill -TERM "$DAEMON_PID"
check "and takes the datapath down on SIGTERM" wait_for 5 daemon_exited
DAEMON_PID=""

tap_done
