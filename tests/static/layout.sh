#!/usr/bin/env bash
# The tree's layout rules (issue 20, docs/testing.md "Layout"), one TAP line
# each, naming the offending files:
#   1. no non-test C file (.c or .h outside tests/) over 1,000 lines;
#   2. no `#include "../` anywhere (every include is written from the root);
#   3. no `maps.fd[` / `.fd[RG_MAPID` and no pin path format ("%s/maps/",
#      "/progs/", "/links", "v%d" directories...) outside maps/ (the map
#      layer and maps/pins.c own every map access and every pin path);
#   4. include arrows between folders point only down, by LAYERS below;
#   5. no include circle between files, and no call circle between the
#      non-test .c files (a file-level call graph from `nm` on build/'s
#      objects: who defines a global symbol, who leaves it undefined);
#   6. one name for the error buffer's length: every `char *err, size_t N`
#      parameter pair of a non-test file names it err_len.
#
#   tests/static/layout.sh [ROOT]    ROOT: the tree (default: this one);
#                                    its objects in $RG_BUILD (default
#                                    ROOT/build; make all first)
#
# Comments are stripped before looking (a comment may name anything); string
# literals are kept, they are what rule 3 reads.  bash, awk (POSIX: mawk is
# enough) and nm (binutils, beside gcc): nothing a fresh Debian lacks.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "${1:-$here/../..}" && pwd) || exit 1
build=${RG_BUILD:-build}
[[ "$build" = /* ]] || build="$root/$build"
# shellcheck source=tests/lib/tap.sh
. "$here/../lib/tap.sh"

# The layer order, lowest first: a file may include its own folder's files
# and anything on a lower line, never a peer on its own line nor anything
# above.  An entry is a folder or a single file (the longest entry that
# prefixes a path is its place); a non-test file in no entry is a failure,
# so a new folder gets a line here.  The ABI header includes nothing of the
# tree; bpf/ includes it; everything in user space may include both.
LAYERS='
maps/rg_abi.h
bpf
lib
maps
loader/config
loader/kernel
loader/plan
loader/datapath
loader/daemon
tools/pod_routes
tools/doctor
tools/cni tools/railgate tools/bench tools/testbed tools/vm
'
MAX_LINES=1000

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Every C file of the tree, root-relative (build trees and .git left out).
(cd "$root" && find . \( -name .git -o -name 'build*' \) -prune -o \
	-type f \( -name '*.c' -o -name '*.h' \) -print | sed 's|^\./||' | LC_ALL=C sort) >"$work/files"

# ---- one pass over every file, comments stripped ----------------------------
# Writes, tab-separated:  inc SRC TARGET LINE   (an include that names a file
# of the tree: root-relative, else beside SRC), up SRC LINE (#include "../),
# pin SRC LINE TEXT (rule 3), lines SRC N.
(cd "$root" && xargs awk -v list="$work/files" '
BEGIN {
	while ((getline f < list) > 0)
		have[f] = 1
	close(list)
}
FNR == 1 {
	if (prev != "")
		printf "lines\t%s\t%d\n", prev, prevn
	in_block = 0
	dir = FILENAME
	sub(/\/[^\/]*$/, "", dir)
	if (dir == FILENAME)
		dir = ""
	test_file = FILENAME ~ /^tests\//
	maps_file = FILENAME ~ /^maps\//
}
{
	prev = FILENAME
	prevn = FNR
	code = strip($0)
	if (code ~ /^[ \t]*#[ \t]*include[ \t]*"/) {
		t = code
		sub(/^[ \t]*#[ \t]*include[ \t]*"/, "", t)
		sub(/".*$/, "", t)
		if (t ~ /^\.\.\//)
			printf "up\t%s\t%d\n", FILENAME, FNR
		else if (t in have)
			printf "inc\t%s\t%s\t%d\n", FILENAME, t, FNR
		else if (dir != "" && ((dir "/" t) in have))
			printf "inc\t%s\t%s\t%d\n", FILENAME, dir "/" t, FNR
		next
	}
	if (test_file || maps_file)
		next
	if (code ~ /maps\.fd\[/ || code ~ /\.fd\[RG_MAPID/) {
		printf "pin\t%s\t%d\t%s\n", FILENAME, FNR, trim(code)
		next
	}
	rest = code
	while (match(rest, /"([^"\\]|\\.)*"/)) {
		lit = substr(rest, RSTART + 1, RLENGTH - 2)
		rest = substr(rest, RSTART + RLENGTH)
		if (lit ~ /\/(maps|progs|links)(\/|$)/ || lit ~ /^(maps|progs|links)\// ||
		    lit ~ /(^|\/)v%d/) {
			printf "pin\t%s\t%d\t%s\n", FILENAME, FNR, trim(code)
			break
		}
	}
}
END {
	if (prev != "")
		printf "lines\t%s\t%d\n", prev, prevn
}
function trim(s) {
	gsub(/^[ \t]+|[ \t]+$/, "", s)
	return s
}
# The line without its comments (in_block carries a /* */ across lines);
# string and character literals are kept whole.
function strip(line,    out, i, n, c, two, q) {
	out = ""
	n = length(line)
	q = ""
	for (i = 1; i <= n; i++) {
		c = substr(line, i, 1)
		two = substr(line, i, 2)
		if (in_block) {
			if (two == "*/") {
				in_block = 0
				i++
			}
			continue
		}
		if (q != "") {
			out = out c
			if (c == "\\") {
				out = out substr(line, i + 1, 1)
				i++
			} else if (c == q) {
				q = ""
			}
			continue
		}
		if (two == "/*") {
			in_block = 1
			out = out " "
			i++
			continue
		}
		if (two == "//")
			break
		if (c == "\"" || c == "\047")
			q = c
		out = out c
	}
	return out
}' <"$work/files") >"$work/scan"

# ---- strongly connected components -----------------------------------------
# stdin: "A B [WHY]" edges; out: one line per circle (a component of two or
# more files), its files, then "A -> B (WHY)" for each edge inside it.
scc_awk='
{
	if (!($1 in seen)) { seen[$1] = 1; node[++nn] = $1 }
	if (!($2 in seen)) { seen[$2] = 1; node[++nn] = $2 }
	if ($1 == $2)
		next
	k = $1 SUBSEP $2
	if (!(k in edge)) {
		edge[k] = 1
		adj[$1, ++deg[$1]] = $2
	}
	why = $3
	for (i = 4; i <= NF; i++)
		why = why " " $i
	if (why != "" && length(label[k]) < 60)
		label[k] = label[k] (label[k] == "" ? "" : ", ") why
}
END {
	for (i = 1; i <= nn; i++)
		if (!(node[i] in idx))
			connect(node[i])
	for (c = 1; c <= ncomp; c++) {
		line = "circle:"
		for (i = 1; i <= csize[c]; i++)
			line = line " " comp[c, i]
		for (i = 1; i <= csize[c]; i++)
			for (j = 1; j <= csize[c]; j++) {
				k = comp[c, i] SUBSEP comp[c, j]
				if (k in edge)
					line = line "; " comp[c, i] " -> " comp[c, j] \
					       (label[k] == "" ? "" : " (" label[k] ")")
			}
		print line
	}
}
# Tarjan: v gets an index; low is the lowest index reachable; a root (low ==
# index) pops its component.
function connect(v,    i, w, n, members) {
	idx[v] = low[v] = ++counter
	stack[++sp] = v
	on[v] = 1
	for (i = 1; i <= deg[v]; i++) {
		w = adj[v, i]
		if (!(w in idx)) {
			connect(w)
			if (low[w] < low[v]) low[v] = low[w]
		} else if (on[w] && idx[w] < low[v]) {
			low[v] = idx[w]
		}
	}
	if (low[v] != idx[v])
		return
	n = 0
	do {
		w = stack[sp--]
		on[w] = 0
		members[++n] = w
	} while (w != v)
	if (n < 2)
		return
	ncomp++
	csize[ncomp] = n
	sortn(members, n)
	for (i = 1; i <= n; i++)
		comp[ncomp, i] = members[i]
}
function sortn(a, n,    i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
}'

# report NAME FILE: ok when FILE is empty, else "not ok" naming the files
# that break the rule (a line's first path; every file of a circle), then
# FILE's lines as TAP comments: where and why.
report() {
	local files
	if [ -s "$2" ]; then
		files=$(awk '
			/^circle:/ { s = $0; sub(/^circle: /, "", s); sub(/;.*/, "", s)
				     n = split(s, f, " "); for (i = 1; i <= n; i++) name(f[i]); next }
			{ p = $1; sub(/:.*/, "", p); name(p) }
			function name(f) { if (!(f in seen)) { seen[f] = 1; out = out (out == "" ? "" : " ") f } }
			END { print out }' "$2")
		fail "$1: $files"
		sed 's/^/# /' "$2"
	else
		ok "$1"
	fi
}

# ---- 1. size ----------------------------------------------------------------
awk -F'\t' -v max=$MAX_LINES '$1 == "lines" && $2 !~ /^tests\// && $3 > max {
	printf "%s (%d lines)\n", $2, $3 }' "$work/scan" >"$work/r1"
report "rule 1: no non-test C file over $MAX_LINES lines" "$work/r1"

# ---- 2. includes from the root ---------------------------------------------
awk -F'\t' '$1 == "up" { printf "%s:%d\n", $2, $3 }' "$work/scan" >"$work/r2"
report "rule 2: no #include \"../ (includes are written from the repository root)" "$work/r2"

# ---- 3. maps and pins -------------------------------------------------------
awk -F'\t' '$1 == "pin" { printf "%s:%d: %s\n", $2, $3, $4 }' "$work/scan" >"$work/r3"
report "rule 3: no maps.fd[ and no pin path format outside maps/" "$work/r3"

# ---- 4. include arrows point down ------------------------------------------
awk -F'\t' -v layers="$LAYERS" '
BEGIN {
	nl = split(layers, line, "\n")
	for (i = 1; i <= nl; i++) {
		ne = split(line[i], e, " ")
		if (ne)
			lv++
		for (j = 1; j <= ne; j++)
			level[e[j]] = lv
	}
}
# The longest entry that is the path or a folder above it.
function place(p,    q) {
	q = p
	while (q != "") {
		if (q in level)
			return q
		if (q !~ /\//)
			return ""
		sub(/\/[^\/]*$/, "", q)
	}
	return ""
}
$1 == "lines" && $2 !~ /^tests\// && place($2) == "" {
	printf "%s: in no layer (add its folder to LAYERS in tests/static/layout.sh)\n", $2
}
$1 == "inc" && $2 !~ /^tests\// {
	from = place($2)
	to = place($3)
	if (from == "" || to == "" || from == to)
		next
	if (level[to] >= level[from])
		printf "%s:%d includes %s (%s is not below %s)\n", $2, $4, $3, to, from
}' "$work/scan" >"$work/r4"
report "rule 4: include arrows between folders point only down" "$work/r4"

# ---- 5. no circles ----------------------------------------------------------
awk -F'\t' '$1 == "inc" { print $2, $3 }' "$work/scan" | awk "$scc_awk" >"$work/r5i"
report "rule 5: no two files include each other in a circle" "$work/r5i"

# The call graph: every non-test host .c file's object (bpf programs are one
# translation unit each, their headers are checked by the include rule).
grep -v '^tests/' "$work/files" | grep '\.c$' | grep -v '\.bpf\.c$' >"$work/srcs"
: >"$work/objs"
: >"$work/r5c"
while read -r src; do
	obj="$build/${src%.c}.o"
	if [ -f "$obj" ]; then
		printf '%s\t%s\n' "$src" "$obj" >>"$work/objs"
	else
		echo "$src: no object at $obj (make all first)" >>"$work/r5c"
	fi
done <"$work/srcs"
if [ ! -s "$work/r5c" ]; then
	# nm -P: "NAME TYPE VALUE SIZE"; U undefined, an upper-case letter a
	# global definition (text, data, bss, read-only, weak).
	while IFS=$'\t' read -r src obj; do
		nm -P "$obj" 2>/dev/null | awk -v src="$src" '{ print src, $1, $2 }'
	done <"$work/objs" | awk '
		$3 == "U" { use[++nu] = $1 SUBSEP $2; next }
		$3 ~ /^[A-Z]$/ { def[$2] = $1 }
		END {
			for (i = 1; i <= nu; i++) {
				split(use[i], u, SUBSEP)
				if ((u[2] in def) && def[u[2]] != u[1])
					print u[1], def[u[2]], u[2]
			}
		}' | awk "$scc_awk" >"$work/r5c"
fi
report "rule 5: no two .c files call each other in a circle" "$work/r5c"

# ---- 6. one name for the error buffer's length --------------------------------
grep -v '^tests/' "$work/files" | (cd "$root" && xargs grep -nHoE 'char \*err, size_t [A-Za-z_][A-Za-z0-9_]*' 2>/dev/null) |
	grep -v 'size_t err_len$' >"$work/r6"
report "rule 6: the error buffer's length is named err_len" "$work/r6"

tap_done
