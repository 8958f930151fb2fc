// mcp/protocol/input_required.hpp — multi round-trip requests (MCP 2026-07-28,
// basic/patterns/mrtr.mdx; schema "InputRequiredResult", "InputRequests", "InputResponses").
//
// A 2026-07-28 server never sends the client a request. When a tools/call, prompts/get or
// resources/read needs something only the client has (a user's answer, a model's completion, the
// roots), the server answers with an InputRequiredResult: `inputRequests` names each thing it
// needs by a key it chooses, and an opaque `requestState` carries what the server wants back. The
// client fulfils the requests and sends the original request again, with a new id, plus
// `inputResponses` (the answers, by the same keys) and the `requestState` byte for byte.
//
// Conventions: mcp/protocol/wire.hpp.
#pragma once

#include "mcp/protocol/wire.hpp"

namespace mcp {

// One request embedded in an InputRequiredResult: {method, params}, without jsonrpc or id. The
// three methods a client serves: elicitation/create, sampling/createMessage, roots/list.
struct InputRequest {
  std::string method{};
  std::optional<json::object> params{};
  json::object extra{};

  static InputRequest elicit(json::object params);
  static InputRequest create_message(json::object params);
  static InputRequest list_roots();
};
MCP_WIRE_TYPE(InputRequest, method, params, extra)

// The requests of one InputRequiredResult, by the keys the server chose.
using InputRequests = std::map<std::string, InputRequest>;

struct InputRequiredResult {
  InputRequests input_requests{};
  std::optional<std::string> request_state{};
  std::optional<json::object> meta{};
};

// The result object, with resultType "input_required". At least one of the two fields is the
// server's duty (mrtr.mdx, Server Requirements 5); to_json does not check it.
json::object to_json(const InputRequiredResult& result);
// Reads a result whose resultType is "input_required". -32602 naming the member when
// inputRequests is not an object of {method, params} with a method the client serves, when
// requestState is not a string, or when neither is present.
[[nodiscard]] Result<InputRequiredResult> input_required_from_json(const json::object& result);

// Whether `method` may be embedded in inputRequests.
bool is_input_request_method(std::string_view method);

// The client capability `request` needs, as a dotted path (mcp/protocol/capabilities.hpp):
// "elicitation", "elicitation.url", "sampling", "sampling.tools" or "roots". Empty for a method no
// client serves.
std::string_view input_request_capability(const InputRequest& request);
// The same for a nested request of 2025-11-25 (method and params).
std::string_view input_request_capability(std::string_view method, const json::object& params);

// The methods whose params may carry inputResponses and requestState (and whose result may be an
// InputRequiredResult): tools/call, prompts/get, resources/read.
bool accepts_input_responses(std::string_view method);

}  // namespace mcp
