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

log=$(mktemp)
"$server_bin" --http --port 0 >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -f "$log"' EXIT
url=""
for _ in $(seq 1 200); do
  url=$(grep -o 'http://localhost:[0-9]*/mcp' "$log" || true)
  [ -n "$url" ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
[ -n "$url" ] || { echo "everything-server did not start:"; cat "$log"; exit 1; }
echo "server at $url"
work=$(mktemp -d)
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -f "$log"; rm -rf "$work"' EXIT
cd "$work"
set +e
out=$("$node" "$suite" server --url "$url" --spec-version "$version" --suite all \
        --expected-failures "$baseline" -o "$work/results" 2>&1)
status=$?
set -e
if [ "$status" -ne 0 ]; then
  echo "$out"
  # The summary names a failed scenario, not the check in it nor why: print each failed check's
  # id, message and details (cut short), last, where a CI log's tail shows them; and what the
  # server printed, its own view of those requests.
  echo "--- the failed checks:"
  "$node" -e '
    const fs = require("fs"), path = require("path");
    for (const dir of fs.readdirSync(process.argv[1])) {
      const file = path.join(process.argv[1], dir, "checks.json");
      if (!fs.existsSync(file)) continue;
      for (const c of JSON.parse(fs.readFileSync(file, "utf8")))
        if (c.status === "FAILURE")
          console.log(`${dir}: ${c.id}: ${c.errorMessage ?? ""} ${JSON.stringify(c.details ?? {}).slice(0, 600)}`);
    }' "$work/results"
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
