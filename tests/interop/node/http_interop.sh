#!/usr/bin/env bash
# Streamable HTTP interop with real peers:
#   1. the reference TypeScript SDK client drives our everything-server through every fixture, and
#      its 2.x client, pinned to MCP 2026-07-28, through the stateless and multi round-trip ones;
#   2. the MCP Inspector's CLI lists and calls our server's tools;
#   3. our client (mcp-inspect --url) lists and calls tools of a reference TypeScript SDK server.
# Usage: http_interop.sh <everything-server> <mcp-inspect>
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
server_bin=$1 inspect_bin=$2
export MCP_NODE_DIR="$root/.deps/node"
node="$MCP_NODE_DIR/node_modules/.bin/node"
inspector="$MCP_NODE_DIR/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"
export HOME=$(mktemp -d)  # the Inspector keeps a catalog under ~/.mcp-inspector
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null' EXIT
passed=0 failed=0
check() {  # check NAME COMMAND... : passes when the command exits 0
  local name=$1; shift
  if out=$("$@" 2>&1); then passed=$((passed + 1)); echo "ok   $name"
  else failed=$((failed + 1)); echo "FAIL $name"; echo "$out" | tail -n 20; fi
}
wait_url() {  # wait_url LOGFILE -> prints the URL the program announced
  for _ in $(seq 1 100); do
    url=$(grep -oE 'http://(localhost|127\.0\.0\.1):[0-9]+/mcp' "$1" | head -n 1)
    [ -n "$url" ] && { echo "$url"; return 0; }
    sleep 0.1
  done
  cat "$1" >&2; return 1
}

log1=$(mktemp); "$server_bin" --http --port 0 >"$log1" 2>&1 & pids+=($!)
ours=$(wait_url "$log1") || exit 1
check "reference TS client -> our server over HTTP" "$node" "$here/ts_client_vs_server.mjs" "$ours"
check "reference TS 2.x client (2026-07-28) -> our server over HTTP" "$node" "$here/ts2_client_vs_server.mjs" "$ours"
check "Inspector CLI tools/list" bash -c "'$node' '$inspector' --cli '$ours' --method tools/list | grep -q '\"test_simple_text\"'"
check "Inspector CLI tools/call" bash -c "'$node' '$inspector' --cli '$ours' --method tools/call --tool-name test_simple_text | grep -q 'This is a simple text response for testing.'"
check "Inspector CLI resources/read" bash -c "'$node' '$inspector' --cli '$ours' --method resources/read --uri test://static-text | grep -q 'static text resource'"

log2=$(mktemp); "$node" "$here/ts_http_server.mjs" 0 >"$log2" 2>&1 & pids+=($!)
theirs=$(wait_url "$log2") || exit 1
check "our client -> reference TS server: list and call add" bash -c "'$inspect_bin' --url '$theirs' --call add --args '{\"a\":2,\"b\":3}' | grep -q '\"sum\":5'"
check "our client -> reference TS server: echo unicode" bash -c "'$inspect_bin' --url '$theirs' --call echo --args '{\"text\":\"h\u00e9llo \u2603 \\\"q\\\"\"}' | grep -q 'héllo ☃'"
check "our client -> unknown path fails with a clear error" bash -c "out=\$('$inspect_bin' --url '${theirs%/mcp}/nope' 2>&1); [ \$? -eq 1 ] && echo \"\$out\" | grep -q 'HTTP 404'"

log3=$(mktemp); "$node" "$here/ts_http_server.mjs" 0 --json >"$log3" 2>&1 & pids+=($!)
json_url=$(wait_url "$log3") || exit 1
check "our client -> reference TS server in JSON response mode" bash -c "'$inspect_bin' --url '$json_url' --call add --args '{\"a\":40,\"b\":2}' | grep -q '\"sum\":42'"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
