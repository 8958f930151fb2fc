#!/bin/bash
# Two builds of bench_gateway run in turn, N times, on one row: the throughput share each run kept.
# usage: bench/gateway/alternate.sh N ROW BENCH_A BENCH_B
#   BENCH_A, BENCH_B: bench_gateway binaries, each beside the everything-server it runs (copy both
#   into a folder per build). Run from a scratch folder (each run writes its state there). On this
#   kind of shared host one pair says little: compare medians over 8 or more.
set -euo pipefail
n=$1 row=$2 a=$3 b=$4
for _ in $(seq 1 "$n"); do
  for bin in "$a" "$b"; do
    share=$("$bin" --only "$row" --iterations 20000 2>&1 | grep -o '([0-9]*%' | head -1 | tr -d '(%')
    echo "$bin $share"
    pkill -f 'everything-server --http' || true  # the HTTP rows' child, if the bench left it
  done
done
