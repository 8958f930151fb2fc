#include "gateway/sqlite_db.hpp"

#include <sys/stat.h>

namespace mcp::gateway {

Stmt::~Stmt() {
  if (!s_) return;
  if (busy_) {
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
    *busy_ = false;
  } else {
    sqlite3_finalize(s_);
  }
}

Stmt& Stmt::bind(int i, std::string_view text) {
  sqlite3_bind_text(s_, i, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
  return *this;
}
Stmt& Stmt::bind_view(int i, std::string_view text) {
  sqlite3_bind_text(s_, i, text.data(), static_cast<int>(text.size()), SQLITE_STATIC);
  return *this;
}
Stmt& Stmt::bind(int i, std::int64_t v) {
  sqlite3_bind_int64(s_, i, v);
  return *this;
}
Stmt& Stmt::bind_null(int i) {
  sqlite3_bind_null(s_, i);
  return *this;
}

Result<bool> Stmt::step() {
  const int rc = sqlite3_step(s_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return fail(Error::internal(std::string("state database: ") + sqlite3_errmsg(db_)));
}

std::string Stmt::text(int col) const {
  const auto* p = sqlite3_column_text(s_, col);
  return p ? std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(sqlite3_column_bytes(s_, col)))
           : std::string();
}
std::optional<std::string> Stmt::optional_text(int col) const {
  if (sqlite3_column_type(s_, col) == SQLITE_NULL) return std::nullopt;
  return text(col);
}
std::int64_t Stmt::integer(int col) const { return sqlite3_column_int64(s_, col); }

Result<std::unique_ptr<Db>> Db::open(const std::filesystem::path& file) {
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  if (ec) return fail(Error::invalid_params("cannot create " + file.parent_path().string() + ": " + ec.message()));
  ::chmod(file.parent_path().c_str(), 0700);  // pins and the audit log are the user's alone
  // SQLite's count of its own memory takes a process-wide mutex on every allocation it makes
  // (each audit row's insert makes several, on the writer thread, while calls read pins): nothing
  // here reads the count. This works only before SQLite's first use in the process; when it
  // comes later (another library used SQLite first) SQLite refuses it and keeps counting.
  static std::once_flag memstatus;
  std::call_once(memstatus, [] { (void)sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); });
  sqlite3* raw = nullptr;
  // NOMUTEX: every use of the connection is under this Db's own mutex (locked(), transaction()),
  // so SQLite's per-call mutex on the connection would only be taken again, uncontended.
  const int rc =
      sqlite3_open_v2(file.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  std::unique_ptr<Db> db(new Db(raw, file));
  if (rc != SQLITE_OK) return fail(db->error("cannot open " + file.string()));
  sqlite3_busy_timeout(raw, 5000);  // another mcp-trust process (approve) may hold the lock briefly
  // NORMAL in WAL mode: a commit is written to the WAL (kill -9 safe) without an fsync; a
  // transaction that must survive power loss switches to FULL for its commit (transaction()).
  auto ok = db->locked([](Db& d) { return d.exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"); });
  if (!ok) return fail(ok.error());
  return db;
}

Db::~Db() {
  for (auto& [sql, c] : cache_) sqlite3_finalize(c.stmt);
  sqlite3_close(db_);
}

Error Db::error(std::string_view what) const {
  return Error::internal(std::string(what) + ": " + (db_ ? sqlite3_errmsg(db_) : "out of memory"));
}

std::int64_t Db::changes() const { return sqlite3_changes64(db_); }

Result<void> Db::exec(std::string_view sql) {
  char* msg = nullptr;
  const std::string s(sql);
  if (sqlite3_exec(db_, s.c_str(), nullptr, nullptr, &msg) != SQLITE_OK) {
    std::string m = msg ? msg : "unknown error";
    sqlite3_free(msg);
    return fail(Error::internal("state database: " + m));
  }
  return {};
}

Result<Stmt> Db::prepare(std::string_view sql) {
  auto it = cache_.find(sql);
  if (it != cache_.end() && !it->second.busy) {
    it->second.busy = true;
    return Stmt(db_, it->second.stmt, &it->second.busy);
  }
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &s, nullptr) != SQLITE_OK)
    return fail(error("state database"));
  if (it != cache_.end()) return Stmt(db_, s);  // the cached one is in use: this one is finalized after
  auto& c = cache_.emplace(std::string(sql), Cached{s, true}).first->second;
  return Stmt(db_, s, &c.busy);
}

Result<void> Db::locked(const std::function<Result<void>(Db&)>& body) {
  std::lock_guard lock(mu_);
  return body(*this);
}

Result<void> Db::transaction(const std::function<Result<void>(Db&)>& body, Durability durability) {
  std::lock_guard lock(mu_);
  const bool flush = durability == Durability::power_loss;
  // synchronous can only change outside a transaction: FULL for this one's commit, then back.
  if (flush) {
    if (auto f = exec("PRAGMA synchronous=FULL"); !f) return f;
  }
  struct Restore {
    Db& d;
    bool on;
    ~Restore() {
      if (on) (void)d.exec("PRAGMA synchronous=NORMAL");
    }
  } restore{*this, flush};
  if (auto b = run("BEGIN IMMEDIATE"); !b) return b;
  auto r = body(*this);
  if (!r) {
    (void)run("ROLLBACK");
    return r;
  }
  if (auto c = run("COMMIT"); !c) {
    (void)run("ROLLBACK");
    return c;
  }
  return {};
}

}  // namespace mcp::gateway
