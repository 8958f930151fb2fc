// Private: one mutex per key, made on demand and gone once nobody holds it. Work about one key
// (one URI's subscribe and unsubscribe at an upstream, a watch hook's first and last call) goes
// one at a time, different keys' side by side: one key slow to answer holds up no other.
//
// Thread-safety: of() from any thread; lock what it returns yourself, and keep the pointer while
// you hold the lock.
#pragma once

#include <algorithm>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace mcp::detail {

class KeyedLocks {
 public:
  std::shared_ptr<std::mutex> of(const std::string& key) {
    std::lock_guard lock(mu_);
    auto& slot = locks_[key];
    auto held = slot.lock();
    if (!held) {
      held = std::make_shared<std::mutex>();
      slot = held;
    }
    // Entries whose mutex nobody holds are swept when the table has doubled since the last sweep:
    // it stays within twice the keys in use, at constant cost per call.
    if (locks_.size() >= sweep_at_) {
      std::erase_if(locks_, [](const auto& e) { return e.second.expired(); });
      sweep_at_ = std::max<std::size_t>(64, 2 * locks_.size());
    }
    return held;
  }

  std::size_t size() const {
    std::lock_guard lock(mu_);
    return locks_.size();
  }

 private:
  mutable std::mutex mu_;
  std::unordered_map<std::string, std::weak_ptr<std::mutex>> locks_;
  std::size_t sweep_at_ = 64;
};

}  // namespace mcp::detail
