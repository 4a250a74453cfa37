#!/usr/bin/env bash
# make bench: throughput and per-packet cost of railgate against its
# baselines, side by side in one run (issue 5; docs/performance.md explains how
# to read the output).
#
#   tools/bench/bench.sh [--smoke] [--out DIR] [railgate-bench options...]
#
# Builds the topology in namespaces named rgb<pid>-* (tools/bench/topology.sh),
# removed on exit, failure or interrupt; runs build/railgate-bench in them;
# times `railgate up` on a generated config; writes DIR/<date>.{md,json,png}
# (DIR: bench/results).  --smoke: a seconds-long run for the tests (one
# round, 16 prefixes, no plot unless asked for an output directory).
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$REPO"
. tools/bench/topology.sh

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
TMP=$(mktemp -d "/tmp/$P.XXXX")
cleanup() {
	if [ -n "$PIN" ] && mountpoint -q "$PIN"; then
		RAILGATE_PIN_DIR="$PIN/railgate" ip netns exec "$P-node" "$RAILGATE" down >/dev/null 2>&1 || true
		umount "$PIN"
	fi
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

stamp=$(date +%Y-%m-%d-%H%M%S)
mkdir -p "$OUT"
json="$OUT/$stamp.json" md="$OUT/$stamp.md" png="$OUT/$stamp.png" dat="$TMP/ratios.dat"
args=($(bench_topo_args "$P"))
if [ $SMOKE -eq 1 ]; then
	args+=(--sizes 16 --rounds 1 --seconds 0.3 --frames 2000000 --cost-calls 20)
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
