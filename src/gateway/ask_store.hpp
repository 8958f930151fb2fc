// Private to the gateway: calls waiting for a person's decision (the "ask" policy, issue 13), in
// the state database so that another process (`mcp-trust gateway pending` / `decide`) sees and
// decides them. Each ask is recorded in the audit log when it is made, and each decision with who
// made it, in the same transaction as the change.
//
// A decision is made once: deciding an ask already decided is an error naming the decision. An
// ask carries what a person needs to decide: the upstream, the method, the item, the client, and
// the arguments as canonical JSON cut to kMaxShownArguments (their full digest is in the audit
// record too).
//
// Thread-safety: all members are thread-safe; several processes may share the state (SQLite's
// locking serialises them).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gateway/audit_log.hpp"
#include "gateway/sqlite_db.hpp"

namespace mcp::gateway {

inline constexpr std::size_t kMaxShownArguments = 16 * 1024;

struct Ask {
  std::int64_t id = 0;
  std::string server;
  std::string method;     // tools/call, prompts/get, resources/read
  std::string item;       // the upstream's name or URI
  std::string client;     // the client session, as known
  std::string arguments;  // canonical JSON, at most kMaxShownArguments (then cut, and said so)
  std::string digest;     // sha256 of the whole canonical arguments
  std::string created;    // ISO 8601 UTC
  std::string deadline;   // ISO 8601 UTC: denied unless decided by then
  std::optional<std::string> decision;  // "allow" or "deny"
  std::optional<std::string> decided_by;
  std::optional<std::string> reason;    // why, for a denial not made by a person (timeout, cancel)
  std::string decided_at;
};

json::object to_json(const Ask& a);

class AskStore {
 public:
  static Result<std::shared_ptr<AskStore>> open(std::shared_ptr<Db> db, std::shared_ptr<AuditLog> audit);

  // Records a new ask (and its audit record); fills in its id, created and deadline.
  [[nodiscard]] Result<Ask> add(Ask ask, std::chrono::milliseconds timeout);
  // Decides ask `id`: "allow" or "deny", by `who`, with `reason` for the record. Errors: no such
  // ask, or it is decided already (saying how).
  [[nodiscard]] Result<Ask> decide(std::int64_t id, bool allow, const std::string& who,
                                   const std::optional<std::string>& reason = std::nullopt);
  [[nodiscard]] Result<std::optional<Ask>> get(std::int64_t id) const;
  // Undecided asks, oldest first.
  [[nodiscard]] Result<std::vector<Ask>> pending() const;
  // The most recent `n` asks, decided or not, newest first.
  [[nodiscard]] Result<std::vector<Ask>> recent(std::size_t n) const;
  // Denies, saying why, the undecided asks no call waits for any more: those of a gateway process
  // that is gone (each ask records its process; `starting`: this process's own are such too,
  // from an earlier process with its id), and those a minute past their deadline whatever their
  // process. A running gateway's waiting calls on the same state are left alone. Approvals calls
  // it at start and now and then.
  [[nodiscard]] Result<std::size_t> abandon_orphans(bool starting);

  // Decided asks kept (their arguments blanked once decided; the audit log keeps every record).
  static constexpr std::size_t kKeptAsks = 10'000;

 private:
  AskStore(std::shared_ptr<Db> db, std::shared_ptr<AuditLog> audit) : db_(std::move(db)), audit_(std::move(audit)) {}
  // The asks `rest` (a WHERE/ORDER BY clause, its one parameter `arg`) selects, read together.
  Result<std::vector<Ask>> read(const std::string& rest, std::optional<std::int64_t> arg = std::nullopt) const;
  std::shared_ptr<Db> db_;
  std::shared_ptr<AuditLog> audit_;
};

}  // namespace mcp::gateway
