#!/usr/bin/env bash
# Builds and runs tests under a sanitizer, each in its own build folder (benchmarks not built).
#   scripts/sanitize.sh asan   the whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer
#                              (build-asan/): every test binary and every program the tests run
#   scripts/sanitize.sh tsan   the tests of the concurrent code under ThreadSanitizer (build-tsan/):
#                              session engine, stdio, server, HTTP, and our client against the reference server
# Extra arguments go to ctest. Needs scripts/setup.sh first. Exits non-zero if a test fails or a
# sanitizer reports (sanitizers are set to abort on the first report).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
kind=${1:?usage: scripts/sanitize.sh asan|tsan [ctest args]}
shift
case "$kind" in
  asan)
    flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
    # Programs linked at fixed addresses: UBSan's check sites and ASan's globals each hold
    # pointers, ~2 million of them in a test binary, which a position-independent program has the
    # loader relocate at every start (~0.3 s here). ctest starts a process per test, and many
    # tests start the SDK's programs; docs/ci.md has the measurement.
    exe_flags="-no-pie"
    targets=(all)
    tests=(-LE install)  # the installed-SDK consumer links uninstrumented code; it proves packaging, not memory
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=0}
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
    ;;
  tsan)
    flags="-fsanitize=thread -fno-omit-frame-pointer"
    exe_flags=""  # a TSan program holds few relocations (~7 k): nothing to gain
    targets=(tests/session_test tests/stdio_test tests/stdio_hostile_test tests/server_test tests/http_test tests/http_fd_limit_test
             tests/interop_client_test tests/interop_ts2_server_test tests/file_manager_root_test
             tests/gateway_cli_test tests/gateway_http_test tests/gateway_proxy_test tests/gateway_state_test tests/gateway_restart_test
             tests/gateway_trust_test tests/gateway_reload_test tests/gateway_forward_test mcp-inspect everything-server file-manager)
    tests=(-L concurrency)
    # atexit_sleep_ms: TSan sleeps this long at exit while other threads live (the shared pool's
    # idle threads, never joined), 1 s by default: ~40% of this stage's test time. 100 ms still
    # lets a thread racing the exit run; the tests' main waits for the pool to go idle first.
    export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:atexit_sleep_ms=100}
    ;;
  *) echo "usage: scripts/sanitize.sh asan|tsan [ctest args]" >&2; exit 2 ;;
esac
build="build-$kind"
# Configured every run (a few seconds; a no-op when nothing changed), so a folder made by an older
# version of this script gets today's flags.
echo "sanitize: configuring $build" >&2
# -Og -g1: reports keep file:line; the SDK's files compile in ~30% less time than at -O1 (and -O1
# in ~40% less than -O2 -g), and the ASan suite ran as fast as at -O1 (-O0 compiled a little faster
# but ran the suite 45% slower): docs/ci.md. The tests' own code at -O0 (MCP_TEST_COMPILE_OPTIONS):
# it only drives the SDK, and its files compile in about 40% less time.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMCP_BUILD_BENCH=OFF \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-Og -g1 -DNDEBUG" -DMCP_TEST_COMPILE_OPTIONS=-O0 \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags $exe_flags" -DCMAKE_SHARED_LINKER_FLAGS="$flags" >/dev/null
echo "sanitize: building ${targets[*]} in $build" >&2
ninja -C "$build" -j"${JOBS:-$(nproc)}" "${targets[@]}" >&2
cd "$build"
echo "sanitize: running the tests under $kind" >&2
ctest --output-on-failure --timeout 600 -j"${JOBS:-2}" "${tests[@]}" "$@"
