// Private to the gateway: trust on first use. The first time the gateway sees an upstream's tool,
// prompt, resource or template it pins the item's canonical hash (RFC 8785 + SHA-256) and
// definition. A later definition that differs is quarantined (hidden, calls refused) until a person
// approves it, which pins the new one; an item never seen before follows the server's policy
// (allowed at once, or quarantined until approved). Rejected items stay blocked until approved.
// Every decision is appended to the audit log in the same transaction as the change it records.
//
// Thread-safety: all members are thread-safe; several processes may share one state folder (the
// gateway and `mcp-trust gateway approve`), SQLite's locking serialises them.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gateway/audit_log.hpp"
#include "gateway/shared_counter.hpp"
#include "log/log_budget.hpp"
#include "mcp/protocol/list_kind.hpp"

namespace mcp::gateway {

enum class PinState { approved, quarantined, rejected };
std::string_view to_string(PinState s);

enum class NewItems { allow, quarantine };

struct Pin {
  std::string server;
  ListKind kind = ListKind::tools;
  std::string key;                            // name, URI or URI template
  std::optional<std::string> approved_hash;   // absent: never approved
  std::optional<std::string> approved_definition;
  std::string seen_hash;                      // the definition the upstream offers now
  std::string seen_definition;
  PinState state = PinState::approved;
  std::string updated;                        // ISO 8601
};

class PinStore {
 public:
  static Result<std::unique_ptr<PinStore>> open(std::shared_ptr<Db> db, std::shared_ptr<AuditLog> audit);

  // The upstream `server` offers item `key` of `kind` with `definition` now: pins or compares it,
  // and says whether clients may see and use it. Past one of the limits below, the item is
  // quarantined (hidden, refused) with nothing written, and `*limited` (if given) says which.
  enum class Limited { no, pins, changes };
  [[nodiscard]] Result<PinState> observe(const std::string& server, ListKind kind, const std::string& key,
                                         const json::object& definition, NewItems policy, Limited* limited = nullptr);
  // Many items of one list at once, as observe() each, in one transaction: the pins of a list of
  // thousands commit together (one flush to the disk), not one by one, and none is in force before
  // all are. An error (nothing written) if any cannot be observed.
  struct Observed {
    const std::string& key;
    const json::object* definition;
  };
  struct Observation {
    PinState state = PinState::quarantined;
    Limited limited = Limited::no;
  };
  [[nodiscard]] Result<std::vector<Observation>> observe_all(const std::string& server, ListKind kind,
                                                             const std::vector<Observed>& items, NewItems policy);
  // What one upstream may make the state folder keep: an upstream that renames its items on every
  // list, or grows their definitions, would otherwise fill the disk. At most kMaxPinsPerServer pins
  // (past it, observe() pins nothing new), and kMaxPinBytesPerServer bytes of their definitions,
  // seen and approved (past it, a definition is kept as kNotKept: its hash is pinned, compared and
  // approved as ever, the text only is not shown). Counted by this process, loaded from
  // the table per upstream, and loaded again after another process (the CLI) changed pins.
  static constexpr std::int64_t kMaxPinsPerServer = 50'000;
  static constexpr std::int64_t kMaxPinBytesPerServer = std::int64_t{64} << 20;
  // And each change to a pinned item is an audit record, pruned only by a person: an upstream that
  // flips its definitions on every list (once a second at most, proxy.cpp) would write them
  // without end. A quarantine is always recorded (it follows an approval, a restore or a new pin,
  // each bounded); restores and a blocked item's new definitions take from a budget per upstream,
  // kChangesBurst at once, then kChangesPerSecond. Past it a restore waits, the item quarantined
  // (observe() says Limited::changes), and a blocked item's new definition is pinned unrecorded.
  static constexpr double kChangesBurst = 10'000;
  static constexpr double kChangesPerSecond = 1;
  static constexpr std::string_view kNotKept =
      R"({"notKept":"this upstream's pinned definitions reached the gateway's limit: only its hash is kept"})";
  // The item's state now (none: never seen).
  [[nodiscard]] Result<std::optional<PinState>> state(const std::string& server, ListKind kind, const std::string& key) const;
  [[nodiscard]] Result<std::vector<Pin>> pins(const std::optional<std::string>& server = std::nullopt) const;
  // What a page that shows the pins needs, and no more, however many the store holds: their
  // number; the first `max_changes` not approved, with their definitions; the first `max_listed`
  // of all, without definitions and with keys cut to kMaxListedKeyBytes.
  struct Page {
    std::size_t total = 0;
    std::vector<Pin> changes;
    std::vector<Pin> listed;
  };
  static constexpr std::size_t kMaxListedKeyBytes = 1024;
  [[nodiscard]] Result<Page> page(std::size_t max_changes, std::size_t max_listed) const;
  // How many of `server`'s items are not approved (quarantined or rejected): one indexed count.
  [[nodiscard]] Result<std::int64_t> count_blocked(const std::string& server) const;
  // A person's decision on `key` (of `kind`, or of whichever kind has that key: an error names the
  // kinds if more than one does). `who` lands in the audit record. With `expected`, only if the
  // definition offered now has that hash (the one the person was shown): else an error, nothing done.
  [[nodiscard]] Result<Pin> approve(const std::string& server, const std::string& key, std::optional<ListKind> kind,
                                    const std::string& who, const std::optional<std::string>& expected = std::nullopt);
  [[nodiscard]] Result<Pin> reject(const std::string& server, const std::string& key, std::optional<ListKind> kind,
                                   const std::string& who, const std::optional<std::string>& expected = std::nullopt);
  // A person drops pins, so that an upstream's items are pinned afresh the next time it lists them
  // (as new items: allowed or quarantined by its policy). What frees an upstream that filled its
  // pins (kMaxPinsPerServer) with names it no longer lists. Recorded in the audit log ("forget").
  // One item, found as approve() finds it; it is gone when this returns (the pin, not the item).
  [[nodiscard]] Result<Pin> forget(const std::string& server, const std::string& key, std::optional<ListKind> kind,
                                   const std::string& who);
  // Many: every pin of `server` (all), or only the items held as new (new_only: quarantined, never
  // approved, not rejected). new_only drops no decision of a person's: an item it drops is new
  // again when listed again, as it was. all drops approvals and rejections too: a rejected item
  // listed again is then allowed if the upstream's policy allows new items. Returns how many went.
  enum class Forget { all, new_only };
  [[nodiscard]] Result<std::int64_t> forget_all(const std::string& server, Forget which, const std::string& who);

 private:
  PinStore(std::shared_ptr<Db> db, std::shared_ptr<AuditLog> audit, std::unique_ptr<SharedCounter> changes)
      : db_(std::move(db)), audit_(std::move(audit)), changes_(std::move(changes)) {}
  // One item of observe_all, inside its transaction; `wrote` set if it wrote anything.
  Result<Observation> observe_in(Db& d, const std::string& server, ListKind kind, const std::string& key,
                                 const std::string& canonical, NewItems policy, bool& wrote);
  Result<Pin> decide(const std::string& server, const std::string& key, std::optional<ListKind> kind,
                     const std::string& who, bool approve, const std::optional<std::string>& expected);
  // After a committed change: every process's cache of states is stale.
  void changed();
  // How much of the limits one upstream's pins use (usage_mu_; loaded by usage_of, under the
  // transaction that then changes it, and changed by used() in that transaction: every change of
  // this process is under the Db's lock, so a usage loaded is never missing one nor counting it twice).
  struct Usage {
    std::int64_t pins = 0;
    std::int64_t bytes = 0;
  };
  Result<Usage> usage_of(Db& d, const std::string& server);
  // Adds to a loaded usage what a change adds, inside its transaction (forgotten() if it fails).
  void used(const std::string& server, Usage more);
  // Drops what is loaded of `server`'s usage: the next use loads it again.
  void forgotten(const std::string& server);
  // A usage is loaded again once another process (the CLI, forgetting or approving) has changed
  // pins since it was loaded: seen when the shared counter moved more than this process moved it.
  struct Loaded {
    Usage use;
    std::uint64_t counter = 0;  // changes_ when loaded
    std::uint64_t own = 0;      // own_changes_ when loaded
  };
  std::mutex usage_mu_;
  std::unordered_map<std::string, Loaded> usage_;
  std::atomic<std::uint64_t> own_changes_{0};  // bumps of changes_ by this process
  std::unordered_map<std::string, std::unique_ptr<detail::LogBudget>> changes_budget_;  // usage_mu_
  // Whether `server` may record one more change now (kChangesBurst).
  bool change_allowed(const std::string& server);
  std::shared_ptr<Db> db_;
  std::shared_ptr<AuditLog> audit_;
  // Pin changes committed in any process using the folder (shared_counter.hpp).
  std::unique_ptr<SharedCounter> changes_;
  static constexpr std::size_t kMaxCached = 65536;
  static constexpr std::chrono::seconds kCacheFor{1};
  mutable std::mutex cache_mu_;
  mutable std::uint64_t cache_changes_ = 0;  // the count the cache is valid for
  mutable std::chrono::steady_clock::time_point cache_since_{};
  mutable std::unordered_map<std::string, std::optional<PinState>> cache_;
};

}  // namespace mcp::gateway
