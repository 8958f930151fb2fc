// tests/support/source_root.hpp — the project's source folder, as CMake knew it.
//
// Tests find their scripts and the project's Node folder (.deps/node) from here. Not from
// __FILE__: a build whose ccache sets base_dir compiles with relative paths, and __FILE__ is then
// relative to wherever the compiler ran, not to where the test runs.
#pragma once

#include <filesystem>

#ifndef MCP_SOURCE_ROOT
#error "MCP_SOURCE_ROOT is set for every test by mcp_add_test (tests/CMakeLists.txt)"
#endif

namespace mcp::test {

inline std::filesystem::path source_root() { return MCP_SOURCE_ROOT; }

}  // namespace mcp::test
