# TAP helpers for integration scripts: source it, call check/ok/fail, then
# tap_done.  Each check prints "ok N - name" or "not ok N - name"; the
# runner (tests/run.sh) counts those lines.
TAP_N=0
TAP_FAILED=0

ok() {
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - $*"
}

fail() {
	TAP_N=$((TAP_N + 1))
	TAP_FAILED=$((TAP_FAILED + 1))
	echo "not ok $TAP_N - $*"
}

# check NAME CMD...: passes when CMD exits 0; its output is shown on failure.
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		ok "$name"
	else
		fail "$name"
		printf '%s\n' "$out" | tail -20 | sed 's/^/# /'
	fi
}

# check_fails NAME CMD...: passes when CMD exits non-zero.
check_fails() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		fail "$name (expected failure, got success)"
		printf '%s\n' "$out" | tail -20 | sed 's/^/# /'
	else
		ok "$name"
	fi
}

# check_eq NAME EXPECTED ACTUAL
check_eq() {
	if [ "$2" == "$3" ]; then
		ok "$1"
	else
		fail "$1"
		echo "# expected: $2"
		echo "#      got: $3"
	fi
}

tap_done() {
	echo "1..$TAP_N"
	[ "$TAP_FAILED" -eq 0 ]
}
