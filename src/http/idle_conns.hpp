// Private: the kept-alive connections of an HTTP client transport that wait for its next request.
//
// As many are kept as requests ran at once (the caller passes its max_concurrent_requests as the
// most), so a steady load opens no connection past its first. The newest is taken first, so those
// a lighter load leaves unused age, and go once they have waited kReuseWithin (a server may be
// about to close them). A fixed cap of 8 had opened a connection for ~8% of the calls of 16
// callers through the gateway (bench/RESULTS.md, "2026-12-01"): a TCP connection per request, for
// the upstream too.
//
// Not thread-safe: the transport calls it under its own lock.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <deque>
#include <memory>
#include <utility>
#include <vector>

#include "http/client_conn.hpp"

namespace mcp::http {

class IdleConns {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::milliseconds kReuseWithin{2000};

  // The newest connection kept, or null. Kept in the order they came, so if the newest has waited
  // kReuseWithin every one has: all are dropped.
  std::unique_ptr<ClientConn> take(Clock::time_point now) {
    if (idle_.empty()) return nullptr;
    if (now - idle_.back().second >= kReuseWithin) {
      idle_.clear();
      return nullptr;
    }
    auto c = std::move(idle_.back().first);
    idle_.pop_back();
    return c;
  }

  // Keeps `c`, first letting go of those that have waited kReuseWithin and, at `most` kept, of the
  // oldest: returned, for the caller to close once it has let go of its lock.
  [[nodiscard]] std::vector<std::unique_ptr<ClientConn>> put(std::unique_ptr<ClientConn> c, Clock::time_point now,
                                                             std::size_t most) {
    std::vector<std::unique_ptr<ClientConn>> gone;
    while (!idle_.empty() && (now - idle_.front().second >= kReuseWithin || idle_.size() >= std::max<std::size_t>(1, most))) {
      gone.push_back(std::move(idle_.front().first));
      idle_.pop_front();
    }
    idle_.emplace_back(std::move(c), now);
    return gone;
  }

  void clear() { idle_.clear(); }

 private:
  std::deque<std::pair<std::unique_ptr<ClientConn>, Clock::time_point>> idle_;  // oldest first
};

}  // namespace mcp::http
