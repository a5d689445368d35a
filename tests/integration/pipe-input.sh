#!/usr/bin/env bash
# tests/integration/pipe-input.sh: traces that arrive through a pipe or a FIFO (issue 11 item 5).
# They are copied to a bounded temporary file, then loaded as files are: a piped trace.dat or
# text trace loads as the file does; an endless stream, a stream of garbage, a FIFO nobody
# writes to end with exit status 2 and one line, quickly, leaving nothing behind.
. "$(dirname "$0")/../lib.sh"
FIX=$TOP/tests/fixtures
DAT=$FIX/sched-v6.dat
TXT=$FIX/text/trace.txt
REPRO=$SHARED/repro/hand-pipe-dat-magic-then-zeros.bin
n=0

# refused DESC PATTERN SHELL-CMD: SHELL-CMD (run by sh in a fresh folder, $TRAX set) ends
# within 20 s with exit status 2 and one stderr line matching PATTERN (ERE), and the folder
# and the cache hold no file afterwards.
refused() {
	local desc=$1 pat=$2 cmd=$3 d rc errs lines left why=
	n=$((n + 1))
	d=$TMP/case.$n
	mkdir -p "$d/cache"
	(cd "$d" && TRAX=$TRAX TRAX_CACHE_DIR=$d/cache timeout -k 5 20 sh -c "$cmd") \
		>"$TMP/stdout" 2>"$TMP/stderr" </dev/null
	rc=$?
	errs=$(cat "$TMP/stderr")
	lines=$(grep -c '' "$TMP/stderr")
	left=$(find "$d" -mindepth 1 -not -type d -not -name fifo | tr '\n' ' ')
	[ "$rc" -eq 124 ] && why="$why it did not end within 20 s;"
	[ "$rc" -eq 2 ] || why="$why exit status $rc, not 2;"
	[ "$lines" -eq 1 ] || why="$why $lines lines on stderr, not 1;"
	echo "$errs" | grep -qE -- "$pat" || why="$why the message does not match /$pat/;"
	[ -z "$left" ] || why="$why files left behind: $left;"
	_result "$([ -z "$why" ] && echo 0 || echo 1)" "$desc" "${why# }"$'\n'"stderr: $errs"
}

if [ -e "$REPRO" ]; then
	refused "the magic then endless zeros through /dev/stdin: refused at once" \
		'^trax load: /dev/stdin: corrupt trace.dat: a page size of 0 bytes' \
		'(cat "'"$REPRO"'"; cat /dev/zero) | "$TRAX" load /dev/stdin -o x.db'
	refused "the same through trax info -" \
		"^trax info: stdin: corrupt trace.dat: a page size of 0" \
		'(cat "'"$REPRO"'"; cat /dev/zero) | "$TRAX" info -'
else
	skip "the magic then endless zeros through a pipe" "$REPRO absent"
fi
refused "a valid trace.dat then endless zeros: stopped at TRAX_PIPE_MAX" \
	'^trax load: stdin: more than 1 MiB piped in .*TRAX_PIPE_MAX.*pass the file' \
	'(cat "'"$DAT"'"; cat /dev/zero) | TRAX_PIPE_MAX=1M "$TRAX" load - -o x.db'
refused "64 KiB of garbage then an endless stream: refused once 64 KiB are in" \
	'^trax load: stdin: unrecognized binary content' \
	'cat /dev/urandom | "$TRAX" load - -o x.db'
refused "a FIFO with no writer: refused after TRAX_PIPE_TIMEOUT" \
	'^trax load: fifo: nothing to read for 1 s .*pass the trace as a file' \
	'mkfifo fifo && TRAX_PIPE_TIMEOUT=1 "$TRAX" load fifo -o x.db'
refused "a FIFO with no writer, through trax check" '^trax check: fifo: nothing to read' \
	'mkfifo fifo && TRAX_PIPE_TIMEOUT=1 "$TRAX" check "'"$FIX/demo-rules.json"'" fifo'
refused "an empty pipe" '^trax load: stdin: empty' ': | "$TRAX" load - -o x.db'
refused "TRAX_PIPE_MAX that is no size" '^trax load: TRAX_PIPE_MAX=lots: not a size' \
	'cat "'"$DAT"'" | TRAX_PIPE_MAX=lots "$TRAX" load - -o x.db'

# piped traces load as their files do
d=$TMP/ok
mkdir -p "$d"
cd "$d" || exit 1
cat "$DAT" | "$TRAX" load - -o pipe.db >/dev/null 2>"$TMP/stderr"
is "$?" 0 "a piped trace.dat loads (trax load -)"
is "$(q pipe.db "SELECT value FROM meta WHERE key='source.sha256'")" \
	"$(sha256sum <"$DAT" | cut -d' ' -f1)" "its meta source.sha256 is the file's (sha256sum)"
is "$(q pipe.db "SELECT value FROM meta WHERE key='source.size'")" "$(stat -c %s "$DAT")" \
	"its meta source.size is the file's size"
is "$(q pipe.db "SELECT value FROM meta WHERE key='source.path'")" stdin \
	"its meta source.path is stdin"
"$TRAX" load "$DAT" -o file.db >/dev/null
same "the piped trace.dat's event counts are the file's" \
	pipe.db "SELECT name, count FROM event_type ORDER BY name" \
	file.db "SELECT name, count FROM event_type ORDER BY name"
cat "$TXT" | "$TRAX" load /dev/stdin -o text.db >/dev/null 2>"$TMP/stderr"
is "$?" 0 "a piped text trace loads (trax load /dev/stdin)"
is "$(q text.db "SELECT count(*) FROM sched_switch")" "$(grep -c ' sched_switch: ' "$TXT")" \
	"its sched_switch rows are the file's sched_switch lines (grep -c)"
(sleep 0.5; cat "$TXT") | "$TRAX" load - >/dev/null 2>&1
is "$?" 0 "a pipe that is slow to start loads"
ok "trax load - writes stdin.db by default" test -f stdin.db
mkfifo fifo
(sleep 0.5; cat "$TXT" >fifo) &
TRAX_PIPE_TIMEOUT=10 "$TRAX" load fifo -o fifo.db >/dev/null 2>&1
is "$?" 0 "a FIFO whose writer comes later loads"
wait
is "$(q fifo.db "SELECT count(*) FROM sched_switch")" "$(grep -c ' sched_switch: ' "$TXT")" \
	"the FIFO's sched_switch rows are the file's lines"
is "$(cat "$DAT" | "$TRAX" info - 2>&1 | sed -n 's/^source: *//p')" \
	"stdin (trace.dat, $(stat -c %s "$DAT") bytes)" "trax info - names stdin and the size piped"
got=$(cat text.db | "$TRAX" query - 'SELECT count(*) FROM sched_switch' --format csv)
is "$(echo "$got" | tail -1 | tr -d '\r')" "$(grep -c ' sched_switch: ' "$TXT")" \
	"a piped database is queried (trax query -)"
is "$(ls -A "$d" | grep -c 'tmp-')" 0 "no temporary copy left"
cd "$TOP" || exit 1
finish
