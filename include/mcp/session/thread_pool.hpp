// mcp/session/thread_pool.hpp — the bounded pool of threads that runs blocking request handlers.
//
// Handlers that may block (a tool doing I/O, a handler waiting on a nested sampling request) run
// on threads of one pool shared by every session that uses it, instead of threads owned by each
// session: how many threads the process holds is then bounded by the pool, not by how many
// sessions peers open. Threads start on demand, up to `max_threads`, and exit after `idle_exit`
// without work, so an idle server holds none.
//
// Each Session also caps how many of its own requests run at once (Session::Options::max_workers),
// so that one peer cannot occupy the whole pool; its further requests wait in its own queue.
//
// Thread-safety: all members are thread-safe. Jobs must not throw.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>

namespace mcp {

class ThreadPool {
 public:
  struct Options {
    std::size_t max_threads = 64;
    std::chrono::milliseconds idle_exit{30'000};
    // Starts one detached thread running `body`; throws std::system_error when the system refuses.
    // Default: std::thread(...).detach(). Replaceable so that a test can play a system out of threads.
    std::function<void(std::function<void()> body)> start_thread;
  };

  // The process-wide pool sessions use unless given another one. Never destroyed (its threads may
  // outlive static destruction).
  static std::shared_ptr<ThreadPool> shared();

  static std::shared_ptr<ThreadPool> create(Options options);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // Queues `job` for the next free thread, starting one if none is idle and the pool is under its
  // maximum. Returns false, without queueing, when the pool has no thread at all and cannot start
  // one (the system refused: out of memory or over a thread limit); the caller must then fail the
  // work itself rather than let it wait forever.
  [[nodiscard]] bool post(std::function<void()> job);

  // Threads alive now (running or idle).
  [[nodiscard]] std::size_t threads() const;
  // Jobs waiting for a thread.
  [[nodiscard]] std::size_t queued() const;

  // Waits until no job is queued or running (what each job captured already destroyed), or until
  // `timeout` passes; returns whether the pool got idle. The shared pool's threads are never
  // joined, so a program that must not exit under a finishing handler (one still releasing its
  // session, or logging) waits here first; a job posted after this returns is not waited for.
  // From one of the pool's own jobs, it waits for the others.
  [[nodiscard]] bool wait_idle(std::chrono::milliseconds timeout) const;

  struct State;

 private:
  explicit ThreadPool(Options options);
  std::shared_ptr<State> state_;
};

}  // namespace mcp
