// mcp/protocol/elicitation.hpp — asking the user through the client (schema 2025-11-25:
// "ElicitRequestFormParams", "ElicitRequestURLParams", "ElicitRequestParams", "ElicitResult",
// "ElicitationCompleteNotification" params, "URLElicitationRequiredError").
//
// Conventions: see mcp/protocol/tool.hpp. A task-augmented request's "task" stays in `extra`.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "mcp/json.hpp"

namespace mcp {

// The form a form-mode elicitation asks for: a flat object of primitive fields. Each property is
// kept as its JSON Schema object; from_json checks it is one of the primitive kinds the
// specification allows (string, number, integer, boolean, or an array for multi-select enums),
// because clients can only render those.
struct RequestedSchema {
  json::object properties{};
  std::vector<std::string> required{};
  std::optional<std::string> schema{};  // "$schema"
  json::object extra{};
};

// Form mode: the answer travels back through the client in ElicitResult::content. Must not be used
// for secrets (passwords, API keys): those go through URL mode.
struct ElicitRequestFormParams {
  std::string message{};
  RequestedSchema requested_schema{};  // "requestedSchema"
  std::optional<json::object> meta{};
  json::object extra{};
};

// URL mode (new in 2025-11-25): the user is sent to `url` and the data never passes the client.
struct ElicitRequestURLParams {
  std::string message{};
  std::string url{};
  std::string elicitation_id{};  // "elicitationId"; echoed by notifications/elicitation/complete
  std::optional<json::object> meta{};
  json::object extra{};
};

// Dispatched on "mode": "url" is URL mode; "form" or no mode at all (peers older than 2025-11-25)
// is form mode; anything else is an error. to_json always writes the mode.
using ElicitRequestParams = std::variant<ElicitRequestFormParams, ElicitRequestURLParams>;

enum class ElicitAction { accept, decline, cancel };
std::string_view to_string(ElicitAction);
std::optional<ElicitAction> parse_elicit_action(std::string_view);

struct ElicitResult {
  ElicitAction action = ElicitAction::cancel;
  // Form mode, action accept: field name -> string | number | boolean | array of strings.
  std::optional<json::object> content{};
  std::optional<json::object> meta{};
  json::object extra{};
};

struct ElicitationCompleteNotificationParams {
  std::string elicitation_id{};  // "elicitationId"
  std::optional<json::object> meta{};
  json::object extra{};
};

// The error (-32042) a server returns when a request needs URL elicitations completed first.
Error url_elicitation_required_error(const std::vector<ElicitRequestURLParams>& elicitations,
                                     std::string message = "URL elicitation required");
// The elicitations carried by such an error; fails unless `e` is one and its data is well-formed.
Result<std::vector<ElicitRequestURLParams>> url_elicitations(const Error& e);

json::value to_json(ElicitAction);
json::value to_json(const RequestedSchema&);
json::value to_json(const ElicitRequestFormParams&);
json::value to_json(const ElicitRequestURLParams&);
json::value to_json(const ElicitRequestParams&);
json::value to_json(const ElicitResult&);
json::value to_json(const ElicitationCompleteNotificationParams&);
template <> Result<ElicitAction> from_json<ElicitAction>(const json::value&);
template <> Result<RequestedSchema> from_json<RequestedSchema>(const json::value&);
template <> Result<ElicitRequestFormParams> from_json<ElicitRequestFormParams>(const json::value&);
template <> Result<ElicitRequestURLParams> from_json<ElicitRequestURLParams>(const json::value&);
template <> Result<ElicitRequestParams> from_json<ElicitRequestParams>(const json::value&);
template <> Result<ElicitResult> from_json<ElicitResult>(const json::value&);
template <> Result<ElicitationCompleteNotificationParams> from_json<ElicitationCompleteNotificationParams>(
    const json::value&);

}  // namespace mcp
