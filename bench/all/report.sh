#!/usr/bin/env bash
# The end of ./opledger bench all: reads the phases' logs in RUN (bench/results/all-<stamp>), prints
# one summary table of ratios against their same-run baselines, and writes OUT/index.html with PNG
# charts drawn by bench/report (built here if missing).
#   bench/all/report.sh RUN [OUT=docs/bench-report]
# It parses the summaries the benchmark scripts print (their markdown tables and RESULT lines);
# a phase whose summary is missing is reported as such, never guessed.
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/../.."
RUN=${1:?bench/all/report.sh RUN [OUT]}; OUT=${2:-docs/bench-report}
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
CHART=bench/report/target/bench-report.jar
if [ ! -f "$CHART" ] || [ -n "$(find bench/report/pom.xml bench/report/src -newer "$CHART" -print -quit)" ]; then
  ./mvnw -B -q -DskipTests -Pbench -pl bench/report package
fi
mkdir -p "$OUT"; rm -f "$OUT"/*.png
DATA=$(mktemp -d); trap 'rm -rf "$DATA"' EXIT

# The data rows of the markdown table whose header line starts with $1, in log $2, cells trimmed,
# tab-separated, ** and × dropped.
rows() {
  [ -f "$2" ] || return 0
  awk -v header="$1" '
    index($0, header) == 1 { on = 1; skip = 1; next }
    on && skip { skip = 0; next }
    on && /^\|/ { line = $0; gsub(/\*\*|×/, "", line); n = split(line, c, "|"); out = ""
                  for (i = 2; i < n; i++) { gsub(/^ +| +$/, "", c[i]); out = out (i > 2 ? "\t" : "") c[i] }
                  print out; next }
    on { exit }' "$2"
}
cell() { awk -F'\t' -v key="$1" -v col="$2" '$1 == key { print $col; exit }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b + 0 == 0) print ""; else printf "%.2f", a / b }'; }
num() { sed 's/ *(.*//; s/[^0-9.].*//' <<<"$1"; } # the leading number of a cell

summary=$DATA/summary.tsv; : >"$summary"
add() { # benchmark, measure, opledger, baseline (its name), baseline value, ratio
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$summary"
}
missing() { printf '%s\t%s\t\t\t\t\n' "$1" "no figures (phase failed or not run: $RUN/$2.log)" >>"$summary"; }

# claim: node against pgbench, MCP against REST; the console's queries
log=$RUN/claim.log
rows "| keys | node claims/s" "$log" >"$DATA/claim"
rows "| operations | REST claims/s" "$log" >"$DATA/mcp"
rows "| console query on" "$log" >"$DATA/console"
if [ -s "$DATA/claim" ]; then
  for mode in fresh duplicate; do
    n=$(cell $mode 2 <"$DATA/claim"); p=$(cell $mode 3 <"$DATA/claim")
    add claim "claims/s, $mode keys" "$n" "pgbench tx/s" "$p" "$(ratio "$n" "$p")"
  done
else missing claim claim; fi
if [ -s "$DATA/mcp" ]; then
  for mode in fresh duplicate; do
    r=$(cell $mode 2 <"$DATA/mcp"); m=$(cell $mode 3 <"$DATA/mcp")
    add "MCP tasks" "tasks/s, $mode operations" "$m" "REST claims/s" "$r" "$(ratio "$m" "$r")"
  done
else missing "MCP tasks" claim; fi
console_title=$(grep -m1 '^| console query on' "$log" 2>/dev/null | awk -F'|' '{gsub(/^ +| +$/, "", $2); print $2}' || true)

# attest: required against off
log=$RUN/attest.log
rows "| opledger.attest.mode" "$log" >"$DATA/attest"
if [ -s "$DATA/attest" ]; then
  r=$(cell required 2 <"$DATA/attest"); o=$(cell off 2 <"$DATA/attest")
  add "attested claim" "claims/s, App Attest required" "$r" "attest off claims/s" "$o" "$(ratio "$r" "$o")"
else missing "attested claim" attest; fi

# checkout: against the claim alone, and against DBOS
log=$RUN/checkout.log
rows "| claim-only claims/s" "$log" >"$DATA/checkout"
rows "| per operation | DBOS workflow" "$log" >"$DATA/dbos"
if [ -s "$DATA/checkout" ]; then
  c=$(cut -f2 "$DATA/checkout" | head -1); b=$(cut -f1 "$DATA/checkout" | head -1)
  add checkout "checkouts/s, end to end" "$c" "claim-only claims/s" "$b" "$(ratio "$c" "$b")"
else missing checkout checkout; fi
if [ -s "$DATA/dbos" ]; then
  d=$(cell "throughput /s" 2 <"$DATA/dbos"); o=$(cell "throughput /s" 3 <"$DATA/dbos")
  add "checkout vs DBOS" "checkouts/s" "$o" "DBOS workflows/s" "$d" "$(ratio "$o" "$d")"
  dp=$(num "$(cell "client-seen p50 / p99 ms" 2 <"$DATA/dbos")"); op=$(num "$(cell "client-seen p50 / p99 ms" 3 <"$DATA/dbos")")
  add "checkout vs DBOS" "client-seen p50 ms (lower is better)" "$op" "DBOS p50 ms" "$dp" "$(ratio "$op" "$dp")"
else missing "checkout vs DBOS" checkout; fi

# relay: against a bare producer
log=$RUN/relay.log
rows "| relay events/s" "$log" >"$DATA/relay"
if [ -s "$DATA/relay" ]; then
  r=$(cut -f1 "$DATA/relay" | head -1); b=$(cut -f2 "$DATA/relay" | head -1)
  add relay "events/s, outbox to Kafka" "$r" "bare producer events/s" "$b" "$(ratio "$r" "$b")"
else missing relay relay; fi

# replay: against the first run
log=$RUN/replay.log
line=$(grep -m1 'replay bench (.*rounds): first run ms' "$log" 2>/dev/null || true)
commits=$(grep -m1 'replay bench: first run commits' "$log" 2>/dev/null || true)
if [ -n "$line" ]; then
  f=$(sed -n 's/.*first run ms .* median \([0-9]*\); replay ms.*/\1/p' <<<"$line")
  r=$(sed -n 's/.*; replay ms .* median \([0-9]*\)$/\1/p' <<<"$line")
  add replay "ms per run, from the first checkpoint (lower is better)" "$r" "first run ms" "$f" "$(ratio "$r" "$f")"
  if [ -n "$commits" ]; then
    fc=$(sed -n 's/.*first run commits .* median \([0-9]*\); dry run.*/\1/p' <<<"$commits")
    rc=$(sed -n 's/.*replay commits .* median \([0-9]*\)$/\1/p' <<<"$commits")
    add replay "commits per run (lower is better)" "$rc" "first run commits" "$fc" "$(ratio "$rc" "$fc")"
  fi
else missing replay replay; fi

# ---- the summary table ----------------------------------------------------------------------
quick_note=""; [ "${QUICK:-0}" = 1 ] && quick_note=" — QUICK=1: one short round each, read the ratios, not the absolute figures"
echo
echo "==================== ./opledger bench all: summary ($(basename "$RUN"))$quick_note ===================="
printf '%-18s %-52s %12s %12s  %-24s %s\n' benchmark measure opledger baseline "baseline is" ratio
awk -F'\t' '{ if ($3 == "") printf "%-18s %s\n", $1, $2; else printf "%-18s %-52s %12s %12s  %-24s %s\n", $1, $2, $3, $5, $4, ($6 == "" ? "–" : $6 "×") }' "$summary"
echo "Per phase (exit status, minutes, load average before → after):"
awk -F'\t' '{ printf "  %-9s exit %s, %5.1f min, load %s → %s\n", $1, $2, $3 / 60, $4, $5 }' "$RUN/phases.tsv" 2>/dev/null || true

# ---- charts -----------------------------------------------------------------------------------
chart() { "$JAVA" -Djava.awt.headless=true -jar "$CHART" "$@" >&2; }
tsv() { printf 'series\tx\ty\n'; cat; }
awk -F'\t' '$6 != "" { printf "opledger / baseline\t%s: %s\t%s\n", $1, $2, $6 }' "$summary" | tsv >"$DATA/ratios.tsv"
charts=()
if [ "$(wc -l <"$DATA/ratios.tsv")" -gt 1 ]; then
  chart --bars --horizontal --title "Ratios against the same run's baselines (1.0 = as fast / as long as the baseline)" \
    --y-label "opledger / baseline" --width 1100 --height 640 --out "$OUT/ratios.png" "$DATA/ratios.tsv"
  charts+=("ratios.png|Every ratio of the summary")
fi
# one bar chart per benchmark: opledger beside its baseline, in the benchmark's own unit
awk -F'\t' '$3 != "" { print $1 }' "$summary" | sort -u | while read -r bench; do
  file=$(tr ' A-Z' '-a-z' <<<"$bench").png
  awk -F'\t' -v b="$bench" '$1 == b && $3 != "" { printf "opledger\t%s\t%s\n%s\t%s\t%s\n", $2, $3, "baseline", $2, $5 }' \
    "$summary" | tsv >"$DATA/bench.tsv"
  chart --bars --title "$bench: opledger beside its same-run baseline" \
    --y-label "per measure's unit" --width 900 --height 420 --out "$OUT/$file" "$DATA/bench.tsv"
done
if [ -s "$DATA/console" ]; then
  awk -F'\t' '{ printf "PostgreSQL execution\t%s\t%s\n", $1, $2 }' "$DATA/console" | tsv >"$DATA/console.tsv"
  chart --bars --title "The console's ledger queries (${console_title:-console queries}), median of 5" --y-label ms \
    --width 900 --height 420 --out "$OUT/console-queries.png" "$DATA/console.tsv"
fi

# ---- the page ---------------------------------------------------------------------------------
esc() { sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g'; }
md_tables() { # the markdown tables and text of a phase's summary, as <pre> (what the script printed)
  [ -f "$1" ] && awk '/^## /{on=1} on' "$1" | grep -v '^round \|^\[' | esc || true
}
{
  cat <<HTML
<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>opledger benchmarks, $(basename "$RUN")</title>
<style>body{font-family:sans-serif;max-width:1150px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:right}
td:first-child,td:nth-child(2),th{text-align:left}pre{background:#f6f6f6;padding:.8em;overflow-x:auto;font-size:85%}
img{max-width:100%;border:1px solid #eee}.failed{color:#b00}</style></head><body>
<h1>opledger benchmarks: <code>./opledger bench all</code></h1>
<p>Run $(basename "$RUN") on $(nproc) CPUs$(sed -n 's/^model name[[:space:]]*: / (/p' /proc/cpuinfo 2>/dev/null | head -1 | sed 's/$/)/' | esc),
commit <code>$(git rev-parse --short HEAD 2>/dev/null || echo '?')</code>$(esc <<<"$quick_note").
Every ratio is against a baseline measured in the same run, on the same machine, minutes apart; the machine
is shared, so the load average of each phase is given below. Details of each benchmark: docs/benchmarks.md.</p>
<h2>Summary</h2>
<table><tr><th>benchmark</th><th>measure</th><th>opledger</th><th>baseline</th><th>baseline is</th><th>ratio</th></tr>
HTML
  awk -F'\t' '{ if ($3 == "") printf "<tr><td>%s</td><td class=\"failed\" colspan=\"5\">%s</td></tr>\n", $1, $2;
    else printf "<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td><b>%s</b></td></tr>\n", $1, $2, $3, $5, $4, ($6 == "" ? "–" : $6 "×") }' "$summary"
  echo "</table>"
  echo "<h2>Phases</h2><table><tr><th>phase</th><th>exit</th><th>minutes</th><th>load before</th><th>load after</th><th>command</th></tr>"
  awk -F'\t' '{ printf "<tr><td>%s</td><td>%s</td><td>%.1f</td><td>%s</td><td>%s</td><td style=\"text-align:left\"><code>%s</code></td></tr>\n", $1, $2, $3 / 60, $4, $5, $6 }' \
    "$RUN/phases.tsv" 2>/dev/null | sed 's/&/\&amp;/g' || true
  echo "</table><h2>Charts</h2>"
  for png in ratios.png $(cd "$OUT" && ls *.png 2>/dev/null | grep -v '^ratios.png$' || true); do
    [ -f "$OUT/$png" ] && echo "<p><img src=\"$png\" alt=\"${png%.png}\"></p>"
  done
  echo "<h2>What each benchmark printed</h2>"
  for phase in claim attest checkout relay replay; do
    [ -f "$RUN/$phase.log" ] || continue
    echo "<h3>$phase</h3><pre>"
    if [ "$phase" = replay ]; then grep 'replay bench' "$RUN/$phase.log" | esc || true; else md_tables "$RUN/$phase.log"; fi
    echo "</pre>"
  done
  echo "</body></html>"
} >"$OUT/index.html"
echo "Written: $OUT/index.html and $(ls "$OUT"/*.png 2>/dev/null | wc -l) charts."
