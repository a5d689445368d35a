#!/usr/bin/env bash
# tests/integration/perfetto-fields.sh: every field number of parse/perfetto-fields.h is the
# public schema's. Each constant there names its message and field in a comment
# (/* Message.field */); protoc compiles ../shared/perfetto/perfetto_trace.proto into a descriptor
# set and decodes it with protobuf's own descriptor.proto, which lists every message's fields
# with their numbers and types. The number (and, for the event fields, the name and the type)
# written in the header must be the schema's, for a name the schema gives one meaning.
. "$(dirname "$0")/../lib.sh"

PROTO=$SHARED/perfetto/perfetto_trace.proto
HDR=$TOP/parse/perfetto-fields.h
DESC=/usr/include/google/protobuf/descriptor.proto

if ! need_shared "$PROTO" "the Perfetto schema"; then
	finish
fi
if ! command -v protoc >/dev/null || [ ! -r "$DESC" ]; then
	skip "perfetto-fields.h against the schema" \
		"protoc or $DESC absent (Debian: protobuf-compiler libprotobuf-dev)"
	finish
fi

# The schema as lines "Message.field number type" (enum values: "Enum.VALUE number -"), Message
# the innermost message or enum that holds it (a nested message is named by its own name).
protoc --proto_path="$(dirname "$PROTO")" -o "$TMP/set.pb" "$(basename "$PROTO")" &&
	protoc --proto_path="$(dirname "$DESC")/../.." \
		--decode=google.protobuf.FileDescriptorSet google/protobuf/descriptor.proto \
		<"$TMP/set.pb" >"$TMP/set.txt"
ok "protoc compiles the schema and decodes its descriptors" test -s "$TMP/set.txt"
awk '
	function scope(   d) {
		for (d = depth - 1; d > 0; d--)
			if (kind[d] == "scope")
				return sname[d]
		return ""
	}
	/^ *(message_type|nested_type|enum_type) \{$/ { kind[++depth] = "scope"; sname[depth] = ""
		next }
	/^ *(field|value) \{$/ { kind[++depth] = "item"; iname = inum = ""; itype = "-"; next }
	/\{$/ { kind[++depth] = "other"; next }
	/^ *\}$/ { if (kind[depth] == "item") print scope() "." iname, inum, itype; depth--; next }
	/^ *name: / { v = $2; gsub(/"/, "", v)
		if (kind[depth] == "scope" && sname[depth] == "") sname[depth] = v
		else if (kind[depth] == "item") iname = v }
	/^ *number: / { if (kind[depth] == "item") inum = $2 }
	/^ *type: / { if (kind[depth] == "item") itype = $2 }
' "$TMP/set.txt" | sort -u >"$TMP/schema"
ok "... into the fields of its messages" grep -qx 'Trace.packet 1 TYPE_MESSAGE' "$TMP/schema"

# The header's claims: "Message.field number [name type]".
awk '
	# enum constants: NAME = N, /* Message.field */
	/^\t[A-Z_]+ = [0-9]+,.*\/\* [A-Za-z]+\.[A-Za-z_]+ \*\// {
		n = $3; sub(/,/, "", n); match($0, /\/\* [^ ]+ \*\//)
		print substr($0, RSTART + 3, RLENGTH - 6), n; next }
	# packet kinds: PF_PACKET_KIND(name, N) /* TracePacket.name */
	/PF_PACKET_KIND\([a-z_0-9]+, [0-9]+\).*\/\*/ {
		match($0, /PF_PACKET_KIND\([a-z_0-9]+, [0-9]+\)/)
		split(substr($0, RSTART + 15, RLENGTH - 16), a, ", ")
		match($0, /\/\* [^ ]+ \*\//)
		print substr($0, RSTART + 3, RLENGTH - 6), a[2], a[1], "-"; next }
	# an event: /* FtraceEvent.name */, then PF_EVENT(ID, N, "system", "name",
	/^\/\* FtraceEvent\.[a-z_0-9]+ \*\/$/ { ev = $2; next }
	/^PF_EVENT\(/ { split($0, a, /[(," ]+/); n = a[3]; nm = a[5]
		print ev, n, nm, "-"; next }
	# an event field: PF_F(N, "name", TYPE) /* Message.name */
	/^\tPF_F\(/ { match($0, /PF_F\([^)]*\)/); split(substr($0, RSTART + 5, RLENGTH - 6), a,
		/, */); gsub(/"/, "", a[2]); match($0, /\/\* [^ ]+ \*\//)
		print substr($0, RSTART + 3, RLENGTH - 6), a[1], a[2], a[3] }
' "$HDR" >"$TMP/claims"
nclaims=$(grep -c '' "$TMP/claims")
ok "the header cites $nclaims fields (over 100)" test "$nclaims" -gt 100

bad=
while read -r key num name type; do
	field=${key#*.}
	# a claim without a type is about the number only (nested messages of one name, such as
	# ProcessTree's Process and another Process, may give one field two types)
	if [ -z "$type" ] || [ "$type" = - ]; then
		got=$(awk -v k="$key" '$1 == k { print $2 }' "$TMP/schema" | sort -u)
	else
		got=$(awk -v k="$key" '$1 == k { print $2 " " $3 }' "$TMP/schema" | sort -u)
	fi
	if [ -z "$got" ]; then
		bad="$bad$key: not in the schema"$'\n'
		continue
	fi
	if [ "$(printf '%s\n' "$got" | grep -c '')" -ne 1 ]; then
		bad="$bad$key: several meanings in the schema: $(echo $got)"$'\n'
		continue
	fi
	[ "${got%% *}" = "$num" ] || bad="$bad$key: $num in the header, ${got%% *} in the schema"$'\n'
	[ -z "$name" ] || [ "$name" = "$field" ] ||
		bad="$bad$key: named \"$name\", the schema says $field"$'\n'
	case "$type" in
	STR) want=TYPE_STRING ;; I32) want=TYPE_INT32 ;; I64) want=TYPE_INT64 ;;
	U32) want=TYPE_UINT32 ;; U64) want=TYPE_UINT64 ;; *) want= ;;
	esac
	[ -z "$want" ] || [ "${got#* }" = "$want" ] ||
		bad="$bad$key: type $type in the header, ${got#* } in the schema"$'\n'
done <"$TMP/claims"
is "$bad" "" "every number, event name and field type of perfetto-fields.h is the schema's"

# The events of the table are those of trax's event catalogue (parse/events.h: every spelling,
# "system name") that the schema's FtraceEvent has, each once, under the system of a catalogue
# spelling of its name (the first: the one the text reader gives a name without a system).
grep -o 'S[12]("[^)]*)' "$TOP/parse/events.h" | grep -o '"[^"]*", "[^"]*"' | tr -d '",' |
	sort -u >"$TMP/catalogue"
ok "the catalogue lists over 60 spellings" test "$(grep -c '' "$TMP/catalogue")" -gt 60
awk '$1 ~ /^FtraceEvent\./ && $3 == "TYPE_MESSAGE" { sub(/^FtraceEvent\./, "", $1); print $1 }' \
	"$TMP/schema" | sort -u >"$TMP/schema-events"
awk '{ print $2 }' "$TMP/catalogue" | sort -u | comm -12 - "$TMP/schema-events" >"$TMP/ev.want"
awk '/^PF_EVENT\(/ { split($0, a, /[(," ]+/); print a[5] }' "$HDR" | sort >"$TMP/ev.got"
ok "every catalogue event the schema has is in the table ($(grep -c '' "$TMP/ev.want")), once" \
	diff "$TMP/ev.want" "$TMP/ev.got"
awk 'NR == FNR { if (!($2 in first)) first[$2] = $1; next }
	/^PF_EVENT\(/ { split($0, a, /[(," ]+/); if (first[a[5]] != a[4])
		print a[5] ": system " a[4] ", the catalogue first says " first[a[5]] }' \
	<(grep -o 'S[12]("[^)]*)' "$TOP/parse/events.h" | grep -o '"[^"]*", "[^"]*"' | tr -d '",') \
	"$HDR" >"$TMP/sys.bad"
is "$(cat "$TMP/sys.bad")" "" "each event's system is its catalogue spelling's"
finish
