#include "http/workers.hpp"

#include <system_error>

#include "session/reaper.hpp"

namespace mcp::http {

void Workers::run(const std::shared_ptr<Pool>& pool, std::function<void()> body) {
  for (;;) {
    body();
    body = nullptr;  // what it holds goes now, not when the next body comes
    std::unique_lock lock(pool->mu);
    // A body handed over is always taken, even once stopping: it is a request the transport counts.
    if (pool->handed.empty()) {
      if (pool->stopping || pool->idle >= kMaxIdle) return;
      ++pool->idle;
      pool->cv.wait_for(lock, pool->idle_for, [&] { return pool->stopping || !pool->handed.empty(); });
      --pool->idle;
      if (pool->handed.empty()) return;  // stopping, or nothing came in time
    }
    body = std::move(pool->handed.front());
    pool->handed.pop_front();
  }
}

std::optional<std::string> Workers::spawn(std::function<void()> body) {
  {
    std::lock_guard lock(pool_->mu);
    if (pool_->idle > pool_->handed.size()) {
      pool_->handed.push_back(std::move(body));
      pool_->cv.notify_one();
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
  return pool_->idle;
}

void Workers::join() noexcept {
  if (pool_) {
    {
      std::lock_guard lock(pool_->mu);
      pool_->stopping = true;
    }
    pool_->cv.notify_all();
  }
  for (auto& w : threads_) detail::join_or_reap(w.thread);
  threads_.clear();
}

}  // namespace mcp::http
