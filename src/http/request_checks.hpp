// Private: what the Streamable HTTP endpoint decides about a request on its own, before any session
// is involved — which handler it goes to, and whether it is refused (and how). Pure functions of the
// parsed request and the server's policy, apart from I/O, so that they can be tested and fuzzed
// without sockets (tests/fuzz/fuzz_http_request.cpp feeds them whatever Beast's parser accepts).
#pragma once

#include <boost/beast/http.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "http/host_check.hpp"
#include "mcp/jsonrpc/codec.hpp"
#include "mcp/protocol/header_params.hpp"

namespace mcp::http {

using Request = boost::beast::http::request<boost::beast::http::string_body>;

// How a request is refused: the HTTP status and the JSON-RPC error of its body.
struct Refusal {
  unsigned status = 400;
  int code = -32000;
  std::string message;
  jsonrpc::Id id;  // the request's id, when it could be read
  std::optional<json::value> data{};  // the error's data (-32022: supported and requested versions)
};

struct EndpointPolicy {
  std::string path = "/mcp";
  HostPolicy host;
  std::size_t max_body_bytes = 4 * 1024 * 1024;
  // The sessions' decoder limits: the message is decoded here, once, and handed to its session.
  jsonrpc::Limits limits{};
  // The x-mcp-header parameters of a tool (Server::tool_header_params), to check a stateless
  // tools/call's Mcp-Param-* headers against its arguments; unset: none are checked.
  std::function<std::shared_ptr<const std::vector<HeaderParam>>(std::string_view tool)> tool_header_params{};
};

enum class Route { extra_route, mcp_post, mcp_get, mcp_delete };

// The route of a request, or its refusal: 404 for another path, 403 for a refused Host or Origin,
// 400 for an unsupported MCP-Protocol-Version on a GET or DELETE (a POST's is judged with its body,
// which says which revision it speaks), 405 for another method. `is_extra_route` says
// whether the path has an extra route (served before any MCP check).
std::variant<Refusal, Route> route_request(const EndpointPolicy& policy, const Request& req,
                                           bool is_extra_route);

// A POST to the MCP endpoint, checked: its content type, what it accepts, its body as one JSON-RPC
// message (strict: limits, repeated names), and, for initialize, its params (a session is created
// only for a valid one).
// A stateless (2026-07-28) request passes the revision's checks in the order its conformance
// cases fix (docs/protocol-2026-07-28.md §3.2): its _meta (400, -32602), the MCP-Protocol-Version
// and Mcp-Method headers against the body (400, -32020), the version (400, -32022 with data), the
// headers' presence and Mcp-Name against params.name or params.uri (400, -32020), and a tools/call's
// Mcp-Param-* headers against the arguments its tool's x-mcp-header annotations name (400, -32020).
struct CheckedPost {
  jsonrpc::Message message;
  bool sse_ok = false;   // the client accepts text/event-stream
  bool json_ok = false;  // the client accepts application/json
  std::string protocol_version;  // MCP-Protocol-Version, or initialize's protocolVersion
  bool stateless = false;        // a 2026-07-28 request: served without a session
};
std::variant<Refusal, CheckedPost> check_post(const EndpointPolicy& policy, const Request& req);

bool is_supported_http_version(std::string_view mcp_protocol_version);
// Whether the request's Accept header admits `type` (or anything, */*).
bool accepts(const Request& req, std::string_view type);

}  // namespace mcp::http
