#!/usr/bin/env bash
# The fuzzers (tests/fuzz/*.c, docs/testing.md), each for FUZZ_SECONDS
# (default 3: `make test` runs them so they never rot; `make fuzz
# FUZZ_SECONDS=600` for a real run), from a copy of its seed corpus
# (tests/fuzz/corpus/NAME/), so the committed seeds never change, with its
# dictionary (tests/fuzz/NAME.dict).  One TAP
# line per fuzzer with what it did; a crash, a leak, a sanitizer report or a
# failed check is "not ok" with the input kept in build-fuzz/artifacts/.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

seconds=${FUZZ_SECONDS:-3}
out=build-fuzz
names=(config cni)

echo "1..${#names[@]}"
mkdir -p "$out/artifacts"
if ! make -s fuzz-build >"$out/make.log" 2>&1; then
	for n in "${names[@]}"; do echo "not ok - fuzz_$n: make fuzz-build failed (see $out/make.log)"; done
	exit 1
fi
rc=0
for n in "${names[@]}"; do
	work="$out/corpus-$n"
	log="$out/fuzz_$n.log"
	rm -rf "$work" && mkdir -p "$work"
	dict=()
	[ -f "tests/fuzz/$n.dict" ] && dict=(-dict="tests/fuzz/$n.dict")
	# stdin from /dev/null: nothing a harness reads may wait on a terminal;
	# timeout is a hang guard only (libFuzzer stops itself at -max_total_time).
	timeout --kill-after=10 $((seconds + 60)) "$out/fuzz_$n" -max_total_time="$seconds" \
		-timeout=10 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 "${dict[@]}" \
		-artifact_prefix="$out/artifacts/fuzz_$n-" "$work" "tests/fuzz/corpus/$n" \
		</dev/null >"$log" 2>&1
	status=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	if [ "$status" -eq 0 ]; then
		echo "ok - fuzz_$n: ${execs:-?} inputs in ${seconds} s, corpus $(ls "$work" | wc -l) files"
	else
		rc=1
		echo "not ok - fuzz_$n: exit $status after ${execs:-?} inputs (log $log)"
		grep -E '^(==[0-9]+==|SUMMARY|fuzz_)|runtime error' "$log" | head -20 | sed 's/^/# /'
	fi
done
exit $rc
