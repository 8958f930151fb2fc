// mcp/protocol/initialize.hpp — the initialize handshake (schema 2025-11-25: "Implementation",
// "InitializeRequestParams", "InitializeResult"). notifications/initialized carries
// NotificationParams (mcp/protocol/base.hpp); versions are in mcp/protocol/methods.hpp.
// Conventions: mcp/protocol/wire.hpp.
#pragma once

#include "mcp/protocol/capabilities.hpp"
#include "mcp/protocol/icon.hpp"
#include "mcp/protocol/wire.hpp"

namespace mcp {

// Who is on the other end (clientInfo / serverInfo).
struct Implementation {
  std::string name{};
  std::string version{};
  std::optional<std::string> title{};
  std::optional<std::string> description{};
  std::optional<std::string> website_url{};
  OptionalArray<Icon> icons{};
  json::object extra{};
};
MCP_WIRE_TYPE(Implementation, name, version, title, description, website_url, icons, extra)

struct InitializeRequestParams {
  std::string protocol_version{};  // the latest the client supports
  ClientCapabilities capabilities{};
  Implementation client_info{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_REQUEST_PARAMS(InitializeRequestParams, protocol_version, capabilities, client_info, meta, extra)

struct InitializeResult {
  std::string protocol_version{};  // the client's if the server supports it, else the server's latest
  ServerCapabilities capabilities{};
  Implementation server_info{};
  std::optional<std::string> instructions{};  // hints a client may add to the model's system prompt
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(InitializeResult, protocol_version, capabilities, server_info, instructions, meta, extra)

}  // namespace mcp
