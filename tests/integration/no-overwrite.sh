#!/usr/bin/env bash
# tests/integration/no-overwrite.sh: no command writes over one of its inputs (issue 11 item 4).
# An output that is an input -- the same name, another name for it, a hard link, a symbolic
# link -- or two outputs that are one file, or stdout redirected into an input: exit status 2,
# one line on stderr that names both paths, and every file in the folder as it was (the input's
# bytes by sha256, no new file, no temporary file).
. "$(dirname "$0")/../lib.sh"
FIX=$TOP/tests/fixtures
RULES=$FIX/demo-rules.json
n=0

listing() {
	find . \( -type d -printf '%y %p %m\n' \) -o -printf '%y %p %m %n %s %l\n' | sort
}

# refused DESC IN OUT CMD...: run CMD in a fresh folder holding a.dat (sched-v6.dat), t.txt
# (ftrace text), its copies under other names and links to it; CMD exits 2 with one stderr line
# naming IN and OUT, and the folder's listing and content are unchanged.
refused() {
	local desc=$1 in=$2 out=$3 d rc errs lines before after why=
	shift 3
	n=$((n + 1))
	d=$TMP/case.$n
	mkdir -p "$d"
	cp "$FIX/sched-v6.dat" "$d/a.dat"
	cp "$FIX/text/trace.txt" "$d/t.txt"
	cp "$FIX/text/trace.txt" "$d/t.svg"	# a text trace under a chart's name
	cp "$FIX/text/trace.txt" "$d/t.html"
	cp "$FIX/text/trace.txt" "$d/t.db"	# a text trace under a database's name
	cp "$RULES" "$d/rules.json"
	ln "$d/a.dat" "$d/hard.dat"
	ln -s a.dat "$d/sym.dat"
	mkdir "$d/sub"
	# names, types, modes, links and sizes (a directory's own time would change with a file
	# the case itself makes and removes), and every file's sha256
	before=$(cd "$d" && find . -print0 | sort -z | xargs -0 sha256sum 2>/dev/null; listing)
	(cd "$d" && "$@") >"$TMP/stdout" 2>"$TMP/stderr" </dev/null
	rc=$?
	after=$(cd "$d" && find . -print0 | sort -z | xargs -0 sha256sum 2>/dev/null; listing)
	errs=$(cat "$TMP/stderr")
	lines=$(grep -c '' "$TMP/stderr")
	[ "$rc" -eq 2 ] || why="$why exit status $rc, not 2;"
	[ "$lines" -eq 1 ] || why="$why $lines lines on stderr, not 1;"
	case "$errs" in *"$in"*) ;; *) why="$why the message does not name $in;" ;; esac
	case "$errs" in *"$out"*) ;; *) why="$why the message does not name $out;" ;; esac
	[ "$before" = "$after" ] || why="$why the folder changed;"
	_result "$([ -z "$why" ] && echo 0 || echo 1)" "$desc" "${why# }"$'\n'"stderr: $errs"
}

refused "load X -o X" a.dat a.dat "$TRAX" load a.dat -o a.dat
refused "load X -o ./X (another name)" a.dat ./a.dat "$TRAX" load a.dat -o ./a.dat
refused "load X -o sub/../X" a.dat sub/../a.dat "$TRAX" load a.dat -o sub/../a.dat
refused "load X -o a hard link to X" a.dat hard.dat "$TRAX" load a.dat -o hard.dat
refused "load X -o a symbolic link to X" a.dat sym.dat "$TRAX" load a.dat -o sym.dat
refused "load a symbolic link -o its target" sym.dat a.dat "$TRAX" load sym.dat -o a.dat
refused "load t.db (text) with the default output t.db" t.db t.db "$TRAX" load t.db
refused "load X >> X" a.dat stdout sh -c 'exec "$0" load a.dat -o x.db >>a.dat' "$TRAX"
refused "info X >> X" t.txt stdout sh -c 'exec "$0" info t.txt >>t.txt' "$TRAX"
refused "query X SQL >> X" t.txt stdout \
	sh -c 'exec "$0" query t.txt "SELECT 1" >>t.txt' "$TRAX"
refused "check -o TRACE" a.dat a.dat "$TRAX" check rules.json a.dat -o a.dat
refused "check -o RULES" rules.json rules.json "$TRAX" check rules.json a.dat -o rules.json
refused "check --save-baseline a hard link to a trace" a.dat hard.dat \
	"$TRAX" check rules.json a.dat --save-baseline hard.dat
refused "check --baseline F --save-baseline F" b.json b.json sh -c \
	'"$0" check rules.json a.dat --save-baseline b.json >/dev/null;
	 sha256sum b.json >b.sum; "$0" check rules.json a.dat --baseline b.json \
	 --save-baseline b.json; rc=$?; sha256sum -c --quiet b.sum >&2; rm b.json b.sum;
	 exit $rc' "$TRAX"
refused "check -o F --save-baseline F (two outputs, one file)" x.json ./x.json \
	"$TRAX" check rules.json a.dat -o x.json --save-baseline ./x.json
refused "check stdout >> a trace" a.dat stdout \
	sh -c 'exec "$0" check rules.json a.dat --format tap >>a.dat' "$TRAX"
refused "gate -o a run" sym.dat a.dat \
	"$TRAX" gate --rules rules.json --base sym.dat --new t.txt -o a.dat
refused "gate -o the rules" rules.json rules.json \
	"$TRAX" gate --rules rules.json --base a.dat --new t.txt -o rules.json
refused "plot -o TRACE (a text trace named t.svg)" t.svg t.svg \
	"$TRAX" plot timeline t.svg -o t.svg
refused "report -o TRACE (a text trace named t.html)" t.html t.html \
	"$TRAX" report t.html -o t.html
refused "report --rules R -o R" r.html r.html sh -c \
	'cp rules.json r.html; "$0" report a.dat --rules r.html -o r.html; rc=$?;
	 cmp -s rules.json r.html || echo changed >&2; rm r.html; exit $rc' "$TRAX"
# collect: refused before it needs root or tracefs (nothing is recorded)
refused "collect --db OUT.dat -o OUT.dat" x.dat x.dat \
	"$TRAX" collect -o x.dat --db x.dat -- true
refused "collect -o a hard link to its workload file" rules.json w.json sh -c \
	'ln rules.json w.json; "$0" collect -w rules.json -o w.json; rc=$?; rm w.json;
	 exit $rc' "$TRAX"
refused "collect -o OUT.log: the trace and the workload log" run.log run.log \
	"$TRAX" collect -o run.log -- true
refused "collect -o the workload's program" ./prog ./prog sh -c \
	'cp /bin/true prog; "$0" collect -o ./prog -- ./prog; rc=$?; rm prog; exit $rc' "$TRAX"

# the same commands with an output that is not an input still work
d=$TMP/fine
mkdir -p "$d"
cp "$FIX/text/trace.txt" "$d/t.txt"
ok "load t.txt -o t.db beside it works" sh -c "cd '$d' && '$TRAX' load t.txt -o t.db"
ok "load t.txt -o an existing db replaces the db" sh -c "cd '$d' && '$TRAX' load t.txt -o t.db"

# An output that is a device or a FIFO (-o /dev/null, a pipe) is written in place: the rename
# of a finished file would replace the device node with a regular file. Tested on a FIFO and on
# a null device of the test's own (mknod), never on the system's /dev/null.
d=$TMP/special
mkdir -p "$d"
mkfifo "$d/fifo"
timeout 20 cat "$d/fifo" >"$d/from-fifo" &	# bounded: a regression renames over it
reader=$!
"$TRAX" check "$RULES" "$FIX/demo.dat" --format json -o "$d/fifo" >/dev/null 2>"$d/err"
wait "$reader"
ok "check -o FIFO: the FIFO is still a FIFO" test -p "$d/fifo"
ok "check -o FIFO: the reader got the whole JSON" sh -c "test -s '$d/from-fifo' && jq -e '.results | length > 0' '$d/from-fifo' >/dev/null"
fails_with "load -o FIFO: refused (a database is written to a file)" 2 \
	"$TRAX" load "$FIX/text/trace.txt" -o "$d/fifo"
ok "load -o FIFO: the FIFO is still a FIFO, nothing beside it" \
	sh -c "test -p '$d/fifo' && [ \$(ls '$d' | wc -l) = 3 ]"
if [ "$(id -u)" = 0 ] && mknod "$d/null" c 1 3 2>/dev/null; then
	"$TRAX" check "$RULES" "$FIX/demo.dat" --format json -o "$d/null" >/dev/null 2>&1
	is "$?" 0 "check -o a null device: written, the demo's rules pass"
	ok "check -o a null device: still a character device" test -c "$d/null"
	"$TRAX" plot timeline "$FIX/demo.dat" -o "$d/null" --format svg >/dev/null 2>&1
	ok "plot -o a null device: still a character device" test -c "$d/null"
	fails_with "load -o a null device: refused" 2 "$TRAX" load "$FIX/text/trace.txt" -o "$d/null"
	ok "load -o a null device: still a character device" test -c "$d/null"
else
	skip "outputs to a device" "mknod needs root"
fi
finish
