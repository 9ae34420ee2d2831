# The DBOS peer's phase of the checkout benchmark, sourced by run.sh (it uses run.sh's settings
# and helpers: ticks, pg_ticks, commits, calc, field, fail, SETTLE, IDLE, TOOLS_PID, TOOLS_DB).
#
# The peer (bench/dbos-peer) runs the checkout's three steps as a DBOS Transact workflow, each one
# MCP tools/call to the same reference-tools with the arguments and keys the node sends, with its
# system database on the same PostgreSQL; its driver runs the same closed loop of CLIENTS users,
# each waiting for its checkout's end (the peer's front answers when the workflow has ended). The
# figures are taken as the node's are: CPU ticks of the peer's and the tool server's processes
# around the measured phase, commits PostgreSQL published for each database, less the idle peer's.
#
# Settings (environment): DBOS_PORT=18099 DBOS_OPTS=$NODE_OPTS (the node's heap and collector)

DBOS_JAR=bench/dbos-peer/target/dbos-peer.jar; DBOS_DB=${DB}_dbos
DBOS_PORT=${DBOS_PORT:-18099}; DBOS_OPTS=${DBOS_OPTS:-$NODE_OPTS}; DBOS_PID=""
DBOS_BODY='{"sku":"SKU-ESPRESSO","quantity":1,"amount":49.90,"currency":"EUR","recipient":"ann@example.com"}' # $BODY's arguments

dbos_build() { # it builds in seconds: rebuilt whenever its sources are newer than the jar
  if [ ! -f "$DBOS_JAR" ] || [ -n "$(find bench/dbos-peer/pom.xml bench/dbos-peer/src -newer "$DBOS_JAR" -print -quit)" ]; then
    ./mvnw -B -q -DskipTests -Pbench -pl bench/dbos-peer package
  fi
}

start_dbos() {
  # shellcheck disable=SC2086
  "$JAVA" $DBOS_OPTS -jar "$DBOS_JAR" serve --port "$DBOS_PORT" --tools "http://127.0.0.1:$TOOLS_PORT/mcp" \
    --db "jdbc:postgresql://$PGHOST:$PGPORT/$DBOS_DB" --db-user "$PGUSER" >"$WORK/dbos.log" 2>&1 &
  DBOS_PID=$!
  for _ in $(seq 1 "$START_S"); do
    curl -fs -m 5 "http://127.0.0.1:$DBOS_PORT/health" >/dev/null && return
    kill -0 "$DBOS_PID" 2>/dev/null || { cat "$WORK/dbos.log" >&2; fail "the DBOS peer did not start"; }
    sleep 1
  done
  cat "$WORK/dbos.log" >&2; fail "the DBOS peer did not start in $START_S s"
}
stop_dbos() { kill "$DBOS_PID"; wait "$DBOS_PID" 2>/dev/null || true; DBOS_PID=""; }

# Workflows the peer has recorded: "succeeded total", read while nothing is under way.
dbos_workflows() {
  psql -Atq -F ' ' -d "$DBOS_DB" -c "SELECT count(*) FILTER (WHERE status = 'SUCCESS'), count(*) FROM dbos.workflow_status"
}

# One measured phase of the peer; prints "key=value …". $1: round. Run it in this shell.
dbos_phase() {
  local ri0 ri1 ts0 ts1 t_go round=$1 status w0 w1 pi0 pi1 i0 i1 ti0 ti1 s0 s1 n0 n1 j0 j1 r0 r1 p0 p1 t_end c1 tc1 result ops idle commits
  start_dbos
  # one checkout through the whole path first: an unreachable tool server fails here, with its reason
  status=$(curl -s -m 120 -o "$WORK/dbos-preflight.json" -w '%{http_code}' -H 'Content-Type: application/json' \
    -H "Idempotency-Key: $(cat /proc/sys/kernel/random/uuid)" -d "$DBOS_BODY" \
    "http://127.0.0.1:$DBOS_PORT/checkouts")
  [ "$status" = 200 ] || { tail -50 "$WORK/dbos.log" >&2; fail "the DBOS peer answered a checkout $status: $(cat "$WORK/dbos-preflight.json")"; }
  rm -f "$WORK/go" "$WORK/load.out"; mkfifo "$WORK/go"; : >"$WORK/load.out"
  "$JAVA" -jar "$DBOS_JAR" load --server "http://127.0.0.1:$DBOS_PORT" --clients "$CLIENTS" --warmup "$WARMUP" \
    --duration "$DURATION" --hold <"$WORK/go" >"$WORK/load.out" 2>"$WORK/load.err" &
  LOAD_PID=$!
  exec 3>"$WORK/go"
  until grep -q '^WARMED' "$WORK/load.out"; do
    kill -0 "$LOAD_PID" 2>/dev/null || { cat "$WORK/load.out" "$WORK/load.err" >&2; fail "the DBOS driver stopped"; }
    sleep 0.2
  done
  w0=$(dbos_workflows)
  sleep "$SETTLE"
  i0=$(commits "$DBOS_DB"); ti0=$(now); ri0=$(ticks "$TOOLS_PID"); pi0=$(pg_ticks)
  sleep "$IDLE"                                      # what the idle peer commits by itself
  i1=$(commits "$DBOS_DB"); ti1=$(now); s0=$(commits "$TOOLS_DB"); ri1=$(ticks "$TOOLS_PID"); pi1=$(pg_ticks)
  ts0=$(tool_split)
  pgss_begin "$DBOS_DB" "$TOOLS_DB"
  n0=$(ticks "$DBOS_PID"); j0=$(jit_ticks "$DBOS_PID"); r0=$(ticks "$TOOLS_PID"); p0=$(pg_ticks); t_go=$(now)
  echo go >&3; exec 3>&-
  wait "$LOAD_PID" || { cat "$WORK/load.out" "$WORK/load.err" >&2; fail "the DBOS driver saw unexpected answers"; }
  LOAD_PID=""
  n1=$(ticks "$DBOS_PID"); j1=$(jit_ticks "$DBOS_PID"); r1=$(ticks "$TOOLS_PID"); p1=$(pg_ticks); t_end=$(now)
  ts1=$(tool_split)
  result=$(grep '^RESULT' "$WORK/load.out")
  ops=$(field operations "$result")
  pgss_statements "dbos-$round" "$ops"
  sleep "$SETTLE"
  c1=$(commits "$DBOS_DB"); tc1=$(now); s1=$(commits "$TOOLS_DB")
  pgss_end "dbos-$round" "$ops" "$DBOS_DB" "$TOOLS_DB"
  w1=$(dbos_workflows)
  # every measured checkout is one more workflow, and it succeeded
  [ "$(( ${w1% *} - ${w0% *} ))" = "$ops" ] && [ "$(( ${w1#* } - ${w0#* } ))" = "$ops" ] \
    || fail "the DBOS peer recorded workflows $w0 → $w1 (succeeded total), the driver counted $ops"
  idle=$(calc "($i1 - $i0) / ($ti1 - $ti0)" 3)
  commits=$(calc "$c1 - $i1 - $idle * ($tc1 - $t_end)" 1)
  echo "round $round dbos: $result idle_commits_per_s=$idle" >&2
  printf 'idle_per_s=%s pg_idle_cpu_ms_per_s=%s rps=%s ops=%s client_p50=%s client_p99=%s commits_per_op=%s tool_commits_per_op=%s cpu_us=%s jit_cpu_us=%s tool_cpu_us=%s pg_cpu_us=%s ' \
    "$idle" "$(calc "($pi1 - $pi0) / $HZ * 1000 / ($ti1 - $ti0)" 0)" "$(field rps "$result")" "$ops" "$(field p50_ms "$result")" "$(field p99_ms "$result")" \
    "$(calc "$commits / $ops" 2)" "$(calc "($s1 - $s0) / $ops" 2)" "$(calc "($n1 - $n0) / $HZ / $ops * 1e6" 0)" \
    "$(calc "($j1 - $j0) / $HZ / $ops * 1e6" 0)" \
    "$(calc "($r1 - $r0) / $HZ / $ops * 1e6" 0)" "$(calc "($p1 - $p0) / $HZ / $ops * 1e6" 0)"
  tool_fields "$ts0" "$ts1" "$ops" "$(calc "($ri1 - $ri0) / ($ti1 - $ti0)" 3)" "$(calc "$t_end - $t_go" 3)"
  echo
  stop_dbos
}

ratio() { if [ "$(calc "($2 > 0)" 0)" = 1 ]; then echo "$(calc "$1 / $2" 2)×"; else echo "–"; fi; } # $1 / $2, "–" for a zero $2

# The peer beside the node, from the same run's rounds (medians), and the ratios opledger/DBOS.
dbos_report() {
  local dr cr round ratios=""
  dr=$(of dbos rps); cr=$(of checkout rps)
  for round in $(seq 1 "$ROUNDS"); do
    ratios+="${ratios:+/}$(calc "$(field rps " ${runs[checkout,$round]}") / $(field rps " ${runs[dbos,$round]}")" 2)"
  done
  echo
  echo "The DBOS peer (bench/dbos-peer: DBOS Transact 1.1.0-m6, the same three steps as MCP tools/calls to the same"
  echo "reference-tools, its system database on the same PostgreSQL, \`java $DBOS_OPTS\`), the same $CLIENTS closed-loop clients:"
  echo
  echo "| per operation | DBOS workflow | opledger checkout | opledger / DBOS |"
  echo "|---|---|---|---|"
  echo "| throughput /s | $dr | $cr | **$(calc "$cr / $dr" 2)×** (per round $ratios) |"
  echo "| client-seen p50 / p99 ms | $(of dbos client_p50) / $(of dbos client_p99) | $(of checkout client_p50) / $(of checkout client_p99) | p50 $(calc "$(of checkout client_p50) / $(of dbos client_p50)" 2)× as long |"
  echo "| own process CPU µs | $(of dbos cpu_us) | $(of checkout cpu_us) ($(of checkout net_cpu_us) less status reads) | $(calc "$(of checkout cpu_us) / $(of dbos cpu_us)" 2)× |"
  local dbos_own checkout_own
  dbos_own=$(calc "$(of dbos cpu_us) - $(of dbos jit_cpu_us)" 0); checkout_own=$(calc "$(of checkout cpu_us) - $(of checkout jit_cpu_us)" 0)
  if [ "$BROKER" = embedded ]; then checkout_own=$(calc "$checkout_own - $(of checkout broker_cpu_us)" 0); fi
  echo "| own process CPU µs less the JIT compiler's (and the in-process broker's) threads | $dbos_own | $checkout_own | $(calc "$checkout_own / $dbos_own" 2)× |"
  echo "| reference-tools CPU µs | $(of dbos tool_cpu_us) | $(of checkout tool_cpu_us) | $(calc "$(of checkout tool_cpu_us) / $(of dbos tool_cpu_us)" 2)× |"
  local key what
  for key in tool_carrier_cpu_us tool_jit_cpu_us tool_gc_cpu_us tool_idle_cpu_us; do
    case "$key" in
      tool_carrier_cpu_us) what="of which its requests' threads (virtual-thread carriers)" ;;
      tool_jit_cpu_us) what="of which its JIT compiler's threads" ;;
      tool_gc_cpu_us) what="of which its GC's and VM threads" ;;
      tool_idle_cpu_us) what="what it spends idle (per s: dbos $(of dbos tool_idle_us_per_s), checkout $(of checkout tool_idle_us_per_s) µs), over the phase" ;;
    esac
    echo "| … $what | $(of dbos "$key") | $(of checkout "$key") | $(ratio "$(of checkout "$key")" "$(of dbos "$key")") |"
  done
  local dbos_tools checkout_tools
  dbos_tools=$(calc "$(of dbos tool_cpu_us) - $(of dbos tool_jit_cpu_us)" 0); checkout_tools=$(calc "$(of checkout tool_cpu_us) - $(of checkout tool_jit_cpu_us)" 0)
  echo "| reference-tools CPU µs less its JIT compiler's threads | $dbos_tools | $checkout_tools | $(ratio "$checkout_tools" "$dbos_tools") |"
  echo "| PostgreSQL CPU µs | $(of dbos pg_cpu_us) | $(of checkout pg_cpu_us) | $(calc "$(of checkout pg_cpu_us) / $(of dbos pg_cpu_us)" 2)× |"
  echo "| commits in its own database | $(of dbos commits_per_op) | $(of checkout commits_per_op) ($(of checkout net_commits_per_op) less status reads) | $(calc "$(of checkout commits_per_op) / $(of dbos commits_per_op)" 2)× |"
  echo "| commits in reference-tools' database | $(of dbos tool_commits_per_op) | $(of checkout tool_commits_per_op) | |"
  echo
  echo "Target (issue 13): opledger ≥ 1.0× DBOS in throughput and p50 (a p50 at most 1.0× as long). The idle peer"
  echo "commits $(of dbos idle_per_s)/s by itself, subtracted like the node's."
}
