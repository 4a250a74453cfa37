#!/usr/bin/env bash
# Upgrading railgate across a map ABI change (loader/datapath/takeover.h): the new
# binary's `up` takes over a node that the previous release runs, while
# numbered frames cross rails, in every attach mode.  The previous release
# is the real one: the last ABI 2 commit, built from this repository's
# history (about 10 s).  Also: a newer version's pins are refused, and a
# failed first load leaves the old version running.
source "$(dirname "$0")/../lib/integration.sh" onenode rgtko
onenode_up

# The last commit whose datapath is map ABI 2 (the ABI before this one).
OLD_REV=a84d825
OLD_ABI=2
OLD="$TMP/old/build/railgate"
NEW_ABI=$(sed -n 's/^#define RG_ABI_VERSION //p' maps/rg_abi.h)
OLD_PINS="$RAILGATE_PIN_DIR/v$OLD_ABI"

if ! git cat-file -e "$OLD_REV^{commit}" 2>/dev/null; then
	fail "the previous release ($OLD_REV) is in this clone's history (a shallow clone cannot run this test)"
	tap_done
	exit
fi
mkdir -p "$TMP/old"
git archive "$OLD_REV" | tar -x -C "$TMP/old"
check "the previous release (ABI v$OLD_ABI, $OLD_REV) builds" make -C "$TMP/old" -j2 build/railgate
old() { ip netns exec "$ON-node" "$OLD" "$@"; }
check_eq "it is ABI v$OLD_ABI and this tree is a newer one" "$OLD_ABI $((NEW_ABI > OLD_ABI))" \
	"$(sed -n 's/^#define RG_ABI_VERSION //p' "$TMP/old/maps/rg_abi.h") 1"

old_prog_ids() { RG_PINS=$OLD_PINS ours_prog_ids; }

# takeover MODE TCATTACH: the previous release up in MODE, then this one's
# up during a stream of numbered frames.
takeover() {
	local mode=$1 tcattach=$2 name="[$1${2:+ $2}]" old_ids out before after shown=$1
	[ "$tcattach" = clsact ] && shown=tc-clsact
	onenode_config "$TMP/$mode.yaml" "$mode" 3
	RAILGATE_TC_ATTACH=$tcattach old up -c "$TMP/$mode.yaml" >/dev/null
	check "$name the previous release is up under v$OLD_ABI" test -e "$OLD_PINS/maps/rg_state"
	old_ids=$(old_prog_ids)
	check "$name this release's status names the old version and the way out" \
		grep -q "railgate ABI v$OLD_ABI runs this node.*this release's .railgate up. takes it over" \
		<<<"$(rg status 2>&1)"
	stream_start pod0 10.0.1.10 200 1000 9500
	check_stream "$name it forwards cross-rail"
	before=$(old stats --json | jq '.rails[] | select(.rail=="rail0") | .counters.cross_rail.packets')

	stream_start pod0 10.0.1.10 1500 1000 9501
	sleep 0.4
	out=$(RAILGATE_TC_ATTACH=$tcattach rg up -c "$TMP/$mode.yaml" 2>&1)
	check_eq "$name this release's up over it succeeds" 0 "$?"
	check_stream "$name 1500 numbered cross-rail frames all arrive across the takeover"
	check_eq "$name up says it took over from ABI v$OLD_ABI" 1 \
		"$(grep -c "took over from railgate ABI v$OLD_ABI hitlessly" <<<"$out")"
	check_fails "$name the old pins are gone" test -e "$OLD_PINS"
	check_eq "$name status: three representors attached in $shown mode" "3 $shown" \
		"$(jq_status '[.interfaces[] | select(.attached) | .mode] | "\(length) \(unique | join(" "))"')"
	OUR_PROG_IDS=$(ours_prog_ids)
	if [ "$tcattach" != clsact ]; then
		check_eq "$name three links run this release's programs" 3 "$(links_of_ours)"
		check_eq "$name no link runs the old programs" 0 \
			"$(bpftool -j link show | jq "[.[] | select(IN(.prog_id; $old_ids))] | length")"
	fi
	after=$(rg stats --json | jq '.rails[] | select(.rail=="rail0") | .counters.cross_rail.packets')
	check "$name the counters go on from the old ones ($before before, $after after, 1500 streamed)" \
		test "$after" -ge $((before + 1500))

	check "$name down" rg down
	# A program of either release still attached would forward this.
	stream_start pod0 10.0.1.10 50 1000 9502
	out=$(stream_wait 2>&1)
	check_fails "$name after down nothing forwards: no program of either release is left" \
		test $? -eq 0
	check_eq "$name nothing is pinned" "" "$(ls "$RAILGATE_PIN_DIR")"
}

takeover tc tcx
takeover xdp ""
takeover tc clsact

# ---- a failed first load leaves the old version running -----------------
onenode_config "$TMP/two.yaml" xdp 2
onenode_config "$TMP/three.yaml" xdp 3
old up -c "$TMP/two.yaml" >/dev/null
# pf2vf0 gets somebody else's XDP program: this release's up must fail there
ip -n "$ON-node" link set dev pf2vf0 xdp obj "$REPO/${RG_BUILD:-build}/vf_xdp.bpf.o" sec xdp.frags
out=$(rg up -c "$TMP/three.yaml" 2>&1)
check_eq "up over the old version fails on the foreign program" 1 "$?"
check "it says the old version keeps running" grep -q "railgate ABI v$OLD_ABI keeps running as it was" <<<"$out"
check "the old version's pins are all there" test -e "$OLD_PINS/maps/rg_state"
check_fails "nothing of this release is pinned" test -e "$RG_PINS"
stream_start pod0 10.0.1.10 200 1000 9503
check_stream "the old version still forwards cross-rail"
ip -n "$ON-node" link set dev pf2vf0 xdp off
old down >/dev/null

# ---- a newer version's pins: refused, nothing changes --------------------
onenode_config "$TMP/tc.yaml" tc 2
mkdir "$RAILGATE_PIN_DIR/v$((NEW_ABI + 1))"
out=$(rg up -c "$TMP/tc.yaml" 2>&1)
check_eq "up next to a newer version's pins exits 1" 1 "$?"
check "it names the newer ABI and what to do" \
	grep -q "a newer railgate (map ABI v$((NEW_ABI + 1)).*run the newer binary, or its .railgate down. first" <<<"$out"
check_fails "and pins nothing" test -e "$RG_PINS"
rmdir "$RAILGATE_PIN_DIR/v$((NEW_ABI + 1))"

tap_done
