#!/usr/bin/env bash
# Runs the trust benchmarks, C++ then node, back to back in one session so their ratio means
# something on a shared machine. Both sides report CPU time per operation (Google Benchmark's "CPU"
# column; process.cpuUsage() in node) and wall time beside it; compare CPU with CPU, and run on an
# idle machine (the load average is printed first).
# Usage: bench/trust/run.sh [build dir, default build]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
echo "== load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== C++ (bench_trust): name, wall time, CPU time, iterations"
"$build/bin/bench_trust" --benchmark_min_time=0.5 --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
  2>&1 | grep -E '_median' || true
echo "== node $("$root/.deps/node/node_modules/.bin/node" --version) (trust_bench.mjs)"
"$root/.deps/node/node_modules/.bin/node" "$root/bench/trust/trust_bench.mjs" 1
