#!/usr/bin/env bash
# tc mode on kernels without tcx (< 6.6): railgate attaches a clsact ingress
# filter of its own (handle 0x4a47, pref 0xc047) instead of a tcx link.
# RAILGATE_TC_ATTACH=clsact forces that path on this kernel.  Checked on the
# one-node topology (tests/lib/onenode.sh): up, status, no double attach,
# numbered frames through it, hitless reloads, a reload that drops a
# representor, down (also on a half-broken state), and that other users'
# filters on the same hook survive all of it.
source "$(dirname "$0")/../lib/integration.sh" onenode rgcls
onenode_up
export RAILGATE_TC_ATTACH=clsact

RG_FILTER="handle 0x4a47 railgate_tc"
node_tc() { ip netns exec "$ON-node" tc "$@"; }

# our_filters DEV...: how many of railgate's filters the devices' ingress has.
our_filters() {
	local dev n=0
	for dev in "$@"; do
		n=$((n + $(node_tc filter show dev "$dev" ingress 2>/dev/null | grep -c "$RG_FILTER")))
	done
	echo "$n"
}

# Someone else's filters on the same hook, beside railgate's: a u32 filter
# that runs before ours (pref 100, matches only TEST-NET-1, so our frames
# go on to the next filter) on pf0vf0, whose clsact qdisc they created; a
# classic-BPF filter (pref 200, never matches) on pf2vf0.
node_tc qdisc add dev pf0vf0 clsact
node_tc filter add dev pf0vf0 ingress pref 100 protocol ip u32 match ip dst 192.0.2.1/32 classid 1:1
node_tc qdisc add dev pf2vf0 clsact
node_tc filter add dev pf2vf0 ingress pref 200 bpf bytecode '1,6 0 0 0,'
foreign_u32() { node_tc filter show dev pf0vf0 ingress | grep -c "pref 100 u32 .*fh 800::800"; }
foreign_bpf() { node_tc filter show dev pf2vf0 ingress | grep -c "pref 200 bpf .*bytecode"; }

onenode_config "$TMP/two.yaml" tc 2
onenode_config "$TMP/three.yaml" tc 3

# ---- up ---------------------------------------------------------------------
check "up in tc mode without tcx" rg up -c "$TMP/two.yaml"
OUR_PROG_IDS=$(ours_prog_ids)
check_eq "one railgate filter on each representor" "1 1" \
	"$(our_filters pf0vf0) $(our_filters pf1vf0)"
check "the filter sits at railgate's priority 0xc047, direct-action" \
	grep -q "pref 49223 bpf .*$RG_FILTER:\[[0-9]*\] direct-action" <<<"$(node_tc filter show dev pf0vf0 ingress)"
check_eq "no tcx link was made" 0 "$(links_of_ours)"
check_eq "status shows both representors attached as tc-clsact" "tc-clsact tc-clsact" \
	"$(jq_status '[.interfaces[] | select(.attached) | .mode] | join(" ")')"
check "human status prints the mode" grep -q "pf1vf0 .* tc-clsact .* attached" <<<"$(rg status)"
check "up again (same config)" rg up -c "$TMP/two.yaml"
check_eq "a second up never attaches twice" "1 1" "$(our_filters pf0vf0) $(our_filters pf1vf0)"
check_eq "the foreign u32 filter survives up" 1 "$(foreign_u32)"

rg stats --reset >/dev/null
stream_start pod0 10.0.1.10 300 1000 9100
check_stream "300 numbered cross-rail frames cross through the clsact filter"
check_eq "stats count them as cross_rail on rail0" 300 \
	"$(rg stats --json | jq '.rails[] | select(.rail=="rail0") | .counters.cross_rail.packets')"

# ---- filters that vanish are found missing and put back ---------------------------
node_tc filter del dev pf1vf0 ingress pref 49223 handle 0x4a47 bpf
check_eq "status sees a filter someone removed as not attached" "false" \
	"$(jq_status '.interfaces[] | select(.name=="pf1vf0") | .attached')"
check "up puts it back" rg up -c "$TMP/two.yaml"
check_eq "pf1vf0 has railgate's filter again, once" 1 "$(our_filters pf1vf0)"

# ---- hitless reloads -------------------------------------------------------------
check_hitless_reloads "$TMP/two.yaml" "$TMP/three.yaml"
check_eq "three railgate filters" 3 "$(our_filters pf0vf0 pf1vf0 pf2vf0)"
stream_start pod2 10.0.1.10 100 1000 9300
check_stream "the added rail forwards cross-rail"

# ---- a reload that drops a representor ---------------------------------------
check "reload without rail2" rg up -c "$TMP/two.yaml"
check_eq "pf2vf0 lost railgate's filter" 0 "$(our_filters pf2vf0)"
check_eq "the foreign bpf filter on pf2vf0 stays" 1 "$(foreign_bpf)"
check_eq "pf0vf0 and pf1vf0 keep theirs" "1 1" "$(our_filters pf0vf0) $(our_filters pf1vf0)"
check_eq "status lists only the two left" "pf0vf0 pf1vf0" \
	"$(jq_status '[.interfaces[] | .name] | join(" ")')"
check_eq "the foreign u32 filter survives reloads" 1 "$(foreign_u32)"

# ---- switching between tcx and clsact by reload ---------------------------------
stream_start pod0 10.0.1.10 1000 1000 9400
sleep 0.2
check "reload with tcx during traffic" env RAILGATE_TC_ATTACH=tcx \
	ip netns exec "$ON-node" "$RAILGATE" up -c "$TMP/two.yaml"
check_stream "no frame lost switching clsact -> tcx"
check_eq "two tcx links of ours" 2 "$(links_of_ours)"
check_eq "and no railgate filter left" 0 "$(our_filters pf0vf0 pf1vf0)"
stream_start pod0 10.0.1.10 1000 1000 9500
sleep 0.2
check "reload back to clsact during traffic" rg up -c "$TMP/two.yaml"
check_stream "no frame lost switching tcx -> clsact"
check_eq "the links are gone, the filters back" "0 2" \
	"$(links_of_ours) $(our_filters pf0vf0 pf1vf0)"
out=$(RAILGATE_TC_ATTACH=bogus ip netns exec "$ON-node" "$RAILGATE" up -c "$TMP/two.yaml" 2>&1)
check_eq "an unknown RAILGATE_TC_ATTACH fails the up" 1 "$?"
check "and names the variable" grep -q "RAILGATE_TC_ATTACH=bogus" <<<"$out"

# ---- someone else's filter at railgate's handle and priority ------------------
node_tc filter add dev pf2vf0 ingress pref 49223 handle 0x4a47 bpf bytecode '1,6 0 0 0,'
digest=$(jq_status .config_digest)
out=$(rg up -c "$TMP/three.yaml" 2>&1)
check_eq "up refuses to attach over a foreign filter in railgate's slot" 1 "$?"
check "and says whose slot it is" grep -q "pf2vf0: another tc filter holds railgate's handle 0x4a47" <<<"$out"
check_eq "that foreign filter is still there" 1 \
	"$(node_tc filter show dev pf2vf0 ingress | grep -c "pref 49223 bpf .*handle 0x4a47 .*bytecode")"
check_eq "the running config is untouched" "$digest" "$(jq_status .config_digest)"
check_eq "and still runs on its two representors" "1 1" \
	"$(our_filters pf0vf0) $(our_filters pf1vf0)"
node_tc filter del dev pf2vf0 ingress pref 49223 handle 0x4a47 bpf

# ---- down ------------------------------------------------------------------------
check "down" rg down
check_eq "down removes railgate's filters" 0 "$(our_filters pf0vf0 pf1vf0 pf2vf0)"
check_eq "the foreign u32 filter survives down" 1 "$(foreign_u32)"
check_eq "the foreign bpf filter survives down" 1 "$(foreign_bpf)"
check "the clsact qdisc someone else made stays" grep -q "qdisc clsact" <<<"$(node_tc qdisc show dev pf0vf0)"
check_fails "nothing is pinned" test -e "$RG_PINS"
check "down twice is fine" rg down

rg up -c "$TMP/two.yaml" >/dev/null
rm -f "$RG_PINS"/progs/tc "$RG_PINS"/maps/rg_stats
check "down on a half-broken state (pins missing)" rg down
check_eq "half-broken down removed railgate's filters" 0 "$(our_filters pf0vf0 pf1vf0)"

tap_done
