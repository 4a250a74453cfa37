#!/usr/bin/env bash
# The test runner behind `make test`.  Every test program (cmocka, in TAP
# mode) and every integration script (tests/lib/tap.sh) prints TAP lines;
# this counts them and ends with one line "N passed, N failed".
#   tests/run.sh            everything
#   tests/run.sh --quick    unit and BPF tests, the layout rules and their test
#   tests/run.sh PATTERN    only tests whose path contains PATTERN
#   tests/run.sh --asan     unit, BPF and CLI tests (make test-asan, with
#                           RG_BUILD=build-asan)
# RG_BUILD names the build tree the programs come from (default build/).
set -uo pipefail
cd "$(dirname "$0")/.."

quick=0
asan=0
filter=""
for a in "$@"; do
	case "$a" in
	--quick) quick=1 ;;
	--asan) asan=1 ;;
	*) filter="$a" ;;
	esac
done
export RG_BUILD=${RG_BUILD:-build}

tests=()
for t in "$RG_BUILD"/tests/unit/test_* "$RG_BUILD"/tests/bpf/test_*; do
	[ -x "$t" ] && tests+=("$t")
done
# The layout rules (tests/static/layout.sh: sizes, includes, map and pin
# owners, circles) and the checker's own test, seconds, in the quick and the
# full run.
if [ $asan -eq 0 ]; then
	tests+=(tests/static/layout_selftest.sh tests/static/layout.sh)
fi
if [ $asan -eq 1 ]; then
	for t in tests/integration/cli_*.sh; do
		[ -f "$t" ] && tests+=("$t")
	done
elif [ $quick -eq 0 ]; then
	for t in tests/integration/*.sh tests/fuzz/run.sh; do
		[ -f "$t" ] && tests+=("$t")
	done
fi

export CMOCKA_MESSAGE_OUTPUT=TAP
passed=0
failed=0
logdir=$RG_BUILD/test-logs
mkdir -p "$logdir"
for t in "${tests[@]}"; do
	[ -n "$filter" ] && [[ "$t" != *"$filter"* ]] && continue
	name=$(basename "$t")
	log="$logdir/$name.log"
	start=$(date +%s)
	# Integration scripts get 5 minutes (RG_SCRIPT_LIMIT seconds: make
	# test-full's larger matrices), programs 2; a hang is a failure.
	limit=120
	[[ "$t" == *.sh ]] && limit=${RG_SCRIPT_LIMIT:-300}
	# sanitized programs run several times slower: the guard, not a budget
	[ $asan -eq 1 ] && limit=$((limit * 3))
	timeout --kill-after=10 "$limit" bash -c '"$0"' "$t" >"$log" 2>&1
	rc=$?
	p=$(grep -cE '^ok ' "$log")
	f=$(grep -cE '^not ok ' "$log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		# crashed, timed out or failed before reporting: one failure
		f=1
		echo "not ok - $name exited $rc before reporting a failure" >>"$log"
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	status="ok"
	[ "$f" -gt 0 ] && status="FAILED"
	printf '%-40s %3d passed %3d failed  %4ss  %s\n' "$name" "$p" "$f" "$(( $(date +%s) - start ))" "$status"
	if [ "$f" -gt 0 ]; then
		grep -E '^not ok |^# ' "$log" | head -40 | sed 's/^/    /'
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
