// mcp/protocol/base.hpp — the schema's building blocks shared by every message:
// "ProgressToken" / "RequestId" (string | integer), "RequestParams", "NotificationParams" and
// "EmptyResult" (the params or result of messages that carry nothing but `_meta`).
// Conventions: mcp/protocol/wire.hpp.
#pragma once

#include "mcp/protocol/wire.hpp"

namespace mcp {

// The schema's "ProgressToken" and "RequestId" are `string | integer`. They stay json::values, as
// jsonrpc::Id does, because a peer must get them back exactly as it sent them (42 is not "42", and
// an integer beyond int64 is still the peer's id); from_json checks the type, nothing converts it.
using ProgressToken = json::value;

// True for a string or an integer (an integral double counts: JavaScript peers send 3.0 for 3).
bool is_string_or_integer(const json::value&);

// Params of requests that carry only `_meta` (ping, roots/list, ...).
struct RequestParams {
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_REQUEST_PARAMS(RequestParams, meta, extra)

// Params of notifications that carry only `_meta` (initialized, */list_changed, ...).
struct NotificationParams {
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(NotificationParams, meta, extra)

// A result with no fields of its own (ping, logging/setLevel, resources/subscribe, ...).
struct EmptyResult {
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(EmptyResult, meta, extra)

// The progress token of a request's `_meta`, if present and a string or an integer.
std::optional<ProgressToken> progress_token(const std::optional<json::object>& meta);
// Sets `_meta.progressToken`, creating `_meta` if needed and keeping its other keys.
void set_progress_token(std::optional<json::object>& meta, const ProgressToken& token);

}  // namespace mcp
