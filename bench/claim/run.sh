#!/usr/bin/env bash
# The claim benchmark: the node's POST /v1/operations over HTTP (wrk, 16 connections) next to
# pgbench running the same SQL statement on the same server, in the same run, as ratios; and the
# status read GET /v1/operations/{id} by the same wrk clients (node only), to set beside a claim.
# See docs/benchmarks.md. Run from anywhere: ./opledger bench  (or bench/claim/run.sh).
#
# Then, per round, the MCP phase (issue 11): the same number of closed-loop clients, driven by the
# Java load driver (opledger-cli load), sending task-augmented tools/call of the checkout tool to
# /mcp (fresh operationIds, then repeats of created ones) next to the same driver's REST claims
# (fresh, then repeats), as ratios MCP / REST. MCP=0 leaves it out.
#
# Settings (environment): CLIENTS=16 WARMUP=20 DURATION=20 ROUNDS=3 PRELOAD=1000000 DUP_KEYS=1000
#   MCP=1 MCP_WARMUP=5 (the driver's own JVM warm-up per phase, the node is warm by then)
#   NODE_OPTS="-Xms256m -Xmx384m"  PGHOST=127.0.0.1 PGPORT=5432 PGUSER=postgres  PORT=18080  DB=opledger_bench
#   START_S=120 (how long the node may take to start: more on a loaded machine)
set -euo pipefail
cd "$(dirname "$0")/../.."

CLIENTS=${CLIENTS:-16}; WARMUP=${WARMUP:-20}; DURATION=${DURATION:-20}; ROUNDS=${ROUNDS:-3}
PRELOAD=${PRELOAD:-1000000}; DUP_KEYS=${DUP_KEYS:-1000}; PORT=${PORT:-18080}
MCP=${MCP:-1}; MCP_WARMUP=${MCP_WARMUP:-5}; START_S=${START_S:-120}
CLI=cli/target/opledger-cli.jar
NODE_OPTS=${NODE_OPTS:--Xms256m -Xmx384m}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
DB=${DB:-opledger_bench}
JAR=ui/target/opledger.jar
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
OUT=bench/results; mkdir -p "$OUT"
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
WORK=$(mktemp -d); mkfifo "$WORK/go"; trap 'kill $NODE_PID 2>/dev/null || true; rm -rf "$WORK"' EXIT
HZ=$(getconf CLK_TCK)

# A canonical (RFC 8785) body, so its SHA-256 is the payload hash the node computes; a checkout
# its schema accepts (operation-types/checkout.schema.json), or every request would be a 422.
# The node runs no workers: this measures the claim, and the preloaded and claimed ACCEPTED
# operations must not start running under it; nor the reference-tools server the local profile
# would otherwise start inside it (its memory would count in the node's RSS). App Attest is off
# (the local profile requires it now): this is the claim alone, bench/attest measures the attested path.
BODY='{"arguments":{"amount":12.5,"currency":"EUR","quantity":2,"recipient":"ann@example.com","sku":"A-1"},"type":"checkout"}'
HASH=$(printf '%s' "$BODY" | sha256sum | cut -d' ' -f1)
SUBJECT=bench

command -v wrk >/dev/null || { echo "needs wrk: apt-get install -y wrk" >&2; exit 1; }
command -v pgbench >/dev/null || { echo "needs pgbench (postgresql-client)" >&2; exit 1; }
[ -f "$JAR" ] || ./mvnw -B -q -DskipTests -pl ui -am package
[ "$MCP" = 0 ] || [ -f "$CLI" ] || ./mvnw -B -q -DskipTests -pl cli -am package

psql -q -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"

echo "starting the node ($NODE_OPTS)…" >&2
# shellcheck disable=SC2086
"$JAVA" $NODE_OPTS -jar "$JAR" --spring.profiles.active=local --server.port="$PORT" \
  --spring.datasource.url="jdbc:postgresql://$PGHOST:$PGPORT/$DB" --spring.datasource.username="$PGUSER" \
  --opledger.attest.mode=off --opledger.worker.enabled=false --opledger.reference-tools.embedded=false \
  --logging.level.root=WARN >"$WORK/node.log" 2>&1 &
NODE_PID=$!
for _ in $(seq 1 "$START_S"); do
  curl -fs "http://127.0.0.1:$PORT/actuator/health/readiness" >/dev/null && break
  kill -0 $NODE_PID 2>/dev/null || { cat "$WORK/node.log" >&2; exit 1; }
  sleep 1
done
curl -fs "http://127.0.0.1:$PORT/actuator/health/readiness" >/dev/null \
  || { tail -n 20 "$WORK/node.log" >&2; echo "the node was not ready after START_S=$START_S s" >&2; exit 1; }

echo "preloading $PRELOAD operations and $DUP_KEYS duplicates…" >&2
psql -q -d $DB <<SQL
INSERT INTO operation (subject_id, operation_id, payload_hash, command_type, command, status, created_at, updated_at)
SELECT 'preload-' || (i % 50000), gen_random_uuid(), decode('$HASH', 'hex'), 'checkout', '$BODY'::jsonb,
       CASE WHEN i % 1000 = 0 THEN 'NEEDS_REVIEW' ELSE 'SUCCEEDED' END, now() - make_interval(secs => $PRELOAD - i), now() - make_interval(secs => $PRELOAD - i)
FROM generate_series(1, $PRELOAD) i;
INSERT INTO operation (subject_id, operation_id, payload_hash, command_type, command)
SELECT '$SUBJECT', ('00000000-0000-4000-8000-' || lpad(i::text, 12, '0'))::uuid, decode('$HASH', 'hex'),
       'checkout', '$BODY'::jsonb
FROM generate_series(1, $DUP_KEYS) i;
VACUUM ANALYZE;
CHECKPOINT;
SQL

export TOKEN; TOKEN=$(scripts/local-token "$SUBJECT" 86400)
export BODY DUP_KEYS
check=$(curl -s -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
  -H 'Idempotency-Key: 00000000-0000-4000-8000-000000000001' -d "$BODY" "http://127.0.0.1:$PORT/v1/operations")
case "$check" in *"\"payloadHash\":\"$HASH\""*) ;; *) echo "the node's payload hash differs: $check" >&2; exit 1;; esac

node_ticks() { awk '{print $14 + $15}' "/proc/$NODE_PID/stat"; }
pg_ticks() { # live server processes, plus what exited backends left in the postmaster's child counters
  local postmaster total=0 pid
  postmaster=$(pgrep -u postgres -x postgres -o)
  for pid in $(pgrep -u postgres -x postgres); do
    total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)))
  done
  echo $((total + $(awk '{print $16 + $17}' "/proc/$postmaster/stat")))
}
rss_sampler() { local max=0 kb; while kill -0 $NODE_PID 2>/dev/null; do
  kb=$(awk '/VmRSS/ {print $2}' "/proc/$NODE_PID/status" 2>/dev/null || echo 0)
  if [ "${kb:-0}" -gt "$max" ]; then max=$kb; echo $max > "$WORK/rss"; fi; sleep 0.5; done; }

# wrk: prints "RESULT requests=… rps=… p50_ms=… p99_ms=… unexpected=… errors=…"
run_wrk() { MODE=$1 wrk -t2 -c"$CLIENTS" -d"$2"s --timeout 10s -s bench/claim/claim.lua "http://127.0.0.1:$PORT" \
  | grep '^RESULT'; }
run_pgbench() {
  java_cmd=("$JAVA" bench/claim/PgbenchScript.java "$1" "$DUP_KEYS")
  "${java_cmd[@]}" > "$WORK/$1.sql"
  (cd "$WORK" && pgbench -n -M prepared -c "$CLIENTS" -j 2 -T "$DURATION" -l --log-prefix="pg$1" -f "$1.sql" \
    -D subject=$SUBJECT -D hash="\\x$HASH" -D type=checkout -D command="$BODY" -D agent=pgbench \
    -D address=127.0.0.1 $DB > "$1.out" 2>&1) || { cat "$WORK/$1.out" >&2; exit 1; }
  local tps; tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$WORK/$1.out")
  # per-transaction latency (µs) is the 3rd column of pgbench's log
  cat "$WORK"/pg"$1".* | awk '{print $3}' | sort -n > "$WORK/lat"
  local n; n=$(wc -l < "$WORK/lat")
  printf 'RESULT rps=%s p50_ms=%.3f p99_ms=%.3f\n' "$tps" \
    "$(sed -n "$(( (n + 1) / 2 ))p" "$WORK/lat" | awk '{print $1/1000}')" \
    "$(sed -n "$(( (n * 99 + 99) / 100 ))p" "$WORK/lat" | awk '{print $1/1000}')"
  rm -f "$WORK"/pg"$1".*
}
field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p" <<<"$2"; }

echo "JIT warm-up: ${WARMUP}s of fresh claims…" >&2
run_wrk fresh "$WARMUP" >/dev/null
run_wrk duplicate 5 >/dev/null
run_wrk read 5 >/dev/null
rss_sampler & SAMPLER=$!

declare -A rps p50 p99 cpu_node cpu_pg
for round in $(seq 1 "$ROUNDS"); do
  for mode in fresh duplicate; do
    n0=$(node_ticks); p0=$(pg_ticks)
    r=$(run_wrk "$mode" "$DURATION")
    n1=$(node_ticks); p1=$(pg_ticks)
    [ "$(field unexpected "$r")" = 0 ] && [ "$(field errors "$r")" = 0 ] || { echo "wrong answers: $r" >&2; exit 1; }
    reqs=$(field requests "$r")
    rps[node,$mode,$round]=$(field rps "$r"); p50[node,$mode,$round]=$(field p50_ms "$r"); p99[node,$mode,$round]=$(field p99_ms "$r")
    cpu_node[$mode,$round]=$(awk -v t=$((n1 - n0)) -v r="$reqs" -v hz="$HZ" 'BEGIN {printf "%.1f", t / hz / r * 1e6}')
    cpu_pg[node,$mode,$round]=$(awk -v t=$((p1 - p0)) -v r="$reqs" -v hz="$HZ" 'BEGIN {printf "%.1f", t / hz / r * 1e6}')
    p0=$(pg_ticks)
    r=$(run_pgbench "$mode") && [ -n "$r" ] || { echo "pgbench failed" >&2; exit 1; }
    p1=$(pg_ticks)
    rps[pg,$mode,$round]=$(field rps "$r"); p50[pg,$mode,$round]=$(field p50_ms "$r"); p99[pg,$mode,$round]=$(field p99_ms "$r")
    cpu_pg[pg,$mode,$round]=$(awk -v t=$((p1 - p0)) -v r="$(field rps "$r")" -v d="$DURATION" -v hz="$HZ" \
      'BEGIN {printf "%.1f", t / hz / (r * d) * 1e6}')
    echo "round $round $mode: node ${rps[node,$mode,$round]}/s p99 ${p99[node,$mode,$round]} ms; pgbench ${rps[pg,$mode,$round]}/s" >&2
  done
  # The status read, GET /v1/operations/{id} of the seeded operations, by the same clients: its
  # node CPU against the claim's (issue 13: a read costs no more than a claim). No pgbench beside it.
  n0=$(node_ticks)
  r=$(run_wrk read "$DURATION")
  n1=$(node_ticks)
  [ "$(field unexpected "$r")" = 0 ] && [ "$(field errors "$r")" = 0 ] || { echo "wrong answers: $r" >&2; exit 1; }
  rps[node,read,$round]=$(field rps "$r"); p50[node,read,$round]=$(field p50_ms "$r"); p99[node,read,$round]=$(field p99_ms "$r")
  cpu_node[read,$round]=$(awk -v t=$((n1 - n0)) -v r="$(field requests "$r")" -v hz="$HZ" 'BEGIN {printf "%.1f", t / hz / r * 1e6}')
  echo "round $round read: node ${rps[node,read,$round]}/s p99 ${p99[node,read,$round]} ms" >&2
  # The MCP phase: the Java driver, REST and MCP alternating, fresh and repeated operations.
  for variant in rest,fresh mcp,fresh rest,duplicate mcp,duplicate; do
    [ "$MCP" = 0 ] && break
    channel=${variant%,*}; mode=${variant#*,}
    flags=(--mode "$([ "$channel" = rest ] && echo claim || echo mcp)")
    [ "$mode" = duplicate ] && flags+=(--duplicates)
    "$JAVA" -jar "$CLI" load --server "http://127.0.0.1:$PORT" --clients "$CLIENTS" --warmup "$MCP_WARMUP" \
      --duration "$DURATION" --hold "${flags[@]}" < "$WORK/go" > "$WORK/load.out" 2> "$WORK/load.err" &
    LOAD=$!
    exec {GO}>"$WORK/go"
    until grep -q WARMED "$WORK/load.out" 2>/dev/null; do
      kill -0 $LOAD 2>/dev/null || { cat "$WORK/load.out" "$WORK/load.err" >&2; exit 1; }; sleep 0.2
    done
    n0=$(node_ticks); p0=$(pg_ticks)
    echo go >&$GO
    wait $LOAD || { echo "the $variant load had wrong answers: $(cat "$WORK/load.out")" >&2; exit 1; }
    exec {GO}>&-
    n1=$(node_ticks); p1=$(pg_ticks)
    r=$(grep '^RESULT' "$WORK/load.out")
    calls=$(field claims "$r")
    rps[java,$variant,$round]=$(field rps "$r"); p50[java,$variant,$round]=$(field p50_ms "$r"); p99[java,$variant,$round]=$(field p99_ms "$r")
    cpu_node[java,$variant,$round]=$(awk -v t=$((n1 - n0)) -v r="$calls" -v hz="$HZ" 'BEGIN {printf "%.1f", t / hz / r * 1e6}')
    cpu_pg[java,$variant,$round]=$(awk -v t=$((p1 - p0)) -v r="$calls" -v hz="$HZ" 'BEGIN {printf "%.1f", t / hz / r * 1e6}')
    echo "round $round $channel $mode (Java driver): ${rps[java,$variant,$round]}/s p50 ${p50[java,$variant,$round]} p99 ${p99[java,$variant,$round]} ms" >&2
  done
done
kill $SAMPLER 2>/dev/null || true

# The console's ledger queries on the preloaded table (what LedgerService runs; no count query).
console_query_ms() { # median execution time of 5 runs, from EXPLAIN ANALYZE
  local i t=()
  for i in 1 2 3 4 5; do
    t+=("$(psql -At -d $DB -c "EXPLAIN (ANALYZE, FORMAT JSON) $1" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["Execution Time"])')")
  done
  median "${t[@]}"
}
console_queries() {
  local cols="id, subject_id, operation_id, payload_hash, command_type, status, created_at, updated_at"
  local some_op; some_op=$(psql -At -d $DB -c "SELECT operation_id FROM operation WHERE id = 4242")
  echo "| console query on $(psql -At -d $DB -c 'SELECT count(*) FROM operation') operations | ms (median of 5) |"
  echo "|---|---|"
  echo "| newest 50 | $(console_query_ms "SELECT $cols FROM operation ORDER BY id DESC LIMIT 50") |"
  echo "| 50 at offset 10 000 | $(console_query_ms "SELECT $cols FROM operation ORDER BY id DESC OFFSET 10000 LIMIT 50") |"
  echo "| status NEEDS_REVIEW (0.1 %), newest 50 | $(console_query_ms "SELECT $cols FROM operation WHERE status = 'NEEDS_REVIEW' ORDER BY id DESC LIMIT 50") |"
  echo "| status SUCCEEDED, newest 50 | $(console_query_ms "SELECT $cols FROM operation WHERE status = 'SUCCEEDED' ORDER BY id DESC LIMIT 50") |"
  echo "| one subject, newest 50 | $(console_query_ms "SELECT $cols FROM operation WHERE subject_id = 'preload-4242' ORDER BY id DESC LIMIT 50") |"
  echo "| by operationId | $(console_query_ms "SELECT $cols FROM operation WHERE operation_id = '$some_op' ORDER BY id DESC LIMIT 50") |"
}

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }
of() { local -n arr=$1; local key=$2 v=(); for round in $(seq 1 "$ROUNDS"); do v+=("${arr[$key,$round]}"); done; median "${v[@]}"; }

{
  echo "## Claim benchmark, $STAMP"
  echo
  echo "$(nproc) cores, $CLIENTS clients, ${DURATION}s × $ROUNDS rounds (medians), warm-up ${WARMUP}s, $PRELOAD preloaded operations;"
  echo "node: \`java $NODE_OPTS -jar $JAR\` (local profile); PostgreSQL $(psql -Atc 'SHOW server_version' -d postgres)."
  echo
  echo "| keys | node claims/s | pgbench tx/s | ratio | node p50 / p99 ms | pgbench p50 / p99 ms | node CPU µs/claim | PostgreSQL CPU µs/claim, node / pgbench |"
  echo "|---|---|---|---|---|---|---|---|"
  for mode in fresh duplicate; do
    nr=$(of rps "node,$mode"); pr=$(of rps "pg,$mode")
    printf '| %s | %.0f | %.0f | **%.2f×** | %s / %s | %s / %s | %s | %s |\n' "$mode" "$nr" "$pr" \
      "$(awk -v a="$nr" -v b="$pr" 'BEGIN {print a / b}')" "$(of p50 "node,$mode")" "$(of p99 "node,$mode")" \
      "$(of p50 "pg,$mode")" "$(of p99 "pg,$mode")" "$(of cpu_node "$mode")" "$(of cpu_pg "node,$mode") / $(of cpu_pg "pg,$mode")"
  done
  printf '| status read (GET) | %.0f reads/s | — | — | %s / %s | — | %s | — |\n' "$(of rps node,read)" \
    "$(of p50 node,read)" "$(of p99 node,read)" "$(of cpu_node read)"
  echo
  echo "Node RSS, peak during the measured runs: $(( $(cat "$WORK/rss") / 1024 )) MiB."
  echo
  if [ "$MCP" != 0 ]; then
    echo "MCP against REST, the same Java driver (\`opledger-cli load\`, $CLIENTS closed-loop clients, warm-up ${MCP_WARMUP}s per phase), same node, same run:"
    echo "REST is \`POST /v1/operations\` (202; repeats 200 \`Idempotent-Replayed\`), MCP a task-augmented \`tools/call\` of \`checkout\` to the CreateTaskResult (repeats: the same taskId)."
    echo
    echo "| operations | REST claims/s | MCP tasks/s | MCP / REST | REST p50 / p99 ms | MCP p50 / p99 ms | node CPU µs per call, REST / MCP | PostgreSQL CPU µs per call, REST / MCP |"
    echo "|---|---|---|---|---|---|---|---|"
    for mode in fresh duplicate; do
      rr=$(of rps "java,rest,$mode"); mr=$(of rps "java,mcp,$mode")
      printf '| %s | %.0f | %.0f | **%.2f×** | %s / %s | %s / %s | %s / %s | %s / %s |\n' "$mode" "$rr" "$mr" \
        "$(awk -v a="$mr" -v b="$rr" 'BEGIN {print a / b}')" "$(of p50 "java,rest,$mode")" "$(of p99 "java,rest,$mode")" \
        "$(of p50 "java,mcp,$mode")" "$(of p99 "java,mcp,$mode")" "$(of cpu_node "java,rest,$mode")" "$(of cpu_node "java,mcp,$mode")" \
        "$(of cpu_pg "java,rest,$mode")" "$(of cpu_pg "java,mcp,$mode")"
    done
    echo
    printf 'MCP fresh against the wrk-driven claim above: %.2f×; against pgbench fresh: %.2f×.\n' \
      "$(awk -v a="$(of rps java,mcp,fresh)" -v b="$(of rps node,fresh)" 'BEGIN {print a / b}')" \
      "$(awk -v a="$(of rps java,mcp,fresh)" -v b="$(of rps pg,fresh)" 'BEGIN {print a / b}')"
    echo
  fi
  console_queries
} | tee "$OUT/claim-$STAMP.md"
