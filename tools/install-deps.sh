#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build, test, demo and
# bench railgate, and mounts bpffs when it is missing.  Idempotent; needs
# root.  With everything present it costs one dpkg-query and no apt-get.
set -euo pipefail

PKGS=(
	make gcc libc6-dev clang llvm pkg-config bpftool libbpf-dev libelf-dev zlib1g-dev
	linux-libc-dev libnl-3-dev libnl-route-3-dev libnl-genl-3-dev libyaml-dev libjson-c-dev
	libmicrohttpd-dev libcmocka-dev libssl-dev libnftables-dev nftables libclang-rt-14-dev
	iproute2 ethtool iperf3 tcpdump iputils-ping traceroute iputils-tracepath jq procps kmod man-db
	containernetworking-plugins golang-github-appc-cni-dev prometheus gnuplot-nox help2man netsniff-ng
	curl ca-certificates strace cflow
)
# Commands a machine may carry as a non-Debian build (NodeSource's nodejs
# bundles npm; a Go toolchain from go.dev): ask for the command and install
# the Debian package only when the command is missing, so the two never
# fight.  node and npm validate the Kubernetes manifests (tests/deploy); go
# builds the libcni client the CNI tests drive (tests/tools/libcni_client);
# kubectl renders the kustomize overlays (tests/integration/daemon_deploy.sh).
CMDS=(node:nodejs npm:npm go:golang-go kubectl:kubernetes-client)

missing=()
# One dpkg-query for the whole list: a package that is not installed prints
# nothing, or a status other than "installed".
installed=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${PKGS[@]}" 2>/dev/null |
	awk '$2 == "installed" { print $1 }' || true)
for p in "${PKGS[@]}"; do
	grep -qxF "$p" <<<"$installed" || missing+=("$p")
done
for c in "${CMDS[@]}"; do
	command -v "${c%%:*}" >/dev/null || missing+=("${c#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "install-deps: missing ${missing[*]}: run as root (apt-get)" >&2
		exit 1
	fi
	echo "install-deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! mountpoint -q /sys/fs/bpf; then
	mount -t bpf bpf /sys/fs/bpf
fi
