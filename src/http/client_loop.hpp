// Private: the event loop an HTTP client transport runs its exchanges on, and the one thread that
// runs it.
//
// One thread per transport, whatever the load: the exchanges in flight are coroutines on this loop,
// each waiting in epoll, not on a thread of its own (until 2026-12-02 each had one, woken from
// poll(2): half a gateway's CPU per call over HTTP went there, bench/RESULTS.md "2026-12-01
// (night)"). A transport's deliveries already came one at a time (under its delivery lock), so one
// thread runs them no slower.
//
// With HttpClientOptions::run_on_server_loops, a request sent from an HttpServer's I/O thread runs
// on that thread's loop instead (loop_host.hpp); everything else runs here.
//
// The loop outlives its thread's last step: the thread holds a reference, so a transport whose
// last reference goes on the loop's own thread (released by its own delivery) is destroyed there,
// and the loop it was running with it only once run() returned.
#pragma once

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <memory>
#include <thread>

#include "mcp/error.hpp"

namespace mcp::http {

namespace net = boost::asio;

class ClientLoop {
 public:
  // A loop and its running thread; why not, if no thread can be started.
  static Result<std::shared_ptr<ClientLoop>> start();
  ~ClientLoop();

  net::io_context::executor_type executor() { return ioc_.get_executor(); }
  // True on the loop's thread.
  bool here() const { return ioc_.get_executor().running_in_this_thread(); }
  // Lets run() return once nothing is left to do, and waits for it (from any thread but the
  // loop's own, which is handed to the reaper instead: session/reaper.hpp).
  void finish() noexcept;

 private:
  ClientLoop() = default;
  mutable net::io_context ioc_{1};  // mutable: asking for its executor is no change
  net::executor_work_guard<net::io_context::executor_type> busy_{ioc_.get_executor()};
  std::thread thread_;
};

}  // namespace mcp::http
