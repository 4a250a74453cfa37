#!/usr/bin/env bash
# `railgate route add|check|del`: the CNI plugin's logic for init containers
# and operators, on a pod namespace with a rail address (a veth pair whose
# both ends live in namespaces this script creates and deletes).
source "$(dirname "$0")/../lib/integration.sh" none

RG=$PWD/build/railgate
P=$IT_NAME
POD=$P-pod
PEER=$P-peer
PIDS=()

cleanup() {
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	ip netns del "$POD" 2>/dev/null
	ip netns del "$PEER" 2>/dev/null
}
on_exit cleanup

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
pod_table() { ip -n "$POD" -4 route show table "$1" 2>/dev/null | sed 's/ *$//' | sort; }
# (iproute2 6.1's "ip rule show" takes no protocol filter)
pod_rules() { ip -n "$POD" -4 rule show 2>/dev/null | grep ' proto 82' | sed 's/ *$//'; }
pod_sysctl() { ip netns exec "$POD" sysctl -n "net.ipv4.conf.$1.$2"; }
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

# The example of docs/config.md: rails 10.0.0.0/24 and 10.0.1.0/24, frontend 192.168.0.0/16.
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
# rail1 is the config's second rail: table 1001, rule priority 1001, metric 1001.
EXPECTED=$(printf '%s\n' "$CONNECTED" \
	"10.0.0.0/16 via 10.0.1.1 dev net1 proto 82 metric 1001" \
	"192.168.0.0/16 via 10.0.1.1 dev net1 proto 82 metric 1001" | sort)
TABLE1001=$(printf '%s\n' \
	"10.0.0.0/16 via 10.0.1.1 dev net1 proto 82" \
	"10.0.1.0/24 dev net1 proto 82 scope link src 10.0.1.5" \
	"192.168.0.0/16 via 10.0.1.1 dev net1 proto 82" | sort)
RULE1001="1001:	from 10.0.1.5 lookup 1001 proto 82"
run "check before add fails: exit 1" 1 "rule from 10.0.1.5/32 \\(proto 82\\) is missing" \
	"$RG" route check --netns "$POD" -c "$TMP/railgate.yaml"
run "add finds net1 and its rail, exit 0" 0 "added 10.0.0.0/16 via 10.0.1.1 dev net1 metric 1001 table main rail rail1" \
	"$RG" route add --netns "$POD" -c "$TMP/railgate.yaml"
check_eq "add: main routes the supernet and front-end via rail1's gateway, metric 1001" "$EXPECTED" "$(pod_routes)"
check_eq "add: table 1001 holds the rail subnet (src) and the prefixes via the gateway" "$TABLE1001" "$(pod_table 1001)"
check_eq "add: rule from the rail address to table 1001 at priority 1001" "$RULE1001" "$(pod_rules)"
check_eq "add: rp_filter loose on net1" 2 "$(pod_sysctl net1 rp_filter)"
check_eq "add: arp_ignore 1, arp_announce 2 on net1" "1 2" "$(pod_sysctl net1 arp_ignore) $(pod_sysctl net1 arp_announce)"
check_eq "a socket bound to the rail address finds rail1's gateway" \
	"10.0.7.9 from 10.0.1.5 via 10.0.1.1 dev net1 table 1001" \
	"$(ip -n "$POD" route get 10.0.7.9 from 10.0.1.5 | head -1 | sed 's/ uid.*//; s/ *$//')"
run "add again is idempotent" 0 "added nothing" "$RG" route add --netns "$POD" -c "$TMP/railgate.yaml"
check_eq "add again: no duplicate routes" "$EXPECTED" "$(pod_routes)"
check_eq "add again: no duplicate rule" "$RULE1001" "$(pod_rules)"
run "check: exit 0" 0 "ok 10.0.0.0/16 via 10.0.1.1 dev net1" \
	"$RG" route check --netns "$POD" --dev net1 -c "$TMP/railgate.yaml"
ip -n "$POD" route replace 192.168.0.0/16 via 10.0.1.77 dev net1 metric 1001
run "check after tampering: exit 1" 1 "192.168.0.0/16 points elsewhere.*10.0.1.77" \
	"$RG" route check --netns "$POD" -c "$TMP/railgate.yaml"
ip -n "$POD" route replace 192.168.0.0/16 via 10.0.1.1 dev net1 proto 82 metric 1001
ip -n "$POD" route del 10.0.0.0/16 table 1001
run "check with a table route gone: exit 1" 1 "route 10.0.0.0/16 via 10.0.1.1 dev net1 table 1001 is missing" \
	"$RG" route check --netns "$POD" -c "$TMP/railgate.yaml"
run "add puts the table route back" 0 "added 10.0.0.0/16 via 10.0.1.1 dev net1 table 1001" \
	"$RG" route add --netns "$POD" -c "$TMP/railgate.yaml"
ip -n "$POD" rule del priority 1001
run "check with the rule gone: exit 1" 1 "rule from 10.0.1.5/32 \\(proto 82\\) is missing" \
	"$RG" route check --netns "$POD" -c "$TMP/railgate.yaml"
"$RG" route add --netns "$POD" -c "$TMP/railgate.yaml" >/dev/null
ip netns exec "$POD" sysctl -qw net.ipv4.conf.net1.rp_filter=1
run "check with strict rp_filter: exit 1" 1 "rp_filter on net1 is 1" \
	"$RG" route check --netns "$POD" -c "$TMP/railgate.yaml"
"$RG" route add --netns "$POD" -c "$TMP/railgate.yaml" >/dev/null
run "add restores loose rp_filter, check passes" 0 "ok 10.0.0.0/16" \
	"$RG" route check --netns "$POD" -c "$TMP/railgate.yaml"
ip -n "$POD" route add 172.16.0.0/12 via 10.0.1.254 dev net1
ip -n "$POD" rule add from 10.0.1.5 lookup 77 priority 77
run "del: exit 0" 0 "removed 10.0.0.0/16 via 10.0.1.1 dev net1 metric 1001 table main" \
	"$RG" route del --netns "$POD" --dev net1
check_eq "del removed only railgate's routes" \
	"$(printf '%s\n' "$CONNECTED" "172.16.0.0/12 via 10.0.1.254 dev net1" | sort)" "$(pod_routes)"
check_eq "del emptied table 1001" "" "$(pod_table 1001)"
check_eq "del removed railgate's rule only" "77:	from 10.0.1.5 lookup 77" \
	"$(ip -n "$POD" -4 rule show priority 77 | sed 's/ *$//')"
check_eq "no railgate rule is left" "" "$(pod_rules)"
run "del again: exit 0, nothing" 0 "removed nothing" "$RG" route del --netns "$POD" --dev net1
ip -n "$POD" route del 172.16.0.0/12
ip -n "$POD" rule del priority 77

# ---- the rail's table is taken ---------------------------------------------------
ip -n "$POD" route add 10.99.0.0/16 via 10.0.1.254 dev net1 table 1001
run "add refuses a table holding other routes: exit 1" 1 "routing table 1001 already holds routes that are not railgate's" \
	"$RG" route add --netns "$POD" -c "$TMP/railgate.yaml"
check_eq "table conflict: no rule was added" "" "$(pod_rules)"
check_eq "table conflict: main is unchanged" "$CONNECTED" "$(pod_routes)"
run "--on-conflict warn takes the next free table" 0 "using table 1002" \
	"$RG" route add --netns "$POD" -c "$TMP/railgate.yaml" --on-conflict warn
check_eq "the rule looks up table 1002" "1001:	from 10.0.1.5 lookup 1002 proto 82" "$(pod_rules)"
run "check finds the table through the rule" 0 "ok 10.0.0.0/16 via 10.0.1.1 dev net1 table 1002" \
	"$RG" route check --netns "$POD" -c "$TMP/railgate.yaml" --on-conflict warn
run "add again keeps table 1002" 0 "added nothing" \
	"$RG" route add --netns "$POD" -c "$TMP/railgate.yaml" --on-conflict warn
"$RG" route del --netns "$POD" --dev net1 >/dev/null
check_eq "del emptied table 1002 and left the foreign table alone" \
	"|10.99.0.0/16 via 10.0.1.254 dev net1" "$(pod_table 1002)|$(pod_table 1001)"
ip -n "$POD" route del 10.99.0.0/16 table 1001

# ---- two rail interfaces in one pod ------------------------------------------------
ip -n "$POD" link add net2 type veth peer name sw2 netns "$PEER" &&
	ip -n "$POD" addr add 10.0.0.5/24 dev net2 && ip -n "$POD" link set net2 up &&
	ip -n "$PEER" link set sw2 up
run "add without --dev handles every rail interface" 0 "added rule from 10.0.0.5/32 lookup 1000 priority 1000 dev net2" \
	"$RG" route add --netns "$POD" -c "$TMP/railgate.yaml"
check_eq "two rules, one per rail address" \
	"$(printf '1000:\tfrom 10.0.0.5 lookup 1000 proto 82\n1001:\tfrom 10.0.1.5 lookup 1001 proto 82')" "$(pod_rules)"
route_get() { ip -n "$POD" route get "$@" | head -1 | sed 's/ uid.*//; s/ *$//'; }
check_eq "bound to rail0's address: via rail0's gateway on net2" \
	"10.0.1.9 from 10.0.0.5 via 10.0.0.1 dev net2 table 1000" "$(route_get 10.0.1.9 from 10.0.0.5)"
check_eq "bound to rail1's address: via rail1's gateway on net1" \
	"10.0.0.9 from 10.0.1.5 via 10.0.1.1 dev net1 table 1001" "$(route_get 10.0.0.9 from 10.0.1.5)"
check_eq "bound to net1 (device): via rail1's gateway even to rail0" \
	"10.0.0.9 via 10.0.1.1 dev net1 src 10.0.1.5" "$(route_get 10.0.0.9 oif net1)"
check_eq "unbound to the front-end: the lowest metric, rail0" \
	"192.168.0.10 via 10.0.0.1 dev net2 src 10.0.0.5" "$(route_get 192.168.0.10)"
run "check without --dev checks every rail interface" 0 "ok 10.0.0.0/16 via 10.0.0.1 dev net2" \
	"$RG" route check --netns "$POD" -c "$TMP/railgate.yaml"
ip -n "$POD" link del net2
run "del of an interface that is gone removes its orphaned rule" 0 "removed 1 rule" \
	"$RG" route del --netns "$POD" --dev net2
check_eq "only net1's rule is left" "1001:	from 10.0.1.5 lookup 1001 proto 82" "$(pod_rules)"
"$RG" route del --netns "$POD" >/dev/null
check_eq "del without --dev: nothing of railgate's is left" "|$CONNECTED" "$(pod_rules)|$(pod_routes)"

# ---- inline options, --pid -----------------------------------------------------
ip netns exec "$POD" sleep 30 &
PIDS+=($!)
sleep 0.2
run "add --pid with --supernet/--gateway/--frontend" 0 "added 10.0.0.0/16 via 10.0.1.1 dev net1" \
	"$RG" route add --pid "${PIDS[0]}" --supernet 10.0.0.0/16 --gateway 10.0.1.1 --frontend 192.168.0.0/16
check_eq "add --pid inline: the routes of the config, numbered as the first rail (table 1000)" \
	"$(sed 's/metric 1001/metric 1000/' <<<"$EXPECTED")|$(sed 's/net1 proto 82 scope/net1 proto 82 scope/' <<<"$TABLE1001")" \
	"$(pod_routes)|$(pod_table 1000)"
run "--table 1500 goes with --supernet" 2 "--table goes with --supernet" \
	"$RG" route add --pid "${PIDS[0]}" -c "$TMP/railgate.yaml" --table 1500
run "check --pid inline: exit 0" 0 "ok 192.168.0.0/16" \
	"$RG" route check --pid "${PIDS[0]}" --supernet 10.0.0.0/16 --gateway 10.0.1.1 --frontend 192.168.0.0/16
run "del without --dev removes from every interface" 0 "removed 10.0.0.0/16 via 10.0.1.1 dev net1 metric 1000 table main" \
	"$RG" route del --pid "${PIDS[0]}"
check_eq "del --pid: only the connected route is left" "$CONNECTED" "$(pod_routes)"

# An init container: already in the pod's namespace, NET_ADMIN but no SYS_ADMIN.
if command -v capsh >/dev/null; then
	run "init container: add --pid of itself without CAP_SYS_ADMIN" 0 "added 10.0.0.0/16 via 10.0.1.1" \
		ip netns exec "$POD" capsh --drop=cap_sys_admin -- -c \
		"exec '$RG' route add --pid \$\$ --supernet 10.0.0.0/16 --gateway 10.0.1.1"
	check_eq "init container: the supernet route is there" \
		"$(printf '%s\n' "$CONNECTED" "10.0.0.0/16 via 10.0.1.1 dev net1 proto 82 metric 1000" | sort)" "$(pod_routes)"
	"$RG" route del --netns "$POD" >/dev/null
fi
# An init container whose /proc/sys is read-only (the usual container
# mount): the routes and rule go in, the sysctls become a warning.
run "read-only /proc/sys: add succeeds with a warning" 0 "warning: cannot open .*net1/rp_filter in the pod: Read-only" \
	ip netns exec "$POD" unshare -m sh -c "mount --bind /proc/sys /proc/sys &&
		mount -o bind,remount,ro /proc/sys /proc/sys && exec '$RG' route add --pid \$\$ --supernet 10.0.0.0/16 --gateway 10.0.1.1"
check_eq "read-only /proc/sys: the rule is there" "1000:	from 10.0.1.5 lookup 1000 proto 82" "$(pod_rules)"
"$RG" route del --netns "$POD" >/dev/null

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
