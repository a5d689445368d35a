#!/usr/bin/env bash
# tests/integration/bad-input.sh: bad input to `trax load` (and to info/query, which load on the
# fly): one line on stderr naming the file and the problem, exit status 2, and no db, no temp
# file and no cached db left behind.
. "$(dirname "$0")/../lib.sh"
FIX=$TOP/tests/fixtures
V6=$FIX/sched-v6.dat
V7=$FIX/sched-v7-zstd.dat
chmod 711 "$TMP"	# the runs as an unprivileged user below must reach their files
n=0

# bad DESC NAME PATTERN CMD...: CMD (a trax command line; -o and the cache point into fresh
# folders) exits 2 with one stderr line that contains NAME and matches PATTERN (ERE, any case),
# prints nothing on stdout, and leaves the output folder and the cache folder without files.
# In CMD, @OUT@ stands for the output folder.
bad() {
	local desc=$1 name=$2 pat=$3 out cache rc errs lines left why= a args=()
	shift 3
	n=$((n + 1))
	out=$TMP/out.$n
	cache=$TMP/cache.$n
	mkdir -p "$out"
	chmod 777 "$out"
	for a in "$@"; do args+=("${a//@OUT@/$out}"); done
	(cd "$out" && TRAX_CACHE_DIR=$cache "${args[@]}") >"$TMP/stdout" 2>"$TMP/stderr" </dev/null
	rc=$?
	errs=$(cat "$TMP/stderr")
	lines=$(grep -c '' "$TMP/stderr")
	left=$( (find "$out" "$cache" -mindepth 1 -not -type d 2>/dev/null; \
		find "$(dirname "$name")" -maxdepth 1 -name "$(basename "$name").tmp-*" \
			2>/dev/null) |
		tr '\n' ' ')
	[ "$rc" -eq 2 ] || why="$why exit status $rc, not 2;"
	[ "$lines" -eq 1 ] || why="$why $lines lines on stderr, not 1;"
	case "$errs" in *"$name"*) ;; *) why="$why the message does not name $name;" ;; esac
	echo "$errs" | grep -qiE -- "$pat" || why="$why the message does not match /$pat/;"
	[ -s "$TMP/stdout" ] && why="$why output on stdout;"
	[ -z "$left" ] || why="$why files left behind: $left;"
	_result "$([ -z "$why" ] && echo 0 || echo 1)" "$desc" \
		"${why# }"$'\n'"stderr: $errs"$'\n'"stdout: $(head -c 300 "$TMP/stdout")"
	[ -n "$why" ] || echo "#   $(head -1 "$TMP/stderr")"
}

# A command as an unprivileged user (root reads and writes whatever the mode bits say).
unpriv() {
	if [ "$(id -u)" -ne 0 ]; then
		"$@"
	else
		setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
	fi
}
can_unpriv() {
	[ "$(id -u)" -ne 0 ] && return 0
	command -v setpriv >/dev/null && unpriv test -x "$TRAX"
}

cut_file() { # src bytes dst
	head -c "$2" "$1" >"$3"
}

# ---- inputs that are not traces ----

bad "load: a missing file" "$TMP/missing.dat" "no such file" \
	"$TRAX" load "$TMP/missing.dat" -o @OUT@/x.db
: >"$TMP/empty.dat"
bad "load: an empty file" "$TMP/empty.dat" "empty" "$TRAX" load "$TMP/empty.dat" -o @OUT@/x.db
mkdir -p "$TMP/adir"
bad "load: a directory" "$TMP/adir" "directory" "$TRAX" load "$TMP/adir" -o @OUT@/x.db
head -c 4096 /dev/urandom >"$TMP/random.dat"
bad "load: random bytes" "$TMP/random.dat" "unrecognized|not a trace" \
	"$TRAX" load "$TMP/random.dat" -o @OUT@/x.db
{ head -c 10 "$V6"; head -c 4096 /dev/urandom; } >"$TMP/magic-random.dat"
bad "load: the trace.dat magic, then random bytes" "$TMP/magic-random.dat" \
	"corrupt|truncated|unsupported|not a trace" \
	"$TRAX" load "$TMP/magic-random.dat" -o @OUT@/x.db
bad "load: random bytes, default output in the current folder" "$TMP/random.dat" \
	"unrecognized|not a trace" "$TRAX" load "$TMP/random.dat"

# ---- truncated trace.dat ----

size6=$(stat -c %s "$V6")
size7=$(stat -c %s "$V7")
# the first non-empty CPU data of the v6 file (offset, size), from trace-cmd dump
cpu0=$(trace-cmd dump --flyrecord "$V6" 2>/dev/null |
	awk '/size of cpu/ && $1 ~ /^[0-9]+$/ && $2 + 0 > 0 { print $1, $2; exit }')
cut_file "$V6" 40 "$TMP/cut-header.dat"
bad "load: v6 cut inside the file header (40 bytes)" "$TMP/cut-header.dat" "truncated" \
	"$TRAX" load "$TMP/cut-header.dat" -o @OUT@/x.db
cut_file "$V6" 3000 "$TMP/cut-formats.dat"
bad "load: v6 cut inside the event formats (3000 bytes)" "$TMP/cut-formats.dat" "truncated" \
	"$TRAX" load "$TMP/cut-formats.dat" -o @OUT@/x.db
if [ -n "$cpu0" ]; then
	read -r o s <<<"$cpu0"
	cut_file "$V6" $((o + s / 2)) "$TMP/cut-cpu.dat"
	bad "load: v6 cut inside the first CPU's data (at $((o + s / 2)))" "$TMP/cut-cpu.dat" \
		"truncated.*CPU" "$TRAX" load "$TMP/cut-cpu.dat" -o @OUT@/x.db
	# the first event of that CPU's first page (after the page's 16-byte header) gets a
	# 32-bit length field (type_len 0) of 16 MiB: a record running far past its page
	cp "$V6" "$TMP/bad-record.dat"
	printf '\x00\x00\x00\x00\xf0\xff\xff\x00' |
		dd of="$TMP/bad-record.dat" bs=1 seek=$((o + 16)) conv=notrunc status=none
	bad "load: v6 with a record whose length runs past its page" "$TMP/bad-record.dat" \
		"corrupt trace data.*record" "$TRAX" load "$TMP/bad-record.dat" -o @OUT@/x.db
else
	skip "load: v6 cut inside a CPU's data" "trace-cmd dump --flyrecord gave no CPU offsets"
fi
cut_file "$V6" $((size6 - 1)) "$TMP/cut-1.dat"
bad "load: v6 one byte short" "$TMP/cut-1.dat" "truncated" \
	"$TRAX" load "$TMP/cut-1.dat" -o @OUT@/x.db
cut_file "$V7" 200 "$TMP/cut7-header.dat"
bad "load: v7-zstd cut inside its first sections (200 bytes)" "$TMP/cut7-header.dat" \
	"truncated" "$TRAX" load "$TMP/cut7-header.dat" -o @OUT@/x.db
cut_file "$V7" $((size7 / 2)) "$TMP/cut7-half.dat"
bad "load: v7-zstd cut in the middle" "$TMP/cut7-half.dat" "truncated" \
	"$TRAX" load "$TMP/cut7-half.dat" -o @OUT@/x.db
cut_file "$V7" $((size7 - 1)) "$TMP/cut7-1.dat"
bad "load: v7-zstd one byte short" "$TMP/cut7-1.dat" "truncated" \
	"$TRAX" load "$TMP/cut7-1.dat" -o @OUT@/x.db

# ---- damaged headers and compressed sections ----

# A damaged header_page format: libtracecmd 1.3 faults on it (its instance-handle error path
# closes a half-made handle); trax must say "corrupt", not crash.
perl -0777 -pe 's/\tfield: u64 timestamp;/\tfiXld: u64 timestamp;/' "$V6" >"$TMP/bad-hpage.dat"
bad "load: v6 with a damaged header_page format" "$TMP/bad-hpage.dat" "corrupt" \
	"$TRAX" load "$TMP/bad-hpage.dat" -o @OUT@/x.db
# A control character in an array size of an event format: libtraceevent faults parsing it
# (in the open that no child shields), and so does `trace-cmd report`. What the abandoned
# open had allocated is never freed: no leak check here.
perl -0777 -pe 's/(name: sched_wakeup_new\n.*?field:char comm\[)1/${1}\x19/s' "$V6" \
	>"$TMP/bad-format.dat"
bad "load: v6 with a control character in an event format" "$TMP/bad-format.dat" "corrupt" \
	env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	"$TRAX" load "$TMP/bad-format.dat" -o @OUT@/x.db

# A page size that is not a power of two (4101 for 4096; v7: the header's bytes 14-17):
# libtracecmd would walk the data past the end of its mapping (SIGBUS).
V7N=$TOP/tests/fixtures/sched-v7-none.dat
cp "$V7N" "$TMP/bad-pagesize.dat"
printf '\x05\x10\x00\x00' | dd of="$TMP/bad-pagesize.dat" bs=1 seek=14 conv=notrunc status=none
bad "load: v7 with a page size of 4101 bytes" "$TMP/bad-pagesize.dat" "page size of 4101" \
	"$TRAX" load "$TMP/bad-pagesize.dat" -o @OUT@/x.db

# mutate SRC SEED DST [LIMIT]: DST is SRC with 1 to 4 of its first LIMIT bytes (default: all)
# set to random values (perl's rand, seeded)
mutate() {
	perl -e 'srand($ARGV[1]); open(my $f, "<:raw", $ARGV[0]) or die; local $/; my $d = <$f>;
		 my $lim = $ARGV[2] && $ARGV[2] < length $d ? $ARGV[2] : length $d;
		 my $n = 1 + int(rand(4));
		 substr($d, int(rand($lim)), 1) = chr(int(rand(256))) for 1 .. $n;
		 binmode STDOUT; print $d' "$1" "$2" "${4:-0}" >"$3"
}

# Seeded random damage to each recorded trace.dat: trax exits 0 or 2 (never a signal), an
# exit 2 is one stderr line naming the file with nothing left behind, and a file that
# trace-cmd report cannot read is never loaded. In the v6 file the damage goes to what comes
# before the CPU data (headers, formats, options): its ring-buffer pages are most of it.
for spec in "$V6:${cpu0%% *}" "$V7:" "$V7N:" "$TOP/tests/fixtures/multi.dat:"; do
	src=${spec%:*} lim=${spec##*:}
	[ -f "$src" ] || { skip "load: damaged $(basename "$src")" "missing"; continue; }
	crashes= chatty= loaded_bad= left= statuses=
	for seed in $(seq 1 15); do
		m=$TMP/mut.dat
		mutate "$src" "$seed" "$m" "$lim"
		rm -rf "$TMP/mut.db" "$TMP/mut.db".tmp-* "$TMP/mcache"
		# libtracecmd and libtraceevent leak on some of these error paths (LeakSanitizer
		# shows only their frames): leak checks stay on for every other test
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 TRAX_CACHE_DIR=$TMP/mcache \
			"$TRAX" load "$m" -o "$TMP/mut.db" >/dev/null 2>"$TMP/mut.err"
		rc=$?
		statuses="$statuses $rc"
		case $rc in
		0) ;;
		2) [ "$(grep -c '' "$TMP/mut.err")" -eq 1 ] && grep -qF "$m" "$TMP/mut.err" ||
			chatty="$chatty seed $seed: $(tr '\n' '|' <"$TMP/mut.err");" ;;
		*) crashes="$crashes seed $seed: status $rc;" ;;
		esac
		[ -z "$(ls "$TMP" | grep -E '^mut\.db\.tmp-')" ] || left="$left seed $seed;"
		if [ $rc -eq 0 ] && command -v trace-cmd >/dev/null &&
		   ! trace-cmd report "$m" >/dev/null 2>&1; then
			loaded_bad="$loaded_bad seed $seed;"
		fi
	done
	name=$(basename "$src")
	is "$crashes" "" "load: 15 randomly damaged copies of $name${lim:+ (first $lim bytes)}: exit 0 or 2, never a crash"
	is "$chatty" "" "load: ... each exit 2 is one line naming the file (statuses:$statuses)"
	is "$left" "" "load: ... no temporary db left behind"
	is "$loaded_bad" "" "load: ... none that trace-cmd report cannot read is loaded"
done

# ---- v7 with a compression this libtracecmd cannot read ----

# the header names its compression after the page size: "zstd\0<version>\0"; same length
off=$(grep -obUaP 'zstd\x00' "$V7" | head -1 | cut -d: -f1)
if [ -n "$off" ] && [ "$off" -lt 64 ]; then
	cp "$V7" "$TMP/zlib.dat"
	printf 'zlib' | dd of="$TMP/zlib.dat" bs=1 seek="$off" conv=notrunc status=none
	bad "load: v7 compressed with zlib" "$TMP/zlib.dat" "unsupported compression.*zlib" \
		"$TRAX" load "$TMP/zlib.dat" -o @OUT@/x.db
else
	_result 1 "load: v7 compressed with zlib" "no zstd compression name in $V7's header"
fi

# ---- permissions and output paths ----

cp "$V6" "$TMP/unreadable.dat"
chmod 000 "$TMP/unreadable.dat"
if can_unpriv; then
	bad "load: an unreadable file" "$TMP/unreadable.dat" "permission denied" \
		unpriv "$TRAX" load "$TMP/unreadable.dat" -o @OUT@/x.db
else
	skip "load: an unreadable file" "running as root without setpriv: permissions do not apply"
fi
bad "load: -o under /proc (cannot create)" "/proc/x.db" "cannot create|denied|no such" \
	"$TRAX" load "$V6" -o /proc/x.db
bad "load: -o in a missing folder" "$TMP/no/such/dir/x.db" "no such file" \
	"$TRAX" load "$V6" -o "$TMP/no/such/dir/x.db"
mkdir -p "$TMP/ro"
chmod 555 "$TMP/ro"
if can_unpriv; then
	bad "load: -o in a read-only folder" "$TMP/ro/x.db" "permission denied|read-only" \
		unpriv "$TRAX" load "$V6" -o "$TMP/ro/x.db"
else
	skip "load: -o in a read-only folder" "running as root without setpriv"
fi
mkdir -p "$TMP/isdir.db"
bad "load: -o names an existing folder" "$TMP/isdir.db" "directory" \
	"$TRAX" load "$V6" -o "$TMP/isdir.db"
ok "load: the existing folder given as -o is still a folder, and empty" \
	test -d "$TMP/isdir.db" -a -z "$(ls -A "$TMP/isdir.db")"

# ---- SQLite files that are not trax databases ----

if command -v sqlite3 >/dev/null; then
	sqlite3 "$TMP/other.sqlite" "CREATE TABLE t(a); INSERT INTO t VALUES (1);"
	bad "load: an SQLite file (not a trace)" "$TMP/other.sqlite" \
		"SQLite database, not a trace" \
		"$TRAX" load "$TMP/other.sqlite" -o @OUT@/x.db
	bad "info: a non-trax SQLite file" "$TMP/other.sqlite" "not a trax database" \
		"$TRAX" info "$TMP/other.sqlite"
	bad "query: a non-trax SQLite file" "$TMP/other.sqlite" "not a trax database" \
		"$TRAX" query "$TMP/other.sqlite" "SELECT 1"
else
	skip "non-trax SQLite files" "the sqlite3 command is not installed (scripts/deps.sh check)"
fi

# ---- info and query load on the fly: the same errors, and nothing cached ----

for c in info query; do
	set -- "$TRAX" "$c"
	q_arg=()
	[ $c = query ] && q_arg=("SELECT count(*) FROM sched_switch")
	bad "$c: a missing file" "$TMP/missing.dat" "no such file" "$@" "$TMP/missing.dat" \
		"${q_arg[@]}"
	bad "$c: an empty file" "$TMP/empty.dat" "empty" "$@" "$TMP/empty.dat" "${q_arg[@]}"
	bad "$c: random bytes" "$TMP/random.dat" "unrecognized|not a trace" "$@" \
		"$TMP/random.dat" "${q_arg[@]}"
	bad "$c: v6 cut inside the formats" "$TMP/cut-formats.dat" "truncated" "$@" \
		"$TMP/cut-formats.dat" "${q_arg[@]}"
	bad "$c: v6 one byte short" "$TMP/cut-1.dat" "truncated" "$@" "$TMP/cut-1.dat" \
		"${q_arg[@]}"
	bad "$c: v7-zstd one byte short" "$TMP/cut7-1.dat" "truncated" "$@" "$TMP/cut7-1.dat" \
		"${q_arg[@]}"
	[ -f "$TMP/zlib.dat" ] && bad "$c: v7 compressed with zlib" "$TMP/zlib.dat" \
		"unsupported compression" "$@" "$TMP/zlib.dat" "${q_arg[@]}"
done

# ---- and the intact files load (the cases above fail for the damage, not the source) ----

ok "load: the intact v6 file loads" "$TRAX" load "$V6" -o "$TMP/good6.db"
ok "load: the intact v7-zstd file loads" "$TRAX" load "$V7" -o "$TMP/good7.db"
finish
