// Private: what the HTTP client transport reads from a frame it is about to send.
#pragma once

#include <optional>
#include <string>

#include "mcp/jsonrpc/message.hpp"

namespace mcp::http {

// What an outbound frame says about itself, read once: its id and method, and, for a 2026-07-28
// message (its _meta names a protocol version), the headers that mirror its body. A frame that is
// not a JSON object reads as empty (no id, no method).
struct Outbound {
  jsonrpc::Id id = nullptr;
  std::string method;
  std::optional<std::string> stateless_version;  // set: a 2026-07-28 message
  std::optional<std::string> name;               // Mcp-Name: params.name or params.uri
  std::optional<jsonrpc::Id> cancels;            // notifications/cancelled: the request it cancels

  static Outbound read(const std::string& frame);
};

}  // namespace mcp::http
