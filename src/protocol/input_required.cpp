// Multi round-trip results (mcp/protocol/input_required.hpp).
#include "mcp/protocol/input_required.hpp"

#include "mcp/protocol/methods.hpp"
#include "mcp/protocol/stateless.hpp"

namespace mcp {

InputRequest InputRequest::elicit(json::object params) {
  return {.method = std::string(method::kElicitationCreate), .params = std::move(params)};
}

InputRequest InputRequest::create_message(json::object params) {
  return {.method = std::string(method::kSamplingCreateMessage), .params = std::move(params)};
}

InputRequest InputRequest::list_roots() { return {.method = std::string(method::kRootsList)}; }

bool is_input_request_method(std::string_view m) {
  return m == method::kElicitationCreate || m == method::kSamplingCreateMessage || m == method::kRootsList;
}

bool accepts_input_responses(std::string_view m) {
  return m == method::kToolsCall || m == method::kPromptsGet || m == method::kResourcesRead;
}

std::string_view input_request_capability(std::string_view m, const json::object& params) {
  if (m == method::kElicitationCreate) {
    // Form mode is the default (client/elicitation.mdx): only "url" needs its own capability.
    const json::value* mode = params.if_contains("mode");
    return mode && mode->is_string() && mode->get_string() == "url" ? "elicitation.url" : "elicitation";
  }
  if (m == method::kSamplingCreateMessage) {
    // Tool-enabled sampling needs sampling.tools (client/sampling.mdx, "Tools in Sampling").
    return params.contains("tools") || params.contains("toolChoice") ? "sampling.tools" : "sampling";
  }
  if (m == method::kRootsList) return "roots";
  return {};
}

std::string_view input_request_capability(const InputRequest& request) {
  static const json::object kNone;
  return input_request_capability(request.method, request.params ? *request.params : kNone);
}

json::object to_json(const InputRequiredResult& result) {
  json::object out{{"resultType", kResultInputRequired}};
  if (!result.input_requests.empty()) {
    json::object requests;
    for (const auto& [key, request] : result.input_requests) requests[key] = to_json(request);
    out["inputRequests"] = std::move(requests);
  }
  if (result.request_state) out["requestState"] = *result.request_state;
  if (result.meta) out["_meta"] = *result.meta;
  return out;
}

Result<InputRequiredResult> input_required_from_json(const json::object& result) {
  InputRequiredResult out;
  const json::value* requests = result.if_contains("inputRequests");
  const json::value* state = result.if_contains("requestState");
  if (!requests && !state) {
    return fail(Error::invalid_params("InputRequiredResult: neither inputRequests nor requestState is present"));
  }
  if (requests) {
    const json::object* object = requests->if_object();
    if (!object) return fail(Error::invalid_params("InputRequiredResult.inputRequests: expected an object"));
    for (const auto& [key, value] : *object) {
      auto request = from_json<InputRequest>(value);
      const std::string where = "InputRequiredResult.inputRequests[\"" + peer_text(key) + "\"]";
      if (!request) return fail(Error::invalid_params(where + ": " + request.error().message));
      if (!is_input_request_method(request->method)) {
        return fail(Error::invalid_params(where + ": method " + peer_text(request->method) +
                                          " is not one a client serves (elicitation/create, "
                                          "sampling/createMessage, roots/list)"));
      }
      out.input_requests.emplace(std::string(key), std::move(*request));
    }
  }
  if (state) {
    if (!state->is_string()) return fail(Error::invalid_params("InputRequiredResult.requestState: expected a string"));
    out.request_state = std::string(state->get_string());
  }
  if (const json::value* meta = result.if_contains("_meta"); meta && meta->is_object()) out.meta = meta->get_object();
  return out;
}

}  // namespace mcp
