#!/usr/bin/env bash
# A seconds-long run of `make bench` (tools/bench/bench.sh --smoke): every
# design moved frames, the sink counted them, the forwarders decremented
# TTL once and the bare redirects did not, every cost program gave its
# verdict (the monitor variants: and every frame its event, or none).  No
# timing is asserted: on a shared 2-core machine timing is a figure to read
# (make bench), not to gate on.
source "$(dirname "$0")/../lib/integration.sh" none

# in the background only to learn its pid, which names its namespaces (rgb<pid>-*)
tools/bench/bench.sh --smoke --out "$TMP" >"$TMP/bench.log" 2>&1 &
BENCH_PID=$!
wait "$BENCH_PID"
rc=$?
check_eq "bench.sh --smoke runs and cleans up" 0 "$rc"
[ "$rc" -eq 0 ] || tail -20 "$TMP/bench.log" | sed 's/^/# /'
JSON=$(ls "$TMP"/*.json 2>/dev/null | head -1)
check "it wrote the JSON and the Markdown table" test -s "$JSON" -a -s "${JSON%.json}.md"
[ -s "$JSON" ] || { tap_done; exit 1; }

run_field() {   # run_field DESIGN FIELD: that field of the design's first round
	jq -r ".sizes[0].throughput.\"$1\".rounds[0].$2" "$JSON"
}

for d in xdp_redirect tc_redirect kernel fib_lookup railgate_xdp railgate_xdp_generic railgate_tc; do
	sent=$(run_field "$d" sent)
	delivered=$(run_field "$d" delivered)
	window=$(run_field "$d" window_frames)
	check "$d: the generator sent frames ($sent)" test "$sent" -gt 0
	check "$d: the sink counted frames ($delivered of $sent)" test "$delivered" -gt 0
	check "$d: frames reached the sink during the measured window ($window)" test "$window" -gt 0
	check_eq "$d: every frame reached its design (tail call)" 0 "$(run_field "$d" no_design)"
	ttl=$(run_field "$d" ttl254)
	case $d in
	xdp_redirect | tc_redirect)
		check_eq "$d: a bare redirect leaves TTL 255" 0 "$ttl" ;;
	*)
		# Forwarded once: TTL 254 on (almost) every frame; the sink also
		# sees the uplink's own IPv6 chatter, hence not all.
		check "$d: forwarded frames arrive with TTL 254 ($ttl of $delivered)" \
			test "$ttl" -gt $((delivered / 2)) ;;
	esac
done

for p in xdp_pass bare_redirect fib_lookup railgate_xdp railgate_xdp_monitor_drops railgate_xdp_monitor_all \
	railgate_xdp_monitor_all_budget; do
	check_eq "cost $p: every test-run gave the expected verdict" 0 \
		"$(jq -r ".sizes[0].cost.$p.wrong_verdicts" "$JSON")"
	check "cost $p: a duration was measured" \
		jq -e ".sizes[0].cost.$p.ns.median > 0" "$JSON"
done

# The apply time of a whole node (64 representors in smoke mode): every
# attach kind, glob and named, brought up with all of them (bench.sh checks
# what `up` said), reloaded and taken down.
for kind in xdp tcx clsact; do
	for names in glob named; do
		m=".apply_scale.medians[] | select(.attach == \"$kind\" and .names == \"$names\" and .representors == 64)"
		check "apply $kind $names: up, reload and down were timed" \
			jq -e "$m | .up_ms > 0 and .reload_ms > 0 and .down_ms > 0" "$JSON"
	done
	check "apply $kind: named against glob compared" \
		jq -e ".apply_scale.named_vs_glob[] | select(.attach == \"$kind\") | .up_ratio > 0" "$JSON"
done
check "the Markdown table has the apply rows" grep -qE '^\| 64 \| tcx \| [0-9]+ \|' "${JSON%.json}.md"
check_eq "no namespace of the bench is left" "" "$(ip netns list | grep -E "^rgb$BENCH_PID-")"

tap_done
