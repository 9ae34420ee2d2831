#!/usr/bin/env bash
# The Swift package's client against a real node, on Linux: starts a node (local profile, App
# Attest required, a fresh database, no workers: the claim is what is tested), mints a token, and
# runs the package's end-to-end tests (Tests/OpledgerCompanionEndToEndTests) in the Swift chroot of
# test-linux.sh, which reach the node on the host's loopback. The software P-256 key is the test's
# own (OpenSSL's libcrypto in the chroot); its attestation is made by the CLI's development
# authority (`opledger-cli device attest`, the host's JDK bound into the chroot). Needs root (as
# test-linux.sh), PostgreSQL on 127.0.0.1:5432, the node and CLI jars (built if missing).
#
# Settings (environment): PORT=18390 DB=opledger_e2e_swift PGHOST=127.0.0.1 PGPORT=5432 PGUSER=postgres
#   JAVA_HOME (a JDK 25; default /usr/lib/jvm/temurin-25-jdk-amd64)  OPLEDGER_SWIFT_CACHE (see test-linux.sh)
set -euo pipefail
PACKAGE_DIR="$(cd "$(dirname "$0")" && pwd)"
cd "$(dirname "$PACKAGE_DIR")"
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
PORT=${PORT:-18390}; DB=${DB:-opledger_e2e_swift}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
NODE_PID=""; LOG=$(mktemp)
trap '[ -n "$NODE_PID" ] && kill "$NODE_PID" 2>/dev/null; rm -f "$LOG"' EXIT

[ -f ui/target/opledger.jar ] || ./mvnw -B -q -DskipTests -pl ui -am package
[ -f cli/target/opledger-cli.jar ] || ./mvnw -B -q -DskipTests -pl cli -am package
psql -q -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"

echo "starting the node on port $PORT (local profile, App Attest required)…" >&2
"$JAVA_HOME/bin/java" -Xmx384m -jar ui/target/opledger.jar --spring.profiles.active=local --server.port="$PORT" \
  --spring.datasource.url="jdbc:postgresql://$PGHOST:$PGPORT/$DB" --spring.datasource.username="$PGUSER" \
  --opledger.attest.mode=required --opledger.worker.enabled=false --opledger.reference-tools.embedded=false \
  --logging.level.root=WARN >"$LOG" 2>&1 &
NODE_PID=$!
for second in $(seq 1 240); do
  curl -fs "http://127.0.0.1:$PORT/actuator/health/readiness" >/dev/null && break
  if ! kill -0 "$NODE_PID" 2>/dev/null || [ "$second" = 240 ]; then
    echo "the node did not become ready:" >&2; tail -n 40 "$LOG" >&2; exit 1
  fi
  sleep 1
done

OPLEDGER_E2E_NODE="http://127.0.0.1:$PORT" OPLEDGER_E2E_TOKEN="$(scripts/local-token "swift-e2e-$(date +%s)" 3600)" \
OPLEDGER_E2E_JDK="$JAVA_HOME" "$PACKAGE_DIR/test-linux.sh" --e2e
