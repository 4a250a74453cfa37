#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build, test and demo
# railgate, and mounts bpffs when it is missing.  Idempotent; needs root.
set -euo pipefail

PKGS=(
	make gcc clang llvm pkg-config bpftool libbpf-dev libelf-dev zlib1g-dev
	linux-libc-dev libnl-3-dev libnl-route-3-dev libnl-genl-3-dev libyaml-dev libjson-c-dev
	libmicrohttpd-dev libcmocka-dev libssl-dev
	iproute2 ethtool iperf3 tcpdump iputils-ping jq procps
	containernetworking-plugins prometheus gnuplot-nox
	curl
)

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js and npm validate the Kubernetes manifests (tests/deploy).  Some
# images ship NodeSource's nodejs, which bundles npm: ask for the commands,
# not the Debian package names, so the two never fight.
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
	echo "install-deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! mountpoint -q /sys/fs/bpf; then
	mount -t bpf bpf /sys/fs/bpf
fi
