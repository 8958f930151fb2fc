#!/usr/bin/env bash
# Configures and builds everything into build/ (programs in build/bin/). Needs scripts/setup.sh first.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build_type=${BUILD_TYPE:-RelWithDebInfo}
# Line tables only (-g1): backtraces, perf and sanitizer reports keep file:line, and the build takes
# a quarter less time than with full debug info (Boost.Beast's templates dominate). For a debugger,
# configure your own folder with -DCMAKE_BUILD_TYPE=Debug.
if [ ! -f build/build.ninja ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE="$build_type" \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" >/dev/null
fi
# Two cores here; ninja's default of cores+2 jobs only adds memory pressure.
ninja -C build -j"${JOBS:-$(nproc)}" "$@"
