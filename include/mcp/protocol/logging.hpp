// mcp/protocol/logging.hpp — server-to-client logging (schema 2025-11-25: "LoggingLevel",
// "SetLevelRequestParams", "LoggingMessageNotificationParams").
//
// Conventions: see mcp/protocol/tool.hpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "mcp/json.hpp"

namespace mcp {

// The syslog severities of RFC 5424, declared from least to most severe so that the built-in
// comparisons order them: a message is sent when `level >= minimum`.
enum class LoggingLevel { debug, info, notice, warning, error, critical, alert, emergency };

std::string_view to_string(LoggingLevel);
std::optional<LoggingLevel> parse_logging_level(std::string_view);

struct SetLevelRequestParams {
  LoggingLevel level = LoggingLevel::info;
  std::optional<json::object> meta;
  json::object extra;
};

struct LoggingMessageNotificationParams {
  LoggingLevel level = LoggingLevel::info;
  std::optional<std::string> logger;
  json::value data;  // anything JSON-serialisable, including null (required on the wire even then)
  std::optional<json::object> meta;
  json::object extra;
};

json::value to_json(LoggingLevel);
json::value to_json(const SetLevelRequestParams&);
json::value to_json(const LoggingMessageNotificationParams&);
template <> Result<LoggingLevel> from_json<LoggingLevel>(const json::value&);
template <> Result<SetLevelRequestParams> from_json<SetLevelRequestParams>(const json::value&);
template <> Result<LoggingMessageNotificationParams> from_json<LoggingMessageNotificationParams>(
    const json::value&);

}  // namespace mcp
