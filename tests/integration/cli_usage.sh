#!/usr/bin/env bash
# The command as users expect it, no kernel needed: `railgate --version`
# (version, the commit it was built from, the map ABI; the same in
# `status --json`), `railgate help`, `--help` on every command to stdout with
# exit 0 and usage errors with exit 2 on stderr, `make install` with PREFIX
# and DESTDIR into a temporary root (binaries, a man page per command, bash
# completion, licenses), and the completion itself.
source "$(dirname "$0")/../lib/integration.sh" none
RG=build/railgate

# ---- version
want_commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
abi=$(sed -n 's/^#define RG_ABI_VERSION \([0-9]*\).*/\1/p' maps/rg_abi.h)
out=$($RG --version); rc=$?
check_eq "--version exits 0" 0 "$rc"
check_eq "--version names version, commit and ABI" \
	"railgate 0.1.0 (commit $want_commit, map ABI $abi)" "$out"
js=$($RG --pin-dir "$TMP/nothing" status --json 2>/dev/null)
check_eq "status --json (not up) carries version, commit, abi_version" \
	"false 0.1.0 $want_commit $abi" "$(jq -r '"\(.up) \(.version) \(.commit) \(.abi_version)"' <<<"$js")"

# ---- help
commands=$($RG help | awk '/^Commands:/ { on = 1; next } on && NF == 0 { exit } on { print $1 }')
check_eq "help lists every command" "check up down status stats lookup monitor run route probe doctor install-cni help" "$(echo $commands)"
check_eq "railgate --help is railgate help" "$($RG help)" "$($RG --help)"
for c in $commands; do
	$RG "$c" --help >"$TMP/out" 2>"$TMP/err"; rc=$?
	check_eq "$c --help exits 0" 0 "$rc"
	check_eq "$c --help writes nothing to stderr" "" "$(cat "$TMP/err")"
	first=$(head -1 "$TMP/out")
	if [ "$c" = help ]; then want="usage: railgate [--pin-dir DIR] COMMAND [ARGS]"; else want="usage: railgate $c"; fi
	case $first in
	"$want"*) ok "$c --help starts with its usage line" ;;
	*) fail "$c --help starts with its usage line"; echo "# got: $first" ;;
	esac
	check_eq "help $c is $c --help" "$(cat "$TMP/out")" "$($RG help "$c")"
	grep -q -- '--help' "$TMP/out" && ok "$c --help documents --help" || fail "$c --help documents --help"
done
for c in status stats down; do
	$RG --pin-dir "$TMP/nothing" "$c" --bogus >"$TMP/out" 2>"$TMP/err"; rc=$?
	check_eq "$c with a bad option exits 2" 2 "$rc"
	check_eq "$c with a bad option prints nothing on stdout" "" "$(cat "$TMP/out")"
	grep -q "^usage: railgate $c" "$TMP/err" && ok "$c with a bad option prints its usage on stderr" ||
		fail "$c with a bad option prints its usage on stderr"
done
# The global options before or after the command name, in either form.
for form in "--pin-dir $TMP/gdir status" "status --pin-dir $TMP/gdir" "status --pin-dir=$TMP/gdir --json" \
	"stats --pin-dir $TMP/gdir" "lookup 10.0.0.1 --pin-dir $TMP/gdir" "monitor --pin-dir $TMP/gdir"; do
	# shellcheck disable=SC2086
	err=$(RAILGATE_PIN_DIR=$TMP/elsewhere $RG $form 2>&1 >/dev/null); rc=$?
	check_eq "railgate $form: exit 1, not up" 1 "$rc"
	case $err in
	*"$TMP/gdir/"*) ok "railgate $form reads the pin directory given" ;;
	*) fail "railgate $form reads the pin directory given"; echo "# got: $err" ;;
	esac
done
$RG lookup >/dev/null 2>&1; check_eq "lookup without an IP exits 2" 2 "$?"
$RG help nosuch >/dev/null 2>&1; check_eq "help of an unknown command exits 2" 2 "$?"
$RG nosuch >/dev/null 2>&1; check_eq "an unknown command exits 2" 2 "$?"

# ---- make install into a temporary root
root=$TMP/root
check "make install PREFIX=/usr DESTDIR=..." make --no-print-directory -s install PREFIX=/usr DESTDIR="$root"
for f in usr/sbin/railgate usr/lib/cni/railgate; do
	[ -x "$root/$f" ] && ok "installed $f" || fail "installed $f"
done
check_eq "the installed command runs" "$($RG --version)" "$("$root/usr/sbin/railgate" --version)"
for c in "" $commands; do
	[ "$c" = help ] && continue
	page=railgate${c:+-$c}
	f=$root/usr/share/man/man8/$page.8
	name=$(MANWIDTH=200 man -l "$f" 2>/dev/null | sed -n '/^NAME/{n;p;q}' | sed 's/^ *//')
	case $name in
	"$page - "?*) ok "man page $page.8 renders, NAME $name" ;;
	*) fail "man page $page.8 renders with a NAME"; echo "# got: '$name'" ;;
	esac
done
# A man page says what --help says: every option of `up --help` is in railgate-up(8).
opts=$($RG up --help | grep -oE -- '--[a-z][a-z-]*' | sort -u)
man_opts=$(MANWIDTH=200 man -l "$root/usr/share/man/man8/railgate-up.8" 2>/dev/null | grep -oE -- '--[a-z][a-z-]*' | sort -u)
check_eq "railgate-up(8) has every option of up --help" "$opts" "$man_opts"
# Every page's OPTIONS has each option its command's --help describes, no
# more (probe and doctor once described only some; the option tables make
# --help and so the page): the tags, "-c, --config FILE" or "--json".
help_opts() { sed -n '/^Options:/,/^$/p' | sed -nE 's/^  ((-[a-zA-Z0-9], )?--[a-z][a-z-]*).*/\1/p' | grep -oE -- '--[a-z][a-z-]*' | sort -u; }
man_opts() { sed -n '/^OPTIONS/,/^[A-Z]/p' | sed -nE 's/^ {7}((-[a-zA-Z0-9], )?--[a-z][a-z-]*).*/\1/p' | grep -oE -- '--[a-z][a-z-]*' | sort -u; }
for c in "" $commands; do
	[ "$c" = help ] && continue
	page=railgate${c:+-$c}
	want=$($RG $c --help | help_opts)
	got=$(MANWIDTH=200 man -l "$root/usr/share/man/man8/$page.8" 2>/dev/null | man_opts)
	[ -n "$want" ] && check_eq "$page(8) OPTIONS lists every option of ${c:-railgate} --help" "$want" "$got" ||
		fail "${c:-railgate} --help describes options"
done
# man railgate: each command a line of its own (install-cni and help once
# ran together: one space before the summary is no entry to help2man).
page_commands=$(MANWIDTH=200 man -l "$root/usr/share/man/man8/railgate.8" 2>/dev/null |
	sed -n '/^ *Commands:/,/^[A-Z]/p' | sed -nE 's/^ {7}([a-z][a-z-]*)( .*)?$/\1/p')
check_eq "man railgate: each command starts a line of its own" "$(echo $commands)" "$(echo $page_commands)"
[ -f "$root/usr/share/bash-completion/completions/railgate" ] && ok "installed the bash completion" ||
	fail "installed the bash completion"
for f in LICENSE LICENSES/GPL-2.0-only.txt LICENSES/BSD-2-Clause.txt; do
	cmp -s "$f" "$root/usr/share/doc/railgate/$f" && ok "installed $f" || fail "installed $f"
done
check "make install with another PREFIX" make --no-print-directory -s install PREFIX=/opt/rg DESTDIR="$TMP/root2"
[ -x "$TMP/root2/opt/rg/sbin/railgate" ] && ok "PREFIX=/opt/rg puts the command in /opt/rg/sbin" ||
	fail "PREFIX=/opt/rg puts the command in /opt/rg/sbin"

# ---- the licenses the SPDX headers name
grep -q "GNU GENERAL PUBLIC LICENSE" LICENSES/GPL-2.0-only.txt && grep -q "Version 2, June 1991" LICENSES/GPL-2.0-only.txt &&
	ok "LICENSES/GPL-2.0-only.txt is the GPL version 2" || fail "LICENSES/GPL-2.0-only.txt is the GPL version 2"
grep -q "Redistributions in binary form must reproduce" LICENSES/BSD-2-Clause.txt &&
	! grep -q "endorse or promote" LICENSES/BSD-2-Clause.txt &&
	ok "LICENSES/BSD-2-Clause.txt is the 2-clause text" || fail "LICENSES/BSD-2-Clause.txt is the 2-clause text"
other=$(git ls-files '*.c' '*.h' '*.sh' | xargs grep -L 'SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)' 2>/dev/null |
	xargs grep -l 'SPDX-License-Identifier' 2>/dev/null | head -3)
check_eq "no source names another license than LICENSE does" "" "$other"

# ---- bash completion, driven the way bash drives it
complete_words() {      # complete_words WORD...: the candidates for the last word
	bash -c 'source tools/railgate/completion.bash; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _railgate; echo "${COMPREPLY[*]}"' _ "$@"
}
check_eq "completion: commands" "status stats" "$(complete_words "$RG" st)"
check_eq "completion: a command's options from its table (and the global --pin-dir)" \
	"--count --help --json --pin-dir --reset --watch" \
	"$(complete_words "$RG" stats --)"
check_eq "completion: after --pin-dir DIR, the command" "lookup" "$(complete_words "$RG" --pin-dir /tmp lo)"
check_eq "completion: --mode values" "xdp xdp-generic" "$(complete_words "$RG" up --mode x)"
check_eq "completion: route actions" "add" "$(complete_words "$RG" route a)"
check_eq "completion: help COMMAND" "run route" "$(complete_words "$RG" help r)"
tap_done
