#!/usr/bin/env bash
# Builds and tests this Swift package on Linux: Debian 13 (trixie) ships swiftlang 6.0.3, so a
# trixie chroot, kept under a cache directory outside the repository, gives a toolchain on these
# Debian 12 machines without touching the host. Needs root (debootstrap, mount, chroot).
#
#   ios-companion/test-linux.sh               build the chroot if missing, then swift build + swift test
#   ios-companion/test-linux.sh --setup       only build (or check) the chroot
#   ios-companion/test-linux.sh --if-changed  the same as the first, unless these exact inputs
#                                             (ios-companion/ and the shared vectors) passed before
#   ios-companion/test-linux.sh --e2e         only the end-to-end tests, against the node that
#                                             OPLEDGER_E2E_NODE names (ios-companion/e2e-linux.sh
#                                             starts one and sets it, OPLEDGER_E2E_TOKEN and
#                                             OPLEDGER_E2E_JDK: a JDK bound read-only into the chroot
#                                             at /jdk, for the CLI's development authority)
#
# OPLEDGER_SWIFT_CACHE (default /var/cache/opledger-swift) holds the chroot, SwiftPM's scratch
# directory and the stamp of the inputs that last passed; delete it to start cold. Measured on
# these machines (2 shared cores): building the chroot 2 min 16 s to 4 min 44 s (527 MB download,
# 2.6 GB on disk), then the first build and test ~2 min; with the cache, 30-60 s.
set -euo pipefail

PACKAGE_DIR="$(cd "$(dirname "$0")" && pwd)"
REPO_DIR="$(dirname "$PACKAGE_DIR")"
CACHE="${OPLEDGER_SWIFT_CACHE:-/var/cache/opledger-swift}"
ROOT="$CACHE/trixie"

# The host's own Debian mirror (deb822 or one-line sources), so the chroot downloads from where apt does.
mirror() {
  local uri
  uri="$(grep -hoE '^URIs:[[:space:]]*[^[:space:]]+' /etc/apt/sources.list.d/*.sources 2>/dev/null \
         | grep -v security | head -n1 | awk '{print $2}')"
  if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
    uri="$(grep -hoE '^deb[[:space:]]+(\[[^]]*\][[:space:]]+)?[^[:space:]]+' /etc/apt/sources.list \
           | grep -v security | head -n1 | awk '{print $NF}')"
  fi
  echo "${uri:-http://deb.debian.org/debian}"
}

mounted=()
unmount_all() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done
  mounted=()
}
trap unmount_all EXIT

mount_into_chroot() {
  # libswiftCore reads /proc/self/exe; without proc the toolchain fails to load.
  mountpoint -q "$ROOT/proc" || { mount -t proc proc "$ROOT/proc"; mounted+=("$ROOT/proc"); }
  mountpoint -q "$ROOT/dev" || { mount --bind /dev "$ROOT/dev"; mounted+=("$ROOT/dev"); }
}

unmount_stale() {
  local point
  for point in "$ROOT/jdk" "$ROOT/scratch" "$ROOT/repo" "$ROOT/dev" "$ROOT/proc"; do
    if mountpoint -q "$point"; then umount -l "$point"; fi
  done
}

setup_chroot() {
  # Written last: a chroot whose setup was interrupted is set up again. (/usr/bin/swift is an
  # absolute symlink, so the test is for the binary it points to.)
  if [ -f "$CACHE/chroot.ready" ] && [ -x "$ROOT/usr/libexec/swift/bin/swift" ]; then
    return
  fi
  if ! command -v debootstrap >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null \
      || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }
  fi
  if [ ! -d "$ROOT" ]; then
    # into a side directory first: a killed debootstrap leaves no half system under $ROOT
    rm -rf --one-file-system "$ROOT.partial"
    debootstrap --variant=minbase trixie "$ROOT.partial" "$(mirror)" >"$CACHE/debootstrap.log" 2>&1 \
      || { tail -n 30 "$CACHE/debootstrap.log" >&2; exit 1; }
    mv "$ROOT.partial" "$ROOT"
  fi
  mount_into_chroot
  # libc6-dev must be named: gcc only recommends it, and swift cannot link without it.
  chroot "$ROOT" /usr/bin/env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  chroot "$ROOT" /usr/bin/env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends swiftlang libc6-dev >"$CACHE/apt.log" 2>&1 \
    || { tail -n 30 "$CACHE/apt.log" >&2; exit 1; }
  chroot "$ROOT" /usr/bin/env DEBIAN_FRONTEND=noninteractive apt-get clean
  touch "$CACHE/chroot.ready"
}

# Everything the Swift build and tests read: the package (this script included) and the vector
# files its tests share with the Java side. A content hash, not a diff against a branch, so a
# fresh machine (no stamp) always tests, and a rebased or merged change is tested once.
inputs_hash() {
  (cd "$REPO_DIR" && find ios-companion protocol/src/test/resources/vectors -type f \
     -not -path '*/.build/*' -not -path '*/.swiftpm/*' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum) \
    | sha256sum | cut -d' ' -f1
}
STAMP="$CACHE/passed.sha256"
if [ "${1:-}" = "--if-changed" ]; then
  if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$(inputs_hash)" ]; then
    echo "ios-companion: unchanged since its last passing run ($(cat "$STAMP")); not tested again"
    exit 0
  fi
fi
hash_before="$(inputs_hash)"

# One run at a time per cache: runs from two checkouts would otherwise share /repo and the scratch
# directory.
mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
flock 9
# mounts still there are a killed run's
unmount_stale

setup_chroot
if [ "${1:-}" = "--setup" ]; then
  exit 0
fi

mount_into_chroot
# The whole repository is bound read-only so the tests can read the shared vectors under
# protocol/; SwiftPM's scratch directory lives in the cache, not in the checkout.
mkdir -p "$ROOT/repo" "$CACHE/scratch"
mkdir -p "$ROOT/scratch"
mount --bind "$REPO_DIR" "$ROOT/repo"
mounted+=("$ROOT/repo")
mount -o remount,bind,ro "$ROOT/repo"
mount --bind "$CACHE/scratch" "$ROOT/scratch"
mounted+=("$ROOT/scratch")

e2e=()
if [ "${1:-}" = "--e2e" ]; then
  : "${OPLEDGER_E2E_NODE:?--e2e needs OPLEDGER_E2E_NODE (ios-companion/e2e-linux.sh sets it)}"
  : "${OPLEDGER_E2E_TOKEN:?--e2e needs OPLEDGER_E2E_TOKEN}" "${OPLEDGER_E2E_JDK:?--e2e needs OPLEDGER_E2E_JDK}"
  # the host's JDK runs in the chroot (trixie's glibc is newer than the one it was built for)
  mkdir -p "$ROOT/jdk"
  mount --bind "$OPLEDGER_E2E_JDK" "$ROOT/jdk"
  mounted+=("$ROOT/jdk")
  mount -o remount,bind,ro "$ROOT/jdk"
  e2e=(OPLEDGER_E2E_NODE="$OPLEDGER_E2E_NODE" OPLEDGER_E2E_TOKEN="$OPLEDGER_E2E_TOKEN" OPLEDGER_E2E_JAVA=/jdk/bin/java
       OPLEDGER_E2E_CLI_JAR=/repo/cli/target/opledger-cli.jar OPLEDGER_E2E_APP="${OPLEDGER_E2E_APP:-OPLEDGERDV.dev.opledger.simulator}")
fi

in_chroot() {
  chroot "$ROOT" /usr/bin/env HOME=/root LANG=C.UTF-8 \
    OPLEDGER_VECTORS_DIR=/repo/protocol/src/test/resources/vectors "${e2e[@]}" \
    /bin/sh -c "cd /repo/ios-companion && $*"
}
in_chroot swift build --scratch-path /scratch --build-tests
if [ ${#e2e[@]} -gt 0 ]; then
  in_chroot swift test --scratch-path /scratch --skip-build --filter OpledgerCompanionEndToEndTests
  exit 0
fi
in_chroot swift test --scratch-path /scratch --skip-build
echo "$hash_before" >"$STAMP"
