#!/usr/bin/env bash
# The gateway as it is deployed, end to end: `mcp-trust gateway` (its own process, its Streamable
# HTTP front, pinning, policy, audit on disk and metrics on) in front of a Streamable HTTP upstream
# (bench_http_server, one `echo` tool), against the same upstream called directly. The load is wrk
# with bench/http/call.lua: stateless MCP 2026-07-28 tools/call over keep-alive connections, the
# targets alternating in rounds. A third target is the peer: nginx as a plain reverse proxy in front
# of the same upstream (nginx_proxy.conf.in: kept-alive connections both sides, no MCP, no trust
# work), what a second HTTP hop alone costs on this machine. Prints each round's requests/s, the
# share of direct each proxy keeps, and the gateway's rate against nginx's.
# nginx is taken from PATH or /usr/sbin; if absent, Debian's nginx-light is installed (needs root).
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
policy_to_remove=""  # nginx_lib.sh: a policy-rc.d written while installing nginx, if interrupted
trap 'for p in "$tmp"/*.pid; do [ -f "$p" ] && kill "$(cat "$p")" 2>/dev/null; done
      [ -n "$policy_to_remove" ] && rm -f "$policy_to_remove"; rm -rf "$tmp"' EXIT
source "$root/bench/http/nginx_lib.sh"
ensure_nginx

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

# The peer: nginx proxying to the same upstream (its host:port from the upstream's URL).
upstream_hostport=$(echo "$upstream" | sed -E 's|^http://([^/]+)/.*$|\1|')
upstream_path=$(echo "$upstream" | sed -E 's|^http://[^/]+||')
ask() {  # ask URL: the status and body of an answer to one ping
  curl -s -w '%{http_code}' -X POST "$1" -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
    -d '{"jsonrpc":"2.0","id":1,"method":"ping"}'
}
ask "$upstream" >"$tmp/expected"
# Ready once it passes a request on and brings back what the upstream itself answers to it.
peer_ready() { ask "http://127.0.0.1:$1$upstream_path" >"$tmp/check" 2>/dev/null && cmp -s "$tmp/check" "$tmp/expected"; }
export UPSTREAM_ADDRESS=$upstream_hostport
port=$(start_nginx_from "$root/bench/gateway/nginx_proxy.conf.in" "$tmp/nginx" nginx peer_ready) || exit 1
peer="http://127.0.0.1:$port$upstream_path"

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
run "$peer" >/dev/null
echo "| round | direct requests/s | through the gateway | kept | through nginx | kept | gateway / nginx |"
echo "|---|---|---|---|---|---|---|"
for r in $(seq 1 "$rounds"); do
  d=$(run "$upstream")
  g=$(run "$through")
  n=$(run "$peer")
  awk -v r="$r" -v d="$d" -v g="$g" -v n="$n" \
    'BEGIN { printf "| %d | %.0f | %.0f | %.0f%% | %.0f | %.0f%% | %.0f%% |\n", r, d, g, 100 * g / d, n, 100 * n / d, 100 * g / n }'
done
echo "(upstream ${UPSTREAM:-ours}, $conns connections, ${secs}s per run, $("$nginx_bin" -v 2>&1 | sed 's/^nginx version: //') with 2 workers, load average $(cut -d' ' -f1-3 /proc/loadavg))"
rm -rf "$state"
