# Issue 13's phases of the checkout benchmark, sourced by run.sh (it uses run.sh's settings and
# helpers: runs, field, calc, of, per_round, commits, pg_ticks, start_node, stop_node, fail, has_phase,
# SETTLE, DURATION, CLIENTS, DB, TOOLS_DB, WORK, JAVA, HZ).
#
#   limit  the physical limit: pgbench replaying the database work one checkout must do. The script
#          is built by bench/checkout/LimitScript.java from bench/checkout/checkout-statements.log
#          (the statements the node and reference-tools issued for one checkout, captured by
#          bench/checkout/capture.sh), laid out in the fewest transactions a checkout needs: the
#          claim, the lease, per effect one commit before the call and one after it (the outcome,
#          its outbox row and the checkpoint), the end: 2 × 3 + 3 = 9 node commits, and the tool
#          server's 3. It runs on a database of its own ($DB_limit) holding the node's schema and
#          reference-tools', copied from the run's two databases, with CLIENTS pgbench clients on
#          the same PostgreSQL: checkouts/s = pgbench's scripts/s.
#   open   (in run.sh's phase) the closed loop's node, driven by `load --rate` at OPEN_RATIO of the
#          same round's closed-loop checkouts/s.
#
# Settings (environment): OPEN_RATIO=0.5 LIMIT_WARMUP=5 (seconds of pgbench before each measurement)

LIMIT_DB=${DB}_limit; OPEN_RATIO=${OPEN_RATIO:-0.5}; LIMIT_WARMUP=${LIMIT_WARMUP:-5}; LIMIT_READY=""

rss_mb() { # the process's peak and current resident set, and the machine's load, as fields
  awk -v la="$(cut -d' ' -f1 /proc/loadavg)" '/^VmHWM:/ {h = $2} /^VmRSS:/ {r = $2}
    END {printf "rss_peak_mb=%.0f rss_mb=%.0f load1=%s", h / 1024, r / 1024, la}' "/proc/$1/status"
}

open_rate() { # $1: round; the arrival rate of its open phase
  local closed
  closed=$(field rps " ${runs[checkout,$1]:-}")
  [ -n "$closed" ] || fail "the open phase needs the round's checkout phase before it (PHASES=\"checkout open\")"
  calc "$closed * $OPEN_RATIO" 1
}

limit_setup() {
  if [ -z "$(psql -Atq -d "$DB" -c "SELECT to_regclass('operation')")" ]; then
    start_node true "$DB"; stop_node # the node's schema, by its own migrations
  fi
  { pg_dump -s "$DB"; pg_dump -s -n reference_tools "$TOOLS_DB"; pg_dump -a -t reference_tools.product "$TOOLS_DB"; } \
    | psql -q -d "$LIMIT_DB" >/dev/null
  psql -q -d "$LIMIT_DB" -c "UPDATE reference_tools.product SET on_hand = 1000000000000" # no run may sell out
  "$JAVA" bench/checkout/LimitScript.java bench/checkout/checkout-statements.log >"$WORK/limit.sql"
  LIMIT_READY=1
}

limit_succeeded() { psql -Atq -d "$LIMIT_DB" -c "SELECT count(*) FROM operation WHERE status = 'SUCCEEDED'"; }

# One measured pgbench phase; prints "key=value …". $1: round.
limit_phase() {
  local out c0 c1 p0 p1 s0 s1 scripts
  [ -n "$LIMIT_READY" ] || limit_setup
  pgbench -n -M prepared -c "$CLIENTS" -j 2 -T "$LIMIT_WARMUP" -f "$WORK/limit.sql" "$LIMIT_DB" >/dev/null 2>"$WORK/pgbench.err" \
    || { cat "$WORK/pgbench.err" >&2; fail "pgbench failed on the limit script"; }
  sleep "$SETTLE"
  c0=$(commits "$LIMIT_DB"); p0=$(pg_ticks); s0=$(limit_succeeded)
  out=$(pgbench -n -M prepared -c "$CLIENTS" -j 2 -T "$DURATION" -f "$WORK/limit.sql" "$LIMIT_DB" 2>"$WORK/pgbench.err") \
    || { cat "$WORK/pgbench.err" >&2; fail "pgbench failed on the limit script"; }
  p1=$(pg_ticks)
  sleep "$SETTLE"
  c1=$(commits "$LIMIT_DB"); s1=$(limit_succeeded)
  scripts=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' <<<"$out")
  [ "${scripts:-0}" -gt 0 ] || fail "pgbench ran no checkout: $out"
  echo "round $1 limit: $scripts checkouts, $(grep '^tps' <<<"$out")" >&2
  # every script run is one checkout to SUCCEEDED (those cut off at the end of -T leave one behind)
  [ $((s1 - s0)) -ge "$scripts" ] || fail "pgbench ran $scripts scripts, $((s1 - s0)) operations SUCCEEDED"
  printf 'rps=%s ops=%s latency_ms=%s commits_per_op=%s pg_cpu_us=%s load1=%s\n' \
    "$(calc "$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' <<<"$out")" 1)" "$scripts" \
    "$(sed -n 's/^latency average = \([0-9.]*\) ms/\1/p' <<<"$out")" "$(calc "($c1 - $c0) / $scripts" 2)" \
    "$(calc "($p1 - $p0) / $HZ / $scripts * 1e6" 0)" "$(cut -d' ' -f1 /proc/loadavg)"
}

limit_report() {
  has_phase limit || has_phase open || return 0
  local round
  for round in $(seq 1 "$ROUNDS"); do
    if has_phase open; then
      runs[open,$round]+=" commits_per_op=$(calc "$(field commits " ${runs[open,$round]}") / $(field ops " ${runs[open,$round]}")" 2)"
    fi
    if has_phase limit && has_phase checkout; then
      runs[checkout,$round]+=" of_limit=$(calc "$(field rps " ${runs[checkout,$round]}") / $(field rps " ${runs[limit,$round]}")" 3)"
    fi
  done
  echo
  echo "### Issue 13: the limit, the open loop, memory ($STAMP; PHASES=\"$PHASES\", $CLIENTS clients, ${DURATION} s × $ROUNDS rounds, medians)"
  echo
  echo "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end."
  echo
  echo "| | checkouts/s | p50 / p99 ms | node commits per checkout (target 9) | node RSS peak / end MB | PostgreSQL CPU µs per checkout | load average (1 min) per round |"
  echo "|---|---|---|---|---|---|---|"
  if has_phase checkout; then
    echo "| closed loop, $CLIENTS users (202 → SUCCEEDED) | $(of checkout rps) | $(of checkout p50) / $(of checkout p99) | $(of checkout commits_per_op) | $(of checkout rss_peak_mb) / $(of checkout rss_mb) | $(of checkout pg_cpu_us) | $(per_round checkout load1) |"
  fi
  if has_phase limit; then
    echo "| physical limit: pgbench, $CLIENTS clients (script latency, mean) | $(of limit rps) | $(of limit latency_ms) (mean) | $(of limit commits_per_op) with the tool server's 3 | – | $(of limit pg_cpu_us) | $(per_round limit load1) |"
  fi
  if has_phase open; then
    echo "| open loop at $OPEN_RATIO × the closed loop: $(per_round open rate)/s (202 → SUCCEEDED) | $(of open rps) | **$(of open p50) / $(of open p99)** | $(of open commits_per_op) | $(of open rss_peak_mb) / $(of open rss_mb) | $(of open pg_cpu_us) | $(per_round open load1) |"
    echo "| open loop, client-seen from the scheduled send time | | $(of open client_p50) / $(of open client_p99) | | | | |"
  fi
  echo
  if has_phase limit && has_phase checkout; then
    echo "Closed loop against the limit, per round: $(per_round checkout of_limit) (median **$(of checkout of_limit)×**, target ≥ 0.5×);"
    echo "checkouts/s per round: closed $(per_round checkout rps), limit $(per_round limit rps)."
  fi
  if has_phase open; then
    echo "Open loop per round: arrivals $(per_round open rate)/s, completed $(per_round open rps)/s, p99 $(per_round open p99) ms,"
    echo "the sender's lag behind its schedule p99 $(per_round open send_lag_p99) ms (max $(per_round open send_lag_max) ms)."
  fi
}
