#!/bin/bash
# CPU per call of the HTTP upstream and of the bench process, one path of one row of bench_gateway.
# usage: bench/gateway/upstream_cpu.sh BIN_DIR direct|gateway [ROW] [CALLERS]
# On the gateway path it also reports the gateway's audit writer thread (named mcp-audit), which is
# part of the bench process's figure.
#   ROW defaults to http-same-links, CALLERS to 4. Run from a scratch folder (the bench writes its
#   state there). Reads utime+stime from /proc 4 s apart, after a 4 s warm-up, and divides by the
#   calls made in that time (the rate the bench reports for its whole run).
set -euo pipefail
bin=$1 path=$2 row=${3:-http-same-links} callers=${4:-4}
"$bin/bench_gateway" --bin "$bin" --only "$row" --profile "$path" --iterations 150000 --callers "$callers" >"upstream_cpu_$path.txt" 2>&1 &
bench=$!
server=""
for _ in $(seq 1 100); do
  server=$(pgrep -P "$bench" -f 'everything-server --http' || true)
  [ -n "$server" ] && break
  sleep 0.1
done
[ -n "$server" ] || { echo "no HTTP upstream started by the bench" >&2; exit 1; }
sleep 4
ticks() { awk '{print $14 + $15}' "$1/stat"; }  # a process's or a thread's /proc folder
writer=""
for task in /proc/"$bench"/task/*; do
  [ "$(cat "$task/comm" 2>/dev/null)" = mcp-audit ] && writer=$task
done
s0=$(ticks "/proc/$server"); b0=$(ticks "/proc/$bench"); w0=$([ -n "$writer" ] && ticks "$writer" || echo 0)
sleep 4
s1=$(ticks "/proc/$server"); b1=$(ticks "/proc/$bench"); w1=$([ -n "$writer" ] && ticks "$writer" || echo 0)
wait "$bench"
rate=$(grep -o '[0-9]* calls/s' "upstream_cpu_$path.txt" | cut -d' ' -f1)
hz=$(getconf CLK_TCK)
per_call() { echo "$(( $1 * 10000000 / hz / (rate * 4) ))" | sed -E 's/([0-9])$/.\1/; s/^\./0./'; }  # in tenths of a µs
line="$row $path: $rate calls/s; upstream $(per_call $((s1 - s0))) us of CPU per call; bench process $(per_call $((b1 - b0))) us"
[ -n "$writer" ] && line="$line (of which the audit writer $(per_call $((w1 - w0))) us)"
echo "$line"
