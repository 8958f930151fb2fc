#!/usr/bin/env bash
# Runs the trust benchmarks, C++ then node, back to back in one session so their ratio means
# something on a shared machine. Usage: bench/trust/run.sh [build dir, default build]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
echo "== C++ (bench_trust)"
"$build/bin/bench_trust" --benchmark_min_time=0.5 --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
  2>&1 | grep -E '_median' || true
echo "== node $("$root/.deps/node/node_modules/.bin/node" --version) (trust_bench.mjs)"
"$root/.deps/node/node_modules/.bin/node" "$root/bench/trust/trust_bench.mjs" 1
