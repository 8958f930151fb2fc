// Private: one process-wide thread that runs callbacks at deadlines (asynchronous requests' timeouts).
//
// Why one thread for all: an asynchronous request must time out without a thread waiting on it,
// and thousands may be in flight. Callbacks run on the timer's thread: they must be short and must
// not wait on anything that could wait on the timer.
#pragma once

#include <chrono>
#include <functional>

namespace mcp::detail {

// Runs `callback` at or soon after `when`. Never destroyed, like ThreadPool::shared().
void run_at(std::chrono::steady_clock::time_point when, std::function<void()> callback);

}  // namespace mcp::detail
