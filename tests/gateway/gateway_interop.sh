#!/usr/bin/env bash
# The reference TypeScript clients (1.x and 2.x) and the MCP Inspector's CLI through
# `mcp-trust gateway --config` to the reference server-everything, an unmodified stdio server.
# Usage: gateway_interop.sh BIN_DIR   (MCP_NODE_DIR set: .deps/node). Exits non-zero if a check fails.
set -uo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../support/cli_checks.sh"
node="$MCP_NODE_DIR/node_modules/.bin/node"
everything="$MCP_NODE_DIR/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
inspector="$MCP_NODE_DIR/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"
export HOME="$tmp/home"  # the Inspector keeps a catalog under ~/.mcp-inspector
mkdir -p "$HOME"

cat >"$tmp/servers.json" <<JSON
{"mcpServers": {"everything": {"command": "$node", "args": ["$everything", "stdio"]}}}
JSON
"$bin/mcp-trust" gateway --config "$tmp/servers.json" --listen 127.0.0.1:0 --state "$tmp/state" >"$tmp/gw.out" 2>"$tmp/gw.err" &
pids+=($!)
url=""
for _ in $(seq 1 600); do
  grep -q '^listening on ' "$tmp/gw.out" && { url=$(awk '$1 == "everything" {print $2}' "$tmp/gw.out"); break; }
  kill -0 "${pids[-1]}" 2>/dev/null || break
  sleep 0.05
done
if [ -z "$url" ]; then echo "the gateway did not start:"; cat "$tmp/gw.out" "$tmp/gw.err"; exit 1; fi

run "reference TypeScript clients 1.x and 2.x through the gateway" 0 "passed, 0 failed" -- \
  "$node" "$here/ts_clients_through_gateway.mjs" "$url"
run "Inspector CLI tools/list through the gateway" 0 '"echo"' -- \
  "$node" "$inspector" --cli "$url" --method tools/list
run "Inspector CLI tools/call through the gateway" 0 'Echo: inspected' -- \
  "$node" "$inspector" --cli "$url" --method tools/call --tool-name echo --tool-arg message=inspected
# Each call's record is committed within milliseconds of its answer (the journal holds it
# meanwhile): the Inspector's echo call is waited for, bounded, before the checks. The pins of the
# upstream's tools are records too, so the chain's count alone would not show a call was recorded.
calls() { "$bin/mcp-trust" audit export --state "$tmp/state" | grep '"kind":"call"' | grep -c '"item":"echo"'; }
for _ in $(seq 1 100); do [ "$(calls)" -ge 2 ] && break; sleep 0.1; done
run "the clients' and the Inspector's echo calls are in the audit log as calls" 0 '"item":"echo"' -- \
  sh -c "'$bin/mcp-trust' audit export --state '$tmp/state' | grep '\"kind\":\"call\"'"
expect "at least the Inspector's and one reference client's echo are recorded" "$([ "$(calls)" -ge 2 ]; echo $?)" "$(calls) recorded"
run "every call through the gateway is audited and the chain verifies" 0 "^intact: [1-9][0-9]* records" -- \
  "$bin/mcp-trust" audit verify --state "$tmp/state"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
