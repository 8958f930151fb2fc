#include "gateway/bridge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <random>

namespace mcp::gateway {

namespace {

// A prefix no other process (or Bridge) shares: a call's id names one call of one gateway run.
// It needs no secrecy: the request state that carries it is signed and bound to its caller.
std::string random_prefix() {
  std::random_device rd;
  return fmt::format("{:08x}{:08x}", rd(), rd());
}

}  // namespace

// --- PendingCall ---------------------------------------------------------------------------------

PendingCall::Next PendingCall::ready_locked(bool& ended, InputRequests& asks) {
  if (!next_) return nullptr;
  if (!ended_) {
    for (auto& [key, ask] : asks_) {
      if (ask.passed || ask.answer) continue;
      ask.passed = true;
      asks.emplace(key, ask.request);
    }
    if (asks.empty()) return nullptr;
  }
  ended = ended_;
  return std::exchange(next_, nullptr);
}

bool PendingCall::next(Next next) {
  bool ended = false;
  InputRequests asks;
  Next run;
  {
    std::lock_guard lock(mu_);
    if (next_) return false;
    next_ = std::move(next);
    run = ready_locked(ended, asks);
  }
  if (run) run(ended, std::move(asks));
  return true;
}

void PendingCall::answer(const std::string& key, Result<json::value> answer) {
  {
    std::lock_guard lock(mu_);
    auto it = asks_.find(key);
    if (it == asks_.end() || it->second.answer) return;
    it->second.answer = std::move(answer);
  }
  cv_.notify_all();
}

std::vector<std::string> PendingCall::awaiting() const {
  std::lock_guard lock(mu_);
  std::vector<std::string> keys;
  for (const auto& [key, ask] : asks_)
    if (ask.passed && !ask.answer) keys.push_back(key);
  return keys;
}

void PendingCall::ask_again() {
  std::lock_guard lock(mu_);
  for (auto& [key, ask] : asks_)
    if (!ask.answer) ask.passed = false;
}

void PendingCall::end() {
  bool ended = false;
  InputRequests asks;
  Next run;
  {
    std::lock_guard lock(mu_);
    if (ended_) return;
    ended_ = true;
    ended_at_ = std::chrono::steady_clock::now();
    run = ready_locked(ended, asks);
  }
  cv_.notify_all();
  if (run) run(ended, std::move(asks));
}

bool PendingCall::ended() const {
  std::lock_guard lock(mu_);
  return ended_;
}

std::chrono::steady_clock::time_point PendingCall::ended_at() const {
  std::lock_guard lock(mu_);
  return ended_at_;
}

Result<json::value> PendingCall::ask(InputRequest request, const CancellationToken& cancel, std::chrono::milliseconds timeout) {
  const std::string method = request.method;
  std::string key;
  bool ended = false;
  InputRequests asks;
  Next run;
  {
    std::lock_guard lock(mu_);
    if (ended_) return fail(Error::internal("the call this " + method + " belongs to has ended"));
    std::size_t open = 0;
    for (const auto& [k, a] : asks_) open += a.answer ? 0 : 1;
    if (open >= kMaxAsks) {
      return fail(Error::internal(fmt::format("{} refused: {} requests of this call already wait for the client", method, open)));
    }
    key = fmt::format("upstream-{}", next_key_++);
    asks_.emplace(key, Ask{std::move(request)});
    run = ready_locked(ended, asks);
  }
  if (run) run(ended, std::move(asks));
  // Woken by the answer, the call's end, or a cancel (on_cancel notifies; the wait re-checks).
  cancel.on_cancel([self = weak_from_this()] {
    auto call = self.lock();
    if (!call) return;
    std::lock_guard woken(call->mu_);  // not between the waiter's check and its wait
    call->cv_.notify_all();
  });
  std::unique_lock lock(mu_);
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto& ask = asks_.at(key);
  while (!ask.answer && !ended_ && !cancel.cancelled()) {
    if (cv_.wait_until(lock, deadline) == std::cv_status::timeout) break;
  }
  if (ask.answer) {
    auto answer = std::move(*ask.answer);
    asks_.erase(key);
    return answer;
  }
  asks_.erase(key);  // a late answer finds nothing and is dropped
  if (ended_) return fail(Error::internal("the call this " + method + " belongs to has ended"));
  if (cancel.cancelled()) return fail(Error::cancelled(method + " cancelled: " + cancel.reason()));
  auto why = fmt::format("the client did not answer {} within {} ms", method, timeout.count());
  lock.unlock();
  upstream_.cancel(why);  // the client has left: its call goes no further at the upstream
  return fail(Error::timeout(std::move(why)));
}

// --- Bridge --------------------------------------------------------------------------------------

Bridge::Bridge(std::string name) : name_(std::move(name)), prefix_(random_prefix()) {}

void Bridge::sweep_locked() {
  // An ended call still here waits for its client to come back for the answer it holds: forgotten
  // after kForgetAfter, and beyond kMaxUnclaimed such calls the oldest first (each may hold a whole
  // answer, so their count bounds the bytes a client that never comes back can make us keep).
  const auto now = std::chrono::steady_clock::now();
  std::vector<std::pair<std::chrono::steady_clock::time_point, std::string>> unclaimed;
  for (auto it = calls_.begin(); it != calls_.end();) {
    if (!it->second->ended()) {
      ++it;
      continue;
    }
    const auto at = it->second->ended_at();
    if (now - at > kForgetAfter) {
      it = calls_.erase(it);
      continue;
    }
    unclaimed.emplace_back(at, it->first);
    ++it;
  }
  if (unclaimed.size() <= kMaxUnclaimed) return;
  std::sort(unclaimed.begin(), unclaimed.end());
  for (std::size_t i = 0; i < unclaimed.size() - kMaxUnclaimed; ++i) calls_.erase(unclaimed[i].second);
}

Result<std::shared_ptr<PendingCall>> Bridge::begin(CancellationToken upstream) {
  std::lock_guard lock(mu_);
  sweep_locked();
  if (calls_.size() >= kMaxCalls) {
    return fail(Error::internal(fmt::format("{}: {} calls are already in flight or waiting for their clients' input; try again later",
                                            name_, calls_.size())));
  }
  auto call = std::make_shared<PendingCall>(fmt::format("{}-{}", prefix_, ++counter_), std::move(upstream));
  calls_.emplace(call->id(), call);
  return call;
}

std::shared_ptr<PendingCall> Bridge::find(const std::string& id) const {
  std::lock_guard lock(mu_);
  auto it = calls_.find(id);
  return it == calls_.end() ? nullptr : it->second;
}

void Bridge::finish(const std::string& id) {
  std::lock_guard lock(mu_);
  calls_.erase(id);  // begin() sweeps what nobody came back for
}

Result<json::value> Bridge::ask(std::string_view method, const json::object& params, const CancellationToken& cancel,
                                std::chrono::milliseconds timeout) {
  std::shared_ptr<PendingCall> target;
  std::size_t in_flight = 0;
  {
    std::lock_guard lock(mu_);
    for (const auto& [id, call] : calls_) {
      if (call->ended()) continue;
      if (call->upstream_token().same_as(cancel)) {  // the call names itself
        target = call;
        in_flight = 1;
        break;
      }
      ++in_flight;
      target = call;
    }
  }
  if (in_flight != 1) {
    return fail(Error::internal(
        in_flight == 0 ? fmt::format("{} refused by mcp-trust gateway: no call of {} is in flight, so no client to ask", method, name_)
                       : fmt::format("{} refused by mcp-trust gateway: {} calls of {} are in flight and the request does not say "
                                     "which it belongs to",
                                     method, in_flight, name_)));
  }
  return target->ask(InputRequest{.method = std::string(method), .params = params}, cancel, timeout);
}

}  // namespace mcp::gateway
