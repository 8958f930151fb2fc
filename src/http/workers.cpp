#include "http/workers.hpp"

#include <algorithm>
#include <atomic>
#include <system_error>

#include "session/reaper.hpp"

namespace mcp::http {

void Workers::run(const std::shared_ptr<Pool>& pool, std::function<void()> body) {
  Waiter self;
  for (;;) {
    body();
    body = nullptr;  // what it holds goes now, not when the next body comes
    std::unique_lock lock(pool->mu);
    if (pool->stopping) return;
    pool->idle.push_back(&self);
    // spawn() takes this thread out of `idle` as it hands it a body; a body handed over is always
    // run, even once stopping: it is a request the transport counts.
    self.cv.wait_for(lock, pool->idle_for, [&] { return self.body != nullptr || pool->stopping; });
    if (!self.body) {
      std::erase(pool->idle, &self);  // stopping, or nothing came in time
      return;
    }
    body = std::move(self.body);
    self.body = nullptr;
  }
}

std::optional<std::string> Workers::spawn(std::function<void()> body) {
  {
    std::lock_guard lock(pool_->mu);
    if (!pool_->idle.empty()) {
      Waiter* w = pool_->idle.back();
      pool_->idle.pop_back();
      w->body = std::move(body);
      // Under the lock: once it is released the waiter may run the body and end, and its
      // condition variable with it.
      w->cv.notify_one();
      return std::nullopt;
    }
  }
  auto done = std::make_shared<std::atomic<bool>>(false);
  threads_.reserve(threads_.size() + 1);  // nothing throws once the thread runs
  try {
    threads_.push_back(Worker{std::thread([pool = pool_, body = std::move(body), done]() mutable {
                                run(pool, std::move(body));
                                done->store(true);
                              }),
                              done});
  } catch (const std::system_error& e) {
    return e.what();
  }
  return std::nullopt;
}

void Workers::reap() {
  std::erase_if(threads_, [](Worker& w) { return w.done->load() && (w.thread.join(), true); });
}

std::size_t Workers::waiting() const {
  std::lock_guard lock(pool_->mu);
  return pool_->idle.size();
}

void Workers::join() noexcept {
  if (pool_) {
    std::lock_guard lock(pool_->mu);
    pool_->stopping = true;
    for (Waiter* w : pool_->idle) w->cv.notify_one();
  }
  for (auto& w : threads_) detail::join_or_reap(w.thread);
  threads_.clear();
}

}  // namespace mcp::http
