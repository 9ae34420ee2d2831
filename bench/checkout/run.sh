#!/usr/bin/env bash
# The checkout benchmark, end to end: checkouts submitted through the API and run by the node's
# workers against reference-tools (a separate process on its own database), next to the claim
# alone from the same run. Rounds alternate:
#   claim     the node with its workers off; `opledger-cli load --mode claim` claims new checkouts as
#             fast as CLIENTS users can: the baseline, claims/s
#   checkout  the node with its workers on; `opledger-cli load --mode checkout` runs a closed loop of
#             CLIENTS users, each submitting a checkout with `Prefer: wait=WAIT`, so the node answers
#             when it has ended (WAIT=0: reading it until it has ended instead, at least POLL_MS
#             apart): operations/s, time from 202 to SUCCEEDED (database timestamps), commits and
#             CPU per operation
#   dbos      the DBOS peer (bench/dbos-peer, bench/checkout/dbos.sh) instead of the node: the same
#             three steps as a DBOS workflow against the same reference-tools, the same closed loop;
#             reported beside the checkout with the ratios opledger/DBOS
#   limit     (issue 13, not in the default PHASES; bench/checkout/limit.sh) pgbench replaying the
#             database work one checkout must do, from the statements the node and reference-tools
#             issued (bench/checkout/checkout-statements.log): the physical limit, checkouts/s
#   open      (issue 13, not in the default PHASES; after checkout) the node as in checkout, driven by
#             an open loop (`load --rate`) at OPEN_RATIO of this round's closed-loop checkouts/s:
#             latency from the scheduled send time, at a load below the maximum
# Between warm-up and measurement, and after it, the driver lets every operation under way end and
# the script waits SETTLE seconds, because PostgreSQL publishes a backend's commit counts late
# (see docs/benchmarks.md). Medians of ROUNDS rounds.
#
# Settings (environment): CLIENTS=16 WARMUP=20 (a quick look; 180 for the node's steady state on
#   2 cores, see the report's JIT line) DURATION=20 ROUNDS=3 WAIT=25 POLL_MS=20 SETTLE=12 IDLE=6
#   NODE_OPTS="-Xms256m -Xmx384m -XX:+UseParallelGC" (the parallel collector: ~70 MB less resident
#   memory than G1, no throughput difference the runs could tell; docs/benchmarks.md, issue 13's
#   thirteenth session) TOOLS_OPTS="-Xms128m -Xmx256m" PORT=18097 TOOLS_PORT=18098
#   START_S=120 (how long a process may take to start: more on a loaded machine)
#   NODE_ARGS="" (more node arguments, e.g. --opledger.worker.concurrency=16), READS=1000 READ_S=10
#   DBOS_PORT=18099 DBOS_OPTS=$NODE_OPTS BENCH_DB=opledger_bench_checkout (and _claims, _tools, _dbos)
#   TOOLS_WARMUP=5000 (checkouts' three tool calls sent straight to reference-tools once it has started,
#   by the DBOS peer's jar, `warm-tools`: its JIT warm-up, so that no phase pays it; 0: none, as before
#   issue 13's "the tool server's 3×", when the first phase to load it, the checkout, paid it all)
#   PGHOST=127.0.0.1 PGPORT=5432 PGUSER=postgres
#   PHASES="claim checkout dbos" (each round, in this order; issue 13: "claim checkout dbos limit open")
#   OPEN_RATIO=0.5 LIMIT_WARMUP=5 (bench/checkout/limit.sh)
#   PGSS=0|1 PGSS_TOP=25 (bench/checkout/pgss.sh: per-statement counts of each checkout and dbos phase from
#   pg_stat_statements, for a server of one's own that loads it, e.g. PGPORT=… of a private cluster)
#   BROKER=embedded (the local profile's Kafka broker inside the node's JVM, its threads' CPU told apart
#   by name) | external (a broker process of its own, bench/relay/RelayBench.java broker, as a deployed
#   node has: the node's CPU is then the node's alone, the broker's process is measured beside it)
# Every checkout and open phase also writes the node's CPU per operation by thread
# (bench/results/threads-STAMP-PHASE-ROUND.txt) and reports the node's resident memory (VmHWM, the peak, and VmRSS
# at the end of the phase, from /proc).
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/../.."

PHASES=${PHASES:-claim checkout dbos}
CLIENTS=${CLIENTS:-16}; WARMUP=${WARMUP:-20}; DURATION=${DURATION:-20}; ROUNDS=${ROUNDS:-3}
START_S=${START_S:-120}; TOOLS_WARMUP=${TOOLS_WARMUP:-5000}; WAIT=${WAIT:-25}; POLL_MS=${POLL_MS:-20}; SETTLE=${SETTLE:-12}; IDLE=${IDLE:-6}; READS=${READS:-1000}; READ_S=${READ_S:-10}
PORT=${PORT:-18097}; TOOLS_PORT=${TOOLS_PORT:-18098}; NODE_ARGS=${NODE_ARGS:-}; BROKER=${BROKER:-embedded}
NODE_OPTS=${NODE_OPTS:--Xms256m -Xmx384m -XX:+UseParallelGC}; TOOLS_OPTS=${TOOLS_OPTS:--Xms128m -Xmx256m}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
NODE_JAR=${NODE_JAR:-ui/target/opledger.jar}; CLI_JAR=cli/target/opledger-cli.jar; TOOLS_JAR=reference-tools/target/reference-tools.jar
# The checkout rounds and the claim rounds each have their own database: the claims of a claim
# round stay ACCEPTED, and workers must not find them in a checkout round.
# DB names them all (a run beside another one on the same server needs another DB, and other ports).
DB=${BENCH_DB:-opledger_bench_checkout}; CLAIM_DB=${DB}_claims; TOOLS_DB=${DB}_tools
HZ=$(getconf CLK_TCK); STAMP=$(date -u +%Y%m%dT%H%M%SZ)
OUT=bench/results; mkdir -p "$OUT"
WORK=$(mktemp -d); NODE_PID=""; TOOLS_PID=""; LOAD_PID=""; DBOS_PID=""; BROKER_PID=""
cleanup() {
  local pid
  for pid in "$LOAD_PID" "$NODE_PID" "$DBOS_PID" "$TOOLS_PID" "$BROKER_PID"; do
    if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi
  done
  rm -rf "$WORK"
}
trap cleanup EXIT
BODY='{"type":"checkout","arguments":{"sku":"SKU-ESPRESSO","quantity":1,"amount":49.90,"currency":"EUR","recipient":"ann@example.com"}}'

fail() { echo "bench/checkout: $*" >&2; exit 1; }
# psql folds an unquoted name to lower case and a JDBC URL does not: a name with capitals would
# be created as one database and looked for as another (reference-tools then fails to start)
[[ $DB =~ ^[a-z_][a-z0-9_]*$ ]] || fail "BENCH_DB=$DB: lower-case letters, digits and _ only"
# shellcheck source=bench/checkout/dbos.sh
source bench/checkout/dbos.sh
# shellcheck source=bench/checkout/limit.sh
source bench/checkout/limit.sh
# shellcheck source=bench/checkout/pgss.sh
source bench/checkout/pgss.sh
has_phase() { [[ " $PHASES " == *" $1 "* ]]; }
# the claim phase's status reads are driven by wrk (bench/claim/claim.lua), as the claim benchmark's
if has_phase claim && ! command -v wrk >/dev/null; then echo "needs wrk: apt-get install -y wrk" >&2; exit 1; fi
if [ ! -f "$NODE_JAR" ] || [ ! -f "$CLI_JAR" ] || [ ! -f "$TOOLS_JAR" ]; then
  ./mvnw -B -q -DskipTests -pl ui,cli,reference-tools -am package
fi
if has_phase dbos || [ "$TOOLS_WARMUP" -gt 0 ]; then dbos_build; fi
for db in "$DB" "$CLAIM_DB" "$TOOLS_DB" "$DBOS_DB" "$LIMIT_DB"; do
  psql -q -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db"
done
pgss_check

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
# The local profile's node runs an Apache Kafka broker in its own JVM (node.kafka): its threads'
# ticks, told apart by their names (Linux keeps the first 15 characters), so the node's own CPU
# can be given without the broker's, which a deployed node does not carry (the DBOS peer has
# none). A broker thread that exited during the phase is counted as the node's.
BROKER_THREADS='^(data-plane-kafk|ExpirationReape|group-coordinat|share-coordinat|share-group-loc|controller-|broker-|kafka-[0-9]|kafka-scheduler|kafka-log-clean|transaction-log|raft-expiration|quorum-controll|persister-state|TxnMarkerSender|AddPartitionsTo|executor-|LogDirFailureHa|ReplicaFetcher)'
thread_ticks() { # $1: pid, $2: the threads' names (an extended regex)
  local task total=0 rest
  for task in /proc/"$1"/task/*; do
    if grep -Eq "$2" "$task/comm" 2>/dev/null && rest=$(sed 's/.*) //' "$task/stat" 2>/dev/null); then
      total=$((total + $(awk '{print $12 + $13}' <<<"$rest")))
    fi
  done
  echo "$total"
}
broker_ticks() { # an external broker: its whole process
  if [ -n "$BROKER_PID" ]; then ticks "$BROKER_PID"; else thread_ticks "$1" "$BROKER_THREADS"; fi
}
# The JIT compiler's threads (HotSpot's C1 and C2 CompilerThreadN): a fixed amount of work per
# process, compiling what has become hot, that a short warm-up leaves inside the measurement and
# that falls per operation with the operations measured; told apart so the path's own CPU can be
# read without it (issue 13: a third of the node's CPU after a 10 s warm-up, docs/benchmarks.md).
jit_ticks() { thread_ticks "$1" '^C[12] CompilerThre'; }
# Every thread of a process: "tid|name|ticks" lines (bench/node-cpu/threads.py reads two of them:
# the node's CPU per checkout by thread, written beside the phase's results as threads-STAMP-PHASE-ROUND.txt).
thread_snapshot() {
  local task comm rest
  for task in /proc/"$1"/task/*; do
    comm=$(cat "$task/comm" 2>/dev/null) && rest=$(sed 's/.*) //' "$task/stat" 2>/dev/null) || continue
    echo "${task##*/}|$comm|$(awk '{print $12 + $13}' <<<"$rest")"
  done
}
# reference-tools' ticks by thread, "jit gc carriers" (issue 13: why its CPU per checkout was 3.1× the
# DBOS peer's for the same three calls): its JIT compiler's threads; the garbage collector's (and the VM
# thread's); and the carriers of its virtual threads (ForkJoinPool-N-worker-M), on which every request is
# served (reference-tools runs Tomcat on virtual threads). The rest is Tomcat's poller and acceptor,
# HikariCP's housekeeping, JFR and the like. Live threads only, as thread_ticks.
tool_split() {
  local task comm rest t jit=0 gc=0 carriers=0
  for task in /proc/"$TOOLS_PID"/task/*; do
    comm=$(cat "$task/comm" 2>/dev/null) && rest=$(sed 's/.*) //' "$task/stat" 2>/dev/null) || continue
    t=$(awk '{print $12 + $13}' <<<"$rest")
    case "$comm" in
      "C1 CompilerThre"* | "C2 CompilerThre"*) jit=$((jit + t)) ;;
      "GC Thread"* | "G1 "* | "VM Thread") gc=$((gc + t)) ;;
      ForkJoinPool-*) carriers=$((carriers + t)) ;;
    esac
  done
  echo "$jit $gc $carriers"
}
# Per operation from two tool_split readings and the measured phase's ticks: "tool_jit_cpu_us=… …".
# $1, $2: the readings, $3: the operations, $4: the tool server's idle ticks per second (read with no
# load), $5: the phase's seconds. tool_less_idle_cpu_us is its CPU less what it spends idle at that rate.
tool_fields() {
  local a b
  read -ra a <<<"$1"; read -ra b <<<"$2"
  printf 'tool_jit_cpu_us=%s tool_gc_cpu_us=%s tool_carrier_cpu_us=%s tool_idle_us_per_s=%s tool_idle_cpu_us=%s' \
    "$(calc "(${b[0]} - ${a[0]}) / $HZ / $3 * 1e6" 0)" "$(calc "(${b[1]} - ${a[1]}) / $HZ / $3 * 1e6" 0)" \
    "$(calc "(${b[2]} - ${a[2]}) / $HZ / $3 * 1e6" 0)" "$(calc "$4 / $HZ * 1e6" 0)" "$(calc "$4 * $5 / $HZ / $3 * 1e6" 0)"
}
field() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" <<<"$2"; }
calc() { awk "BEGIN {printf \"%.${2:-2}f\", $1}"; }
# Commits PostgreSQL has published for a database, read from another database so reading adds none.
commits() { psql -Atq -d postgres -c "SELECT xact_commit FROM pg_stat_database WHERE datname = '$1'"; }
url() { echo "http://127.0.0.1:$PORT$1"; }

start_tools() {
  # shellcheck disable=SC2086
  "$JAVA" $TOOLS_OPTS -jar "$TOOLS_JAR" --server.port="$TOOLS_PORT" --server.address=127.0.0.1 \
    --spring.datasource.url="jdbc:postgresql://$PGHOST:$PGPORT/$TOOLS_DB" --spring.datasource.username="$PGUSER" \
    --logging.level.root=WARN >"$WORK/tools.log" 2>&1 &
  TOOLS_PID=$!
  for _ in $(seq 1 "$START_S"); do
    # any HTTP answer on /mcp means the server is up (a bare GET is not an MCP request)
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$TOOLS_PORT/mcp")" != 000 ] && return
    kill -0 "$TOOLS_PID" 2>/dev/null || { cat "$WORK/tools.log" >&2; fail "reference-tools did not start"; }
    sleep 1
  done
  cat "$WORK/tools.log" >&2; fail "reference-tools did not start in $START_S s"
}

start_node() { # $1: workers true|false, $2: database
  # shellcheck disable=SC2086
  "$JAVA" $NODE_OPTS -jar "$NODE_JAR" --spring.profiles.active=local --server.port="$PORT" \
    --spring.datasource.url="jdbc:postgresql://$PGHOST:$PGPORT/$2" --spring.datasource.username="$PGUSER" \
    --opledger.attest.mode=off --opledger.worker.enabled="$1" \
    --opledger.reference-tools.embedded=false --opledger.mcp.servers.reference.url="http://127.0.0.1:$TOOLS_PORT/mcp" \
    $NODE_ARGS --logging.level.root=WARN >"$WORK/node.log" 2>&1 &
  NODE_PID=$!
  for _ in $(seq 1 "$START_S"); do
    curl -fs "$(url /actuator/health/readiness)" >/dev/null && return
    kill -0 "$NODE_PID" 2>/dev/null || { cat "$WORK/node.log" >&2; fail "the node did not start"; }
    sleep 1
  done
  cat "$WORK/node.log" >&2; fail "the node did not start in $START_S s"
}
stop_node() { kill "$NODE_PID"; wait "$NODE_PID" 2>/dev/null || true; NODE_PID=""; }

submit() { # $1: token; prints the new operation's id after its 202
  local id status
  id=$(cat /proc/sys/kernel/random/uuid)
  status=$(curl -s -o "$WORK/submit.json" -w '%{http_code}' -H "Authorization: Bearer $1" \
    -H 'Content-Type: application/json' -H "Idempotency-Key: $id" -d "$BODY" "$(url /v1/operations)")
  [ "$status" = 202 ] || fail "a checkout was answered $status: $(cat "$WORK/submit.json")"
  echo "$id"
}

# One checkout through the whole path before measuring anything: a stale jar or an unreachable
# tool server fails here, with the reason, rather than as a run of timeouts.
preflight() {
  local token id body=""
  token=$(scripts/local-token bench-preflight 600)
  id=$(submit "$token")
  for _ in $(seq 1 300); do
    body=$(curl -s -H "Authorization: Bearer $token" "$(url "/v1/operations/$id")")
    case "$body" in *'"status":"SUCCEEDED"'*) return ;; *'"status":"ACCEPTED"'* | *'"status":"RUNNING"'*) sleep 0.2 ;;
      *) break ;; esac
  done
  tail -50 "$WORK/node.log" >&2
  fail "a checkout did not reach SUCCEEDED: $body (is $NODE_JAR older than the checkout graph? rebuild it)"
}

# What one GET /v1/operations/{id} costs the node, on a node without workers (nothing else runs):
# $READS reads of one operation over one connection (the path's first use), then wrk's $CLIENTS
# connections reading it for READ_S seconds to warm it up and READ_S seconds measured, as the claim
# phase's clients claim (issue 13 sets a read beside a claim: the same load, the same warm path).
# Commits between two settled counter readings, over every read; CPU ticks around the measured
# wrk run. $1: the operation's owner's token, $2: its id, $3: the counter, already settled.
# Prints "commits_per_read=… cpu_us_per_read=…".
calibrate_reads() {
  local ok c t0 t1 warm measured
  ok=$(curl -s -o /dev/null -w '%{http_code}\n' -H "Authorization: Bearer $1" "$(url "/v1/operations/$2")?n=[1-$READS]" | grep -c '^200$' || true)
  [ "$ok" = "$READS" ] || fail "only $ok of $READS status reads were answered 200"
  read_wrk() {
    local r; r=$(MODE=read READ_ID=$2 TOKEN=$1 wrk -t2 -c"$CLIENTS" -d"$READ_S"s --timeout 10s -s bench/claim/claim.lua \
      "$(url "")" | grep '^RESULT')
    [ "$(field unexpected "$r")" = 0 ] && [ "$(field errors "$r")" = 0 ] || fail "wrong answers to status reads: $r"
    field requests "$r"
  }
  warm=$(read_wrk "$@")
  t0=$(ticks "$NODE_PID")
  measured=$(read_wrk "$@")
  t1=$(ticks "$NODE_PID")
  sleep "$SETTLE"
  c=$(commits "$CLAIM_DB")
  echo "commits_per_read=$(calc "($c - $3) / ($READS + $warm + $measured)" 3) cpu_us_per_read=$(calc "($t1 - $t0) / $HZ / $measured * 1e6" 0)"
}

# One measured phase; prints "key=value …" for the tables. $1: claim|checkout, $2: round.
# Run it in this shell (not in $(…)), so that the exit trap knows the processes it started.
phase() {
  local mode=$1 round=$2 db workers max_id i0 i1 ti0 ti1 n0 n1 b0 b1 j0 j1 r0 r1 p0 p1 s0 s1 t_end c1 tc1 result
  local ops idle node_commits pi0 pi1 reads_token="" reads_id="" load_mode=$mode rate_args=() rss ri0 ri1 ts0 ts1 t_go
  if [ "$mode" = claim ]; then db=$CLAIM_DB workers=false; else db=$DB workers=true; fi
  if [ "$mode" = open ]; then load_mode=checkout rate_args=(--rate "$(open_rate "$round")"); fi
  start_node "$workers" "$db"
  if [ "$mode" != claim ]; then preflight; fi
  if [ "$mode" = claim ] && [ "$round" = 1 ]; then
    reads_token=$(scripts/local-token bench-reads 3600); reads_id=$(submit "$reads_token")
  fi
  # emptied here, not by the driver's redirection: that happens in the background, and the wait
  # below could see the last phase's WARMED before it
  rm -f "$WORK/go" "$WORK/load.out"; mkfifo "$WORK/go"; : >"$WORK/load.out"
  "$JAVA" -jar "$CLI_JAR" load --mode "$load_mode" "${rate_args[@]}" --server "$(url '')" --clients "$CLIENTS" --warmup "$WARMUP" \
    --duration "$DURATION" --wait "$WAIT" --poll-ms "$POLL_MS" --hold <"$WORK/go" >"$WORK/load.out" 2>"$WORK/load.err" &
  LOAD_PID=$!
  exec 3>"$WORK/go"
  until grep -q '^WARMED' "$WORK/load.out"; do
    kill -0 "$LOAD_PID" 2>/dev/null || { cat "$WORK/load.out" "$WORK/load.err" >&2; fail "the load driver stopped"; }
    sleep 0.2
  done
  # Nothing is under way now. The measured operations are the ones after the newest so far.
  max_id=$(psql -Atq -d "$db" -c 'SELECT coalesce(max(id), 0) FROM operation')
  sleep "$SETTLE"                                    # every idle backend has published its counts
  i0=$(commits "$db"); ti0=$(now); ri0=$(ticks "$TOOLS_PID"); pi0=$(pg_ticks)
  sleep "$IDLE"                                      # what the idle node commits by itself (worker polls)
  i1=$(commits "$db"); ti1=$(now); s0=$(commits "$TOOLS_DB"); ri1=$(ticks "$TOOLS_PID"); pi1=$(pg_ticks)
  ts0=$(tool_split)
  if [ "$mode" != claim ]; then pgss_begin "$db" "$TOOLS_DB"; fi
  thread_snapshot "$NODE_PID" >"$WORK/threads0"
  n0=$(ticks "$NODE_PID"); b0=$(broker_ticks "$NODE_PID"); j0=$(jit_ticks "$NODE_PID"); r0=$(ticks "$TOOLS_PID"); p0=$(pg_ticks); t_go=$(now)
  echo go >&3; exec 3>&-
  wait "$LOAD_PID" || { cat "$WORK/load.out" "$WORK/load.err" >&2; fail "the load driver saw unexpected answers"; }
  LOAD_PID=""
  # for bench/relay/lag.sh: the phase's measured operations, by their ids in its database
  if [ -n "${PHASE_LOG:-}" ]; then
    echo "$mode $round $db $max_id $(psql -Atq -d "$db" -c 'SELECT coalesce(max(id), 0) FROM operation')" >>"$PHASE_LOG"
  fi
  n1=$(ticks "$NODE_PID"); b1=$(broker_ticks "$NODE_PID"); j1=$(jit_ticks "$NODE_PID"); r1=$(ticks "$TOOLS_PID"); p1=$(pg_ticks); t_end=$(now); rss=$(rss_mb "$NODE_PID")
  ts1=$(tool_split); thread_snapshot "$NODE_PID" >"$WORK/threads1"
  result=$(grep '^RESULT' "$WORK/load.out")
  if [ "$mode" != claim ]; then pgss_statements "$mode-$round" "$(field operations "$result")"; fi
  sleep "$SETTLE"
  c1=$(commits "$db"); tc1=$(now); s1=$(commits "$TOOLS_DB")
  if [ "$mode" != claim ]; then pgss_end "$mode-$round" "$(field operations "$result")" "$db" "$TOOLS_DB"; fi
  idle=$(calc "($i1 - $i0) / ($ti1 - $ti0)" 3)
  # the idle node's own commits while it waited for the counters to settle are not the operations'
  node_commits=$(calc "$c1 - $i1 - $idle * ($tc1 - $t_end)" 1)
  echo "round $round $mode: $result idle_commits_per_s=$idle" >&2
  if [ "$mode" = claim ]; then
    ops=$(field claims "$result")
    printf 'rps=%s idle_per_s=%s commits_per_op=%s cpu_us=%s pg_cpu_us=%s' "$(field rps "$result")" "$idle" "$(calc "$node_commits / $ops" 3)" \
      "$(calc "($n1 - $n0) / $HZ / $ops * 1e6" 0)" "$(calc "($p1 - $p0) / $HZ / $ops * 1e6" 0)"
    if [ -n "$reads_id" ]; then
      local read_cost; read_cost=$(calibrate_reads "$reads_token" "$reads_id" "$c1")
      printf ' %s' "$read_cost"
    fi
    echo
  else
    ops=$(field operations "$result")
    python3 bench/node-cpu/threads.py "$WORK/threads0" "$WORK/threads1" "$ops" >"$OUT/threads-$STAMP-$mode-$round.txt"
    local ends stats rows
    ends=$(psql -Atq -d "$db" -c "SELECT string_agg(status || ':' || n, ',') FROM (SELECT status, count(*) n FROM operation WHERE id > $max_id GROUP BY status) s")
    [ "$ends" = "SUCCEEDED:$ops" ] || fail "the measured operations ended $ends, the driver counted $ops"
    # 202 → SUCCEEDED, split at the first RUNNING: waiting for a worker, then the run
    stats=$(psql -Atq -F ' ' -d "$db" -c "WITH d AS (
        SELECT extract(epoch FROM s.occurred_at - o.created_at) * 1000 AS total,
               extract(epoch FROM r.occurred_at - o.created_at) * 1000 AS queued,
               extract(epoch FROM s.occurred_at - r.occurred_at) * 1000 AS ran
        FROM operation o
        JOIN operation_transition s ON s.operation_ref = o.id AND s.to_status = 'SUCCEEDED'
        JOIN LATERAL (SELECT occurred_at FROM operation_transition WHERE operation_ref = o.id AND to_status = 'RUNNING'
                      ORDER BY id LIMIT 1) r ON true
        WHERE o.id > $max_id)
      SELECT round(percentile_disc(0.5) WITHIN GROUP (ORDER BY total)::numeric, 1),
             round(percentile_disc(0.99) WITHIN GROUP (ORDER BY total)::numeric, 1),
             round(percentile_disc(0.5) WITHIN GROUP (ORDER BY queued)::numeric, 1),
             round(percentile_disc(0.99) WITHIN GROUP (ORDER BY queued)::numeric, 1),
             round(percentile_disc(0.5) WITHIN GROUP (ORDER BY ran)::numeric, 1),
             round(percentile_disc(0.99) WITHIN GROUP (ORDER BY ran)::numeric, 1)
      FROM d")
    [ "$(wc -w <<<"$stats")" = 6 ] || fail "no latencies for the measured operations: $stats"
    rows=$(psql -Atq -F ' ' -d "$db" -c "SELECT
        round((SELECT count(*) FROM operation_transition WHERE operation_ref > $max_id)::numeric / $ops, 2),
        round((SELECT count(*) FROM effect_record WHERE operation_ref > $max_id)::numeric / $ops, 2),
        round((SELECT count(*) FROM graph_checkpoint c JOIN operation o ON o.operation_id = c.thread_id
               WHERE o.id > $max_id)::numeric / $ops, 2)")
    # shellcheck disable=SC2086 # $stats and $rows are several numbers each
    printf 'idle_per_s=%s rps=%s ops=%s reads=%s p50=%s p99=%s queued_p50=%s queued_p99=%s ran_p50=%s ran_p99=%s client_p50=%s client_p99=%s commits=%s tool_commits_per_op=%s cpu_us=%s cpu_ticks=%s broker_cpu_us=%s jit_cpu_us=%s tool_cpu_us=%s pg_cpu_us=%s transitions=%s effects=%s checkpoints=%s' \
      "$idle" "$(field rps "$result")" "$ops" "$(field status_reads "$result")" ${stats} \
      "$(field p50_ms "$result")" "$(field p99_ms "$result")" "$node_commits" "$(calc "($s1 - $s0) / $ops" 2)" \
      "$(calc "($n1 - $n0) / $HZ / $ops * 1e6" 0)" "$((n1 - n0))" "$(calc "($b1 - $b0) / $HZ / $ops * 1e6" 0)" "$(calc "($j1 - $j0) / $HZ / $ops * 1e6" 0)" \
      "$(calc "($r1 - $r0) / $HZ / $ops * 1e6" 0)" \
      "$(calc "($p1 - $p0) / $HZ / $ops * 1e6" 0)" ${rows}
    printf ' %s pg_idle_cpu_ms_per_s=%s ' "$rss" "$(calc "($pi1 - $pi0) / $HZ * 1000 / ($ti1 - $ti0)" 0)"
    tool_fields "$ts0" "$ts1" "$ops" "$(calc "($ri1 - $ri0) / ($ti1 - $ti0)" 3)" "$(calc "$t_end - $t_go" 3)"
    if [ "$mode" = open ]; then
      printf ' rate=%s send_lag_p99=%s send_lag_max=%s' "$(field rate "$result")" "$(field send_lag_p99_ms "$result")" "$(field send_lag_max_ms "$result")"
    fi
    echo
  fi
  stop_node
}

start_broker() { # BROKER=external: a Kafka broker process of its own (as bench/relay/lag.sh starts it)
  "$JAVA" -Djarmode=tools -jar "$NODE_JAR" extract --destination "$WORK/node-jar" >/dev/null
  "$JAVA" -Xms128m -Xmx256m -cp "$WORK/node-jar/lib/*" bench/relay/RelayBench.java broker "$WORK/bootstrap" >"$WORK/broker.log" 2>&1 &
  BROKER_PID=$!
  for _ in $(seq 1 "$START_S"); do
    [ -s "$WORK/bootstrap" ] && { NODE_ARGS+=" --spring.kafka.bootstrap-servers=$(cat "$WORK/bootstrap")"; return; }
    kill -0 "$BROKER_PID" 2>/dev/null || { cat "$WORK/broker.log" >&2; fail "the Kafka broker did not start"; }
    sleep 1
  done
  cat "$WORK/broker.log" >&2; fail "the Kafka broker did not start in $START_S s"
}

case "$BROKER" in
  embedded) ;;
  external) start_broker ;;
  *) fail "BROKER is embedded or external, not $BROKER" ;;
esac
start_tools
if [ "$TOOLS_WARMUP" -gt 0 ]; then
  "$JAVA" -jar "$DBOS_JAR" warm-tools --tools "http://127.0.0.1:$TOOLS_PORT/mcp" --checkouts "$TOOLS_WARMUP" --clients 4 >&2 \
    || { cat "$WORK/tools.log" >&2; fail "the tool server's warm-up failed"; }
fi
declare -A runs
for round in $(seq 1 "$ROUNDS"); do
  for mode in $PHASES; do
    case "$mode" in
      dbos) dbos_phase "$round" >"$WORK/phase" ;;
      limit) limit_phase "$round" >"$WORK/phase" ;;
      *) phase "$mode" "$round" >"$WORK/phase" ;;
    esac
    runs[$mode,$round]=$(cat "$WORK/phase")
    echo "round $round $mode → ${runs[$mode,$round]}" >&2
  done
done

median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
of() { local mode=$1 key=$2 round; for round in $(seq 1 "$ROUNDS"); do field "$key" " ${runs[$mode,$round]}"; done | median; }
per_round() { local mode=$1 key=$2 round; for round in $(seq 1 "$ROUNDS"); do field "$key" " ${runs[$mode,$round]}"; done | paste -sd/; }

# Commits and node CPU per operation, per round: all the node's, and less the status reads at the
# cost calibrated in the first claim-only phase.
read_cost=0; read_cpu=0
if has_phase claim; then read_cost=$(field commits_per_read " ${runs[claim,1]}"); read_cpu=$(field cpu_us_per_read " ${runs[claim,1]}"); fi
for round in $(seq 1 "$ROUNDS"); do
  has_phase checkout || break
  r=" ${runs[checkout,$round]}"; ops=$(field ops "$r"); reads=$(field reads "$r")
  runs[checkout,$round]+=" commits_per_op=$(calc "$(field commits "$r") / $ops" 2)"
  runs[checkout,$round]+=" net_commits_per_op=$(calc "($(field commits "$r") - $reads * $read_cost) / $ops" 2)"
  runs[checkout,$round]+=" net_cpu_us=$(calc "($(field cpu_ticks "$r") / $HZ * 1e6 - $reads * $read_cpu) / $ops" 0)"
  runs[checkout,$round]+=" reads_per_op=$(calc "$reads / $ops" 1)"
done

{
  if has_phase claim && has_phase checkout; then
  echo "## Checkout benchmark, $STAMP"
  echo
  echo "$(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) at the end; $CLIENTS clients, ${DURATION}s × $ROUNDS rounds (medians), warm-up ${WARMUP}s;"
  echo "clients wait with Prefer: wait=${WAIT} (0: status reads at least ${POLL_MS} ms apart); node \`java $NODE_OPTS -jar $NODE_JAR\` (local profile, attest off${NODE_ARGS:+, $NODE_ARGS}),"
  echo "reference-tools \`java $TOOLS_OPTS -jar $TOOLS_JAR\` on its own database, warmed with $TOOLS_WARMUP checkouts' tool calls; PostgreSQL $(psql -Atc 'SHOW server_version' -d postgres)."
  echo
  echo "| claim-only claims/s | checkout ops/s | ratio | 202 → SUCCEEDED p50 / p99 ms | of which waiting for a worker | and the run | client-seen p50 / p99 ms |"
  echo "|---|---|---|---|---|---|---|"
  claims=$(of claim rps); checkouts=$(of checkout rps)
  echo "| $claims | $checkouts | **$(calc "$checkouts / $claims" 3)×** | $(of checkout p50) / $(of checkout p99) | $(of checkout queued_p50) / $(of checkout queued_p99) | $(of checkout ran_p50) / $(of checkout ran_p99) | $(of checkout client_p50) / $(of checkout client_p99) |"
  echo
  echo "| per operation | node commits (less status reads) | tool server commits | node CPU µs (less status reads) | tool server CPU µs | PostgreSQL CPU µs |"
  echo "|---|---|---|---|---|---|"
  echo "| claim-only claim | $(of claim commits_per_op) | – | $(of claim cpu_us) | – | $(of claim pg_cpu_us) |"
  echo "| checkout | $(of checkout commits_per_op) ($(of checkout net_commits_per_op)) | $(of checkout tool_commits_per_op) | $(of checkout cpu_us) ($(of checkout net_cpu_us)) | $(of checkout tool_cpu_us) | $(of checkout pg_cpu_us) |"
  echo
  if [ "$BROKER" = external ]; then
    echo "The Kafka broker ran as a process of its own (BROKER=external): $(of checkout broker_cpu_us) µs of its CPU per checkout, not in the node's figures."
    echo -n "Of the checkout's node CPU, "
  else
    echo -n "Of the checkout's node CPU, the in-process Kafka broker's threads (local profile) took $(of checkout broker_cpu_us) µs per operation, "
  fi
  jit_us=$(of checkout jit_cpu_us)
  echo "the JIT compiler's threads $jit_us µs (compiling what the warm-up of ${WARMUP}s left; less with a longer one)."
  # issue 13 (docs/benchmarks.md, ninth session): on 2 cores the node's compilers settle only after
  # about 150 s of this load, and until then they take CPU from the path and the path runs code not
  # yet compiled: checkouts/s and every ratio to the peer understate a warm node's
  if awk "BEGIN {exit !($jit_us > 0.15 * $(of checkout cpu_us))}"; then
    echo "**The node was still compiling**: its JIT took over 15 % of its CPU in the measured window, so these"
    echo "figures are a warming node's, not a warm one's; a steady state needs WARMUP=180 or more on 2 cores."
  fi
  echo "Per round (claim-only / checkout): claims/s $(per_round claim rps); ops/s $(per_round checkout rps);"
  echo "p99 ms $(per_round checkout p99); node commits/op $(per_round checkout commits_per_op)."
  echo "Checks of the method: claim-only $(per_round claim commits_per_op) commits per claim (one statement in"
  echo "autocommit: 1 expected); one status read costs $read_cost commits and $read_cpu µs of node CPU ($CLIENTS wrk"
  echo "connections for ${READ_S}s after ${READ_S}s of warm-up and $READS reads on one connection, node without workers);"
  echo "$(of checkout reads_per_op) status reads per checkout. Rows written per checkout: $(of checkout transitions) status"
  echo "transitions, $(of checkout effects) effect records, $(of checkout checkpoints) graph checkpoints. The idle node"
  echo "commits $(of checkout idle_per_s)/s by itself with its workers on (their polls), $(of claim idle_per_s)/s without:"
  echo "subtracted for the ${SETTLE} s the counters settled after each measurement."
  if has_phase dbos; then dbos_report; fi
  fi
  limit_report
} | tee "$OUT/checkout-$STAMP.md"
