#include "session/timer.hpp"

#include <condition_variable>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

namespace mcp::detail {

namespace {

using Clock = std::chrono::steady_clock;

struct Timer {
  struct Entry {
    Clock::time_point when;
    std::uint64_t seq;  // ties run in scheduling order
    std::function<void()> callback;
    bool operator>(const Entry& o) const { return when != o.when ? when > o.when : seq > o.seq; }
  };

  std::mutex mu;
  std::condition_variable cv;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
  std::uint64_t next_seq = 0;
  bool started = false;

  void add(Clock::time_point when, std::function<void()> callback) {
    std::lock_guard lock(mu);
    queue.push(Entry{when, next_seq++, std::move(callback)});
    if (!started) {
      started = true;
      std::thread([this] { loop(); }).detach();
    }
    cv.notify_one();
  }

  void loop() {
    std::unique_lock lock(mu);
    for (;;) {
      if (queue.empty()) {
        cv.wait(lock);
        continue;
      }
      // A copy: wait_until reads the deadline while the lock is released, and a push meanwhile may
      // move the queue's storage (ASan found the reference version reading freed memory).
      const Clock::time_point next = queue.top().when;
      if (Clock::now() < next) {
        cv.wait_until(lock, next);
        continue;
      }
      auto callback = std::move(const_cast<Entry&>(queue.top()).callback);
      queue.pop();
      lock.unlock();
      callback();
      callback = nullptr;  // what it captured goes before the lock is taken again
      lock.lock();
    }
  }
};

}  // namespace

void run_at(Clock::time_point when, std::function<void()> callback) {
  // Leaked on purpose: its thread may outlive static destruction.
  static Timer* timer = new Timer;
  timer->add(when, std::move(callback));
}

}  // namespace mcp::detail
