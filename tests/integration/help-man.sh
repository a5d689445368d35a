#!/usr/bin/env bash
# Every subcommand's --help and its man page agree on the options (help text lives in cmd/,
# the man pages in doc/man/; this keeps them from drifting apart).
. "$(dirname "$0")/../lib.sh"
cmds=$("$TRAX" --help | awk '/^commands:/ {on=1; next} on && /^  [a-z]/ {print $1}')
[ -n "$cmds" ]
_result $? "trax --help lists the commands"
for c in $cmds; do
	man=$TOP/doc/man/trax-$c.1
	if [ ! -f "$man" ]; then
		_result 1 "$c: man page doc/man/trax-$c.1 exists"
		continue
	fi
	_result 0 "$c: man page doc/man/trax-$c.1 exists"
	help=$("$TRAX" "$c" --help)
	is "$?" 0 "$c --help exits 0"
	hopts=$(printf '%s\n' "$help" | grep -o -- '--[a-z][a-z-]*' | sort -u | tr '\n' ' ')
	mopts=$(sed 's/\\-/-/g' "$man" | grep -o -- '--[a-z][a-z-]*' | sort -u | tr '\n' ' ')
	is "$mopts" "$hopts" "$c: the man page and --help name the same options"
	grep -q "\\.B $c\\b\|trax-$c" "$TOP/doc/man/trax.1"
	_result $? "$c: listed in trax(1)"
done
finish
