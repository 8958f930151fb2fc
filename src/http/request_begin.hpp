// Private: the part of serving one HTTP request that awaits nothing — routing it, refusing it,
// finding its session, opening the stream its answer comes on — as plain functions that return
// either the one response to write now or what the connection's coroutine goes on with
// (connection.cpp).
//
// Why not inside the coroutines: GCC 12 keeps every temporary that lives across a suspension in the
// coroutine's frame, one slot per expression, so each `co_await write(..., json_error(...))` branch
// used to add a Response to the frame of every request, errors or not. Past ~1 KiB a frame misses
// both Asio's recycling allocator and glibc's tcache and takes malloc's slow path, once per request
// per frame (bench/RESULTS.md, 2026-12-03). Made here, a coroutine holds one Response at most.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/http.hpp>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "http/request_checks.hpp"
#include "http/server_impl.hpp"
#include "http/stateless_conn.hpp"

namespace mcp::http {

using Response = boost::beast::http::response<boost::beast::http::string_body>;

// A JSON-RPC error as the whole HTTP response, with `status`.
Response json_error(const Request& req, boost::beast::http::status status, int code, std::string message,
                    const jsonrpc::Id& id = nullptr, std::optional<json::value> data = std::nullopt);

// A request, routed: the answer to write now (shutting down, a plain route's, a refusal, a DELETE's),
// or the MCP endpoint and what it is asked for. The endpoint is held for as long as the request
// runs: it may be removed meanwhile. `socket` gives a plain route its peer's address.
struct Routed {
  std::optional<Response> answer;
  std::shared_ptr<const McpEndpoint> endpoint;
  Route route = Route::extra_route;
};
Routed route_of(ServerState& state, const boost::asio::ip::tcp::socket& socket, const Request& req);

// A request begun: the answer to write now, or the session transport that serves it and the
// stream its answer comes on.
struct Begun {
  std::optional<Response> answer;
  std::shared_ptr<SessionTransport> transport;
  std::shared_ptr<Stream> st;
};

// A session POST (2025-11-25), checked: a refusal, a session error or the 202 of a notification or
// response (delivered), or the request delivered and its stream. With a stream it has counted the
// request in `state.active_requests`, which the caller undoes when the request ends. The message
// is moved out of `post`.
Begun begin_session_post(ServerState& state, const McpEndpoint& ep, const Request& req, CheckedPost& post);

// A stateless (2026-07-28) POST: its connection's stateless session and the request's stream, or
// the error answered instead. The request is not delivered yet.
Begun begin_stateless(const McpEndpoint& ep, const Request& req, const CheckedPost& post, StatelessConn& conn);

// How a request is refused (request_checks.hpp), as its response.
Response refusal_response(const Request& req, const Refusal& r);

// The transport of the session a request names in Mcp-Session-Id, or the answer that it names none
// (400) or none of `ep`'s (404). Only the transport: holding the ServerSession could make the
// caller's I/O thread drop its last reference, and its destructor joins the session's workers.
std::variant<Response, std::shared_ptr<SessionTransport>> named_session(ServerState& state, const McpEndpoint& ep,
                                                                        const Request& req);

}  // namespace mcp::http
