#include "session/reaper.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <system_error>

#include "log/log.hpp"
#include "session/thread_name.hpp"

namespace mcp::detail {

namespace {

// Never destroyed (a thread may reap itself during static destruction, after any destructor of
// ours would have run); it finishes its work at exit instead (finish_at_exit).
class Reaper {
 public:
  void adopt(std::thread t) noexcept {
    std::unique_lock lock(mu_);
    if (exited_) {
      // The exit already waited for what was handed in; the process is ending anyway.
      lock.unlock();
      t.detach();
      return;
    }
    if (!thread_.joinable()) {
      try {
        thread_ = std::thread([this] {
          detail::name_this_thread("mcp-reaper");
          loop();
        });
      } catch (const std::system_error& e) {
        lock.unlock();
        MCP_LOG_ERROR("reaper: cannot start its thread ({}); a finishing thread is detached", e.what());
        t.detach();
        return;
      }
    }
    queue_.push_back(std::move(t));
    lock.unlock();
    wake_.notify_one();
  }

  bool wait_reaped(std::chrono::milliseconds bound) {
    std::unique_lock lock(mu_);
    return idle_.wait_for(lock, bound, [&] { return drained(); });
  }

  // At exit (an atexit handler registered at the first reap(), so it runs before the handlers and
  // static destructors of what was set up earlier, OpenSSL's included): whatever was handed in
  // ends first. A thread that does not end (its owner's teardown stuck on something) must not hold
  // the exit forever: after kExitWait it is left running, as a detached thread was.
  void finish_at_exit() {
    std::unique_lock lock(mu_);
    const bool all_joined = idle_.wait_for(lock, kExitWait, [&] { return drained(); });
    exited_ = true;
    lock.unlock();
    wake_.notify_one();
    if (!thread_.joinable()) return;
    if (all_joined) thread_.join();
    else thread_.detach();
  }

 private:
  bool drained() const { return queue_.empty() && joining_ == 0; }  // requires mu_
  void loop() {
    std::unique_lock lock(mu_);
    for (;;) {
      wake_.wait(lock, [&] { return exited_ || !queue_.empty(); });
      if (queue_.empty()) return;  // exiting, and every handed thread joined
      std::thread t = std::move(queue_.front());
      queue_.pop_front();
      ++joining_;
      lock.unlock();
      t.join();  // the thread is in its owner's last steps: a short wait
      lock.lock();
      --joining_;
      if (drained()) idle_.notify_all();
    }
  }

  static constexpr std::chrono::seconds kExitWait{2};
  std::mutex mu_;
  std::condition_variable wake_;  // the reaper thread: a thread was handed in, or the process exits
  std::condition_variable idle_;  // the exit: every handed thread is joined
  std::deque<std::thread> queue_;
  std::size_t joining_ = 0;
  bool exited_ = false;
  std::thread thread_;
};

// Built at the first reap(), after whatever the reaped threads' owners set up first.
Reaper& reaper() {
  static Reaper* const r = [] {
    auto* made = new Reaper;
    std::atexit([] { reaper().finish_at_exit(); });
    return made;
  }();
  return *r;
}

}  // namespace

void reap(std::thread self) noexcept {
  if (self.joinable()) reaper().adopt(std::move(self));
}

void join_or_reap(std::thread& t) noexcept {
  if (!t.joinable()) return;
  if (t.get_id() == std::this_thread::get_id()) reap(std::move(t));
  else t.join();
}

bool wait_reaped(std::chrono::milliseconds bound) { return reaper().wait_reaped(bound); }

}  // namespace mcp::detail
