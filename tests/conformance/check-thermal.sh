#!/usr/bin/env bash
# thermal_residency on TRAPpy's Juno thermal trace (text): DESIGN.md's sample-and-hold rule.
. "$(dirname "$0")/../lib.sh"
f=$TRACES/trappy/thermal_trace.txt
need_shared "$f" "thermal residency conformance" || finish

# Worked by hand on the first four soc_thermal samples of the file:
#   1583.765274 temp=68786, 1583.864813 temp=68781, 1583.965231 temp=68782, 1584.064386 ...
# In the window [1583.765274, 1584.064386] the three samples hold for 0.099539, 0.100418 and
# 0.099155 s (each until the next one): 0.299112 s covered. In [68782, 68790] mC are the first
# (68786) and the third (68782): 0.099539 + 0.099155 = 0.198694 s, i.e. 66.4283 % of 0.299112 s.
cat >"$TMP/t.json" <<'JSON'
{ "windows": { "w": { "start": "1583.765274", "end": "1584.064386" } },
  "rules": [
  { "id": "hand-abs", "metric": "thermal_residency", "zone": "soc_thermal", "range": [68782, 68790], "window": "w", "expect": "> 0 s" },
  { "id": "hand-pct", "metric": "thermal_residency", "zone": "soc_thermal", "range": [68782, 68790], "window": "w", "expect": "> 0 %" },
  { "id": "all-below-69", "metric": "thermal_residency", "zone": "soc_thermal", "range": ["0 C", "69 C"], "expect": ">= 0 %" },
  { "id": "all-69-70", "metric": "thermal_residency", "zone": "soc_thermal", "range": [69000, 70000], "expect": ">= 0 %" },
  { "id": "no-zone", "metric": "thermal_residency", "zone": "gpu_thermal", "range": [0, 1], "expect": ">= 0 %" }
] }
JSON
"$TRAX" check "$TMP/t.json" "$f" --format json -o "$TMP/out.json"
val() { jq -r --arg n "$1" '.results[] | select(.name == $n) | .value' "$TMP/out.json"; }
near "$(val hand-abs)" 198694000 1000 "by hand: 0.198694 s in [68782, 68790] mC"
near "$(val hand-pct)" 66.4283 0.001 "by hand: 66.4283 % of the covered time"

# The whole trace, computed here with awk from the text: each sample holds until the next one;
# the last holds until the trace's last record; time before the first sample is not covered.
expect_pct() { # lo hi
	awk -v lo="$1" -v hi="$2" '
		/ [0-9]+\.[0-9]+: / { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = substr($i, 1, length($i) - 1) + 0; break }
			last = t }
		/thermal_temperature:/ && /thermal_zone=soc_thermal/ {
			for (i = 1; i <= NF; i++) if ($i ~ /^temp=/) v = substr($i, 6) + 0
			if (n) { d = t - pt; cov += d; if (pv >= lo && pv <= hi) in_r += d }
			pt = t; pv = v; n++ }
		END { d = last - pt; cov += d; if (pv >= lo && pv <= hi) in_r += d; printf "%.6f", 100 * in_r / cov }' "$f"
}
want=$(expect_pct 0 69000)
near "$(val all-below-69)" "$want" 0.001 "whole trace, 0-69 C: $want % (awk over the text)"
want=$(expect_pct 69000 70000)
near "$(val all-69-70)" "$want" 0.001 "whole trace, 69-70 C: $want % (awk over the text)"
is "$(jq -r '.results[] | select(.name == "no-zone") | .verdict + ": " + .reason' "$TMP/out.json")" \
	'fail: no thermal_temperature track for zone "gpu_thermal" (zones: soc_thermal)' \
	"an unknown zone FAILS, naming the zones there are"
finish
