// Shared by the tests of the gateway program: where the built programs are, and what a client
// sees of a result or a list.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "mcp/client/client.hpp"

namespace mcp::gateway_test {

// A program of the build (MCP_BIN, set by ctest; else the build's bin folder).
inline std::string bin(const std::string& program) {
  const char* b = std::getenv("MCP_BIN");
  return std::string(b ? b : MCP_GATEWAY_BIN_FALLBACK) + "/" + program;
}

// Every text block of a result, joined.
inline std::string text_of(const CallToolResult& r) {
  std::string out;
  for (const auto& block : r.content)
    if (const auto* t = std::get_if<TextContent>(&block)) out += t->text;
  return out;
}

// Whether `c` lists `tool` now (a failed list fails the test).
inline bool lists(Client& c, const std::string& tool) {
  auto tools = c.list_all_tools();
  EXPECT_TRUE(tools) << tools.error().message;
  if (!tools) return false;
  return std::any_of(tools->begin(), tools->end(), [&](const Tool& t) { return t.name == tool; });
}

}  // namespace mcp::gateway_test
