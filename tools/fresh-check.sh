#!/usr/bin/env bash
# The proof that the README's two commands set up a fresh machine: builds a
# minimal Debian 12 root (mmdebstrap, minbase plus make, git and
# ca-certificates), clones this repository's HEAD into it, and runs
# `make demo` (a small cluster) and then `make test` inside it, chrooted in
# a private mount namespace.  Nothing is pre-installed for the project: what
# the commands need they must install themselves.  Takes minutes; run it
# after changing the Makefile, tools/install-deps.sh or what a test needs.
#
#   tools/fresh-check.sh             (as root; make fresh-check)
#   FRESH_KEEP=1 tools/fresh-check.sh    keep the root for a look afterwards
#   FRESH_ONLY=demo|test                 run one of the two commands
#
# The machine's own package-client settings are copied in (apt's sources
# and configuration, npm's global and user npmrc, the CA certificates), as
# any fresh machine here has them.  Everything is undone on exit, also on
# failure: the mounts live only in the private mount namespace, and the
# root is removed once no mount and no process is left in it.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

[ "$(id -u)" -eq 0 ] || { echo "fresh-check: needs root (chroot, mounts, namespaces)" >&2; exit 1; }
if ! command -v mmdebstrap >/dev/null; then
	echo "fresh-check: installing mmdebstrap"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap >/dev/null ||
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap >/dev/null; }
fi

root=$(mktemp -d /var/tmp/railgate-fresh.XXXXXX)
log=$root.log

# Processes still running with their root in the chroot (a test's leftover).
procs_in_root() {
	local p
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] && echo "${p#/proc/}"
	done
	return 0
}

cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	local pids
	pids=$(procs_in_root)
	[ -n "$pids" ] && kill -9 $pids 2>/dev/null
	sleep 0.2
	if [ "${FRESH_KEEP:-0}" = 1 ]; then
		echo "fresh-check: kept $root (log $log)"
	elif findmnt -rn -o TARGET | grep -q "^$root"; then
		# Never rm -rf through a mount (a bound /dev, /sys): leave it be.
		echo "fresh-check: $root still has mounts; not removing it" >&2
	else
		rm -rf --one-file-system "$root"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

stamp() { date +%H:%M:%S; }
t0=$(date +%s)
elapsed() { echo "$(( $(date +%s) - t0 ))s"; }

# mmdebstrap reads the machine's own sources (deb822 or one-line format).
sources=()
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
	[ -s "$f" ] && sources+=("$f")
done
[ ${#sources[@]} -gt 0 ] || { echo "fresh-check: no apt sources on this machine" >&2; exit 1; }

echo "[$(stamp)] fresh-check: mmdebstrap bookworm minbase into $root"
mmdebstrap --quiet --variant=minbase --include=make,git,ca-certificates \
	--skip=cleanup/apt/lists bookworm "$root" "${sources[@]}" >"$log" 2>&1 ||
	{ tail -20 "$log" >&2; echo "fresh-check: mmdebstrap failed (log $log)" >&2; exit 1; }

# The machine's client settings, as every fresh machine here has them.
mkdir -p "$root/etc/apt/apt.conf.d" "$root/etc/apt/sources.list.d" "$root/usr/etc" \
	"$root/usr/local/share/ca-certificates" "$root/root"
rm -f "$root"/etc/apt/sources.list "$root"/etc/apt/sources.list.d/*
cp -a "${sources[@]}" "$root/etc/apt/sources.list.d/"
for f in /etc/apt/sources.list; do [ -f "$f" ] && cp -a "$f" "$root$f"; done
cp -a /etc/apt/apt.conf.d/. "$root/etc/apt/apt.conf.d/"
for f in /etc/npmrc /usr/etc/npmrc /root/.npmrc /etc/resolv.conf /etc/hosts; do
	[ -f "$f" ] && cp -aL "$f" "$root$f"
done
cp -a /usr/local/share/ca-certificates/. "$root/usr/local/share/ca-certificates/"
cp -aL /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"

echo "[$(stamp)] fresh-check: cloning $(git rev-parse --short HEAD) into the root"
git clone -q "$repo" "$root/src/railgate"

what=${FRESH_ONLY:-both}
inner='set -e; cd /src/railgate; export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root; '
case "$what" in
demo) inner+='time make demo NODES=2 RAILS=2' ;;
test) inner+='time make test' ;;
both) inner+='time make demo NODES=2 RAILS=2; echo "fresh-check: demo done"; time make test' ;;
*) echo "fresh-check: FRESH_ONLY is demo, test or empty" >&2; exit 2 ;;
esac

# A private mount namespace: / of the chroot is a mount point of its own
# (ip netns exec remounts / as a slave), with /proc, /sys, /dev, and tmpfs
# /run and /tmp.  bpffs is left to the project's own code.
echo "[$(stamp)] fresh-check: running $what in the root"
set +e
unshare --mount --propagation private -- bash -c '
	set -e
	root=$1; shift
	mount --bind "$root" "$root"
	mount -t proc proc "$root/proc"
	mount -t sysfs sysfs "$root/sys"
	mount --rbind /dev "$root/dev"
	mount -t tmpfs tmpfs "$root/run"
	mount -t tmpfs tmpfs "$root/tmp"
	exec chroot "$root" /bin/bash -c "$1"
' fresh "$root" "$inner" 2>&1 | tee -a "$log"
rc=${PIPESTATUS[0]}
set -e

summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -1)
echo "[$(stamp)] fresh-check: exit $rc after $(elapsed)${summary:+; $summary}"
[ "$rc" -eq 0 ] || { echo "fresh-check: FAILED (log $log)" >&2; exit 1; }
rm -f "$log"
echo "fresh-check: passed"
