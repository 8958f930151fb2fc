// Private: how many threads wait, now, on something a peer decides the pace of (a watch hook that
// asks an upstream, the upstream's answer to a subscribe), bounded. Each waiter holds a Waiter
// while it waits; one that came past the bound is told so and should give up at once: the threads
// it would hold are the shared pool's, which every session's blocking work needs.
//
// Thread-safety: all members are thread-safe.
#pragma once

#include <atomic>

namespace mcp::detail {

class WaiterCount {
 public:
  explicit WaiterCount(int most) : most_(most) {}

  class Waiter {
   public:
    explicit Waiter(WaiterCount& c) : c_(c), over_(c.now_.fetch_add(1) >= c.most_) {}
    ~Waiter() { c_.now_.fetch_sub(1); }
    Waiter(const Waiter&) = delete;
    Waiter& operator=(const Waiter&) = delete;
    // Whether this one came when `most` already waited.
    bool over() const { return over_; }

   private:
    WaiterCount& c_;
    const bool over_;
  };

 private:
  const int most_;
  std::atomic<int> now_{0};
};

}  // namespace mcp::detail
