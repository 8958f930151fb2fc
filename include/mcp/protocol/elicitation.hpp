// mcp/protocol/elicitation.hpp — asking the user through the client (schema 2025-11-25:
// "ElicitRequestFormParams", "ElicitRequestURLParams", "ElicitRequestParams", "ElicitResult",
// "ElicitationCompleteNotification" params, "URLElicitationRequiredError").
//
// Conventions: mcp/protocol/wire.hpp. A task-augmented request's "task" stays in `extra`.
#pragma once

#include "mcp/protocol/wire.hpp"

namespace mcp {

// The form a form-mode elicitation asks for: a flat object of primitive fields ("type": "object").
// Each property is kept as its JSON Schema object; from_json checks it is one of the primitive kinds
// the specification allows (string, number, integer, boolean, or an array for multi-select enums),
// because clients can only render those. A "$schema" (dialect URI) stays in `extra`.
struct RequestedSchema {
  json::object properties{};
  OptionalArray<std::string> required{};
  json::object extra{};
};
MCP_WIRE_TAGGED(RequestedSchema, "object", properties, required, extra)

// Form mode: the answer travels back through the client in ElicitResult::content. Must not be used
// for secrets (passwords, API keys): those go through URL mode.
struct ElicitRequestFormParams {
  std::string message{};
  RequestedSchema requested_schema{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_REQUEST_PARAMS(ElicitRequestFormParams, message, requested_schema, meta, extra)

// URL mode (new in 2025-11-25): the user is sent to `url` and the data never passes the client.
struct ElicitRequestURLParams {
  std::string message{};
  std::string url{};
  std::string elicitation_id{};  // echoed by notifications/elicitation/complete
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_REQUEST_PARAMS(ElicitRequestURLParams, message, url, elicitation_id, meta, extra)

// Dispatched on "mode", always written: "url" is URL mode, "form" or no mode at all (peers older
// than 2025-11-25) is form mode, anything else is an error.
constexpr wire::Tag wire_tag(const ElicitRequestFormParams*) { return {"mode", "form", true}; }
constexpr wire::Tag wire_tag(const ElicitRequestURLParams*) { return {"mode", "url"}; }
using ElicitRequestParams = std::variant<ElicitRequestFormParams, ElicitRequestURLParams>;
MCP_WIRE_UNION(ElicitRequestParams)

enum class ElicitAction { accept, decline, cancel };
MCP_WIRE_ENUM(ElicitAction, parse_elicit_action)

struct ElicitResult {
  ElicitAction action = ElicitAction::cancel;
  // Form mode, action accept: field name -> string | number | boolean | array of strings.
  std::optional<json::object> content{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(ElicitResult, action, content, meta, extra)

struct ElicitationCompleteNotificationParams {
  std::string elicitation_id{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(ElicitationCompleteNotificationParams, elicitation_id, meta, extra)

// The error (-32042) a server returns when a request needs URL elicitations completed first.
Error url_elicitation_required_error(const std::vector<ElicitRequestURLParams>& elicitations,
                                     std::string message = "URL elicitation required");
// The elicitations carried by such an error; fails unless `e` is one and its data is well-formed.
Result<std::vector<ElicitRequestURLParams>> url_elicitations(const Error& e);

}  // namespace mcp
