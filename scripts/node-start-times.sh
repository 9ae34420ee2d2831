#!/usr/bin/env bash
# Where a child node's start goes, and what JDK 25's AOT cache (JEP 483/514/515) changes: starts
# a node from the extracted jar as the e2e tests do (NodeProcess.start: -XX:TieredStopAtLevel=1,
# profile local, no Kafka, each on an empty database so Liquibase runs every changeset), ROUNDS
# times without the cache and ROUNDS times with it, alternately, in one run; prints each start's
# phases and the medians (docs/testing.md).
#   scripts/node-start-times.sh            ROUNDS=5 PORT=18401 JAR=ui/target/opledger.jar
#   TRAINED=DIR scripts/node-start-times.sh   reuse DIR's extraction and its opledger.aot (no training run)
# Needs the PostgreSQL server of the tests (127.0.0.1:5432, user postgres, trust) and a built jar.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-5}
PORT=${PORT:-18401}
JAR=${JAR:-ui/target/opledger.jar}
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
PG=(-h 127.0.0.1 -p 5432 -U postgres)
[ -f "$JAR" ] || { echo "no $JAR: ./mvnw -o -B -DskipTests -pl ui -am package" >&2; exit 1; }

work=$(mktemp -d /tmp/node-start-times.XXXXXX)
databases=()
node=""
cleanup() {
  [ -n "$node" ] && kill -9 "$node" 2>/dev/null || true
  for db in "${databases[@]}"; do dropdb "${PG[@]}" --if-exists "$db" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

now_ms() { date +%s%3N; }
ms_of() { # milliseconds since the epoch of the first log line matching $2 in $1
  local ts
  ts=$(grep -m1 -E "$2" "$1" | cut -c1-24) || true
  [ -n "$ts" ] && date -d "$ts" +%s%3N || echo ""
}
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

if [ -n "${TRAINED:-}" ]; then
  app=$TRAINED/$(basename "$JAR")
  cache=$TRAINED/opledger.aot
  [ -s "$cache" ] && [ -f "$app" ] || { echo "no $app and $cache" >&2; exit 1; }
else
  echo "extracting $JAR into $work/app" >&2
  "$JAVA" -Djarmode=tools -jar "$JAR" extract --destination "$work/app" >/dev/null
  app=$work/app/$(basename "$JAR")
  cache=$work/app/opledger.aot
fi

# start LABEL [JVM OPTIONS…]: a node on a new database; sets $node, $log, $t0; waits until ready
start() {
  local label=$1; shift
  local db=opledger_start_times_$$_${#databases[@]}
  createdb "${PG[@]}" "$db"; databases+=("$db")
  log=$work/$label-${#databases[@]}.log
  t0=$(now_ms)
  "$JAVA" -XX:TieredStopAtLevel=1 "$@" -jar "$app" --spring.profiles.active=local --server.port="$PORT" \
    --spring.datasource.hikari.minimum-idle=2 --opledger.events.enabled=false --opledger.reference-tools.port=0 \
    --spring.datasource.url="jdbc:postgresql://127.0.0.1:5432/$db" --spring.datasource.username=postgres \
    >"$log" 2>&1 &
  node=$!
  until curl -sf -o /dev/null "http://localhost:$PORT/actuator/health/readiness"; do
    kill -0 "$node" 2>/dev/null || { echo "the $label node exited; its log:" >&2; tail -40 "$log" >&2; exit 1; }
    sleep 0.1
  done
  ready=$(now_ms)
}

stop() { kill -TERM "$node"; wait "$node" 2>/dev/null || true; node=""; }

if [ -z "${TRAINED:-}" ]; then
  t=$(now_ms)
  start training -XX:AOTCacheOutput="$cache"
  curl -sf -o /dev/null "http://localhost:$PORT/login" || true
  trained_ready=$(now_ms)
  stop
  [ -s "$cache" ] || { echo "the training run wrote no cache; its log:" >&2; tail -40 "$log" >&2; exit 1; }
  echo "training run: ready in $((trained_ready - t)) ms, cache written $(( $(now_ms) - trained_ready )) ms after SIGTERM, $(du -m "$cache" | cut -f1) MB" >&2
fi

printf '%-8s %8s %8s %8s %8s %8s\n' start ready_ms jvm_ms context liquibase rest
: >"$work/without"; : >"$work/with"
for round in $(seq "$ROUNDS"); do
  for way in without with; do
    if [ "$way" = with ]; then start with -XX:AOTCache="$cache"; else start without; fi
    starting=$(ms_of "$log" 'Starting OpledgerApplication')
    liquibase_first=$(ms_of "$log" 'liquibase')
    liquibase_last=$(grep -E 'liquibase' "$log" | tail -1 | cut -c1-24 | xargs -I{} date -d {} +%s%3N)
    stop
    echo "$((ready - t0))" >>"$work/$way"
    # jvm: exec to Spring's first line; context: to Liquibase's first line (beans, Hikari);
    # liquibase: its changesets; rest: to the readiness probe's 200 (the rest of the context, Tomcat, reference-tools)
    printf '%-8s %8d %8d %8d %8d %8d\n' "$way" "$((ready - t0))" "$((starting - t0))" "$((liquibase_first - starting))" \
      "$((liquibase_last - liquibase_first))" "$((ready - liquibase_last))"
    if [ "$way" = with ] && grep -qiE '\[(warning|error)\]\[(aot|cds)' "$log"; then
      echo "  the JVM did not use the whole cache:" && grep -iE '\[(warning|error)\]\[(aot|cds)' "$log" | head -3
    fi
  done
done
echo "median ready_ms without the cache: $(median <"$work/without"), with it: $(median <"$work/with") ($ROUNDS starts each, load $(cut -d' ' -f1-3 /proc/loadavg))"
