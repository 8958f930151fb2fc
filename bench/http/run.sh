#!/usr/bin/env bash
# tools/call over Streamable HTTP: our server beside the reference TypeScript SDK server exposing the
# same `echo` tool, same load generator (wrk), same run, SSE and JSON reply modes, 1 and 32
# connections. Usage: bench/http/run.sh [build dir] [seconds per run]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
secs=${2:-8}
export MCP_NODE_DIR="$root/.deps/node"
node="$MCP_NODE_DIR/node_modules/.bin/node"
command -v wrk >/dev/null || { echo "wrk not installed (apt-get install wrk)" >&2; exit 1; }

start() {  # start LOG CMD... ; prints the URL
  local log=$1; shift
  "$@" >"$log" 2>&1 &
  echo $! >"$log.pid"
  for _ in $(seq 1 100); do
    url=$(grep -oE 'http://[0-9.]+:[0-9]+/mcp' "$log" | head -n1 || true)
    [ -n "$url" ] && { echo "$url"; return; }
    sleep 0.1
  done
  cat "$log" >&2; exit 1
}

session() {  # session URL ACCEPT -> prints a session id after initialize + initialized
  local hdrs
  hdrs=$(curl -s -D - -o /dev/null -X POST "$1" -H 'Content-Type: application/json' -H "Accept: $2" \
    -d '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"wrk","version":"1"}}}')
  local sid
  sid=$(echo "$hdrs" | tr -d '\r' | awk -F': ' 'tolower($1)=="mcp-session-id"{print $2}')
  curl -s -o /dev/null -X POST "$1" -H 'Content-Type: application/json' -H "Accept: $2" -H "Mcp-Session-Id: $sid" \
    -H 'MCP-Protocol-Version: 2025-11-25' -d '{"jsonrpc":"2.0","method":"notifications/initialized"}'
  echo "$sid"
}

measure() {  # measure NAME URL ACCEPT CONNS
  local sid out rps p50 p99
  sid=$(session "$2" "$3")
  local threads=2; [ "$4" -lt 2 ] && threads=1  # wrk needs connections >= threads
  out=$(BENCH_SESSION=$sid BENCH_ACCEPT=$3 wrk -t"$threads" -c"$4" -d"${secs}s" --latency -s "$root/bench/http/call.lua" "$2" 2>&1)
  rps=$(echo "$out" | awk '/Requests\/sec/{print $2}')
  p50=$(echo "$out" | awk '$1=="50%"{print $2}')
  p99=$(echo "$out" | awk '$1=="99%"{print $2}')
  local bad rpc
  bad=$(echo "$out" | awk '/^failures:/{print $3}')
  rpc=$(echo "$out" | awk '/^failures:/{print $5}')
  printf '| %-22s | %-4s | %3s | %10s | %9s | %9s | %s | %s |\n' "$1" "$5" "$4" "$rps" "$p50" "$p99" "${bad:-?}" "${rpc:-?}"
}

tmp=$(mktemp -d)
trap 'for p in "$tmp"/*.pid; do kill "$(cat "$p")" 2>/dev/null || true; done' EXIT
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| server                 | mode | conns | requests/s | p50 | p99 | non-200 | JSON-RPC errors |"
echo "|---|---|---|---|---|---|---|---|"
for mode in sse json; do
  if [ $mode = sse ]; then accept='application/json, text/event-stream'; ours_flag=""; ts_flag=""
  else accept='application/json, text/event-stream'; ours_flag="--json"; ts_flag="--json"; fi
  ours=$(start "$tmp/ours-$mode.log" "$build/bin/bench_http_server" $ours_flag)
  theirs=$(start "$tmp/ts-$mode.log" "$node" "$root/tests/interop/node/ts_http_server.mjs" 0 $ts_flag)
  for c in 1 32; do
    measure "mcp-trust (C++)" "$ours" "$accept" "$c" "$mode"
    measure "TypeScript SDK 1.32.2" "$theirs" "$accept" "$c" "$mode"
  done
  kill "$(cat "$tmp/ours-$mode.log.pid")" "$(cat "$tmp/ts-$mode.log.pid")" 2>/dev/null || true
done
