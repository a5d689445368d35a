#!/usr/bin/env bash
# tests/integration/dat-sections.sh: what libtracecmd and libtraceevent parse in a trace.dat is
# checked before the open (issue 11 item 2): printk formats that would have libtraceevent read
# outside its buffers, options whose strings do not end inside them, compressed sections that
# inflate to such bytes. Each mutant below changes bytes of a fixture without moving anything
# (the sizes stay right); the expected byte offsets come from where perl finds the changed text
# in the fixture. A refusal is exit 2, one line naming the file, the section and the offset,
# nothing left behind.
. "$(dirname "$0")/../lib.sh"
FIX=$TOP/tests/fixtures
V6=$FIX/sched-v6.dat
V7N=$FIX/sched-v7-none.dat
LINE1='0xffffffff828179e4 : "thaw_processes"'	# the first printk format of both fixtures

at() { # file text: the byte offset of the first occurrence of text
	perl -0777 -ne 'BEGIN { $t = shift } print index($_, $t)' "$2" "$1"
}
# mutate SRC DST PERL-SUBSTITUTION (one substitution of the same length)
mutate() {
	perl -0777 -pe "$3" "$1" >"$2"
	is "$(stat -c %s "$2")" "$(stat -c %s "$1")" "$(basename "$2"): made, same size as its fixture"
}
# refused DESC FILE PATTERN: exit 2, one line naming FILE and matching PATTERN (fixed string)
refused() {
	local why=
	rm -rf "$TMP/out"
	mkdir "$TMP/out"
	"$TRAX" load "$2" -o "$TMP/out/x.db" >"$TMP/stdout" 2>"$TMP/stderr"
	rc=$?
	[ "$rc" -eq 2 ] || why="$why exit $rc;"
	[ "$(grep -c '' "$TMP/stderr")" -eq 1 ] || why="$why not one line;"
	grep -qF -- "$2: corrupt trace.dat: $3" "$TMP/stderr" || why="$why message;"
	[ -z "$(ls -A "$TMP/out")" ] || why="$why files left: $(ls -A "$TMP/out");"
	_result "$([ -z "$why" ] && echo 0 || echo 1)" "$1" "${why# }"$'\n'"$(cat "$TMP/stderr")"
}

p6=$(at "$V6" "$LINE1")
ok "sched-v6.dat holds the printk format $LINE1" test "$p6" -gt 0

mutate "$V6" "$TMP/pk-nocolon.dat" 's/(0xffffffff828179e4) : ("thaw_processes")/$1   $2/'
refused "v6 printk: a line without ':' (the library reads past the line)" "$TMP/pk-nocolon.dat" \
	"the printk format section: a line without ':' at byte $p6"

mutate "$V6" "$TMP/pk-short.dat" 's/(0xffffffff828179e4 : )"thaw_processes"/$1 . "\"\"" . ("\n" x 14)/e'
refused "v6 printk: a format of one character (the library reads before its copy)" \
	"$TMP/pk-short.dat" "the printk format section: a format of 1 character (libtraceevent reads 3 from its end) at byte $((p6 + 22))"

mutate "$V6" "$TMP/pk-addr.dat" 's/0xffffffff828179e4 : "thaw/0xffffffff8281g9e4 : "thaw/'
refused "v6 printk: an address that is not hex" "$TMP/pk-addr.dat" \
	"the printk format section: a line without a hex address before its ':' at byte $p6"

mutate "$V6" "$TMP/pk-nul.dat" 's/(0xffffffff828179e4 : "thaw_processes")\n/$1\0/'
refused "v6 printk: a NUL inside the formats (what follows is never parsed)" "$TMP/pk-nul.dat" \
	"the printk format section: a NUL inside the formats at byte $((p6 + ${#LINE1}))"

mutate "$V6" "$TMP/pk-fine.dat" 's/"thaw_processes"/"thaw_processez"/'
"$TRAX" load "$TMP/pk-fine.dat" -o "$TMP/fine.db" >/dev/null 2>"$TMP/err"
is "$?" 0 "v6 printk: a format changed but well formed still loads"
"$TRAX" load "$V6" -o "$TMP/v6.db" >/dev/null 2>&1
is "$(q "$TMP/fine.db" "SELECT count(*) FROM sched_switch")" \
	"$(q "$TMP/v6.db" "SELECT count(*) FROM sched_switch")" "v6 printk: ... with all its switches"

p7=$(at "$V7N" "$LINE1")
mutate "$V7N" "$TMP/pk7-nocolon.dat" 's/(0xffffffff828179e4) : ("thaw_processes")/$1   $2/'
refused "v7 (uncompressed) printk: a line without ':'" "$TMP/pk7-nocolon.dat" \
	"the printk format section: a line without ':' at byte $p7"

# ---- options: strings handle_options() strdup()s or strtok()s ----
u6=$(at "$V6" "Linux vm 6.18.44-fc-v1147 x86_64")
mutate "$V6" "$TMP/opt-uname.dat" 's/(Linux vm 6\.18\.44-fc-v1147 x86_64)\0/${1}X/'
refused "v6 option: a uname that does not end inside its option" "$TMP/opt-uname.dat" \
	"the uname option: a string not terminated inside it at byte $u6"
c6=$(at "$V6" "[local] global")
mutate "$V6" "$TMP/opt-clock.dat" 's/\[local\] global/[]]]]]] global/'
refused "v6 option: a trace clock with an empty bracketed name" "$TMP/opt-clock.dat" \
	"the trace clock option: an empty clock name at byte $c6"
# old trace-cmd writes an empty trace clock option (the clock follows the CPU data): it loads
b=$SHARED/traces/bart/raw_trace.dat
if [ -f "$b" ]; then
	"$TRAX" load "$b" -o "$TMP/bart.db" >/dev/null 2>"$TMP/err"
	_result $? "bart/raw_trace.dat (an empty trace clock option) loads" "$(cat "$TMP/err")"
else
	skip "bart/raw_trace.dat (an empty trace clock option) loads" "$b missing"
fi
u7=$(at "$V7N" "Linux vm 6.18.44-fc-v1147 x86_64")
mutate "$V7N" "$TMP/opt7-uname.dat" 's/(Linux vm 6\.18\.44-fc-v1147 x86_64)\0/${1}X/'
refused "v7 option: a uname that does not end inside its option" "$TMP/opt7-uname.dat" \
	"the uname option: a string not terminated inside it at byte $u7"

# ---- the reproducers: mutants of sched-v7-zstd.dat whose printk section (compressed) inflates
# to such lines; the offsets are in the decompressed section, which starts at byte 1746 ----
for r in dat-73674ea70f:"a line without ':'" dat-e7bc8736c2:"a format of 0 characters"; do
	f=$SHARED/repro/${r%%:*}.dat
	if [ -f "$f" ]; then
		refused "repro ${r%%:*}.dat: refused before the open reads past its buffer" "$f" \
			"the printk format section: ${r#*:}"
		grep -qF "of the section at byte 1746 (decompressed)" "$TMP/stderr"
		_result $? "repro ${r%%:*}.dat: the offset is in the decompressed section at byte 1746"
	else
		skip "repro ${r%%:*}.dat" "$f missing"
	fi
done

# ---- the probe (trax run as trax-dat-probe) no longer hides a sanitizer's report ----
f=$SHARED/repro/dat-e7bc8736c2.dat
if [ "$TRAX_SAN" != 1 ]; then
	skip "probe: a sanitizer's report reaches stderr" "not the sanitizer build"
elif [ ! -f "$f" ]; then
	skip "probe: a sanitizer's report reaches stderr" "$f missing"
else
	# the probe opens the file without the checks: libtraceevent reads before its copy
	(exec -a trax-dat-probe "$TRAX" "$f") >/dev/null 2>"$TMP/probe.err"
	rc=$?
	ok "probe on the unchecked repro: exits non-zero ($rc) after the report" test "$rc" -ne 0 -a "$rc" -ne 3
	grep -q "AddressSanitizer: heap-buffer-overflow" "$TMP/probe.err"
	_result $? "probe on the unchecked repro: the AddressSanitizer report is on stderr"
	grep -q "tep_register_print_string" "$TMP/probe.err"
	_result $? "probe on the unchecked repro: ... in tep_register_print_string"
fi
finish
