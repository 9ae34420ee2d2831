#!/usr/bin/env bash
# ./opledger bench all: every benchmark of docs/benchmarks.md one after the other, each against its
# own same-run baseline, with a progress display (phase n/N, elapsed), then one summary table of the
# ratios and an HTML page with PNG charts (bench/report) in docs/bench-report/ (bench/all/report.sh).
# Phases (PHASES, in this order by default):
#   claim     bench/claim/run.sh: the claim against pgbench, MCP tasks against REST claims, and the
#             console's queries on the preloaded ledger
#   attest    bench/attest/run.sh: App Attest required against off
#   checkout  bench/checkout/run.sh: the checkout against the claim alone, and against the DBOS peer
#   relay     bench/relay/run.sh: the relay against a bare Kafka producer
#   replay    ReplayBench (e2e-tests): a replay from the first checkpoint against the first run
# A phase that fails is reported as failed and the next one runs. Each phase's output is kept in
# bench/results/all-<stamp>/<phase>.log; the summary and the page are made from those logs, so
# `bench/all/report.sh bench/results/all-<stamp>` makes them again.
#
# Settings (environment): QUICK=0 (1: one short round of each, for a trial: ROUNDS=1, WARMUP=5,
#   DURATION=5 (checkout 10), PRELOAD=100000, EVENTS=5000), PHASES="claim attest checkout relay replay",
#   PORT_BASE=18400 (claim PORT_BASE, attest +1, checkout +2..+4, relay +5), ALL_DB=opledger_bench_all
#   (the phases' databases: ALL_DB_claim, …), REPORT=docs/bench-report, MVN_FLAGS="-o" (the replay phase's
#   Maven), RUN=bench/results/all-<stamp> (an earlier run's: its phases named in PHASES run again, the
#   others' logs kept, and the report covers them all). Each script's own settings (CLIENTS, NODE_OPTS,
#   START_S, …) pass through; QUICK's win over them.
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/../.."

QUICK=${QUICK:-0}; PHASES=${PHASES:-claim attest checkout relay replay}
PORT_BASE=${PORT_BASE:-18400}; ALL_DB=${ALL_DB:-opledger_bench_all}; REPORT=${REPORT:-docs/bench-report}
MVN_FLAGS=${MVN_FLAGS:--o}
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}; export JAVA_HOME
RUN=${RUN:-bench/results/all-$(date -u +%Y%m%dT%H%M%SZ)}; mkdir -p "$RUN"
read -ra phases <<<"$PHASES"; N=${#phases[@]}
STARTED=$(date +%s); PHASE_PID=""
trap '[ -n "$PHASE_PID" ] && kill "$PHASE_PID" 2>/dev/null; exit 130' INT TERM

quick() { [ "$QUICK" = 1 ] && printf '%s ' "$@"; true; }
phase_command() { # the command line of a phase, settings first
  local base=$PORT_BASE
  case $1 in
    claim) echo "$(quick ROUNDS=1 WARMUP=5 DURATION=5 PRELOAD=100000 MCP_WARMUP=3)PORT=$base DB=${ALL_DB}_claim bench/claim/run.sh" ;;
    attest) echo "$(quick ROUNDS=1 WARMUP=5 DURATION=5)PORT=$((base + 1)) BENCH_DB=${ALL_DB}_attest bench/attest/run.sh" ;;
    checkout) echo "$(quick ROUNDS=1 WARMUP=5 DURATION=10)PORT=$((base + 2)) TOOLS_PORT=$((base + 3)) DBOS_PORT=$((base + 4)) BENCH_DB=${ALL_DB}_checkout bench/checkout/run.sh" ;;
    relay) echo "$(quick ROUNDS=1 EVENTS=5000)PORT=$((base + 5)) BENCH_DB=${ALL_DB}_relay bench/relay/run.sh" ;;
    replay) echo "./mvnw $MVN_FLAGS -B -q -pl e2e-tests -am verify -Dtest=none -Dit.test=ReplayBench -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false" ;;
    *) echo "bench all: no phase '$1' (claim attest checkout relay replay)" >&2; return 2 ;;
  esac
}
for name in "${phases[@]}"; do phase_command "$name" >/dev/null; done

clock() { local s=$1; printf '%dm%02ds' $((s / 60)) $((s % 60)); }
load() { cut -d' ' -f1-3 /proc/loadavg; }
status_line() { # phase n/N, the phase's and the whole run's elapsed time, the load, the log's last line
  local n=$1 name=$2 since=$3 now last
  now=$(date +%s)
  last=$(tail -n 1 "$RUN/$name.log" 2>/dev/null | tr -d '\r' | cut -c1-90)
  printf '[bench all] phase %d/%d %-8s %s (total %s), load %s | %s\n' "$n" "$N" "$name" \
    "$(clock $((now - since)))" "$(clock $((now - STARTED)))" "$(load)" "$last"
}

echo "[bench all] $N phases: ${phases[*]}$( [ "$QUICK" = 1 ] && echo ' (QUICK=1: one short round each)'); logs in $RUN"
# RUN=<an earlier run's directory> runs the phases again into it (say, one that failed), the others kept
touch "$RUN/phases.tsv"
for name in "${phases[@]}"; do
  awk -F'\t' -v p="$name" '$1 != p' "$RUN/phases.tsv" >"$RUN/phases.tsv.new" && mv "$RUN/phases.tsv.new" "$RUN/phases.tsv"
done
n=0
for name in "${phases[@]}"; do
  n=$((n + 1)); command=$(phase_command "$name"); since=$(date +%s); load_before=$(load)
  echo "[bench all] phase $n/$N $name: $command"
  env $command >"$RUN/$name.log" 2>&1 &
  PHASE_PID=$!
  ticks=0
  while kill -0 "$PHASE_PID" 2>/dev/null; do
    sleep 1; ticks=$((ticks + 1))
    if [ $((ticks % 15)) = 0 ]; then status_line "$n" "$name" "$since"; fi
  done
  status=0; wait "$PHASE_PID" || status=$?
  PHASE_PID=""
  took=$(( $(date +%s) - since ))
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$status" "$took" "$load_before" "$(load)" "$command" >>"$RUN/phases.tsv"
  if [ "$status" = 0 ]; then
    echo "[bench all] phase $n/$N $name: done in $(clock "$took")"
  else
    echo "[bench all] phase $n/$N $name: FAILED (exit $status) after $(clock "$took"); its last lines:"
    tail -n 15 "$RUN/$name.log" | sed 's/^/    /'
  fi
done

echo "[bench all] all phases ended after $(clock $(( $(date +%s) - STARTED ))); the summary and $REPORT/index.html:"
QUICK=$QUICK bench/all/report.sh "$RUN" "$REPORT"
