#!/usr/bin/env bash
# Sets up (idempotently), builds, and runs every test:
#   1. the release build of what ships (libraries, programs, examples, benchmarks), the
#      installed-SDK test against it (label `install`) and every row of the gateway bench called
#      end to end (label `bench`);
#   2. the whole suite under ASan + UBSan (scripts/sanitize.sh asan): unit, schema drift, the
#      conformance suite for both protocol revisions, interop with the reference SDKs;
#   3. the concurrent code's tests under TSan (scripts/sanitize.sh tsan);
#   4. a smoke pass of every fuzzer (scripts/fuzz.sh, FUZZ_SECONDS per target, default 10).
# Why the suite runs once, under the sanitizers, and not also in release: each test binary built a
# third time cost CI ~10 minutes of its 90 on a cold cache (docs/ci.md). The price: no test runs
# against -O2 code in CI (the sanitizer builds are -Og; the tests' own code -O0). `scripts/build.sh
# && cd build && ctest` still runs the suite in release.
# Every stage runs even if an earlier one failed; the exit status is non-zero if any failed, and a
# summary says which. Extra arguments go to the ASan stage's ctest.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
started=$(date +%s)
marker=$(mktemp)  # logs newer than this were written by this run
trap 'rm -f "$marker"' EXIT
stage() { echo "== $1 ($(( $(date +%s) - started ))s)" >&2; }
failed=()

stage "set-up"
scripts/setup.sh || { echo "set-up failed" >&2; exit 1; }
stage "release build of what ships"
scripts/build.sh src/all tools/all examples/all bench/all || { echo "build failed" >&2; exit 1; }
stage "the installed SDK and every row of bench_gateway (release)"
(cd build && ctest --output-on-failure --timeout 900 -L 'install|bench') || failed+=("install")
stage "every test under ASan + UBSan"
scripts/sanitize.sh asan "$@" || failed+=("asan")
stage "concurrency tests under TSan"
scripts/sanitize.sh tsan || failed+=("tsan")
stage "fuzzers (smoke)"
scripts/fuzz.sh "${FUZZ_SECONDS:-10}" || failed+=("fuzz")
stage "done"
if ((${#failed[@]})); then
  # Which tests, at the very end: a CI log is often read from its tail only.
  for dir in build build-asan build-tsan; do
    log="$dir/Testing/Temporary/LastTestsFailed.log"
    [ -s "$log" ] && [ "$log" -nt "$marker" ] && { echo "failed in $dir:" >&2; sed 's/^/  /' "$log" >&2; }
  done
  # And what each failed test printed last (its assertion, a sanitizer report), bounded, so a
  # failure seen only in CI can be understood from the log's tail.
  for dir in build build-asan build-tsan; do
    log="$dir/Testing/Temporary/LastTestsFailed.log"
    [ -s "$log" ] && [ "$log" -nt "$marker" ] || continue
    head -n 10 "$log" | while IFS=: read -r _ name; do
      echo "--- $dir: $name, the last lines it printed:" >&2
      awk -v t="Test: $name" '$0 ~ /^[0-9]+\/[0-9]+ Test: / { on = (substr($0, index($0, "Test: ")) == t) }
                             on && /^<end of output>/ { on = 0 } on' "$dir/Testing/Temporary/LastTest.log" |
        tail -n 40 | cut -c1-300 | sed 's/^/  /' >&2
    done
  done
  echo "FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "all stages passed" >&2
