#!/usr/bin/env bash
# Instructions per tools/call in our Streamable HTTP server, counted by callgrind: repeatable on a
# shared, noisy machine where wall-clock throughput is not (the count does not depend on what else
# runs). The server runs under valgrind, wrk drives the echo call through bench/http/call.lua for a
# fixed time, and the script prints the server's user-space instructions divided by the calls
# answered (startup included, a few percent at the default length).
# Usage: bench/http/instructions.sh [build dir] [seconds] [--json]
#   Then: callgrind_annotate --inclusive=yes "$OUT" | less   (OUT printed at the end)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
secs=${2:-10}
mode=${3:---json}
command -v valgrind >/dev/null || { echo "valgrind not installed (apt-get install valgrind)" >&2; exit 1; }
command -v wrk >/dev/null || { echo "wrk not installed (apt-get install wrk)" >&2; exit 1; }
tmp=$(mktemp -d)
out="$tmp/callgrind.out"
log="$tmp/server.log"
valgrind --tool=callgrind --callgrind-out-file="$out" "$build/bin/bench_http_server" $mode >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true' EXIT
url=""
for _ in $(seq 1 300); do  # valgrind starts slowly
  url=$(grep -oE 'http://[0-9.]+:[0-9]+/mcp' "$log" 2>/dev/null | head -n1 || true)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { cat "$log" >&2; echo "the server did not start" >&2; exit 1; }
accept='application/json, text/event-stream'
sid=$(curl -s -D - -o /dev/null -X POST "$url" -H 'Content-Type: application/json' -H "Accept: $accept" \
  -d '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"wrk","version":"1"}}}' |
  tr -d '\r' | awk -F': ' 'tolower($1)=="mcp-session-id"{print $2}')
curl -s -o /dev/null -X POST "$url" -H 'Content-Type: application/json' -H "Accept: $accept" -H "Mcp-Session-Id: $sid" \
  -H 'MCP-Protocol-Version: 2025-11-25' -d '{"jsonrpc":"2.0","method":"notifications/initialized"}'
# 8 connections: enough to keep the slowed-down server busy without timeouts in wrk.
result=$(BENCH_SESSION=$sid BENCH_ACCEPT=$accept wrk -t2 -c8 -d"${secs}s" -s "$root/bench/http/call.lua" "$url" 2>&1)
calls=$(echo "$result" | awk '/requests in/{print $1}')
failures=$(echo "$result" | awk '/^failures:/{print $3 + $5}')
kill -INT "$pid"
wait "$pid" || true
trap - EXIT
total=$(callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/{gsub(",", "", $1); print $1}')
echo "calls answered: $calls (failures: ${failures:-?})"
echo "server instructions: $total"
awk -v t="$total" -v c="$calls" 'BEGIN { printf "instructions per call: %.0f\n", t / c }'
echo "profile: $out"
