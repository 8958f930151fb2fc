#!/usr/bin/env bash
# Runs the official conformance suite's client scenarios that need no OAuth against our
# everything-client. Usage: run_client_suite.sh <everything-client binary>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
client_bin=$(readlink -f "$1")
node="$root/.deps/node/node_modules/.bin/node"
suite="$root/.deps/node/node_modules/@modelcontextprotocol/conformance/dist/index.js"
[ -x "$node" ] && [ -f "$suite" ] || { echo "conformance suite not installed: run scripts/setup.sh" >&2; exit 1; }
cd "$(mktemp -d)"
status=0
for scenario in initialize tools_call elicitation-sep1034-client-defaults sse-retry json-schema-2020-12-preservation; do
  out=$("$node" "$suite" client --command "$client_bin" --scenario "$scenario" --spec-version 2025-11-25 \
          --expected-failures "$here/expected-failures.yml" 2>&1) || { status=1; echo "$out"; }
  verdict=$(echo "$out" | grep -E 'OVERALL|Baseline' | tail -n 1)
  echo "$scenario: ${verdict:-no verdict}"
done
exit $status
