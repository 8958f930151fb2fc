// mcp/protocol/initialize.hpp — the initialize handshake (schema 2025-11-25: "Implementation",
// "InitializeRequestParams", "InitializeResult"). notifications/initialized carries
// NotificationParams (mcp/protocol/base.hpp); versions are in mcp/protocol/methods.hpp.
//
// Conventions: see mcp/protocol/tool.hpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mcp/json.hpp"
#include "mcp/protocol/capabilities.hpp"
#include "mcp/protocol/icon.hpp"

namespace mcp {

// Who is on the other end (clientInfo / serverInfo).
struct Implementation {
  std::string name;
  std::string version;
  std::optional<std::string> title;
  std::optional<std::string> description;
  std::optional<std::string> website_url;  // "websiteUrl"
  std::vector<Icon> icons;
  json::object extra;
};

struct InitializeRequestParams {
  std::string protocol_version;  // "protocolVersion": the latest the client supports
  ClientCapabilities capabilities;
  Implementation client_info;  // "clientInfo"
  std::optional<json::object> meta;
  json::object extra;
};

struct InitializeResult {
  std::string protocol_version;  // the client's if the server supports it, else the server's latest
  ServerCapabilities capabilities;
  Implementation server_info;  // "serverInfo"
  std::optional<std::string> instructions;  // hints a client may add to the model's system prompt
  std::optional<json::object> meta;
  json::object extra;
};

json::value to_json(const Implementation&);
json::value to_json(const InitializeRequestParams&);
json::value to_json(const InitializeResult&);
template <> Result<Implementation> from_json<Implementation>(const json::value&);
template <> Result<InitializeRequestParams> from_json<InitializeRequestParams>(const json::value&);
template <> Result<InitializeResult> from_json<InitializeResult>(const json::value&);

}  // namespace mcp
