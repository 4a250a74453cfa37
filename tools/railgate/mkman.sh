#!/usr/bin/env bash
# The man pages, from the one source the command already has: its --help.
# railgate(8) from `railgate --help`, and railgate-COMMAND(8) for every
# command `railgate help` lists, from `railgate COMMAND --help`, named with
# `railgate help --summary COMMAND`.  help2man (Debian's help2man) writes them.
#   tools/railgate/mkman.sh RAILGATE VERSION OUTDIR
set -euo pipefail
railgate=$1 version=$2 out=$3
mkdir -p "$out"

# The command names: the lines of the "Commands:" paragraph of the usage.
commands() {
	"$railgate" help | awk '/^Commands:/ { on = 1; next } on && NF == 0 { exit } on { print $1 }'
}

page() {                                 # page NAME SUMMARY PROGRAM
	help2man --no-info --section=8 --manual="railgate" --source="railgate $version" \
		--version-string="$version" --name="$2" --output="$out/$1.8.tmp" "$3"
	# help2man titles a page after the program's first word; the page of
	# a subcommand is railgate-COMMAND, as man(1) finds it.
	sed -i -e "s/^\.TH RAILGATE /.TH ${1^^} /" \
		-e "/^\.SH NAME/{n;s|^railgate ${1#railgate-} |$1 |}" "$out/$1.8.tmp"
	mv "$out/$1.8.tmp" "$out/$1.8"
}

for c in $(commands); do
	[ "$c" = help ] && continue
	page "railgate-$c" "$("$railgate" help --summary "$c")" "$railgate $c"
done
# Last: make's target, so a run that failed half-way is redone.
page railgate "the eBPF datapath for cross-rail traffic of SR-IOV GPU pods" "$railgate"
