// mcp/jsonrpc/message.hpp — JSON-RPC 2.0 messages as MCP uses them.
//
// MCP sends one message per frame (batches were removed in 2025-06-18) and params are always an
// object. An id is a string or an integer and is echoed back exactly as received: we keep it as the
// json::value we parsed, never converting it.
//
// Thread-safety: plain values.
#pragma once

#include <optional>
#include <string>
#include <variant>

#include "mcp/error.hpp"
#include "mcp/json.hpp"

namespace mcp::jsonrpc {

// A request id: a json::value holding a string or an int64/uint64. Null only in error responses
// answering a message whose id could not be read.
using Id = json::value;

struct Request {
  Id id{};
  std::string method{};
  std::optional<json::object> params{};
};

struct Notification {
  std::string method{};
  std::optional<json::object> params{};
};

struct Response {
  Id id{};
  json::value result{};
};

struct ErrorResponse {
  Id id{};  // null when the failing message's id is unknown (e.g. parse errors)
  Error error{};
};

using Message = std::variant<Request, Notification, Response, ErrorResponse>;

// "42" for 42, "\"abc\"" for "abc": ids as they appear on the wire, for logs and map keys.
std::string id_key(const Id& id);

}  // namespace mcp::jsonrpc
