#!/usr/bin/env bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# `railgate monitor` on the testbed: it shows a spoofed and a no_route drop
# that the test provokes from pods, with the rail, the representor, the
# addresses, the ICMP type and the reason (JSON Lines and the text line);
# --rail keeps another rail's drops out; two monitors at once each see the
# drops; under a flood the node's budget holds and the summary shows what it
# refused; a monitor killed with SIGKILL stops the datapath's events within
# its lease (the monitor_events counter stops moving), and a hitless reload
# does not end a monitor's stream; SIGINT ends one with
# exit 0 and gives its slot back; `railgate down` ends one with exit 1 and
# a reason; bad input is refused with a clear error.
source "$(dirname "$0")/../lib/integration.sh" testbed

readonly SPOOF_ADDR=10.0.1.250   # a rail-1 address put on the rail-0 pod
readonly HOLE0=10.0.200.1        # in the supernet, in no rail
readonly HOLE1=10.0.200.2
readonly LEASE_S=3               # RG_MONITOR_LEASE_NS

tb_begin 1 2
if [ ! -x "$RAILGATE" ]; then
	fail "build/railgate exists (make build/railgate)"
	tap_done
	exit 1
fi
POD0=$(tb_pod_ip 0 0)
POD1=$(tb_pod_ip 0 1)

# ---- bad input, before railgate is up
out=$(tb_railgate n0 monitor 2>&1); rc=$?
check_eq "monitor without a datapath exits 1" 1 "$rc"
grep -q "railgate is not up" <<<"$out" && ok "and says railgate is not up" ||
	fail "and says railgate is not up (got: $out)"
check "railgate up on n0" tb_railgate_up n0 auto
out=$(tb_railgate n0 monitor --rail nosuch 2>&1); rc=$?
check_eq "monitor --rail of no rail exits 1" 1 "$rc"
grep -q "no rail named 'nosuch' in the running config (rails: rail0 rail1)" <<<"$out" &&
	ok "and names the rails there are" || fail "and names the rails there are (got: $out)"
for bad in "--count 0" "--count x" "--drops --all" "--bogus" "extra"; do
	# shellcheck disable=SC2086
	out=$(tb_railgate n0 monitor $bad 2>&1 >/dev/null); rc=$?
	check_eq "monitor $bad exits 2" 2 "$rc"
	grep -q "^railgate monitor: " <<<"$out" && ok "monitor $bad says why on stderr" ||
		fail "monitor $bad says why on stderr (got: $out)"
done

# monitors_live N: `status --json` lists N monitors with a live lease.
monitors_live() {
	[ "$(tb_railgate n0 status --json | jq '.monitors | length')" = "$1" ]
}
side_events() {
	tb_railgate n0 stats --json | jq '.side.monitor_events.packets'
}
events_above() {   # events_above N: monitor_events is above N now (for wait_for)
	[ "$(side_events)" -gt "$1" ]
}
# The provoked drops: a spoofed source out of the rail-0 pod, and a
# destination in the supernet in no rail.  One frame each.
send_spoofed() {
	tb exec n0-p0 ip addr add "$SPOOF_ADDR/32" dev net1
	tb exec n0-p0 ping -n -q -c 1 -W 1 -I "$SPOOF_ADDR" "$POD1" >/dev/null 2>&1
	tb exec n0-p0 ip addr del "$SPOOF_ADDR/32" dev net1
}
send_no_route() {   # send_no_route POD DST
	tb exec "$1" ping -n -q -c 1 -W 1 "$2" >/dev/null 2>&1
}
monitor_pids() {
	tb_railgate n0 status --json | jq -r '.monitors[].pid' | sort
}
# start_monitor OUT ARGS...: railgate monitor in the background (bounded by
# timeout); waits until its lease shows in status.  MON_PID: the job to
# wait for, RG_PID: the monitor itself (the pid its slot names), for
# signals.  Not under check (a subshell): both must reach the script.
start_monitor() {
	local out=$1 before
	shift
	before=$(monitor_pids)
	tb exec n0 timeout 30 "$RAILGATE" monitor "$@" >"$out" 2>"$out.err" &
	MON_PID=$!
	wait_for 5 monitors_live "$(($(wc -w <<<"$before") + 1))" || return 1
	RG_PID=$(comm -13 <(echo "$before") <(monitor_pids))
	[ -n "$RG_PID" ]
}
# event FILE VERDICT: the first event of that verdict, compact JSON.
event() {
	jq -c --arg v "$2" 'select(.type == "event" and .verdict == $v)' "$1" | head -1
}

# ---- a spoofed and a no_route drop, two monitors at once
start_monitor "$TMP/a.json" --drops --json --count 2 && ok "monitor --drops --json --count 2 attaches" || fail "monitor --drops --json --count 2 attaches"
PID_A=$MON_PID
start_monitor "$TMP/b.txt" --count 2 && ok "a second monitor (text, --count 2) attaches beside it" || fail "a second monitor (text, --count 2) attaches beside it"
PID_B=$MON_PID
check_eq "status lists both monitors, scope drops" "drops drops" \
	"$(tb_railgate n0 status --json | jq -r '[.monitors[].scope] | join(" ")')"
send_spoofed
send_no_route n0-p0 "$HOLE0"
wait "$PID_A"; rc=$?
check_eq "the JSON monitor exits 0 after 2 events" 0 "$rc"
wait "$PID_B"; rc=$?
check_eq "the text monitor exits 0 after 2 events" 0 "$rc"
sed 's/^/# /' "$TMP/a.json" "$TMP/b.txt"
check_eq "JSON: 2 events, one summary line" "event event summary" \
	"$(jq -r .type "$TMP/a.json" | tr '\n' ' ' | sed 's/ $//')"
check_eq "the spoofed drop: rail, representor, hook, addresses, ICMP echo" \
	"rail0 pf0vf0 true $SPOOF_ADDR $POD1 1 8 0 64 98 false" \
	"$(event "$TMP/a.json" spoofed | jq -r '"\(.rail) \(.interface) \(.drop) \(.src) \(.dst) \(.protocol) \(.icmp_type) \(.icmp_code) \(.ttl) \(.len) \(.icmp_answered)"')"
check_eq "the no_route drop: rail, representor, addresses" \
	"rail0 pf0vf0 true $POD0 $HOLE0 1 8" \
	"$(event "$TMP/a.json" no_route | jq -r '"\(.rail) \(.interface) \(.drop) \(.src) \(.dst) \(.protocol) \(.icmp_type)"')"
hook=$(event "$TMP/a.json" no_route | jq -r .hook)
check "the hook is the attach mode's (xdp or tc): $hook" test "$hook" = xdp -o "$hook" = tc
check "the events' times are now (within a minute)" \
	jq -se --arg now "$(date -u +%s)" '[.[] | select(.type == "event") | (.time | sub("\\.[0-9]+Z$"; "Z") | fromdate) - ($now | tonumber) | fabs < 60] | length == 2 and all' "$TMP/a.json"
check_eq "text: the spoofed line" \
	"rail0 pf0vf0 $hook drop spoofed icmp $SPOOF_ADDR -> $POD1 type 8 code 0 ttl 64 len 98" \
	"$(grep ' spoofed ' "$TMP/b.txt" | cut -d' ' -f2-)"
check_eq "text: the no_route line" \
	"rail0 pf0vf0 $hook drop no_route icmp $POD0 -> $HOLE0 type 8 code 0 ttl 64 len 98" \
	"$(grep ' no_route ' "$TMP/b.txt" | cut -d' ' -f2-)"
grep -q "^railgate monitor: 2 events printed" "$TMP/b.txt.err" &&
	ok "text: the summary on stderr" || fail "text: the summary on stderr"
check "both slots given back at exit" monitors_live 0

# ---- --rail: rail0's drop is not shown, rail1's is
start_monitor "$TMP/r.json" --json --rail rail1 --count 1 && ok "monitor --rail rail1 --count 1 attaches" || fail "monitor --rail rail1 --count 1 attaches"
send_no_route n0-p0 "$HOLE0"
send_no_route n0-p1 "$HOLE1"
wait "$MON_PID"
check_eq "--rail rail1 printed only rail1's drop" "rail1 pf1vf0 no_route $POD1 $HOLE1" \
	"$(jq -r 'select(.type == "event") | "\(.rail) \(.interface) \(.verdict) \(.src) \(.dst)"' "$TMP/r.json")"

# ---- SIGKILL: the lease runs out and the datapath stops writing
start_monitor "$TMP/k.json" --all --json && ok "monitor --all attaches" || fail "monitor --all attaches"
before=$(side_events)
send_no_route n0-p0 "$HOLE0"
check "while it runs, a drop moves monitor_events" wait_for 3 events_above "$before"
check "a hitless reload (railgate up again) while it runs" tb_railgate_up n0 auto
before=$(side_events)
send_no_route n0-p0 "$HOLE0"
check "after the reload the monitor's ring still gets the drops" wait_for 3 events_above "$before"
check_eq "and the monitor printed them" 2 "$(jq -s '[.[] | select(.type == "event" and .verdict == "no_route")] | length' "$TMP/k.json")"
kill -9 "$RG_PID"
wait "$MON_PID" 2>/dev/null
killed_at=$(now_ms)
check "the killed monitor's lease runs out within ${LEASE_S} s" wait_for $((LEASE_S + 1)) monitors_live 0
check "within the lease plus a second" test $(($(now_ms) - killed_at)) -le $((LEASE_S * 1000 + 1000))
before=$(side_events)
send_no_route n0-p0 "$HOLE0"
send_spoofed
tb_ping n0-p0 "$POD1" >/dev/null   # cross-rail: an `all` event if anyone listened
check_eq "after it ran out, drops and forwards write no event" "$before" "$(side_events)"

# ---- a flood: the node's budget holds, and what it refused is shown
readonly FLOOD=20000 RATE=20000 BURST=2000     # RG_MONITOR_RATE, RG_MONITOR_BURST
start_monitor "$TMP/f.json" --drops --json && ok "monitor for the flood attaches" ||
	fail "monitor for the flood attaches"
drops_before=$(tb_stat n0 no_route rail0)
t0=$(now_ms)
# numbered UDP datagrams, bounded: FLOOD of them at 100000/s
tb exec n0-p0 timeout 10 "$TB_REPO/${RG_BUILD:-build}/udpseq" send "$HOLE0" 5201 $FLOOD 100000 >/dev/null
secs=$(( ($(now_ms) - t0 + 999) / 1000 ))
dropped=$(($(tb_stat n0 no_route rail0) - drops_before))
check "the flood sent its frames ($dropped dropped no_route in ${secs} s)" test "$dropped" -ge 1000
kill -INT "$RG_PID"
wait "$MON_PID"
summary=$(jq -c 'select(.type == "summary")' "$TMP/f.json")
echo "# $summary"
printed=$(jq -s '[.[] | select(.type == "event")] | length' "$TMP/f.json")
check_eq "the summary counts the events printed" "$printed" "$(jq .printed <<<"$summary")"
check_eq "every dropped frame was printed or counted rate-limited or lost" "$dropped" \
	"$(jq --argjson p "$printed" '$p + .monitor_ratelimited + .monitor_lost' <<<"$summary")"
check "the budget held: $printed events <= burst + rate x ${secs} s" \
	test "$printed" -le $((BURST + RATE * secs))
check "a flood beyond the budget shows rate-limited events" \
	jq -e '.monitor_ratelimited > 0' <<<"$summary"

# ---- SIGINT: exit 0, the slot back at once
start_monitor "$TMP/i.txt" --drops && ok "monitor --drops attaches" || fail "monitor --drops attaches"
kill -INT "$RG_PID"
wait "$MON_PID"; rc=$?
check_eq "SIGINT ends the monitor with exit 0" 0 "$rc"
check_eq "and its slot is free at once" 0 "$(tb_railgate n0 status --json | jq '.monitors | length')"

# ---- railgate down under a running monitor: it says so and exits 1
start_monitor "$TMP/d.txt" --drops && ok "monitor attaches before a down" || fail "monitor attaches before a down"
check "railgate down" tb_railgate n0 down
wait "$MON_PID"; rc=$?
check_eq "the monitor exits 1 when the datapath is taken down" 1 "$rc"
grep -q "was taken down or loaded anew" "$TMP/d.txt.err" && ok "and says why" ||
	fail "and says why (got: $(cat "$TMP/d.txt.err"))"
tap_done
