#!/usr/bin/env bash
# The node in steady state under the checkout load, profiled (issue 13, docs/benchmarks.md "Issue 13:
# where the node's 21 ms go"). Started as bench/checkout/run.sh starts it (local profile, attest off,
# BROKER=external: a Kafka broker process of its own, -Xms256m -Xmx384m -XX:+UseParallelGC), driven by `opledger-cli load
# --mode checkout --clients 16 --wait 25`; after WARM_S seconds (print per 30 s: checkouts, node and JIT
# ticks, to see the compilers settle) a JFR recording (settings=profile) of JFR_S seconds, with every
# thread's ticks (/proc/PID/task/*/stat) before and after it and the checkouts that ended in it.
# usage: bench/node-cpu/profile.sh NODE_JAR OUT_DIR [WARM_S=210] [JFR_S=60]; then
#   bench/node-cpu/threads.py OUT/threads0 OUT/threads1 $(cat OUT/ops)
#   jfr print --json --stack-depth 300 --events jdk.ExecutionSample OUT/rec.jfr > OUT/rec.jfr.exec.json
#   bench/node-cpu/parts.py OUT $(cat OUT/ops) NODE_US_LESS_JIT_AND_JFR
# Settings (environment): PORT=18402 TOOLS_PORT=18403 DB=node_prof (and DB_tools); NODE_OPTS (JVM options
# for the node, e.g. -XX:AOTCache=F); TOOLS_JFR=1 (also a JFR recording of reference-tools in the window,
# OUT/tools.jfr, and its ticks in OUT/tools_ticks); BROKER_JFR=1 (the same for the Kafka broker's
# process: OUT/broker.jfr, OUT/broker_ticks); WARM_ONLY=1 (stop the node with SIGTERM after the
# warm-up: no window; with -XX:AOTCacheOutput=F it writes its cache then); FATJAR (the jar whose
# libraries the broker runs on, when JAR is an extracted one)
set -uo pipefail
LP=""; JAR=$1; OUT=$(realpath -m "$2"); WARM=${3:-210}; JFRS=${4:-60}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}; export PATH=$JAVA_HOME/bin:$PATH
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
cd "$(dirname "$0")/../.."
rm -rf "$OUT"; mkdir -p "$OUT"
PORT=${PORT:-18402}; TPORT=${TOOLS_PORT:-18403}; DB=${DB:-node_prof}; TDB=${DB}_tools
for db in $DB $TDB; do psql -q -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db"; done
java -Djarmode=tools -jar "${FATJAR:-$JAR}" extract --destination $OUT/node-jar >/dev/null
java -Xms128m -Xmx256m -cp "$OUT/node-jar/lib/*" bench/relay/RelayBench.java broker $OUT/bootstrap >$OUT/broker.log 2>&1 & BP=$!
java -Xms128m -Xmx256m -jar reference-tools/target/reference-tools.jar --server.port=$TPORT --server.address=127.0.0.1 \
  --spring.datasource.url=jdbc:postgresql://127.0.0.1:$PGPORT/$TDB --spring.datasource.username=postgres --logging.level.root=WARN >$OUT/tools.log 2>&1 & TP=$!
until [ -s $OUT/bootstrap ]; do sleep 1; done
java -Xms256m -Xmx384m -XX:+UseParallelGC ${NODE_OPTS:-} -jar "$JAR" --spring.profiles.active=local --server.port=$PORT \
  --spring.datasource.url=jdbc:postgresql://127.0.0.1:$PGPORT/$DB --spring.datasource.username=postgres \
  --opledger.attest.mode=off --opledger.worker.enabled=true --opledger.reference-tools.embedded=false \
  --opledger.mcp.servers.reference.url=http://127.0.0.1:$TPORT/mcp --spring.kafka.bootstrap-servers=$(cat $OUT/bootstrap) \
  --logging.level.root=WARN >$OUT/node.log 2>&1 & NP=$!
trap 'kill $LP $NP $TP $BP 2>/dev/null' EXIT
until curl -fs http://127.0.0.1:$PORT/actuator/health/readiness >/dev/null; do sleep 1; done
until [ "$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:$TPORT/mcp)" != 000 ]; do sleep 1; done
echo "node $NP ready $(date -u +%T)"
# open-ended: the warm-up loop's own sampling stretches it past WARM_S, and the driver is killed after the window
TOT=$((3 * WARM + JFRS + 300))
java -jar cli/target/opledger-cli.jar load --mode checkout --server http://127.0.0.1:$PORT --clients 16 --warmup 0 --duration $TOT --wait 25 >$OUT/load.out 2>$OUT/load.err & LP=$!
snap() { for t in /proc/$NP/task/*; do n=$(cat $t/comm 2>/dev/null) || continue; s=$(sed 's/.*) //' $t/stat 2>/dev/null) || continue; echo "${t##*/}|$n|$(awk '{print $12+$13}' <<<"$s")"; done; }
jit() { snap | awk -F'|' '$2 ~ /^C[12] CompilerThre/ {s+=$3} END {print s+0}'; }
ticks() { awk '{print $14+$15}' /proc/$1/stat; }  # a process's user + system ticks
done_ops() { psql -Atq -d $DB -c "SELECT count(*) FROM operation WHERE status='SUCCEEDED'"; }
t=0; j0=$(jit); n0=$(ticks $NP); o0=$(done_ops)
while [ $t -lt $WARM ]; do sleep 30; t=$((t+30)); j1=$(jit); n1=$(ticks $NP); o1=$(done_ops)
  echo "t=$t ops=$((o1-o0)) node_ticks=$((n1-n0)) jit_ticks=$((j1-j0)) load=$(cut -d' ' -f1 /proc/loadavg)"; j0=$j1; n0=$n1; o0=$o1; done
if [ "${WARM_ONLY:-0}" = 1 ]; then kill $LP; wait $LP 2>/dev/null; kill $NP; wait $NP; echo "node exit $?"; exit 0; fi
snap >$OUT/threads0; o0=$(done_ops); n0=$(ticks $NP); ts0=$(date +%s.%N)
jcmd $NP JFR.start name=p settings=profile duration=${JFRS}s filename=$OUT/rec.jfr >/dev/null
# the other processes recorded in the window: "name pid" (TOOLS_JFR, BROKER_JFR)
SIDES=(); [ "${TOOLS_JFR:-0}" = 1 ] && SIDES+=("tools $TP"); [ "${BROKER_JFR:-0}" = 1 ] && SIDES+=("broker $BP")
declare -A side0
for side in "${SIDES[@]}"; do read -r name pid <<<"$side"
  jcmd $pid JFR.start name=$name settings=profile duration=${JFRS}s filename=$OUT/$name.jfr >/dev/null; side0[$name]=$(ticks $pid); done
sleep $JFRS
snap >$OUT/threads1; o1=$(done_ops); n1=$(ticks $NP); ts1=$(date +%s.%N)
for side in "${SIDES[@]}"; do read -r name pid <<<"$side"; echo "${name}_ticks=$(( $(ticks $pid) - side0[$name] ))" > $OUT/${name}_ticks; done
sleep 3
echo "window ops=$((o1-o0)) node_ticks=$((n1-n0)) secs=$(awk "BEGIN{print $ts1-$ts0}") load=$(cat /proc/loadavg)" | tee $OUT/window
echo "$((o1-o0))" > $OUT/ops
kill $LP; wait $LP 2>/dev/null
