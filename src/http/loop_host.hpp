// Private: an HttpServer's event loops (one per I/O thread), lent to the HTTP client transports its
// handlers use, so that an upstream exchange a handler starts runs on the thread the handler runs
// on: written, waited for and read on that loop, with no hand-off to the client's own loop and
// back. A gateway relaying a call over HTTP paid two thread wake-ups per call for that hand-off
// (each an epoll_ctl and, most times, a futex pair), about half its system calls at four
// connections (bench/RESULTS.md, "2026-12-02 (later)"); nginx serves both sockets in one loop.
//
// Who may run what there: a client transport (a tenant) registers once, on its first exchange
// started on one of the loops (lend()). When the server stops, before its loops do, it retires
// the host: from then on no exchange is started there, and every tenant evacuates (LoopTenant):
// its exchanges on the loops are ended and waited for, and its kept connections there let go. So
// nothing of a tenant outlives the loops it ran on.
#pragma once

#include <boost/asio/io_context.hpp>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

namespace mcp::http {

namespace net = boost::asio;

class LoopHost;

// What a transport that ran exchanges on a host's loops does when the host retires.
class LoopTenant {
 public:
  virtual ~LoopTenant() = default;
  // Called once, from the thread stopping the host (never one of its loops), while the loops still
  // run: returns once nothing of this tenant is left on them.
  virtual void evacuate(LoopHost& host) = 0;
};

class LoopHost : public std::enable_shared_from_this<LoopHost> {
 public:
  // The io_contexts, which the caller runs (each on one thread, which calls enter() first) until
  // after retire() returned.
  explicit LoopHost(std::vector<net::io_context*> loops) : loops_(std::move(loops)) {}

  // On loop `index`'s thread, before it runs: the thread is marked as that loop's.
  void enter(std::size_t index);
  // The host and loop the calling thread runs, if it is a host's (nullptr otherwise).
  struct Here {
    LoopHost* host;
    std::size_t index;
  };
  static const Here* here();

  std::size_t size() const { return loops_.size(); }
  net::io_context& loop(std::size_t index) { return *loops_[index]; }

  // Registers `tenant`, which asks once (a transport, on its first exchange here); false once the
  // host is retiring: run elsewhere.
  bool lend(const std::shared_ptr<LoopTenant>& tenant);
  // No more lending; every tenant evacuates. From a thread not of the host, while its loops run.
  void retire();

 private:
  std::vector<net::io_context*> loops_;
  std::mutex mu_;
  bool retired_ = false;
  std::vector<std::weak_ptr<LoopTenant>> tenants_;
};

}  // namespace mcp::http
