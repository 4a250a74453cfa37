#!/usr/bin/env bash
# The layout checker (tests/static/layout.sh) against small trees made here:
# a clean one passes every rule, and each rule, broken once, goes red naming
# the file that broke it while the other rules stay green.  The call rule
# reads objects, so each tree's .c files are compiled (cc -c) into its
# build/.  Seconds; nothing outside a temporary directory is touched.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/lib/tap.sh
. "$here/../lib/tap.sh"
checker="$here/layout.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

put() {   # put TREE PATH TEXT...
	mkdir -p "$(dirname "$1/$2")"
	printf '%s\n' "${@:3}" >"$1/$2"
}

# A tree that keeps every rule: lib/ below maps/ below tools/; lib/b.c calls
# lib/a.c, never the other way round.
base="$tmp/base"
put "$base" lib/a.h '#include <stddef.h>' 'int a_fn(void);'
put "$base" lib/a.c '#include "lib/a.h"' '/* "%s/maps/%s" in a comment is no pin path */' \
	'int a_fn(void) { return 1; }'
put "$base" lib/b.h 'int b_fn(void);'
put "$base" lib/b.c '#include "lib/a.h"' '#include "lib/b.h"' 'int b_fn(void) { return a_fn(); }'
put "$base" maps/m.h '#include "lib/a.h"' 'int m_fn(char *p, size_t n);'
put "$base" maps/m.c '#include <stdio.h>' '#include "maps/m.h"' \
	'int m_fn(char *p, size_t n) { return snprintf(p, n, "%s/maps/%s", "d", "m"); }'
put "$base" tools/cni/x.c '#include "maps/m.h"' '#include "lib/b.h"' \
	'static const char *msg = "ABI v%d";' 'int x_fn(void) { return b_fn() + (msg != 0); }'
put "$base" tools/railgate/r.h 'int r_fn(void);'
put "$base" tests/unit/t.c '#include "tools/railgate/r.h"' 'static const char *p = "%s/maps/%s";'

# compile TREE: every non-test .c into TREE/build/PATH.o
compile() {
	local f
	(cd "$1" && for f in $(find lib maps tools -name '*.c'); do
		mkdir -p "build/$(dirname "$f")"
		cc -std=gnu11 -I. -c "$f" -o "build/${f%.c}.o" || return 1
	done)
}

# variant NAME: a fresh copy of the clean tree, built
variant() {
	rm -rf "${tmp:?}/$1"
	cp -r "$base" "$tmp/$1"
	echo "$tmp/$1"
}

# expect TREE RULE_LINE STATUS [FILE]: the checker's line RULE_LINE (1..7)
# is STATUS (ok / not ok) and, when not ok, names FILE; every other line ok.
expect() {
	local tree=$1 n=$2 want=$3 file=${4:-} out line others
	out=$(RG_BUILD=build "$checker" "$tree" 2>&1)
	line=$(grep -E "^(not )?ok $n " <<<"$out")
	others=$(grep -E "^not ok " <<<"$out" | grep -vE "^not ok $n ")
	if [ "$want" = ok ]; then
		[[ "$line" == "ok $n "* ]] && [ -z "$others" ]
	else
		[[ "$line" == "not ok $n "* ]] && [[ "$line" == *"$file"* ]] && [ -z "$others" ]
	fi || { printf '%s\n' "$out" | sed 's/^/# /'; return 1; }
}

check "the clean tree builds" compile "$base"
for n in 1 2 3 4 5 6 7; do
	check "a clean tree keeps rule line $n" expect "$base" $n ok
done

t=$(variant size)
for i in $(seq 1001); do echo "/* $i */"; done >"$t/tools/cni/big.h"
check "1: a header of 1,001 lines is named" expect "$t" 1 "not ok" tools/cni/big.h
head -1000 "$t/tools/cni/big.h" >"$t/tools/cni/big.h.new" && mv "$t/tools/cni/big.h.new" "$t/tools/cni/big.h"
check "1: 1,000 lines are fine" expect "$t" 1 ok
for i in $(seq 1001); do echo "/* $i */"; done >"$t/tests/unit/big_test.c"
check "1: a test file may be longer" expect "$t" 1 ok

t=$(variant up)
sed -i 's|#include "lib/b.h"|#include "../../lib/b.h"|' "$t/tools/cni/x.c"
check "2: #include \"../ is named" expect "$t" 2 "not ok" tools/cni/x.c

t=$(variant pin)
printf '%s\n' 'const char *pin_of(void) { return "%s/progs/%s"; }' >>"$t/lib/a.c"
check "3: a pin path format outside maps/ is named" expect "$t" 3 "not ok" lib/a.c
t=$(variant pin_dir)
printf '%s\n' 'const char *sub(void) { return "links/if%d"; }' >>"$t/tools/cni/x.c"
check "3: a pin directory name outside maps/ is named" expect "$t" 3 "not ok" tools/cni/x.c
t=$(variant pin_version)
printf '%s\n' 'const char *ver(void) { return "%s/v%d"; }' >>"$t/lib/b.c"
check "3: a version directory outside maps/ is named" expect "$t" 3 "not ok" lib/b.c
t=$(variant map_fd)
printf '%s\n' 'struct ms { int fd[4]; };' 'int fd_of(struct ms maps) { return maps.fd[0]; }' >>"$t/tools/cni/x.c"
check "3: maps.fd[ outside maps/ is named" expect "$t" 3 "not ok" tools/cni/x.c

t=$(variant up_arrow)
sed -i 's|#include "lib/a.h"|#include "lib/a.h"\n#include "maps/m.h"|' "$t/lib/b.c"
check "4: lib/ including maps/ is named" expect "$t" 4 "not ok" lib/b.c
t=$(variant peer)
sed -i 's|#include "lib/b.h"|#include "lib/b.h"\n#include "tools/railgate/r.h"|' "$t/tools/cni/x.c"
check "4: a peer (tools/cni including tools/railgate) is named" expect "$t" 4 "not ok" tools/cni/x.c
t=$(variant unplaced)
put "$t" tools/newroom/n.h 'int n_fn(void);'
check "4: a folder in no layer is named" expect "$t" 4 "not ok" tools/newroom/n.h

t=$(variant inc_circle)
sed -i 's|#include <stddef.h>|#include <stddef.h>\n#include "lib/b.h"|' "$t/lib/a.h"
put "$t" lib/b.h '#include "lib/a.h"' 'int b_fn(void);'
check "5: two headers including each other are named" expect "$t" 5 "not ok" "lib/a.h lib/b.h"

t=$(variant call_circle)
put "$t" lib/a.c '#include "lib/a.h"' '#include "lib/b.h"' \
	'int a_fn(void) { return 1; }' 'int a_twice(void) { return b_fn() * 2; }'
compile "$t" >/dev/null
check "5: two .c files calling each other are named" expect "$t" 6 "not ok" "lib/a.c lib/b.c"
t=$(variant call_three)
put "$t" lib/a.c '#include "lib/a.h"' 'int x_fn(void);' \
	'int a_fn(void) { return 1; }' 'int a_up(void) { return x_fn(); }'
compile "$t" >/dev/null
check "5: a circle through three files, two folders, is named" expect "$t" 6 "not ok" \
	"lib/a.c lib/b.c tools/cni/x.c"
t=$(variant no_object)
put "$t" lib/c.c 'int c_fn(void) { return 3; }'
check "5: a source without an object fails (make all first)" expect "$t" 6 "not ok" lib/c.c

t=$(variant errlen)
printf '%s\n' '#include <stddef.h>' 'int e_fn(char *err, size_t n) { return err && n; }' >>"$t/lib/b.c"
check "6: an error buffer's length not named err_len is named" expect "$t" 7 "not ok" lib/b.c
sed -i 's/size_t n) { return err \&\& n; }/size_t err_len) { return err \&\& err_len; }/' "$t/lib/b.c"
check "6: err_len is fine" expect "$t" 7 ok

tap_done
