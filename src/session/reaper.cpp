#include "session/reaper.hpp"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <system_error>

#include "log/log.hpp"

namespace mcp::detail {

namespace {

// Shared by the reaper and its thread, so that a thread left running at exit (~Reaper) still has
// what it uses.
struct ReaperState {
  std::mutex mu;
  std::condition_variable wake;  // the reaper thread: a thread was handed in, or the process exits
  std::condition_variable idle;  // the exit: every handed thread is joined
  std::deque<std::thread> queue;
  std::size_t joining = 0;
  bool stopping = false;

  bool drained() const { return queue.empty() && joining == 0; }

  void loop() {
    std::unique_lock lock(mu);
    for (;;) {
      wake.wait(lock, [&] { return stopping || !queue.empty(); });
      if (queue.empty()) return;  // stopping, and every handed thread joined
      std::thread t = std::move(queue.front());
      queue.pop_front();
      ++joining;
      lock.unlock();
      t.join();  // the thread is in its owner's last steps: a short wait
      lock.lock();
      --joining;
      if (drained()) idle.notify_all();
    }
  }
};

class Reaper {
 public:
  // At exit (static destruction, in the reverse order of construction): whatever was handed in
  // ends before the statics and atexit handlers set up before the first reap() go. A thread that
  // does not end (its owner's teardown stuck on something) must not hold the exit forever: after
  // kExitWait it is left running, as a detached thread was.
  ~Reaper() {
    std::unique_lock lock(state_->mu);
    const bool drained = state_->idle.wait_for(lock, kExitWait, [&] { return state_->drained(); });
    state_->stopping = true;
    lock.unlock();
    state_->wake.notify_one();
    if (!thread_.joinable()) return;
    if (drained) thread_.join();
    else thread_.detach();
  }

  void adopt(std::thread t) noexcept {
    std::unique_lock lock(state_->mu);
    if (!thread_.joinable()) {
      try {
        thread_ = std::thread([state = state_] { state->loop(); });
      } catch (const std::system_error& e) {
        lock.unlock();
        MCP_LOG_ERROR("reaper: cannot start its thread ({}); a finishing thread is detached", e.what());
        t.detach();
        return;
      }
    }
    state_->queue.push_back(std::move(t));
    lock.unlock();
    state_->wake.notify_one();
  }

  std::size_t pending() {
    std::lock_guard lock(state_->mu);
    return state_->queue.size() + state_->joining;
  }

 private:
  static constexpr std::chrono::seconds kExitWait{2};
  std::shared_ptr<ReaperState> state_ = std::make_shared<ReaperState>();
  std::thread thread_;
};

// Built at the first reap(), after whatever the reaped threads' owners set up first.
Reaper& reaper() {
  static Reaper r;
  return r;
}

}  // namespace

void reap(std::thread self) noexcept {
  if (self.joinable()) reaper().adopt(std::move(self));
}

std::size_t threads_reaping() { return reaper().pending(); }

}  // namespace mcp::detail
