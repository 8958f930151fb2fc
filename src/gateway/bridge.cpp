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

// --- Flight --------------------------------------------------------------------------------------

std::shared_ptr<PendingCall> Flight::promote(Bridge& bridge) {
  std::shared_ptr<PendingCall> call;
  {
    std::lock_guard lock(mu_);
    if (landed_) return nullptr;
    if (promoted_) return call_;
    promoted_ = true;
    call_ = bridge.open(upstream_);
    call = call_;
  }
  promoted(call);
  return call;
}

std::shared_ptr<PendingCall> Flight::land() {
  std::lock_guard lock(mu_);
  landed_ = true;
  // Not kept past here: the call holds what the Proxy keeps with it (this flight, its payload).
  return std::exchange(call_, nullptr);
}

// --- Bridge --------------------------------------------------------------------------------------

Bridge::Bridge(std::string name) : name_(std::move(name)), prefix_(random_prefix()) {}

std::size_t Bridge::sweep_locked() {
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
  if (unclaimed.size() <= kMaxUnclaimed) return unclaimed.size();
  std::sort(unclaimed.begin(), unclaimed.end());
  for (std::size_t i = 0; i < unclaimed.size() - kMaxUnclaimed; ++i) calls_.erase(unclaimed[i].second);
  return kMaxUnclaimed;
}

Result<void> Bridge::enter(std::shared_ptr<Flight> flight) {
  std::lock_guard lock(mu_);
  // A promoted call in flight is both here and in calls_; only ended calls are counted from there.
  if (const std::size_t held = flights_.size() + sweep_locked(); held >= kMaxCalls) {
    return fail(Error::internal(fmt::format(
        "{}: {} calls are already in flight or waiting for their clients' input; try again later", name_, held)));
  }
  flight->slot_ = flights_.size();
  flights_.push_back(std::move(flight));
  return {};
}

void Bridge::leave(Flight& flight) {
  std::lock_guard lock(mu_);
  const std::size_t slot = flight.slot_;
  if (slot >= flights_.size() || flights_[slot].get() != &flight) return;
  flight.slot_ = Flight::kNoSlot;
  // Unordered: the last takes its place, so leaving costs the same however many are in flight.
  if (slot + 1 != flights_.size()) {
    flights_[slot] = std::move(flights_.back());
    flights_[slot]->slot_ = slot;
  }
  flights_.pop_back();
}

std::shared_ptr<PendingCall> Bridge::land(Flight& flight) {
  // Out first: a request routed after this finds no call rather than one that has landed.
  leave(flight);
  return flight.land();
}

std::shared_ptr<PendingCall> Bridge::open(CancellationToken upstream) {
  std::lock_guard lock(mu_);
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
  calls_.erase(id);  // enter() sweeps what nobody came back for
}

Result<json::value> Bridge::ask(std::string_view method, const json::object& params, const CancellationToken& cancel,
                                std::chrono::milliseconds timeout) {
  std::shared_ptr<Flight> target;
  std::size_t in_flight = 0;
  {
    std::lock_guard lock(mu_);
    for (const auto& flight : flights_) {
      if (flight->upstream_token().same_as(cancel)) {  // the call names itself
        target = flight;
        in_flight = 1;
        break;
      }
      ++in_flight;
      target = flight;
    }
  }
  if (in_flight != 1) {
    return fail(Error::internal(
        in_flight == 0 ? fmt::format("{} refused by mcp-trust gateway: no call of {} is in flight, so no client to ask", method, name_)
                       : fmt::format("{} refused by mcp-trust gateway: {} calls of {} are in flight and the request does not say "
                                     "which it belongs to",
                                     method, in_flight, name_)));
  }
  // Outside the lock: promoting starts the call's round, which may cancel at the upstream.
  auto call = target->promote(*this);
  if (!call) return fail(Error::internal("the call this " + std::string(method) + " belongs to has ended"));
  return call->ask(InputRequest{.method = std::string(method), .params = params}, cancel, timeout);
}

}  // namespace mcp::gateway
