// The awaited-nothing part of serving one HTTP request (request_begin.hpp).
#include "http/request_begin.hpp"

#include <cctype>

#include "mcp/protocol/methods.hpp"

namespace mcp::http {

namespace bhttp = boost::beast::http;

Response json_error(const Request& req, bhttp::status status, int code, std::string message, const jsonrpc::Id& id,
                    std::optional<json::value> data) {
  Response res{status, req.version()};
  res.set(bhttp::field::content_type, "application/json");
  res.body() = jsonrpc::encode_error(id, Error{code, std::move(message), std::move(data)});
  res.prepare_payload();
  return res;
}

Response refusal_response(const Request& req, const Refusal& r) {
  auto res = json_error(req, static_cast<bhttp::status>(r.status), r.code, r.message, r.id, r.data);
  if (r.status == 405) res.set(bhttp::field::allow, "GET, POST, DELETE");
  return res;
}

namespace {

Response empty_response(const Request& req, bhttp::status status) {
  Response res{status, req.version()};
  res.keep_alive(req.keep_alive());
  res.prepare_payload();
  return res;
}

// A plain route (ServerState::route_for, e.g. /metrics or a server card): answered by its handler.
Response answer_route(const RouteHandler& handler, const boost::asio::ip::tcp::socket& socket, const Request& req) {
  PlainRequest pr{std::string(req.method_string()), std::string(req.target()), {}, req.body(), {}};
  boost::system::error_code peer_ec;
  const auto remote = socket.remote_endpoint(peer_ec);
  if (!peer_ec) pr.peer = remote.address().to_string();
  for (const auto& f : req) {
    std::string name(f.name_string());
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    pr.headers[name] = std::string(f.value());
  }
  auto out = handler(pr);
  Response res{static_cast<bhttp::status>(out.status), req.version()};
  for (const auto& [k, v] : out.headers) res.set(k, v);
  res.body() = std::move(out.body);
  res.keep_alive(req.keep_alive());
  res.prepare_payload();
  return res;
}

// A DELETE of a session: its answer, nothing to wait for.
Response delete_session(ServerState& state, const McpEndpoint& ep, const Request& req) {
  auto named = named_session(state, ep, req);
  if (auto* refused = std::get_if<Response>(&named)) return std::move(*refused);
  if (!state.end_session(std::string(req["mcp-session-id"]))) {
    return json_error(req, bhttp::status::not_found, -32001, "Session not found");
  }
  return empty_response(req, bhttp::status::ok);
}

}  // namespace

std::variant<Response, std::shared_ptr<SessionTransport>> named_session(ServerState& state, const McpEndpoint& ep,
                                                                        const Request& req) {
  auto sid = req["mcp-session-id"];
  if (sid.empty()) return json_error(req, bhttp::status::bad_request, -32000, "Bad Request: Mcp-Session-Id header is required");
  auto entry = state.find_session(std::string(sid), ep);
  if (!entry) return json_error(req, bhttp::status::not_found, -32001, "Session not found");
  return std::move(entry->transport);
}

Routed route_of(ServerState& state, const boost::asio::ip::tcp::socket& socket, const Request& req) {
  std::string_view target = req.target();
  const std::string path(target.substr(0, target.find('?')));
  if (state.stopping) return {json_error(req, bhttp::status::service_unavailable, -32000, "server is shutting down")};
  if (auto handler = state.route_for(path)) return {answer_route(*handler, socket, req)};
  auto held = state.endpoint_for(path);
  auto route = route_request(held->policy, req, false);
  if (auto* refused = std::get_if<Refusal>(&route)) return {refusal_response(req, *refused)};
  const Route r = std::get<Route>(route);
  if (r == Route::mcp_delete) return {delete_session(state, *held, req)};
  return {std::nullopt, std::move(held), r};
}

Begun begin_session_post(ServerState& state, const McpEndpoint& ep, const Request& req, CheckedPost& post) {
  auto* request = std::get_if<jsonrpc::Request>(&post.message);
  // Only the transport, as named_session says why.
  std::shared_ptr<SessionTransport> transport;
  if (request && request->method == mcp::method::kInitialize) {
    auto created = state.create_session(ep.shared_from_this());
    if (!created) return {json_error(req, bhttp::status::service_unavailable, -32000, created.error().message)};
    transport = std::move(created->transport);
  } else {
    auto named = named_session(state, ep, req);
    if (auto* refused = std::get_if<Response>(&named)) return {std::move(*refused)};
    transport = std::move(std::get<std::shared_ptr<SessionTransport>>(named));
  }

  if (!request) {  // a notification or a response: accepted, nothing to answer
    if (auto* n = std::get_if<jsonrpc::Notification>(&post.message); n && n->method == mcp::method::kInitialized) {
      transport->mark_initialized();  // the handshake is complete: no longer reaped by initialize_timeout
    }
    transport->deliver(std::move(post.message), req.body().size());
    return {empty_response(req, bhttp::status::accepted)};
  }
  auto opened = transport->open_request_stream(request->id);
  if (!opened) {
    auto status = opened.error().code == error_code::kInvalidRequest ? bhttp::status::bad_request
                                                                    : bhttp::status::too_many_requests;
    return {json_error(req, status, opened.error().code, opened.error().message, request->id)};
  }
  ++state.active_requests;
  transport->deliver(std::move(post.message), req.body().size());  // `request` points into it: not used after
  return {std::nullopt, std::move(transport), std::move(*opened)};
}

Begun begin_stateless(const McpEndpoint& ep, const Request& req, const CheckedPost& post, StatelessConn& conn) {
  const auto& request = std::get<jsonrpc::Request>(post.message);
  // A listen is a stream of notifications: a client that cannot read SSE cannot have one.
  if (request.method == mcp::method::kSubscriptionsListen && !post.sse_ok) {
    return {json_error(req, bhttp::status::bad_request, error_code::kInvalidRequest,
                       "subscriptions/listen needs Accept: text/event-stream", request.id)};
  }
  auto made = conn.transport_for(ep);
  if (!made) return {json_error(req, bhttp::status::service_unavailable, -32000, made.error().message, request.id)};
  auto opened = (*made)->open_request_stream(request.id);
  if (!opened) return {json_error(req, bhttp::status::service_unavailable, -32000, opened.error().message, request.id)};
  return {std::nullopt, std::move(*made), std::move(*opened)};
}

}  // namespace mcp::http
