#!/usr/bin/env bash
# Sets up (idempotently), builds, and runs the main job: our MCP client starts our conformance
# everything-server over stdio, lists what it offers and calls a tool. Pass another server command
# to inspect it instead, e.g.  scripts/run.sh .deps/node/node_modules/.bin/mcp-server-everything
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/setup.sh
# Only the two programs the job runs (a full build, tests and benchmarks included, is scripts/test.sh).
scripts/build.sh mcp-inspect everything-server >/dev/null
if [ $# -gt 0 ]; then
  exec build/bin/mcp-inspect -- "$@"
fi
exec build/bin/mcp-inspect --call test_simple_text -- build/bin/everything-server
