// Private to the gateway: one SQLite database file in WAL mode with synchronous=NORMAL (a commit
// survives kill -9 of the process; a transaction that must survive power loss asks for FULL:
// Db::Durability), with errors as values. Statements are prepared once per connection and reused.
//
// Thread-safety: a Db serialises its own use (one mutex); a Stmt belongs to the thread that made it
// under Db::locked, and goes before the lock is let go. The connection is opened without SQLite's
// own mutex, so nothing may touch it outside that lock.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "mcp/error.hpp"

namespace mcp::gateway {

// A prepared statement. One of the Db's cache (`busy` set) is only reset when this goes, for the
// next prepare() of the same SQL; any other is finalized.
class Stmt {
 public:
  Stmt(sqlite3* db, sqlite3_stmt* s, bool* busy = nullptr) : db_(db), s_(s), busy_(busy) {}
  Stmt(Stmt&& o) noexcept : db_(o.db_), s_(std::exchange(o.s_, nullptr)), busy_(std::exchange(o.busy_, nullptr)) {}
  Stmt& operator=(Stmt&&) = delete;
  Stmt(const Stmt&) = delete;
  ~Stmt();

  Stmt& bind(int i, std::string_view text);
  // The same without copying `text`: it must stay valid and unchanged until this statement is
  // destroyed (the statement reads it when stepped).
  Stmt& bind_view(int i, std::string_view text);
  Stmt& bind(int i, std::int64_t v);
  Stmt& bind_null(int i);
  // One step: true with a row to read, false when done.
  [[nodiscard]] Result<bool> step();
  std::string text(int col) const;  // "" for NULL
  std::optional<std::string> optional_text(int col) const;
  std::int64_t integer(int col) const;
  // Steps through every row, calling `row(*this)` for each; stops at the first error, of a step
  // or (when `row` returns a Result) of `row`.
  template <class F>
  [[nodiscard]] Result<void> each_row(F&& row) {
    for (;;) {
      auto r = step();
      if (!r) return fail(r.error());
      if (!*r) return {};
      if constexpr (std::is_void_v<std::invoke_result_t<F&, const Stmt&>>) {
        row(std::as_const(*this));
      } else if (auto ok = row(std::as_const(*this)); !ok) {
        return fail(ok.error());
      }
    }
  }

 private:
  sqlite3* db_;
  sqlite3_stmt* s_;
  bool* busy_;
};

class Db {
 public:
  // Creates the file (and its folder, mode 0700) if needed.
  static Result<std::unique_ptr<Db>> open(const std::filesystem::path& file);
  ~Db();
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  // Runs `body` with the connection held, inside one IMMEDIATE transaction: committed if `body`
  // succeeds, rolled back if it fails (its error returned). Once committed it survives the
  // process being killed (kill -9: the commit is in the WAL file the kernel holds); with
  // Durability::power_loss the WAL is also flushed to the disk before this returns (fsync), which
  // costs about a millisecond, so only decisions ask for it. A later power-loss commit flushes
  // every earlier one too.
  enum class Durability { process_crash, power_loss };
  [[nodiscard]] Result<void> transaction(const std::function<Result<void>(Db&)>& body,
                                         Durability durability = Durability::power_loss);
  // Runs `body` with the connection held, without a transaction (reads).
  [[nodiscard]] Result<void> locked(const std::function<Result<void>(Db&)>& body);

  // Only inside transaction/locked:
  [[nodiscard]] Result<void> exec(std::string_view sql);
  // Statements are prepared once per connection and reused (parsing costs more than running the
  // small statements the gateway makes on every call); a statement already in use is prepared anew.
  [[nodiscard]] Result<Stmt> prepare(std::string_view sql);
  // `sql` with `args` bound in order (?1, ?2, ...: text or integers), stepped once: the statement
  // on its first row, to read; none when it returned no row.
  template <class... Args>
  [[nodiscard]] Result<std::optional<Stmt>> first_row(std::string_view sql, const Args&... args) {
    auto s = bound(sql, args...);
    if (!s) return fail(s.error());
    auto row = s->step();
    if (!row) return fail(row.error());
    if (!*row) return std::optional<Stmt>();
    return std::optional<Stmt>(std::move(*s));
  }
  // `sql` with `args` bound in order, run to its end (an INSERT, UPDATE or DELETE).
  template <class... Args>
  [[nodiscard]] Result<void> run(std::string_view sql, const Args&... args) {
    auto s = bound(sql, args...);
    if (!s) return fail(s.error());
    if (auto done = s->step(); !done) return fail(done.error());
    return {};
  }
  // Rows the last INSERT, UPDATE or DELETE changed.
  std::int64_t changes() const;

  const std::filesystem::path& file() const { return file_; }

 private:
  Db(sqlite3* db, std::filesystem::path file) : db_(db), file_(std::move(file)) {}
  Error error(std::string_view what) const;
  template <class... Args>
  Result<Stmt> bound(std::string_view sql, const Args&... args) {
    auto s = prepare(sql);
    if (!s) return s;
    int i = 0;
    (s->bind(++i, args), ...);
    return s;
  }
  struct Cached {
    sqlite3_stmt* stmt = nullptr;
    bool busy = false;
  };
  std::map<std::string, Cached, std::less<>> cache_;  // guarded by mu_ (prepare runs under it)
  sqlite3* db_;
  std::filesystem::path file_;
  std::recursive_mutex mu_;
};

}  // namespace mcp::gateway
