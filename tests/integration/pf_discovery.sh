#!/usr/bin/env bash
# Rails that select their representors by PF (rails[].pf), on one node
# (tests/lib/onenode.sh) whose sysfs is a fake tree under $RAILGATE_SYSFS:
# the node's representors pf0vf0 and pf1vf0 are VF representors of two
# ConnectX PFs nic0 (0000:17:00.0) and nic1 (0000:31:00.0) as switchdev shows
# them (phys_switch_id, phys_port_name pf0vfN).  `up` attaches what each PF
# has, by name and by PCI address; a PF that does not exist or is in legacy
# mode fails with a clear error and changes nothing; the daemon attaches a
# VF representor that appears later for the rail's PF; a node override
# replaces a rail's pf.
source "$(dirname "$0")/../lib/integration.sh" onenode rgpf
onenode_up
export RAILGATE_SYSFS="$TMP/sys"

RG_FAKE_SYSFS=$RAILGATE_SYSFS
source tests/lib/fake_sysfs.sh
fake_netdev nic0 b8cef60300a1b2c2 p0 0000:17:00.0 2
fake_netdev pf0vf0 b8cef60300a1b2c2 pf0vf0 0000:17:00.0
fake_netdev nic1 b8cef60300a1c3d4 p0 0000:31:00.0 1
fake_netdev pf1vf0 b8cef60300a1c3d4 pf0vf0 0000:31:00.0
fake_netdev nic9 "" "" 0000:5e:00.0 8            # legacy mode: no switch id

# rails_config FILE RAIL0_SELECTION RAIL1_SELECTION [EXTRA]
rails_config() {
	cat >"$1" <<YAML
apiVersion: railgate.dev/v1alpha1
kind: RailConfig
metadata:
  name: pf
spec:
  supernets: [10.0.0.0/16]
  computenet:
    uplink: uplink0
    gateway: 10.1.255.1
  rails:
    - name: rail0
      subnet: 10.0.0.0/24
      gateway: 10.0.0.1
      $2
    - name: rail1
      subnet: 10.0.1.0/24
      gateway: 10.0.1.1
      $3
  datapath:
    mode: tc
${4:-}
YAML
}
rail_of() { rg status --json | jq -r ".interfaces[] | select(.name==\"$1\" and .attached) | .rail"; }
reps_attached() { rg status --json | jq -r '[.interfaces[] | select(.attached) | .name] | sort | join(" ")'; }

rails_config "$TMP/pf.yaml" "pf: nic0" 'pf: "0000:31:00.0"'
check "check shows the rails by pf" bash -c "'$RAILGATE' check -c '$TMP/pf.yaml' | grep -q 'the VF representors of pf nic0'"
out=$(rg up -c "$TMP/pf.yaml" 2>&1); rc=$?
check_eq "up with rails by pf (name, PCI address) succeeds" 0 "$rc"
[ "$rc" = 0 ] || echo "$out" | sed 's/^/# /'
check_eq "pf nic0's representor is on rail0" rail0 "$(rail_of pf0vf0)"
check_eq "pf 0000:31:00.0's representor is on rail1" rail1 "$(rail_of pf1vf0)"
check_eq "only the PFs' representors are attached (not pf2vf0)" "pf0vf0 pf1vf0" "$(reps_attached)"
case $out in
*"rail rail0: PF nic0 (0000:17:00.0): 1 VF representors of 2 VFs"*) ok "up says what each PF has" ;;
*) fail "up says what each PF has"; echo "$out" | sed 's/^/# /' ;;
esac

# Errors change nothing.
gen() { rg status --json | jq -r .config_generation; }
before=$(gen)
rails_config "$TMP/nopf.yaml" "pf: nic7" "representors: [pf1vf0]"
out=$(rg up -c "$TMP/nopf.yaml" 2>&1); rc=$?
check_eq "a PF that does not exist fails up" 1 "$rc"
case $out in
*"rail rail0: pf nic7: no such PF (no SR-IOV netdev or PCI address by that name under $RAILGATE_SYSFS/class/net)"*)
	ok "the error names the rail, the pf and where it looked" ;;
*) fail "the error names the rail, the pf and where it looked"; echo "$out" | sed 's/^/# /' ;;
esac
rails_config "$TMP/legacy.yaml" "pf: nic9" "representors: [pf1vf0]"
out=$(rg up -c "$TMP/legacy.yaml" 2>&1); rc=$?
check_eq "a PF in legacy mode fails up" 1 "$rc"
case $out in
*"PF nic9 (0000:5e:00.0) has no phys_switch_id"*"devlink dev eswitch set pci/0000:5e:00.0 mode switchdev"*)
	ok "the error says to switch the eswitch to switchdev" ;;
*) fail "the error says to switch the eswitch to switchdev"; echo "$out" | sed 's/^/# /' ;;
esac
check_eq "failed applies changed nothing" "$before pf0vf0 pf1vf0" "$(gen) $(reps_attached)"

# A node override replaces rail1's pf with representors; the daemon then
# follows a VF representor created later for rail0's PF.
rg down >/dev/null
rails_config "$TMP/node.yaml" "pf: nic0" 'pf: "0000:31:00.0"' "  nodes:
    - name: gpu-7
      rails:
        - {name: rail1, representors: [pf2vf0]}"
ip netns exec "$ON-node" "$RAILGATE" run -c "$TMP/node.yaml" --node-name gpu-7 2>"$TMP/daemon.log" &
DAEMON_PID=$!
reps_are() { [ "$(reps_attached)" = "$1" ]; }
check "the daemon applies the node's override: rail1 is pf2vf0, rail0 pf nic0's" wait_for 10 reps_are "pf0vf0 pf2vf0"
check_eq "pf2vf0 is on rail1 on node gpu-7" rail1 "$(rail_of pf2vf0)"
# a second VF on nic0: its representor appears in sysfs and as a netdev
fake_netdev pf0vf1 b8cef60300a1b2c2 pf0vf1 0000:17:00.0
ip -n "$ON-node" link add pf0vf1 type veth peer name pf0vf1p
ip -n "$ON-node" link set pf0vf1 up
check "the daemon attaches a VF representor that appears for the rail's PF" wait_for 10 reps_are "pf0vf0 pf0vf1 pf2vf0"
check_eq "the new representor is on rail0" rail0 "$(rail_of pf0vf1)"
# a netdev that is no representor of the PF is left alone
ip -n "$ON-node" link add pf0vf9 type veth peer name pf0vf9p
ip -n "$ON-node" link set pf0vf9 up
fake_netdev pf0vf2 b8cef60300a1b2c2 pf0vf2 0000:17:00.0      # sysfs only: no netdev
ip -n "$ON-node" link add pf0vf2x type veth peer name pf0vf2xp  # a link event to react to
ip -n "$ON-node" link set pf0vf2x up
rg status >/dev/null
check_eq "interfaces that are no VF representor of the PF are not attached" "pf0vf0 pf0vf1 pf2vf0" "$(reps_attached)"
daemon_kill
tap_done
