#!/usr/bin/env bash
# The gateway as it is deployed, end to end: `mcp-trust gateway` (its own process, its Streamable
# HTTP front, pinning, policy, audit on disk and metrics on) in front of a Streamable HTTP upstream
# (bench_http_server, one `echo` tool), against the same upstream called directly. The load is wrk
# with bench/http/call.lua: stateless MCP 2026-07-28 tools/call over keep-alive connections, the
# two targets alternating in rounds. Prints each round's requests/s and the share the gateway keeps.
# Usage: bench/gateway/http_front.sh [build dir] [seconds per run] [rounds] [connections]
#   UPSTREAM=ts2 bench/gateway/http_front.sh ...   the upstream is the reference TypeScript SDK 2.x
#                                                  server (tests/interop/node/ts2_server.mjs, its
#                                                  echo tool) instead of ours
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
secs=${2:-6}
rounds=${3:-3}
conns=${4:-32}
command -v wrk >/dev/null || { echo "wrk not installed (apt-get install wrk)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'for p in "$tmp"/*.pid; do [ -f "$p" ] && kill "$(cat "$p")" 2>/dev/null; done; rm -rf "$tmp"' EXIT

wait_for() {  # wait_for LOG PATTERN: the first match once it is printed
  local line=""
  for _ in $(seq 1 100); do
    line=$(grep -m1 -E "$2" "$1" 2>/dev/null || true)
    [ -n "$line" ] && { echo "$line"; return; }
    sleep 0.1
  done
  cat "$1" >&2
  echo "not started: $1" >&2
  exit 1
}

if [ "${UPSTREAM:-ours}" = ts2 ]; then
  MCP_NODE_DIR="$root/.deps/node" node "$root/tests/interop/node/ts2_server.mjs" http 0 >"$tmp/upstream.log" 2>&1 &
else
  "$build/bin/bench_http_server" --json >"$tmp/upstream.log" 2>&1 &
fi
echo $! >"$tmp/upstream.pid"
upstream=$(wait_for "$tmp/upstream.log" '^listening on ' | sed 's/^listening on //')
cat >"$tmp/gateway.json" <<EOF
{"mcpServers": {"up": {"url": "$upstream"}}}
EOF
# The state folder on disk (not tmpfs), as a deployed gateway's would be.
state="$PWD/http-front-state-$$"
"$build/bin/mcp-trust" gateway --config "$tmp/gateway.json" --listen 127.0.0.1:0 --state "$state" >"$tmp/gateway.log" 2>&1 &
echo $! >"$tmp/gateway.pid"
through=$(wait_for "$tmp/gateway.log" '^up http' | sed 's/^up //')
wait_for "$tmp/gateway.log" '^listening on ' >/dev/null

run() {  # run URL: requests/s
  local out
  out=$(BENCH_STATELESS=1 BENCH_ACCEPT="application/json, text/event-stream" \
        wrk -t2 -c"$conns" -d"${secs}s" -s "$root/bench/http/call.lua" "$1" 2>&1)
  local failures
  failures=$(echo "$out" | awk '/^failures:/{print $3 + $5}')
  [ "${failures:-1}" = 0 ] || { echo "$out" >&2; echo "failures against $1" >&2; exit 1; }
  echo "$out" | awk '/Requests\/sec/{print $2}'
}

run "$upstream" >/dev/null  # warm-up: the gateway pins and lists on its first calls
run "$through" >/dev/null
echo "| round | direct requests/s | through the gateway | kept |"
echo "|---|---|---|---|"
for r in $(seq 1 "$rounds"); do
  d=$(run "$upstream")
  g=$(run "$through")
  awk -v r="$r" -v d="$d" -v g="$g" 'BEGIN { printf "| %d | %.0f | %.0f | %.0f%% |\n", r, d, g, 100 * g / d }'
done
echo "(upstream ${UPSTREAM:-ours}, $conns connections, ${secs}s per run, load average $(cut -d' ' -f1-3 /proc/loadavg))"
rm -rf "$state"
