#!/usr/bin/env bash
# Runs every server scenario of the official conformance suite for one protocol revision
# (--suite all: active and pending) against our everything-server over Streamable HTTP, holding
# the result to that revision's expected-failures file (the suite fails on an unexpected failure
# or a stale entry).
# Usage: run_server_suite.sh <everything-server binary> <spec version, e.g. 2025-11-25>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
server_bin=$(readlink -f "$1")
version=$2
node="$root/.deps/node/node_modules/.bin/node"
suite="$root/.deps/node/node_modules/@modelcontextprotocol/conformance/dist/index.js"
baseline="$here/expected-failures/$version.yml"
[ -x "$node" ] && [ -f "$suite" ] || { echo "conformance suite not installed: run scripts/setup.sh" >&2; exit 1; }
[ -f "$baseline" ] || { echo "no expected-failures file for $version: $baseline" >&2; exit 1; }

work=$(mktemp -d)  # the server's log and the suite's results
log="$work/server.log"
"$server_bin" --http --port 0 >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$work"' EXIT
url=""
for _ in $(seq 1 200); do
  url=$(grep -o 'http://localhost:[0-9]*/mcp' "$log" || true)
  [ -n "$url" ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
[ -n "$url" ] || { echo "everything-server did not start:"; cat "$log"; exit 1; }
echo "server at $url"
cd "$work"
set +e
out=$("$node" "$suite" server --url "$url" --spec-version "$version" --suite all \
        --expected-failures "$baseline" -o "$work/results" 2>&1)
status=$?
set -e
if [ "$status" -ne 0 ]; then
  echo "$out"
  echo "--- the failed checks:"
  "$node" "$here/print_failed_checks.js" "$work/results"
  # And the server's own view of those requests.
  echo "--- the server's last lines:"
  tail -n 20 "$log" | cut -c1-300
else
  echo "$out" | sed -n '/SUMMARY/,$p'
fi
listed=$("$node" "$suite" list --server --spec-version "$version" | sed -n 's/^  - \([^ ]*\).*/\1/p')
for s in $listed; do
  grep -qE "^[✓✗] $s:" <<<"$out" || { echo "scenario $s is listed for $version but was not run" >&2; status=1; }
done
exit "$status"
