#include "session/async_holds.hpp"

#include <atomic>

namespace mcp::detail {

void AsyncHolds::hold(const std::string& key, Turn turn, Done done) {
  bool first = false;
  {
    std::unique_lock lock(mu_);
    auto it = keys_.find(key);
    if (it != keys_.end() && it->second.phase == Phase::on) {
      ++it->second.holders;
      lock.unlock();
      done({});
      return;
    }
    if (waiting_ >= max_waiting_) {
      lock.unlock();
      done(fail(Error::internal(refusal_)));
      return;
    }
    if (it == keys_.end()) {
      it = keys_.emplace(key, Entry{}).first;
      first = true;
    }
    ++waiting_;
    it->second.waiters.push_back(std::move(done));
    // The start under way keeps its turn (its stop uses the same); a start after a stop takes the
    // newest.
    if (first || it->second.phase == Phase::stopping) it->second.turn = turn;
  }
  if (first) run_turn(key, turn, true);
}

void AsyncHolds::release(const std::string& key) {
  Turn turn;
  {
    std::lock_guard lock(mu_);
    auto it = keys_.find(key);
    // Holders are counted only while the key is on, and it leaves `on` only when they are none:
    // anything else is a release without a hold, and changes nothing.
    if (it == keys_.end() || it->second.phase != Phase::on || it->second.holders == 0) return;
    if (--it->second.holders > 0) return;
    it->second.phase = Phase::stopping;
    turn = it->second.turn;
  }
  run_turn(key, turn, false);
}

void AsyncHolds::run_turn(const std::string& key, const Turn& turn, bool on) {
  auto answered = std::make_shared<std::atomic<bool>>(false);
  turn(key, on, [weak = weak_from_this(), key, on, answered](Result<void> r) {
    if (answered->exchange(true)) return;  // a turn that answers twice is heard once
    auto self = weak.lock();
    if (!self) return;
    if (on)
      self->started(key, std::move(r));
    else
      self->stopped(key);
  });
}

void AsyncHolds::started(const std::string& key, Result<void> r) {
  std::vector<Done> told;
  {
    std::lock_guard lock(mu_);
    auto it = keys_.find(key);
    if (it == keys_.end() || it->second.phase != Phase::starting) return;
    told.swap(it->second.waiters);
    waiting_ -= told.size();
    if (r) {
      it->second.phase = Phase::on;
      it->second.holders += told.size();
    } else {
      keys_.erase(it);
    }
  }
  for (auto& done : told) done(r ? Result<void>{} : Result<void>(fail(r.error())));
}

void AsyncHolds::stopped(const std::string& key) {
  Turn turn;
  {
    std::lock_guard lock(mu_);
    auto it = keys_.find(key);
    if (it == keys_.end() || it->second.phase != Phase::stopping) return;
    if (it->second.waiters.empty()) {
      keys_.erase(it);
      return;
    }
    it->second.phase = Phase::starting;  // holds came while it stopped
    turn = it->second.turn;
  }
  run_turn(key, turn, true);
}

std::vector<std::string> AsyncHolds::keys_on() const {
  std::vector<std::string> out;
  std::lock_guard lock(mu_);
  for (const auto& [key, e] : keys_) {
    if (e.phase == Phase::on) out.push_back(key);
  }
  return out;
}

std::size_t AsyncHolds::waiting() const {
  std::lock_guard lock(mu_);
  return waiting_;
}

}  // namespace mcp::detail
