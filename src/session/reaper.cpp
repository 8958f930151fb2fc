#include "session/reaper.hpp"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <system_error>

#include "log/log.hpp"

namespace mcp::detail {

namespace {

class Reaper {
 public:
  // At exit (static destruction, in the reverse order of construction): whatever was handed in
  // ends before the statics and atexit handlers set up before the first reap() go.
  ~Reaper() {
    {
      std::lock_guard lock(mu_);
      stopping_ = true;
    }
    cv_.notify_one();
    if (thread_.joinable()) thread_.join();
  }

  void adopt(std::thread t) noexcept {
    std::unique_lock lock(mu_);
    if (!thread_.joinable()) {
      try {
        thread_ = std::thread([this] { loop(); });
      } catch (const std::system_error& e) {
        lock.unlock();
        MCP_LOG_ERROR("reaper: cannot start its thread ({}); a finishing thread is detached", e.what());
        t.detach();
        return;
      }
    }
    queue_.push_back(std::move(t));
    lock.unlock();
    cv_.notify_one();
  }

  std::size_t pending() {
    std::lock_guard lock(mu_);
    return queue_.size() + joining_;
  }

 private:
  void loop() {
    std::unique_lock lock(mu_);
    for (;;) {
      cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and every handed thread joined
      std::thread t = std::move(queue_.front());
      queue_.pop_front();
      ++joining_;
      lock.unlock();
      t.join();  // the thread is in its owner's last steps: a short wait
      lock.lock();
      --joining_;
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::thread> queue_;
  std::size_t joining_ = 0;
  bool stopping_ = false;
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
