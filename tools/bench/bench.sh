#!/usr/bin/env bash
# make bench: throughput and per-packet cost of railgate against its
# baselines, side by side in one run (issue 5; docs/performance.md explains how
# to read the output).
#
#   tools/bench/bench.sh [--smoke] [--out DIR] [railgate-bench options...]
#
# Builds the topology in namespaces named rgb<pid>-* (tools/bench/topology.sh),
# removed on exit, failure or interrupt; runs build/railgate-bench in them;
# times `railgate up` on a generated config and up, reload and down of a
# whole node (64, 256 and 1024 veth representors in namespaces rgb<pid>-scale*,
# tools/bench/apply_scale.sh) for xdp, tcx and clsact; writes
# DIR/<date>.{md,json,png} (DIR: bench/results).  --smoke: a seconds-long
# run for the tests (one round, 16 prefixes, 64 representors, no plot
# unless asked for an output directory).
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$REPO"
. tools/bench/topology.sh
. tools/bench/apply_scale.sh

BENCH="$REPO/build/railgate-bench"
RAILGATE="$REPO/build/railgate"
OUT=bench/results
SMOKE=0
EXTRA=()
while [ $# -gt 0 ]; do
	case $1 in
	--smoke) SMOKE=1 ;;
	--out) OUT=$2; shift ;;
	*) EXTRA+=("$1") ;;
	esac
	shift
done

P=rgb$$
PIN=""
SCALE_PIN=""
TMP=$(mktemp -d "/tmp/$P.XXXX")
cleanup() {
	if [ -n "$PIN" ] && mountpoint -q "$PIN"; then
		RAILGATE_PIN_DIR="$PIN/railgate" ip netns exec "$P-node" "$RAILGATE" down >/dev/null 2>&1 || true
		umount "$PIN"
	fi
	if [ -n "$SCALE_PIN" ] && mountpoint -q "$SCALE_PIN"; then
		RAILGATE_PIN_DIR="$SCALE_PIN/railgate" ip netns exec "$P-scale" "$RAILGATE" down >/dev/null 2>&1 || true
		umount "$SCALE_PIN"
	fi
	scale_topo_down "$P"
	bench_topo_down "$P"
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

for f in "$BENCH" "$RAILGATE" build/railgate.bpf.o build/bench_baseline.bpf.o; do
	[ -e "$f" ] || { echo "bench: $f is missing: run make first" >&2; exit 1; }
done

# Someone else's work on the machine makes every figure noisier: say so.
read -r load1 load5 load15 _ </proc/loadavg
echo "bench: load average $load1 $load5 $load15 on $(nproc) CPUs"
if awk -v l="$load1" 'BEGIN { exit !(l > 0.5) }'; then
	echo "bench: WARNING: the machine is busy (load $load1): figures will be noisy; ratios within a round still compare like with like" >&2
fi

bench_topo_up "$P"

# railgate_up_config FILE RAILS [FRONTEND]: RAILS rails; only rail 0 has a
# representor (rep0), the others a glob that matches nothing.
railgate_up_config() {
	local file=$1 rails=$2 frontend=${3:-} r
	{
		cat <<YAML
apiVersion: railgate.dev/v1alpha1
kind: RailConfig
metadata:
  name: bench
spec:
  supernets: [10.0.0.0/16]
  computenet:
    uplink: $BENCH_UPLINK
    gateway: $BENCH_GATEWAY
YAML
		[ -n "$frontend" ] && echo "    frontend: [$frontend]"
		echo "  rails:"
		for ((r = 0; r < rails; r++)); do
			local reps="[nothing$r*]"
			[ $r -eq 0 ] && reps="[$BENCH_REP]"
			cat <<YAML
    - name: rail$r
      subnet: 10.0.$r.0/24
      gateway: 10.0.$r.1
      representors: $reps
YAML
		done
		cat <<YAML
  datapath:
    mode: tc
YAML
	} >"$file"
}

ms_of() {    # ms_of CMD...: run CMD, print its wall time in ms
	local t0 t1
	t0=$(date +%s%N)
	"$@" >/dev/null
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}

# `railgate up` on the largest table a config expresses (256 rails: the
# config cannot say 64k prefixes; railgate-bench times the map write path
# at 64k), then a re-apply of a changed config (a reload: the other
# generation is written, then flipped), in a private bpffs.
time_railgate_up() {
	PIN="$TMP/bpffs"
	mkdir -p "$PIN"
	mount -t bpf bpf "$PIN"
	railgate_up_config "$TMP/a.yaml" 256
	railgate_up_config "$TMP/b.yaml" 256 192.168.0.0/16
	export RAILGATE_PIN_DIR="$PIN/railgate"
	UP_FIRST=$(ms_of ip netns exec "$P-node" "$RAILGATE" up -c "$TMP/a.yaml")
	UP_AGAIN=$(ms_of ip netns exec "$P-node" "$RAILGATE" up -c "$TMP/b.yaml")
	ip netns exec "$P-node" "$RAILGATE" down >/dev/null
	umount "$PIN"
	PIN=""
}

# A whole node (issue 14): up, a reload of a changed config and down of
# every size and attach kind, globs (pf<r>vf*); at SCALE_NAMED_AT the same
# with every representor named, alternating with the glob config (which
# goes first flips each round: a run after a tcx down meets the kernel's
# deferred work), SCALE_ROUNDS rounds each (tcx: SCALE_TCX_ROUNDS, its up
# and down alone take ~12 ms per representor in the kernel).  Lines
# "N KIND NAMES ROUND UP RELOAD DOWN" into $TMP/scale.dat.
SCALE_SIZES=(64 256 1024)
SCALE_NAMED_AT=256
SCALE_ROUNDS=9
SCALE_TCX_ROUNDS=3
time_apply_scale() {
	local n kind r rounds names t t0 t1
	SCALE_PIN="$TMP/scale-bpffs"
	mkdir -p "$SCALE_PIN"
	mount -t bpf bpf "$SCALE_PIN"
	mkdir -p "$TMP/scale"
	: >"$TMP/scale.dat"
	for n in "${SCALE_SIZES[@]}"; do
		t0=$(date +%s%N)
		scale_topo_up "$P" "$n"
		t1=$(date +%s%N)
		echo "bench: $n veth representors made with ip -batch in $(((t1 - t0) / 1000000)) ms" >&2
		for kind in xdp tcx clsact; do
			rounds=1 names=glob
			[ "$n" -eq "$SCALE_NAMED_AT" ] && names="glob named"
			[ "$n" -eq "$SCALE_NAMED_AT" ] && rounds=$SCALE_ROUNDS
			[ "$n" -eq "$SCALE_NAMED_AT" ] && [ "$kind" = tcx ] && rounds=$SCALE_TCX_ROUNDS
			for ((r = 0; r < rounds; r++)); do
				[ $((r % 2)) -eq 1 ] && [ "$names" = "glob named" ] && names="named glob"
				[ $((r % 2)) -eq 0 ] && [ "$names" = "named glob" ] && names="glob named"
				for nm in $names; do
					t=$(RAILGATE_PIN_DIR="$SCALE_PIN/railgate" \
						scale_run "$P" "$TMP/scale" "$n" "$kind" "$([ "$nm" = named ] && echo 1 || echo 0)")
					echo "$n $kind $nm $r $t" >>"$TMP/scale.dat"
					echo "bench: $n representors, $kind, $nm: up reload down $t ms" >&2
				done
			done
		done
		scale_topo_down "$P"
	done
	umount "$SCALE_PIN"
	SCALE_PIN=""
}

# The scale figures: medians per (representors, attach, names) as JSON, and
# the two Markdown tables with the target (named within 10% of glob).
report_apply_scale() {
	local json=$1 md=$2
	jq -R -s --argjson rails "$SCALE_RAILS" --argjson named_at "$SCALE_NAMED_AT" '
		def median: sort | if length % 2 == 1 then .[length / 2 | floor]
			else (.[length / 2 - 1] + .[length / 2]) / 2 end;
		[split("\n")[] | select(length > 0) | split(" ")
		 | { representors: (.[0] | tonumber), attach: .[1], names: .[2], round: (.[3] | tonumber),
		     up_ms: (.[4] | tonumber), reload_ms: (.[5] | tonumber), down_ms: (.[6] | tonumber) }]
		| { rails: $rails, named_at: $named_at, runs: .,
		    medians: (group_by([.representors, .attach, .names])
			| map({ representors: .[0].representors, attach: .[0].attach, names: .[0].names,
				rounds: length, up_ms: (map(.up_ms) | median),
				reload_ms: (map(.reload_ms) | median), down_ms: (map(.down_ms) | median),
				up_range: [(map(.up_ms) | min), (map(.up_ms) | max)],
				reload_range: [(map(.reload_ms) | min), (map(.reload_ms) | max)] })) }
		| .named_vs_glob = [.medians as $m | $m[] | select(.names == "named") | . as $nm
			| ($m[] | select(.names == "glob" and .attach == $nm.attach and
					 .representors == $nm.representors)) as $g
			| { attach: .attach, representors: .representors,
			    up_ratio: ($nm.up_ms / ([$g.up_ms, 1] | max)),
			    reload_ratio: ($nm.reload_ms / ([$g.reload_ms, 1] | max)),
			    glob: $g, named: $nm }]' "$TMP/scale.dat" >"$TMP/scale.json"
	jq --slurpfile s "$TMP/scale.json" '.apply_scale = $s[0]' "$json" >"$TMP/j" && cat "$TMP/j" >"$json"
	{
		echo
		echo "### Apply time of a whole node: veth representors in $SCALE_RAILS rails (globs pf<r>vf*), one namespace"
		echo
		echo "\`railgate up\` fresh (load, fill, attach, pin), a reload of a changed config (a front-end prefix added: the other generation written and flipped, every representor kept), \`railgate down\`; median of the rounds."
		echo
		echo "| representors | attach | up (ms) | reload (ms) | down (ms) | up per representor (ms) | down per representor (ms) | rounds |"
		echo "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
		jq -r '.medians[] | select(.names == "glob")
			| "| \(.representors) | \(.attach) | \(.up_ms) | \(.reload_ms) | \(.down_ms) | \(.up_ms / .representors * 100 | round / 100) | \(.down_ms / .representors * 100 | round / 100) | \(.rounds) |"' "$TMP/scale.json"
		echo
		echo "Every representor named in the config against one glob per rail, same run, alternating; median [min–max] of the rounds (target: named within 10% of glob):"
		echo
		echo "| attach | representors | up glob (ms) | up named (ms) | named / glob | reload glob (ms) | reload named (ms) | named / glob | rounds |"
		echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
		jq -r 'def r: "\(.[0])–\(.[1])";
			.named_vs_glob[]
			| "| \(.attach) | \(.representors) | \(.glob.up_ms) [\(.glob.up_range | r)] | \(.named.up_ms) [\(.named.up_range | r)] | \(.up_ratio * 100 | round / 100) | \(.glob.reload_ms) [\(.glob.reload_range | r)] | \(.named.reload_ms) [\(.named.reload_range | r)] | \(.reload_ratio * 100 | round / 100) | \(.named.rounds) |"' "$TMP/scale.json"
		echo
		jq -r '.named_vs_glob[]
			| "- named vs glob, \(.attach), \(.representors) representors: up \(.up_ratio * 100 | round / 100)x, reload \(.reload_ratio * 100 | round / 100)x (target <= 1.10: \(if .up_ratio <= 1.10 and .reload_ratio <= 1.10 then "met" else "MISSED" end))"' "$TMP/scale.json"
	} | tee -a "$md"
}

stamp=$(date +%Y-%m-%d-%H%M%S)
mkdir -p "$OUT"
json="$OUT/$stamp.json" md="$OUT/$stamp.md" png="$OUT/$stamp.png" dat="$TMP/ratios.dat"
args=($(bench_topo_args "$P"))
if [ $SMOKE -eq 1 ]; then
	args+=(--sizes 16 --rounds 1 --seconds 0.3 --frames 2000000 --cost-calls 20)
	SCALE_SIZES=(64) SCALE_NAMED_AT=64 SCALE_ROUNDS=1 SCALE_TCX_ROUNDS=1
fi
cmd=("$BENCH" "${args[@]}" "${EXTRA[@]}" --json "$json" --md "$md" --dat "$dat")
echo "bench: ${cmd[*]}" >&2
"${cmd[@]}"

if [ $SMOKE -eq 0 ]; then
	time_railgate_up
	{
		echo
		echo "railgate up with a 256-rail config (tc mode, one representor): ${UP_FIRST} ms the first time (load, fill, attach, pin), ${UP_AGAIN} ms to re-apply a changed config."
	} | tee -a "$md"
	jq --argjson a "$UP_FIRST" --argjson b "$UP_AGAIN" \
		'.railgate_up = { rails: 256, first_ms: $a, reapply_ms: $b }' "$json" >"$TMP/j" &&
		cat "$TMP/j" >"$json"
fi
time_apply_scale
report_apply_scale "$json" "$md"

# The plot: throughput / bare XDP redirect against table size, per design.
if [ $SMOKE -eq 0 ] || [ "$OUT" != bench/results ]; then
	gnuplot <<GP
set terminal pngcairo size 960,600 font "sans,10" noenhanced
set output "$png"
set title "railgate-bench $stamp\nthroughput / bare XDP redirect, 64-byte frames, one CPU (median and min-max of rounds)"
set xlabel "prefixes in the table"
set ylabel "ratio to bare XDP redirect"
set logscale x 2
set xrange [8:131072]
set yrange [0:*]
set key outside right
set grid
plot for [i=0:6] "$dat" index i using 1:2:3:4 with yerrorlines lw 2 title columnheader(2)
GP
fi
[ -e "$png" ] || png=""
echo "bench: wrote $json $md${png:+ $png}"
