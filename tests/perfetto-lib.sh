# tests/perfetto-lib.sh: helpers of the Perfetto tests (sourced after tests/lib.sh).
#   pf_encode TEXTPROTO OUT   protoc --encode of a textproto with the public schema
#   pf_decode TRACE           protoc --decode: the trace as protoc's text
#   meta DB KEY               a meta value
#   pf NAME HEX...            the bytes, in file $TMP/NAME
#   bad_load DESC FILE OFFSET WHAT   trax load of $TMP/FILE exits 2 with one line naming the
#                             file, "byte offset OFFSET " and /WHAT/, and leaves nothing
PROTO=$SHARED/perfetto/perfetto_trace.proto

pf_encode() {
	protoc --proto_path="$(dirname "$PROTO")" \
		--encode=perfetto.protos.Trace "$(basename "$PROTO")" <"$1" >"$2"
}
pf_decode() {
	protoc --proto_path="$(dirname "$PROTO")" \
		--decode=perfetto.protos.Trace "$(basename "$PROTO")" <"$1"
}
meta() {
	q "$1" "SELECT value FROM meta WHERE key = '$2'"
}
pf() {
	local f=$TMP/$1
	shift
	printf "$(printf '\\x%s' "$@")" >"$f"
}
bad_load() {
	local out=$TMP/bad.$RANDOM
	mkdir -p "$out"
	"$TRAX" load "$TMP/$2" -o "$out/x.db" >/dev/null 2>"$TMP/err"
	local rc=$? why=
	[ $rc -eq 2 ] || why="exit $rc;"
	[ "$(grep -c '' "$TMP/err")" -eq 1 ] || why="$why not one line;"
	grep -qF "$TMP/$2: " "$TMP/err" || why="$why no file name;"
	grep -qF "byte offset $3 " "$TMP/err" || why="$why not offset $3;"
	grep -qE -- "$4" "$TMP/err" || why="$why not /$4/;"
	[ -z "$(ls -A "$out")" ] || why="$why left $(ls -A "$out");"
	_result "$([ -z "$why" ] && echo 0 || echo 1)" "$1" "$why $(cat "$TMP/err")"
}
