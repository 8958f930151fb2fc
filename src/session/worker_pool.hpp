// Private: a pool of threads started on demand, up to a maximum, for inbound request handlers.
// Handlers may block (on a nested request to the peer), so threads are not shared across sessions
// and the pool grows instead of deadlocking while it is under its maximum.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace mcp::detail {

class WorkerPool {
 public:
  explicit WorkerPool(std::size_t max_threads) : max_threads_(max_threads ? max_threads : 1) {}
  ~WorkerPool() { join(); }

  // Queues a job; returns false after join() has begun.
  bool post(std::function<void()> job) {
    std::lock_guard lock(mu_);
    if (stopping_) return false;
    jobs_.push_back(std::move(job));
    // Count queued jobs against idle threads: a woken thread has not yet left `idle_`.
    if (jobs_.size() > idle_ && threads_.size() < max_threads_) {
      threads_.emplace_back([this] { run(); });
    } else {
      cv_.notify_one();
    }
    return true;
  }

  // Runs the queued jobs to completion, then stops the threads. Idempotent; not from a worker.
  void join() {
    std::vector<std::thread> threads;
    {
      std::lock_guard lock(mu_);
      stopping_ = true;
      threads.swap(threads_);
    }
    cv_.notify_all();
    for (auto& t : threads) {
      if (t.get_id() == std::this_thread::get_id()) t.detach();
      else if (t.joinable()) t.join();
    }
  }

 private:
  void run() {
    std::unique_lock lock(mu_);
    for (;;) {
      ++idle_;
      cv_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      --idle_;
      if (jobs_.empty()) return;  // stopping, nothing left
      auto job = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      job();
      lock.lock();
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  std::vector<std::thread> threads_;
  std::size_t max_threads_;
  std::size_t idle_ = 0;
  bool stopping_ = false;
};

}  // namespace mcp::detail
