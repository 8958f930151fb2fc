// Private to the gateway: an upstream's notifications/message, written to the gateway's log.
//
// They are not forwarded to clients: an upstream's session is shared by every client of it, and a
// message does not say which request it concerns (a 2025-11-25 stdio upstream cannot), so
// forwarding it could show one client what another client's call logged. They go where its stderr
// goes, with the upstream's name (log_passthrough: a field of its own in JSON logs), at the level
// the config asked of the upstream, whatever the gateway's own level.
//
// A hostile upstream cannot flood the log: each message is cut to kMaxBytes, and at most kBurst
// are written at once, then kPerSecond; what is dropped is counted and said with the next one
// written.
//
// Thread-safety: write() from any thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

#include "log/log_budget.hpp"
#include "mcp/protocol/logging.hpp"

namespace mcp::gateway {

class UpstreamLog {
 public:
  explicit UpstreamLog(std::string name) : name_(std::move(name)) {}
  // The line for `message`, or empty when the rate limit drops it. Written by write().
  std::string admit(const LoggingMessageNotificationParams& message,
                    std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now());
  void write(const LoggingMessageNotificationParams& message);
  std::uint64_t dropped() const;

  static constexpr std::size_t kMaxBytes = 4096;
  static constexpr double kPerSecond = 50;
  static constexpr double kBurst = 200;

 private:
  const std::string name_;
  detail::LogBudget budget_{kBurst, kPerSecond};
};

}  // namespace mcp::gateway
