#!/usr/bin/env bash
# tests/integration/options.sh: bad options and commands get one line that names them and, for
# a typo, the nearest right name; exit status 2. Every subcommand, every long option of its
# --help (the option table is shared: cmd_getopt() in cmd/trax.c).
. "$(dirname "$0")/../lib.sh"

# err DESC WANT_SUBSTRING CMD...: CMD exits 2 with one stderr line containing WANT_SUBSTRING
# and nothing on stdout.
err() {
	local desc=$1 want=$2 rc e why=
	shift 2
	"$@" >"$TMP/stdout" 2>"$TMP/stderr" </dev/null
	rc=$?
	e=$(cat "$TMP/stderr")
	[ $rc -eq 2 ] || why="$why exit status $rc, not 2;"
	[ "$(grep -c '' "$TMP/stderr")" -eq 1 ] || why="$why not one line on stderr;"
	[[ "$e" == *"$want"* ]] || why="$why no '$want' in the message;"
	[ -s "$TMP/stdout" ] && why="$why output on stdout;"
	_result "$([ -z "$why" ] && echo 0 || echo 1)" "$desc" "${why# }"$'\n'"stderr: $e"
}

# A typo of NAME: its second and third letters swapped (--format: --fromat).
typo() {
	local n=${1#--}
	printf -- '--%s%s%s%s' "${n:0:1}" "${n:2:1}" "${n:1:1}" "${n:3}"
}

cmds=$("$TRAX" --help | awk '/^commands:/ {on=1; next} on && /^  [a-z]/ {print $1}')
[ -n "$cmds" ]
_result $? "trax --help lists the commands"
for c in $cmds; do
	opts=$("$TRAX" "$c" --help | grep -o -- '--[a-z][a-z-]*' | sort -u)
	[ -n "$opts" ]
	_result $? "$c --help names its options"
	for o in $opts; do
		[ "$o" = --help ] && continue
		[ ${#o} -ge 7 ] || continue	# names of 4 letters or more: a swap stays a typo
		t=$(typo "$o")
		err "$c $t: unknown, did you mean $o" "unknown option '$t'; did you mean '$o'?" \
			"$TRAX" "$c" "$t"
	done
	err "$c --no-such-option: unknown, no guess" "unknown option '--no-such-option' (see" \
		"$TRAX" "$c" --no-such-option
	err "$c -Z: unknown short option" "unknown option '-Z'" "$TRAX" "$c" -Z
	err "$c --help=x: --help takes no value" "--help takes no value" "$TRAX" "$c" --help=x
done

# Values: missing, given to a flag, abbreviations.
demo=$TOP/tests/fixtures/demo.dat
err "info --tasks without its value" "--tasks needs a value" "$TRAX" info "$demo" --tasks
err "info -n without its value" "-n needs a value" "$TRAX" info "$demo" -n
err "load --stats=1: a flag with a value" "--stats takes no value" "$TRAX" load "$demo" --stats=1
err "plot --t: ambiguous (--task, --track, --title)" "option '--t' is ambiguous: --task, --track, --title" \
	"$TRAX" plot timeline "$demo" -o "$TMP/x.png" --t x
err "plot --widnow: did you mean --window" "did you mean '--window'?" \
	"$TRAX" plot timeline "$demo" -o "$TMP/x.png" --widnow 1 2
err "plot --window with one time" "--window takes two times" \
	"$TRAX" plot timeline "$demo" -o "$TMP/x.png" --window 1
# An option a chart kind does not take: the kinds that take it, as `trax plot --help` lists them
# (worked from the help by hand); and an unknown kind lists every kind.
px() { "$TRAX" plot "$1" "$demo" -o "$TMP/x.png" "${@:2}"; }
err "plot timeline --bins" "--bins applies to histogram" px timeline --bins 3
err "plot cdf --bins" "--bins applies to histogram" px cdf --bins 3
err "plot counters --task" "--task applies to timeline, residency, histogram and cdf" \
	px counters --task x
err "plot timeline --of" "--of and --sql apply to histogram and cdf" px timeline --of wakeup
err "plot residency --sql" "--of and --sql apply to histogram and cdf" px residency --sql 'SELECT 1'
err "plot timeline --log" "--log applies to histogram and cdf" px timeline --log
err "plot residency --linear" "--linear applies to histogram and cdf" px residency --linear
err "plot histogram --track" "--track applies to counters" px histogram --track cpu_frequency
err "plot counters --group" "--group applies to residency" px counters --group little=0
err "plot pie" "unknown chart kind 'pie' (timeline, counters, residency, histogram, cdf)" px pie
[ ! -e "$TMP/x.png" ]
_result $? "a refused plot writes nothing"
err "gate --rules= missing run side" "a run goes after --base or --new" \
	"$TRAX" gate --rules x.json run.dat
if [ -f "$demo" ]; then
	"$TRAX" info "$demo" --task 2 >"$TMP/abbrev" 2>&1
	is "$?" 0 "info --task 2: an unambiguous abbreviation of --tasks"
	plot_ok=$("$TRAX" plot timeline "$demo" -o "$TMP/x.svg" --no-mark --window 0.1 0.2 2>&1)
	is "$?" 0 "plot --no-mark --window A B: abbreviation and two-value option ($plot_ok)"
fi

# Commands.
err "trax chek: did you mean check" "unknown command 'chek'; did you mean 'check'?" "$TRAX" chek
err "trax polt: did you mean plot" "did you mean 'plot'?" "$TRAX" polt
err "trax xyzzy: unknown, no guess" "unknown command 'xyzzy' (see 'trax --help')" "$TRAX" xyzzy
err "trax --verison: did you mean --version" "did you mean '--version'?" "$TRAX" --verison
err "trax -Z: unknown option" "unknown option '-Z'" "$TRAX" -Z
finish
