// Private to the gateway: the audit log pruned by the gateway itself, as its configuration's
// `gateway.audit` says ("keepRecords", "keepDays"; mcp-trust gateway's --audit-keep-records and
// --audit-keep-days). Without it the log grows by every call made through the gateway (~400 bytes
// each): a client that floods calls would fill the disk, and pruning took a person.
//
// A pass (when due: the retention's own thread, named mcp-retention, looks every second) first checks the chain,
// on from what the last pass checked (AuditLog::verify), and prunes only an intact one: a break
// stays for a person to see, as `mcp-trust audit prune` leaves it, and is logged. Then it prunes
// (AuditLog::prune, so the chain is anchored and a "prune" record says so, by "gateway:retention
// (keepRecords N, keepDays D)")
// the records beyond the newest keepRecords and those older than keepDays, whichever goes further.
// For keepRecords it waits until a tenth more than that (at least one) is over, so that a busy log
// is not pruned a record at a time with a prune record each: the log holds at most
// keepRecords + keepRecords/10 + 1 records once a pass has run.
//
// Thread-safety: all members are thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "gateway/audit_log.hpp"

namespace mcp::gateway {

struct RetentionPolicy {
  std::optional<std::int64_t> keep_records;           // "keepRecords": at least 1
  std::optional<std::chrono::milliseconds> keep_for;  // "keepDays": more than none
  bool any() const { return keep_records || keep_for; }
  bool operator==(const RetentionPolicy&) const = default;
};

// What the configuration may say, at most (a day count beyond this is a typo, not a policy).
inline constexpr double kMaxKeepDays = 36500;
// keepDays as kept (whole milliseconds), and back, for the config, the command line and the prune
// records' policy.
inline constexpr double kMillisecondsPerDay = 86'400'000.0;
inline std::chrono::milliseconds keep_for_days(double days) {
  return std::chrono::milliseconds(static_cast<long long>(days * kMillisecondsPerDay));
}

// What one pass did.
struct RetentionPass {
  std::int64_t pruned = 0;             // records removed (0: nothing was due)
  std::int64_t through = 0;            // the last of them
  std::optional<std::string> refused;  // why nothing may be pruned (a broken chain)
};

class AuditRetention {
 public:
  // Prunes `audit` as `policy` says, on a thread of its own that looks every `interval` whether a
  // pass is due; the first pass runs at once.
  static std::unique_ptr<AuditRetention> start(std::shared_ptr<AuditLog> audit, RetentionPolicy policy,
                                               std::chrono::milliseconds interval = std::chrono::seconds(1));
  ~AuditRetention();  // stops the thread, after the pass under way if any
  AuditRetention(const AuditRetention&) = delete;
  AuditRetention& operator=(const AuditRetention&) = delete;

  // A reload's new policy, applied from the next pass (one starts at once).
  void set_policy(RetentionPolicy policy);
  RetentionPolicy policy() const;
  // One pass as at `now` (the thread's passes use the clock; tests choose it).
  [[nodiscard]] Result<RetentionPass> run_once(std::chrono::system_clock::time_point now);
  // The thread's rounds so far: each looks whether a pass is due (the record count against
  // keepRecords; keepDays once a minute) and runs it. For whoever waits on them.
  std::uint64_t rounds() const;
  // Until the thread has ended `n` rounds, or `timeout`: whether it had.
  bool wait_for_rounds(std::uint64_t n, std::chrono::milliseconds timeout) const;
  // For /metrics: the records pruned so far, and whether the last pass found the chain broken.
  std::int64_t pruned_total() const { return pruned_total_.load(); }
  bool chain_broken() const { return chain_broken_.load(); }

 private:
  AuditRetention(std::shared_ptr<AuditLog> audit, RetentionPolicy policy, std::chrono::milliseconds interval)
      : audit_(std::move(audit)), policy_(std::move(policy)), interval_(interval) {}
  void run();

  const std::shared_ptr<AuditLog> audit_;
  mutable std::mutex mu_;
  mutable std::condition_variable changed_;  // a round ended, the policy changed, or stopping
  RetentionPolicy policy_;
  const std::chrono::milliseconds interval_;
  std::uint64_t rounds_ = 0;
  std::atomic<std::int64_t> pruned_total_{0};
  std::atomic<bool> chain_broken_{false};
  bool woken_ = false;  // set_policy asks for a pass now
  bool stopping_ = false;
  std::mutex pass_mu_;          // one pass at a time: the thread's and run_once's
  ChainCheck checked_;          // what the passes have verified so far (under pass_mu_)
  std::string refused_logged_;  // the last refusal logged, so that a break is logged once (pass_mu_)
  std::thread thread_;          // last: started once the rest is made
};

}  // namespace mcp::gateway
