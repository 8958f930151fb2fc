#include "mcp/transport/memory.hpp"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "session/reaper.hpp"
#include "session/thread_name.hpp"

namespace mcp {

namespace {

// The state both ends share: one inbox per end, one lock for both, so closing is atomic. One
// condition per inbox, so a send wakes only the reader of the other end (with one for both, every
// send also woke the sender's own reader for nothing: a wasted wake-up per message on two cores).
struct Link {
  std::mutex mu;
  std::condition_variable cv[2];
  std::deque<std::string> inbox[2];
  bool closed = false;
};

class MemoryEnd final : public Transport {
 public:
  MemoryEnd(std::shared_ptr<Link> link, int side) : link_(std::move(link)), side_(side) {}
  ~MemoryEnd() override {
    close();
    detail::join_or_reap(thread_);  // its own thread if released by its own callback
  }

  Result<void> start(Callbacks cb) override {
    if (thread_.joinable()) return fail(Error::internal("transport already started"));
    thread_ = std::thread([this, cb = std::move(cb)] {
      detail::name_this_thread("mcp-memory");
      run(cb);
    });
    return {};
  }

  Result<void> send(std::string frame, const SendInfo&) override {
    {
      std::lock_guard lock(link_->mu);
      if (link_->closed) return fail(Error::connection_closed("transport closed"));
      link_->inbox[1 - side_].push_back(std::move(frame));
    }
    link_->cv[1 - side_].notify_one();
    return {};
  }

  void close() override {
    {
      std::lock_guard lock(link_->mu);
      link_->closed = true;
    }
    link_->cv[0].notify_all();
    link_->cv[1].notify_all();
  }

 private:
  void run(const Callbacks& cb) {
    std::unique_lock lock(link_->mu);
    for (;;) {
      link_->cv[side_].wait(lock, [&] { return link_->closed || !link_->inbox[side_].empty(); });
      // Deliver what was already sent before the close, as a pipe would.
      if (link_->inbox[side_].empty()) break;
      std::string frame = std::move(link_->inbox[side_].front());
      link_->inbox[side_].pop_front();
      lock.unlock();
      cb.on_message(std::move(frame));
      lock.lock();
    }
    lock.unlock();
    cb.on_close(std::nullopt);
  }

  std::shared_ptr<Link> link_;
  int side_;
  std::thread thread_;
};

}  // namespace

std::pair<std::shared_ptr<Transport>, std::shared_ptr<Transport>> make_memory_transport_pair() {
  auto link = std::make_shared<Link>();
  return {std::make_shared<MemoryEnd>(link, 0), std::make_shared<MemoryEnd>(link, 1)};
}

}  // namespace mcp
