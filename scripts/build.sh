#!/usr/bin/env bash
# Configures and builds everything into build/ (programs in build/bin/). Needs scripts/setup.sh first.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build_type=${BUILD_TYPE:-RelWithDebInfo}
if [ ! -f build/build.ninja ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE="$build_type" >/dev/null
fi
# Two cores here; ninja's default of cores+2 jobs only adds memory pressure.
ninja -C build -j"${JOBS:-$(nproc)}" "$@"
