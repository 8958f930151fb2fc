// The fixture of the gateway state's tests (pins, audit chain, call journal, pin cache): a state
// folder of its own per test, opened as the gateway and the CLI open it.
#pragma once

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "../examples/tmp_dir.hpp"
#include "gateway/state.hpp"

namespace mcp::test {

class StateFolderTest : public ::testing::Test {
 protected:
  // A folder that does not open fails the test (thrown: gtest reports it), never an empty State.
  gateway::State open() {
    auto s = gateway::open_state(dir_.path);
    if (!s) throw std::runtime_error("the state folder did not open: " + s.error().message);
    return *s;
  }
  TmpDir dir_;
};

// The tool the trust-on-first-use tests pin and change: write_file, described as `description`.
inline json::object write_file_tool(const std::string& description) {
  return json::object{{"name", "write_file"}, {"description", description}, {"inputSchema", json::object{{"type", "object"}}}};
}

}  // namespace mcp::test
