#include "gateway/upstream_log.hpp"

#include <algorithm>

#include "mcp/error.hpp"
#include "mcp/log.hpp"

namespace mcp::gateway {

std::string UpstreamLog::admit(const LoggingMessageNotificationParams& message, std::chrono::steady_clock::time_point now) {
  std::uint64_t dropped_before = 0;
  {
    std::lock_guard lock(mu_);
    if (last_ != std::chrono::steady_clock::time_point{}) {
      const double seconds = std::chrono::duration<double>(now - last_).count();
      tokens_ = std::min(kBurst, tokens_ + std::max(0.0, seconds) * kPerSecond);
    }
    last_ = now;
    if (tokens_ < 1) {
      ++dropped_;
      ++dropped_since_;
      return {};
    }
    tokens_ -= 1;
    dropped_before = std::exchange(dropped_since_, 0);
  }
  // The data as JSON: a string's newlines and quotes come out escaped, so one message is one line.
  std::string line = "notifications/message [" + std::string(to_string(message.level)) + "]";
  if (message.logger) line += " " + peer_text(*message.logger, 128);
  line += ": " + peer_text(json::serialize(message.data), kMaxBytes);
  if (dropped_before) line += " (" + std::to_string(dropped_before) + " earlier messages dropped: more than the log takes)";
  return line;
}

void UpstreamLog::write(const LoggingMessageNotificationParams& message) {
  if (auto line = admit(message); !line.empty()) log_passthrough(name_, line);
}

std::uint64_t UpstreamLog::dropped() const {
  std::lock_guard lock(mu_);
  return dropped_;
}

}  // namespace mcp::gateway
