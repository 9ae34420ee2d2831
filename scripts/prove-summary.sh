#!/usr/bin/env bash
# The end of ./opledger prove: prints the summary table of the figures the proofs wrote to
# e2e-tests/target/prove/results.tsv and puts it into docs/reliability.md (between the
# "prove:results" markers), with the command, the date, the machine and Maven's exit status.
#   scripts/prove-summary.sh VERSION COMMAND STATUS
set -euo pipefail
cd "$(dirname "$0")/.."
version=$1 command=$2 status=$3
results=e2e-tests/target/prove/results.tsv
doc=docs/reliability.md
if [ ! -s "$results" ]; then
  echo "prove: no figures in $results (the build failed before the proofs ran; see above)" >&2
  exit 0
fi

# the proofs' own verdict (a proof that broke off before its figures counts here, not in the table)
summary=e2e-tests/target/prove-reports/failsafe-summary.xml
tests=""
if [ -f "$summary" ]; then
  count() { sed -n "s:.*<$1>\([0-9]*\)</$1>.*:\1:p" "$summary" | head -1; }
  tests="proofs: $(count completed) run, $(count failures) failed, $(count errors) broke off"
fi

table=$(mktemp); trap 'rm -f "$table"' EXIT
{
  echo "Run: \`$command\` ($version version) on $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs"\
"$(sed -n 's/^model name[[:space:]]*: / (/p' /proc/cpuinfo 2>/dev/null | head -1 | sed 's/$/)/')"\
", Maven exit status $status${tests:+; $tests}."
  echo
  echo "| scenario | figure | value | must be | holds |"
  echo "|---|---|---|---|---|"
  awk -F'\t' '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$results"
} >"$table"

echo
echo "==================== ./opledger prove: summary ($version) ===================="
awk -F'\t' '{ printf "%-18s %-46s %-28s %-18s %s\n", $1, $2, $3, ($4 == "—" ? "" : "must be " $4), $5 }' "$results"
failed=$(awk -F'\t' '$5 != "ok"' "$results" | wc -l)
echo "=============================================================================="
echo "$(wc -l <"$results") figures, $failed failed; ${tests:+$tests; }Maven exit status $status. Written to $doc."

if [ -f "$doc" ] && grep -q '<!-- prove:results:begin -->' "$doc"; then
  awk -v table="$table" '
    /<!-- prove:results:begin -->/ { print; while ((getline line < table) > 0) print line; skip = 1; next }
    /<!-- prove:results:end -->/ { skip = 0 }
    !skip { print }' "$doc" >"$doc.tmp" && mv "$doc.tmp" "$doc"
fi
