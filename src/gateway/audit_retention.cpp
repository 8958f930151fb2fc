#include "gateway/audit_retention.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>


#include "log/log.hpp"
#include "session/thread_name.hpp"

namespace mcp::gateway {

namespace {

// Who the prune records say pruned: the gateway, not a person, and by which policy (a record of
// what the configuration said, so that a policy changed to prune more shows in the chain itself).
std::string retention_person(const RetentionPolicy& p) {
  std::string out = "gateway:retention (";
  if (p.keep_records) out += "keepRecords " + std::to_string(*p.keep_records);
  if (p.keep_for) {
    char days[32];
    std::snprintf(days, sizeof days, "%g", static_cast<double>(p.keep_for->count()) / kMillisecondsPerDay);
    out += std::string(p.keep_records ? ", " : "") + "keepDays " + days;
  }
  return out + ")";
}

// How often a policy with keepDays alone is looked at: records age by the minute, not faster.
constexpr std::chrono::minutes kAgeCheck{1};

// As the records' times are written (audit_log.cpp), so that they compare as text.
std::string iso8601(std::chrono::system_clock::time_point t) {
  using namespace std::chrono;
  const auto ms = duration_cast<milliseconds>(t.time_since_epoch()).count();  // after 1970: not negative
  const std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64];
  std::size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  n += static_cast<std::size_t>(std::snprintf(buf + n, sizeof buf - n, ".%03dZ", static_cast<int>(ms % 1000)));
  return std::string(buf, std::min(n, sizeof buf - 1));
}

// keepRecords is pruned to once this many more records are over it.
std::int64_t slack(std::int64_t keep) { return std::max<std::int64_t>(1, keep / 10); }

}  // namespace

std::unique_ptr<AuditRetention> AuditRetention::start(std::shared_ptr<AuditLog> audit, RetentionPolicy policy,
                                                      std::chrono::milliseconds interval) {
  std::unique_ptr<AuditRetention> r(new AuditRetention(std::move(audit), std::move(policy), interval));
  r->thread_ = std::thread([raw = r.get()] { raw->run(); });
  return r;
}

AuditRetention::~AuditRetention() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void AuditRetention::set_policy(RetentionPolicy policy) {
  {
    std::lock_guard lock(mu_);
    policy_ = std::move(policy);
    woken_ = true;
  }
  changed_.notify_all();
}

RetentionPolicy AuditRetention::policy() const {
  std::lock_guard lock(mu_);
  return policy_;
}

std::uint64_t AuditRetention::rounds() const {
  std::lock_guard lock(mu_);
  return rounds_;
}

bool AuditRetention::wait_for_rounds(std::uint64_t n, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mu_);
  return changed_.wait_for(lock, timeout, [&] { return rounds_ >= n; });
}

Result<RetentionPass> AuditRetention::run_once(std::chrono::system_clock::time_point now) {
  const RetentionPolicy policy = this->policy();
  RetentionPass out;
  if (!policy.any()) return out;
  std::lock_guard pass(pass_mu_);
  // On from what earlier passes verified: each record is walked once, not at every pass (our own
  // prunes leave the last verified record in place, so the walk goes on from it).
  auto check = audit_->verify(checked_);
  if (!check) return fail(check.error());
  checked_ = *check;
  chain_broken_ = check->first_broken.has_value();
  if (check->first_broken) {
    // The walk stopped at the break: what lies past it is not verified, and the break itself is
    // what a prune must not take away. Nothing is pruned while it is there.
    out.refused = "the audit chain is broken at record " + std::to_string(*check->first_broken) + " (" + check->why +
                  "): nothing is pruned until a person has looked (mcp-trust audit verify)";
    if (*out.refused != refused_logged_) {
      MCP_LOG_ERROR("audit retention: {}", *out.refused);
      refused_logged_ = *out.refused;
    }
    return out;
  }
  std::int64_t through = 0;
  if (policy.keep_records) {
    const std::int64_t kept = check->records - check->pruned_through;
    if (kept >= *policy.keep_records + slack(*policy.keep_records)) through = check->records - *policy.keep_records;
  }
  if (policy.keep_for) {
    auto old = audit_->last_before(iso8601(now - *policy.keep_for));
    if (!old) return fail(old.error());
    // Only what this pass verified: a record that came after it waits for the next pass.
    through = std::max(through, std::min(*old, check->records));
  }
  if (through <= check->pruned_through) return out;
  auto count = audit_->prune(through, retention_person(policy));
  if (!count) return fail(count.error());
  pruned_total_ += *count;
  out.pruned = *count;
  out.through = through;
  MCP_LOG_INFO("audit retention: pruned {} records, up to record {}", *count, through);
  return out;
}

void AuditRetention::run() {
  mcp::detail::name_this_thread("mcp-retention");
  auto last_pass = std::chrono::steady_clock::now();
  std::int64_t anchor = 0;  // where the last pass left the chain's start
  for (bool first = true;; first = false) {
    bool asked = first;  // the first round, and one a new policy asked for, run a pass
    {
      std::unique_lock lock(mu_);
      if (!first) changed_.wait_for(lock, interval_, [&] { return stopping_ || woken_; });
      if (stopping_) return;
      asked = asked || woken_;
      woken_ = false;
    }
    const RetentionPolicy policy = this->policy();
    // A full pass verifies every record new since the last one: run it only when something may be
    // due. The record count is one query; the age of the oldest record matters only by the minute.
    bool due = asked || (policy.keep_for && std::chrono::steady_clock::now() - last_pass >= kAgeCheck);
    if (!due && policy.keep_records) {
      auto head = audit_->head();
      due = head && head->seq - anchor >= *policy.keep_records + slack(*policy.keep_records);
    }
    if (due) {
      last_pass = std::chrono::steady_clock::now();
      auto done = run_once(std::chrono::system_clock::now());
      if (!done) MCP_LOG_WARN("audit retention: {}", done.error().message);
      std::lock_guard pass(pass_mu_);
      anchor = checked_.pruned_through;
      if (done && done->pruned > 0) anchor = done->through;
    }
    {
      std::lock_guard lock(mu_);
      ++rounds_;
    }
    changed_.notify_all();
  }
}

}  // namespace mcp::gateway
