#!/usr/bin/env bash
# tools/call over Streamable HTTP: our server beside the reference TypeScript SDK server exposing the
# same `echo` tool and beside a bare nginx answering the same POST with our reply's bytes (the
# "floor": what plain HTTP costs on this machine), same load generator (wrk) and Lua script, same
# run, SSE and JSON reply modes, 1 and 32 connections.
# Usage: bench/http/run.sh [build dir] [seconds per run]
#   FLOOR_ONLY=1 bench/http/run.sh ...   ours against nginx only (no TypeScript server), for quick
#                                        iterations on throughput
#   STATELESS=1 bench/http/run.sh ...    MCP 2026-07-28: each call stateless (no session; _meta and
#                                        the standard headers on every request), against the
#                                        TypeScript SDK 2.x server (tests/interop/node/ts2_server.mjs);
#                                        JSON replies only, which is what both send for it
# nginx is taken from PATH or /usr/sbin; if absent, Debian's nginx-light is installed (needs root).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
secs=${2:-8}
floor_only=${FLOOR_ONLY:-0}
stateless=${STATELESS:-0}
export BENCH_STATELESS=$stateless
export MCP_NODE_DIR="$root/.deps/node"
node="$MCP_NODE_DIR/node_modules/.bin/node"
command -v wrk >/dev/null || { echo "wrk not installed (apt-get install wrk)" >&2; exit 1; }

tmp=$(mktemp -d)
# On any exit: stop every server still running (each left a .pid file), remove a policy-rc.d this
# script wrote if it was interrupted while installing nginx, then drop the temp dir.
policy_to_remove=""
trap 'for p in "$tmp"/*.pid; do [ -f "$p" ] && kill "$(cat "$p")" 2>/dev/null; done
      [ -n "$policy_to_remove" ] && rm -f "$policy_to_remove"; rm -rf "$tmp"' EXIT

start() {  # start LOG CMD... ; prints the URL
  local log=$1; shift
  "$@" >"$log" 2>&1 &
  echo $! >"$log.pid"
  for _ in $(seq 1 100); do
    url=$(grep -oE 'http://[0-9.]+:[0-9]+/mcp' "$log" 2>/dev/null | head -n1 || true)  # log may not exist yet
    [ -n "$url" ] && { echo "$url"; return; }
    sleep 0.1
  done
  cat "$log" >&2; exit 1
}

session() {  # session URL ACCEPT -> prints a session id after initialize + initialized
  [ "$stateless" = 1 ] && return 0  # 2026-07-28: no session
  local hdrs
  hdrs=$(curl -s -D - -o /dev/null -X POST "$1" -H 'Content-Type: application/json' -H "Accept: $2" \
    -d '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"wrk","version":"1"}}}')
  local sid
  sid=$(echo "$hdrs" | tr -d '\r' | awk -F': ' 'tolower($1)=="mcp-session-id"{print $2}')
  curl -s -o /dev/null -X POST "$1" -H 'Content-Type: application/json' -H "Accept: $2" -H "Mcp-Session-Id: $sid" \
    -H 'MCP-Protocol-Version: 2025-11-25' -d '{"jsonrpc":"2.0","method":"notifications/initialized"}'
  echo "$sid"
}

last_rps=""  # requests/s of the last measure, for the ratio lines
measure() {  # measure NAME URL ACCEPT CONNS MODE
  local sid out rps p50 p99
  # nginx ignores the session calls and answers them with its fixed body: harmless, and it keeps
  # the path identical for every server.
  sid=$(session "$2" "$3")
  local threads=2; [ "$4" -lt 2 ] && threads=1  # wrk needs connections >= threads
  out=$(BENCH_SESSION=$sid BENCH_ACCEPT=$3 wrk -t"$threads" -c"$4" -d"${secs}s" --latency -s "$root/bench/http/call.lua" "$2" 2>&1)
  rps=$(echo "$out" | awk '/Requests\/sec/{print $2}')
  p50=$(echo "$out" | awk '$1=="50%"{print $2}')
  p99=$(echo "$out" | awk '$1=="99%"{print $2}')
  local bad rpc
  bad=$(echo "$out" | awk '/^failures:/{print $3}')
  rpc=$(echo "$out" | awk '/^failures:/{print $5}')
  last_rps=$rps
  printf '| %-22s | %-4s | %3s | %10s | %9s | %9s | %s | %s |\n' "$1" "$5" "$4" "$rps" "$p50" "$p99" "${bad:-?}" "${rpc:-?}"
}

# --- nginx floor ---------------------------------------------------------------------------------

# ensure_nginx (sets nginx_bin, installing nginx-light if needed): shared with bench/gateway/http_front.sh.
source "$root/bench/http/nginx_lib.sh"

capture() {  # capture URL ACCEPT OUT -> OUT.body (raw bytes), OUT.head: our reply to one echo call
  local sid
  sid=$(session "$1" "$2")
  if [ "$stateless" = 1 ]; then
    curl -s -D "$3.head" -o "$3.body" -X POST "$1" -H 'Content-Type: application/json' -H "Accept: $2" \
      -H 'MCP-Protocol-Version: 2026-07-28' -H 'Mcp-Method: tools/call' -H 'Mcp-Name: echo' \
      -d '{"jsonrpc":"2.0","id":"1-1","method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"wrk","version":"1"}}}}'
  else
    curl -s -D "$3.head" -o "$3.body" -X POST "$1" -H 'Content-Type: application/json' -H "Accept: $2" \
      -H "Mcp-Session-Id: $sid" -H 'MCP-Protocol-Version: 2025-11-25' \
      -d '{"jsonrpc":"2.0","id":"1-1","method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}'
  fi
  # The floor only means something if it sends what wrk would count as a success from us.
  head -n1 "$3.head" | grep -q ' 200' && grep -q '"result"' "$3.body" && grep -q '"hello"' "$3.body" \
    || { echo "our echo reply is not a 200 with the result:" >&2; cat "$3.head" "$3.body" >&2; exit 1; }
}

header() {  # header FILE NAME -> the value of header NAME in a curl -D dump (empty if absent)
  tr -d '\r' <"$1" | awk -v n="$2" 'BEGIN{n=tolower(n)} {i=index($0,":")} i&&tolower(substr($0,1,i-1))==n{v=substr($0,i+1); sub(/^ +/,"",v); print v; exit}'
}

start_nginx() {  # start_nginx CAPTURE MODE -> prints the URL of an nginx answering /mcp with CAPTURE
  local cap=$1 port
  # The body goes into a single-quoted nginx string: nginx's config reader turns \\ \' \n \r back into
  # the bytes, so the SSE framing (blank lines, trailing "\n\n") survives exactly. `$` would start a
  # variable and has no escape; our echo reply never holds one, so refuse rather than guess.
  if grep -q '\$' "$cap.body"; then echo "reply body holds a '\$', cannot be put in nginx's return" >&2; exit 1; fi
  local extra="" v
  # Our other per-reply headers (SSE: Cache-Control; both modes: Mcp-Session-Id) are repeated, so
  # both heads are about the same size. What still differs: nginx adds Date, Server and
  # Connection, and sends the SSE reply with Content-Length where we send it chunked.
  for h in Cache-Control Mcp-Session-Id; do
    v=$(header "$cap.head" "$h")
    [ -n "$v" ] && extra+="add_header $h \"$v\";"
  done
  WORKERS=$ours_io_threads CONTENT_TYPE=$(header "$cap.head" Content-Type) EXTRA_HEADERS=$extra
  BODY=$(perl -0777 -pe 's/([\\\x27])/\\$1/g; s/\n/\\n/g; s/\r/\\r/g' "$cap.body")
  export WORKERS CONTENT_TYPE EXTRA_HEADERS BODY
  # Ready when it answers with exactly the bytes we captured from our server.
  floor_ready() {
    curl -s -o "$cap.check" -X POST "http://127.0.0.1:$1/mcp" -H 'Content-Type: application/json' -d '{}' 2>/dev/null \
      && cmp -s "$cap.check" "$cap.body"
  }
  # (A command substitution does not inherit set -e: its failure is passed on by hand.)
  port=$(start_nginx_from "$root/bench/http/nginx.conf.in" "$tmp/nginx-$2" "nginx-$2" floor_ready) || exit 1
  echo "http://127.0.0.1:$port/mcp"
}

# Our server runs with HttpServerOptions::io_threads (default 2; bench_server.cpp does not change
# it). nginx gets as many worker processes: read it from the header so the two stay in step.
ours_io_threads=$(sed -n 's/^ *std::size_t io_threads = \([0-9]*\);.*/\1/p' "$root/include/mcp/http/server.hpp")
ours_io_threads=${ours_io_threads:-2}
ensure_nginx

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "nginx: $("$nginx_bin" -v 2>&1 | sed 's/^nginx version: //'), $ours_io_threads workers (our I/O threads: $ours_io_threads)"
echo "| server                 | mode | conns | requests/s | p50 | p99 | non-200 | JSON-RPC errors |"
echo "|---|---|---|---|---|---|---|---|"
ratios=()
modes="sse json"; ts_name="TypeScript SDK 1.32.2"
[ "$stateless" = 1 ] && { modes="stateless"; ts_name="TypeScript SDK 2.3.1"; }
for mode in $modes; do
  if [ $mode = sse ]; then accept='application/json, text/event-stream'; ours_flag=""; ts_flag=""
  else accept='application/json, text/event-stream'; ours_flag="--json"; ts_flag="--json"; fi
  ours=$(start "$tmp/ours-$mode.log" "$build/bin/bench_http_server" $ours_flag)
  if [ "$floor_only" != 1 ] && [ "$stateless" = 1 ]; then
    theirs=$(start "$tmp/ts-$mode.log" "$node" "$root/tests/interop/node/ts2_server.mjs" http 0)
  elif [ "$floor_only" != 1 ]; then
    theirs=$(start "$tmp/ts-$mode.log" "$node" "$root/tests/interop/node/ts_http_server.mjs" 0 $ts_flag)
  fi
  # The floor's reply is whatever our server sends in this mode, captured now from the running server.
  capture "$ours" "$accept" "$tmp/reply-$mode"
  floor=$(start_nginx "$tmp/reply-$mode" "$mode")
  for c in 1 32; do
    measure "mcp-trust (C++)" "$ours" "$accept" "$c" "$mode"; ours_rps=$last_rps
    [ "$floor_only" = 1 ] || { measure "$ts_name" "$theirs" "$accept" "$c" "$mode"; ts_rps=$last_rps; }
    measure "nginx (fixed body)" "$floor" "$accept" "$c" "$mode"; floor_rps=$last_rps
  done
  [ "$floor_only" = 1 ] || ratios+=("$(awk -v m=$mode -v o="$ours_rps" -v t="${ts_rps:-0}" -v n="$ts_name" \
    'BEGIN{ if (t > 0) printf "%s: ours/%s at 32 connections = %.1f (%s / %s requests/s)", m, n, o/t, o, t; else printf "%s: ours/%s = ? (%s)", m, n, t }')")
  ratios+=("$(awk -v m=$mode -v o="$ours_rps" -v n="$floor_rps" \
    'BEGIN{ if (n > 0) printf "%s: ours/nginx at 32 connections = %.2f (%s / %s requests/s)", m, o/n, o, n; else printf "%s: ours/nginx at 32 connections = ? (nginx: %s)", m, n }')")
  for p in "$tmp/ours-$mode.log.pid" "$tmp/ts-$mode.log.pid" "$tmp/nginx-$mode.log.pid"; do
    [ -f "$p" ] && { kill "$(cat "$p")" 2>/dev/null || true; rm -f "$p"; }
  done
done
printf '%s\n' "${ratios[@]}"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
