#include "mcp/session/thread_pool.hpp"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <system_error>
#include <thread>

#include "log/log.hpp"
#include "session/thread_name.hpp"

namespace mcp {

// Shared with every thread of the pool (threads are detached and hold it), so a pool destroyed
// while a job runs leaves that thread a valid place to return to.
namespace {
// The pool whose job this thread is running, if any: a pool destroyed from one of its own jobs
// must not wait for that thread to exit.
thread_local const void* tls_current_pool = nullptr;
}  // namespace

struct ThreadPool::State {
  explicit State(Options o) : opts(o) {
    if (opts.max_threads == 0) opts.max_threads = 1;
  }
  Options opts;
  mutable std::mutex mu;
  std::condition_variable cv;       // work arrived, or stopping
  std::condition_variable gone_cv;  // a thread exited, or went idle while someone waits for that
  std::size_t idle_waiters = 0;     // callers of wait_idle: only then does going idle notify
  std::deque<std::function<void()>> jobs;
  std::size_t threads = 0;
  std::size_t idle = 0;
  bool stopping = false;

  static void run(const std::shared_ptr<State>& self) {
    tls_current_pool = self.get();
    std::unique_lock lock(self->mu);
    for (;;) {
      ++self->idle;
      if (self->idle_waiters > 0) self->gone_cv.notify_all();
      bool woke = self->cv.wait_for(lock, self->opts.idle_exit, [&] { return self->stopping || !self->jobs.empty(); });
      --self->idle;
      if (self->jobs.empty() && (self->stopping || !woke)) break;  // stopping, or idle long enough
      auto job = std::move(self->jobs.front());
      self->jobs.pop_front();
      lock.unlock();
      job();
      job = nullptr;  // destroy what the job captured before taking the lock again
      lock.lock();
    }
    --self->threads;
    self->gone_cv.notify_all();
  }
};

std::shared_ptr<ThreadPool> ThreadPool::shared() {
  static auto* pool = new std::shared_ptr<ThreadPool>(new ThreadPool(Options{}));
  return *pool;
}

std::shared_ptr<ThreadPool> ThreadPool::create(Options options) {
  return std::shared_ptr<ThreadPool>(new ThreadPool(options));
}

ThreadPool::ThreadPool(Options options) : state_(std::make_shared<State>(options)) {}

ThreadPool::~ThreadPool() {
  // Queued jobs still run; then the threads exit. Wait for them, unless this is one of them.
  std::unique_lock lock(state_->mu);
  state_->stopping = true;
  state_->cv.notify_all();
  const std::size_t self = tls_current_pool == state_.get() ? 1 : 0;
  state_->gone_cv.wait(lock, [&] { return state_->threads <= self; });
}

bool ThreadPool::post(std::function<void()> job) {
  std::unique_lock lock(state_->mu);
  if (state_->stopping) return false;
  state_->jobs.push_back(std::move(job));
  // Count queued jobs against idle threads: a woken thread has not yet left `idle`.
  if (state_->jobs.size() > state_->idle && state_->threads < state_->opts.max_threads) {
    try {
      auto body = [s = state_] {
        detail::name_this_thread("mcp-worker");
        State::run(s);
      };
      if (state_->opts.start_thread) state_->opts.start_thread(std::move(body));
      else std::thread(std::move(body)).detach();
      ++state_->threads;
    } catch (const std::system_error& e) {
      // The system will not give us a thread. If the pool has threads, they will get to the job;
      // if it has none, nobody ever would: take it back and tell the caller.
      MCP_LOG_ERROR("thread pool: cannot start a thread ({} running): {}", state_->threads, e.what());
      if (state_->threads == 0) {
        state_->jobs.pop_back();
        return false;
      }
    }
  }
  state_->cv.notify_one();
  return true;
}

std::size_t ThreadPool::threads() const {
  std::lock_guard lock(state_->mu);
  return state_->threads;
}

std::size_t ThreadPool::queued() const {
  std::lock_guard lock(state_->mu);
  return state_->jobs.size();
}

bool ThreadPool::wait_idle(std::chrono::milliseconds timeout) const {
  // Called from one of this pool's own jobs, that job's thread is not waited for.
  const std::size_t self = tls_current_pool == state_.get() ? 1 : 0;
  std::unique_lock lock(state_->mu);
  ++state_->idle_waiters;
  // A thread counts as idle from the top of its loop, after its last job was destroyed.
  const bool idle = state_->gone_cv.wait_for(
      lock, timeout, [&] { return state_->jobs.empty() && state_->idle + self == state_->threads; });
  --state_->idle_waiters;
  return idle;
}

}  // namespace mcp
