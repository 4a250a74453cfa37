#!/usr/bin/env bash
# The `railgate` command on one node (tests/lib/onenode.sh): check, up, status,
# stats, lookup, reload, bad configs and down, in every attach mode, with
# numbered frames proving nothing is lost while the config changes.
source "$(dirname "$0")/../lib/integration.sh" onenode rgcli
onenode_up


# ---- check ------------------------------------------------------------
onenode_config "$TMP/good.yaml" tc 2
check "check accepts a valid config" "$RAILGATE" check -c "$TMP/good.yaml"
# The digest is of the bytes parsed: a pipe can be read once only, so a
# digest taken by reading the path again would be of nothing.
want=$(sha256sum "$TMP/good.yaml" | cut -c1-16)
out=$("$RAILGATE" check -c /dev/stdin <"$TMP/good.yaml" 2>&1 | head -1)
check_eq "check -c /dev/stdin shows the digest of the config it read" \
	"/dev/stdin: valid (config onenode, sha256 $want)" "$out"
out=$(cat "$TMP/good.yaml" | "$RAILGATE" check -c /dev/stdin 2>&1 | head -1)
check_eq "the same through a pipe" "/dev/stdin: valid (config onenode, sha256 $want)" "$out"
sed 's/subnet: 10.0.1.0\/24/subnet: 10.0.1.5\/24/; s/representors:/represntors:/' "$TMP/good.yaml" >"$TMP/bad.yaml"
out=$("$RAILGATE" check -c "$TMP/bad.yaml" 2>&1)
rc=$?
check_eq "check exits 1 on a bad config" 1 "$rc"
check "check names FILE:LINE:COL of the host-bits error" grep -qE "bad.yaml:[0-9]+:[0-9]+: .*10.0.1.5/24 has host bits set" <<<"$out"
check "check reports the unknown key too (all errors, one run)" grep -qE "bad.yaml:[0-9]+:[0-9]+: unknown key 'represntors'" <<<"$out"

# ---- a missing interface changes nothing ---------------------------------
sed 's/pf1vf\*/pf9vf0/' "$TMP/good.yaml" >"$TMP/noif.yaml"
out=$(rg up -c "$TMP/noif.yaml" 2>&1)
check_eq "up with a missing representor exits 1" 1 "$?"
check "the error names the interface" grep -q "pf9vf0: no such interface" <<<"$out"
check_eq "nothing is attached after the failed up" 0 "$(links_of_ours)"
check_fails "nothing is pinned after the failed up" test -e "$RG_PINS/maps"

for mode in tc xdp xdp-generic; do
	onenode_config "$TMP/$mode.yaml" "$mode" 2
	check "[$mode] up" rg up -c "$TMP/$mode.yaml"
	OUR_PROG_IDS=$(ours_prog_ids)
	check_eq "[$mode] status shows both representors in $mode mode" "$mode $mode" \
		"$(jq_status '[.interfaces[] | select(.attached) | .mode] | join(" ")')"
	check_eq "[$mode] two links of ours" 2 "$(links_of_ours)"
	check "[$mode] up again (same config)" rg up -c "$TMP/$mode.yaml"
	check_eq "[$mode] a second up never attaches twice" 2 "$(links_of_ours)"

	rg stats --reset >/dev/null
	stream_start pod0 10.0.1.10 300 1000 9100
	check_stream "[$mode] 300 numbered cross-rail frames all arrive"
	check_eq "[$mode] stats count them as cross_rail on rail0" 300 \
		"$(rg stats --json | jq '.rails[] | select(.rail=="rail0") | .counters.cross_rail.packets')"
	check_eq "[$mode] lookup: another rail is cross_rail" cross_rail \
		"$(rg lookup 10.0.1.10 --from pf0vf0 --json | jq -r .verdict)"
	check_eq "[$mode] lookup: own rail passes" pass_local \
		"$(rg lookup 10.0.0.77 --from pf0vf0 --json | jq -r .verdict)"
	check_eq "[$mode] lookup: supernet hole is no_route" no_route \
		"$(rg lookup 10.0.200.1 --from pf0vf0 --json | jq -r .verdict)"
	check_eq "[$mode] lookup: outside everything passes" pass_other \
		"$(rg lookup 172.16.0.1 --from pf0vf0 --json | jq -r .verdict)"
	check "[$mode] down" rg down
	check_eq "[$mode] down detaches everything" 0 "$(links_of_ours)"
done

# ---- hitless reload ----------------------------------------------------------
onenode_config "$TMP/two.yaml" tc 2
onenode_config "$TMP/three.yaml" tc 3
rg up -c "$TMP/two.yaml" >/dev/null
OUR_PROG_IDS=$(ours_prog_ids)
check_hitless_reloads "$TMP/two.yaml" "$TMP/three.yaml"
check_eq "pf2vf0 attached after the last reload" "rail2" \
	"$(jq_status '.interfaces[] | select(.name=="pf2vf0") | .rail')"
stream_start pod2 10.0.1.10 100 1000 9300
check_stream "the added rail forwards cross-rail"

# ---- a bad config during traffic changes nothing -------------------------
digest=$(jq_status .config_digest)
stream_start pod0 10.0.2.20 1000 1000 9400
sleep 0.2
check_fails "up with a bad config fails" rg up -c "$TMP/bad.yaml"
check_fails "up with a missing interface fails" rg up -c "$TMP/noif.yaml"
check_stream "frames keep flowing through a rejected reload"
check_eq "the running config is untouched" "$digest" "$(jq_status .config_digest)"
check_eq "still three links" 3 "$(links_of_ours)"

# ---- mode switch by reload -------------------------------------------------
onenode_config "$TMP/three-xdp.yaml" xdp 3
stream_start pod0 10.0.1.10 1000 1000 9500
sleep 0.2
check "reload switching tc -> xdp during traffic" rg up -c "$TMP/three-xdp.yaml"
check_stream "no frame lost across the mode switch"
check_eq "every interface now in xdp mode" "xdp xdp xdp" \
	"$(jq_status '[.interfaces[] | .mode] | join(" ")')"

# ---- down ------------------------------------------------------------------
check "down" rg down
check_eq "nothing of ours is attached" 0 "$(links_of_ours)"
check_fails "nothing is pinned" test -e "$RG_PINS"
check "down twice is fine" rg down
check_fails "status says not up" rg status
rg up -c "$TMP/two.yaml" >/dev/null
OUR_PROG_IDS=$(ours_prog_ids)
rm -f "$RG_PINS"/progs/tc
check "down on a half-broken state (a pin missing)" rg down
check_eq "half-broken down detached everything" 0 "$(links_of_ours)"

tap_done
