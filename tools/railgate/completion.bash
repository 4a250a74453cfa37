# bash completion for railgate.  The commands and each command's options
# come from the binary itself (`railgate help`, `railgate COMMAND --help`),
# so this file never lists what the C code already says.
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)

# The command names: the "Commands:" paragraph of the usage.
_railgate_commands()
{
	"$1" help 2>/dev/null | awk '/^Commands:/ { on = 1; next } on && NF == 0 { exit } on { print $1 }'
}

# Every long option a help text names.
_railgate_options()
{
	"$@" --help 2>/dev/null | grep -oE -- '--[a-z][a-z-]*' | sort -u
}

_railgate()
{
	local cur prev cmd="" i
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	# The command is the first word after the global options.
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--pin-dir) ((i++)) ;;
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done

	case $prev in
	-c|--config|--host-config)
		COMPREPLY=($(compgen -f -- "$cur")); return ;;
	--pin-dir|--dest)
		COMPREPLY=($(compgen -d -- "$cur")); return ;;
	--from|--dev)
		COMPREPLY=($(compgen -W "$(ls /sys/class/net 2>/dev/null)" -- "$cur")); return ;;
	--mode)
		COMPREPLY=($(compgen -W "auto xdp xdp-generic tc" -- "$cur")); return ;;
	--log-format)
		COMPREPLY=($(compgen -W "plain json" -- "$cur")); return ;;
	--on-conflict)
		COMPREPLY=($(compgen -W "error warn" -- "$cur")); return ;;
	--netns)
		COMPREPLY=($(compgen -W "$(ls /run/netns 2>/dev/null)" -- "$cur")); return ;;
	esac

	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "$(_railgate_options "${COMP_WORDS[0]}")" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(_railgate_commands "${COMP_WORDS[0]}")" -- "$cur"))
		fi
		return
	fi
	case $cmd in
	help)
		COMPREPLY=($(compgen -W "$(_railgate_commands "${COMP_WORDS[0]}")" -- "$cur")) ;;
	route)
		if [ "$COMP_CWORD" -eq $((i + 1)) ]; then
			COMPREPLY=($(compgen -W "add del check" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(_railgate_options "${COMP_WORDS[0]}" route)" -- "$cur"))
		fi ;;
	*)
		COMPREPLY=($(compgen -W "$(_railgate_options "${COMP_WORDS[0]}" "$cmd")" -- "$cur")) ;;
	esac
}
complete -F _railgate railgate
