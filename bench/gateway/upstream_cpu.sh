#!/bin/bash
# CPU per call of the HTTP upstream and of the bench process, one path of one row of bench_gateway.
# usage: bench/gateway/upstream_cpu.sh BIN_DIR direct|gateway [ROW] [CALLERS]
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
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
s0=$(ticks "$server"); b0=$(ticks "$bench"); sleep 4; s1=$(ticks "$server"); b1=$(ticks "$bench")
wait "$bench"
rate=$(grep -o '[0-9]* calls/s' "upstream_cpu_$path.txt" | cut -d' ' -f1)
hz=$(getconf CLK_TCK)
echo "$row $path: $rate calls/s; upstream $(( (s1 - s0) * 1000000 / hz / (rate * 4) )) us of CPU per call; bench process $(( (b1 - b0) * 1000000 / hz / (rate * 4) )) us"
