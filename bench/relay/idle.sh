#!/usr/bin/env bash
# What an idle node with events on writes by itself: for each jar given, a node (local profile,
# in-process broker, workers off) on a fresh database; once its relay holds the election and
# after SETTLE s, over IDLE s: updates of the election's row, and transactions (read-only ones
# count too) of that database. Usage: bench/relay/idle.sh NAME=JAR…
set -euo pipefail
cd "$(dirname "$0")/../.."
IDLE=${IDLE:-10}; SETTLE=${SETTLE:-5}; PORT=${PORT:-18096}; DB=opledger_bench_idle
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java; PID=""
trap '[ -n "$PID" ] && kill $PID 2>/dev/null || true' EXIT
q() { psql -Atq -d "$DB" -c "$1"; }
echo "| node | election row updates/s | transactions/s (read-only included) |"
echo "|---|---|---|"
for variant in "$@"; do
  psql -q -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"
  "$JAVA" -Xms256m -Xmx384m -jar "${variant#*=}" --spring.profiles.active=local --server.port=$PORT \
    --spring.datasource.url="jdbc:postgresql://127.0.0.1:5432/$DB" --opledger.worker.enabled=false \
    --opledger.reference-tools.embedded=false --opledger.attest.mode=off --logging.level.root=WARN >/tmp/idle-node.log 2>&1 &
  PID=$!
  for _ in $(seq 1 120); do
    [ "$(q "SELECT count(*) FROM outbox_relay WHERE holder IS NOT NULL AND expires_at > now()" 2>/dev/null)" = 1 ] && break
    sleep 1
  done
  sleep "$SETTLE"
  u0=$(q "SELECT n_tup_upd FROM pg_stat_user_tables WHERE relname = 'outbox_relay'")
  c0=$(psql -Atq -d postgres -c "SELECT xact_commit FROM pg_stat_database WHERE datname = '$DB'")
  sleep "$IDLE"; sleep 2 # the backends publish their counts at most once a second
  u1=$(q "SELECT n_tup_upd FROM pg_stat_user_tables WHERE relname = 'outbox_relay'")
  c1=$(psql -Atq -d postgres -c "SELECT xact_commit FROM pg_stat_database WHERE datname = '$DB'")
  kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""
  awk -v n="${variant%%=*}" -v u=$((u1 - u0)) -v c=$((c1 - c0)) -v t=$((IDLE + 2)) \
    'BEGIN {printf "| %s | %.2f | %.1f |\n", n, u / t, c / t}'
done
