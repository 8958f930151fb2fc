// tests/support/source_root.hpp — the project's source folder, as CMake knew it.
//
// Tests find their scripts and the project's Node folder (.deps/node) from here. Not from
// __FILE__: a build whose ccache sets base_dir compiles with relative paths, and __FILE__ is then
// relative to wherever the compiler ran, not to where the test runs.
#pragma once

#include <cstdlib>
#include <filesystem>

#ifndef MCP_SOURCE_ROOT
#error "MCP_SOURCE_ROOT is set for every test by mcp_add_test (tests/CMakeLists.txt)"
#endif

namespace mcp::test {

inline std::filesystem::path source_root() { return MCP_SOURCE_ROOT; }

// The Node peers' folder: MCP_NODE_DIR when set, else the project's .deps/node (scripts/setup.sh).
inline std::filesystem::path node_dir() {
  const char* v = std::getenv("MCP_NODE_DIR");
  return v && *v ? std::filesystem::path(v) : source_root() / ".deps" / "node";
}

}  // namespace mcp::test
