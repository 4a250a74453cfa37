#!/usr/bin/env bash
# `railgate run --host-config PATH`, as the DaemonSet runs it, on one node
# (tests/lib/onenode.sh) with PATH a temporary file standing for the host's
# /etc/railgate/railgate.yaml: the daemon writes the config it applied there
# at start and on every reload that applied, byte for byte and atomically (a
# new inode by rename, no temporary file left); a config that does not apply
# leaves the file as it was; railgate-cni reads that file; a --host-config
# whose directory does not exist stops the daemon before it touches anything.
source "$(dirname "$0")/../lib/integration.sh" onenode rghcf
onenode_up
CONF=$TMP/cm/railgate.yaml        # the ConfigMap as the container sees it
HOST=$TMP/host-etc/railgate.yaml  # the host's /etc/railgate/railgate.yaml
LOG=$TMP/daemon.log
mkdir -p "$TMP/cm" "$TMP/host-etc"

# log_count EVENT TEXT: how many log lines of EVENT contain TEXT
log_count() { grep -c "\"event\":\"$1\".*$2" "$LOG"; }
log_reaches() { [ "$(log_count "$1" "$2")" -ge "$3" ]; }
publish() { cp "$1" "$CONF.tmp" && mv "$CONF.tmp" "$CONF"; }   # a rename, as the kubelet's swap

onenode_config "$TMP/two.yaml" tc 2
onenode_config "$TMP/three.yaml" tc 3
publish "$TMP/two.yaml"

# A directory that does not exist: refused at once, nothing attached.
out=$(ip netns exec "$ON-node" "$RAILGATE" run -c "$CONF" --host-config "$TMP/nope/railgate.yaml" --check-args 2>&1); rc=$?
check_eq "--check-args refuses a --host-config in a missing directory" 1 "$rc"
check "it names the directory" grep -q "directory $TMP/nope does not exist" <<<"$out"
out=$(timeout 10 ip netns exec "$ON-node" "$RAILGATE" run -c "$CONF" --host-config "$TMP/nope/railgate.yaml" 2>&1); rc=$?
check_eq "the daemon does not start with it" 1 "$rc"
check_fails "and attached nothing" bash -c "'$RAILGATE' status >/dev/null 2>&1"

ip netns exec "$ON-node" "$RAILGATE" run -c "$CONF" --host-config "$HOST" --log-format json 2>"$LOG" &
DAEMON_PID=$!
check "the daemon writes the host config once the start applied" wait_for 10 log_reaches host-config "wrote the running config" 1
check "the host config is the config applied, byte for byte" cmp "$TMP/two.yaml" "$HOST"
check_eq "it is world-readable (0644): railgate-cni runs as the kubelet's user" 644 "$(stat -c %a "$HOST")"
check_eq "no temporary file is left" "railgate.yaml" "$(ls -A "$TMP/host-etc")"

# railgate-cni reads it (the check a NAD's railConfig makes)
check "railgate check accepts the host config" "$RAILGATE" check -c "$HOST"

# A reload that applies: written again, by rename.
ino=$(stat -c %i "$HOST")
publish "$TMP/three.yaml"
check "a reload that applied writes it again" wait_for 10 log_reaches host-config "wrote the running config" 2
check "the host config is the new config" cmp "$TMP/three.yaml" "$HOST"
check "by rename: a new inode" test "$(stat -c %i "$HOST")" != "$ino"

# A config that does not apply leaves it alone.
sed 's/subnet: 10.0.2.0\/24/subnet: 10.0.2.0\/33/' "$TMP/three.yaml" >"$TMP/bad.yaml"
publish "$TMP/bad.yaml"
check "the broken config is refused" wait_for 10 log_reaches reload "is invalid" 1
check "the host config is still the running one" cmp "$TMP/three.yaml" "$HOST"
onenode_config "$TMP/nouplink.yaml" tc 2
sed -i 's/uplink: uplink0/uplink: nosuch0/' "$TMP/nouplink.yaml"
publish "$TMP/nouplink.yaml"
check "a config the node cannot apply is refused" wait_for 10 log_reaches reload "nosuch0" 1
check "the host config is still the running one" cmp "$TMP/three.yaml" "$HOST"
check_eq "written twice in all" 2 "$(log_count host-config "wrote the running config")"
daemon_kill
rg down >/dev/null 2>&1
tap_done
