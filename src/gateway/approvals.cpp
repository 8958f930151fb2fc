#include "gateway/approvals.hpp"

#include <vector>

#include <fmt/format.h>

#include "log/log.hpp"

namespace mcp::gateway {

namespace {

// The error a denied call ends with: who denied it, or why it was denied without a person.
Error denial(const Ask& a) {
  std::string why = a.reason ? *a.reason : "denied by " + a.decided_by.value_or("a person");
  return Error::invalid_params(a.method + " of " + peer_text(a.item) + " (upstream " + a.server + ") was not allowed: " + why +
                               " (call " + std::to_string(a.id) + ", mcp-trust gateway)");
}

}  // namespace

Result<std::shared_ptr<Approvals>> Approvals::start(std::shared_ptr<AskStore> store) {
  auto abandoned = store->abandon_orphans(/*starting=*/true);
  if (!abandoned) return fail(abandoned.error());
  if (*abandoned) MCP_LOG_WARN("gateway: denied {} call(s) a stopped gateway left waiting for a decision", *abandoned);
  return std::shared_ptr<Approvals>(new Approvals(std::move(store)));
}

Approvals::Approvals(std::shared_ptr<AskStore> store)
    : store_(std::move(store)), thread_([this](std::stop_token stop) { run(stop); }) {}

Approvals::~Approvals() {
  thread_.request_stop();
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  // Calls still waiting end now, as the gateway does.
  std::map<std::int64_t, Waiter> left;
  {
    std::lock_guard lock(mu_);
    left.swap(waiting_);
  }
  for (auto& [id, w] : left) {
    (void)store_->decide(id, false, "gateway", std::string("the gateway stopped while the call waited"));
    w.done(fail(Error::internal("the gateway is stopping (call " + std::to_string(id) + " was waiting for a decision)")));
  }
}

void Approvals::set_review_url(std::string url) {
  std::lock_guard lock(mu_);
  review_url_ = std::move(url);
}

// What the waiting client is told: that a person decides, not how (the client may be an agent
// that could run the command itself). The operator's log says how.
std::string Approvals::message(const Ask& a) const {
  return "waiting for a person to allow " + a.method + " of " + peer_text(a.item) + " at the gateway (call " +
         std::to_string(a.id) + ")";
}

std::string Approvals::how(const Ask& a) const {
  const std::string where = review_url_.empty() ? "" : " on " + review_url_ + " or";
  return "decide" + where + " with `mcp-trust gateway decide " + std::to_string(a.id) + " allow|deny`";
}

Result<Ask> Approvals::ask(Ask ask, std::chrono::milliseconds timeout, Progress progress, Done done) {
  {
    // A place is taken before the ask is recorded, so concurrent asks cannot pass the bound.
    std::lock_guard lock(mu_);
    if (waiting_.size() + reserved_ >= kMaxWaiting) {
      return fail(Error::internal("too many calls are waiting for a decision at the gateway (" + std::to_string(kMaxWaiting) +
                                  "): decide some first"));
    }
    ++reserved_;
  }
  auto added = store_->add(std::move(ask), timeout);
  const auto now = std::chrono::steady_clock::now();
  std::string first, where;
  {
    std::lock_guard lock(mu_);
    --reserved_;
    if (!added) return fail(added.error());
    waiting_.emplace(added->id, Waiter{*added, now, now + timeout, now, timeout, progress, std::move(done)});
    first = message(*added);
    where = how(*added);
  }
  cv_.notify_all();
  MCP_LOG_WARN("gateway: {}: {}", first, where);
  if (progress) progress(std::chrono::seconds(0), first);
  return added;
}

Result<Ask> Approvals::decide(std::int64_t id, bool allow, const std::string& who) {
  auto decided = store_->decide(id, allow, who);
  if (!decided) return decided;
  resolve(id, *decided);
  return decided;
}

void Approvals::withdraw(std::int64_t id, const std::string& why) {
  {
    std::lock_guard lock(mu_);
    if (!waiting_.contains(id)) return;
  }
  deny(id, why);
}

void Approvals::deny(std::int64_t id, const std::string& why) {
  auto decided = store_->decide(id, false, "gateway", why);
  if (decided) return resolve(id, *decided);
  // Decided meanwhile (by a person): that decision stands.
  if (auto a = store_->get(id); a && *a && (*a)->decision) resolve(id, **a);
}

std::size_t Approvals::waiting() const {
  std::lock_guard lock(mu_);
  return waiting_.size();
}

void Approvals::resolve(std::int64_t id, const Ask& a) {
  Done done;
  {
    std::lock_guard lock(mu_);
    auto it = waiting_.find(id);
    if (it == waiting_.end()) return;
    done = std::move(it->second.done);
    waiting_.erase(it);
  }
  if (a.decision == std::optional<std::string>("allow")) done({});
  else done(fail(denial(a)));
}

void Approvals::run(std::stop_token stop) {
  std::unique_lock lock(mu_);
  auto swept = std::chrono::steady_clock::now();
  while (!stop.stop_requested()) {
    // Now and then, what stopped gateways sharing the state left waiting is ended (their calls
    // would otherwise stay on the review page, where allowing them does nothing).
    if (std::chrono::steady_clock::now() - swept >= kSweepEvery) {
      swept = std::chrono::steady_clock::now();
      lock.unlock();
      if (auto r = store_->abandon_orphans(/*starting=*/false); !r) MCP_LOG_WARN("gateway: {}", r.error().message);
      lock.lock();
    }
    cv_.wait_for(lock, stop, kSweepEvery, [&] { return !waiting_.empty(); });
    if (stop.stop_requested()) return;
    if (waiting_.empty()) continue;
    cv_.wait_for(lock, stop, kPoll, [] { return false; });
    if (stop.stop_requested()) return;
    // What to do about each waiting call, decided under the lock, done without it.
    const auto now = std::chrono::steady_clock::now();
    std::vector<std::int64_t> still;
    std::vector<std::pair<std::int64_t, std::string>> expired;
    std::vector<std::pair<Progress, std::pair<std::chrono::seconds, std::string>>> tell;
    for (auto& [id, w] : waiting_) {
      if (now >= w.deadline) {
        expired.emplace_back(id, fmt::format("nobody decided within {:g} s", std::chrono::duration<double>(w.timeout).count()));
        continue;
      }
      still.push_back(id);
      if (w.progress && now - w.told >= kProgressEvery) {
        w.told = now;
        tell.push_back({w.progress, {std::chrono::duration_cast<std::chrono::seconds>(now - w.since), message(w.ask)}});
      }
    }
    lock.unlock();
    for (auto& [progress, what] : tell) progress(what.first, what.second);
    for (const auto& [id, why] : expired) deny(id, why);
    // Decisions made by another process.
    for (auto id : still) {
      auto a = store_->get(id);
      if (!a) {
        MCP_LOG_WARN("gateway: cannot read call {}'s decision: {}", id, a.error().message);
      } else if (*a && (*a)->decision) {
        resolve(id, **a);
      } else if (!*a) {
        // Its record is gone (removed by hand from the state): nobody can allow it any more.
        Ask gone;
        {
          std::lock_guard relock(mu_);
          if (auto it = waiting_.find(id); it != waiting_.end()) gone = it->second.ask;
        }
        gone.decision = "deny";
        gone.reason = "its record is gone from the gateway's state";
        resolve(id, gone);
      }
    }
    lock.lock();
  }
}

}  // namespace mcp::gateway
