#include "http/request_checks.hpp"

#include <algorithm>

#include "mcp/protocol/initialize.hpp"
#include "mcp/protocol/methods.hpp"

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
  if (auto v = req["mcp-protocol-version"]; !v.empty() && !is_supported_http_version(v)) {
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
