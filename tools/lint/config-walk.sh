#!/usr/bin/env bash
# Where the parsed config goes (issue 20's measurement, docs/testing.md
# "Measuring the config's walk"): a call graph from the apply entry point
# rg_apply_config down to the map writes, made by GNU cflow from the
# library's sources, walked in call order.  Prints how many times the walk
# stays in a file, in how many distinct files, how many re-entries (stays
# minus files: each time the walk leaves a file and comes back counts one),
# the stays per file, and the lines of the five largest non-test C files.
#
#   tools/lint/config-walk.sh [-v] [ROOT]   ROOT: any checkout (default: this
#                                           one), e.g. one made with
#                                           `git worktree add /tmp/old 437ad13`
#   -v   also print the walk itself, one function a line, indented by depth
#
# The walk, on cflow's tree from rg_apply_config (depth first, each call
# site in source order, a subtree repeated at every call site):
#   - a function is on the walk when its caller is, and
#       (a) it receives the config: a parameter of type struct rg_config or
#           one of its parts (struct rg_config_rail, ...), or
#       (b) it leads to a map write (below), or
#       (c) its caller receives the config and it is no set-up or clean-up
#           (a name ending in _init, _free, _close, _destroy, _discard): what
#           a function holding the config asks or hands on along the way;
#   - a map write is a function named rg_map_set_{write,put,del,activate}*
#     (the map layer's writes, wherever maps/ keeps them);
#   - the shared floor's helpers (everything in lib/, and on trees older than
#     lib/ the same files where they were: errors, address and MAC
#     formatting, log, digest, files, namespaces, netlink sockets) are no
#     stop of the walk;
#   - a stay is a run of consecutive functions of the walk in one file.
# cflow sees direct calls only (not through function pointers) and knows a
# static function by its name: two files' statics of one name are one to it.
set -euo pipefail

verbose=0
if [ "${1:-}" = "-v" ]; then
	verbose=1
	shift
fi
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "${1:-$here/../..}" && pwd)
entry=${RG_WALK_ENTRY:-rg_apply_config}
writes=${RG_WALK_WRITES:-'^rg_map_set_(write|put|del|activate)'}
setup_cleanup='_(init|free|close|destroy|discard)$'
floor='^lib/|(^|/)(errbuf|ipfmt|netfmt|log|digest|files|cidr|netns|nlsock|addr|mac|ifname)\.c$'

command -v cflow >/dev/null || { echo "config-walk: needs cflow (tools/install-deps.sh)" >&2; exit 1; }
cd "$root"
mapfile -t srcs < <(find lib maps loader -name '*.c' ! -name '*.bpf.c' 2>/dev/null | LC_ALL=C sort)
[ ${#srcs[@]} -gt 0 ] || { echo "config-walk: no sources under $root" >&2; exit 1; }

tree=$(mktemp)
trap 'rm -f "$tree"' EXIT
cflow -m "$entry" "${srcs[@]}" >"$tree" 2>/dev/null
grep -q "^$entry()" "$tree" || { echo "config-walk: $entry not found under $root" >&2; exit 1; }

echo "config walk from $entry to the map writes ($root, $(cflow --version | head -1))"
awk -v verbose=$verbose -v writes="$writes" -v cleanup="$setup_cleanup" -v floorre="$floor" '
# cflow: "    name() <sig at file:line>:" at four spaces a level; a function
# defined nowhere in the sources (libc, libbpf) has no "at".
{
	n++
	line = $0
	match(line, /^ */)
	depth[n] = RLENGTH / 4
	nm = substr(line, RLENGTH + 1)
	sub(/\(\).*/, "", nm)
	name[n] = nm
	f = ""
	sig = ""
	if (match(line, / at [^ >]*:[0-9]+>/)) {
		f = substr(line, RSTART + 4, RLENGTH - 5)
		sub(/:[0-9]+$/, "", f)
	}
	if (match(line, /<.* at /))
		sig = substr(line, RSTART, RLENGTH)
	file[n] = f
	carry[n] = sig ~ /struct rg_config[ _*]/
	write[n] = f != "" && nm ~ writes
	helper[n] = f != "" && f ~ floorre
}
END {
	# reach[i]: i is a map write or calls one somewhere below (a backward
	# pass: acc[d] collects whether a node at depth d under the current
	# parent reaches one).
	for (i = n; i >= 1; i--) {
		d = depth[i]
		reach[i] = write[i] || acc[d + 1]
		acc[d + 1] = 0
		if (reach[i])
			acc[d] = 1
	}
	for (i = 1; i <= n; i++) {
		d = depth[i]
		on = d == 0 || (onw[d - 1] && (carry[i] || reach[i] ||
						(carry[par[d - 1]] && name[i] !~ cleanup)))
		if (file[i] == "" || helper[i])
			on = 0
		onw[d] = on
		par[d] = i
		if (!on)
			continue
		if (file[i] != last) {
			stays++
			stay[file[i]]++
			if (!(file[i] in seen)) {
				seen[file[i]] = 1
				order[++nf] = file[i]
			}
			last = file[i]
		}
		if (verbose)
			printf "    %*s%s  %s%s%s\n", 2 * d, "", name[i], file[i],
			       carry[i] ? "  [config]" : "", write[i] ? "  [map write]" : ""
	}
	printf "  %d stays in %d files, %d re-entries\n", stays, nf, stays - nf
	# stays per file, most first (ties in walk order)
	out = ""
	for (k = 1; k <= nf; k++) {
		best = 0
		for (j = 1; j <= nf; j++)
			if (!(order[j] in done) && (best == 0 || stay[order[j]] > stay[order[best]]))
				best = j
		done[order[best]] = 1
		out = out (k > 1 ? ", " : "") order[best] " " stay[order[best]]
	}
	print "  stays per file: " out
}' "$tree"

echo "largest non-test C files (lines):"
find . \( -name .git -o -name 'build*' -o -path ./tests \) -prune -o \
	-type f \( -name '*.c' -o -name '*.h' \) -print0 | xargs -0 wc -l |
	grep -v ' total$' | sort -rn | head -5 | sed 's|\./||; s/^ */  /'
