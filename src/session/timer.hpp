// Private: one process-wide thread that runs callbacks at deadlines (asynchronous requests' timeouts).
//
// Why one thread for all: an asynchronous request must time out without a thread waiting on it,
// and thousands may be in flight. Callbacks run on the timer's thread: they must be short and must
// not wait on anything that could wait on the timer. A request answered in time cancels its
// timeout, so the timer holds only what is still in flight (not every request of the last
// minute), and the thread is woken only when a new deadline comes before the one it sleeps until.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>

namespace mcp::detail {

// Names one scheduled callback; a default one names none.
struct TimerHandle {
  std::chrono::steady_clock::time_point when{};
  std::uint64_t seq = 0;
};

// Runs `callback` at or soon after `when`. Never destroyed, like ThreadPool::shared().
TimerHandle run_at(std::chrono::steady_clock::time_point when, std::function<void()> callback);

// Forgets a callback that has not run yet (a no-op once it ran, or for a default handle). What it
// captured is destroyed on the calling thread, without the timer's lock.
void cancel_timer(const TimerHandle& handle);

// How many callbacks wait (for tests: that cancelled ones are gone).
std::size_t timers_pending();
// How many times the timer's thread has woken (for tests: that requests answered in time do not
// wake it).
std::uint64_t timer_wakeups();

}  // namespace mcp::detail
