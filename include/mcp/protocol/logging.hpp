// mcp/protocol/logging.hpp — server-to-client logging (schema 2025-11-25: "LoggingLevel",
// "SetLevelRequestParams", "LoggingMessageNotificationParams"). Conventions: mcp/protocol/wire.hpp.
#pragma once

#include "mcp/protocol/wire.hpp"

namespace mcp {

// The syslog severities of RFC 5424, declared from least to most severe so that the built-in
// comparisons order them: a message is sent when `level >= minimum`.
enum class LoggingLevel { debug, info, notice, warning, error, critical, alert, emergency };
MCP_WIRE_ENUM(LoggingLevel, parse_logging_level)

struct SetLevelRequestParams {
  LoggingLevel level = LoggingLevel::info;
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_REQUEST_PARAMS(SetLevelRequestParams, level, meta, extra)

struct LoggingMessageNotificationParams {
  LoggingLevel level = LoggingLevel::info;
  std::optional<std::string> logger{};
  json::value data{};  // anything JSON-serialisable, including null (required on the wire even then)
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(LoggingMessageNotificationParams, level, logger, data, meta, extra)

}  // namespace mcp
