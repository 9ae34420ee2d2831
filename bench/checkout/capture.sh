#!/usr/bin/env bash
# Captures the SQL one checkout issues, node and reference-tools, into bench/checkout/checkout-statements.log,
# from which bench/checkout/LimitScript.java builds the pgbench script of the checkout's physical limit
# (the `limit` phase of bench/checkout/run.sh). A private PostgreSQL cluster of its own (log_statement =
# all), so nobody else's statements are in the log and the shared server's settings are left alone; the
# node and reference-tools as the checkout benchmark starts them; three checkouts to warm up, then the
# one captured (the log from its claim on).
# Settings (environment): CAPTURE_PG_PORT=19201 CAPTURE_PORT=19210 CAPTURE_TOOLS_PORT=19211 START_S=180
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/../.."
PG_PORT=${CAPTURE_PG_PORT:-19201}; PORT=${CAPTURE_PORT:-19210}; TOOLS_PORT=${CAPTURE_TOOLS_PORT:-19211}; START_S=${START_S:-180}
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
PGBIN=$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -name bin -type d | sort -V | tail -1)
NODE_JAR=${NODE_JAR:-ui/target/opledger.jar}; TOOLS_JAR=reference-tools/target/reference-tools.jar
WORK=$(mktemp -d); NODE_PID=""; TOOLS_PID=""
as_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
cleanup() {
  local pid
  for pid in "$NODE_PID" "$TOOLS_PID"; do if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi; done
  as_owner "$PGBIN/pg_ctl" -D "$WORK/pg" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
if [ ! -f "$NODE_JAR" ] || [ ! -f "$TOOLS_JAR" ]; then ./mvnw -B -q -DskipTests -pl ui,reference-tools -am package; fi
[ "$(id -u)" = 0 ] && chown postgres "$WORK"
as_owner "$PGBIN/initdb" -D "$WORK/pg" -U postgres -A trust >/dev/null
cat >>"$WORK/pg/postgresql.conf" <<CONF
port = $PG_PORT
listen_addresses = '127.0.0.1'
unix_socket_directories = '$WORK'
log_statement = 'all'
log_line_prefix = '%m [%p] v=%v x=%x '
CONF
as_owner "$PGBIN/pg_ctl" -D "$WORK/pg" -l "$WORK/pg/server.log" -w start >/dev/null
psql -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -c "CREATE DATABASE capture" -c "CREATE DATABASE capture_tools"
jdbc() { echo "--spring.datasource.url=jdbc:postgresql://127.0.0.1:$PG_PORT/$1 --spring.datasource.username=postgres"; }
# shellcheck disable=SC2046 # jdbc prints two arguments
"$JAVA" -Xms128m -Xmx256m -jar "$TOOLS_JAR" --server.port="$TOOLS_PORT" --server.address=127.0.0.1 $(jdbc capture_tools) \
  --logging.level.root=WARN >"$WORK/tools.log" 2>&1 &
TOOLS_PID=$!
# shellcheck disable=SC2046
"$JAVA" -Xms256m -Xmx384m -jar "$NODE_JAR" --spring.profiles.active=local --server.port="$PORT" $(jdbc capture) \
  --opledger.attest.mode=off --opledger.reference-tools.embedded=false \
  --opledger.mcp.servers.reference.url="http://127.0.0.1:$TOOLS_PORT/mcp" --logging.level.root=WARN >"$WORK/node.log" 2>&1 &
NODE_PID=$!
for _ in $(seq 1 "$START_S"); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$TOOLS_PORT/mcp")" != 000 ] \
    && curl -fs "http://127.0.0.1:$PORT/actuator/health/readiness" >/dev/null && break
  sleep 1
done
TOKEN=$(scripts/local-token bench-capture 600)
BODY='{"type":"checkout","arguments":{"sku":"SKU-ESPRESSO","quantity":1,"amount":49.90,"currency":"EUR","recipient":"ann@example.com"}}'
checkout() {
  curl -s -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -H 'Prefer: wait=25' \
    -H "Idempotency-Key: $(cat /proc/sys/kernel/random/uuid)" -d "$BODY" "http://127.0.0.1:$PORT/v1/operations"
}
for _ in 1 2 3; do checkout | grep -q '"status":"SUCCEEDED"' || { tail -30 "$WORK/node.log" >&2; echo "capture: a warm-up checkout did not succeed" >&2; exit 1; }; done
sleep 2
from=$(wc -l <"$WORK/pg/server.log")
checkout | grep -q '"status":"SUCCEEDED"' || { echo "capture: the captured checkout did not succeed" >&2; exit 1; }
sleep 3 # its last statements (the end, the feed's, the relay's) reach the log
tail -n +"$((from + 1))" "$WORK/pg/server.log" >bench/checkout/checkout-statements.log
"$JAVA" bench/checkout/LimitScript.java bench/checkout/checkout-statements.log >/dev/null
echo "bench/checkout/checkout-statements.log: $(wc -l <bench/checkout/checkout-statements.log) lines; LimitScript reads it"
