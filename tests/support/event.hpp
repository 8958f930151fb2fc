// support/event.hpp — one-shot events for tests that must wait on something happening, never on
// the clock. `wait()` has a generous bound only so that a broken build fails instead of hanging;
// a passing run never reaches it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

#include "mcp/session/cancellation.hpp"

namespace mcp::test {

class Event {
 public:
  void set() {
    std::lock_guard l(mu_);
    set_ = true;
    cv_.notify_all();
  }
  bool is_set() const {
    std::lock_guard l(mu_);
    return set_;
  }
  // True once set; false if `bound` passed first (a failure, never a timing assumption).
  bool wait(std::chrono::milliseconds bound = std::chrono::seconds(10)) const {
    std::unique_lock l(mu_);
    return cv_.wait_for(l, bound, [&] { return set_; });
  }

 private:
  mutable std::mutex mu_;
  mutable std::condition_variable cv_;
  bool set_ = false;
};

// Blocks until `token` is cancelled; false if `bound` passed first.
inline bool wait_cancelled(const CancellationToken& token, std::chrono::milliseconds bound = std::chrono::seconds(10)) {
  auto e = std::make_shared<Event>();
  token.on_cancel([e] { e->set(); });
  return e->wait(bound);
}

}  // namespace mcp::test
