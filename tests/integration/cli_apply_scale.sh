#!/usr/bin/env bash
# A whole node without quadratic work (issue 14): the netlink work of
# `railgate up`, a reload and `down` does not grow with the names a config
# lists.  On 64 veth representors (8 rails x 8, the bench's topology,
# tools/bench/apply_scale.sh), strace counts the netlink syscalls of a config
# naming 8 of them and of one naming all 64: the same number, one
# RTM_GETLINK dump per apply (it was a dump per name).  No timing is
# asserted.  Then datapath.tcAttach through the command: a reload moves
# every representor between tcx and clsact and `status` says which, and a
# bad value is refused, naming the key, with nothing changed.
source "$(dirname "$0")/../lib/integration.sh" none
source tools/bench/apply_scale.sh

RAILGATE="$PWD/${RG_BUILD:-build}/railgate"
NS="$IT_NAME-scale"
PIN="$TMP/bpffs"
on_exit "scale_topo_down $IT_NAME"
on_exit 'mountpoint -q "$PIN" && { rg down >/dev/null 2>&1; umount "$PIN"; }'
scale_topo_up "$IT_NAME" 64
mkdir -p "$PIN"
mount -t bpf bpf "$PIN"
export RAILGATE_PIN_DIR="$PIN/railgate"
unset RAILGATE_TC_ATTACH

rg() { ip netns exec "$NS" "$RAILGATE" "$@"; }

# traced NAME CMD...: run railgate CMD under strace, its netlink syscalls
# into $TMP/NAME.trace; fails when the command fails.  LeakSanitizer cannot
# run under ptrace: a test-asan build is traced with leak detection off.
traced() {
	local name=$1
	shift
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		ip netns exec "$NS" strace -f -qq -o "$TMP/$name.trace" \
		-e trace=sendmsg,sendto,recvmsg,recvfrom "$RAILGATE" "$@" >"$TMP/$name.out" 2>&1
}
link_dumps() { grep -cE 'nlmsg_type=RTM_GETLINK, nlmsg_flags=[A-Z_|]*NLM_F_DUMP' "$TMP/$1.trace"; }
sends() { grep -cE '^[0-9]+ +send(msg|to)\(' "$TMP/$1.trace"; }
recvs() { grep -cE '^[0-9]+ +recv(msg|from)\(' "$TMP/$1.trace"; }

scale_config "$TMP/n8.yaml" 8 tc tcx 1
scale_config "$TMP/n64.yaml" 64 tc tcx 1
scale_config "$TMP/n8b.yaml" 8 tc tcx 1 192.168.0.0/16
scale_config "$TMP/n64b.yaml" 64 tc tcx 1 192.168.0.0/16
check_eq "the 8-name config lists 8 names" 8 "$(grep -o 'pf[0-7]vf[0-7]' "$TMP/n8.yaml" | wc -l)"
check_eq "the 64-name config lists 64 names" 64 "$(grep -o 'pf[0-7]vf[0-7]' "$TMP/n64.yaml" | wc -l)"

for n in 8 64; do
	check "up with $n named representors" traced "up$n" up -c "$TMP/n$n.yaml"
	check "it attached $n" grep -q "railgate is up: 8 rails, $n representors" "$TMP/up$n.out"
	check "reload with $n named representors" traced "reload$n" up -c "$TMP/n${n}b.yaml"
	check "status with $n" traced "status$n" status
	check_eq "status lists $n tcx links" "$n" "$(grep -cE '^pf[0-7]vf[0-7] .* tc +attached' "$TMP/status$n.out")"
	check "down with $n" traced "down$n" down
done
for op in up reload; do
	check_eq "$op with 8 names: one link dump" 1 "$(link_dumps "${op}8")"
	check_eq "$op with 64 names: one link dump" 1 "$(link_dumps "${op}64")"
done
for op in up reload status down; do
	check_eq "$op: as many netlink sends for 64 names as for 8 ($(sends "${op}8"))" \
		"$(sends "${op}8")" "$(sends "${op}64")"
	check_eq "$op: as many netlink receives for 64 names as for 8 ($(recvs "${op}8"))" \
		"$(recvs "${op}8")" "$(recvs "${op}64")"
done

# ---- datapath.tcAttach ----------------------------------------------------------
scale_config "$TMP/g-clsact.yaml" 64 tc clsact 0
scale_config "$TMP/g-tcx.yaml" 64 tc tcx 0
modes() { rg status | awk '/^pf[0-7]vf[0-7] / && $5 == "attached" { print $4 }' | sort | uniq -c | awk '{ print $2 "=" $1 }' | paste -sd' '; }
filters() { # railgate's clsact filters on the 64 representors
	local r i n=0
	for r in $(seq 0 7); do for i in $(seq 0 7); do
		ip netns exec "$NS" tc filter show dev "pf${r}vf$i" ingress 2>/dev/null | grep -q "handle 0x4a47 railgate_tc" && n=$((n + 1))
	done; done
	echo $n
}
check "up with tcAttach: clsact" rg up -c "$TMP/g-clsact.yaml"
check_eq "status says tc-clsact for all 64" "tc-clsact=64" "$(modes)"
check_eq "64 filters of railgate's" 64 "$(filters)"
check "reload with tcAttach: tcx" rg up -c "$TMP/g-tcx.yaml"
check_eq "status says tc (tcx) for all 64" "tc=64" "$(modes)"
check_eq "no filter of railgate's left" 0 "$(filters)"
check_eq "64 tcx links pinned" 64 "$(ls "$RAILGATE_PIN_DIR"/v*/links | grep -c -- '-tc$')"
check "reload back to clsact" rg up -c "$TMP/g-clsact.yaml"
check_eq "tc-clsact again for all 64" "tc-clsact=64" "$(modes)"
check_eq "no tcx link left" 0 "$(ls "$RAILGATE_PIN_DIR"/v*/links | grep -c -- '-tc$')"
check_eq "RAILGATE_TC_ATTACH replaces the key" "tc=64" \
	"$(RAILGATE_TC_ATTACH=tcx rg up -c "$TMP/g-clsact.yaml" >/dev/null && modes)"

gen() { rg status --json | jq -r .config_generation; }
before=$(gen)
sed 's/tcAttach: clsact/tcAttach: tc-clsact/' "$TMP/g-clsact.yaml" >"$TMP/bad.yaml"
out=$(rg up -c "$TMP/bad.yaml" 2>&1)
check_eq "an unknown tcAttach fails the up" 1 "$?"
check "and names the key and the values" grep -q "unknown datapath tcAttach 'tc-clsact' (expected one of: auto, tcx, clsact)" <<<"$out"
check_eq "nothing changed" "$before tc=64" "$(gen) $(modes)"
check "check shows the key" grep -q "tc attach clsact" <<<"$("$RAILGATE" check -c "$TMP/g-clsact.yaml")"
check "down" rg down
tap_done
