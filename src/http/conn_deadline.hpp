// Private: the deadline of one connection's reads and writes (the HTTP server's connections and
// the HTTP client's), kept as a time and enforced by one timer that is seldom re-armed.
//
// Beast's stream timeouts arm an Asio timer for every read and write and cancel it when the
// operation ends: a timer-queue insert and removal, the cancelled wait's handler run later (one more
// turn of the event loop), and a timerfd_settime(2) whenever that timer is the loop's earliest. A
// call through the gateway's HTTP front to an HTTP upstream made five such reads and writes (three
// on its client's connection, two on the upstream's). Here setting a deadline stores a time; the
// timer is armed for at most the shortest timeout the connection has used (its `floor`) from when
// it is armed, so a deadline at least that far away finds it armed in time and leaves it alone. It
// re-arms itself when it fires early (every `floor` while a deadline is set), and is re-armed
// at once only for a deadline shorter than any before.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <memory>

namespace mcp::http {

class ConnDeadline {
 public:
  using clock = std::chrono::steady_clock;

  // `on_expire` runs on the executor's thread when a deadline passes. It should close the
  // connection, as Beast's timeouts do, so that the pending read or write ends with an error.
  ConnDeadline(boost::asio::any_io_executor ex, std::function<void()> on_expire);
  ~ConnDeadline();  // stop()
  ConnDeadline(const ConnDeadline&) = delete;
  ConnDeadline& operator=(const ConnDeadline&) = delete;

  // On the executor's thread, as are the rest.
  void expires_after(clock::duration d);
  void expires_never();
  // Whether the last deadline set passed (on_expire ran for it), until the next expires_after: tells
  // a timeout from other errors, after the step's expires_never() too.
  bool expired() const;
  // No more expiries; the timer is cancelled. The owner calls it (its destructor does) before what
  // on_expire refers to goes.
  void stop();

 private:
  struct State;
  std::shared_ptr<State> state_;  // shared with the timer's pending handler, which may run after stop()
};

}  // namespace mcp::http
