// The fixture of the gateway state's tests (pins, audit chain, call journal, pin cache): a state
// folder of its own per test, opened as the gateway and the CLI open it.
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

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

// Appends `n` records of kind "call" ({"n": 0..n-1}) to the state's audit chain, each committed.
inline void append_records(const gateway::State& s, int n) {
  for (int i = 0; i < n; ++i) ASSERT_TRUE(s.audit->append("call", json::object{{"n", i}}));
}

// Every record of the state's audit log, in sequence order, as stored.
inline std::vector<gateway::AuditRecord> audit_records(const gateway::State& s) {
  std::vector<gateway::AuditRecord> out;
  EXPECT_TRUE(s.audit->each([&](const gateway::AuditRecord& r) {
    out.push_back(r);
    return true;
  }));
  return out;
}

// Runs `sql` on the state file behind the gateway's back, as a local attacker would.
inline void tamper(const std::filesystem::path& dir, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir / "gateway.db").c_str(), &db), SQLITE_OK);
  char* err = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
  sqlite3_free(err);
  sqlite3_close(db);
}

// The tool the trust-on-first-use tests pin and change: write_file, described as `description`.
inline json::object write_file_tool(const std::string& description) {
  return json::object{{"name", "write_file"}, {"description", description}, {"inputSchema", json::object{{"type", "object"}}}};
}

}  // namespace mcp::test
