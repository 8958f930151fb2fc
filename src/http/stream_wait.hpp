// Private: how an HTTP connection's coroutine waits on a Stream (src/http/stream.hpp) for what a
// handler sends, from any thread: a waker that is safe at any moment, the wait itself, and how to
// see, while waiting, that the client has left.
#pragma once

#include <sys/socket.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <cerrno>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

#include "http/stream.hpp"

namespace mcp::http {

namespace net = boost::asio;

// How a stream wakes a coroutine waiting on a timer. A handler may push (and so wake) from any
// thread at any moment, even while the coroutine ends or the server is being destroyed, and a
// copy of the waker may outlive both: so the waker owns nothing of Asio's, and once the coroutine
// disarms it (it does so before it ends, on its own thread, while its io_context lives) a wake
// does nothing. ASan found the old waker, which owned the timer, freeing it after its io_context.
class TimerWaker : public std::enable_shared_from_this<TimerWaker> {
 public:
  TimerWaker(net::any_io_executor exec, std::weak_ptr<net::steady_timer> timer)
      : exec_(std::move(exec)), timer_(std::move(timer)) {}
  std::function<void()> callback() {
    return [self = shared_from_this()] { self->wake(); };
  }
  void disarm() {
    std::lock_guard lock(mu_);
    armed_ = false;
  }

 private:
  void wake() {
    std::lock_guard lock(mu_);  // held across the post: disarm() waits for a post in progress
    if (!armed_) return;
    net::post(exec_, [timer = timer_] {
      if (auto t = timer.lock()) t->cancel();
    });
  }
  std::mutex mu_;
  bool armed_ = true;
  net::any_io_executor exec_;
  std::weak_ptr<net::steady_timer> timer_;
};

// A connection's timer and the waker that cancels it, made once for all its requests' waits and
// SSE responses rather than for each (two allocations and their reference counts per request). A
// waker a stream still holds from an earlier request may wake a later wait: it then looks again
// and waits on. Disarmed when the connection's coroutine ends, however it ends.
class Waiter {
 public:
  explicit Waiter(net::any_io_executor exec)
      : timer_(std::make_shared<net::steady_timer>(exec)), waker_(std::make_shared<TimerWaker>(exec, timer_)) {}
  ~Waiter() { waker_->disarm(); }
  Waiter(const Waiter&) = delete;
  Waiter& operator=(const Waiter&) = delete;
  net::steady_timer& timer() { return *timer_; }
  std::function<void()> callback() { return waker_->callback(); }

 private:
  std::shared_ptr<net::steady_timer> timer_;
  std::shared_ptr<TimerWaker> waker_;
};

// Waits, on the connection's waiter, until `ready` holds for what the stream has (from its start).
// With `gone`, also looks once a second whether the client has left, and gives up (nullopt) if so.
// Not before the first second: most answers come sooner, and the look is a system call.
template <class Ready>
net::awaitable<std::optional<Stream::Batch>> wait_until(Stream& st, Waiter& waiter, Ready ready,
                                                        const std::function<bool()>& gone = nullptr) {
  auto b = st.take_after(0);
  if (ready(b)) co_return b;  // a handler that ran inline has answered already: no timer, no waker
  st.attach(waiter.callback());
  std::optional<Stream::Batch> out;
  auto& timer = waiter.timer();
  for (bool first = true;; b = st.take_after(0)) {
    if (ready(b)) {
      out = std::move(b);
      break;
    }
    if (!first && gone && gone()) break;
    first = false;
    timer.expires_after(gone ? std::chrono::seconds(1) : std::chrono::seconds(3600));
    if (!st.consume_signal()) co_await timer.async_wait(net::as_tuple(net::use_awaitable));
  }
  st.detach();
  co_return out;
}

// Whether the client closed its end (or the connection broke) while we wait to answer: a peek
// that reads nothing. Data it sent meanwhile (a pipelined request) stays for the next read.
template <class S>
bool peer_left(S& stream) {
  auto& socket = boost::beast::get_lowest_layer(stream).socket();
  char c;
  const auto n = ::recv(socket.native_handle(), &c, 1, MSG_PEEK | MSG_DONTWAIT);
  return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

}  // namespace mcp::http
