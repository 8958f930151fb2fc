#!/usr/bin/env bash
# Builds the libFuzzer targets (clang 16; the fuzzed code under ASan + UBSan) into build-fuzz/ and
# runs each one for a while on its seed corpus (tests/fuzz/corpus/<target>, committed) plus a
# working corpus (build-fuzz/corpus/<target>, kept between runs, not committed). Prints one line per
# target: executions, corpus size, and whether it found anything.
#
# Usage: scripts/fuzz.sh [seconds per target, default 60] [target ...]   (default: every target)
# Exits non-zero on any finding (crash, leak, timeout, failed FUZZ_CHECK); the input that triggered
# it is kept in build-fuzz/findings/<target>/ and its path printed. Record long runs in docs/fuzzing.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
secs=${1:-60}
shift || true
build=build-fuzz
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
# clang 16 with libstdc++ 12: <expected> is behind __cpp_concepts >= 202002L, which clang 16
# implements (P0848) but does not advertise until clang 19.
compat="-U__cpp_concepts -D__cpp_concepts=202002L -Wno-builtin-macro-redefined"
if [ ! -f "$build/build.ninja" ]; then
  echo "fuzz: configuring $build (clang 16)" >&2
  CC=clang-16 CXX=clang++-16 cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DMCP_BUILD_TESTS=OFF -DMCP_BUILD_BENCH=OFF -DMCP_BUILD_FUZZERS=ON \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
    -DCMAKE_CXX_FLAGS="$compat $san -fsanitize=fuzzer-no-link" \
    -DCMAKE_EXE_LINKER_FLAGS="$san" >/dev/null
fi
echo "fuzz: building the targets" >&2
ninja -C "$build" -j"${JOBS:-$(nproc)}" fuzzers >&2

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cd tests/fuzz && ls fuzz_*.cpp | sed 's/\.cpp$//')
fi
status=0
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
for t in "${targets[@]}"; do
  seeds="tests/fuzz/corpus/$t"
  work="$build/corpus/$t"
  findings="$build/findings/$t"
  mkdir -p "$work" "$findings" "$seeds"
  log="$build/$t.log"
  set +e
  "$build/fuzz/$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$findings/" "$work" "$seeds" >"$log" 2>&1
  rc=$?
  set -e
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  units=$(ls "$work" | wc -l)
  if [ "$rc" -eq 0 ]; then
    printf 'fuzz: %-22s ok       %12s executions in %ss, corpus %s\n' "$t" "${execs:-?}" "$secs" "$units"
  else
    status=1
    printf 'fuzz: %-22s FINDING  (exit %s) after %s executions; inputs in %s; log %s\n' "$t" "$rc" "${execs:-?}" "$findings" "$log"
    grep -E 'ERROR|FUZZ_CHECK|SUMMARY|runtime error' "$log" | head -n 5 | sed 's/^/    /'
  fi
done
exit "$status"
