# shellcheck shell=bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The preamble of an integration script.  Source it first, by a path
# relative to the script, naming the topology the script runs on:
#
#   source "$(dirname "$0")/../lib/integration.sh" onenode PREFIX
#   source "$(dirname "$0")/../lib/integration.sh" testbed
#   source "$(dirname "$0")/../lib/integration.sh" none
#
# It sets -u and pipefail (not -e: a failed check must not end the script),
# makes the repository root the working directory, sources the TAP helpers
# (tests/lib/tap.sh) and the topology library:
#   onenode PREFIX  tests/lib/onenode.sh with ON=PREFIX<pid>; the script
#                   calls onenode_up, the exit tears it down
#   testbed         tests/lib/testbed.sh; the script calls tb_begin, the
#                   exit runs `testbed.sh down` for it
#   none            no topology
# and makes TMP, a scratch directory removed on exit (kept when KEEP_TMP
# is set, for a post-mortem).
#
# Waiting and daemons: wait_for SECONDS CMD... polls CMD until it succeeds,
# bounded; a daemon a script starts in the background goes in DAEMON_PID,
# and daemon_kill (also run on exit, before the topology goes) ends it.
#
# Cleanup: one EXIT trap runs every command given to on_exit, the last one
# given first, then exits with the script's own status.  SIGINT and SIGTERM
# (tests/run.sh's timeout) exit through it too, so nothing is left behind.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
source tests/lib/tap.sh

IT_CLEANUP=()

# on_exit CMD: run CMD (a string, as for trap) when the script exits.
on_exit() {
	IT_CLEANUP+=("$1")
}

it_cleanup() {
	local rc=$? i
	trap - EXIT INT TERM
	for ((i = ${#IT_CLEANUP[@]} - 1; i >= 0; i--)); do
		eval "${IT_CLEANUP[i]}" || true
	done
	exit "$rc"
}

trap it_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

case "${1:-}" in
onenode)
	[ -n "${2:-}" ] || { echo "integration.sh: onenode needs a namespace prefix" >&2; exit 1; }
	ON=$2$$
	source tests/lib/onenode.sh
	IT_NAME=$ON
	;;
testbed)
	source tests/lib/testbed.sh
	IT_NAME=$TB_PREFIX
	;;
none)
	IT_NAME=rg-$(basename "$0" .sh)$$
	;;
*)
	echo "integration.sh: topology onenode PREFIX, testbed or none, not '${1:-}'" >&2
	exit 1
	;;
esac
TMP=$(mktemp -d "/tmp/$IT_NAME.XXXX")
on_exit '[ -n "${KEEP_TMP:-}" ] || rm -rf "$TMP"'
# After the scratch directory, so that it runs before: the topology goes
# down first.
case "$1" in
onenode) on_exit onenode_down ;;
testbed) on_exit tb_teardown ;;
esac

# now_ms: the clock wait_for bounds its polling with.
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# wait_for SECONDS CMD...: poll CMD every 50 ms until it succeeds; 1 when
# SECONDS pass first (a bound on a wait, never a timed assertion).
wait_for() {
	local deadline=$(( $(now_ms) + $1 * 1000 ))
	shift
	until "$@" >/dev/null 2>&1; do
		[ "$(now_ms)" -ge "$deadline" ] && return 1
		sleep 0.05
	done
}

# The daemon a script runs in the background (DAEMON_PID=$! after starting
# it): daemon_kill kills and reaps it; given to on_exit last, it runs first.
DAEMON_PID=""
daemon_kill() {
	[ -n "$DAEMON_PID" ] && kill -9 "$DAEMON_PID" 2>/dev/null && wait "$DAEMON_PID" 2>/dev/null
	DAEMON_PID=""
}
on_exit daemon_kill
