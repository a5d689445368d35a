#!/usr/bin/env bash
# Counter levels in the track's own unit: a bare "level" on cpu_frequency is kHz, as the trace
# stores it and `trace-cmd report` prints it (LISA's juno_sched_load.dat). Expected values are
# computed here with awk from `trace-cmd report -t`, not by trax.
. "$(dirname "$0")/../lib.sh"
f=$TRACES/lisa/juno_sched_load.dat
need_shared "$f" "counter levels in the track's unit" || finish
command -v trace-cmd >/dev/null || { skip "counter levels in the track's unit" "no trace-cmd"; finish; }
command -v jq >/dev/null || { skip "counter levels in the track's unit" "no jq"; finish; }

# Time each CPU's frequency was strictly above LEVEL kHz, in % of the time after its first
# cpu_frequency sample: each sample holds until the next one of its cpu_id, the last one until
# the trace's last record. The print markers that quote cpu_frequency lines are not events.
tc_report -t "$f" >"$TMP/report.txt"
pct_above() { # level_khz cpu
	awk -v lvl="$1" -v want="$2" '
		/ [0-9]+\.[0-9]+: / { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
				t = substr($i, 1, length($i) - 1); break }
			if (t + 0 > last + 0) last = t }
		/ cpu_frequency: / && !/tracing_mark_write/ {
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^state=/) v = substr($i, 7) + 0
				if ($i ~ /^cpu_id=/) c = substr($i, 8) + 0 }
			if (c != want) next
			if (n++) { d = t - pt; cov += d; if (pv > lvl) up += d }
			pt = t; pv = v }
		END { d = last - pt; cov += d; if (pv > lvl) up += d; if (cov > 0) printf "%.6f", 100 * up / cov }' \
		"$TMP/report.txt"
}

cat >"$TMP/r.json" <<'JSON'
{ "rules": [
  { "id": "bare", "metric": "counter", "track": "cpu_frequency", "stat": "time_above",
    "level": 800000, "expect": ">= 0 %" },
  { "id": "bare-string", "metric": "counter", "track": "cpu_frequency", "cpu": 0,
    "stat": "time_above", "level": "800000", "expect": ">= 0 %" },
  { "id": "khz", "metric": "counter", "track": "cpu_frequency", "cpu": 0, "stat": "time_above",
    "level": "800000 kHz", "expect": ">= 0 %" },
  { "id": "mhz", "metric": "counter", "track": "cpu_frequency", "cpu": 0, "stat": "time_below",
    "level": "800 MHz", "expect": ">= 0 %" },
  { "id": "big-at-800", "metric": "counter", "track": "cpu_frequency", "cpu": 1,
    "stat": "time_above", "level": 799999, "expect": ">= 0 %" }
] }
JSON
"$TRAX" check "$TMP/r.json" "$f" --format json -o "$TMP/out.json"
is "$?" 0 "counter rules with bare and unit levels evaluate"
val() { jq -r --arg n "$1" '.results[] | select(.name == $n) | .value' "$TMP/out.json"; }
for cpu in 0 1 2 3 4 5; do
	want=$(pct_above 800000 "$cpu")
	near "$(val "bare[cpu_frequency:cpu$cpu]")" "$want" 0.001 \
		"CPU $cpu: level 800000 is kHz: $want % above (awk over trace-cmd report)"
done
want=$(pct_above 800000 0)
near "$(val bare-string)" "$want" 0.001 "a bare number in a string is kHz too"
near "$(val khz)" "$want" 0.001 "\"800000 kHz\" is the same level"
# Below 800 MHz: CPU 0 never sat at exactly 800000 kHz, so below = 100 % - above.
near "$(val mhz)" "$(awk -v a="$want" 'BEGIN { printf "%.6f", 100 - a }')" 0.001 \
	"\"800 MHz\" is the same level (time_below)"
want=$(pct_above 799999 1)
near "$(val big-at-800)" "$want" 0.001 "CPU 1 above 799999 kHz: $want % (its 800000 kHz samples count)"

# A bare number where the value is a frequency (a threshold) is refused, naming the units.
cat >"$TMP/bad.json" <<'JSON'
{ "rules": [ { "id": "fmax", "metric": "counter", "track": "cpu_frequency", "cpu": 0,
  "stat": "max", "expect": 800000 } ] }
JSON
out=$("$TRAX" check "$TMP/bad.json" "$f" 2>&1 >/dev/null)
is "$?" 2 "a bare number as a frequency threshold: exit status 2"
is "$out" "trax check: $TMP/bad.json: rules[0] (id \"fmax\").expect: \"800000\" needs a unit: the value is a frequency (Hz, kHz, MHz, GHz)" \
	"the message names the rule, the key and the units to write"
finish
