#include "mcp/transport/direct.hpp"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <variant>

namespace mcp {

namespace {

// A frame as text (send) or as a value (send_value), in the order they were sent.
using Item = std::variant<std::string, jsonrpc::Message>;

// What both ends share, under one lock: per end, its callbacks, the frames sent to it and not yet
// delivered, and which thread (if any) is delivering to it.
struct DirectLink {
  struct End {
    Transport::Callbacks cb;
    bool started = false;
    bool gone = false;  // destroyed: nothing more is delivered to it
    std::deque<Item> inbox;
    bool delivering = false;
    std::thread::id deliverer;
    bool close_told = false;
  };
  std::mutex mu;
  std::condition_variable idle;  // an end stopped delivering
  End end[2];
  bool closed = false;
};

class DirectEnd final : public Transport {
 public:
  DirectEnd(std::shared_ptr<DirectLink> link, int side) : link_(std::move(link)), side_(side) {}

  ~DirectEnd() override {
    close();
    Callbacks dropped;
    std::unique_lock lock(link_->mu);
    auto& me = link_->end[side_];
    me.gone = true;
    // Another thread may be inside one of our callbacks: they use what the callbacks capture,
    // which may die with us. From inside our own callback (the session destroyed there), the
    // callback is still running: it is left to the link.
    link_->idle.wait(lock, [&] { return !me.delivering || me.deliverer == std::this_thread::get_id(); });
    if (!me.delivering) dropped = std::move(me.cb);
  }

  // Each holds its own reference to the link: a callback may destroy this end (its owner gone),
  // and the delivery goes on with the link alone.
  Result<void> start(Callbacks cb) override {
    auto link = link_;
    std::unique_lock lock(link->mu);
    auto& me = link->end[side_];
    if (me.started) return fail(Error::internal("transport already started"));
    me.cb = std::move(cb);
    me.started = true;
    deliver(*link, side_, lock);  // what was sent before, and a close that came before
    return {};
  }

  Result<void> send(std::string frame, const SendInfo&) override { return put(Item(std::move(frame))); }

  // Both ends are in this process: a message passes as the value its sender built.
  bool carries_values() const override { return true; }
  Result<void> send_value(jsonrpc::Message message, const SendInfo&) override { return put(Item(std::move(message))); }

  void close() override {
    auto link = link_;
    const int me = side_;
    std::unique_lock lock(link->mu);
    if (link->closed) return;
    link->closed = true;
    deliver(*link, me, lock);
    deliver(*link, 1 - me, lock);
  }

 private:
  // Queues `item` for the other end and delivers, unless another thread already is.
  Result<void> put(Item item) {
    auto link = link_;
    std::unique_lock lock(link->mu);
    if (link->closed) return fail(Error::connection_closed("transport closed"));
    link->end[1 - side_].inbox.push_back(std::move(item));
    deliver(*link, 1 - side_, lock);
    return {};
  }

  // Delivers what waits for end `to`, unless a thread is already doing so (it will deliver this
  // too, in order): frames first, then on_close once the link is closed. Called and returns with
  // the lock held; the callbacks run without it. Uses nothing of `this`.
  static void deliver(DirectLink& link, int to, std::unique_lock<std::mutex>& lock) {
    auto& e = link.end[to];
    if (!e.started || e.gone || e.delivering) return;
    e.delivering = true;
    e.deliverer = std::this_thread::get_id();
    while (!e.gone) {
      if (!e.inbox.empty()) {
        Item item = std::move(e.inbox.front());
        e.inbox.pop_front();
        lock.unlock();
        hand_over(e.cb, std::move(item));
        lock.lock();
        continue;
      }
      if (link.closed && !e.close_told) {
        e.close_told = true;
        lock.unlock();
        e.cb.on_close(std::nullopt);
        lock.lock();
        continue;
      }
      break;
    }
    e.delivering = false;
    e.deliverer = {};
    link.idle.notify_all();
  }

  // A value goes to on_decoded (no frame: size 0); an end that only reads text gets the value's.
  static void hand_over(const Callbacks& cb, Item item) {
    if (auto* text = std::get_if<std::string>(&item)) {
      cb.on_message(std::move(*text));
    } else if (cb.on_decoded) {
      cb.on_decoded(std::move(std::get<jsonrpc::Message>(item)), 0);
    } else {
      cb.on_message(jsonrpc::encode(std::get<jsonrpc::Message>(item)));
    }
  }

  std::shared_ptr<DirectLink> link_;
  int side_;
};

}  // namespace

std::pair<std::shared_ptr<Transport>, std::shared_ptr<Transport>> make_direct_transport_pair() {
  auto link = std::make_shared<DirectLink>();
  return {std::make_shared<DirectEnd>(link, 0), std::make_shared<DirectEnd>(link, 1)};
}

}  // namespace mcp
