#!/usr/bin/env bash
# Runs every client scenario the official conformance suite lists for one protocol revision
# (--suite all) against our everything-client, holding the result to that revision's
# expected-failures file. The suite itself fails the run on an unexpected failure or a stale entry,
# so a scenario added to the suite is run, and can never be skipped silently.
# Usage: run_client_suite.sh <everything-client binary> <spec version, e.g. 2025-11-25>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
client_bin=$(readlink -f "$1")
version=$2
node="$root/.deps/node/node_modules/.bin/node"
suite="$root/.deps/node/node_modules/@modelcontextprotocol/conformance/dist/index.js"
baseline="$here/expected-failures/$version.yml"
[ -x "$node" ] && [ -f "$suite" ] || { echo "conformance suite not installed: run scripts/setup.sh" >&2; exit 1; }
[ -f "$baseline" ] || { echo "no expected-failures file for $version: $baseline" >&2; exit 1; }
work=$(mktemp -d)  # the suite's results
trap 'rm -rf "$work"' EXIT
cd "$work"
set +e
out=$("$node" "$suite" client --command "$client_bin" --suite all --spec-version "$version" \
        --expected-failures "$baseline" -o "$work/results" 2>&1)
status=$?
set -e
# The per-scenario summary and the baseline verdict; everything on failure, and last the failed
# checks, which the summary does not name.
if [ "$status" -ne 0 ]; then
  echo "$out"
  echo "--- the failed checks:"
  "$node" "$here/print_failed_checks.js" "$work/results"
else
  echo "$out" | sed -n '/SUITE SUMMARY/,$p'
fi
# Belt and braces: every scenario the suite lists for this revision appears in the summary.
listed=$("$node" "$suite" list --client --spec-version "$version" | sed -n 's/^  - \([^ ]*\).*/\1/p')
for s in $listed; do
  grep -qE "^[✓✗] $s:" <<<"$out" || { echo "scenario $s is listed for $version but was not run" >&2; status=1; }
done
exit "$status"
