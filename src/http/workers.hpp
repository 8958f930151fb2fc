// Private: the threads an HTTP client transport runs its exchanges on.
//
// Each request's exchange, and the standalone GET stream, runs on a thread of its own: an answer
// may stream for as long as the server likes. A thread whose exchange has ended waits up to
// idle_for for the next one instead of ending: starting a thread per request cost ~7% of a
// gateway's CPU over HTTP (bench/RESULTS.md, 2026-11-27). The transport joins the threads that
// have ended as it starts more (a long-lived client does not pile them up), and joins the rest
// when it closes: waiting threads are woken then, and end.
//
// How many wait: as many as the load needs, no fixed count. Threads are only ever started for
// exchanges that find none waiting, so there are never more than the most exchanges that ran at
// once (the transport bounds those: max_concurrent_requests). A body goes to the thread that began
// waiting last, so a load that needs fewer threads than wait keeps giving work to the same few and
// the rest end after idle_for. A fixed cap (8, until 2026-12-01) started a thread for nearly every
// exchange past the eighth at once: with 16 callers through the gateway, 18% of calls started one
// (bench/RESULTS.md, "2026-12-01").
//
// Not thread-safe: the transport calls it under its own lock, and joins what it took out. An
// exchange's body is destroyed when it returns, before its thread waits for the next: what it
// holds (the transport itself) is not kept by an idle thread.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace mcp::http {

class Workers {
 public:
  static constexpr std::chrono::milliseconds kIdleFor{2000};

  explicit Workers(std::chrono::milliseconds idle_for = kIdleFor) : pool_(std::make_shared<Pool>(idle_for)) {}
  Workers(Workers&&) = default;
  Workers& operator=(Workers&& other) noexcept {
    join();  // threads are never dropped unjoined (std::thread would end the process)
    threads_ = std::move(other.threads_);
    pool_ = std::move(other.pool_);
    return *this;
  }
  ~Workers() { join(); }

  // Runs `body` on a waiting thread, or on a new one; why not, when no thread can be started (the
  // system is out of them): the caller reports that, nothing throws.
  std::optional<std::string> spawn(std::function<void()> body);
  // Joins the threads that have ended.
  void reap();
  // Every thread, taken out to be joined without the transport's lock.
  [[nodiscard]] Workers take() { return std::exchange(*this, Workers(pool_ ? pool_->idle_for : kIdleFor)); }
  // Wakes the waiting threads and joins them all. The calling thread, if it is one of them (the
  // transport's last reference went on it), cannot join itself: it is handed to the process's
  // reaper (session/reaper.hpp), and ends once its body returns.
  void join() noexcept;

  // Threads started and not joined; of those, waiting for a body (for tests).
  std::size_t threads() const { return threads_.size(); }
  std::size_t waiting() const;

 private:
  // A thread waiting for a body, on its own stack while it waits.
  struct Waiter {
    std::condition_variable cv;
    std::function<void()> body;  // handed by spawn() (guarded by Pool::mu)
  };
  struct Pool {
    explicit Pool(std::chrono::milliseconds i) : idle_for(i) {}
    const std::chrono::milliseconds idle_for;
    mutable std::mutex mu;
    std::vector<Waiter*> idle;  // the one that began waiting last is last
    bool stopping = false;
  };
  struct Worker {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done;  // its thread has ended
  };
  static void run(const std::shared_ptr<Pool>& pool, std::function<void()> body);
  std::vector<Worker> threads_;
  std::shared_ptr<Pool> pool_;
};

}  // namespace mcp::http
