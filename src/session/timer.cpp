#include "session/timer.hpp"

#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

namespace mcp::detail {

namespace {

using Clock = std::chrono::steady_clock;

struct Timer {
  using Key = std::pair<Clock::time_point, std::uint64_t>;  // ties run in scheduling order

  std::mutex mu;
  std::condition_variable cv;
  std::map<Key, std::function<void()>> queue;
  std::uint64_t next_seq = 1;  // 0 names no callback
  bool started = false;

  TimerHandle add(Clock::time_point when, std::function<void()> callback) {
    TimerHandle h{when, 0};
    bool earliest;
    {
      std::lock_guard lock(mu);
      h.seq = next_seq++;
      auto it = queue.emplace(Key{when, h.seq}, std::move(callback)).first;
      earliest = it == queue.begin();
      if (!started) {
        started = true;
        std::thread([this] { loop(); }).detach();
      }
    }
    // Only a new first deadline changes when the thread must wake: waking it for every request
    // cost a context switch per call.
    if (earliest) cv.notify_one();
    return h;
  }

  void cancel(const TimerHandle& h) {
    std::function<void()> dropped;
    std::lock_guard lock(mu);
    auto it = queue.find(Key{h.when, h.seq});
    if (it == queue.end()) return;
    dropped = std::move(it->second);
    queue.erase(it);
  }

  void loop() {
    std::unique_lock lock(mu);
    for (;;) {
      if (queue.empty()) {
        cv.wait(lock);
        continue;
      }
      const Clock::time_point next = queue.begin()->first.first;
      if (Clock::now() < next) {
        cv.wait_until(lock, next);
        continue;
      }
      auto callback = std::move(queue.begin()->second);
      queue.erase(queue.begin());
      lock.unlock();
      callback();
      callback = nullptr;  // what it captured goes before the lock is taken again
      lock.lock();
    }
  }
};

// Leaked on purpose: its thread may outlive static destruction.
Timer& timer() {
  static Timer* t = new Timer;
  return *t;
}

}  // namespace

TimerHandle run_at(Clock::time_point when, std::function<void()> callback) { return timer().add(when, std::move(callback)); }

void cancel_timer(const TimerHandle& handle) {
  if (handle.seq != 0) timer().cancel(handle);
}

std::size_t timers_pending() {
  auto& t = timer();
  std::lock_guard lock(t.mu);
  return t.queue.size();
}

}  // namespace mcp::detail
