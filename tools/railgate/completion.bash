# bash completion for railgate.  The binary answers from its option tables
# (`railgate __complete WORD...`, tools/railgate/complete.c): the commands,
# each command's options and what follows an option, so this file lists
# nothing the C code already says.
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)

_railgate()
{
	local cur=${COMP_WORDS[COMP_CWORD]} out
	out=$("${COMP_WORDS[0]}" __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
	case $out in
	:file) COMPREPLY=($(compgen -f -- "$cur")) ;;
	:dir)  COMPREPLY=($(compgen -d -- "$cur")) ;;
	*)     COMPREPLY=($(compgen -W "$out" -- "$cur")) ;;
	esac
}
complete -F _railgate railgate
