#!/usr/bin/env bash
# End-to-end lag of the events under the checkout benchmark's load: from the state change
# (occurredAt: the writing transaction's now()) to a read_committed consumer's poll that returns
# the event. Starts a Kafka 4 broker as a process of its own and the consumer
# (bench/relay/RelayBench.java broker | lag), runs bench/checkout/run.sh with the node pointed at
# that broker (its settings pass through: ROUNDS, CLIENTS, DURATION…), then prints p50/p90/p99 of
# the lag for the events of the checkout phases (workers on, every state change of a run) and of
# the claim-only phases (a burst of OperationAccepted), told apart by the database their operation
# is in. Warm-up operations count too. Then one row per measured phase of the checkout database
# (checkout: the closed loop, open: the open loop at a fixed rate): the events of that phase's
# measured operations only (run.sh's PHASE_LOG says which), without its warm-up.
#
# Settings (environment): NODE_JAR=ui/target/opledger.jar, and bench/checkout/run.sh's.
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/../.."
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
export NODE_JAR=${NODE_JAR:-ui/target/opledger.jar}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
WORK=$(mktemp -d); BROKER_PID=""; LAG_PID=""
cleanup() {
  local pid
  for pid in "$LAG_PID" "$BROKER_PID"; do
    if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  done
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "bench/relay/lag: $*" >&2; exit 1; }

"$JAVA" -Djarmode=tools -jar "$NODE_JAR" extract --destination "$WORK/node" >/dev/null
CP="$WORK/node/lib/*"
"$JAVA" -cp "$CP" bench/relay/RelayBench.java broker "$WORK/bootstrap" >"$WORK/broker.log" 2>&1 &
BROKER_PID=$!
for _ in $(seq 1 120); do [ -s "$WORK/bootstrap" ] && break; sleep 0.5; done
[ -s "$WORK/bootstrap" ] || { cat "$WORK/broker.log" >&2; fail "the broker did not start"; }
BOOTSTRAP=$(cat "$WORK/bootstrap")
"$JAVA" -cp "$CP" bench/relay/RelayBench.java lag "$BOOTSTRAP" "$WORK/lag" >"$WORK/lag.log" 2>&1 &
LAG_PID=$!

# the lag is still worth printing when the checkout benchmark's own checks fail (a busy machine)
checkout_rc=0
NODE_ARGS="${NODE_ARGS:-} --spring.kafka.bootstrap-servers=$BOOTSTRAP" PHASE_LOG="$WORK/phases" bench/checkout/run.sh \
  || checkout_rc=$?
[ "$checkout_rc" = 0 ] || echo "bench/relay/lag: bench/checkout/run.sh failed ($checkout_rc); the lag below is still measured" >&2
kill "$LAG_PID"; wait "$LAG_PID" 2>/dev/null || true; LAG_PID=""
grep -q LISTENING "$WORK/lag.log" || { cat "$WORK/lag.log" >&2; fail "the consumer never listened"; }

lag_of() { # $1: the phase's database, [$2 $3: only the operations whose ids are above $2, up to $3]; prints
  # "events p50 p90 p99 max" of those events' lag in ms
  [ -n "$(psql -Atq -d "$1" -c "SELECT to_regclass('operation')")" ] || return 0 # its phases did not run
  psql -Atq -F ' ' -d "$1" <<SQL
CREATE TEMP TABLE lag (consumed_ms bigint, occurred_ms bigint, type text, operation_id uuid);
\copy lag FROM '$WORK/lag' WITH (FORMAT text, DELIMITER ' ')
SELECT count(*), percentile_disc(0.5) WITHIN GROUP (ORDER BY consumed_ms - occurred_ms),
       percentile_disc(0.9) WITHIN GROUP (ORDER BY consumed_ms - occurred_ms),
       percentile_disc(0.99) WITHIN GROUP (ORDER BY consumed_ms - occurred_ms), max(consumed_ms - occurred_ms)
FROM lag WHERE operation_id IN (SELECT operation_id FROM operation WHERE id > ${2:-0} AND id <= ${3:-9223372036854775807});
SQL
}
published_of() { # the relay's part, from the outbox: state change → the start of the batch that published it
  [ -n "$(psql -Atq -d "$1" -c "SELECT to_regclass('outbox_event')")" ] || return 0
  psql -Atq -F ' ' -d "$1" -c "SELECT round(percentile_disc(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 1),
      round(percentile_disc(0.99) WITHIN GROUP (ORDER BY ms)::numeric, 1)
    FROM (SELECT extract(epoch FROM published_at - occurred_at) * 1000 AS ms FROM outbox_event WHERE published_at IS NOT NULL) e"
}
DB=${BENCH_DB:-opledger_bench_checkout} # run.sh's databases
read -r cn cp50 cp90 cp99 cmax <<<"$(lag_of "$DB")"
read -r an ap50 ap90 ap99 amax <<<"$(lag_of "${DB}_claims")"
read -r cr50 cr99 <<<"$(published_of "$DB")"
read -r ar50 ar99 <<<"$(published_of "${DB}_claims")"
echo
echo "| events of | events consumed | state change → consumed p50 / p90 / p99 / max ms | of which state change → relay's batch p50 / p99 ms |"
echo "|---|---|---|---|"
echo "| checkout phases (workers on; the open loop's too) | $cn | $cp50 / $cp90 / $cp99 / $cmax | $cr50 / $cr99 |"
echo "| claim-only phases | $an | $ap50 / $ap90 / $ap99 / $amax | $ar50 / $ar99 |"
# the measured part of each checkout and open phase, in the order they ran
if [ -s "$WORK/phases" ]; then
  echo
  echo "| measured phase (no warm-up) | events consumed | state change → consumed p50 / p90 / p99 / max ms |"
  echo "|---|---|---|"
  grep -v '^claim ' "$WORK/phases" | while read -r mode round db from to; do
    read -r pn p50 p90 p99 pmax <<<"$(lag_of "$db" "$from" "$to")"
    echo "| $mode, round $round | $pn | $p50 / $p90 / $p99 / $pmax |"
  done
fi
