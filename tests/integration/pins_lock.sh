#!/usr/bin/env bash
# The pin root and its lock on one node (tests/lib/onenode.sh):
# * `down` keeps the pin root, so a loader that waited on the lock during a
#   `down` holds the lock on the directory the next `up` locks too, and the
#   two serialise (finding 2 of issue 16).  Observed in /proc/locks (who
#   holds or waits on which inode), with processes stopped by strace at a
#   chosen syscall: no timing.
# * readers (status, stats, lookup, /metrics, /readyz) take no lock: they
#   answer while a loader holds it (finding 11), and they never create the
#   pin root (finding 7); /readyz follows the pinned datapath (finding 7).
source "$(dirname "$0")/../lib/integration.sh" onenode rgpin
DAEMON_PID=""
METRICS=127.0.0.1:9464
STOPPED=()

daemon_kill() {
	[ -n "$DAEMON_PID" ] && kill -9 "$DAEMON_PID" 2>/dev/null && wait "$DAEMON_PID" 2>/dev/null
	DAEMON_PID=""
}
# Stopped tracees hold the lock: let them go before the pins are unmounted.
resume_stopped() {
	local p
	for p in "${STOPPED[@]}"; do kill -CONT "$p" 2>/dev/null; done
	wait 2>/dev/null
}
on_exit daemon_kill
on_exit resume_stopped
onenode_up
ROOT=$RAILGATE_PIN_DIR
in_node() { ip netns exec "$ON-node" "$@"; }

# ---- /proc/locks: the flock each process holds or waits for ---------------
# holder_ino PID: the inode PID holds a flock on ("" if none).
holder_ino() { awk -v p="$1" '$2 == "FLOCK" && $5 == p { n = split($6, a, ":"); print a[n] }' /proc/locks; }
holds_lock() { [ -n "$(holder_ino "$1")" ]; }
# waits_on PID INO: PID is blocked in flock on inode INO.
waits_on() { awk -v p="$1" -v i="$2" '$2 == "->" && $6 == p { n = split($7, a, ":"); if (a[n] == i) f = 1 } END { exit !f }' /proc/locks; }
root_ino() { stat -c %i "$ROOT"; }
# the traced railgate under the strace whose pid is $1
tracee_of() { pgrep -P "$1" | head -1; }
alive() { kill -0 "$1" 2>/dev/null; }
# stopped PID: PID is stopped (strace's SIGSTOP took effect).  A SIGCONT sent
# before that (say, right after the process took the lock, before it reached
# the stopping syscall) would be lost, and the stop that follows never ends.
stopped() { awk '{ exit !($3 == "t" || $3 == "T") }' "/proc/$1/stat" 2>/dev/null; }
# stopped_at SYSCALL ARGS...: railgate ARGS stopped (SIGSTOP) at its first
# SYSCALL; sets TRACER (strace's pid, what `wait` waits for).
stopped_at() {
	local sc=$1
	shift
	# not through in_node: $! must be strace (ip netns exec execs it)
	ip netns exec "$ON-node" strace -qq -f -o /dev/null -e trace="$sc" \
		-e inject="$sc":signal=SIGSTOP:when=1 "$RAILGATE" "$@" >"$TMP/traced.out" 2>&1 &
	TRACER=$!
}

onenode_config "$TMP/good.yaml" tc 2
onenode_config "$TMP/three.yaml" tc 3

# ---- finding 2: a waiter during `down` and the next `up` serialise --------
check "up" rg up -c "$TMP/good.yaml"
OUR_PROG_IDS=$(ours_prog_ids)
# D: down, stopped holding the lock (its first getdents64 reads the root).
stopped_at getdents64 down
D_TRACER=$TRACER
wait_for 10 tracee_of "$D_TRACER"
D=$(tracee_of "$D_TRACER")
STOPPED+=("$D")
check "down holds the lock (stopped after taking it)" wait_for 10 holds_lock "$D"
ino0=$(root_ino)
# W: an up that waits on the lock while down runs; stopped at its first
# bpf syscall, which comes after it has the lock.
stopped_at bpf up -c "$TMP/good.yaml"
W_TRACER=$TRACER
wait_for 10 tracee_of "$W_TRACER"
W=$(tracee_of "$W_TRACER")
STOPPED+=("$W")
check "a second up waits on the root's lock during down" wait_for 10 waits_on "$W" "$ino0"
wait_for 10 stopped "$D"
kill -CONT "$D"
wait "$D_TRACER"
check_eq "down finishes" 0 "$?"
check "down keeps the pin root" test -d "$ROOT"
check_eq "down empties the pin root" "" "$(ls -A "$ROOT" 2>/dev/null)"
check "the waiting up now holds the lock" wait_for 10 holds_lock "$W"
check_eq "its lock is on the pin root that exists now (the same inode)" "$(root_ino 2>/dev/null)" \
	"$(holder_ino "$W")"
# U: the next up must wait for W (under the bug it found a new root and ran).
ip netns exec "$ON-node" "$RAILGATE" up -c "$TMP/good.yaml" >"$TMP/u.out" 2>&1 &
U=$!
u_settled() { waits_on "$U" "$(root_ino)" || ! alive "$U"; }
wait_for 10 u_settled
check "the next up waits for the first, it does not run beside it" waits_on "$U" "$(root_ino)"
wait_for 10 stopped "$W"
kill -CONT "$W"
wait "$W_TRACER"
check_eq "the first up succeeds" 0 "$?"
wait "$U"
check_eq "the next up succeeds after it" 0 "$?"
check "the second of them reloaded, it did not load again" grep -q "reloaded hitlessly" "$TMP/u.out"
OUR_PROG_IDS=$(ours_prog_ids)
check_eq "two links of ours, attached once" 2 "$(links_of_ours)"

# ---- a root replaced while a loader waited: it locks the new one ----------
# (an older railgate's down removed the root; so can a person)
rg down >/dev/null
exec {lockfd}<"$ROOT"
flock -x "$lockfd"
ino_old=$(root_ino)
stopped_at bpf up -c "$TMP/good.yaml" {lockfd}<&-
X_TRACER=$TRACER
wait_for 10 tracee_of "$X_TRACER"
X=$(tracee_of "$X_TRACER")
STOPPED+=("$X")
check "an up waits on the root" wait_for 10 waits_on "$X" "$ino_old"
rmdir "$ROOT" && mkdir "$ROOT"
exec {lockfd}<&-
check "it gets a lock once the old root's is free" wait_for 10 holds_lock "$X"
check_eq "the lock it holds is the new root's" "$(root_ino)" "$(holder_ino "$X")"
wait_for 10 stopped "$X"
kill -CONT "$X"
wait "$X_TRACER"
check_eq "and that up succeeds" 0 "$?"

# ---- finding 11: readers take no lock ------------------------------------
exec {lockfd}<"$ROOT"
flock -x "$lockfd"          # what a reload holds while it runs
# (the lock is on our open file: the child must not inherit it)
ip netns exec "$ON-node" "$RAILGATE" up -c "$TMP/three.yaml" >"$TMP/r.out" 2>&1 {lockfd}<&- &
R=$!
check "a reload waits for the lock" wait_for 10 waits_on "$R" "$(root_ino)"
check "status answers while the lock is held" timeout 10 ip netns exec "$ON-node" "$RAILGATE" status --json
check "stats answers while the lock is held" timeout 10 ip netns exec "$ON-node" "$RAILGATE" stats --json
check "lookup answers while the lock is held" timeout 10 ip netns exec "$ON-node" "$RAILGATE" lookup 10.0.1.10 --from pf0vf0
exec {lockfd}<&-
wait "$R"
check_eq "the reload goes on once the lock is free" 0 "$?"

# ---- finding 7: the daemon's readiness follows the pins -------------------
http_code() { in_node curl -s -m 5 -o /dev/null -w '%{http_code}' "http://$METRICS$1"; }
scrape() { in_node timeout 10 curl -sf -m 5 "http://$METRICS/metrics"; }
is_ready() { [ "$(http_code /readyz)" = 200 ]; }
not_ready() { [ "$(http_code /readyz)" = 503 ]; }
cp "$TMP/three.yaml" "$TMP/daemon.yaml"
ip netns exec "$ON-node" "$RAILGATE" run -c "$TMP/daemon.yaml" --metrics "$METRICS" --keep \
	--log-format json 2>>"$TMP/daemon.log" &
DAEMON_PID=$!
check "the daemon is ready" wait_for 10 is_ready

exec {lockfd}<"$ROOT"
flock -x "$lockfd"
check "a scrape answers while a loader holds the lock" scrape
check_eq "and sees the datapath" 1 "$(scrape | awk '$1 == "railgate_datapath_up" { print $2 }')"
check_eq "/readyz answers while a loader holds the lock" 200 "$(http_code /readyz)"
exec {lockfd}<&-

check "down under the daemon" rg down
check "/readyz says not ready once the pins are gone" wait_for 10 not_ready
check "and why" grep -q "pinned datapath is gone" <(in_node curl -s -m 5 "http://$METRICS/readyz")
check_eq "the scrape says the datapath is down" 0 \
	"$(scrape | awk '$1 == "railgate_datapath_up" { print $2 }')"
rmdir "$ROOT"
scrape >/dev/null
http_code /readyz >/dev/null
rg status >/dev/null 2>&1
rg stats >/dev/null 2>&1
rg lookup 10.0.1.10 --from pf0vf0 >/dev/null 2>&1
check_fails "metrics, readyz, status, stats and lookup never create the pin root" test -e "$ROOT"
kill -HUP "$DAEMON_PID"
check "SIGHUP loads the datapath again and the daemon is ready" wait_for 10 is_ready
daemon_kill
rg down >/dev/null

tap_done
