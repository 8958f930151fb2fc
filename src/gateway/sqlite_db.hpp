// Private to the gateway: one SQLite database file, opened for durability (WAL with
// synchronous=FULL: a write acknowledged by commit survives kill -9 of the process), with errors as
// values. Statements are prepared per use; the gateway's are few and small.
//
// Thread-safety: a Db serialises its own use (one mutex); a Stmt belongs to the thread that made it
// under Db::locked.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "mcp/error.hpp"

namespace mcp::gateway {

class Stmt {
 public:
  Stmt(sqlite3* db, sqlite3_stmt* s) : db_(db), s_(s) {}
  Stmt(Stmt&& o) noexcept : db_(o.db_), s_(std::exchange(o.s_, nullptr)) {}
  Stmt& operator=(Stmt&&) = delete;
  Stmt(const Stmt&) = delete;
  ~Stmt() { sqlite3_finalize(s_); }

  Stmt& bind(int i, std::string_view text);
  Stmt& bind(int i, std::int64_t v);
  Stmt& bind_null(int i);
  // One step: true with a row to read, false when done.
  [[nodiscard]] Result<bool> step();
  std::string text(int col) const;  // "" for NULL
  std::optional<std::string> optional_text(int col) const;
  std::int64_t integer(int col) const;

 private:
  sqlite3* db_;
  sqlite3_stmt* s_;
};

class Db {
 public:
  // Creates the file (and its folder, mode 0700) if needed.
  static Result<std::unique_ptr<Db>> open(const std::filesystem::path& file);
  ~Db();
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  // Runs `body` with the connection held, inside one IMMEDIATE transaction: committed if `body`
  // succeeds, rolled back if it fails (its error returned).
  [[nodiscard]] Result<void> transaction(const std::function<Result<void>(Db&)>& body);
  // Runs `body` with the connection held, without a transaction (reads).
  [[nodiscard]] Result<void> locked(const std::function<Result<void>(Db&)>& body);

  // Only inside transaction/locked:
  [[nodiscard]] Result<void> exec(std::string_view sql);
  [[nodiscard]] Result<Stmt> prepare(std::string_view sql);

  const std::filesystem::path& file() const { return file_; }

 private:
  Db(sqlite3* db, std::filesystem::path file) : db_(db), file_(std::move(file)) {}
  Error error(std::string_view what) const;
  sqlite3* db_;
  std::filesystem::path file_;
  std::recursive_mutex mu_;
};

}  // namespace mcp::gateway
