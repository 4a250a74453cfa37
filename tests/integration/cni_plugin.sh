#!/usr/bin/env bash
# railgate-cni in a chain with Debian's real CNI plugins, invoked the way
# libcni does (CNI_* environment, config on stdin, prevResult injected):
# host-device moves a veth end (the stand-in VF) into a pod namespace,
# static IPAM gives it a rail address, railgate adds the supernet routes.
# Every cniVersion; CHECK before and after tampering; DEL removes exactly
# what ADD added and is idempotent; every error path leaves the pod as it was.
# All interfaces live in namespaces this script creates and deletes.
source "$(dirname "$0")/../lib/integration.sh" none

RG_CNI=$PWD/build/railgate-cni
PLUGINS=/usr/lib/cni
P=$IT_NAME
HOST=$P-host                 # the node's side: where plugins run and VFs live
POD=$P-pod

cleanup() {
	ip netns del "$POD" 2>/dev/null
	ip netns del "$HOST" 2>/dev/null
}
on_exit cleanup

if [ ! -x "$RG_CNI" ] || [ ! -x "$PLUGINS/host-device" ] || [ ! -x "$PLUGINS/static" ]; then
	echo "1..0 # SKIP needs build/railgate-cni and containernetworking-plugins"
	exit 0
fi

# ---- the testbed: a host namespace with a veth "VF", an empty pod -------

make_vf() {     # make_vf NAME: a veth whose peer (the "representor") is up
	ip -n "$HOST" link add "$1" type veth peer name "$1rep" &&
	ip -n "$HOST" link set "$1rep" up
}

ip netns add "$HOST" && ip netns add "$POD" && make_vf vf0 || {
	echo "not ok 1 - cannot create the test namespaces"
	exit 1
}

# ---- invoking plugins like libcni ----------------------------------------

CID=ctr$$
IFNAME=net1
NETNS=/run/netns/$POD
EXTRA_ARGS="IgnoreUnknown=1;K8S_POD_NAMESPACE=default;K8S_POD_NAME=gpu-0"

# cni CMD BINARY CONF: run a plugin in the host namespace; stdout is its
# answer, stderr goes to $TMP/stderr.  Bounded: a plugin that hangs is
# killed after 10 s (exit 124).
cni() {
	printf '%s' "$3" | env CNI_COMMAND="$1" CNI_CONTAINERID="$CID" CNI_NETNS="$NETNS" \
		CNI_IFNAME="$IFNAME" CNI_ARGS="$EXTRA_ARGS" CNI_PATH="$PLUGINS:$(dirname "$RG_CNI")" \
		ip netns exec "$HOST" timeout 10 "$2" 2>"$TMP/stderr"
}

# cni_stdin CMD BINARY: the same with the config on the caller's stdin
# (bytes a shell string cannot hold, such as NUL).
cni_stdin() {
	env CNI_COMMAND="$1" CNI_CONTAINERID="$CID" CNI_NETNS="$NETNS" \
		CNI_IFNAME="$IFNAME" CNI_ARGS="$EXTRA_ARGS" CNI_PATH="$PLUGINS:$(dirname "$RG_CNI")" \
		ip netns exec "$HOST" timeout 10 "$2" 2>"$TMP/stderr"
}

# conf VERSION PLUGIN_JSON [PREV_RESULT]: one plugin's config in a chain
conf() {
	if [ -n "${3:-}" ]; then
		jq -c --arg v "$1" --argjson p "$2" --argjson pr "$3" \
			'{cniVersion: $v, name: "rail0"} + $p + {prevResult: $pr}' <<<'{}'
	else
		jq -c --arg v "$1" --argjson p "$2" '{cniVersion: $v, name: "rail0"} + $p' <<<'{}'
	fi
}

# The chain of a real cluster, minus Multus: sriov (here host-device) with
# the rail IPAM, then railgate.  Multus adds deviceID and friends.
hostdev_json() {  # hostdev_json DEVICE ADDRESS GATEWAY
	jq -c -n --arg d "$1" --arg a "$2" --arg g "$3" \
		'{type: "host-device", device: $d,
		  ipam: {type: "static", addresses: [{address: $a, gateway: $g}]}}'
}
HD=$(hostdev_json vf0 10.0.0.5/24 10.0.0.1)
RG='{"type":"railgate","supernets":["10.0.0.0/16"],"frontend":["192.168.0.0/16"],
     "deviceID":"0000:3b:00.2","pciBusID":"0000:3b:00.2","runtimeConfig":{},"args":{}}'

pod_routes() { ip -n "$POD" -4 route show 2>/dev/null | sed 's/ *$//' | sort; }
host_has() { ip -n "$HOST" link show "$1" >/dev/null 2>&1; }
pod_has() { ip -n "$POD" link show "$1" >/dev/null 2>&1; }

pod_table() { ip -n "$POD" -4 route show table "$1" 2>/dev/null | sed 's/ *$//' | sort; }
pod_rules() { ip -n "$POD" -4 rule show 2>/dev/null | grep ' proto 82' | sed 's/ *$//'; }

# Inline supernets without "table": the rail is numbered as the first,
# table 1000, rule priority 1000, metric 1000.
EXPECTED=$(printf '%s\n' \
	"10.0.0.0/16 via 10.0.0.1 dev net1 proto 82 metric 1000" \
	"10.0.0.0/24 dev net1 proto kernel scope link src 10.0.0.5" \
	"192.168.0.0/16 via 10.0.0.1 dev net1 proto 82 metric 1000" | sort)
TABLE=$(printf '%s\n' \
	"10.0.0.0/16 via 10.0.0.1 dev net1 proto 82" \
	"10.0.0.0/24 dev net1 proto 82 scope link src 10.0.0.5" \
	"192.168.0.0/16 via 10.0.0.1 dev net1 proto 82" | sort)
RULE="1000:	from 10.0.0.5 lookup 1000 proto 82"
CONNECTED_ONLY="10.0.0.0/24 dev net1 proto kernel scope link src 10.0.0.5"

# err_field OUTPUT FIELD
err_field() { jq -r ".$2 // empty" <<<"$1" 2>/dev/null; }

# expect_error NAME CODE PATTERN OUTPUT RC: a CNI error object on stdout
# with CODE, a message matching PATTERN (case-insensitive), and rc != 0.
expect_error() {
	local name=$1 code=$2 pattern=$3 out=$4 rc=$5 text
	text="$(err_field "$out" msg): $(err_field "$out" details)"
	if [ "$rc" -ne 0 ] && [ "$(err_field "$out" code)" == "$code" ] &&
	   grep -qiE "$pattern" <<<"$text"; then
		ok "$name (code $code: $text)"
	else
		fail "$name"
		echo "# expected code $code matching /$pattern/, rc != 0; got rc $rc: $out"
	fi
}

# ---- the chain at every version the Debian plugins speak -----------------

chain_round() {
	local v=$1 r1 r2 rc out
	r1=$(cni ADD "$PLUGINS/host-device" "$(conf "$v" "$HD")") ||
		{ fail "$v: host-device ADD"; cat "$TMP/stderr" | sed 's/^/# /'; return; }
	r2=$(cni ADD "$RG_CNI" "$(conf "$v" "$RG" "$r1")")
	rc=$?
	check_eq "$v: railgate ADD succeeds" 0 "$rc"
	check_eq "$v: the pod routes the supernet and front-end via the rail gateway" \
		"$EXPECTED" "$(pod_routes)"
	check_eq "$v: the rail's table and source rule" "$TABLE|$RULE" "$(pod_table 1000)|$(pod_rules)"
	check_eq "$v: the result is prevResult at $v with main's added routes appended (no table field before 1.1.0)" \
		"$v|10.0.0.5/24|10.0.0.0/16>10.0.0.1,192.168.0.0/16>10.0.0.1|0" \
		"$(jq -r '[.cniVersion, .ips[0].address,
			   ([.routes[] | .dst + ">" + .gw] | join(",")),
			   ([.routes[] | select(.table or .priority)] | length | tostring)] | join("|")' <<<"$r2" 2>/dev/null)"

	if [ "$v" == "0.3.1" ]; then
		out=$(cni CHECK "$RG_CNI" "$(conf "$v" "$RG" "$r2")"); rc=$?
		expect_error "$v: CHECK is refused before 0.4.0" 1 "CHECK needs cniVersion 0.4.0" "$out" $rc
	else
		check "$v: host-device CHECK ok" cni CHECK "$PLUGINS/host-device" "$(conf "$v" "$HD" "$r2")"
		check "$v: railgate CHECK ok" cni CHECK "$RG_CNI" "$(conf "$v" "$RG" "$r2")"
		ip -n "$POD" route del 10.0.0.0/16
		out=$(cni CHECK "$RG_CNI" "$(conf "$v" "$RG" "$r2")"); rc=$?
		expect_error "$v: CHECK fails when a route is missing" 101 "10.0.0.0/16 .*missing" "$out" $rc
		ip -n "$POD" route add 10.0.0.0/16 via 10.0.0.9 dev net1
		out=$(cni CHECK "$RG_CNI" "$(conf "$v" "$RG" "$r2")"); rc=$?
		expect_error "$v: CHECK fails when a route points elsewhere" 101 \
			"points elsewhere.*via 10.0.0.9.*expects via 10.0.0.1" "$out" $rc
		ip -n "$POD" route del 10.0.0.0/16 via 10.0.0.9 dev net1
		ip -n "$POD" route add 10.0.0.0/16 via 10.0.0.1 dev net1 proto 82 metric 1000
		check "$v: CHECK ok again once repaired" cni CHECK "$RG_CNI" "$(conf "$v" "$RG" "$r2")"
		ip -n "$POD" rule del priority 1000
		out=$(cni CHECK "$RG_CNI" "$(conf "$v" "$RG" "$r2")"); rc=$?
		expect_error "$v: CHECK fails when the source rule is missing" 101 "rule from 10.0.0.5/32" "$out" $rc
		ip -n "$POD" rule add from 10.0.0.5 lookup 1000 priority 1000 proto 82
		ip -n "$POD" route del 192.168.0.0/16 table 1000
		out=$(cni CHECK "$RG_CNI" "$(conf "$v" "$RG" "$r2")"); rc=$?
		expect_error "$v: CHECK fails when a table route is missing" 101 "192.168.0.0/16 via 10.0.0.1 dev net1 table 1000 is missing" "$out" $rc
		ip -n "$POD" route add 192.168.0.0/16 via 10.0.0.1 dev net1 proto 82 table 1000
		check "$v: CHECK ok with rule and table repaired" cni CHECK "$RG_CNI" "$(conf "$v" "$RG" "$r2")"
	fi

	# An operator's route on the same interface must survive railgate's DEL.
	ip -n "$POD" route add 172.16.0.0/12 via 10.0.0.254 dev net1
	local prev=""
	[ "$v" != "0.3.1" ] && prev=$r2    # libcni passes prevResult to DEL from 0.4.0
	check "$v: railgate DEL succeeds" cni DEL "$RG_CNI" "$(conf "$v" "$RG" "$prev")"
	check_eq "$v: DEL removed exactly what ADD added" \
		"$(printf '%s\n' "$CONNECTED_ONLY" "172.16.0.0/12 via 10.0.0.254 dev net1" | sort)||" \
		"$(pod_routes)|$(pod_table 1000)|$(pod_rules)"
	check "$v: railgate DEL again is a no-op" cni DEL "$RG_CNI" "$(conf "$v" "$RG" "$prev")"
	check "$v: host-device DEL" cni DEL "$PLUGINS/host-device" "$(conf "$v" "$HD" "$prev")"
	check "$v: railgate DEL with the interface gone succeeds" \
		cni DEL "$RG_CNI" "$(conf "$v" "$RG" "$prev")"
	if ! pod_has net1 && host_has vf0; then
		ok "$v: the VF is back on the host, the pod is empty"
	else
		fail "$v: the VF is back on the host, the pod is empty"
		ip -n "$POD" -br link | sed 's/^/# /'
	fi
}

for v in 0.3.1 0.4.0 1.0.0; do
	chain_round "$v"
done

# ---- 1.1.0: Debian's plugins stop at 1.0.0, whose result is 1.1.0's -----

r1=$(cni ADD "$PLUGINS/host-device" "$(conf 1.0.0 "$HD")")
r2=$(cni ADD "$RG_CNI" "$(conf 1.1.0 "$RG" "$r1")"); rc=$?
check_eq "1.1.0: railgate ADD succeeds" 0 "$rc"
check_eq "1.1.0: the result says 1.1.0" "1.1.0" "$(jq -r .cniVersion <<<"$r2" 2>/dev/null)"
check_eq "1.1.0: the pod's routes" "$EXPECTED" "$(pod_routes)"
check_eq "1.1.0: the result lists main's routes with their metric and the table's with their table" \
	"10.0.0.0/16>10.0.0.1 p1000,192.168.0.0/16>10.0.0.1 p1000,10.0.0.0/16>10.0.0.1 t1000,192.168.0.0/16>10.0.0.1 t1000,10.0.0.0/24> t1000 s253" \
	"$(jq -r '[.routes[] | .dst + ">" + (.gw // "") + (if .priority then " p\(.priority)" else "" end)
		+ (if .table then " t\(.table)" else "" end) + (if .scope then " s\(.scope)" else "" end)] | join(",")' <<<"$r2" 2>/dev/null)"
check "1.1.0: CHECK ok" cni CHECK "$RG_CNI" "$(conf 1.1.0 "$RG" "$r2")"
check "1.1.0: STATUS ok" cni STATUS "$RG_CNI" "$(conf 1.1.0 "$RG")"
out=$(cni STATUS "$RG_CNI" "$(conf 1.1.0 '{"type":"railgate","railConfig":"/nonexistent/railgate.yaml"}')"); rc=$?
expect_error "1.1.0: STATUS reports an unreadable rail config" 50 "/nonexistent/railgate.yaml" "$out" $rc
out=$(cni STATUS "$RG_CNI" "$(conf 1.0.0 "$RG")"); rc=$?
expect_error "STATUS is refused before 1.1.0" 1 "STATUS needs cniVersion 1.1.0" "$out" $rc
GC_CONF=$(jq -c '. + {"cni.dev/valid-attachments": [{containerID: "other", ifname: "net1"}]}' \
	<<<"$(conf 1.1.0 "$RG")")
check "1.1.0: GC succeeds (no state outside pods)" cni GC "$RG_CNI" "$GC_CONF"
check_eq "1.1.0: GC left the pod's routes alone" "$EXPECTED" "$(pod_routes)"
ip netns del "$POD"
check "1.1.0: DEL with the netns gone succeeds" cni DEL "$RG_CNI" "$(conf 1.1.0 "$RG" "$r2")"
ip netns add "$POD"
host_has vf0 || make_vf vf0

out=$(printf '{"cniVersion":"1.0.0"}' | CNI_COMMAND=VERSION "$RG_CNI"); rc=$?
check_eq "VERSION lists every supported version" "0|0.3.1 0.4.0 1.0.0 1.1.0" \
	"$rc|$(jq -r '.supportedVersions | join(" ")' <<<"$out" 2>/dev/null)"

# ---- errors: right code, a clear message, the pod unchanged -------------

r1=$(cni ADD "$PLUGINS/host-device" "$(conf 1.0.0 "$HD")") || fail "errors: host-device ADD"
before=$(pod_routes)

rg_add() {  # rg_add RAILGATE_JSON [PREV]: railgate ADD at 1.0.0
	cni ADD "$RG_CNI" "$(conf 1.0.0 "$1" "${2-$r1}")"
}
unchanged() { check_eq "$1: the pod is unchanged" "$before" "$(pod_routes)"; }

out=$(printf '{"cniVersion":"1.0.0","type":"railgate",' | env CNI_COMMAND=ADD CNI_CONTAINERID=$CID \
	CNI_NETNS=$NETNS CNI_IFNAME=net1 CNI_PATH=$PLUGINS ip netns exec "$HOST" "$RG_CNI" 2>/dev/null); rc=$?
expect_error "bad stdin JSON" 6 "cannot decode" "$out" $rc
unchanged "bad JSON"

out=$(printf '%s' "$(conf 1.0.0 "$RG" "$r1")" | env CNI_COMMAND=ADD CNI_CONTAINERID=$CID \
	CNI_IFNAME=net1 CNI_PATH=$PLUGINS ip netns exec "$HOST" "$RG_CNI" 2>/dev/null); rc=$?
expect_error "missing CNI_NETNS (spec: invalid environment variables)" 4 "CNI_NETNS" "$out" $rc

EXTRA_ARGS="K8S_POD_NAME=gpu-0;RAIL=3"
out=$(rg_add "$RG"); rc=$?
expect_error "unknown CNI_ARGS without IgnoreUnknown" 4 "CNI_ARGS.*RAIL" "$out" $rc
EXTRA_ARGS="IgnoreUnknown=1;K8S_POD_NAME=gpu-0;RAIL=3"

out=$(rg_add '{"type":"railgate","supernets":["10.0.0.0/16"],"onConflict":"sometimes"}'); rc=$?
expect_error "invalid onConflict (invalid network config)" 7 "onConflict.*sometimes" "$out" $rc
out=$(rg_add '{"type":"railgate","supernets":["10.0.0.1/16"]}'); rc=$?
expect_error "a supernet with host bits" 7 "supernets\[0\].*10.0.0.1/16" "$out" $rc
out=$(rg_add '{"type":"railgate"}'); rc=$?
expect_error "neither railConfig nor supernets" 7 "railConfig.*supernets" "$out" $rc
out=$(cni ADD "$RG_CNI" "$(conf 0.2.0 "$RG" "$r1")"); rc=$?
expect_error "an unsupported cniVersion" 1 "0.2.0" "$out" $rc
out=$(rg_add "$RG" ""); rc=$?
expect_error "no prevResult (not chained)" 7 "chained|prevResult" "$out" $rc
unchanged "invalid configs"

# Hostile input (fuzzing found these): trailing data, two documents.
out=$(cni ADD "$RG_CNI" "$(conf 1.0.0 "$RG" "$r1")}}garbage"); rc=$?
expect_error "trailing data after the config" 6 "trailing data" "$out" $rc
out=$(cni ADD "$RG_CNI" "$(conf 1.0.0 "$RG" "$r1")$(conf 1.0.0 "$RG" "$r1")"); rc=$?
expect_error "two concatenated configs" 6 "trailing data" "$out" $rc
# A NUL ended the text the JSON parser saw: what followed went unread.
out=$( { conf 1.0.0 "$RG" "$r1" | tr -d '\n'; printf '\0}}garbage'; } | cni_stdin ADD "$RG_CNI"); rc=$?
expect_error "a NUL byte hiding trailing data" 6 "NUL byte" "$out" $rc
unchanged "trailing data"

# CNI_NETNS naming the plugin's own namespace (here the test's host
# namespace, never the machine's): refused, its routes untouched.
host_routes() { ip -n "$HOST" -4 route show table all 2>/dev/null | sort; ip -n "$HOST" -4 rule show; }
host_before=$(host_routes)
NETNS=/proc/self/ns/net
out=$(rg_add "$RG"); rc=$?
expect_error "CNI_NETNS is the plugin's own namespace" 4 "own network namespace" "$out" $rc
out=$(cni DEL "$RG_CNI" "$(conf 1.0.0 "$RG" "$r1")"); rc=$?
expect_error "DEL refuses the plugin's own namespace too" 4 "own network namespace" "$out" $rc
check_eq "the plugin's own namespace is unchanged" "$host_before" "$(host_routes)"

# A FIFO as CNI_NETNS or railConfig must fail at once, not block forever.
mkfifo "$TMP/fifo"
NETNS=$TMP/fifo
out=$(rg_add "$RG"); rc=$?
expect_error "a FIFO as CNI_NETNS: code 4 at once (not killed by the 10 s bound)" 4 "not a network namespace" "$out" $rc
cni DEL "$RG_CNI" "$(conf 1.0.0 "$RG" "$r1")" >/dev/null; rc=$?
check_eq "a FIFO as CNI_NETNS: DEL ends at once, nothing to remove" 0 "$rc"
NETNS=/run/netns/$POD
out=$(rg_add "$(jq -c -n --arg f "$TMP/fifo" '{type: "railgate", railConfig: $f}')"); rc=$?
expect_error "a FIFO as railConfig: code 7 at once" 7 "fifo is not a regular file" "$out" $rc
unchanged "hostile namespaces"
# A node that booted before the DaemonSet wrote the host's config: ADD asks
# the runtime to retry (code 11) and names the path.
out=$(rg_add "$(jq -c -n --arg f "$TMP/etc-railgate/railgate.yaml" '{type: "railgate", railConfig: $f}')"); rc=$?
expect_error "a railConfig not written yet: code 11 (try again later), naming the path" 11 \
	"not written yet: $TMP/etc-railgate/railgate.yaml does not exist.*railgate DaemonSet" "$out" $rc
unchanged "a railConfig not written yet"

IFNAME=net9
out=$(rg_add "$RG"); rc=$?
IFNAME=net1
expect_error "CNI_IFNAME not in prevResult" 7 "net9.*interfaces are: net1" "$out" $rc

out=$(rg_add '{"type":"railgate","supernets":["10.9.0.0/16"],"gateway":"10.9.0.1"}'); rc=$?
expect_error "an IP outside every rail" 7 "10.0.0.5 .*outside every supernet" "$out" $rc
unchanged "interface and address errors"

out=$(rg_add '{"type":"railgate","supernets":["10.0.0.0/16"],"gateway":"10.0.7.1"}'); rc=$?
expect_error "a gateway the interface cannot reach" 102 "10.0.7.1.*subnet" "$out" $rc
unchanged "unreachable gateway"

ip -n "$POD" route add 10.0.3.0/24 via 10.0.0.254 dev net1
before=$(pod_routes)
out=$(rg_add "$RG"); rc=$?
expect_error "a route for a part of the supernet another way" 100 \
	"already routes 10.0.3.0/24 via 10.0.0.254 dev net1.*part of 10.0.0.0/16" "$out" $rc
unchanged "conflict refused"
out=$(rg_add "$(jq -c '. + {onConflict: "warn"}' <<<"$RG")"); rc=$?
check_eq "onConflict warn: ADD goes on" 0 "$rc"
if grep -q "warning: the pod already routes 10.0.3.0/24" "$TMP/stderr"; then
	ok "onConflict warn: the conflict is logged on stderr"
else
	fail "onConflict warn: the conflict is logged on stderr"
fi
check "onConflict warn: DEL" cni DEL "$RG_CNI" "$(conf 1.0.0 "$RG")"
ip -n "$POD" route del 10.0.3.0/24

ip -n "$POD" route add 10.0.0.0/16 via 10.0.0.254 dev net1
before=$(pod_routes)
out=$(rg_add "$RG"); rc=$?
expect_error "the supernet already routed via another gateway" 100 \
	"already routes 10.0.0.0/16 via 10.0.0.254" "$out" $rc
unchanged "supernet conflict refused"
out=$(rg_add "$(jq -c '. + {onConflict: "warn"}' <<<"$RG")"); rc=$?
check_eq "onConflict warn: the taken supernet is left alone, the rest added" \
	"0|192.168.0.0/16" "$rc|$(jq -r '[.routes[].dst] | join(",")' <<<"$out" 2>/dev/null)"
check "onConflict warn: DEL" cni DEL "$RG_CNI" "$(conf 1.0.0 "$RG")"
check_eq "DEL kept the operator's supernet route" "$before" "$(pod_routes)"
ip -n "$POD" route del 10.0.0.0/16

ip -n "$POD" route add default via 10.0.0.254 dev net1
before=$(pod_routes)
out=$(rg_add "$RG"); rc=$?
expect_error "a default route via the rail interface" 100 "default route via 10.0.0.254 dev net1.*loop" "$out" $rc
unchanged "default route conflict"
ip -n "$POD" route del default

# ---- an IPAM that already routes the supernet via the rail gateway --------
# (nv-ipam's routes[], static's routes): that route stays the rail's way in
# main, railgate does not duplicate it and does not remove it on DEL; the
# rail's own table and rule are added as always.
cni DEL "$RG_CNI" "$(conf 1.0.0 "$RG" "$r1")" >/dev/null
cni DEL "$PLUGINS/host-device" "$(conf 1.0.0 "$HD" "$r1")" >/dev/null
HD_ROUTES=$(jq -c '.ipam.routes = [{dst: "10.0.0.0/16", gw: "10.0.0.1"}]' <<<"$HD")
r1=$(cni ADD "$PLUGINS/host-device" "$(conf 1.0.0 "$HD_ROUTES")") || fail "ipam routes: host-device ADD"
check_eq "ipam routes: prevResult carries the IPAM's supernet route" "10.0.0.0/16" \
	"$(jq -r '[.routes[]?.dst] | join(",")' <<<"$r1" 2>/dev/null)"
r2=$(rg_add "$RG"); rc=$?
check_eq "ipam routes: railgate ADD succeeds (no conflict with the IPAM's own route)" 0 "$rc"
check_eq "ipam routes: main keeps the IPAM's route, railgate adds only the front-end" \
	"$(printf '%s\n' "$CONNECTED_ONLY" "10.0.0.0/16 via 10.0.0.1 dev net1" \
		"192.168.0.0/16 via 10.0.0.1 dev net1 proto 82 metric 1000" | sort)" "$(pod_routes)"
check_eq "ipam routes: the rail's table and rule are complete" "$TABLE|$RULE" "$(pod_table 1000)|$(pod_rules)"
check_eq "ipam routes: the result keeps the IPAM's route once and appends railgate's" \
	"10.0.0.0/16,192.168.0.0/16" "$(jq -r '[.routes[].dst] | join(",")' <<<"$r2" 2>/dev/null)"
check "ipam routes: CHECK ok" cni CHECK "$RG_CNI" "$(conf 1.0.0 "$RG" "$r2")"
check "ipam routes: DEL" cni DEL "$RG_CNI" "$(conf 1.0.0 "$RG" "$r2")"
check_eq "ipam routes: DEL kept the IPAM's route, removed table and rule" \
	"$(printf '%s\n' "$CONNECTED_ONLY" "10.0.0.0/16 via 10.0.0.1 dev net1" | sort)||" \
	"$(pod_routes)|$(pod_table 1000)|$(pod_rules)"

# ---- the rail's table already in use -----------------------------------------
ip -n "$POD" route add 10.77.0.0/16 via 10.0.0.254 dev net1 table 1000
before=$(pod_routes)
out=$(rg_add "$RG" "$r1"); rc=$?
expect_error "a table holding other routes" 100 "routing table 1000 already holds routes that are not railgate's" "$out" $rc
check_eq "table conflict: no rule, main unchanged" "|$before" "$(pod_rules)|$(pod_routes)"
out=$(rg_add "$(jq -c '. + {onConflict: "warn"}' <<<"$RG")" "$r1"); rc=$?
check_eq "onConflict warn: the next free table, 1001" "0|1000:	from 10.0.0.5 lookup 1001 proto 82" "$rc|$(pod_rules)"
check "onConflict warn: CHECK finds the table through the rule" \
	cni CHECK "$RG_CNI" "$(conf 1.0.0 "$(jq -c '. + {onConflict: "warn"}' <<<"$RG")" "$out")"
check "onConflict warn: DEL" cni DEL "$RG_CNI" "$(conf 1.0.0 "$RG" "$out")"
check_eq "DEL left the foreign table alone and emptied 1001" \
	"10.77.0.0/16 via 10.0.0.254 dev net1||" "$(pod_table 1000)|$(pod_table 1001)|$(pod_rules)"
ip -n "$POD" route del 10.77.0.0/16 table 1000
out=$(rg_add "$(jq -c '. + {tableBase: 1, rulePriority: 40000}' <<<"$RG")"); rc=$?
expect_error "rulePriority must stay above main" 7 "rulePriority.*0 to 32765" "$out" $rc
out=$(rg_add "$(jq -c '. + {tableBase: 254}' <<<"$RG")"); rc=$?
expect_error "a reserved table id" 7 "table 254 is reserved" "$out" $rc
out=$(rg_add "$(jq -c '. + {table: 2000}' <<<"$RG")"); rc=$?
check_eq "inline table 2000: rule priority 1000 + (2000 - tableBase)" "0|2000:	from 10.0.0.5 lookup 2000 proto 82" \
	"$rc|$(pod_rules)"
cni DEL "$RG_CNI" "$(conf 1.0.0 "$RG" "$r1")" >/dev/null
cni DEL "$PLUGINS/host-device" "$(conf 1.0.0 "$HD_ROUTES" "$r1")" >/dev/null

# ---- railConfig: the rail (and its gateway) from the config file --------

# The example of docs/config.md: rails 10.0.0.0/24 and 10.0.1.0/24, frontend 192.168.0.0/16.
cp tests/unit/configs/example.yaml "$TMP/railgate.yaml"
make_vf vf1
IFNAME=net2
RGC=$(jq -c -n --arg f "$TMP/railgate.yaml" '{type: "railgate", railConfig: $f}')
r1=$(cni ADD "$PLUGINS/host-device" "$(conf 1.0.0 "$(hostdev_json vf1 10.0.1.7/24 10.0.1.254)")")
r2=$(cni ADD "$RG_CNI" "$(conf 1.0.0 "$RGC" "$r1")"); rc=$?
check_eq "railConfig: ADD succeeds" 0 "$rc"
check_eq "railConfig: routes via rail1's gateway from the file, not the IPAM's" \
	"$(printf '%s\n' "10.0.0.0/16 via 10.0.1.1 dev net2 proto 82 metric 1001" \
		"192.168.0.0/16 via 10.0.1.1 dev net2 proto 82 metric 1001")" \
	"$(pod_routes | grep "dev net2 proto 82")"
check_eq "railConfig: rail1 (the config's second rail) gets table 1001 and rule priority 1001" \
	"1001:	from 10.0.1.7 lookup 1001 proto 82" "$(pod_rules)"
check "railConfig: STATUS ok" cni STATUS "$RG_CNI" "$(conf 1.1.0 "$RGC")"
check "railConfig: DEL" cni DEL "$RG_CNI" "$(conf 1.0.0 "$RGC" "$r2")"
cni DEL "$PLUGINS/host-device" "$(conf 1.0.0 "$(hostdev_json vf1 10.0.1.7/24 10.0.1.254)" "$r1")" >/dev/null

r1=$(cni ADD "$PLUGINS/host-device" "$(conf 1.0.0 "$(hostdev_json vf1 10.0.9.7/24 10.0.9.1)")")
out=$(cni ADD "$RG_CNI" "$(conf 1.0.0 "$RGC" "$r1")"); rc=$?
expect_error "railConfig: an address in the supernet but in no rail" 7 "10.0.9.7 is in no rail" "$out" $rc
cni DEL "$PLUGINS/host-device" "$(conf 1.0.0 "$(hostdev_json vf1 10.0.9.7/24 10.0.9.1)" "$r1")" >/dev/null

printf 'spec:\n  supernets: [10.0.0.0/99]\n' >"$TMP/bad.yaml"
out=$(cni ADD "$RG_CNI" "$(conf 1.0.0 "$(jq -c -n --arg f "$TMP/bad.yaml" '{type: "railgate", railConfig: $f}')" "$r1")"); rc=$?
expect_error "railConfig: an invalid rail config names the file" 7 "bad.yaml" "$out" $rc

tap_done
