#!/usr/bin/env bash
# The relay's throughput against a bare Kafka producer, in one run, round by round:
#   relay  N outbox rows (what N claims write for their events: an operation and its
#          OperationAccepted row) committed in one transaction; the node's relay drains them to a
#          Kafka 4 broker; events/s from the commit to an empty outbox
#   bare   the same N records (read back from the topic: same keys, values, headers) sent by a bare
#          transactional idempotent producer (acks=all, as the relay's) in transactions of
#          BATCH records, to a topic of as many partitions on the same broker
# The broker is a process of its own (bench/relay/RelayBench.java broker), so the node's CPU is the
# relay's. Prints medians of ROUNDS rounds and each round; CPU per event of the node, the broker
# and PostgreSQL (the relay), of the bare producer and the broker (bare).
#
# Settings (environment): EVENTS=20000 BATCH=500 ROUNDS=5 PORT=18099 NODE_OPTS="-Xms256m -Xmx384m"
#   NODE_ARGS="" (more node arguments), PGHOST=127.0.0.1 PGPORT=5432 PGUSER=postgres
#   BENCH_DB=opledger_bench_relay (a run beside another one on the same server needs another, and another PORT)
#   START_S=120 (how long the node may take to start: more on a loaded machine)
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/../.."
EVENTS=${EVENTS:-20000}; BATCH=${BATCH:-500}; ROUNDS=${ROUNDS:-5}; PORT=${PORT:-18099}; NODE_ARGS=${NODE_ARGS:-}
NODE_OPTS=${NODE_OPTS:--Xms256m -Xmx384m}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
NODE_JAR=ui/target/opledger.jar; DB=${BENCH_DB:-opledger_bench_relay}; STAMP=$(date -u +%Y%m%dT%H%M%SZ)
OUT=bench/results; mkdir -p "$OUT"
WORK=$(mktemp -d); NODE_PID=""; BROKER_PID=""
cleanup() {
  local pid
  for pid in "$NODE_PID" "$BROKER_PID"; do
    if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi
  done
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "bench/relay: $*" >&2; exit 1; }

[ -f "$NODE_JAR" ] || ./mvnw -B -q -DskipTests -pl ui -am package
# RelayBench runs on the node's own libraries (EmbeddedBroker, the Kafka and PostgreSQL clients)
"$JAVA" -Djarmode=tools -jar "$NODE_JAR" extract --destination "$WORK/node" >/dev/null
CP="$WORK/node/lib/*"
bench() { "$JAVA" -cp "$CP" bench/relay/RelayBench.java "$@"; }
psql -q -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"

"$JAVA" -cp "$CP" bench/relay/RelayBench.java broker "$WORK/bootstrap" >"$WORK/broker.log" 2>&1 &
BROKER_PID=$!
for _ in $(seq 1 120); do [ -s "$WORK/bootstrap" ] && break; sleep 0.5; done
[ -s "$WORK/bootstrap" ] || { cat "$WORK/broker.log" >&2; fail "the broker did not start"; }
BOOTSTRAP=$(cat "$WORK/bootstrap")

# shellcheck disable=SC2086
"$JAVA" $NODE_OPTS -jar "$NODE_JAR" --spring.profiles.active=local --server.port="$PORT" \
  --spring.datasource.url="jdbc:postgresql://$PGHOST:$PGPORT/$DB" --spring.datasource.username="$PGUSER" \
  --spring.kafka.bootstrap-servers="$BOOTSTRAP" --opledger.events.batch-size="$BATCH" \
  --opledger.attest.mode=off --opledger.worker.enabled=false --opledger.feed.enabled=false \
  --opledger.reference-tools.embedded=false $NODE_ARGS --logging.level.root=WARN >"$WORK/node.log" 2>&1 &
NODE_PID=$!
for _ in $(seq 1 "${START_S:-120}"); do
  curl -fs "http://127.0.0.1:$PORT/actuator/health/readiness" >/dev/null && break
  kill -0 "$NODE_PID" 2>/dev/null || { cat "$WORK/node.log" >&2; fail "the node did not start"; }
  sleep 1
done
curl -fs "http://127.0.0.1:$PORT/actuator/health/readiness" >/dev/null \
  || { tail -n 20 "$WORK/node.log" >&2; fail "the node was not ready after START_S=${START_S:-120} s"; }
for _ in $(seq 1 60); do # the node's relay holds the election (and so has made the topic)
  [ "$(psql -Atq -d "$DB" -c "SELECT count(*) FROM outbox_relay WHERE holder IS NOT NULL AND expires_at > now()")" = 1 ] && break
  sleep 0.5
done

bench rounds "$BOOTSTRAP" "jdbc:postgresql://$PGHOST:$PGPORT/$DB" "$NODE_PID" "$BROKER_PID" "$EVENTS" "$BATCH" "$ROUNDS" \
  >"$WORK/rounds"
cat "$WORK/rounds" >&2
field() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" "$WORK/rounds"; }
median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
of() { field "$1" | median; }
{
  echo "## Relay benchmark, $STAMP"
  echo
  echo "$(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) at the end; $EVENTS events per round (value $(of value_bytes_avg) bytes on"
  echo "average, 7 ce_* headers), batches/transactions of $BATCH, medians of $ROUNDS rounds; node \`java $NODE_OPTS -jar $NODE_JAR\`"
  echo "(local profile, workers and feed off${NODE_ARGS:+, $NODE_ARGS}), broker a process of its own; PostgreSQL $(psql -Atc 'SHOW server_version' -d postgres)."
  echo
  echo "| relay events/s | bare producer events/s | ratio | relay CPU µs/event: node / broker / PostgreSQL | bare CPU µs/event: producer / broker |"
  echo "|---|---|---|---|---|"
  echo "| $(of relay_eps) | $(of bare_eps) | **$(of ratio)×** | $(of relay_node_cpu_us) / $(of relay_broker_cpu_us) / $(of relay_pg_cpu_us) | $(of bare_cpu_us) / $(of bare_broker_cpu_us) |"
  echo
  echo "Per round: relay $(field relay_eps | paste -sd/), bare $(field bare_eps | paste -sd/) events/s."
} | tee "$OUT/relay-$STAMP.md"
