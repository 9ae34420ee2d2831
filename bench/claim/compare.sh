#!/usr/bin/env bash
# Compares node builds (or JVM options) on the claim path, in one run, interleaved:
#   bench/claim/compare.sh "A=-jar /tmp/a.jar" "B=-XX:+UseParallelGC -jar ui/target/opledger.jar" …
# Each variant: start, warm up WARMUP s, measure ROUNDS × DURATION s of fresh claims with wrk;
# variants alternate round by round so drift on a noisy machine hits them alike. Prints medians
# of claims/s, p99 and node CPU µs per claim. Database: a fresh opledger_compare.
set -euo pipefail
cd "$(dirname "$0")/../.."
WARMUP=${WARMUP:-20}; DURATION=${DURATION:-15}; ROUNDS=${ROUNDS:-3}; CLIENTS=${CLIENTS:-16}; PORT=${PORT:-18090}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
DB=opledger_compare; HZ=$(getconf CLK_TCK); PID=""
trap '[ -n "$PID" ] && kill $PID 2>/dev/null || true' EXIT
export BODY='{"arguments":{"amount":12.5,"currency":"EUR","quantity":2,"recipient":"ann@example.com","sku":"A-1"},"type":"checkout"}' MODE=fresh
export TOKEN; TOKEN=$(scripts/local-token bench 86400)
psql -q -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"

start() { # $1: JVM arguments including -jar
  # shellcheck disable=SC2086
  "$JAVA" -Xms256m -Xmx384m $1 --spring.profiles.active=local --server.port=$PORT \
    --spring.datasource.url="jdbc:postgresql://$PGHOST:$PGPORT/$DB" --spring.datasource.username="$PGUSER" --opledger.worker.enabled=false \
    --opledger.reference-tools.embedded=false --opledger.attest.mode=off \
    --logging.level.root=WARN >/tmp/compare-node.log 2>&1 &
  PID=$!
  for _ in $(seq 1 120); do curl -fs "http://127.0.0.1:$PORT/actuator/health/readiness" >/dev/null && return; sleep 1; done
  cat /tmp/compare-node.log >&2; exit 1
}
stop() { kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""; }
measure() {
  local t0 t1 r
  t0=$(awk '{print $14 + $15}' "/proc/$PID/stat")
  r=$(wrk -t2 -c"$CLIENTS" -d"$DURATION"s -s bench/claim/claim.lua "http://127.0.0.1:$PORT" | grep '^RESULT')
  t1=$(awk '{print $14 + $15}' "/proc/$PID/stat")
  awk -v r="$r" -v t=$((t1 - t0)) -v hz="$HZ" 'BEGIN {
    n = split(r, f, /[ =]/); for (i = 1; i < n; i++) v[f[i]] = f[i + 1]
    printf "%.0f %.2f %.1f\n", v["rps"], v["p99_ms"], t / hz / v["requests"] * 1e6 }'
}
declare -A results
for round in $(seq 1 "$ROUNDS"); do
  for variant in "$@"; do
    name=${variant%%=*}
    start "${variant#*=}"
    wrk -t2 -c"$CLIENTS" -d"$WARMUP"s -s bench/claim/claim.lua "http://127.0.0.1:$PORT" >/dev/null
    results[$name]+="$(measure)"$'\n'
    stop
    echo "round $round $name: $(tail -n 2 <<<"${results[$name]}" | head -1)" >&2
  done
done
median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
printf '| variant | claims/s | p99 ms | node CPU µs/claim |\n|---|---|---|---|\n'
for variant in "$@"; do
  name=${variant%%=*}
  printf '| %s | %s | %s | %s |\n' "$name" \
    "$(awk 'NF {print $1}' <<<"${results[$name]}" | median)" \
    "$(awk 'NF {print $2}' <<<"${results[$name]}" | median)" \
    "$(awk 'NF {print $3}' <<<"${results[$name]}" | median)"
done
