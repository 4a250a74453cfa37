# shellcheck shell=bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# A fake switchdev sysfs tree for loader/kernel/switchdev.c (RAILGATE_SYSFS):
# the netdevs a PF and its VF representors show, under $RG_FAKE_SYSFS (set by
# the sourcing script; tests/integration/pf_discovery.sh and
# tests/tools/record_facts/record.sh).
#
# fake_netdev NAME SWITCH_ID PORT_NAME PCI [NUMVFS]: a netdev in the fake sysfs.
fake_netdev() {
	local d="${RG_FAKE_SYSFS:?}/class/net/$1" dev="$RG_FAKE_SYSFS/devices/pci0000:00/$4"
	mkdir -p "$d" "$dev"
	[ -n "$2" ] && echo "$2" >"$d/phys_switch_id"
	[ -n "$3" ] && echo "$3" >"$d/phys_port_name"
	ln -sfn "../../../devices/pci0000:00/$4" "$d/device"
	[ -n "${5:-}" ] && echo "$5" >"$dev/sriov_numvfs"
	return 0
}
