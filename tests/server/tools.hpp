// Helpers shared by the server tests: a minimal tool definition.
#pragma once

#include <string>

#include "mcp/protocol/tool.hpp"

namespace mcp::test {

inline Tool make_tool(std::string name) {
  Tool t;
  t.name = std::move(name);
  t.description = "test tool";
  return t;
}

}  // namespace mcp::test
