#!/usr/bin/env bash
# Sets up (idempotently), builds, and runs every test: unit tests, the schema check, and interop with
# the reference TypeScript SDK and servers. Prints ctest's summary; exits non-zero if anything failed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
echo "== set-up" >&2
scripts/setup.sh
echo "== build" >&2
scripts/build.sh
echo "== tests" >&2
cd build
ctest --output-on-failure --timeout 300 -j"${JOBS:-2}" "$@"
