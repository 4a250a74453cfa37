#!/usr/bin/env bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# railgate doctor and railgate probe on the testbed, an all-rails pod on
# node n0 (2 nodes x 3 rails).  Healthy: every check passes and every
# probe cell is answered.  Then for each scenario testbed.sh can break
# (1-5, and 6's MTU half): doctor --json names that scenario with fail and
# a fix command; probe's failing cells and `died` match the break; the fix
# doctor printed, run as is, makes doctor pass.  Last, testbed.sh heal
# leaves a cluster doctor passes.  Bounded: probes are 2 per cell with a
# 0.5 s wait, every run under a timeout.
source "$(dirname "$0")/../lib/integration.sh" testbed

tb_begin 2 3
P=$TB_PREFIX
CFG=$TMP/n0.yaml
TARGETS="10.0.0.11 10.0.1.11 10.0.2.11 192.168.0.10"   # pods n1-p<r> and the front-end
PORT=7777
SP=$TB_REPO/build/sockprobe

check "an all-rails pod on n0 through libcni" tb pod add n0 all
{
	tb config n0
	echo "  probe:"
	echo "    targets: [${TARGETS// /, }]"
	echo "    port: $PORT"
} >"$CFG"
tb config n1 >"$TMP/n1.yaml"
check "railgate up on n0" tb exec n0 railgate up -c "$CFG"
check "railgate up on n1" tb exec n1 railgate up -c "$TMP/n1.yaml"
# The responders the operator runs beyond the switch: UDP echo on every
# target (a closed port answers too, but the target's ICMP rate limit
# thins those answers out).  Bounded: they exit after 300 s, or with the
# testbed.
for ns in n1-p0 n1-p1 n1-p2 fe; do
	tb exec "$ns" "$SP" serve $PORT 300 >/dev/null 2>&1 &
done
listening() { [ -n "$(ip netns exec "$P-$1" ss -Hlun "sport = :$PORT")" ]; }
for ns in n1-p0 n1-p1 n1-p2 fe; do
	for _ in $(seq 50); do listening "$ns" && break; sleep 0.1; done
	check "a UDP responder listens in $ns" listening "$ns"
done

doctor() {
	timeout 60 "$TB" exec n0 railgate doctor -c "$CFG" --netns "$P-n0-all" \
		--cni-results "$TB_STATE/cni/cache/results" --sample 0.2 --json
}
probe() {
	timeout 60 "$TB" exec n0 railgate probe --netns "$P-n0-all" -c "$CFG" --count 2 --timeout 500 --json
}

# expect_cells BREAK: "DEV TO PROTO DIED" for every cell, as the break makes them.
rail_of() { case "$1" in 10.0.*) local x=${1#10.0.}; echo "${x%%.*}" ;; *) echo fe ;; esac; }
expect_cells() {
	local brk=$1 to r dev proto died
	for to in $TARGETS; do
		for r in 0 1 2; do
			dev=net$r
			for proto in icmp udp; do
				died=null
				case "$brk" in
				1 | 3) [ "$r" = 0 ] && [ "$(rail_of "$to")" != 0 ] && died=spoofed ;;
				2) [ "$(rail_of "$to")" != "$r" ] && died=left_on_rail ;;
				4) [ "$to" = 10.0.1.11 ] && died=never_left_pod ;;
				esac
				echo "$dev $to $proto $died"
			done
		done
	done
}
cells_of() { jq -r '.results[] | "\(.from_dev) \(.to) \(.proto) \(.died)"'; }
# Every cell: received all when it did not die, none when it did.
counts_consistent() {
	jq -e '[.results[] | (.died == null) == (.received == .sent) and (.died == null or .received == 0)
		and (.rtt_ms == null) == (.received == 0)] | all' >/dev/null
}

# ---- healthy ----------------------------------------------------------------

out=$(doctor) && rc=0 || rc=$?
check_eq "healthy: doctor exits 0" 0 "$rc"
check_eq "healthy: every check passes (none failed or warned)" "0 0" \
	"$(jq -r '"\(.failed) \(.warned)"' <<<"$out")"
check_eq "healthy: node, rails, pod interfaces checked" \
	"node.attached=3 node.railgate=1 pod.mtu=3 pod.probe=3 pod.routes=3" \
	"$(jq -r '[.checks[].id | select(startswith("node.a") or startswith("node.r") or startswith("pod."))] | group_by(.) | map("\(.[0])=\(length)") | join(" ")' <<<"$out")"
out=$(probe) && rc=0 || rc=$?
check_eq "healthy: probe exits 0" 0 "$rc"
check_eq "healthy: 24 cells (3 rails x 4 targets x icmp, udp), every one answered" \
	"$(expect_cells none)" "$(cells_of <<<"$out")"
check "healthy: received = sent, a median RTT in every cell" counts_consistent <<<"$out"

# ---- each scenario: break, diagnose, fix as printed, pass -------------------

scenario() {
	local s=$1 what=$2 out rc cmd
	check "break $s: $what" tb break "$s"
	out=$(probe) && rc=0 || rc=$?
	check_eq "break $s: probe's cells and died match the break" "$(expect_cells "$s")" "$(cells_of <<<"$out")"
	check "break $s: probe's received and rtt agree with died" counts_consistent <<<"$out"
	out=$(doctor) && rc=0 || rc=$?
	check_eq "break $s: doctor exits 1" 1 "$rc"
	cmd=$(jq -r --argjson s "$s" 'first(.checks[] | select(.scenario == $s and .status == "fail" and .fix.command != null) | .fix.command) // ""' <<<"$out")
	if [ -n "$cmd" ]; then
		ok "break $s: doctor names scenario $s with fail and a fix: $cmd"
	else
		fail "break $s: doctor names scenario $s with fail and a fix"
		jq -c '.checks[] | select(.status != "pass")' <<<"$out" | sed 's/^/# /'
	fi
	check "break $s: the printed fix runs as is" "$TB" exec n0 sh -c "$cmd"
	out=$(doctor) && rc=0 || rc=$?
	check_eq "break $s: after the fix doctor passes" "0 0" "$rc $(jq -r .failed <<<"$out")"
	[ "$rc" = 0 ] || jq -c '.checks[] | select(.status == "fail")' <<<"$out" | sed 's/^/# /'
	check "break $s: testbed.sh heal after the fix" tb heal
}

scenario 1 "n0-all's net0 loses its supernet routes"
scenario 2 "railgate is not running on n0"
scenario 3 "n0-all's net0 attached again without railgate-cni"
scenario 4 "an iptables-nft REJECT of rail 1 in n0-all"
scenario 5 "a default route through n0-all's net0"
scenario 6 "n0's uplink MTU below the rails'"

# ---- Scenario 6's VLAN half: tagged rails end to end, then a trunk without one

tagged() {   # tagged NODE: the node's config with VLAN 100+r on rail r
	{
		VLAN=1 tb config "$1"
		[ "$1" = n1 ] || sed -n '/^  probe:/,$p' "$CFG"
	} >"$TMP/$1-vlan.yaml"
	tb exec "$1" railgate up -c "$TMP/$1-vlan.yaml"
}
check "n0 reloads with tagged rails" tagged n0
check "n1 reloads with tagged rails" tagged n1
CFG=$TMP/n0-vlan.yaml
out=$(probe) && rc=0 || rc=$?
check_eq "tagged rails: every probe cell answered (the switch's trunk pops the tags)" \
	"0 $(expect_cells none)" "$rc $(cells_of <<<"$out")"
check "break 6-vlan: the trunk stops carrying rail 1's VLAN" tb break 6-vlan 1
out=$(probe) && rc=0 || rc=$?
# Every cross-rail cell whose request or answer is rail 1's dies beyond the uplink.
expect_vlan() {
	local to r proto died tr
	for to in $TARGETS; do
		tr=$(rail_of "$to")
		for r in 0 1 2; do
			for proto in icmp udp; do
				died=null
				[ "$tr" != "$r" ] && { [ "$r" = 1 ] || [ "$tr" = 1 ]; } && died=uplink_no_answer
				echo "net$r $to $proto $died"
			done
		done
	done
}
check_eq "break 6-vlan: probe's cells to and from rail 1 die uplink_no_answer" \
	"$(expect_vlan)" "$(cells_of <<<"$out")"
out=$(doctor) && rc=0 || rc=$?
check_eq "break 6-vlan: doctor exits 1 and names scenario 6 for each rail interface" "1 3" \
	"$rc $(jq '[.checks[] | select(.id == "pod.probe" and .scenario == 6 and .status == "fail")] | length' <<<"$out")"
check "break 6-vlan: the fix names rail 1's VLAN" \
	jq -e 'any(.checks[]; .scenario == 6 and ((.fix.text // "") | test("rail1 \\(101\\)")))' <<<"$out"
check "heal: the trunk carries rail 1 again" tb heal
out=$(probe) && rc=0 || rc=$?
check_eq "healed: every tagged probe cell answered" 0 "$rc"

# Scenario 3 is told from 1 by the attachment's result cache, 5 by the route.
check "break 3 then 1 on the same interface: heal undoes both" sh -c "'$TB' break 3 && '$TB' break 1 && '$TB' heal"
out=$(doctor) && rc=0 || rc=$?
check_eq "after heal the cluster is healthy again" "0 0" "$rc $(jq -r .failed <<<"$out")"

# ---- refusals ---------------------------------------------------------------

tb config n0 >"$TMP/bare.yaml"
rc=0; "$TB" exec n0 railgate probe --netns "$P-n0-all" -c "$TMP/bare.yaml" >/dev/null 2>"$TMP/err" || rc=$?
check_eq "probe without --to or spec.probe.targets refuses (exit 2)" 2 "$rc"
check "the refusal names both ways to give targets" grep -q "give --to IP, or set spec.probe.targets" "$TMP/err"
rc=0; "$TB" exec n0 railgate probe --netns "$P-n0-all" -c "$CFG" --to 10.0.1.1 >/dev/null 2>"$TMP/err" || rc=$?
check_eq "probe refuses a rail's gateway as a target (exit 2)" 2 "$rc"
rc=0; "$TB" exec n0 railgate doctor --netns "$P-n0-all" --all-pods -c "$CFG" >/dev/null 2>&1 || rc=$?
check_eq "doctor with --netns and --all-pods is a usage error (exit 2)" 2 "$rc"

tap_done
