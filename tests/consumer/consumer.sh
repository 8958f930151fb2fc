#!/usr/bin/env bash
# The SDK as a user gets it (issue 9, part 7): install the build into a fresh prefix, then build,
# outside this project, the README's example (the ```cpp block under "Using the SDK") plus a file
# including every installed public header, with -Wall -Wextra -Wpedantic -Werror, twice: through
# find_package(mcp-trust CONFIG) and through pkg-config. Each program then answers an initialize and
# a tools/call over stdio.
#
# Usage: consumer.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=${1:?usage: consumer.sh BUILD_DIR SOURCE_DIR}
src=${2:?usage: consumer.sh BUILD_DIR SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
app="$work/app"
mkdir -p "$app"

echo "consumer: installing $build into a fresh prefix" >&2
cmake --install "$build" --prefix "$prefix" >/dev/null
for f in include/mcp/server/server.hpp lib/cmake/mcp-trust/mcp-trust-config.cmake lib/pkgconfig/mcp-trust.pc \
         lib/libmcp_core.a bin/mcp-trust; do
  [ -e "$prefix/$f" ] || { echo "consumer: FAIL: $f was not installed" >&2; exit 1; }
done
if [ -d "$prefix/include/mcp" ] && grep -rlq '#include "\(http\|protocol\|session\|json\|server\|client\)/' "$prefix/include/mcp"; then
  echo "consumer: FAIL: an installed header includes a private one" >&2; exit 1
fi

awk '/^## Using the SDK/{f=1} f && /^```cpp/{g=1; next} g && /^```/{exit} g{print}' "$src/README.md" >"$app/main.cpp"
[ -s "$app/main.cpp" ] || { echo "consumer: FAIL: no C++ example under 'Using the SDK' in README.md" >&2; exit 1; }
(cd "$prefix/include" && find mcp -name '*.hpp' | sort | sed 's/.*/#include <&>/') >"$app/headers.cpp"
echo "consumer: $(wc -l <"$app/headers.cpp") public headers" >&2
cp "$src/tests/consumer/CMakeLists.txt" "$app/"

echo "consumer: find_package(mcp-trust CONFIG)" >&2
cmake -S "$app" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$work/build" >&2

echo "consumer: pkg-config mcp-trust" >&2
# shellcheck disable=SC2046  # the flags are meant to split
c++ -Wall -Wextra -Wpedantic -Werror "$app/main.cpp" "$app/headers.cpp" -o "$work/demo-pc" \
  $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs mcp-trust)

# A result must not be dropped unread ([[nodiscard]]): a consumer that ignores one does not build
# under -Werror. Proven on the client, the server and the session engine.
cat >"$app/ignored.cpp" <<'CPP'
#include <mcp/client/client.hpp>
#include <mcp/server/server.hpp>
void drops(mcp::Client& c, mcp::Server& s, mcp::Session& session) {
#if IGNORE == 1
  c.call_tool("x");
#elif IGNORE == 2
  s.set_signature({});
#elif IGNORE == 3
  session.request("ping", {});
#endif
}
CPP
for n in 1 2 3; do
  # shellcheck disable=SC2046
  if c++ -std=c++23 -DIGNORE=$n -Wall -Werror -c "$app/ignored.cpp" -o /dev/null \
      $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags mcp-trust) 2>"$work/ignored.err"; then
    echo "consumer: FAIL: ignoring a result (case $n) compiled without a warning" >&2; exit 1
  fi
  grep -q 'nodiscard\|unused-result' "$work/ignored.err" || { echo "consumer: FAIL: case $n failed for another reason:" >&2; head -5 "$work/ignored.err" >&2; exit 1; }
done
# shellcheck disable=SC2046
c++ -std=c++23 -DIGNORE=0 -Wall -Werror -c "$app/ignored.cpp" -o /dev/null $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags mcp-trust)
echo "consumer: ignored results are refused at compile time" >&2

check() {  # talk to one build of the example over stdio, as a client does: initialize first
  local line got=""
  coproc DEMO { timeout 60 "$1"; }
  printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"consumer","version":"1"}}}' >&"${DEMO[1]}"
  IFS= read -r -t 30 line <&"${DEMO[0]}" || true
  grep -q '"id":1,"result"' <<<"$line" || { echo "consumer: FAIL: $1 did not answer initialize: ${line:0:500}" >&2; exit 1; }
  printf '%s\n' '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"installed and working"}}}' >&"${DEMO[1]}"
  while IFS= read -r -t 30 line <&"${DEMO[0]}"; do
    if grep -q '"id":2' <<<"$line"; then got=$line; break; fi
  done
  exec {DEMO[1]}>&-
  wait "$DEMO_PID" || true
  grep -q 'installed and working' <<<"$got" || { echo "consumer: FAIL: $1 did not echo: ${got:0:500}" >&2; exit 1; }
}
check "$work/build/demo"
check "$work/demo-pc"
echo "consumer: ok (CMake package and pkg-config; the README example answers over stdio)"
