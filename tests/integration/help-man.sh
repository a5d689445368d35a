#!/usr/bin/env bash
# Every subcommand's --help and its man page agree on the options (help text lives in cmd/,
# the man pages in doc/man/; this keeps them from drifting apart). trax help COMMAND shows the
# page (with man, without man, without man and groff), trax --version prints the version, and
# make install puts the pages where man and trax help find them.
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
have() { command -v "$1" >/dev/null 2>&1; }
# The NAME line of a page as a reader sees it: "trax-check - evaluate behaviour rules on traces".
page_name() { sed -n '/^\.SH NAME/{n;s/\\-/-/g;p;q}' "$1"; }

# trax help COMMAND with man: the page of this source tree, as man -l renders it.
for c in $cmds; do
	man=$TOP/doc/man/trax-$c.1
	name=$(page_name "$man")
	out=$(MANWIDTH=100 "$TRAX" help "$c" 2>"$TMP/err")
	rc=$?
	if ! have man; then
		[ $rc -eq 0 ] && [[ "$out" == *"$name"* ]]
		_result $? "trax help $c: exits 0 and shows the NAME line '$name' (man absent)" \
			"status $rc; $(cat "$TMP/err")"
		continue
	fi
	[ $rc -eq 0 ] && [[ "$out" == *"$name"* ]] && [[ "$out" == *"EXIT STATUS"* ]]
	_result $? "trax help $c: exits 0 and shows the page, '$name' to EXIT STATUS" \
		"status $rc; $(cat "$TMP/err")"
	is "$out" "$(MANWIDTH=100 man -l "$man" 2>/dev/null)" \
		"trax help $c: the page is doc/man/trax-$c.1 of this tree (as man -l shows it)"
done
out=$("$TRAX" help trax 2>&1)
[[ "$out" == *"$(page_name "$TOP/doc/man/trax.1")"* ]]
_result $? "trax help trax: trax(1)" "$out"
out=$("$TRAX" help)
is "$?" 0 "trax help: exits 0"
[[ "$out" == *"commands:"* ]]
_result $? "trax help: lists the commands" "$out"

# Without man(1) (a minimal Debian has no man-db): the page rendered by groff, else its NAME
# line and the command's --help, and a note saying so; never a failure.
name=$(page_name "$TOP/doc/man/trax-check.1")
if have groff && have troff && have grotty; then
	mkdir -p "$TMP/groff-only"
	for t in groff troff grotty preconv; do
		have $t && ln -s "$(command -v $t)" "$TMP/groff-only/$t"
	done
	out=$(PATH=$TMP/groff-only "$TRAX" help check 2>"$TMP/err")
	rc=$?
	[ $rc -eq 0 ] && [[ "$out" == *"$name"* ]] && [[ "$out" == *"EXIT STATUS"* ]]
	_result $? "trax help check without man: groff renders the page" \
		"status $rc; $(cat "$TMP/err")"$'\n'"$out"
else
	skip "trax help check without man: groff renders the page" "groff absent"
fi
out=$(PATH=/nonexistent "$TRAX" help check 2>"$TMP/err")
rc=$?
is "$rc" 0 "trax help check without man or groff: exits 0"
[[ "$out" == *"$name"* ]] && [[ "$out" == *"$("$TRAX" check --help)"* ]]
_result $? "trax help check without man or groff: the NAME line and trax check --help" "$out"
grep -q "man(1) is not installed.*doc/man/trax-check.1" "$TMP/err"
_result $? "trax help check without man or groff: says so and where the page is" \
	"$(cat "$TMP/err")"

# An unknown topic is a usage error, with the nearest command.
fails_with "trax help chek: exit status 2" 2 "$TRAX" help chek
out=$("$TRAX" help chek 2>&1 >/dev/null)
[[ "$out" == *"unknown command 'chek'; did you mean 'check'?"* ]]
_result $? "trax help chek: did you mean 'check'?" "$out"
out=$("$TRAX" help zzzzzz 2>&1)
[[ "$out" == *"unknown command 'zzzzzz'"* ]] && [[ "$out" != *"did you mean"* ]]
_result $? "trax help zzzzzz: unknown, no suggestion" "$out"
fails_with "trax help check plot: exit status 2" 2 "$TRAX" help check plot

# The version of the source (the Makefile's VERSION), as git --version and trace-cmd -V do.
version=$(sed -n 's/^VERSION := //p' "$TOP/Makefile")
[ -n "$version" ]
_result $? "the Makefile defines VERSION"
for v in --version -V version; do
	out=$("$TRAX" $v)
	is "$?:$out" "0:trax $version" "trax $v: prints 'trax $version', exits 0"
done

# make install: the binary and the pages under PREFIX; man finds them with that MANPATH and
# the installed trax help finds the installed page. Only when the build is up to date, so
# that make installs the binary under test and builds nothing.
build=${TRAX_BUILD:-$(dirname "$TRAX")}
stage=$TMP/stage
if ! make -s -q -C "$TOP" BUILD="$build" "$build/trax" >/dev/null 2>&1; then
	skip "make install" "$build/trax is not up to date (make first)"
else
	make -s -C "$TOP" BUILD="$build" DESTDIR="$stage" PREFIX=/opt/trax install \
		>"$TMP/install.out" 2>&1
	_result $? "make install DESTDIR=... PREFIX=/opt/trax" "$(cat "$TMP/install.out")"
	inst=$stage/opt/trax
	cmp -s "$TRAX" "$inst/bin/trax"
	_result $? "make install: bin/trax is the binary under test"
	missing=
	for p in "$TOP"/doc/man/*.1; do
		cmp -s "$p" "$inst/share/man/man1/$(basename "$p")" || missing="$missing $(basename "$p")"
	done
	is "$missing" "" "make install: every page in share/man/man1"
	if have man; then
		out=$(MANPATH=$inst/share/man man -w trax-check 2>&1)
		is "$out" "$inst/share/man/man1/trax-check.1" \
			"man trax-check finds the installed page (MANPATH=PREFIX/share/man)"
	else
		skip "man trax-check finds the installed page" "man absent"
	fi
	PATH=/nonexistent "$inst/bin/trax" help check >/dev/null 2>"$TMP/err"
	grep -q "the page is $inst/share/man/man1/trax-check.1" "$TMP/err"
	_result $? "the installed trax help check reads PREFIX/share/man/man1/trax-check.1" \
		"$(cat "$TMP/err")"
	make -s -C "$TOP" BUILD="$build" DESTDIR="$stage" PREFIX=/opt/trax uninstall \
		>"$TMP/install.out" 2>&1
	left=$(find "$inst" -type f 2>/dev/null)
	is "$left" "" "make uninstall removes what make install put there"
fi
finish
