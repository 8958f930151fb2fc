// Pins written straight into a state folder's gateway.db, as hours of an upstream renaming its
// tools would leave them, for the tests that bound what such a table costs (the review page's poll,
// the pin store's limits). Open the folder once first: the tables must exist.
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <string>

namespace mcp::test {

// `rows` tools of `server`, named renamed_0, renamed_1, ..., each with `definition` as the one seen
// and the one approved: the first `quarantined` rows quarantined, the rest approved. One
// transaction, unsynced.
inline void insert_pins(const std::filesystem::path& dir, const std::string& server, int rows,
                        const std::string& definition, int quarantined = 0) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir / "gateway.db").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "PRAGMA synchronous=OFF; BEGIN", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_stmt* insert = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(
                db,
                "INSERT INTO pins (server, kind, key, approved_hash, approved_definition, seen_hash,"
                " seen_definition, state, updated) VALUES (?, 'tools', ?, 'h', ?, 'h', ?, ?, '2026-11-28T00:00:00Z')",
                -1, &insert, nullptr),
            SQLITE_OK);
  const int bytes = static_cast<int>(definition.size());
  for (int i = 0; i < rows; ++i) {
    const std::string key = "renamed_" + std::to_string(i);
    sqlite3_bind_text(insert, 1, server.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(insert, 2, key.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(insert, 3, definition.c_str(), bytes, SQLITE_STATIC);
    sqlite3_bind_text(insert, 4, definition.c_str(), bytes, SQLITE_STATIC);
    sqlite3_bind_text(insert, 5, i < quarantined ? "quarantined" : "approved", -1, SQLITE_STATIC);
    ASSERT_EQ(sqlite3_step(insert), SQLITE_DONE);
    sqlite3_reset(insert);
  }
  sqlite3_finalize(insert);
  ASSERT_EQ(sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
}

}  // namespace mcp::test
