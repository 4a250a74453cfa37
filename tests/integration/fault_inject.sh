#!/usr/bin/env bash
# `railgate up` killed (SIGKILL, strace's fault injection) at its syscalls,
# on one node (tests/lib/onenode.sh), a fresh load and a reload: after each
# kill `status` works and shows the old config or the new one, never a
# half-pinned state, and the next `up` succeeds and runs the new config
# (finding 3 of issue 16: a kill during the first up's map pinning left a
# state no later up repaired).
#
# The syscalls are those that make the pinned state: bpf, mkdir, rmdir,
# rename, unlink.  `make test` kills at each one that changes something (a
# pin, a directory made, a rename, an unlink or rmdir, a link created or
# detached, a map written); FAULT_INJECT=all (`make test-full`) at every
# one of them, reads included.
source "$(dirname "$0")/../lib/integration.sh" onenode rgfi
onenode_up
ROOT=$RAILGATE_PIN_DIR
SET=bpf,mkdir,mkdirat,rmdir,rename,renameat,renameat2,unlink,unlinkat
ZERO=$(printf '0%.0s' $(seq 64))

onenode_config "$TMP/good.yaml" tc 2              # rails 0 and 1
onenode_config "$TMP/three.yaml" tc 3
# rails 0 and 2: a reload that attaches pf2vf0 and retires pf1vf0
awk '/- name: rail1$/ { skip = 4 } skip { skip--; next } { print }' "$TMP/three.yaml" >"$TMP/other.yaml"
digest_of() { sha256sum "$1" | cut -d' ' -f1; }

# trace CONFIG OUT: the syscalls of SET that `up -c CONFIG` makes, one a
# line: NAME N TEXT (the Nth call of NAME: strace's when= counts per syscall).
trace() {
	ip netns exec "$ON-node" strace -qq -o "$2.raw" -e trace="$SET" "$RAILGATE" up -c "$1" \
		>/dev/null 2>&1 || return 1
	awk '!/^(\+\+\+|---)/ { name = $0; sub(/\(.*/, "", name); n[name]++; print name, n[name], $0 }' \
		"$2.raw" >"$2"
}

# The points to kill at: every line with FAULT_INJECT=all, else the ones
# that change something.
points() {
	if [ "${FAULT_INJECT:-}" = all ]; then
		cat "$1"
	else
		grep -E 'BPF_(OBJ_PIN|LINK_CREATE|LINK_DETACH|MAP_UPDATE|MAP_DELETE)|^(rmdir|rename|unlink)|^mkdir[a-z]* .* = 0$' "$1"
	fi
}

# kill_at NAME N CONFIG: `up -c CONFIG`, killed on entering its Nth NAME.
kill_at() {
	ip netns exec "$ON-node" strace -qq -o /dev/null -e trace="$1" \
		-e inject="$1":signal=SIGKILL:when="$2" "$RAILGATE" up -c "$3" >"$TMP/killed.out" 2>&1
	[ $? -eq 137 ]
}

# state: what status says: "down", the config digest, or "broken: ERROR".
state() {
	local out
	if out=$(rg status --json 2>&1); then
		jq -r .config_digest <<<"$out"
	elif grep -q "railgate is not up" <<<"$out"; then
		echo down
	else
		echo "broken: $out"
	fi
}
attached() { rg status --json | jq -r '[.interfaces[] | select(.attached) | .name] | sort | join(" ")'; }

# one_point KIND NAME N TEXT...: kill there, then judge; prints why it failed.
one_point() {
	local kind=$1 name=$2 nth=$3 cfg old new s
	if [ "$kind" = fresh ]; then
		cfg=$TMP/good.yaml old="down $ZERO" new=$(digest_of "$cfg")
	else
		cfg=$TMP/other.yaml old=$(digest_of "$TMP/good.yaml") new=$(digest_of "$cfg")
	fi
	kill_at "$name" "$nth" "$cfg" || { echo "not killed there: $(cat "$TMP/killed.out")"; return 1; }
	s=$(state)
	case " $old $new " in
	*" $s "*) ;;
	*) echo "after the kill status says: $s"; return 1 ;;
	esac
	rg up -c "$cfg" >"$TMP/next.out" 2>&1 || { echo "the next up failed: $(cat "$TMP/next.out")"; return 1; }
	s=$(state)
	[ "$s" = "$new" ] || { echo "after the next up status says $s, not $new"; return 1; }
	if [ "$kind" = fresh ]; then
		[ "$(attached)" = "pf0vf0 pf1vf0" ] || { echo "attached: $(attached)"; return 1; }
		OUR_PROG_IDS=$(ours_prog_ids)
		[ "$(links_of_ours)" = 2 ] || { echo "$(links_of_ours) links of ours, not 2"; return 1; }
		rg down >/dev/null || return 1
		[ "$(links_of_ours)" = 0 ] || { echo "links left after down"; return 1; }
		[ -z "$(ls -A "$ROOT")" ] || { echo "left in the pin root after down: $(ls -A "$ROOT")"; return 1; }
	else
		[ "$(attached)" = "pf0vf0 pf2vf0" ] || { echo "attached: $(attached)"; return 1; }
		rg up -c "$TMP/good.yaml" >/dev/null || { echo "going back to the old config failed"; return 1; }
	fi
}

# run_points KIND TRACE
run_points() {
	local kind=$1 name nth text why
	while read -r name nth text; do
		text=${text//$ROOT/ROOT}
		if why=$(one_point "$kind" "$name" "$nth" 2>&1); then
			ok "$kind up killed at $name #$nth (${text:0:64}): status works, the next up runs the new config"
		else
			fail "$kind up killed at $name #$nth (${text:0:64})"
			printf '%s\n' "$why" | tail -5 | sed 's/^/# /'
			# start the next point from a known state, not this one's wreck
			rg down >/dev/null 2>&1
			[ "$kind" = fresh ] || rg up -c "$TMP/good.yaml" >/dev/null 2>&1
		fi
	done < <(points "$2")
}

# ---- a fresh load ---------------------------------------------------------
check "trace a fresh up" trace "$TMP/good.yaml" "$TMP/fresh.trace"
check "the fresh up pins" grep -q BPF_OBJ_PIN "$TMP/fresh.trace"
rg down >/dev/null
echo "# fresh up: $(wc -l <"$TMP/fresh.trace") syscalls, killing at $(points "$TMP/fresh.trace" | wc -l)"
run_points fresh "$TMP/fresh.trace"

# ---- a reload -------------------------------------------------------------
rg up -c "$TMP/good.yaml" >/dev/null
check "trace a reload" trace "$TMP/other.yaml" "$TMP/reload.trace"
rg up -c "$TMP/good.yaml" >/dev/null
echo "# reload: $(wc -l <"$TMP/reload.trace") syscalls, killing at $(points "$TMP/reload.trace" | wc -l)"
run_points reload "$TMP/reload.trace"
rg down >/dev/null

tap_done
