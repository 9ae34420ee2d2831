#!/usr/bin/env bash
# Scale-out (issue 13): 1, 2 and 3 nodes on one database, each its own process on its own loopback
# port, the load driver's CLIENTS users spread over them (`opledger-cli load --mode checkout
# --server A,B,C`: user i on node i mod n; an operation runs on whichever node's worker leases
# it). One reference-tools process on its own database, and one Kafka broker as a process of its
# own (bench/relay/RelayBench.java broker) that every node publishes to, so no node carries a
# broker in its JVM. Per point: the closed loop's checkouts/s and p50/p99 (202 → SUCCEEDED,
# database clock), and the CPU the measured phase took, in cores (CPU seconds per second): all
# the nodes together, PostgreSQL, reference-tools, the broker — where it saturates. Between
# warm-up and measurement nothing is under way (the driver drains), as in bench/checkout/run.sh.
# Writes bench/results/scale-STAMP.md, .tsv (checkouts/s by nodes), -cpu.tsv (cores by process),
# and a PNG of each (bench/report's chart tool; skipped, and said, if it cannot be built).
#
# Settings (environment): SCALE_NODES="1 2 3" CLIENTS=16 WARMUP=15 DURATION=20 ROUNDS=1 WAIT=25
#   NODE_OPTS="-Xms256m -Xmx384m -XX:+UseParallelGC" (as bench/checkout/run.sh) TOOLS_OPTS="-Xms128m -Xmx256m"
#   BASE_PORT=18300 (node i on BASE_PORT+i)
#   TOOLS_PORT=18390 START_S=180 NODE_ARGS="" BENCH_DB=opledger_bench_scale (and _tools)
#   PGHOST=127.0.0.1 PGPORT=5432 PGUSER=postgres
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/../.."

SCALE_NODES=${SCALE_NODES:-1 2 3}; CLIENTS=${CLIENTS:-16}; WARMUP=${WARMUP:-15}; DURATION=${DURATION:-20}
ROUNDS=${ROUNDS:-1}; WAIT=${WAIT:-25}; START_S=${START_S:-180}; NODE_ARGS=${NODE_ARGS:-}
BASE_PORT=${BASE_PORT:-18300}; TOOLS_PORT=${TOOLS_PORT:-18390}
NODE_OPTS=${NODE_OPTS:--Xms256m -Xmx384m -XX:+UseParallelGC}; TOOLS_OPTS=${TOOLS_OPTS:--Xms128m -Xmx256m}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
NODE_JAR=${NODE_JAR:-ui/target/opledger.jar}; CLI_JAR=cli/target/opledger-cli.jar; TOOLS_JAR=reference-tools/target/reference-tools.jar
REPORT_JAR=bench/report/target/bench-report.jar
DB=${BENCH_DB:-opledger_bench_scale}; TOOLS_DB=${DB}_tools
HZ=$(getconf CLK_TCK); STAMP=$(date -u +%Y%m%dT%H%M%SZ)
OUT=bench/results; mkdir -p "$OUT"
WORK=$(mktemp -d); NODE_PIDS=(); TOOLS_PID=""; LOAD_PID=""; BROKER_PID=""
cleanup() {
  local pid
  for pid in "$LOAD_PID" "${NODE_PIDS[@]}" "$TOOLS_PID" "$BROKER_PID"; do
    if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi
  done
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "bench/checkout/scale: $*" >&2; exit 1; }
# psql folds an unquoted name to lower case and a JDBC URL does not: a name with capitals would
# be created as one database and looked for as another (reference-tools then fails to start)
[[ $DB =~ ^[a-z_][a-z0-9_]*$ ]] || fail "BENCH_DB=$DB: lower-case letters, digits and _ only"
BODY='{"type":"checkout","arguments":{"sku":"SKU-ESPRESSO","quantity":1,"amount":49.90,"currency":"EUR","recipient":"ann@example.com"}}'
if [ ! -f "$NODE_JAR" ] || [ ! -f "$CLI_JAR" ] || [ ! -f "$TOOLS_JAR" ]; then
  ./mvnw -B -q -DskipTests -pl ui,cli,reference-tools -am package
fi

now() { date +%s.%N; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
pg_ticks() { # the measured server's processes (its postmaster and children), plus what its exited backends left
  local postmaster total=0 pid
  # (every postgres process if its data directory cannot be read: then other servers' count too)
  postmaster=$(head -1 "$(psql -Atq -d postgres -c 'SHOW data_directory')/postmaster.pid" 2>/dev/null) \
    || postmaster=$(pgrep -u postgres -x postgres -o)
  for pid in "$postmaster" $(pgrep -P "$postmaster"); do
    total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)))
  done
  echo $((total + $(awk '{print $16 + $17}' "/proc/$postmaster/stat")))
}
nodes_ticks() { local pid total=0; for pid in "${NODE_PIDS[@]}"; do total=$((total + $(ticks "$pid"))); done; echo "$total"; }
field() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" <<<"$2"; }
calc() { awk "BEGIN {printf \"%.${2:-2}f\", $1}"; }
url() { echo "http://127.0.0.1:$((BASE_PORT + $1))"; }

"$JAVA" -Djarmode=tools -jar "$NODE_JAR" extract --destination "$WORK/node" >/dev/null
"$JAVA" -cp "$WORK/node/lib/*" bench/relay/RelayBench.java broker "$WORK/bootstrap" >"$WORK/broker.log" 2>&1 &
BROKER_PID=$!
for _ in $(seq 1 240); do [ -s "$WORK/bootstrap" ] && break; sleep 0.5; done
[ -s "$WORK/bootstrap" ] || { cat "$WORK/broker.log" >&2; fail "the broker did not start"; }
BOOTSTRAP=$(cat "$WORK/bootstrap")

psql -q -d postgres -c "DROP DATABASE IF EXISTS $TOOLS_DB WITH (FORCE)" -c "CREATE DATABASE $TOOLS_DB"
# shellcheck disable=SC2086
"$JAVA" $TOOLS_OPTS -jar "$TOOLS_JAR" --server.port="$TOOLS_PORT" --server.address=127.0.0.1 \
  --spring.datasource.url="jdbc:postgresql://$PGHOST:$PGPORT/$TOOLS_DB" --spring.datasource.username="$PGUSER" \
  --logging.level.root=WARN >"$WORK/tools.log" 2>&1 &
TOOLS_PID=$!
for _ in $(seq 1 "$START_S"); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$TOOLS_PORT/mcp")" != 000 ] && break
  kill -0 "$TOOLS_PID" 2>/dev/null || { cat "$WORK/tools.log" >&2; fail "reference-tools did not start"; }
  sleep 1
done

start_node() { # $1: index (1…)
  # shellcheck disable=SC2086
  "$JAVA" $NODE_OPTS -jar "$NODE_JAR" --spring.profiles.active=local --server.port="$((BASE_PORT + $1))" \
    --spring.datasource.url="jdbc:postgresql://$PGHOST:$PGPORT/$DB" --spring.datasource.username="$PGUSER" \
    --opledger.attest.mode=off --opledger.reference-tools.embedded=false \
    --opledger.mcp.servers.reference.url="http://127.0.0.1:$TOOLS_PORT/mcp" --spring.kafka.bootstrap-servers="$BOOTSTRAP" \
    $NODE_ARGS --logging.level.root=WARN >"$WORK/node$1.log" 2>&1 &
  NODE_PIDS+=("$!")
}
await_node() { # $1: index
  local pid=${NODE_PIDS[$(($1 - 1))]}
  for _ in $(seq 1 "$START_S"); do
    curl -fs "$(url "$1")/actuator/health/readiness" >/dev/null && return
    kill -0 "$pid" 2>/dev/null || { cat "$WORK/node$1.log" >&2; fail "node $1 did not start"; }
    sleep 1
  done
  cat "$WORK/node$1.log" >&2; fail "node $1 did not start in $START_S s"
}
stop_nodes() {
  local pid
  for pid in "${NODE_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${NODE_PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  NODE_PIDS=()
}
preflight() { # one checkout through each node first
  local token i
  token=$(scripts/local-token bench-preflight 600)
  for i in $(seq 1 "$1"); do
    curl -s -H "Authorization: Bearer $token" -H 'Content-Type: application/json' -H 'Prefer: wait=25' \
      -H "Idempotency-Key: $(cat /proc/sys/kernel/random/uuid)" -d "$BODY" "$(url "$i")/v1/operations" | grep -q '"status":"SUCCEEDED"' \
      || { tail -30 "$WORK/node$i.log" >&2; fail "a checkout through node $i did not succeed"; }
  done
}

point() { # $1: nodes; prints "key=value …"
  local n=$1 i servers="" max_id n0 n1 p0 p1 r0 r1 b0 b1 t0 t1 result stats
  psql -q -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"
  start_node 1; await_node 1 # the first one migrates the database; the others find it done
  for i in $(seq 2 "$n"); do start_node "$i"; done
  for i in $(seq 2 "$n"); do await_node "$i"; done
  preflight "$n"
  for i in $(seq 1 "$n"); do servers+="${servers:+,}$(url "$i")"; done
  rm -f "$WORK/go" "$WORK/load.out"; mkfifo "$WORK/go"; : >"$WORK/load.out"
  "$JAVA" -jar "$CLI_JAR" load --mode checkout --server "$servers" --clients "$CLIENTS" --warmup "$WARMUP" \
    --duration "$DURATION" --wait "$WAIT" --hold <"$WORK/go" >"$WORK/load.out" 2>"$WORK/load.err" &
  LOAD_PID=$!
  exec 3>"$WORK/go"
  until grep -q '^WARMED' "$WORK/load.out"; do
    kill -0 "$LOAD_PID" 2>/dev/null || { cat "$WORK/load.out" "$WORK/load.err" >&2; fail "the load driver stopped"; }
    sleep 0.2
  done
  max_id=$(psql -Atq -d "$DB" -c 'SELECT coalesce(max(id), 0) FROM operation')
  n0=$(nodes_ticks); p0=$(pg_ticks); r0=$(ticks "$TOOLS_PID"); b0=$(ticks "$BROKER_PID"); t0=$(now)
  echo go >&3; exec 3>&-
  wait "$LOAD_PID" || { cat "$WORK/load.out" "$WORK/load.err" >&2; fail "the load driver saw unexpected answers"; }
  LOAD_PID=""
  n1=$(nodes_ticks); p1=$(pg_ticks); r1=$(ticks "$TOOLS_PID"); b1=$(ticks "$BROKER_PID"); t1=$(now)
  result=$(grep '^RESULT' "$WORK/load.out")
  stats=$(psql -Atq -F ' ' -d "$DB" -c "WITH d AS (
      SELECT extract(epoch FROM s.occurred_at - o.created_at) * 1000 AS total, r.node_id
      FROM operation o JOIN operation_transition s ON s.operation_ref = o.id AND s.to_status = 'SUCCEEDED'
      JOIN LATERAL (SELECT node_id FROM operation_transition WHERE operation_ref = o.id AND to_status = 'RUNNING'
                    ORDER BY id LIMIT 1) r ON true
      WHERE o.id > $max_id)
    SELECT round(percentile_disc(0.5) WITHIN GROUP (ORDER BY total)::numeric, 1),
           round(percentile_disc(0.99) WITHIN GROUP (ORDER BY total)::numeric, 1), count(DISTINCT node_id) FROM d")
  read -r p50 p99 ran_on <<<"$stats"
  printf 'nodes=%s rps=%s p50=%s p99=%s client_p50=%s client_p99=%s ran_on=%s node_cores=%s pg_cores=%s tools_cores=%s broker_cores=%s load1=%s\n' \
    "$n" "$(field rps "$result")" "$p50" "$p99" "$(field p50_ms "$result")" "$(field p99_ms "$result")" "$ran_on" \
    "$(calc "($n1 - $n0) / $HZ / ($t1 - $t0)")" "$(calc "($p1 - $p0) / $HZ / ($t1 - $t0)")" \
    "$(calc "($r1 - $r0) / $HZ / ($t1 - $t0)")" "$(calc "($b1 - $b0) / $HZ / ($t1 - $t0)")" "$(cut -d' ' -f1 /proc/loadavg)"
  stop_nodes
}

declare -A points
for round in $(seq 1 "$ROUNDS"); do
  for n in $SCALE_NODES; do
    point "$n" >"$WORK/point"
    points[$n,$round]=$(cat "$WORK/point")
    echo "round $round, $n node(s) → ${points[$n,$round]}" >&2
  done
done

median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
of() { local n=$1 key=$2 round; for round in $(seq 1 "$ROUNDS"); do field "$key" " ${points[$n,$round]}"; done | median; }
per_round() { local n=$1 key=$2 round; for round in $(seq 1 "$ROUNDS"); do field "$key" " ${points[$n,$round]}"; done | paste -sd/; }

TSV=$OUT/scale-$STAMP.tsv; CPU_TSV=$OUT/scale-$STAMP-cpu.tsv
{
  printf 'series\tnodes\tcheckouts/s\n'
  for n in $SCALE_NODES; do printf 'checkouts/s (median of %s)\t%s\t%s\n' "$ROUNDS" "$n" "$(of "$n" rps)"; done
} >"$TSV"
{
  printf 'series\tnodes\tcores\n'
  for key in node_cores:"the nodes" pg_cores:PostgreSQL tools_cores:reference-tools broker_cores:"Kafka broker"; do
    for n in $SCALE_NODES; do printf '%s\t%s\t%s\n' "${key#*:}" "$n" "$(of "$n" "${key%%:*}")"; done
  done
} >"$CPU_TSV"
charts="no PNG: bench/report's chart tool could not be built"
if [ -f "$REPORT_JAR" ] || ./mvnw -B -q -DskipTests -Pbench -pl bench/report package >"$WORK/report-build.log" 2>&1; then
  "$JAVA" -jar "$REPORT_JAR" --title "Checkouts/s by nodes on one database ($(nproc) cores, $CLIENTS clients)" \
    --x-label nodes --y-label checkouts/s --bars --out "${TSV%.tsv}.png" "$TSV"
  "$JAVA" -jar "$REPORT_JAR" --title "CPU during the measured phase, by nodes (cores = CPU s per s)" \
    --x-label nodes --y-label cores --bars --out "${CPU_TSV%.tsv}.png" "$CPU_TSV"
  charts="${TSV%.tsv}.png, ${CPU_TSV%.tsv}.png"
fi

{
  echo "## Scale-out, $STAMP"
  echo
  echo "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; $CLIENTS clients spread over the nodes, ${DURATION} s × $ROUNDS rounds (medians), warm-up ${WARMUP} s;"
  echo "nodes \`java $NODE_OPTS -jar $NODE_JAR\` (local profile, attest off, broker a process of its own${NODE_ARGS:+, $NODE_ARGS}) on one database; PostgreSQL $(psql -Atc 'SHOW server_version' -d postgres)."
  echo
  echo "| nodes | checkouts/s | 202 → SUCCEEDED p50 / p99 ms | client-seen p50 / p99 ms | nodes that ran operations | CPU cores: nodes / PostgreSQL / reference-tools / broker | load average (1 min) per round |"
  echo "|---|---|---|---|---|---|---|"
  for n in $SCALE_NODES; do
    echo "| $n | $(of "$n" rps) ($(per_round "$n" rps)) | $(of "$n" p50) / $(of "$n" p99) | $(of "$n" client_p50) / $(of "$n" client_p99) | $(of "$n" ran_on) | $(of "$n" node_cores) / $(of "$n" pg_cores) / $(of "$n" tools_cores) / $(of "$n" broker_cores) | $(per_round "$n" load1) |"
  done
  echo
  echo "TSV: $TSV, $CPU_TSV; charts: $charts."
} | tee "$OUT/scale-$STAMP.md"
