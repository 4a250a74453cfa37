#!/usr/bin/env bash
# `railgate route add|check|del`: the CNI plugin's logic for init containers
# and operators, on a pod namespace with a rail address (a veth pair whose
# both ends live in namespaces this script creates and deletes).
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib/tap.sh

RG=$PWD/build/railgate
P=rgroute$$
POD=$P-pod
PEER=$P-peer
TMP=$(mktemp -d /tmp/$P.XXXXXX)
PIDS=()

cleanup() {
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	ip netns del "$POD" 2>/dev/null
	ip netns del "$PEER" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

if [ ! -x "$RG" ] || ! "$RG" route --help >/dev/null 2>&1; then
	echo "1..0 # SKIP build/railgate has no route command"
	exit 0
fi

ip netns add "$POD" && ip netns add "$PEER" &&
ip -n "$POD" link add net1 type veth peer name sw0 netns "$PEER" &&
ip -n "$POD" addr add 10.0.1.5/24 dev net1 && ip -n "$POD" link set net1 up &&
ip -n "$PEER" link set sw0 up && ip -n "$POD" link set lo up || {
	echo "not ok 1 - cannot create the test namespaces"
	exit 1
}

pod_routes() { ip -n "$POD" -4 route show 2>/dev/null | sed 's/ *$//' | sort; }
CONNECTED="10.0.1.0/24 dev net1 proto kernel scope link src 10.0.1.5"

# run NAME EXPECTED_RC PATTERN CMD...: exit code and output (both streams)
run() {
	local name=$1 want=$2 pattern=$3 out rc
	shift 3
	out=$("$@" 2>&1); rc=$?
	if [ "$rc" -eq "$want" ] && grep -qiE -- "$pattern" <<<"$out"; then
		ok "$name"
	else
		fail "$name"
		echo "# expected rc $want and /$pattern/; got rc $rc:"
		printf '%s\n' "$out" | head -10 | sed 's/^/#   /'
	fi
}

# The interface.md example: rails 10.0.0.0/24 and 10.0.1.0/24, frontend 192.168.0.0/16.
cp tests/unit/configs/example.yaml "$TMP/railgate.yaml"

# ---- usage -----------------------------------------------------------------
run "route --help prints usage, exit 0" 0 "usage: railgate route add" "$RG" route --help
run "no action: usage, exit 2" 2 "usage" "$RG" route
run "unknown action: exit 2" 2 "unknown action" "$RG" route frob --netns "$POD"
run "no --netns/--pid: exit 2" 2 "--netns NAME or --pid PID" "$RG" route add -c "$TMP/railgate.yaml"
run "--supernet without --gateway: exit 2" 2 "needs --gateway" \
	"$RG" route add --netns "$POD" --supernet 10.0.0.0/16
run "a bad CIDR: exit 2" 2 "not a CIDR" "$RG" route add --netns "$POD" --supernet 10.0.0.1/16 --gateway 10.0.1.1
run "-c with --supernet: exit 2" 2 "not both" \
	"$RG" route add --netns "$POD" -c "$TMP/railgate.yaml" --supernet 10.0.0.0/16 --gateway 10.0.1.1
run "a namespace that does not exist: exit 1" 1 "cannot open network namespace" \
	"$RG" route add --netns "$P-nope" -c "$TMP/railgate.yaml"

# ---- add / check / del with the rail config ----------------------------------
EXPECTED=$(printf '%s\n' "$CONNECTED" \
	"10.0.0.0/16 via 10.0.1.1 dev net1 proto 82" \
	"192.168.0.0/16 via 10.0.1.1 dev net1 proto 82" | sort)
run "check before add fails: exit 1" 1 "10.0.0.0/16 via 10.0.1.1 dev net1 is missing" \
	"$RG" route check --netns "$POD" -c "$TMP/railgate.yaml"
run "add finds net1 and its rail, exit 0" 0 "added 10.0.0.0/16 via 10.0.1.1 dev net1 rail rail1" \
	"$RG" route add --netns "$POD" -c "$TMP/railgate.yaml"
check_eq "add: the pod routes the supernet and front-end via rail1's gateway" "$EXPECTED" "$(pod_routes)"
run "add again is idempotent" 0 "added nothing" "$RG" route add --netns "$POD" -c "$TMP/railgate.yaml"
check_eq "add again: no duplicate routes" "$EXPECTED" "$(pod_routes)"
run "check: exit 0" 0 "ok 10.0.0.0/16 via 10.0.1.1 dev net1" \
	"$RG" route check --netns "$POD" --dev net1 -c "$TMP/railgate.yaml"
ip -n "$POD" route replace 192.168.0.0/16 via 10.0.1.77 dev net1
run "check after tampering: exit 1" 1 "192.168.0.0/16 points elsewhere.*10.0.1.77" \
	"$RG" route check --netns "$POD" -c "$TMP/railgate.yaml"
ip -n "$POD" route replace 192.168.0.0/16 via 10.0.1.1 dev net1 proto 82
ip -n "$POD" route add 172.16.0.0/12 via 10.0.1.254 dev net1
run "del: exit 0" 0 "removed 10.0.0.0/16 dev net1" "$RG" route del --netns "$POD" --dev net1
check_eq "del removed only railgate's routes" \
	"$(printf '%s\n' "$CONNECTED" "172.16.0.0/12 via 10.0.1.254 dev net1" | sort)" "$(pod_routes)"
run "del again: exit 0, nothing" 0 "removed nothing" "$RG" route del --netns "$POD" --dev net1
ip -n "$POD" route del 172.16.0.0/12

# ---- inline options, --pid -----------------------------------------------------
ip netns exec "$POD" sleep 30 &
PIDS+=($!)
sleep 0.2
run "add --pid with --supernet/--gateway/--frontend" 0 "added 10.0.0.0/16 via 10.0.1.1 dev net1" \
	"$RG" route add --pid "${PIDS[0]}" --supernet 10.0.0.0/16 --gateway 10.0.1.1 --frontend 192.168.0.0/16
check_eq "add --pid: same routes as with the config" "$EXPECTED" "$(pod_routes)"
run "check --pid inline: exit 0" 0 "ok 192.168.0.0/16" \
	"$RG" route check --pid "${PIDS[0]}" --supernet 10.0.0.0/16 --gateway 10.0.1.1 --frontend 192.168.0.0/16
run "del without --dev removes from every interface" 0 "removed 10.0.0.0/16 dev net1" \
	"$RG" route del --pid "${PIDS[0]}"
check_eq "del --pid: only the connected route is left" "$CONNECTED" "$(pod_routes)"

# An init container: already in the pod's namespace, NET_ADMIN but no SYS_ADMIN.
if command -v capsh >/dev/null; then
	run "init container: add --pid of itself without CAP_SYS_ADMIN" 0 "added 10.0.0.0/16 via 10.0.1.1" \
		ip netns exec "$POD" capsh --drop=cap_sys_admin -- -c \
		"exec '$RG' route add --pid \$\$ --supernet 10.0.0.0/16 --gateway 10.0.1.1"
	check_eq "init container: the supernet route is there" \
		"$(printf '%s\n' "$CONNECTED" "10.0.0.0/16 via 10.0.1.1 dev net1 proto 82" | sort)" "$(pod_routes)"
	"$RG" route del --netns "$POD" >/dev/null
fi

# ---- conflicts and addresses outside the rails ---------------------------------
ip -n "$POD" route add 10.0.0.0/24 via 10.0.1.200 dev net1
before=$(pod_routes)
run "add refuses a conflicting route: exit 1" 1 "already routes 10.0.0.0/24 via 10.0.1.200 dev net1, a part of 10.0.0.0/16" \
	"$RG" route add --netns "$POD" -c "$TMP/railgate.yaml"
check_eq "conflict: the pod is unchanged" "$before" "$(pod_routes)"
run "--on-conflict warn goes on with a warning" 0 "warning: the pod already routes 10.0.0.0/24" \
	"$RG" route add --netns "$POD" -c "$TMP/railgate.yaml" --on-conflict warn
"$RG" route del --netns "$POD" >/dev/null 2>&1
ip -n "$POD" route del 10.0.0.0/24
run "an address outside every supernet: exit 1" 1 "10.0.1.5 is outside every supernet" \
	"$RG" route add --netns "$POD" --supernet 10.9.0.0/16 --gateway 10.9.0.1
run "--dev that does not exist: exit 1" 1 "net7 is not in the pod" \
	"$RG" route add --netns "$POD" --dev net7 -c "$TMP/railgate.yaml"
check_eq "errors left only the connected route" "$CONNECTED" "$(pod_routes)"

tap_done
