#!/usr/bin/env bash
# The status read GET /v1/operations/{id} of several node builds or settings, side by side in one
# run: every variant's node starts at once (workers off, attest off, local profile, one database),
# one operation is claimed, then ROUNDS rounds each read it READS times over one connection per
# variant, the variants in turn; the node's CPU ticks around each batch give µs per read. Medians
# over the rounds. A first batch per node is a warm-up and is not counted.
#   bench/reads/compare.sh "before=-jar /tmp/before.jar" "after=-jar ui/target/opledger.jar" \
#       "no-tracing=-jar ui/target/opledger.jar --management.tracing.enabled=false"
# PREFER=wait=5 sends every read with that Prefer header, on the operation cancelled first: a
# settled operation's waited read, answered at once through an async dispatch of the request.
# WAITING=1 (with PREFER=wait=N) reads the operation left ACCEPTED instead (no worker runs it), so
# that every read waits its N seconds and is answered at its deadline: the waiting request's own
# path. The reads of a batch are then sent PARALLEL at a time (curl --parallel).
# Settings: ROUNDS=5 READS=1000 BASE_PORT=19120 START_S=600 DB=opledger_bench_reads PREFER= WAITING=0 PARALLEL=200
#   NODE_OPTS="-Xms256m -Xmx384m" PGHOST=127.0.0.1 PGPORT=5432 PGUSER=postgres
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-5}; READS=${READS:-1000}; BASE_PORT=${BASE_PORT:-19120}; START_S=${START_S:-600}
DB=${DB:-opledger_bench_reads}; PREFER=${PREFER:-}; WAITING=${WAITING:-0}; PARALLEL=${PARALLEL:-200}
NODE_OPTS=${NODE_OPTS:--Xms256m -Xmx384m}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java; HZ=$(getconf CLK_TCK)
[ $# -gt 0 ] || { echo "bench/reads/compare.sh NAME=JAVA-ARGS…" >&2; exit 2; }
WORK=$(mktemp -d); PIDS=()
cleanup() { local pid; for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT
psql -q -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"
names=(); ports=()
start() { # $1: index, $2: variant
  local name=${2%%=*} args=${2#*=} port=$((BASE_PORT + $1))
  # shellcheck disable=SC2086
  "$JAVA" $NODE_OPTS $args --spring.profiles.active=local --server.port="$port" \
    --spring.datasource.url="jdbc:postgresql://$PGHOST:$PGPORT/$DB" --spring.datasource.username="$PGUSER" \
    --opledger.attest.mode=off --opledger.worker.enabled=false --opledger.reference-tools.embedded=false \
    --logging.level.root=WARN >"$WORK/$name.log" 2>&1 &
  PIDS+=($!); names+=("$name"); ports+=("$port")
}
ready() { # $1: index
  local _
  for _ in $(seq 1 "$START_S"); do
    curl -fs "http://127.0.0.1:${ports[$1]}/actuator/health/readiness" >/dev/null && { echo "${names[$1]} ready" >&2; return; }
    kill -0 "${PIDS[$1]}" 2>/dev/null || { cat "$WORK/${names[$1]}.log" >&2; exit 1; }
    sleep 1
  done
  tail -30 "$WORK/${names[$1]}.log" >&2; exit 1
}
# the first node creates the schema (Liquibase) alone; the others then start together
variants=("$@")
start 0 "${variants[0]}"; ready 0
for i in $(seq 1 $(($# - 1))); do start "$i" "${variants[$i]}"; done
for i in $(seq 1 $(($# - 1))); do ready "$i"; done
token=$(scripts/local-token bench-reads 3600); id=$(cat /proc/sys/kernel/random/uuid)
status=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -H "Idempotency-Key: $id" -d '{"type":"checkout","arguments":{"sku":"SKU-ESPRESSO","quantity":1,"amount":49.90,"currency":"EUR","recipient":"ann@example.com"}}' \
  "http://127.0.0.1:${ports[0]}/v1/operations")
[ "$status" = 202 ] || { echo "the claim was answered $status" >&2; exit 1; }
prefer=(); parallel=()
if [ -n "$PREFER" ] && [ "$WAITING" = 1 ]; then
  prefer=(-H "Prefer: $PREFER"); parallel=(-Z --parallel-max "$PARALLEL" --no-progress-meter)
elif [ -n "$PREFER" ]; then
  status=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H "Authorization: Bearer $token" \
    "http://127.0.0.1:${ports[0]}/v1/operations/$id/cancel")
  [ "$status" = 200 ] || { echo "the cancel was answered $status" >&2; exit 1; }
  prefer=(-H "Prefer: $PREFER")
fi
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
batch() { # $1: port; every read must be a 200
  local ok
  ok=$(curl -s "${parallel[@]}" -o /dev/null -w '%{http_code}\n' -H "Authorization: Bearer $token" "${prefer[@]}" "http://127.0.0.1:$1/v1/operations/$id?n=[1-$READS]" | grep -c '^200$' || true)
  [ "$ok" = "$READS" ] || { echo "only $ok of $READS reads were answered 200" >&2; exit 1; }
}
for i in "${!names[@]}"; do batch "${ports[$i]}"; done   # warm-up
declare -A us
for round in $(seq 1 "$ROUNDS"); do
  for i in "${!names[@]}"; do
    t0=$(ticks "${PIDS[$i]}"); batch "${ports[$i]}"; t1=$(ticks "${PIDS[$i]}")
    us[${names[$i]}]+=" $(awk "BEGIN {printf \"%.0f\", ($t1 - $t0) / $HZ / $READS * 1e6}")"
    echo "round $round ${names[$i]}: ${us[${names[$i]}]##* } µs per read" >&2
  done
done
echo "## Status reads${PREFER:+ with Prefer: $PREFER}$([ "$WAITING" = 1 ] && echo ", each waiting to its deadline, $PARALLEL at a time"), $(date -u +%Y%m%dT%H%M%SZ): $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) at the end; $ROUNDS rounds of $READS reads"
echo
echo "| variant | node CPU µs per read (median) | per round |"
echo "|---|---|---|"
for name in "${names[@]}"; do
  # shellcheck disable=SC2086
  median=$(printf '%s\n' ${us[$name]} | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
  echo "| $name | $median | $(echo ${us[$name]} | tr ' ' '/') |"
done
