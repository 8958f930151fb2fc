// mcp/protocol/notifications.hpp — the utility notifications both sides send (schema 2025-11-25:
// "ProgressNotificationParams", "CancelledNotificationParams"). Notifications that carry only
// `_meta` use NotificationParams (mcp/protocol/base.hpp). Conventions: mcp/protocol/wire.hpp.
#pragma once

#include "mcp/protocol/base.hpp"
#include "mcp/protocol/wire.hpp"

namespace mcp {

struct ProgressNotificationParams {
  ProgressToken progress_token{};  // the requester's token, exactly as it sent it
  double progress = 0;             // must increase with each notification, even if total is unknown
  std::optional<double> total{};
  std::optional<std::string> message{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(ProgressNotificationParams, progress_token, progress, total, message, meta, extra)

struct CancelledNotificationParams {
  // A string or an integer, kept as the json::value the request carried (jsonrpc::Id). Optional in
  // 2025-11-25 because tasks are cancelled by tasks/cancel instead.
  std::optional<json::value> request_id{};
  std::optional<std::string> reason{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(CancelledNotificationParams, request_id, reason, meta, extra)

}  // namespace mcp
