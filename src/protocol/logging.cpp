// LoggingLevel keeps its own codec (its error lists the levels); the params are generic.
#include "mcp/protocol/logging.hpp"

#include <array>

#include "mcp/protocol/wire_codec.hpp"

namespace mcp {

namespace {
// Indexed by the enumerator's value.
constexpr std::array<std::string_view, 8> kLevelNames = {"debug", "info",     "notice", "warning",
                                                         "error", "critical", "alert",  "emergency"};
}  // namespace

std::string_view to_string(LoggingLevel l) { return kLevelNames[static_cast<std::size_t>(l)]; }

std::optional<LoggingLevel> parse_logging_level(std::string_view s) {
  for (std::size_t i = 0; i < kLevelNames.size(); ++i)
    if (kLevelNames[i] == s) return static_cast<LoggingLevel>(i);
  return std::nullopt;
}

json::value to_json(LoggingLevel l) { return json::string(to_string(l)); }

template <>
Result<LoggingLevel> from_json<LoggingLevel>(const json::value& v) {
  const auto* s = v.if_string();
  auto level = s ? parse_logging_level(*s) : std::nullopt;
  if (!level)
    return fail(Error::invalid_params(
        "LoggingLevel: expected one of debug, info, notice, warning, error, critical, alert, emergency"));
  return *level;
}

MCP_WIRE_CODEC(SetLevelRequestParams)
MCP_WIRE_CODEC(LoggingMessageNotificationParams)

}  // namespace mcp
