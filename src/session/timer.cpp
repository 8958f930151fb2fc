#include "session/timer.hpp"

#include <condition_variable>
#include <map>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>

#include "log/log.hpp"
#include "session/thread_name.hpp"

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
  // What the thread sleeps until: an earlier new deadline wakes it, a later one does not.
  Clock::time_point wakes_at = Clock::time_point::max();
  std::uint64_t wakeups = 0;  // times the thread woke (for tests)

  TimerHandle add(Clock::time_point when, std::function<void()> callback) {
    TimerHandle h{when, 0};
    bool earliest;
    {
      std::lock_guard lock(mu);
      h.seq = next_seq++;
      queue.emplace(Key{when, h.seq}, std::move(callback));
      earliest = when < wakes_at;
      if (earliest) wakes_at = when;  // told once, even if more come before it runs
      if (!started) {
        // Marked started only once it is: a system out of threads now leaves the next call to try.
        try {
          std::thread([this] {
            detail::name_this_thread("mcp-timer");
            loop();
          }).detach();
          started = true;
        } catch (const std::system_error& e) {
          MCP_LOG_ERROR("timer: cannot start its thread ({}); timeouts wait for the next try", e.what());
        }
      }
    }
    // Only a deadline before the one the thread sleeps until changes when it must wake: waking it
    // for every request cost a context switch per call.
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
      const auto now = Clock::now();
      if (queue.empty() || now < queue.begin()->first.first) {
        // Until the first deadline; with none, until the one it slept for, if still ahead. A
        // request answered in time cancels its deadline without waking this thread, so the next
        // request's deadline (a later one, from the same timeout) needs no wake-up either: the
        // thread wakes once when the cancelled one passes, not once per request.
        if (!queue.empty()) wakes_at = queue.begin()->first.first;
        else if (wakes_at <= now) wakes_at = Clock::time_point::max();
        const auto until = wakes_at;  // add() may lower wakes_at while this waits
        if (until == Clock::time_point::max()) cv.wait(lock);
        else cv.wait_until(lock, until);
        ++wakeups;
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

std::uint64_t timer_wakeups() {
  auto& t = timer();
  std::lock_guard lock(t.mu);
  return t.wakeups;
}

}  // namespace mcp::detail
