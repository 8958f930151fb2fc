#include "http/request_checks.hpp"

#include <algorithm>

#include "http/header_value.hpp"
#include "mcp/protocol/initialize.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/protocol/stateless.hpp"

namespace mcp::http {

namespace bhttp = boost::beast::http;

bool accepts(const Request& req, std::string_view type) {
  auto a = req[bhttp::field::accept];
  return a.find(type) != std::string_view::npos || a.find("*/*") != std::string_view::npos;
}

namespace {

Refusal refuse(bhttp::status status, int code, std::string message, jsonrpc::Id id = nullptr) {
  return Refusal{static_cast<unsigned>(status), code, std::move(message), std::move(id)};
}

// A request speaks a stateless revision when its _meta names a protocol version (a claim), or,
// without one, when its MCP-Protocol-Version header names a stateless revision: a client that
// forgot the _meta is told what is missing, not sent to the handshake.
bool claims_stateless(const Request& req, const jsonrpc::Request& r) {
  if (r.params && is_stateless_request(*r.params)) return true;
  const std::string_view header = req["mcp-protocol-version"];
  return r.method != method::kInitialize && !header.empty() && header >= kStatelessProtocolVersions.back();
}

Refusal mismatch(std::string message, const jsonrpc::Id& id) {
  return refuse(bhttp::status::bad_request, error_code::kHeaderMismatch, std::move(message), id);
}

// The body's value a name header mirrors: params.name of tools/call and prompts/get, params.uri of
// resources/read; null for other methods (no Mcp-Name), or when the body has no such string (the
// server then refuses the params themselves).
const json::string* named_value(const jsonrpc::Request& r) {
  const std::string_view key = method::item_param(r.method);
  if (key.empty() || !r.params) return nullptr;
  const json::value* v = r.params->if_contains(key);
  return v ? v->if_string() : nullptr;
}

// A tools/call's Mcp-Param-* headers (streamable-http.mdx "Server Behavior for Custom Headers"):
// each argument the tool mirrors must arrive in its header, decoded equal to the body's value, and
// no header may claim a value the body does not have.
std::optional<Refusal> check_param_headers(const EndpointPolicy& policy, const Request& req, const jsonrpc::Request& r) {
  const json::string* name = named_value(r);
  if (!name || !policy.tool_header_params) return std::nullopt;
  auto params = policy.tool_header_params(std::string_view(name->data(), name->size()));
  if (!params || params->empty()) return std::nullopt;
  static const json::object kNoArguments;
  const json::value* a = r.params->if_contains("arguments");
  const json::object& arguments = a && a->is_object() ? a->get_object() : kNoArguments;
  for (const HeaderParam& p : *params) {
    const std::string header = "Mcp-Param-" + p.name;
    const auto text = header_param_text(arguments, p);
    auto it = req.find(header);
    if (it == req.end()) {
      if (text) return mismatch("the " + header + " header is required: the tool mirrors that argument into it", r.id);
      continue;
    }
    auto value = decode_header_value(it->value());
    if (!value) return mismatch("the " + header + " header is not valid Base64 inside =?base64?...?=", r.id);
    if (!text) return mismatch("the " + header + " header is sent, but the arguments hold no value for it", r.id);
    if (*value != *text) {
      return mismatch(header + " header " + peer_text(*value) + " does not match the argument " + peer_text(*text), r.id);
    }
  }
  return std::nullopt;
}

std::optional<Refusal> check_stateless_post(const EndpointPolicy& policy, const Request& req, const jsonrpc::Request& r) {
  static const json::object kNoParams;
  auto meta = check_request_meta(r.params ? *r.params : kNoParams);
  if (!meta)
    return refuse(bhttp::status::bad_request, error_code::kInvalidParams, peer_text(r.method) + ": " + meta.error().message, r.id);
  const std::string_view version = req["mcp-protocol-version"];
  const std::string_view method_header = req["mcp-method"];
  if (!version.empty() && version != meta->protocol_version) {
    return mismatch("MCP-Protocol-Version header " + peer_text(version) + " does not match _meta's " +
                        peer_text(meta->protocol_version),
                    r.id);
  }
  if (!method_header.empty() && method_header != r.method) {
    return mismatch("Mcp-Method header " + peer_text(method_header) + " does not match the method " + peer_text(r.method), r.id);
  }
  if (!is_stateless_protocol_version(meta->protocol_version)) {
    json::array supported;
    for (std::string_view v : kStatelessProtocolVersions) supported.emplace_back(json::string(v));
    Refusal out = refuse(bhttp::status::bad_request, error_code::kUnsupportedProtocolVersion,
                         "Unsupported protocol version " + peer_text(meta->protocol_version), r.id);
    out.data = json::object{{"supported", std::move(supported)}, {"requested", peer_text(meta->protocol_version)}};
    return out;
  }
  if (version.empty()) return mismatch("the MCP-Protocol-Version header is required", r.id);
  if (method_header.empty()) return mismatch("the Mcp-Method header is required", r.id);
  if (const json::string* named = named_value(r)) {
    auto it = req.find("mcp-name");
    if (it == req.end()) return mismatch("the Mcp-Name header is required for " + r.method, r.id);
    auto value = decode_header_value(it->value());
    if (!value) return mismatch("the Mcp-Name header is not valid Base64 inside =?base64?...?=", r.id);
    const std::string_view body_value(named->data(), named->size());
    if (*value != body_value) {
      return mismatch("Mcp-Name header " + peer_text(*value) + " does not match " + peer_text(body_value), r.id);
    }
  }
  if (r.method == method::kToolsCall) return check_param_headers(policy, req, r);
  return std::nullopt;
}

}  // namespace

bool is_supported_http_version(std::string_view v) { return is_supported_protocol_version(v); }

std::variant<Refusal, Route> route_request(const EndpointPolicy& policy, const Request& req, bool is_extra_route) {
  if (is_extra_route) return Route::extra_route;
  std::string_view target = req.target();
  std::string_view path = target.substr(0, target.find('?'));
  if (path != policy.path) return refuse(bhttp::status::not_found, -32000, "Not found: " + peer_text(path));
  if (auto bad = check_host_and_origin(policy.host, req[bhttp::field::host], req[bhttp::field::origin])) {
    return refuse(bhttp::status::forbidden, -32000, *bad);
  }
  if (auto v = req["mcp-protocol-version"]; req.method() != bhttp::verb::post && !v.empty() && !is_supported_http_version(v)) {
    return refuse(bhttp::status::bad_request, -32000, "Unsupported MCP-Protocol-Version: " + peer_text(v));
  }
  switch (req.method()) {
    case bhttp::verb::post: return Route::mcp_post;
    case bhttp::verb::get: return Route::mcp_get;
    case bhttp::verb::delete_: return Route::mcp_delete;
    default: return refuse(bhttp::status::method_not_allowed, -32000, "Method not allowed");
  }
}

std::variant<Refusal, CheckedPost> check_post(const EndpointPolicy& policy, const Request& req) {
  if (req[bhttp::field::content_type].find("application/json") == std::string_view::npos) {
    return refuse(bhttp::status::unsupported_media_type, -32000, "Content-Type must be application/json");
  }
  CheckedPost out{.message = jsonrpc::Notification{}, .sse_ok = accepts(req, "text/event-stream"),
                  .json_ok = accepts(req, "application/json"), .protocol_version = std::string(req["mcp-protocol-version"])};
  if (!out.sse_ok && !out.json_ok) {
    return refuse(bhttp::status::not_acceptable, -32000, "Accept must include application/json or text/event-stream");
  }
  auto limits = policy.limits;
  limits.max_message_bytes = std::min(limits.max_message_bytes, policy.max_body_bytes);
  auto decoded = jsonrpc::decode(req.body(), limits);
  if (!decoded) {
    return refuse(bhttp::status::bad_request, decoded.error().error.code, decoded.error().error.message,
                  decoded.error().id);
  }
  out.message = std::move(*decoded);
  if (auto* r = std::get_if<jsonrpc::Request>(&out.message); r && claims_stateless(req, *r)) {
    if (auto refused = check_stateless_post(policy, req, *r)) return std::move(*refused);
    out.stateless = true;
    out.protocol_version = std::string(req["mcp-protocol-version"]);
    return out;
  }
  // The handshake revisions: their version header, when sent, must be one of theirs.
  if (auto v = req["mcp-protocol-version"]; !v.empty() && !is_supported_http_version(v)) {
    return refuse(bhttp::status::bad_request, -32000, "Unsupported MCP-Protocol-Version: " + peer_text(v));
  }
  if (auto* r = std::get_if<jsonrpc::Request>(&out.message); r && r->method == method::kInitialize) {
    // A session exists only for a valid initialize: a peer sending junk gets its error and costs
    // the server nothing it keeps.
    auto params = from_json<InitializeRequestParams>(r->params ? json::value(*r->params) : json::value());
    if (!params) {
      return refuse(bhttp::status::bad_request, error_code::kInvalidParams, "initialize: " + params.error().message,
                    r->id);
    }
    out.protocol_version = params->protocol_version;
  }
  return out;
}

}  // namespace mcp::http
