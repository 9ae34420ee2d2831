#!/usr/bin/env bash
# The attested path against the unattested one, in one run: the node in the local profile with
# opledger.attest.mode=required (each attempt: a challenge, then the claim with an assertion) and
# with mode=off (the claim alone), driven by the same Java load driver (`opledger-cli load`), rounds
# alternating. See docs/benchmarks.md. The node runs no workers (they would run the claimed
# checkouts while the claims are measured) and no embedded reference-tools.
#
# Settings (environment): CLIENTS=16 WARMUP=20 DURATION=20 ROUNDS=3 NODE_OPTS="-Xms256m -Xmx384m" PORT=18096
#   BENCH_DB=opledger_bench_attest (a run beside another one on the same server needs another, and another PORT)
#   START_S=120 (how long the node may take to start: more on a loaded machine)
set -euo pipefail
cd "$(dirname "$0")/../.."
CLIENTS=${CLIENTS:-16}; WARMUP=${WARMUP:-20}; DURATION=${DURATION:-20}; ROUNDS=${ROUNDS:-3}; PORT=${PORT:-18096}
NODE_OPTS=${NODE_OPTS:--Xms256m -Xmx384m}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
DB=${BENCH_DB:-opledger_bench_attest}; HZ=$(getconf CLK_TCK); NODE_PID=""; LOAD_OUT=$(mktemp)
trap '[ -n "$NODE_PID" ] && kill $NODE_PID 2>/dev/null || true; rm -f "$LOAD_OUT"' EXIT
[ -f ui/target/opledger.jar ] && [ -f cli/target/opledger-cli.jar ] || ./mvnw -B -q -DskipTests -pl ui,cli -am package
psql -q -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"

start_node() { # $1: attest mode
  # shellcheck disable=SC2086
  "$JAVA" $NODE_OPTS -jar ui/target/opledger.jar --spring.profiles.active=local --server.port="$PORT" \
    --spring.datasource.url="jdbc:postgresql://$PGHOST:$PGPORT/$DB" --opledger.attest.mode="$1" \
    --opledger.worker.enabled=false --opledger.reference-tools.embedded=false \
    --logging.level.root=WARN >/tmp/bench-attest-node.log 2>&1 &
  NODE_PID=$!
  for _ in $(seq 1 "${START_S:-120}"); do curl -fs "http://127.0.0.1:$PORT/actuator/health/readiness" >/dev/null && return; sleep 1; done
  tail -n 20 /tmp/bench-attest-node.log >&2; echo "the node was not ready after START_S=${START_S:-120} s" >&2; exit 1
}
stop_node() { kill "$NODE_PID"; wait "$NODE_PID" 2>/dev/null || true; NODE_PID=""; }
ticks() { awk '{print $14 + $15}' "/proc/$NODE_PID/stat"; }
field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p" <<<"$2"; }

declare -A results
for round in $(seq 1 "$ROUNDS"); do
  for mode in required off; do
    start_node "$mode"
    flag=$([ "$mode" = required ] && echo --attested || true)
    "$JAVA" -jar cli/target/opledger-cli.jar load --server "http://127.0.0.1:$PORT" --clients "$CLIENTS" \
      --warmup "$WARMUP" --duration "$DURATION" $flag > "$LOAD_OUT" &
    LOAD=$!
    sleep "$WARMUP"; t0=$(ticks)
    wait $LOAD || { cat "$LOAD_OUT" >&2; exit 1; }
    t1=$(ticks)
    r=$(grep '^RESULT' "$LOAD_OUT")
    cpu=$(awk -v t=$((t1 - t0)) -v c="$(field claims "$r")" -v hz="$HZ" 'BEGIN {printf "%.1f", t / hz / c * 1e6}')
    results[$mode]+="$(field rps "$r") $(field requests_per_s "$r") $(field p50_ms "$r") $(field p99_ms "$r") $cpu"$'\n'
    echo "round $round $mode: $r node_cpu_us_per_claim=$cpu" >&2
    stop_node
  done
done

median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
col() { awk -v c="$2" 'NF {print $c}' <<<"${results[$1]}" | median; }
echo "## Attested path, $(date -u +%Y%m%dT%H%M%SZ)"
echo
echo "$(nproc) cores, $CLIENTS simulated users, ${DURATION}s × $ROUNDS rounds (medians), warm-up ${WARMUP}s; load driver: \`opledger-cli load\` (Java)."
echo
echo "| opledger.attest.mode | claims/s | HTTP requests/s | p50 / p99 ms per attempt | node CPU µs/claim |"
echo "|---|---|---|---|---|"
for mode in required off; do
  echo "| $mode | $(col $mode 1) | $(col $mode 2) | $(col $mode 3) / $(col $mode 4) | $(col $mode 5) |"
done
awk -v a="$(col required 1)" -v b="$(col off 1)" -v pa="$(col required 4)" -v pb="$(col off 4)" \
  -v ca="$(col required 5)" -v cb="$(col off 5)" \
  'BEGIN {printf "\nrequired / off: throughput %.2f×, p99 %.2f×, node CPU per claim %.2f×\n", a / b, pa / pb, ca / cb}'
