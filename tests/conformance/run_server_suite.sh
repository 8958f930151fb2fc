#!/usr/bin/env bash
# Runs the official conformance suite's server scenarios (--suite all: active and pending) against
# our everything-server over Streamable HTTP. Usage: run_server_suite.sh <everything-server binary>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
server_bin=$(readlink -f "$1")
node="$root/.deps/node/node_modules/.bin/node"
suite="$root/.deps/node/node_modules/@modelcontextprotocol/conformance/dist/index.js"
[ -x "$node" ] && [ -f "$suite" ] || { echo "conformance suite not installed: run scripts/setup.sh" >&2; exit 1; }

log=$(mktemp)
"$server_bin" --http --port 0 >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -f "$log"' EXIT
url=""
for _ in $(seq 1 100); do
  url=$(grep -o 'http://localhost:[0-9]*/mcp' "$log" || true)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "everything-server did not start:"; cat "$log"; exit 1; }
echo "server at $url"
cd "$(mktemp -d)"
"$node" "$suite" server --url "$url" --spec-version 2025-11-25 --suite all \
  --expected-failures "$here/expected-failures.yml" 2>&1 | grep -vE '^\s*$' | grep -vE 'Running (client )?scenario' || status=${PIPESTATUS[0]}
exit "${status:-0}"
