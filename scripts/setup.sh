#!/usr/bin/env bash
# Installs everything mcp-trust needs on Debian 12, idempotently:
#   - Debian packages for the C++ build (skipped when all are present);
#   - Node 22 and the npm peers into .deps/node (ignored by git), skipped when
#     .deps/node/package-lock.json matches tools/peers/package.json.
# Run as root (or with sudo available). A second run takes a second or two.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

debs=(
  build-essential cmake ninja-build ccache pkg-config
  libboost1.81-dev libboost-json1.81-dev libboost-url1.81-dev
  libssl-dev libsodium-dev libdouble-conversion-dev libsqlite3-dev
  libcli11-dev libspdlog-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  curl ca-certificates openssl wrk
  # Fuzzing (libFuzzer): clang 16 is the first Debian clang that compiles libstdc++ 12's
  # <expected>; its runtime package carries libFuzzer and the sanitizers.
  clang-16 libclang-rt-16-dev
  # The gateway's review page is tested in a real browser (Playwright drives Debian's Chromium).
  chromium
)

missing=()
for p in "${debs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  log=$(mktemp)
  if ! { "${sudo_cmd[@]}" apt-get update -qq && DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" \
           apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "setup: apt-get failed (log above)" >&2
    exit 1
  fi
  rm -f "$log"
fi

# npm peers: Node 22 and the reference implementations we test against.
# The system npm is only the installer; every test calls .deps/node/bin/node.
peerdir="$root/.deps/node"
mkdir -p "$peerdir"
if ! command -v npm >/dev/null; then
  echo "setup: npm not found; installing Debian's nodejs and npm to bootstrap" >&2
  sudo_cmd=(); [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq nodejs npm >/dev/null
fi
stamp="$peerdir/.installed-from"
want=$(sha256sum "$root/tools/peers/package.json" | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ] || [ ! -x "$peerdir/node_modules/.bin/node" ]; then
  echo "setup: installing npm peers into $peerdir" >&2
  cp "$root/tools/peers/package.json" "$peerdir/package.json"
  (cd "$peerdir" && npm install --no-audit --no-fund --loglevel=error >&2)
  echo "$want" >"$stamp"
fi
echo "setup: ok (node $("$peerdir/node_modules/.bin/node" --version))" >&2
