#include "gateway/ask_store.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>

namespace mcp::gateway {

namespace {

constexpr std::string_view kColumns =
    "id, server, method, item, client, arguments, digest, created, deadline, decision, decided_by, reason, decided_at";
constexpr std::string_view kNow = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

Ask read_ask(const Stmt& s) {
  Ask a;
  a.id = s.integer(0);
  a.server = s.text(1);
  a.method = s.text(2);
  a.item = s.text(3);
  a.client = s.text(4);
  a.arguments = s.text(5);
  a.digest = s.text(6);
  a.created = s.text(7);
  a.deadline = s.text(8);
  a.decision = s.optional_text(9);
  a.decided_by = s.optional_text(10);
  a.reason = s.optional_text(11);
  a.decided_at = s.text(12);
  return a;
}

Result<std::vector<Ask>> select_asks(Db& d, const std::string& rest, std::optional<std::int64_t> arg = std::nullopt) {
  auto s = d.prepare("SELECT " + std::string(kColumns) + " FROM asks " + rest);
  if (!s) return fail(s.error());
  if (arg) s->bind(1, *arg);
  std::vector<Ask> out;
  if (auto ok = s->each_row([&](const Stmt& row) { out.push_back(read_ask(row)); }); !ok) return fail(ok.error());
  return out;
}

json::object record_of(const Ask& a) {
  json::object o{{"ask", a.id}, {"server", a.server}, {"method", a.method}, {"item", peer_text(a.item, 1024)}};
  if (a.decision) {
    o["by"] = a.decided_by.value_or("");
    if (a.reason) o["reason"] = *a.reason;
  } else {
    o["client"] = a.client;
    o["arguments"] = a.digest;
    o["deadline"] = a.deadline;
  }
  return o;
}

// Decides `a` (undecided) in the caller's transaction, with its audit record.
Result<void> decide_in(Db& d, Ask& a, bool allow, const std::string& who, const std::optional<std::string>& reason) {
  // The arguments were kept for the person deciding; once decided only their digest stays.
  auto s = d.prepare("UPDATE asks SET decision = ?, decided_by = ?, reason = ?, arguments = '', decided_at = " + std::string(kNow) +
                     " WHERE id = ? AND decision IS NULL");
  if (!s) return fail(s.error());
  s->bind(1, allow ? "allow" : "deny").bind(2, who);
  if (reason) s->bind(3, *reason);
  else s->bind_null(3);
  s->bind(4, a.id);
  if (auto r = s->step(); !r) return fail(r.error());
  a.decision = allow ? "allow" : "deny";
  a.decided_by = who;
  a.reason = reason;
  if (auto rec = AuditLog::append_in(d, allow ? "allow" : "deny", record_of(a)); !rec) return fail(rec.error());
  return {};
}

}  // namespace

json::object to_json(const Ask& a) {
  json::object o{{"id", a.id},           {"server", a.server},   {"method", a.method},     {"item", a.item},
                 {"client", a.client},   {"arguments", a.arguments}, {"digest", a.digest}, {"created", a.created},
                 {"deadline", a.deadline}};
  o["decision"] = a.decision ? json::value(*a.decision) : json::value(nullptr);
  o["decidedBy"] = a.decided_by ? json::value(*a.decided_by) : json::value(nullptr);
  o["reason"] = a.reason ? json::value(*a.reason) : json::value(nullptr);
  if (a.decision) o["decidedAt"] = a.decided_at;
  return o;
}

Result<std::shared_ptr<AskStore>> AskStore::open(std::shared_ptr<Db> db, std::shared_ptr<AuditLog> audit) {
  auto ok = db->transaction([](Db& d) {
    return d.exec(
        "CREATE TABLE IF NOT EXISTS asks (id INTEGER PRIMARY KEY AUTOINCREMENT, server TEXT NOT NULL, method TEXT NOT NULL,"
        " item TEXT NOT NULL, client TEXT NOT NULL, arguments TEXT NOT NULL, digest TEXT NOT NULL, created TEXT NOT NULL,"
        " deadline TEXT NOT NULL, decision TEXT, decided_by TEXT, reason TEXT, decided_at TEXT NOT NULL DEFAULT '',"
        " owner INTEGER NOT NULL DEFAULT 0)");
  });
  if (!ok) return fail(ok.error());
  return std::shared_ptr<AskStore>(new AskStore(std::move(db), std::move(audit)));
}

Result<Ask> AskStore::add(Ask ask, std::chrono::milliseconds timeout) {
  if (ask.arguments.size() > kMaxShownArguments) ask.arguments = peer_text(ask.arguments, kMaxShownArguments);
  const double seconds = static_cast<double>(timeout.count()) / 1000.0;
  auto ok = db_->transaction([&](Db& d) -> Result<void> {
    // What was decided long ago goes (only the audit record stays): the table holds at most
    // kKeptAsks decided asks besides those waiting.
    if (auto r = d.run("DELETE FROM asks WHERE decision IS NOT NULL AND id <= (SELECT MAX(id) FROM asks) - ?",
                       static_cast<std::int64_t>(kKeptAsks));
        !r) {
      return fail(r.error());
    }
    if (auto r = d.run("INSERT INTO asks (server, method, item, client, arguments, digest, created, deadline, owner) "
                       "VALUES (?, ?, ?, ?, ?, ?, " +
                           std::string(kNow) + ", strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?), ?)",
                       ask.server, ask.method, ask.item, ask.client, ask.arguments, ask.digest,
                       "+" + std::to_string(seconds) + " seconds", static_cast<std::int64_t>(::getpid()));
        !r) {
      return fail(r.error());
    }
    auto read = select_asks(d, "WHERE id = last_insert_rowid()");
    if (!read) return fail(read.error());
    if (read->empty()) return fail(Error::internal("state database: the ask just added is not there"));
    ask = std::move(read->front());
    if (auto rec = AuditLog::append_in(d, "ask", record_of(ask)); !rec) return fail(rec.error());
    return {};
  });
  if (!ok) return fail(ok.error());
  return ask;
}

Result<Ask> AskStore::decide(std::int64_t id, bool allow, const std::string& who, const std::optional<std::string>& reason) {
  Ask out;
  auto ok = db_->transaction([&](Db& d) -> Result<void> {
    auto found = select_asks(d, "WHERE id = ?", id);
    if (!found) return fail(found.error());
    if (found->empty()) return fail(Error::invalid_params("no call " + std::to_string(id) + " is waiting for a decision"));
    out = std::move(found->front());
    if (out.decision) {
      return fail(Error::invalid_params("call " + std::to_string(id) + " was already decided: " + *out.decision + " by " +
                                        out.decided_by.value_or("?") + (out.reason ? " (" + *out.reason + ")" : "")));
    }
    return decide_in(d, out, allow, who, reason);
  });
  if (!ok) return fail(ok.error());
  return out;
}

Result<std::vector<Ask>> AskStore::read(const std::string& rest, std::optional<std::int64_t> arg) const {
  std::vector<Ask> out;
  auto ok = db_->locked([&](Db& d) -> Result<void> {
    auto found = select_asks(d, rest, arg);
    if (!found) return fail(found.error());
    out = std::move(*found);
    return {};
  });
  if (!ok) return fail(ok.error());
  return out;
}

Result<std::optional<Ask>> AskStore::get(std::int64_t id) const {
  auto found = read("WHERE id = ?", id);
  if (!found) return fail(found.error());
  if (found->empty()) return std::optional<Ask>();
  return std::optional<Ask>(std::move(found->front()));
}

Result<std::vector<Ask>> AskStore::pending() const { return read("WHERE decision IS NULL ORDER BY id"); }

Result<std::vector<Ask>> AskStore::recent(std::size_t n) const {
  return read("ORDER BY id DESC LIMIT ?", static_cast<std::int64_t>(n));
}

Result<std::size_t> AskStore::abandon_orphans(bool starting) {
  // Found with a read: most sweeps find nothing and then cost no write transaction (or fsync).
  // Whose process is gone (at start, one of ours is too: a pid reused), or whose deadline passed
  // more than a minute ago (its gateway would have ended it: the pid was reused by another
  // program). Another running gateway's are its own to decide.
  std::vector<std::pair<std::int64_t, std::string>> orphans;
  auto found = db_->locked([&](Db& d) -> Result<void> {
    auto open_asks = d.prepare("SELECT id, owner, deadline < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-60 seconds') FROM asks"
                               " WHERE decision IS NULL ORDER BY id");
    if (!open_asks) return fail(open_asks.error());
    return open_asks->each_row([&](const Stmt& row) {
      const auto owner = static_cast<pid_t>(row.integer(1));
      const bool ours = owner == ::getpid();
      const bool gone = owner <= 0 || (ours && starting) || (!ours && ::kill(owner, 0) != 0 && errno == ESRCH);
      if (gone) orphans.emplace_back(row.integer(0), "the gateway that held the call stopped while it waited");
      else if (!ours && row.integer(2) != 0)
        orphans.emplace_back(row.integer(0), "nobody decided in time, and the gateway that held the call did not end it");
    });
  });
  if (!found) return fail(found.error());
  std::size_t n = 0;
  if (orphans.empty()) return n;
  auto ok = db_->transaction([&](Db& d) -> Result<void> {
    for (const auto& [id, reason] : orphans) {
      auto again = select_asks(d, "WHERE id = ?", id);
      if (!again) return fail(again.error());
      if (again->empty() || again->front().decision) continue;  // decided since it was read
      if (auto r = decide_in(d, again->front(), false, "gateway", reason); !r) return r;
      ++n;
    }
    return {};
  }, Db::Durability::process_crash);  // not flushed: a denial lost with the power is made again by the next sweep
  if (!ok) return fail(ok.error());
  return n;
}

}  // namespace mcp::gateway
