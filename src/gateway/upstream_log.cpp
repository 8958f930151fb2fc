#include "gateway/upstream_log.hpp"

#include <algorithm>

#include "mcp/error.hpp"
#include "mcp/log.hpp"

namespace mcp::gateway {

std::string UpstreamLog::admit(const LoggingMessageNotificationParams& message, std::chrono::steady_clock::time_point now) {
  const auto taken = budget_.take(now);
  if (!taken) return {};
  const std::uint64_t dropped_before = *taken;
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

std::uint64_t UpstreamLog::dropped() const { return budget_.dropped(); }

}  // namespace mcp::gateway
